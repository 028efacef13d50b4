"""Mini App edits go through the same rules as the panels."""

from __future__ import annotations

import pytest

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu.campaign import campaign_of, character_of, load_edits
from core.rules.nsu.setup import DangerAndRewardRolled, MapDealt, SetupStep
from core.rules.rng import SeededRng
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    CARA,
    Harness,
    build_to_locations,
    build_world,
    card_fields,
)


def test_every_listed_module_loads_and_names_are_unique() -> None:
    edits = load_edits()
    assert "setup.tone" in edits and "character.finish" in edits and "clock.tick" in edits


def test_worldbuilding_steps_from_the_mini_app() -> None:
    h = Harness()
    h.open("nsu.setup", ALICE)
    with pytest.raises(Malformed):
        h.edit(ALICE, "setup.tone", {"notes": "Grim", "tools": ["teleport"]})
    h.edit(ALICE, "setup.tone", {"notes": "Grim", "tools": ["x_card"]})
    h.edit(BOB, "setup.agree", {})
    h.edit(CARA, "setup.agree", {})
    h.edit(ALICE, "setup.ban", {"text": "Robots"})
    h.edit(BOB, "setup.pass_ban", {})
    h.edit(CARA, "setup.pass_ban", {})
    with pytest.raises(NotYourTurn):
        h.edit(BOB, "setup.statement", {"text": "Bob first"})
    h.edit(ALICE, "setup.statement", {"text": "Mud walls", "builds_on": None})
    h.edit(BOB, "setup.statement", {"text": "Painted mud", "builds_on": 0})
    h.edit(CARA, "setup.card_full", {})
    h.edit(ALICE, "setup.scope", {"question": "travel_time", "text": "A day"})
    h.edit(ALICE, "setup.finish_scope", {})
    for pid, name in zip((ALICE, BOB, CARA, ALICE, BOB), "VWXYZ", strict=True):
        h.edit(pid, "setup.resource", {"name": name})
    h.edit(CARA, "setup.abundance", {"name": "X"})
    fields = dict.fromkeys(
        ("title", "description", "collateral_target", "danger_type", "treasure_type"), "x"
    )
    h.edit(ALICE, "setup.location", fields)
    setup = campaign_of(h.table()).require_setup()
    assert setup.step is SetupStep.LOCATIONS and setup.world.cards[0].author_id == ALICE


def test_character_from_the_mini_app() -> None:
    h = Harness()
    h.edit(ALICE, "character.name", {"name": "Moss"})
    h.edit(ALICE, "character.pronouns_and_look", {"pronouns": "he", "look": "Mossy"})
    h.edit(ALICE, "character.moods", {"d8": "Calm", "d6": "Sly", "d4": "Sad"})
    with pytest.raises(Malformed):
        h.edit(ALICE, "character.aspects", {"body": "d8", "mind": "d8", "heart": "d4"})
    h.edit(ALICE, "character.aspects", {"body": "d4", "mind": "d8", "heart": "d6"})
    h.edit(ALICE, "character.sentiments", {"sentiments": ["Hat", None, "Home"]})
    h.edit(ALICE, "character.skills", {"skills": ["Run", "Hide", "Sing"]})
    h.edit(ALICE, "character.finish", {})
    character = character_of(h.table().seat(ALICE))
    assert character is not None and character.name == "Moss"
    with pytest.raises(NotAllowedNow):
        h.edit(ALICE, "character.name", {"name": "Again"})


def test_clock_edits_need_a_visible_card() -> None:
    h = Harness()
    build_world(h)
    world = campaign_of(h.table()).require_world()
    bobs = next(c for c in world.cards if c.author_id == BOB)
    with pytest.raises(NotAllowedNow):
        h.edit(ALICE, "clock.tick", {"card_id": bobs.id})
    h.edit(BOB, "clock.tick", {"card_id": bobs.id})
    h.edit(BOB, "clock.tick", {"card_id": bobs.id})
    h.edit(BOB, "clock.untick", {"card_id": bobs.id})
    assert campaign_of(h.table()).require_world().card(bobs.id).clock.ticks == 1


def test_safety_edits() -> None:
    h = Harness()
    h.edit(ALICE, "safety.line", {"text": "Spiders"})
    h.edit(BOB, "safety.veil", {"text": "Grief"})
    h.edit(CARA, "safety.x_card", {})
    h.edit(CARA, "safety.knock", {})
    safety = campaign_of(h.table()).safety
    assert safety.lines == ("Spiders",) and safety.veils == ("Grief",)
    assert safety.x_cards == 1 and safety.knocks == 1
    with pytest.raises(Malformed):
        h.edit(ALICE, "safety.line", {})


def _card(pid: int, n: int) -> dict[str, str]:
    keys = ("title", "description", "collateral_target", "danger_type", "treasure_type")
    return dict(zip(keys, card_fields(pid, n), strict=True))


def test_dealing_and_rolling_from_the_mini_app_follow_the_group_rules() -> None:
    h = Harness(rng=SeededRng(11))
    build_to_locations(h)
    for pid in (ALICE, BOB, CARA):
        for n in (1, 2):
            if (pid, n) != (CARA, 2):
                h.edit(pid, "setup.location", _card(pid, n))
    before = h.table().state
    with pytest.raises(NotAllowedNow):  # a card is still being written
        h.edit(ALICE, "setup.deal", {"columns": 3})
    with pytest.raises(NotAllowedNow):
        h.edit(ALICE, "setup.roll", {})
    assert h.table().state == before
    h.edit(CARA, "setup.location", _card(CARA, 2))
    with pytest.raises(Malformed):
        h.edit(ALICE, "setup.deal", {"columns": 0})
    with pytest.raises(Malformed):
        h.edit(ALICE, "setup.deal", {"columns": "3"})
    with pytest.raises(NotAllowedNow):  # not building this world
        h.edit(999, "setup.deal", {"columns": 3})
    with pytest.raises(NotAllowedNow):  # dealing comes first
        h.edit(ALICE, "setup.roll", {})
    dealt = h.edit(BOB, "setup.deal", {"columns": 3})
    assert any(isinstance(e, MapDealt) for e in dealt.events)
    setup = campaign_of(h.table()).require_setup()
    assert setup.step is SetupStep.DANGER_AND_REWARD
    assert all(c.danger is None and c.id.startswith("L") for c in setup.world.cards)
    with pytest.raises(NotAllowedNow):
        h.edit(BOB, "setup.deal", {"columns": 2})
    rolled = h.edit(CARA, "setup.roll", {})
    assert sum(isinstance(e, DangerAndRewardRolled) for e in rolled.events) == 6
    world = campaign_of(h.table()).require_world()
    assert all(c.danger is not None and c.reward is not None for c in world.cards)

    # The same table and the same dice through the group's panel build the same map.
    g = Harness(rng=SeededRng(11))
    build_world(g)
    assert campaign_of(g.table()).require_world() == world
