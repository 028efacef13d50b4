"""What one member of a No Stone Unturned campaign may see (ruling 12 and the sheets).

The campaign keeps secrets from some of its own members; everything shown to
a member, or kept by one (an export), is built from this projection:

* a location card's face (title, description, collateral target, danger and
  treasure types, scene details) and its Collateral Clock, unless the viewer
  wrote it, scouted it or it was flipped; once the map is dealt, its author too;
* who else scouted a card (a viewer keeps only their own look);
* another player's character draft (only its name, once chosen);
* another character's rumours, on their sheet and in the copies downtime and an
  Action Roll keep of it.

Every copy of the world the campaign keeps (worldbuilding's, the adventure's,
downtime's) goes through :func:`core.rules.nsu.world.world_seen_by`.
"""

from __future__ import annotations

from dataclasses import replace

from core.rules.errors import Malformed
from core.rules.nsu.downtime import DowntimeState
from core.rules.nsu.roll_state import RollState
from core.rules.nsu.sheet import Character, CharacterDraft
from core.rules.nsu.world import PlayerId, world_seen_by
from core.rules.table import Json


def character_seen_by(character: Character, owner: PlayerId, viewer: PlayerId) -> Character:
    """A character as ``viewer`` may see it: rumours stay with their owner."""
    if owner == viewer or not character.rumours:
        return character
    return replace(character, rumours=())


def sheet_seen_by(sheet: Json, owner: PlayerId, viewer: PlayerId) -> Json:
    """A member's stored sheet as ``viewer`` may see it.

    The owner sees all of it. Anyone else sees a finished character without its
    rumours, and of a draft only the name; nothing else a sheet may hold.
    """
    if owner == viewer:
        return sheet
    try:
        if "character" in sheet:
            character = Character.from_dict(sheet["character"])
            return {"character": character_seen_by(character, owner, viewer).to_dict()}
        if "draft" in sheet:
            draft = CharacterDraft.from_dict(sheet["draft"])
            return {"draft": CharacterDraft(name=draft.name).to_dict()}
    except Malformed:
        return {}
    return {}


def downtime_seen_by(downtime: DowntimeState, viewer: PlayerId) -> DowntimeState:
    """Downtime as ``viewer`` may see it: its world and its sheets projected."""
    return replace(
        downtime,
        world=world_seen_by(downtime.world, viewer),
        sheets=tuple((p, character_seen_by(c, p, viewer)) for p, c in downtime.sheets),
    )


def roll_seen_by(roll: RollState, viewer: PlayerId) -> RollState:
    """An Action Roll as ``viewer`` may see it: its copies of the sheets projected."""
    return replace(
        roll,
        participants=tuple(
            replace(p, character=character_seen_by(p.character, p.player, viewer))
            for p in roll.participants
        ),
        initial=tuple(
            replace(p, character=character_seen_by(p.character, p.player, viewer))
            for p in roll.initial
        ),
    )


def roll_panel_seen_by(state: Json, viewer: PlayerId) -> Json:
    """A stored Action Roll panel (``{"roll": ..., ...}``) as ``viewer`` may see it."""
    try:
        roll = RollState.from_dict(state.get("roll"))
    except Malformed:
        return {k: v for k, v in state.items() if k != "roll"}
    return {**state, "roll": roll_seen_by(roll, viewer).to_dict()}
