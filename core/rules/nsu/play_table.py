"""What the play panels (Action Roll, downtime) read and write of an NSU campaign.

A thin layer over :mod:`core.rules.nsu.campaign`, so the panels never touch
the stored layout themselves: the phase, world and settings in the campaign
state, each member's character on their sheet.

Invariants: reading never changes anything; writing returns new JSON that keeps
everything it does not own; a member's other sheet keys are kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from core.rules.errors import NotAllowedNow
from core.rules.nsu.campaign import NsuCampaign, Phase, campaign_of, character_of, characters
from core.rules.nsu.downtime import DowntimeState
from core.rules.nsu.settings import NsuSettings
from core.rules.nsu.sheet import Character
from core.rules.nsu.world import PlayerId, World
from core.rules.table import Json, Table

__all__ = [
    "Phase",
    "campaign_of",
    "changed_sheets",
    "character_of",
    "characters",
    "require_world",
    "settings_of",
    "sheet_with",
    "stored",
]


def require_world(table: Table, phase: Phase | None = None) -> World:
    """The campaign's world, once worldbuilding is over.

    Raises:
        NotAllowedNow: the world is not built yet, or the campaign is in another phase.
    """
    campaign = campaign_of(table)
    if campaign.world is None or campaign.phase is Phase.SETUP:
        raise NotAllowedNow("Finish building the world and your characters first.")
    if phase is not None and campaign.phase is not phase:
        if phase is Phase.ADVENTURE:
            raise NotAllowedNow(
                "It's downtime: tap 🏁 End downtime on its message before the next adventure."
            )
        raise NotAllowedNow("That only happens during downtime.")
    return campaign.world


def settings_of(table: Table) -> NsuSettings:
    return campaign_of(table).settings


def stored(
    table: Table,
    *,
    world: World | None = None,
    phase: Phase | None = None,
    downtime: DowntimeState | None = None,
    end_downtime: bool = False,
) -> Json:
    """The campaign state with a new world, phase or downtime in place."""
    campaign: NsuCampaign = campaign_of(table)
    if world is not None:
        campaign = campaign.with_world(world)
    if phase is not None:
        campaign = replace(campaign, phase=phase)
    if downtime is not None:
        campaign = replace(campaign, downtime=downtime)
    if end_downtime:
        campaign = replace(campaign, downtime=None)
    return campaign.to_dict()


def sheet_with(seat_sheet: Mapping[str, Any], character: Character) -> Json:
    """A member's stored sheet with ``character`` written on it."""
    kept = {k: v for k, v in seat_sheet.items() if k != "draft"}
    return {**kept, "character": character.to_dict()}


def changed_sheets(table: Table, now: Mapping[PlayerId, Character]) -> dict[PlayerId, Json]:
    """Stored sheets for the players whose character differs from the table's."""
    out: dict[PlayerId, Json] = {}
    for player, character in now.items():
        seat = table.seat(player)
        if seat is not None and character_of(seat) != character:
            out[player] = sheet_with(seat.sheet, character)
    return out
