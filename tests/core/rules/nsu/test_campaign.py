"""The NSU campaign layer: stored state, sheets, seating and the edit table."""

from __future__ import annotations

import dataclasses
import json

import pytest

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu.campaign import (
    NsuCampaign,
    NsuCampaignRules,
    Phase,
    SafetyKind,
    add_safety_entry,
    begin_worldbuilding,
    campaign_of,
    character_of,
    draft_of,
    knock,
    play_x_card,
)
from core.rules.nsu.downtime import DowntimePlace, begin_downtime
from core.rules.nsu.sheet import CharacterDraft, choose_name
from core.rules.nsu.world import record_scout
from core.rules.rng import SeededRng
from core.rules.table import Json, Role, Seat, Table
from tests.support.nsu_table import character
from tests.support.nsu_table import world as small_world

ALICE, BOB, CARA = 1, 2, 3


def table(state: Json, *sheets: tuple[int, Json]) -> Table:
    seats = {pid: Seat(pid, f"P{pid}", frozenset({Role.PLAYER}), sheet) for pid, sheet in sheets}
    return Table(7, "nsu", state, seats)


def test_new_state_round_trips_through_json() -> None:
    rules = NsuCampaignRules()
    state = json.loads(json.dumps(rules.new_state()))
    campaign = NsuCampaign.from_dict(state)
    assert campaign.phase is Phase.SETUP
    assert campaign.setup is None and campaign.world is None
    assert NsuCampaign.from_dict({}) == campaign


def test_begin_needs_two_to_five_players_and_happens_once() -> None:
    with pytest.raises(NotAllowedNow):
        begin_worldbuilding(NsuCampaign(), (ALICE,))
    began = begin_worldbuilding(NsuCampaign(), (ALICE, BOB, CARA))
    assert began.require_setup().players == (ALICE, BOB, CARA)
    with pytest.raises(NotAllowedNow):
        begin_worldbuilding(began, (ALICE, BOB))
    again = NsuCampaign.from_dict(json.loads(json.dumps(began.to_dict())))
    assert again == began


def test_bad_state_is_malformed() -> None:
    with pytest.raises(Malformed):
        NsuCampaign.from_dict({"v": 99})
    with pytest.raises(Malformed):
        NsuCampaign.from_dict({"v": 1, "phase": "nowhere"})


def test_seated_gives_a_draft_and_keeps_existing_sheets() -> None:
    rules = NsuCampaignRules()
    state = rules.new_state()
    _, sheet = rules.seated(table(state, (ALICE, {})), ALICE)
    assert draft_of(Seat(ALICE, "A", frozenset(), sheet)) == CharacterDraft()
    named = {"draft": choose_name(CharacterDraft(), "Wren").to_dict()}
    _, kept = rules.seated(table(state, (ALICE, named)), ALICE)
    assert kept == named
    assert character_of(Seat(ALICE, "A", frozenset(), kept)) is None


def test_unknown_edit_is_malformed() -> None:
    rules = NsuCampaignRules()
    with pytest.raises(Malformed):
        rules.edit(table(rules.new_state(), (ALICE, {})), ALICE, "no-such-edit", {}, SeededRng(0))


def test_safety_tools_keep_no_names() -> None:
    campaign, _ = play_x_card(NsuCampaign())
    campaign, _ = knock(campaign)
    campaign, added = add_safety_entry(campaign, SafetyKind.LINE, "  spiders ")
    assert added.text == "spiders"
    with pytest.raises(NotAllowedNow):
        add_safety_entry(campaign, SafetyKind.LINE, "Spiders")
    campaign, _ = add_safety_entry(campaign, SafetyKind.VEIL, "grief")
    stored = campaign.to_dict()["safety"]
    assert stored == {"lines": ["spiders"], "veils": ["grief"], "x_cards": 1, "knocks": 1}
    assert campaign_of(table(campaign.to_dict())).safety == campaign.safety


def test_a_players_copy_keeps_only_the_faces_they_may_read() -> None:
    w, _ = record_scout(small_world((ALICE, BOB, CARA)), "b", CARA)  # Bob wrote b, Cara scouted it
    downtime, _ = begin_downtime(w, {ALICE: character("Ana")}, DowntimePlace.HOME, _Dice())
    setup = begin_worldbuilding(NsuCampaign(), (ALICE, BOB, CARA)).require_setup()
    state = NsuCampaign(
        phase=Phase.DOWNTIME,
        world=w,
        downtime=downtime,
        setup=dataclasses.replace(setup, world=w),
    ).to_dict()
    rules = NsuCampaignRules()
    for viewer, sees_b, sees_c in ((ALICE, False, False), (BOB, True, False), (CARA, True, True)):
        copy = json.dumps(rules.seen_by(state, viewer))
        assert "The <Drowned> Mill" in copy  # face up for everyone
        assert ("Glass Orchard" in copy) is sees_b
        assert ("The Hollow Tower" in copy) is sees_c
        kept = NsuCampaign.from_dict(rules.seen_by(state, viewer))
        assert kept.world is not None and kept.world.card("b").danger == w.card("b").danger
    assert NsuCampaignRules().seen_by(state, 99) != state  # a stranger's copy hides both


class _Dice:
    def randint(self, low: int, high: int) -> int:
        return low
