"""The worldbuilding, card and character panels, driven like the bot drives them."""

from __future__ import annotations

import json

import pytest

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu.campaign import Phase, campaign_of, character_of, draft_of
from core.rules.nsu.cards_panel import cards_view
from core.rules.nsu.character_panel import creation_view, split_parts
from core.rules.nsu.setup import SettlementEnd, SettlementFinished, SetupStep
from core.rules.nsu.setup_panel import board, column_choices
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    CARA,
    Harness,
    build_world,
    card_fields,
    make_character,
)


def test_only_the_host_begins_and_needs_two_players() -> None:
    h = Harness()
    with pytest.raises(NotYourTurn):
        h.open("nsu.setup", BOB)
    solo = Harness(players=(ALICE,))
    with pytest.raises(NotAllowedNow):
        solo.open("nsu.setup", ALICE)


def test_the_whole_worldbuilding_through_the_panel() -> None:
    h = Harness()
    panel = build_world(h)
    assert panel.closed
    campaign = campaign_of(h.table())
    assert campaign.phase is Phase.ADVENTURE and campaign.setup is None
    world = campaign.require_world()
    assert [b.text for b in world.bans] == ["No dragons", "No time travel"]
    assert len(world.settlement) == 2
    assert len(world.cards) == 6
    assert all(c.danger is not None and c.reward is not None for c in world.cards)
    assert [r.name for r in world.resources if r.level.name == "ABUNDANCE"] == ["Music"]


def test_settlement_turns_and_two_passes() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    h.act(panel, ALICE, "text", "Tone")
    h.act(panel, BOB, "agree")
    h.act(panel, CARA, "agree")
    for pid in (ALICE, BOB, CARA):
        h.act(panel, pid, "pass")
    view = board(h.table(), panel.state)
    assert view is not None and view.step is SetupStep.SETTLEMENT and view.speaker == ALICE
    with pytest.raises(NotYourTurn):
        h.act(panel, BOB, "text", "Out of turn")
    h.act(panel, ALICE, "pass")
    h.act(panel, BOB, "pass")
    assert SettlementFinished(SettlementEnd.TWO_PASSES) in panel.events
    view = board(h.table(), panel.state)
    assert view is not None and view.step is SetupStep.SCOPE


def test_tools_toggle_before_and_after_a_proposal() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    h.act(panel, BOB, "tool", "2")  # leave out knocks
    h.act(panel, BOB, "text", "Gentle")
    view = board(h.table(), panel.state)
    assert view is not None and len(view.tools) == 2 and view.agreed == {BOB}
    h.act(panel, ALICE, "tool", "2")  # put knocks back: a new proposal
    view = board(h.table(), panel.state)
    assert view is not None and len(view.tools) == 3 and view.agreed == {ALICE}
    with pytest.raises(Malformed):
        h.act(panel, ALICE, "tool", "9")


def test_scope_questions_move_on_with_answers_and_skips() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    h.act(panel, ALICE, "text", "Tone")
    h.act(panel, BOB, "agree")
    h.act(panel, CARA, "agree")
    for pid in (ALICE, BOB, CARA):
        h.act(panel, pid, "pass")
    h.act(panel, ALICE, "pass")
    h.act(panel, BOB, "pass")
    first = board(h.table(), panel.state)
    h.act(panel, CARA, "skipq")
    h.act(panel, CARA, "text", "Three days on foot")
    world = campaign_of(h.table()).current_world()
    assert first is not None and world is not None
    assert world.scope[0].question is not first.question


