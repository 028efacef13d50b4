"""The Action Roll, step by step: one named test per rule statement."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu.action_roll import (
    Action,
    ActionKind,
    CancelRoll,
    ChooseAspect,
    ChooseMood,
    ChooseRisk,
    ChooseSkill,
    ChooseSkillSign,
    CreateSkill,
    DetailAdded,
    DetailGrant,
    DetailTarget,
    DieKept,
    Edge,
    EffectKind,
    EndangerSentiment,
    Help,
    KeepDie,
    Participant,
    PendingKind,
    Phase,
    PoolKind,
    RenameMood,
    ResultRow,
    Risk,
    RiskSentiment,
    Roll,
    RollCancelled,
    RollFinished,
    RollState,
    SetAspectEdge,
    Side,
    StateOutcome,
    TakeHelperDie,
    TargetKind,
    Winner,
    action_from_dict,
    action_to_dict,
    add_granted_detail,
    apply,
    check_grant,
    choose_arbiters,
    combine_edges,
    expected,
    start_roll,
    unused_grants,
    who_may_act,
    winner_for,
)
from core.rules.nsu.details import Detail, DetailKind, Polarity
from core.rules.nsu.settings import NsuSettings, settings_help
from core.rules.nsu.sheet import Aspect, Character, SentimentState
from core.rules.rng import ScriptedRng

from .support import (
    ARBITER,
    ARBITER2,
    HELPER,
    HELPER2,
    ROLLER,
    character,
    new_roll,
    play,
    to_prepare,
)


def keep_own(state: RollState) -> RollState:
    """The roller keeps their own mood die: asked only while an ally may still help."""
    if state.phase is Phase.AFTER_ROLL:
        assert ActionKind.HELP in {e.kind for e in expected(state)}
        state, _ = play(state, [TakeHelperDie(ROLLER, None)])
    assert state.phase is not Phase.AFTER_ROLL
    return state


def rolled(state: RollState, *faces: int) -> RollState:
    state, _ = play(state, [Roll(ROLLER)], ScriptedRng(faces))
    return state


def with_level(sheet: Character, line: int, level: int, overloaded: bool = False) -> Character:
    moods = list(sheet.moods)
    moods[line] = dataclasses.replace(moods[line], level=level, overloaded=overloaded)
    return dataclasses.replace(sheet, moods=tuple(moods))


# -- order and roles ---------------------------------------------------------------


def test_full_roll_runs_in_rulebook_order() -> None:
    state = new_roll()
    assert state.phase is Phase.DESIRED_OUTCOME
    state, _ = play(state, [StateOutcome(ROLLER, "Open the vault")])
    assert state.phase is Phase.STAKES
    state, _ = play(state, [ChooseAspect(ARBITER, Aspect.MIND), ChooseRisk(ARBITER, Risk.WORLD)])
    assert state.phase is Phase.MOOD
    state, _ = play(state, [ChooseMood(ROLLER, 0)])
    assert state.phase is Phase.ASPECT_EDGE
    state, _ = play(state, [SetAspectEdge(ROLLER)])
    assert state.phase is Phase.PREPARE
    state, events = play(state, [Roll(ROLLER)], ScriptedRng([3, 7]))
    # Nobody helped and nobody can: keeping the roller's own mood die is the one
    # possible answer, so the roll settles without asking.
    assert state.phase is Phase.DONE and isinstance(events[-1], RollFinished)
    assert expected(state) == ()
    assert state.outcome is not None and state.outcome.winner is Winner.PLAYER


def test_only_the_roller_states_the_desired_outcome() -> None:
    with pytest.raises(NotYourTurn):
        apply(new_roll(), StateOutcome(ARBITER, "Something"), ScriptedRng([]))
    with pytest.raises(Malformed):
        apply(new_roll(), StateOutcome(ROLLER, "   "), ScriptedRng([]))


def test_only_arbiters_choose_aspect_and_risk() -> None:
    state, _ = play(new_roll(), [StateOutcome(ROLLER, "Jump the gap")])
    with pytest.raises(NotYourTurn):
        apply(state, ChooseAspect(ROLLER, Aspect.BODY), ScriptedRng([]))
    with pytest.raises(NotYourTurn):
        apply(state, ChooseRisk(ROLLER, Risk.CHARACTER), ScriptedRng([]))
    state, _ = play(state, [ChooseRisk(ARBITER2, Risk.CHARACTER)])
    assert [e.kind for e in expected(state)] == [ActionKind.CHOOSE_ASPECT, ActionKind.CANCEL]


def test_out_of_order_action_is_refused_as_not_allowed_now() -> None:
    state = new_roll()
    with pytest.raises(NotAllowedNow) as info:
        apply(state, Roll(ROLLER), ScriptedRng([]))
    assert not isinstance(info.value, NotYourTurn)
    assert info.value.message


def test_a_stranger_is_told_it_is_not_their_turn() -> None:
    with pytest.raises(NotYourTurn):
        apply(new_roll(), StateOutcome(99, "Me too"), ScriptedRng([]))


def test_overcome_character_cannot_start_a_roll() -> None:
    sheet = character()
    for i in range(4):
        sheet = sheet.add_harm(f"Harm {i}")
    with pytest.raises(NotAllowedNow, match="Overcome"):
        new_roll(sheet)


def test_arbiters_are_the_off_screen_players() -> None:
    assert choose_arbiters([1, 2, 3, 4], on_screen=[1, 2], roller=1) == {3, 4}


def test_when_nobody_is_off_screen_everyone_else_arbitrates() -> None:
    assert choose_arbiters([1, 2, 3], on_screen=[1, 2, 3], roller=2) == {1, 3}


def test_roll_needs_an_arbiter_who_is_not_rolling() -> None:
    with pytest.raises(Malformed):
        start_roll(Participant(ROLLER, character()), set())
    with pytest.raises(Malformed):
        start_roll(Participant(ROLLER, character()), {ROLLER})


def test_roll_can_be_called_off_before_the_dice_and_sheets_are_restored() -> None:
    state = to_prepare(new_roll())
    assert state.sheet.moods[0].level == 1
    with pytest.raises(NotYourTurn):
        apply(state, CancelRoll(HELPER), ScriptedRng([]))
    state, events = play(state, [CancelRoll(ARBITER)])
    assert state.phase is Phase.CANCELLED and state.is_over and expected(state) == ()
    assert state.sheet.moods[0].level == 0 and state.changed_sheets() == ()
    assert isinstance(events[0], RollCancelled)


def test_roll_cannot_be_called_off_once_the_dice_are_out() -> None:
    state = rolled(to_prepare(new_roll()), 3, 5)
    with pytest.raises(NotAllowedNow):
        apply(state, CancelRoll(ROLLER), ScriptedRng([]))


def test_who_may_act_lists_kinds_by_player() -> None:
    state, _ = play(new_roll(), [StateOutcome(ROLLER, "Go")])
    assert who_may_act(state) == {
        ROLLER: {ActionKind.CANCEL},
        ARBITER: {ActionKind.CHOOSE_ASPECT, ActionKind.CHOOSE_RISK, ActionKind.CANCEL},
        ARBITER2: {ActionKind.CHOOSE_ASPECT, ActionKind.CHOOSE_RISK, ActionKind.CANCEL},
    }


def test_changed_sheets_lists_what_to_persist() -> None:
    state = keep_own(rolled(to_prepare(new_roll(helpers=[character("Bryn")])), 3, 5))
    assert [p.player for p in state.changed_sheets()] == [ROLLER]


def test_actions_round_trip_through_plain_data() -> None:
    actions = [
        StateOutcome(ROLLER, "Go"),
        ChooseRisk(ARBITER, Risk.WORLD),
        SetAspectEdge(ARBITER, ("Rope",), ()),
        KeepDie(ARBITER, PoolKind.HELP, HELPER, 1),
        TakeHelperDie(ROLLER, None),
        CancelRoll(ARBITER),
    ]
    for action in actions:
        assert action_from_dict(json.loads(json.dumps(action_to_dict(action)))) == action
    with pytest.raises(Malformed):
        action_from_dict({"kind": "dance", "actor": 1})


# -- granted details --------------------------------------------------------------------


def test_hard_grant_may_be_used_for_a_soft_or_scene_detail_by_its_adders() -> None:
    grant = DetailGrant(Side.PLAYER, False, DetailKind.HARD, frozenset({ROLLER}))
    for kind in DetailKind:
        check_grant(grant, ROLLER, Detail("Persuaded", kind))
    with pytest.raises(NotYourTurn):
        check_grant(grant, ARBITER, Detail("Persuaded"))


def test_scene_grant_cannot_become_hard_and_row_one_cost_is_negative() -> None:
    scene = DetailGrant(Side.PLAYER, False, DetailKind.SCENE, frozenset({ROLLER}))
    with pytest.raises(Malformed):
        check_grant(scene, ROLLER, Detail("Wanted"))
    cost = DetailGrant(Side.PLAYER, True, DetailKind.HARD, frozenset({HELPER}), Polarity.NEGATIVE)
    with pytest.raises(Malformed):
        check_grant(cost, HELPER, Detail("Lucky", polarity=Polarity.POSITIVE))
    check_grant(cost, HELPER, Detail("Winded"))


# -- mood --------------------------------------------------------------------------


def test_choosing_a_mood_marks_its_next_box_before_rolling() -> None:
    state = to_prepare(new_roll(), line=2)
    assert state.sheet.moods[2].level == 1
    assert state.phase is Phase.PREPARE


def test_a_new_mood_can_be_written_on_an_open_line() -> None:
    state = to_prepare(new_roll(), line=5, new_name="Giddy")
    mood = state.sheet.moods[5]
    assert (mood.name, int(mood.die), mood.level) == ("Giddy", 4, 1)


def test_an_open_line_needs_a_name() -> None:
    state, _ = play(
        new_roll(),
        [
            StateOutcome(ROLLER, "x"),
            ChooseAspect(ARBITER, Aspect.MIND),
            ChooseRisk(ARBITER, Risk.WORLD),
        ],
    )
    with pytest.raises(Malformed):
        apply(state, ChooseMood(ROLLER, 5), ScriptedRng([]))
    with pytest.raises(Malformed):
        apply(state, ChooseMood(ROLLER, 6), ScriptedRng([]))


def test_mood_level_rises_even_when_another_mood_is_overloaded() -> None:
    sheet = with_level(character(), 0, 5, overloaded=True)
    state = to_prepare(new_roll(sheet), line=2)
    assert state.sheet.moods[2].level == 1


# -- aspect advantage -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("advantage", "disadvantage", "edge"),
    [
        (False, False, Edge.NONE),
        (True, False, Edge.ADVANTAGE),
        (False, True, Edge.DISADVANTAGE),
        (True, True, Edge.NONE),
    ],
)
def test_advantage_and_disadvantage_cancel(advantage: bool, disadvantage: bool, edge: Edge) -> None:
    assert combine_edges(advantage, disadvantage) is edge


def test_several_favouring_details_count_once() -> None:
    state = to_prepare(new_roll(), favouring=("Rope", "Gloves", "Daylight"))
    assert state.aspect_edge is Edge.ADVANTAGE
    state = rolled(state, 2, 5, 4)
    assert state.aspect_pool is not None and len(state.aspect_pool.faces) == 2


def test_favouring_and_hindering_details_cancel() -> None:
    state = to_prepare(new_roll(), favouring=("Rope",), hindering=("Rain",))
    assert state.aspect_edge is Edge.NONE


def test_with_aspect_advantage_the_player_keeps_a_die() -> None:
    state = rolled(to_prepare(new_roll(), favouring=("Rope",)), 2, 5, 4)
    with pytest.raises(NotYourTurn):
        apply(state, KeepDie(ARBITER, PoolKind.ASPECT, ROLLER, 1), ScriptedRng([]))
    assert [e.kind for e in expected(state)] == [ActionKind.KEEP_DIE]  # no calling off now
    state, _ = play(state, [KeepDie(ROLLER, PoolKind.ASPECT, ROLLER, 0)])
    assert state.aspect_pool is not None and state.aspect_pool.face == 2


def test_with_aspect_disadvantage_the_arbiters_keep_a_die() -> None:
    state = rolled(to_prepare(new_roll(), hindering=("Rain",)), 2, 5, 4)
    with pytest.raises(NotYourTurn):
        apply(state, KeepDie(ROLLER, PoolKind.ASPECT, ROLLER, 0), ScriptedRng([]))
    state, _ = play(state, [KeepDie(ARBITER2, PoolKind.ASPECT, ROLLER, 1)])
    assert state.aspect_pool is not None and state.aspect_pool.face == 5


# -- steps with one possible answer are not asked ----------------------------------------


@pytest.mark.parametrize("favour", [True, False])
def test_two_equal_dice_are_kept_unasked(favour: bool) -> None:
    edge = {"favouring": ("Rope",)} if favour else {"hindering": ("Rain",)}
    state, events = play(to_prepare(new_roll(), **edge), [Roll(ROLLER)], ScriptedRng([5, 5, 4]))
    assert state.aspect_pool is not None and state.aspect_pool.face == 5
    assert not any(isinstance(e, DieKept) for e in events)  # kept as rolled: no step
    assert state.is_done  # and nobody could help: settled on the own mood die too


def test_the_own_mood_die_is_asked_for_while_an_ally_may_still_help() -> None:
    state = rolled(to_prepare(new_roll(helpers=[character("Bea")])), 3, 4)
    assert state.phase is Phase.AFTER_ROLL
    assert {e.kind for e in expected(state)} == {ActionKind.HELP, ActionKind.TAKE_HELPER_DIE}
    state = rolled(to_prepare(new_roll()), 3, 4)  # nobody on screen: one answer, not asked
    assert state.is_done and state.helper_used is None


@settings(max_examples=60, deadline=None)
@given(faces=st.lists(st.integers(1, 4), min_size=4, max_size=4), favour=st.booleans())
def test_no_step_left_open_has_a_single_possible_answer(faces: list[int], favour: bool) -> None:
    edge = {"favouring": ("Rope",)} if favour else {}
    state = rolled(to_prepare(new_roll(), **edge), *faces)
    for pool in (state.aspect_pool, state.mood_pool):
        assert pool is None or pool.kept is not None or len(set(pool.faces)) == 2
    open_now = {e.kind for e in expected(state)} - {ActionKind.CANCEL}
    assert open_now != {ActionKind.TAKE_HELPER_DIE}


def test_dice_must_be_kept_before_settling() -> None:
    state = rolled(to_prepare(new_roll(), hindering=("Rain",)), 2, 5, 4)
    with pytest.raises(NotAllowedNow):
        apply(state, TakeHelperDie(ROLLER, None), ScriptedRng([]))


def test_identical_faces_need_no_choice() -> None:
    state = rolled(to_prepare(new_roll(), hindering=("Rain",)), 5, 5, 4)
    assert state.aspect_pool is not None and state.aspect_pool.kept == 0
    with pytest.raises(NotAllowedNow):
        apply(state, KeepDie(ARBITER, PoolKind.ASPECT, ROLLER, 1), ScriptedRng([]))


def test_a_die_cannot_be_kept_twice() -> None:
    state = rolled(to_prepare(new_roll(), hindering=("Rain",)), 2, 5, 4)
    state, _ = play(state, [KeepDie(ARBITER2, PoolKind.ASPECT, ROLLER, 1)])
    with pytest.raises(NotAllowedNow):
        apply(state, KeepDie(ARBITER, PoolKind.ASPECT, ROLLER, 0), ScriptedRng([]))


# -- skills ----------------------------------------------------------------------


def test_created_skill_starts_at_zero_and_needs_no_sign() -> None:
    state, _ = play(to_prepare(new_roll()), [CreateSkill(ROLLER, "Lockpicking")])
    assert state.sheet.skills[3].modifier == 0 and state.skill == 3
    state = keep_own(rolled(state, 3, 5))
    assert state.phase is Phase.DONE
    assert state.outcome is not None and state.outcome.skill_shift == 0


def test_no_skill_can_be_created_when_six_lines_are_full() -> None:
    sheet = character().add_skill("A").add_skill("B").add_skill("C")
    state = to_prepare(new_roll(sheet))
    kinds = [e.kind for e in expected(state)]
    assert ActionKind.CREATE_SKILL not in kinds and ActionKind.CHOOSE_SKILL in kinds
    with pytest.raises(NotAllowedNow):
        apply(state, CreateSkill(ROLLER, "D"), ScriptedRng([]))


def test_only_one_skill_per_roll() -> None:
    state, _ = play(to_prepare(new_roll()), [ChooseSkill(ROLLER, 0)])
    with pytest.raises(NotAllowedNow):
        apply(state, ChooseSkill(ROLLER, 1), ScriptedRng([]))


@pytest.mark.parametrize(("add", "total"), [(True, 4), (False, 2)])
def test_skill_is_added_to_or_subtracted_from_the_aspect_die(add: bool, total: int) -> None:
    state, _ = play(to_prepare(new_roll()), [ChooseSkill(ROLLER, 0)])
    state = keep_own(rolled(state, 3, 6))
    assert state.phase is Phase.SKILL_SIGN
    state, _ = play(state, [ChooseSkillSign(ROLLER, add)])
    assert state.outcome is not None
    assert state.outcome.aspect_total == total
    assert state.outcome.difference == abs(6 - total)


def test_used_skill_marks_the_box_of_the_aspect_rolled() -> None:
    state, _ = play(to_prepare(new_roll(), aspect=Aspect.HEART), [ChooseSkill(ROLLER, 1)])
    state, _ = play(keep_own(rolled(state, 3, 6)), [ChooseSkillSign(ROLLER, True)])
    assert state.sheet.skills[1].marked == {Aspect.HEART}


# -- sentiments risked -------------------------------------------------------------


def test_risking_a_sentiment_gives_mood_advantage() -> None:
    state, _ = play(to_prepare(new_roll()), [RiskSentiment(ROLLER, 1)])
    assert state.mood_edge is Edge.ADVANTAGE
    state = rolled(state, 3, 2, 7)
    state, _ = play(state, [KeepDie(ROLLER, PoolKind.MOOD, ROLLER, 1)])
    assert state.mood_pool is not None and state.mood_pool.face == 7


def test_lost_or_blank_sentiment_cannot_be_risked() -> None:
    sheet = character().endanger_sentiment(0).endanger_sentiment(0)
    state = to_prepare(new_roll(sheet))
    with pytest.raises(NotAllowedNow):
        apply(state, RiskSentiment(ROLLER, 0), ScriptedRng([]))


def test_nothing_to_risk_when_every_sentiment_is_lost() -> None:
    sheet = character()
    for i in range(3):
        sheet = sheet.endanger_sentiment(i).endanger_sentiment(i)
    state = to_prepare(new_roll(sheet))
    assert ActionKind.RISK_SENTIMENT not in [e.kind for e in expected(state)]


def _risked_roll(
    aspect_face: int, mood_face: int, settings: NsuSettings | None = None, helpers: int = 0
) -> Character:
    allies = [character(f"Helper {i}") for i in range(helpers)]
    roll = new_roll(helpers=allies, settings=settings)
    state, _ = play(to_prepare(roll), [RiskSentiment(ROLLER, 1)])
    state = rolled(state, aspect_face, mood_face, mood_face)
    return keep_own(state).sheet


def test_risked_sentiment_slips_when_the_player_loses() -> None:
    assert _risked_roll(7, 2).sentiments[1].state is SentimentState.AT_RISK


def test_risked_sentiment_slips_on_a_tie() -> None:
    assert _risked_roll(4, 4).sentiments[1].state is SentimentState.AT_RISK


def test_risked_sentiment_slips_when_row_one_gives_an_ally_a_negative_detail() -> None:
    assert _risked_roll(4, 5, helpers=1).sentiments[1].state is SentimentState.AT_RISK


def test_ruling22_row_one_with_no_ally_on_screen_spares_the_risked_sentiment() -> None:
    # Nobody adds the negative detail, so nothing endangers the sentiment.
    assert _risked_roll(4, 5).sentiments[1].state is SentimentState.CONNECTED


def test_risked_sentiment_holds_on_a_clear_win() -> None:
    assert _risked_roll(2, 6).sentiments[1].state is SentimentState.CONNECTED


def test_tie_setting_can_spare_the_risked_sentiment() -> None:
    settings = NsuSettings(sentiment_moves_on_tie=False)
    assert _risked_roll(4, 4, settings).sentiments[1].state is SentimentState.CONNECTED


def test_at_risk_sentiment_becomes_lost_when_it_slips_again() -> None:
    state, _ = play(
        to_prepare(new_roll(character().endanger_sentiment(1))), [RiskSentiment(ROLLER, 1)]
    )
    sheet = keep_own(rolled(state, 8, 1, 1)).sheet
    assert sheet.sentiments[1].state is SentimentState.LOST


# -- winner and results table ---------------------------------------------------------


@pytest.mark.parametrize(
    ("risk", "aspect", "mood", "winner"),
    [
        (Risk.WORLD, 2, 5, Winner.PLAYER),
        (Risk.WORLD, 5, 2, Winner.ARBITERS),
        (Risk.CHARACTER, 2, 5, Winner.ARBITERS),
        (Risk.CHARACTER, 5, 2, Winner.PLAYER),
        (Risk.WORLD, 3, 3, Winner.TIE),
        (Risk.CHARACTER, 3, 3, Winner.TIE),
    ],
)
def test_winner_matrix(risk: Risk, aspect: int, mood: int, winner: Winner) -> None:
    assert winner_for(risk, aspect, mood) is winner


def _grants(aspect_face: int, mood_face: int, helpers: int = 0) -> tuple[DetailGrant, ...]:
    helper_sheets = [character(f"Helper {i}") for i in range(helpers)]
    state = keep_own(rolled(to_prepare(new_roll(helpers=helper_sheets)), aspect_face, mood_face))
    assert state.outcome is not None
    return state.outcome.grants


def test_row_0_each_side_adds_one_hard_detail() -> None:
    assert _grants(4, 4) == (
        DetailGrant(Side.PLAYER, False, DetailKind.HARD, frozenset({ROLLER})),
        DetailGrant(Side.ARBITERS, False, DetailKind.HARD, frozenset({ARBITER, ARBITER2})),
    )


def test_row_1_winner_adds_hard_but_an_ally_adds_a_negative_one() -> None:
    first, cost = _grants(4, 5, helpers=1)
    assert (first.side, first.by_ally, first.kind) == (Side.PLAYER, False, DetailKind.HARD)
    assert (cost.side, cost.by_ally, cost.polarity) == (Side.PLAYER, True, Polarity.NEGATIVE)
    assert cost.adders == {HELPER}


def test_ruling22_row_1_with_no_ally_on_screen_adds_no_cost() -> None:
    (first,) = _grants(4, 5)
    assert (first.side, first.by_ally, first.adders) == (Side.PLAYER, False, {ROLLER})


def test_ruling22_row_4_with_no_ally_on_screen_adds_only_the_winners_detail() -> None:
    (first,) = _grants(1, 5)
    assert (first.side, first.by_ally, first.adders) == (Side.PLAYER, False, {ROLLER})


def test_ruling22_the_arbiters_keep_their_own_ally_share_when_they_win() -> None:
    # Rows 1 and 4 won by the Arbiters: their "ally" is the Arbiters themselves.
    for aspect_face, mood_face in ((5, 4), (5, 1)):
        grants = _grants(aspect_face, mood_face)
        assert len(grants) == 2 and all(g.adders == {ARBITER, ARBITER2} for g in grants)


def test_ruling22_no_ally_detail_means_one_collateral_tick_fewer() -> None:
    state = keep_own(rolled(to_prepare(new_roll(), risk=Risk.WORLD), 1, 5))
    assert state.outcome is not None and state.outcome.suggested_collateral_ticks == 1


def test_row_2_winner_adds_one_hard_detail() -> None:
    (grant,) = _grants(5, 3)
    assert (grant.side, grant.kind) == (Side.ARBITERS, DetailKind.HARD)


def test_row_3_winner_adds_hard_and_scene() -> None:
    assert [g.kind for g in _grants(2, 5)] == [DetailKind.HARD, DetailKind.SCENE]


def test_row_4_winner_and_one_ally_each_add_hard() -> None:
    grants = _grants(1, 5, helpers=1)
    assert [(g.by_ally, g.kind, g.polarity) for g in grants] == [
        (False, DetailKind.HARD, None),
        (True, DetailKind.HARD, None),
    ]


def test_row_5_plus_winner_adds_two_hard_details() -> None:
    grants = _grants(8, 1)
    assert len(grants) == 2 and all(g.side is Side.ARBITERS for g in grants)


@pytest.mark.parametrize(("difference", "row"), [(0, 0), (1, 1), (4, 4), (5, 5), (9, 5)])
def test_result_row_from_difference(difference: int, row: int) -> None:
    assert ResultRow.for_difference(difference) == row


def test_world_at_risk_suggests_a_collateral_tick_per_detail() -> None:
    state = keep_own(rolled(to_prepare(new_roll(), risk=Risk.WORLD), 2, 5))
    assert state.outcome is not None and state.outcome.suggested_collateral_ticks == 2


def test_character_at_risk_suggests_no_collateral_ticks() -> None:
    state = keep_own(rolled(to_prepare(new_roll(), risk=Risk.CHARACTER), 2, 5))
    assert state.outcome is not None and state.outcome.suggested_collateral_ticks == 0


def test_collateral_suggestion_can_be_switched_off() -> None:
    roll = new_roll(settings=NsuSettings(suggest_collateral_ticks=False))
    state = keep_own(rolled(to_prepare(roll), 2, 5))
    assert state.outcome is not None and state.outcome.suggested_collateral_ticks == 0


# -- help --------------------------------------------------------------------------


def test_helper_raises_and_rolls_their_own_mood() -> None:
    state = rolled(to_prepare(new_roll(helpers=[character("Bryn")])), 3, 2)
    state, _ = play(state, [Help(HELPER, 2)], ScriptedRng([6]))
    assert state.character(HELPER).moods[2].level == 1
    help_roll = state.help_by(HELPER)
    assert help_roll is not None and help_roll.pool.face == 6


def test_roller_may_take_a_helpers_die() -> None:
    state = rolled(to_prepare(new_roll(helpers=[character("Bryn")])), 3, 2)
    state, _ = play(state, [Help(HELPER, 2), TakeHelperDie(ROLLER, HELPER)], ScriptedRng([6]))
    assert state.outcome is not None
    assert state.outcome.mood_face == 6 and state.outcome.helper_used == HELPER
    assert state.outcome.winner is Winner.PLAYER


def test_refusing_help_keeps_the_rollers_die_and_is_reported() -> None:
    state = rolled(to_prepare(new_roll(helpers=[character("Bryn")])), 3, 2)
    state, events = play(state, [Help(HELPER, 2), TakeHelperDie(ROLLER, None)], ScriptedRng([6]))
    assert state.outcome is not None and state.outcome.mood_face == 2
    answered = [e for e in events if type(e).__name__ == "HelpAnswered"]
    assert answered and answered[0].refused == (HELPER,)  # type: ignore[attr-defined]


def test_each_ally_helps_at_most_once_and_arbiters_cannot_help() -> None:
    state = rolled(to_prepare(new_roll(helpers=[character("Bryn"), character("Cai")])), 3, 2)
    state, _ = play(state, [Help(HELPER, 2)], ScriptedRng([6]))
    with pytest.raises(NotYourTurn):
        apply(state, Help(HELPER, 0), ScriptedRng([1]))
    with pytest.raises(NotYourTurn):
        apply(state, Help(ARBITER, 0), ScriptedRng([1]))
    state, _ = play(state, [Help(HELPER2, 2)], ScriptedRng([1]))
    with pytest.raises(NotAllowedNow):
        apply(state, Help(HELPER, 0), ScriptedRng([1]))


def test_an_overcome_ally_cannot_help() -> None:
    bryn = character("Bryn")
    for i in range(4):
        bryn = bryn.add_harm(f"Harm {i}")
    state = rolled(to_prepare(new_roll(helpers=[bryn])), 3, 2)
    with pytest.raises(NotAllowedNow):
        apply(state, Help(HELPER, 0), ScriptedRng([1]))


def test_helper_checks_their_own_overload() -> None:
    bryn = with_level(character("Bryn"), 4, 3)  # Angry d4 at 3 -> 4 when raised, threshold 2
    state = rolled(to_prepare(new_roll(helpers=[bryn])), 3, 2)
    state, _ = play(state, [Help(HELPER, 4), TakeHelperDie(ROLLER, None)], ScriptedRng([1]))
    assert state.character(HELPER).moods[4].overloaded


def test_helper_with_overloaded_mood_rolls_it_with_advantage_and_picks() -> None:
    bryn = with_level(character("Bryn"), 0, 5, overloaded=True)
    state = rolled(to_prepare(new_roll(helpers=[bryn, character("Cai")])), 3, 2)
    state, _ = play(state, [Help(HELPER, 0)], ScriptedRng([2, 7]))
    with pytest.raises(NotYourTurn):
        apply(state, KeepDie(ROLLER, PoolKind.HELP, HELPER, 1), ScriptedRng([]))
    state, _ = play(state, [KeepDie(HELPER, PoolKind.HELP, HELPER, 1)])
    state, _ = play(state, [Help(HELPER2, 2)], ScriptedRng([3]))
    state, _ = play(state, [TakeHelperDie(ROLLER, HELPER)])
    assert state.outcome is not None and state.outcome.mood_face == 7


# -- overload -------------------------------------------------------------------------


def test_mood_overloads_past_threshold_when_die_is_under_level() -> None:
    sheet = with_level(character(), 2, 3)  # Wary d6, 3 -> 4 > threshold 3
    state = keep_own(rolled(to_prepare(new_roll(sheet), line=2), 4, 3))
    assert state.sheet.moods[2].overloaded
    assert any(e.kind is EffectKind.OVERLOADED for e in state.effects)


def test_an_overload_the_roll_causes_leaves_the_rolled_edge_alone() -> None:
    sheet = with_level(character(), 2, 3)
    state = rolled(to_prepare(new_roll(sheet), line=2), 4, 3)
    assert state.mood_edge is Edge.NONE
    state = keep_own(state)
    assert state.sheet.moods[2].overloaded
    assert state.mood_edge is Edge.NONE  # rolled with one die, whatever the sheet says now


def test_leaving_an_overload_keeps_the_disadvantage_it_was_rolled_with() -> None:
    state = _leave_overload(5, (2, 6))
    assert state.sheet.overloaded_mood is None
    assert state.mood_edge is Edge.DISADVANTAGE


def test_no_overload_at_the_threshold() -> None:
    sheet = with_level(character(), 2, 2)  # 2 -> 3, not past threshold 3
    state = keep_own(rolled(to_prepare(new_roll(sheet), line=2), 4, 1))
    assert not state.sheet.moods[2].overloaded


def test_no_overload_when_die_meets_the_level() -> None:
    sheet = with_level(character(), 2, 3)
    state = keep_own(rolled(to_prepare(new_roll(sheet), line=2), 4, 4))
    assert not state.sheet.moods[2].overloaded


def test_overloaded_mood_rolls_with_mood_advantage() -> None:
    sheet = with_level(character(), 2, 4, overloaded=True)
    state = to_prepare(new_roll(sheet), line=2)
    assert state.mood_edge is Edge.ADVANTAGE


def test_other_moods_roll_with_disadvantage_while_one_is_overloaded() -> None:
    sheet = with_level(character(), 2, 4, overloaded=True)
    state = to_prepare(new_roll(sheet), line=0)
    assert state.mood_edge is Edge.DISADVANTAGE
    state = rolled(state, 3, 2, 6)
    with pytest.raises(NotYourTurn):
        apply(state, KeepDie(ROLLER, PoolKind.MOOD, ROLLER, 1), ScriptedRng([]))


def test_risked_sentiment_cancels_overload_disadvantage() -> None:
    sheet = with_level(character(), 2, 4, overloaded=True)
    state, _ = play(to_prepare(new_roll(sheet), line=0), [RiskSentiment(ROLLER, 0)])
    assert state.mood_edge is Edge.NONE


def _leave_overload(aspect_face: int, mood_faces: tuple[int, int]) -> RollState:
    sheet = with_level(character(), 2, 5, overloaded=True)
    state = rolled(to_prepare(new_roll(sheet), line=0), aspect_face, *mood_faces)
    if mood_faces[0] != mood_faces[1]:
        state, _ = play(state, [KeepDie(ARBITER, PoolKind.MOOD, ROLLER, 0)])
    return keep_own(state)


def test_choosing_another_mood_ends_the_overload_whoever_wins() -> None:
    for faces in ((7, 7), (1, 1)):
        state = _leave_overload(4, faces)
        assert not state.sheet.moods[2].overloaded


def test_winning_after_leaving_an_overload_clears_its_boxes() -> None:
    state = _leave_overload(2, (7, 7))
    assert state.sheet.moods[2].level == 0
    assert state.phase is Phase.DONE


def test_losing_after_leaving_an_overload_endangers_a_sentiment_of_your_choice() -> None:
    state = _leave_overload(7, (1, 3))
    assert state.sheet.moods[2].level == 5
    assert state.phase is Phase.MOOD_EFFECTS
    with pytest.raises(NotYourTurn):
        apply(state, EndangerSentiment(ARBITER, 0), ScriptedRng([]))
    state, _ = play(state, [EndangerSentiment(ROLLER, 2)])
    assert state.sheet.sentiments[2].state is SentimentState.AT_RISK
    assert state.phase is Phase.DONE


def test_a_tie_after_leaving_an_overload_both_clears_and_endangers() -> None:
    state = _leave_overload(5, (5, 5))
    assert state.sheet.moods[2].level == 0
    assert [p.kind for p in state.pending] == [PendingKind.ENDANGER]


# -- the last box ----------------------------------------------------------------------


def test_marking_the_last_box_resets_the_level_and_asks_for_a_rename_and_a_sentiment() -> None:
    sheet = with_level(character(), 4, 4)  # Angry d4, last box is 5
    state = keep_own(rolled(to_prepare(new_roll(sheet), line=4), 2, 3))
    assert state.sheet.moods[4].level == 0
    assert {p.kind for p in state.pending} == {PendingKind.RENAME, PendingKind.ENDANGER}


def test_the_winning_side_renames_the_mood() -> None:
    sheet = with_level(character(), 4, 4)
    state = keep_own(rolled(to_prepare(new_roll(sheet), line=4, risk=Risk.CHARACTER), 2, 4))
    assert state.outcome is not None and state.outcome.winner is Winner.ARBITERS
    with pytest.raises(NotYourTurn):
        apply(state, RenameMood(ROLLER, ROLLER, "Enraged"), ScriptedRng([]))
    state, _ = play(state, [RenameMood(ARBITER, ROLLER, "Enraged"), EndangerSentiment(ROLLER, 0)])
    assert state.sheet.moods[4].name == "Enraged" and state.phase is Phase.DONE


def test_on_a_tie_either_side_may_rename() -> None:
    sheet = with_level(character(), 4, 4)
    state = keep_own(rolled(to_prepare(new_roll(sheet), line=4), 3, 3))
    expectation = {e.kind: e.players for e in expected(state)}
    assert expectation[ActionKind.RENAME_MOOD] == {ROLLER, ARBITER, ARBITER2}


def test_endangerment_is_skipped_when_no_sentiment_can_take_it() -> None:
    sheet = with_level(character(), 4, 4)
    for i in range(3):
        sheet = sheet.endanger_sentiment(i).endanger_sentiment(i)
    state = keep_own(rolled(to_prepare(new_roll(sheet), line=4), 2, 3))
    assert [p.kind for p in state.pending] == [PendingKind.RENAME]


# -- storage ---------------------------------------------------------------------------


def test_stored_roll_resumes_exactly() -> None:
    state = rolled(to_prepare(new_roll(helpers=[character("Bryn")]), hindering=("Rain",)), 2, 5, 4)
    data = state.to_dict()
    assert RollState.from_dict(json.loads(json.dumps(data))) == state


def test_unknown_stored_version_is_refused() -> None:
    data = new_roll().to_dict()
    data["version"] = 99
    with pytest.raises(Malformed):
        RollState.from_dict(data)


# -- settings ---------------------------------------------------------------------------


def test_settings_default_to_the_rulings_and_show_in_help() -> None:
    lines = settings_help()
    assert {line.key for line in lines} == {
        "sentiment_moves_on_tie",
        "sentiment_moves_on_row_one",
        "suggest_collateral_ticks",
    }
    assert all(line.default is True and line.ruling in (6, 8) and line.summary for line in lines)
    custom = NsuSettings(sentiment_moves_on_tie=False)
    assert NsuSettings.from_dict(custom.to_dict()) == custom


# -- adding the granted details -------------------------------------------------------------


def _arbiters_big_win(sheet: Character | None = None, risk: Risk = Risk.WORLD) -> RollState:
    # World at risk: the player holds the mood die (1) against the aspect die (8).
    faces = (8, 1) if risk is Risk.WORLD else (1, 8)
    return keep_own(rolled(to_prepare(new_roll(sheet), risk=risk), *faces))


def test_details_wait_until_the_roll_is_settled() -> None:
    state = to_prepare(new_roll())
    with pytest.raises(NotAllowedNow):
        add_granted_detail(state, ARBITER, 0, Detail("Winded"), DetailTarget(TargetKind.NPC))


def test_a_granted_hard_detail_is_written_on_the_characters_sheet() -> None:
    state = _arbiters_big_win()
    target = DetailTarget(TargetKind.CHARACTER, ROLLER)
    state, _events = add_granted_detail(state, ARBITER, 0, Detail("Soaked"), target)
    assert state.sheet.details == (Detail("Soaked"),)
    assert unused_grants(state) == (1,)
    assert [p.player for p in state.changed_sheets()] == [ROLLER]
    assert RollState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_arbiters_may_count_a_detail_as_harm_and_the_fourth_overcomes() -> None:
    sheet = character().add_harm("Bruised").add_harm("Shaken").add_harm("Cut")
    state = _arbiters_big_win(sheet, Risk.CHARACTER)
    target = DetailTarget(TargetKind.CHARACTER, ROLLER)
    state, events = add_granted_detail(state, ARBITER, 0, Detail("Concussed"), target, harm=True)
    assert state.sheet.harms[-1] == "Concussed" and state.sheet.overcome
    assert isinstance(events[0], DetailAdded) and events[0].overcome
    with pytest.raises(NotAllowedNow):
        add_granted_detail(state, ARBITER, 1, Detail("Broken arm"), target, harm=True)


def test_only_a_hard_negative_detail_can_be_harm() -> None:
    state = _arbiters_big_win()
    target = DetailTarget(TargetKind.CHARACTER, ROLLER)
    good = Detail("Wiser", polarity=Polarity.POSITIVE)
    with pytest.raises(Malformed):
        add_granted_detail(state, ARBITER, 0, good, target, harm=True)
    soft = Detail("Stumbles", DetailKind.SOFT)
    with pytest.raises(Malformed):
        add_granted_detail(state, ARBITER, 0, soft, target, harm=True)


def test_each_grant_is_used_once_and_only_by_its_adders() -> None:
    state = _arbiters_big_win()
    target = DetailTarget(TargetKind.NPC, name="Warden")
    with pytest.raises(NotYourTurn):
        add_granted_detail(state, ROLLER, 0, Detail("Alerted"), target)
    state, _ = add_granted_detail(state, ARBITER2, 0, Detail("Alerted"), target)
    with pytest.raises(NotAllowedNow):
        add_granted_detail(state, ARBITER, 0, Detail("Angry"), target)
    with pytest.raises(Malformed):
        add_granted_detail(state, ARBITER, 5, Detail("Angry"), target)


def test_a_soft_detail_is_noted_but_not_written() -> None:
    state = _arbiters_big_win()
    target = DetailTarget(TargetKind.CHARACTER, ROLLER)
    state, _ = add_granted_detail(state, ARBITER, 0, Detail("Stumbles", DetailKind.SOFT), target)
    assert state.sheet.details == () and unused_grants(state) == (1,)


def test_a_scene_detail_goes_only_on_the_scene() -> None:
    state = _arbiters_big_win()
    scene = Detail("Bridge collapsed", DetailKind.SCENE)
    with pytest.raises(Malformed):
        add_granted_detail(state, ARBITER, 0, scene, DetailTarget(TargetKind.CHARACTER, ROLLER))
    with pytest.raises(Malformed):
        add_granted_detail(state, ARBITER, 0, Detail("Wanted"), DetailTarget(TargetKind.SCENE))
    state, _ = add_granted_detail(state, ARBITER, 0, scene, DetailTarget(TargetKind.SCENE))
    assert state.added[0].target.kind is TargetKind.SCENE


def test_each_detail_from_a_world_at_risk_roll_proposes_a_collateral_tick() -> None:
    _, events = add_granted_detail(
        _arbiters_big_win(), ARBITER, 0, Detail("Trampled crops"), DetailTarget(TargetKind.THING)
    )
    assert isinstance(events[0], DetailAdded) and events[0].collateral_tick
    _state, events = add_granted_detail(
        _arbiters_big_win(risk=Risk.CHARACTER),
        ARBITER,
        0,
        Detail("Bruised"),
        DetailTarget(TargetKind.CHARACTER, ROLLER),
    )
    assert isinstance(events[0], DetailAdded) and not events[0].collateral_tick


def test_something_that_is_not_a_roll_step_is_malformed() -> None:
    with pytest.raises(Malformed):
        apply(new_roll(), Action(ROLLER), ScriptedRng([]))


def test_a_damaged_stored_roll_is_refused() -> None:
    data = to_prepare(new_roll()).to_dict()
    data["roll"]["phase"] = "after_roll"  # claims the dice are out, but none were rolled
    with pytest.raises(Malformed):
        RollState.from_dict(data)
    data = to_prepare(new_roll()).to_dict()
    data["roll"]["mood_line"] = 5  # an open line
    with pytest.raises(Malformed):
        RollState.from_dict(data)
