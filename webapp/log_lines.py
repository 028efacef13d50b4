"""A campaign log's lines as the pages show them: the log page, the roll history and
the shared story all read them from here."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from babel.dates import format_datetime

from core.campaigns import CampaignView
from core.rules.log import LogKind
from core.rules.table import Table
from core.views.projection import LogLineView
from core.words.i18n import DEFAULT, PSEUDO, Lang, lang_for

# What a log line is about, as the page tags it (nouns: "a roll", not "to roll").
KINDS: dict[LogKind, Callable[[Lang], str]] = {
    LogKind.ROLL: lambda lang: lang.pgettext("a log line's tag", "roll"),
    LogKind.DETAIL: lambda lang: lang.pgettext("a log line's tag", "detail"),
    LogKind.MAP: lambda lang: lang.pgettext("a log line's tag", "map"),
    LogKind.CLOCK: lambda lang: lang.pgettext("a log line's tag", "clock"),
    LogKind.UNDO: lambda lang: lang.pgettext("a log line's tag", "undo"),
    LogKind.SAID: lambda lang: lang.pgettext("a log line's tag", "said"),
}


def kind_label(kind: LogKind | str, lang: Lang) -> str:
    """The tag a line shows: its kind in ``lang``; a tag this version does not know, as stored."""
    return KINDS[kind](lang) if isinstance(kind, LogKind) else kind


def moment(at: datetime, lang: Lang) -> str:
    """Day, month and time: "03 Sep 14:05" in English (as always), Babel's month elsewhere."""
    if lang.code in (DEFAULT, PSEUDO):
        return at.strftime("%d %b %H:%M")
    return format_datetime(at, "dd MMM HH:mm", tzinfo=at.tzinfo, locale=lang.babel_locale)


def character_names(view: CampaignView, table: Table) -> dict[int, str]:
    """Characters' names by player, where the system has named characters."""
    return dict(view.system.campaign.character_names(table))


def log_context(
    view: CampaignView,
    entries: tuple[LogLineView, ...],
    who: int | None,
    characters: dict[int, str] | None = None,
    lang: Lang | None = None,
) -> dict[str, Any]:
    """Entries (optionally only those about one player) and the filter's choices."""
    shown = [e for e in entries if who is None or who in e.players]
    characters = characters or {}
    lang = lang or lang_for(None)
    return {
        "who": who,
        "people": [
            {"id": m.player_id, "name": m.name, "character": characters.get(m.player_id)}
            for m in view.members
        ],
        "entries": [
            {
                "kind": str(e.kind),
                "label": kind_label(e.kind, lang),
                "text": e.text_in(lang),
                "players": list(e.players),
                "at": e.at.isoformat(),
                "time": moment(e.at, lang),
            }
            for e in shown
        ],
    }
