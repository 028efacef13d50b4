"""The words of /system: a group's own game systems and the library's."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import ForceReply

from core.campaigns.own_games import VersionMoved
from core.campaigns.own_systems import EXAMPLE, Listed, OwnVersion
from core.rules.systems.drafting import Step
from core.words.i18n import Lang
from tgbot.render.text import esc

SHOWN_TEXT = 3500  # a definition shown by /system show, at most (a message's limit)


def words(lang: Lang) -> dict[str, set[str]]:
    """Every typed form of /system's words in ``lang``."""
    typed = {
        "new": lang.pgettext("a word players type after /system", "new"),
        "edit": lang.pgettext("a word players type after /system", "edit"),
        "show": lang.pgettext("a word players type after /system", "show"),
        "delete": lang.pgettext("a word players type after /system", "delete"),
        "share": lang.pgettext("a word players type after /system", "share"),
        "import": lang.pgettext("a word players type after /system", "import"),
        "cancel": lang.pgettext("a word players type after /system", "cancel"),
        "use": lang.pgettext("a word players type after /system", "use"),
    }
    return {which: {which, *words.split("|")} for which, words in typed.items()}


def usage(lang: Lang) -> str:
    return (
        step_by_step(lang)
        + "\n\n"
        + lang.gettext(
            "Write a game system of your own: <code>/system new</code> and, in the same "
            "message, its definition. For example:\n<pre>/system new\n{example}</pre>\n"
            "Then <code>/system show KEY</code>, <code>/system edit</code> with the new text, "
            "<code>/system delete KEY</code>, <code>/system share KEY</code>.",
            example=esc(EXAMPLE.strip()),
        )
        + "\n"
        + lang.gettext(
            "Play one with <code>/newgame KEY</code>: the game keeps the version it started "
            "with until its host moves it to the newest with <code>/system use KEY</code>."
        )
    )


def step_by_step(lang: Lang) -> str:
    """How to write one by answering questions (under /system's usage)."""
    return lang.gettext(
        "Or send <code>/system new</code> alone: I ask for the name, the dice, the inputs "
        "and the outcomes in turn, and you answer each by replying."
    )


def question(step: Step, lang: Lang) -> str:
    """The question of one step of writing a game system, answered by reply."""
    asks = {
        Step.NAME: lang.gettext(
            "✍️ A new game system, step 1 of 4: its name. Reply to this message with the "
            "name in English and in Russian, as in <code>Moonfall / Лунопад</code>."
        ),
        Step.DICE: lang.gettext(
            "✍️ Step 2 of 4: the dice. Reply with a count and a die, as in "
            "<code>2d6</code> or <code>3d10!</code>."
        ),
        Step.INPUTS: lang.gettext(
            "✍️ Step 3 of 4: what a roll adds to the dice. Reply with one input a line, its "
            "name in English and in Russian and its range, as in "
            "<code>modifier / модификатор -3..4</code>; or <code>-</code> for none."
        ),
        Step.BANDS: lang.gettext(
            "✍️ Step 4 of 4: the outcomes, best first. Reply with one a line, the least "
            "sum and the name in English and in Russian, as in "
            "<code>10 Strong hit / Сильный успех</code>; the last line without a number, "
            "as in <code>Miss / Провал</code>."
        ),
    }
    stop = lang.gettext("Reply “cancel” or send <code>/system cancel</code> to stop.")
    return f"{asks[step]}\n<i>{stop}</i>"


def answer_field(step: Step, lang: Lang) -> ForceReply:
    """The reply a question opens in its asker's app (and no one else's), with a short
    hint of what to write in the input field."""
    hints = {
        Step.NAME: lang.pgettext("input field hint", "Name in English / in Russian"),
        Step.DICE: lang.pgettext("input field hint", "Dice, as 2d6"),
        Step.INPUTS: lang.pgettext("input field hint", "One input a line, or -"),
        Step.BANDS: lang.pgettext("input field hint", "One outcome a line, best first"),
    }
    return ForceReply(selective=True, input_field_placeholder=hints[step])


def cancelled(dropped: bool, lang: Lang) -> str:
    if dropped:
        return lang.gettext("Dropped the game system you were writing.")
    return lang.gettext("You aren't writing a game system here.")


def listing(systems: Sequence[Listed], lang: Lang) -> str:
    own = [s for s in systems if s.own]
    shared = [s for s in systems if not s.own]
    lines = ["<b>" + lang.gettext("This group's game systems") + "</b>"]
    if own:
        lines += [
            lang.gettext(
                "<code>{key}</code> {name}, version {version}",
                key=esc(s.key),
                name=esc(s.name(lang.code)),
                version=s.version,
            )
            for s in own
        ]
    else:
        lines.append(lang.gettext("None yet: /system new writes one."))
    lines.append("")
    lines.append("<b>" + lang.gettext("The library") + "</b>")
    lines.append(", ".join(f"<code>{esc(s.key)}</code>" for s in shared))
    return "\n".join(lines)


def created(system: OwnVersion, lang: Lang) -> str:
    return lang.gettext(
        "✅ Kept <b>{name}</b> (<code>{key}</code>), version {version}.",
        name=esc(system.definition.name.in_language(lang.code)),
        key=esc(system.key),
        version=system.version,
    )


def older_in_play(key: str, version: int, lang: Lang) -> str:
    """After an edit: the game here still plays an older version, and how to move it on."""
    return "ℹ️ " + lang.gettext(
        "The game here still plays version {version}: its host moves it to the newest "
        "with <code>/system use {key}</code>.",
        version=version,
        key=esc(key),
    )


def moved(result: VersionMoved, lang: Lang) -> str:
    """A game moved on to the newest version of its system."""
    return "🔁 " + lang.gettext(
        "The game now plays <b>{name}</b> (<code>{key}</code>), version {after}, instead "
        "of version {before}. Rolls already made keep the version that rolled them.",
        name=esc(result.view.system.name),
        key=esc(result.key),
        after=result.after,
        before=result.before,
    )


def shown(system: OwnVersion, lang: Lang) -> str:
    text = system.text if len(system.text) <= SHOWN_TEXT else system.text[:SHOWN_TEXT] + "…"
    head = lang.gettext(
        "<b>{name}</b> (<code>{key}</code>), version {version}",
        name=esc(system.definition.name.in_language(lang.code)),
        key=esc(system.key),
        version=system.version,
    )
    return f"{head}\n<pre>{esc(text)}</pre>"


def deleted(key: str, lang: Lang) -> str:
    return lang.gettext("🗑 Deleted the game system <code>{key}</code>.", key=esc(key))


def shared_link(key: str, link: str, token: str, lang: Lang) -> str:
    return lang.gettext(
        "🔗 Share <code>{key}</code>: open {link} and pick a group, or write "
        "<code>/system import {token}</code> there. The group gets a copy of its own.",
        key=esc(key),
        link=esc(link),
        token=esc(token),
    )
