"""How the chat's roll history (/rolls) reads: one message, newest roll last."""

from __future__ import annotations

from datetime import datetime

from babel.dates import format_datetime

from core.i18n import DEFAULT, PSEUDO, Lang
from core.roll_history import StoredRoll
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
    """One roll: when, who, what, the total, the note."""
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