def test_board_and_events_never_show_a_card_face() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    h.act(panel, ALICE, "text", "Tone")
    h.act(panel, BOB, "agree")
    h.act(panel, CARA, "agree")
    for pid in (ALICE, BOB, CARA):
        h.act(panel, pid, "pass")
    h.act(panel, ALICE, "pass")
    h.act(panel, BOB, "pass")
    h.act(panel, ALICE, "scope")
    for pid, name in zip((ALICE, BOB, CARA, ALICE, BOB), "ABCDE", strict=True):
        h.act(panel, pid, "text", name)
    h.act(panel, ALICE, "abundance", "0")
    cards = h.open("nsu.cards", BOB, "55")
    for value in card_fields(BOB, 1):
        h.act(cards, BOB, "text", value)
    public = repr(board(h.table(), panel.state)) + repr(panel.state) + repr(cards.events)
    for secret in card_fields(BOB, 1):
        assert secret not in public
    own = cards_view(h.table(), cards.state)
    assert own.written[0].title == card_fields(BOB, 1)[0]
    assert cards.state["board"] == 55
    with pytest.raises(NotYourTurn):
        h.act(cards, ALICE, "text", "mine now")


def test_cards_wait_for_their_step_and_stop_at_two() -> None:
    h = Harness()
    h.open("nsu.setup", ALICE)
    with pytest.raises(NotAllowedNow):
        h.open("nsu.cards", ALICE)
    h2 = Harness()
    build_world(h2)
    with pytest.raises(NotAllowedNow):
        h2.open("nsu.cards", ALICE)


def test_character_creation_step_by_step_with_rumours() -> None:
    h = Harness()
    build_world(h)
    panel = h.open("nsu.character", ALICE)
    view = creation_view(h.table(), panel.state)
    assert [c.author_id for c in view.cards] == [ALICE, ALICE]
    with pytest.raises(NotYourTurn):
        h.act(panel, BOB, "text", "Bob")
    make_character(h, BOB)
    character = character_of(h.table().seat(BOB))
    assert character is not None
    assert [m.name for m in character.moods if m.name] == ["Curious", "Wary", "Angry"]
    assert character.sentiments[1].name is None
    assert [s.modifier for s in character.skills] == [1, 1, 1]
    assert len(character.rumours) == 2
    with pytest.raises(NotAllowedNow):
        h.open("nsu.character", BOB)


def test_finish_refuses_missing_steps_and_keeps_the_draft() -> None:
    h = Harness()
    panel = h.open("nsu.character", ALICE)
    h.act(panel, ALICE, "text", "Wren")
    with pytest.raises(NotAllowedNow):
        h.act(panel, ALICE, "finish")
    draft = draft_of(h.table().seat(ALICE))
    assert draft is not None and draft.name == "Wren"
    h.act(panel, ALICE, "text", "they/them")
    h.act(panel, ALICE, "text", "Tall")
    with pytest.raises(Malformed):
        h.act(panel, ALICE, "text", "Only one mood")
    with pytest.raises(NotAllowedNow):
        h.act(panel, ALICE, "aspects", "0")  # not the aspects step yet
    h.act(panel, ALICE, "goto", "3")
    h.act(panel, ALICE, "aspects", "5")
    draft = draft_of(h.table().seat(ALICE))
    assert draft is not None and draft.look == "Tall" and draft.aspects is not None
    json.dumps(h.sheets)


def test_split_parts_and_column_choices() -> None:
    assert split_parts("a, b, c", 3) == ("a", "b", "c")
    assert split_parts("a, b\nc\nd", 3) == ("a, b", "c", "d")
    with pytest.raises(Malformed):
        split_parts("a, b", 3)
    assert column_choices(6) == (2, 3, 4)
    assert column_choices(0) == ()


def test_a_statement_can_build_on_an_earlier_one() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    h.act(panel, ALICE, "text", "Tone")
    h.act(panel, BOB, "agree")
    h.act(panel, CARA, "agree")
    for pid in (ALICE, BOB, CARA):
        h.act(panel, pid, "pass")
    h.act(panel, ALICE, "text", "Walls of buses")
    h.act(panel, BOB, "text", "^1 The buses are painted")
    view = board(h.table(), panel.state)
    assert view is not None
    assert view.settlement[1][1:] == ("The buses are painted", 0)
    with pytest.raises(Malformed):
        h.act(panel, CARA, "text", "^9 Nothing to build on")


def test_character_panel_remembers_the_board_to_redraw() -> None:
    h = Harness()
    panel = h.open("nsu.character", ALICE, "42")
    assert panel.state["board"] == 42
