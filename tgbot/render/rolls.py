"""How the chat's roll history (/rolls) reads: one message, newest roll last."""

from __future__ import annotations

from datetime import datetime

from babel.dates import format_datetime

from core.store.roll_history import StoredRoll
from core.words.i18n import DEFAULT, PSEUDO, Lang
from core.words.systems_words import history_words
from tgbot.render.text import esc

NAME_LIMIT = 40
NOTATION_LIMIT = 60
NOTE_LIMIT = 80


def moment(at: datetime, lang: Lang) -> str:
    """Day, month and time (UTC) as the reader's language writes them: "03 Sep 14:05"."""
    if lang.code in (DEFAULT, PSEUDO):
        return at.strftime("%d %b %H:%M")
    return format_datetime(at, "dd MMM HH:mm", tzinfo=at.tzinfo, locale=lang.babel_locale)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def roll_line(roll: StoredRoll, lang: Lang) -> str:
    """One roll: when, who, what, the total, the note (a game system's roll: the system,
    the version that rolled, the inputs, the outcome and its chance)."""
    if roll.system is not None:
        what, came = history_words(roll.system, lang)
        line = lang.gettext(
            "{time} · <b>{name}</b>: {what} → <b>{outcome}</b>",
            time=esc(moment(roll.at, lang)),
            name=esc(_cut(roll.who, NAME_LIMIT)),
            what=esc(what),
            outcome=esc(came),
        )
        return line + (" " + lang.gettext("(rolled in secret, revealed)") if roll.secret else "")
    line = lang.gettext(
        "{time} · <b>{name}</b>: <code>{notation}</code> → <b>{total}</b>",
        time=esc(moment(roll.at, lang)),
        name=esc(_cut(roll.who, NAME_LIMIT)),
        notation=esc(_cut(roll.notation, NOTATION_LIMIT)),
        total=roll.total,
    )
    if roll.note:
        line += f" — <i>{esc(_cut(roll.note, NOTE_LIMIT))}</i>"
    if roll.secret:
        line += " " + lang.gettext("(rolled in secret, revealed)")
    return line


def render_rolls(rolls: tuple[StoredRoll, ...], lang: Lang) -> str:
    """HTML for /rolls: the chat's last rolls, oldest first, or how to make one."""
    if not rolls:
        return lang.gettext("No rolls here yet. Roll with <code>/roll 2d6+3</code>.")
    head = "🎲 " + lang.ngettext(
        "<b>The last roll here</b> (times in UTC):",
        "<b>The last {num} rolls here</b> (times in UTC):",
        len(rolls),
    )
    return "\n".join([head, *(roll_line(r, lang) for r in reversed(rolls))])


FACE_BUDGET = 150


def secret_in_private(roll_text: str, where: str, lang: Lang) -> str:
    """A secret roll as its roller (or GM) reads it privately: where, then the roll."""
    head = "🤫 " + lang.gettext("<b>Secret roll</b> in {chat}", chat=esc(where))
    return head + "\n" + roll_text


def secret_in_chat(who: str, lang: Lang) -> str:
    """What the chat sees of a secret roll: only that it happened."""
    return "🤫 " + lang.gettext("<b>{name}</b> rolled in secret.", name=esc(_cut(who, NAME_LIMIT)))


def reveal_label(lang: Lang) -> str:
    return lang.gettext("👁 Reveal")


def open_private_first(who: str, lang: Lang) -> str:
    """The roller can't be written to: how to open the private chat, then roll again."""
    return "🔒 " + lang.gettext(
        "<b>{name}</b>, a secret roll goes to your private chat with me, and I can't write "
        "to you yet. Open our chat, press <b>Start</b>, then roll again. Nothing was rolled.",
        name=esc(_cut(who, NAME_LIMIT)),
    )


def revealed(roll: StoredRoll, by: str, lang: Lang, repeats: tuple[StoredRoll, ...] = ()) -> str:
    """A revealed secret roll, drawn from what was stored: each die (dropped ones struck
    out), the total (each repeat's, for a repeated roll), the note, and who revealed it."""
    rolls = repeats or (roll,)
    came = None
    if roll.system is not None:  # a game system's roll: its words, what it came to
        notation, came = history_words(roll.system, lang)
        rolls = (roll,)
    else:
        notation = roll.notation if len(rolls) == 1 else f"{len(rolls)}x{roll.notation}"
    head = "🎲 " + lang.gettext(
        "<b>{name}</b> rolled <code>{notation}</code> in secret",
        name=esc(_cut(roll.who, NAME_LIMIT)),
        notation=esc(notation),
    )
    if roll.note:
        head += f" — <i>{esc(roll.note)}</i>"
    lines = [head]
    budget = FACE_BUDGET
    for term in (term for one in rolls for term in one.faces):
        shown = term[:budget]
        budget -= len(shown)
        faces = ", ".join(str(v) if kept else f"<s>{v}</s>" for v, kept in shown)
        if len(term) > len(shown):
            faces += ", …"
        lines.append(f"[{faces}]")
    if came is not None:
        lines.append(f"<b>{esc(came)}</b>")
    elif len(rolls) == 1:
        lines.append("<b>" + lang.gettext("Total: {total}", total=roll.total) + "</b>")
    else:
        totals = ", ".join(str(one.total) for one in rolls)
        lines.append("<b>" + lang.gettext("Totals: {totals}", totals=totals) + "</b>")
    lines.append("👁 " + lang.gettext("Revealed by {name}.", name=esc(_cut(by, NAME_LIMIT))))
    return "\n".join(lines)
