"""The words of saved rolls in the chat: /save's answers and the /saved list."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns.saved_rolls import Renamed, Reread, SavedRoll, mark
from core.rules import dice
from core.words.i18n import N_, Lang
from tgbot.buttons.saved import SavedRollButton
from tgbot.render.text import esc

PER_ROW = 3
SHOWN_TEXT = 60  # a saved roll's notation in the list, at most (the message has a limit)


def _short(text: str) -> str:
    return text if len(text) <= SHOWN_TEXT else text[: SHOWN_TEXT - 1] + "…"


def usage_save(lang: Lang) -> str:
    return lang.gettext(
        "Save a roll under a name: <code>/save atk 1d20+5 adv</code>, then "
        "<code>/roll atk</code>, <code>/roll atk+2</code> or <code>/roll atk dis</code>. "
        "The host of a game can save one for the whole table: "
        "<code>/save {table} init 1d20+2</code>.",
        table=esc(table_word(lang)),
    )


def table_word(lang: Lang) -> str:
    """The word that makes /save save for the whole table, as the reader types it."""
    return lang.pgettext("a word players type after /save", "table").split("|")[0]


def rename_word(lang: Lang) -> str:
    return lang.pgettext("a word players type after /saved", "rename").split("|")[0]


def delete_word(lang: Lang) -> str:
    return lang.pgettext("a word players type after /saved", "delete").split("|")[0]


def words(lang: Lang) -> dict[str, set[str]]:
    """Every typed form of the table, rename and delete words in ``lang``."""
    return {
        "table": set(lang.pgettext("a word players type after /save", "table").split("|")),
        "rename": set(lang.pgettext("a word players type after /saved", "rename").split("|")),
        "delete": set(lang.pgettext("a word players type after /saved", "delete").split("|")),
    }


def saved(roll: SavedRoll, replaced: bool, lang: Lang) -> str:
    name, text = esc(roll.name), esc(_short(roll.text))
    if roll.table:
        line = lang.gettext(
            "💾 Saved <b>{name}</b> for the whole table: <code>{text}</code>.", name=name, text=text
        )
    elif replaced:
        line = lang.gettext("💾 <b>{name}</b> is now <code>{text}</code>.", name=name, text=text)
    else:
        line = lang.gettext("💾 Saved <b>{name}</b>: <code>{text}</code>.", name=name, text=text)
    return (
        line
        + " "
        + lang.gettext("Roll it with <code>/roll {name}</code>; /saved lists them.", name=name)
    )


def renamed(old: str, done: Renamed, lang: Lang) -> str:
    """The rename's answer, naming the saved rolls that used the old name and now use the new."""
    text = lang.gettext(
        "✏️ <b>{old}</b> is now called <b>{name}</b>.", old=esc(old), name=esc(done.roll.name)
    )
    if done.updated:
        names = ", ".join(f"<b>{esc(name)}</b>" for name in done.updated)
        text += "\n" + lang.gettext("Also updated: {names}.", names=names)
    return text


def deleted(roll: SavedRoll, lang: Lang) -> str:
    return lang.gettext("🗑 Deleted the saved roll <b>{name}</b>.", name=esc(roll.name))


# How each change in the notation's reading reads: before, and now.
_REWRITTEN = (
    N_("cs and cf counted successes and failures"),
    N_("the same count, written with =, > or f (cs and cf mark critical faces now)"),
)
_READING_CHANGES = {
    dice.TOTAL_TARGET: (
        N_("the comparison counted the dice that meet it, which none could"),
        N_("the comparison is the total's target"),
    ),
    dice.WORD_TARGET: (
        N_("“vs”, “dc” or “сл” and its number were the note"),
        N_("they set the total's target"),
    ),
    dice.SINGLE_KEEP: (
        N_("keep and drop took an exploded die with the dice it added, as one"),
        N_("keep and drop pick among every die rolled, added ones too"),
    ),
    dice.SPACED_NOT_EQUAL: (
        N_("“!=” after a space made the dice explode on that face"),
        N_("“!=” after a space means “not equal”"),
    ),
    dice.CRIT_MARKS: (
        N_("cs and cf counted successes and failures"),
        N_("cs and cf mark critical faces; the dice add up"),
    ),
}


def _reading_changes(roll: Reread) -> list[tuple[str, str]]:
    """How ``roll`` read before and reads now, change by change (untranslated)."""
    found = [_REWRITTEN] if roll.rewritten else []
    for change, reading in _READING_CHANGES.items():
        # a rewritten roll's cs and cf are told by the rewriting
        if change in roll.changes and not (change == dice.CRIT_MARKS and roll.rewritten):
            found.append(reading)
    return found


def rereads(found: Sequence[Reread], lang: Lang) -> str:
    """Saved rolls the notation reads otherwise now: for each, its old and new reading."""
    lines = [
        "<b>" + lang.gettext("ℹ️ Dice notation changed: some saved rolls read differently") + "</b>"
    ]
    for roll in found:
        changes = _reading_changes(roll)
        before = [lang.gettext(old) for old, _ in changes]
        now = [lang.gettext(new) for _, new in changes]
        lines.append(
            lang.gettext(
                "• <b>{name}</b> — before: <code>{before}</code>: {old}. "
                "Now: <code>{now}</code>: {new}.",
                name=esc(roll.name),
                before=esc(_short(roll.before)),
                old="; ".join(before) or lang.gettext("read as written"),
                now=esc(_short(roll.now)),
                new="; ".join(now) or lang.gettext("read as written"),
            )
        )
    return "\n".join(lines)


def listing(
    rolls: Sequence[SavedRoll], lang: Lang, owner: int
) -> tuple[str, InlineKeyboardMarkup | None]:
    """``owner``'s /saved message: each saved roll with its notation, and a button to roll
    each (which knows whose list it is on, and the roll as the list shows it)."""
    if not rolls:
        return lang.gettext(
            "You have no saved rolls yet. Save one with <code>/save atk 1d20+5</code>."
        ), None
    own = [r for r in rolls if not r.table]
    shared = [r for r in rolls if r.table]
    lines = []
    if own:
        lines.append("<b>" + lang.gettext("💾 Your saved rolls") + "</b>")
        lines += [f"• <b>{esc(r.name)}</b> — <code>{esc(_short(r.text))}</code>" for r in own]
    if shared:
        if lines:
            lines.append("")
        lines.append("<b>" + lang.gettext("🎲 The table's saved rolls") + "</b>")
        lines += [f"• <b>{esc(r.name)}</b> — <code>{esc(_short(r.text))}</code>" for r in shared]
    lines.append("")
    lines.append(
        lang.gettext(
            "Tap one to roll it. <code>/saved {rename} OLD NEW</code> renames one, "
            "<code>/saved {delete} NAME</code> deletes one.",
            rename=esc(rename_word(lang)),
            delete=esc(delete_word(lang)),
        )
    )
    buttons = [
        InlineKeyboardButton(
            f"🎲 {r.name}", callback_data=SavedRollButton(r.id, owner, mark(r)).encode()
        )
        for r in rolls
    ]
    rows = [buttons[i : i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]
    return "\n".join(lines), InlineKeyboardMarkup(rows)
