"""Mini App edits for play: scene details and a character's written details.

Granted details from an Action Roll are entered through the roll's panel (the
``text`` action of "nsu.roll", the same words as a reply in the chat), so the
roll keeps track of which grants are used. These edits cover what the table
keeps up by hand between rolls.

=========================== ==========================================================
action                      payload
=========================== ==========================================================
play.scene_detail           {"card_id": str, "text": str}   a revealed location's list
play.drop_scene_detail      {"card_id": str, "index": int}  a scene detail that no longer holds
play.drop_detail            {"index": int}                  one of your own Other Details
=========================== ==========================================================

Invariants: every edit needs the world built; a refused edit raises and
changes nothing; only the owner crosses out their own character's details.
"""

from __future__ import annotations

from dataclasses import replace

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu.campaign import EditHandler, campaign_of, character_of, outcome
from core.rules.nsu.play_table import sheet_with
from core.rules.nsu.world import add_scene_detail
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Table


def _text(payload: Json, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str):
        raise Malformed("“{key}” should be text.", key=key)
    return value


def _index(payload: Json) -> int:
    value = payload.get("index")
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed("“index” should be a whole number.")
    return value


def _scene_detail(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
    campaign = campaign_of(table)
    world = campaign.require_world()
    world.require_player(actor)
    world, events = add_scene_detail(world, _text(payload, "card_id"), _text(payload, "text"))
    return outcome(campaign.with_world(world), events)


def _drop_scene_detail(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
    campaign = campaign_of(table)
    world = campaign.require_world()
    world.require_player(actor)
    card = world.card(_text(payload, "card_id"))
    index = _index(payload)
    if not card.revealed:
        raise NotAllowedNow("That location has not been revealed yet.")
    if not 0 <= index < len(card.scene_details):
        raise Malformed("There is no such scene detail.")
    details = card.scene_details[:index] + card.scene_details[index + 1 :]
    return outcome(campaign.with_world(world.with_card(replace(card, scene_details=details))))


def _drop_detail(table: Table, actor: int, payload: Json, rng: Rng) -> Outcome:
    seat = table.seat(actor)
    character = character_of(seat)
    if seat is None or character is None:
        raise NotAllowedNow("You have no character yet.")
    changed = character.remove_detail(_index(payload))
    return outcome(campaign_of(table), sheets={actor: sheet_with(seat.sheet, changed)})


EDITS: dict[str, EditHandler] = {
    "play.scene_detail": _scene_detail,
    "play.drop_scene_detail": _drop_scene_detail,
    "play.drop_detail": _drop_detail,
}
