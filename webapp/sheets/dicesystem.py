"""The pages of the library's games (see :mod:`core.rules.dicesystem`), one per game, and
of a group's own: who plays, and each player's named stats where the game's definition
has them (their own to set, within the range of the input each feeds, and to tap: the
stat's roll in the game's chat, as ``/roll STAT`` there)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.campaigns import CampaignView
from core.rules.dicesystem import OWN, ROLL_PANEL, definition_of, player_stats
from core.rules.errors import Malformed
from core.rules.systems import LIBRARY, Definition
from core.rules.table import Json, Table
from webapp.sheets import NOT_A_ROLL


def _stats(definition: Definition, sheet: Json) -> list[dict[str, Any]]:
    values = player_stats(definition, sheet)
    rows = []
    for stat in definition.stats:
        fed = definition.input(stat.feeds)
        rows.append(
            {
                "key": stat.key,
                "name": {"en": stat.name.en, "ru": stat.name.ru},
                "value": values[stat.key],
                "low": fed.low,
                "high": fed.high,
                "signed": fed.low < 0,
                "wide": fed.high - fed.low >= 20,  # also steps by ten
            }
        )
    return rows


@dataclass(frozen=True)
class DiceSheetPage:
    """A game as data's page: its players, and their stats."""

    key: str
    template: str = "sheets/dicesystem.html"

    def context(self, view: CampaignView, table: Table, viewer_id: int) -> dict[str, Any]:
        definition = definition_of(table.state)
        players = []
        for member in view.members:
            seat = table.seat(member.player_id)
            players.append(
                {
                    "player": member.player_id,
                    "name": member.name,
                    "own": member.player_id == viewer_id,
                    "stats": _stats(definition, seat.sheet if seat is not None else {}),
                }
            )
        players.sort(key=lambda p: not p["own"])  # the viewer's own first
        return {
            "members": [{"name": p["name"], "you": p["own"]} for p in players],
            "players": players if definition.stats else [],
            "about": {"en": definition.about.en, "ru": definition.about.ru},
        }

    def roll(self, what: str, name: str) -> tuple[str, str]:
        """A stat: ``/roll <stat>``, rolled with the player's value of it."""
        if what != "stat" or not name.strip():
            raise Malformed(NOT_A_ROLL)
        return ROLL_PANEL, name.strip().split()[0]


PAGES = tuple(DiceSheetPage(key) for key in (*LIBRARY, OWN))
