"""A campaign log's lines as the pages show them: the log page, the roll history and
the shared story all read them from here."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from babel.dates import format_datetime

from core.campaigns import CampaignView
from core.rules.table import Table
from core.views.projection import LogLineView
from core.words.i18n import DEFAULT, PSEUDO, Lang, lang_for

# The tags a log line carries, as the page shows them (nouns: "a roll", not "to roll").
KINDS: dict[str, Callable[[Lang], str]] = {
    "roll": lambda lang: lang.pgettext("a log line's tag", "roll"),
    "detail": lambda lang: lang.pgettext("a log line's tag", "detail"),
    "map": lambda lang: lang.pgettext("a log line's tag", "map"),
    "clock": lambda lang: lang.pgettext("a log line's tag", "clock"),
    "undo": lambda lang: lang.pgettext("a log line's tag", "undo"),
    "said": lambda lang: lang.pgettext("a log line's tag", "said"),
}


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
                "kind": e.kind,
                "label": KINDS[e.kind](lang) if e.kind in KINDS else e.kind,
                "text": e.text_in(lang),
                "players": list(e.players),
                "at": e.at.isoformat(),
                "time": moment(e.at, lang),
            }
            for e in shown
        ],
    }
