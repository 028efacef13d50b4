"""A player who leaves during worldbuilding never leaves the table waiting on them."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu import SYSTEM
from core.rules.nsu import setup as wb
from core.rules.nsu.campaign import campaign_of
from core.rules.nsu.setup import ActionKind, SetupState, SetupStep, allowed_actions
from core.rules.nsu.world import SafetyTool
from core.rules.table import Table
from tests.core.rules.nsu.table_support import ALICE, BOB, CARA, Harness, build_to_locations

PLAYERS = (11, 12, 13, 14, 15)


def _action(kind: ActionKind, state: SetupState, n: int, data: st.DataObject) -> wb.SetupAction:
    """A valid-looking action of ``kind`` (the rules may still refuse it)."""
    match kind:
        case ActionKind.PROPOSE_TONE:
            return wb.ProposeTone(f"tone {n}", frozenset({SafetyTool.X_CARD}))
        case ActionKind.AGREE_TONE:
            return wb.AgreeTone()
        case ActionKind.BAN:
            return wb.BanElement(f"ban {n}")
        case ActionKind.PASS_BAN:
            return wb.PassBan()
        case ActionKind.CHOOSE_FIRST_SPEAKER:
            return wb.ChooseFirstSpeaker(data.draw(st.sampled_from(state.players)))
        case ActionKind.MAKE_STATEMENT:
            return wb.MakeStatement(f"fact {n}")
        case ActionKind.PASS_STATEMENT:
            return wb.PassStatement()
        case ActionKind.DECLARE_CARD_FULL:
            return wb.DeclareCardFull()
        case ActionKind.ANSWER_SCOPE:
            return wb.AnswerScope(None, f"note {n}")
        case ActionKind.FINISH_SCOPE:
            return wb.FinishScope()
        case ActionKind.NAME_RESOURCE:
            return wb.NameResource(f"resource {n}")
        case ActionKind.CHOOSE_ABUNDANCE:
            return wb.ChooseAbundance(state.world.resources[0].name)
        case ActionKind.AUTHOR_LOCATION:
            return wb.AuthorLocation(f"place {n}", "a place", "the moss", "falls", "seeds")
        case ActionKind.DEAL_MAP:
            return wb.DealMap(data.draw(st.integers(1, 4)))
        case ActionKind.ROLL_DANGER_AND_REWARD:
            return wb.RollDangerAndReward()
    raise AssertionError(kind)


# Moves that keep a step going; leaving them out lets the walk reach every step.
_DAWDLING = {
    SetupStep.TONE: {ActionKind.PROPOSE_TONE},
    SetupStep.SCOPE: {ActionKind.ANSWER_SCOPE},
}


def _waits_only_on_players(state: SetupState) -> None:
    allowed = allowed_actions(state)
    assert set(allowed) <= set(state.players)
    assert state.speaker is None or state.speaker in state.players
    assert set(state.world.players) <= set(state.players)
    if state.step is SetupStep.SETTLEMENT:
        assert state.speaker in state.players
    if state.step is not SetupStep.DONE:
        assert allowed, f"nobody can act at {state.step}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seats=st.integers(2, 5))
def test_any_leave_at_any_step_never_waits_on_someone_gone(data: st.DataObject, seats: int) -> None:
    state = wb.new_setup(PLAYERS[:seats], settlement_capacity=4)
    rng = _DrawnRng(data)
    for n in range(data.draw(st.integers(0, 70), label="moves")):
        if state.step is SetupStep.DONE:
            break
        if len(state.players) > 1 and data.draw(st.integers(0, 5), label="leave?") == 0:
            waited_on = sorted(allowed_actions(state)) or list(state.players)
            leaver = data.draw(st.sampled_from(waited_on), label="leaver")
            before = state
            state, _ = wb.without_player(state, leaver)
            assert leaver not in state.players
            assert state.world.cards == before.world.cards  # what they wrote stays
            _waits_only_on_players(state)
            continue
        allowed = allowed_actions(state)
        actor = data.draw(st.sampled_from(sorted(allowed)), label="actor")
        kinds = sorted(allowed[actor] - _DAWDLING.get(state.step, set()), key=lambda k: k.value)
        kind = data.draw(st.sampled_from(kinds or sorted(allowed[actor], key=lambda k: k.value)))
        try:
            state, _ = wb.apply(state, actor, _action(kind, state, n, data), rng)
        except (Malformed, NotAllowedNow):
            continue
        _waits_only_on_players(state)


class _DrawnRng:
    """Dice drawn by Hypothesis, so failures shrink to the faces that matter."""

    def __init__(self, data: st.DataObject) -> None:
        self._data = data

    def randint(self, low: int, high: int) -> int:
        return self._data.draw(st.integers(low, high))


def test_leaving_someone_not_in_the_worldbuilding_changes_nothing() -> None:
    state = wb.new_setup((ALICE, BOB))
    assert wb.without_player(state, CARA) == (state, ())


def _without(h: Harness, leaver: int) -> Table:
    table = h.table()
    seats = {p: s for p, s in table.seats.items() if p != leaver}
    return Table(table.campaign_id, table.system, table.state, seats)


def test_the_settlement_turn_moves_on_when_the_speaker_leaves() -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    h.act(panel, ALICE, "text", "Weird and hopeful")
    h.act(panel, BOB, "agree")
    h.act(panel, CARA, "agree")
    for pid in (ALICE, BOB, CARA):
        h.act(panel, pid, "pass")
    h.act(panel, ALICE, "text", "Mud walls")  # Bob is up
    table = _without(h, BOB)
    after = Table(1, "nsu", SYSTEM.campaign.left(table, BOB), table.seats)
    setup = campaign_of(after).require_setup()
    assert setup.players == (ALICE, CARA) and setup.speaker == CARA
    assert setup.passes_in_row == 0  # leaving is not a pass
    assert SYSTEM.campaign.redrawn(table, after) == ("nsu.setup",)
    assert SYSTEM.campaign.redrawn(after, after) == ()


def test_a_leaver_s_written_cards_stay_and_the_step_completes() -> None:
    h = Harness()
    build_to_locations(h)
    fields = {
        "title": "Glass Orchard",
        "description": "Trees of blown glass.",
        "collateral_target": "the bees",
        "danger_type": "shards",
        "treasure_type": "seeds",
    }
    for n, pid in enumerate((ALICE, BOB, CARA, ALICE, BOB)):  # Cara wrote one of two
        h.edit(pid, "setup.location", {**fields, "title": f"Place {n}"})
    state = SYSTEM.campaign.left(_without(h, CARA), CARA)
    setup = campaign_of(Table(1, "nsu", state, {})).require_setup()
    assert setup.step is SetupStep.MAP and setup.players == (ALICE, BOB)
    assert [c.author_id for c in setup.world.cards].count(CARA) == 1


@pytest.mark.parametrize("leaver", [BOB, CARA])
def test_the_tone_is_agreed_when_only_the_leaver_had_not(leaver: int) -> None:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    h.act(panel, ALICE, "text", "Weird and hopeful")
    h.act(panel, BOB if leaver == CARA else CARA, "agree")
    state = SYSTEM.campaign.left(_without(h, leaver), leaver)
    setup = campaign_of(Table(1, "nsu", state, {})).require_setup()
    assert setup.step is SetupStep.BANS
