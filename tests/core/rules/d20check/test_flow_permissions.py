"""Who may do what in a check, one named test per permission case.

The roller is player 1, the Game Master is 2, another player is 3. Average
ability against difficulty 10 unless a test says otherwise, so one scripted
face is one roll: 15 succeeds, 5 fails.
"""

from __future__ import annotations

import pytest

from core.rules.d20check import (
    AbilityStrength,
    ActionKind,
    CharacterSheet,
    CheckFlow,
    CheckSetup,
    Difficulty,
    Opposition,
    Phase,
    PlotPointKind,
    PlotPointPool,
)
from core.rules.d20check.check import Natural
from core.rules.d20check.events import (
    CheckResolved,
    GameMasterPicksEffect,
    HarmChanged,
    PlotPointSpent,
    PlotPointTurned,
    Rolled,
    RollReason,
)
from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.rng import ScriptedRng

from .helpers import GM, OTHER, ROLLER, CountingRng, rolled, then

RETRY, REROLL, KEEP = ActionKind.RETRY, ActionKind.REROLL, ActionKind.KEEP
FORCE, GM_REROLL, ROLL = ActionKind.FORCE_REROLL, ActionKind.GM_REROLL, ActionKind.ROLL
BOTH = PlotPointPool(2, 2)


# -- setting up and rolling ------------------------------------------------------


def test_roller_may_set_up_and_roll() -> None:
    check = CheckFlow.open(ROLLER, GM, Difficulty(12))
    assert check.allowed_actions(ROLLER, BOTH) == {ActionKind.SET_UP, ROLL}
    check = check.set_up(ROLLER, CheckSetup(AbilityStrength.STRONG, 2), Opposition(14))
    assert check.setup.proficiency == 2
    assert check.target == Opposition(14)
    step = check.act(ROLLER, ROLL, pool=BOTH, rng=ScriptedRng([3, 18]))
    assert step.check.result is not None
    assert step.check.result.roll.total == 20


def test_gm_may_not_set_up_or_roll_a_players_check() -> None:
    check = CheckFlow.open(ROLLER, GM)
    with pytest.raises(NotYourTurn):
        check.set_up(GM, CheckSetup())
    with pytest.raises(NotYourTurn):
        check.act(GM, ROLL, pool=BOTH, rng=ScriptedRng([10]))
    assert check.allowed_actions(GM, BOTH) == frozenset()


def test_other_player_may_not_set_up_or_roll() -> None:
    check = CheckFlow.open(ROLLER, GM)
    with pytest.raises(NotYourTurn):
        check.set_up(OTHER, CheckSetup())
    with pytest.raises(NotYourTurn):
        check.act(OTHER, ROLL, pool=BOTH, rng=ScriptedRng([10]))


def test_setup_and_roll_after_rolling_are_not_allowed() -> None:
    step = rolled([15], BOTH)
    with pytest.raises(NotAllowedNow, match="already rolled"):
        step.check.set_up(ROLLER, CheckSetup())
    with pytest.raises(NotAllowedNow, match="already rolled"):
        then(step, ROLLER, ROLL, [10])


def test_spending_before_the_roll_is_not_allowed() -> None:
    check = CheckFlow.open(ROLLER, GM)
    with pytest.raises(NotAllowedNow, match="Roll"):
        check.act(ROLLER, RETRY, pool=BOTH, rng=ScriptedRng([]))


# -- the roller: lucky retry after a failure ------------------------------------------


def test_roller_may_retry_a_failure_with_a_lucky_point() -> None:
    step = rolled([5], BOTH)
    assert step.check.phase is Phase.ROLLER_DECIDES
    assert step.check.who_may_act(step.pool) == {ROLLER: {RETRY, KEEP}}
    step = then(step, ROLLER, RETRY, [14])
    assert step.check.result is not None and step.check.result.succeeded
    assert step.events[:2] == (
        PlotPointSpent(ROLLER, PlotPointKind.LUCKY),
        step.events[1],
    )
    assert isinstance(step.events[1], Rolled) and step.events[1].reason is RollReason.RETRY


def test_retry_turns_the_lucky_point_unlucky() -> None:
    assert then(rolled([5], BOTH), ROLLER, RETRY, [14]).pool == PlotPointPool(1, 3)


def test_ruling25_a_failed_retry_may_be_retried_while_a_lucky_point_is_left() -> None:
    step = then(rolled([5], BOTH), ROLLER, RETRY, [3])
    assert step.check.who_may_act(step.pool) == {ROLLER: {RETRY, KEEP}}
    step = then(step, ROLLER, RETRY, [14])
    assert step.pool == PlotPointPool(0, 4)
    assert step.check.result is not None and step.check.result.succeeded
    assert [e.reason for e in step.events if isinstance(e, Rolled)] == [RollReason.RETRY]


def test_ruling25_retries_stop_when_the_lucky_points_run_out() -> None:
    step = then(then(rolled([5], BOTH), ROLLER, RETRY, [3]), ROLLER, RETRY, [4])
    assert step.pool == PlotPointPool(0, 4)
    # No lucky point left, and the roller spent points: the failure stands.
    assert step.check.is_over
    with pytest.raises(NotAllowedNow):
        then(step, ROLLER, RETRY, [20])


def test_other_player_may_not_retry_the_rollers_failure() -> None:
    step = rolled([5], BOTH)
    with pytest.raises(NotYourTurn):
        then(step, OTHER, RETRY, [14])
    assert step.check.allowed_actions(OTHER, step.pool) == frozenset()


def test_gm_may_not_retry_the_rollers_failure() -> None:
    step = rolled([5], BOTH)
    with pytest.raises(NotYourTurn):
        then(step, GM, RETRY, [14])


def test_retry_after_a_success_is_not_allowed() -> None:
    step = rolled([15], BOTH)
    with pytest.raises(NotAllowedNow, match="failed"):
        then(step, ROLLER, RETRY, [14])


def test_retry_without_a_lucky_point_is_not_offered() -> None:
    step = rolled([5], PlotPointPool(0, 4))
    assert RETRY not in step.check.allowed_actions(ROLLER, step.pool)
    with pytest.raises(NotAllowedNow):
        then(step, ROLLER, RETRY, [14])


def test_retry_when_lucky_points_ran_out_elsewhere_is_not_allowed() -> None:
    step = rolled([5], BOTH)
    with pytest.raises(NotAllowedNow, match="no lucky"):
        step.check.act(ROLLER, RETRY, pool=PlotPointPool(0, 4), rng=ScriptedRng([14]))


def test_contest_tie_counts_as_a_failure_for_a_retry() -> None:
    step = rolled([12], BOTH, target=Opposition(12))
    assert RETRY in step.check.allowed_actions(ROLLER, step.pool)


# -- the roller: unlucky reroll after a success -----------------------------------------


def test_roller_may_reroll_a_success_with_an_unlucky_point() -> None:
    step = rolled([15], BOTH)
    assert step.check.who_may_act(step.pool) == {ROLLER: {REROLL, KEEP}, OTHER: {REROLL}}
    step = then(step, ROLLER, REROLL, [4])
    assert step.check.result is not None and not step.check.result.succeeded
    # The reroll failed: the roller may now retry it with a lucky point (ruling 25).
    assert step.check.who_may_act(step.pool) == {ROLLER: {RETRY, KEEP}}


def test_reroll_turns_the_unlucky_point_lucky() -> None:
    assert then(rolled([15], BOTH), ROLLER, REROLL, [4]).pool == PlotPointPool(3, 1)


def test_ruling25_another_player_may_reroll_the_rollers_success() -> None:
    step = then(rolled([15], BOTH), OTHER, REROLL, [4])
    assert PlotPointSpent(OTHER, PlotPointKind.UNLUCKY) in step.events
    assert step.pool == PlotPointPool(3, 1)
    assert step.check.result is not None and not step.check.result.succeeded
    # Another player's point is not the roller's: the roller may still retry,
    # and the Game Master may still force a reroll after a keep.
    assert step.check.roller_spent is None
    step = then(step, ROLLER, KEEP)
    assert step.check.who_may_act(step.pool) == {GM: {FORCE, KEEP}}


def test_ruling25_someone_outside_the_table_may_not_reroll_a_success() -> None:
    step = rolled([15], BOTH)
    with pytest.raises(NotYourTurn):
        then(step, 99, REROLL, [4])
    assert step.check.allowed_actions(99, step.pool) == frozenset()


def test_ruling25_the_gm_forces_a_reroll_rather_than_rerolling_a_players_success() -> None:
    step = rolled([15], BOTH)
    with pytest.raises(NotYourTurn, match="forces"):
        then(step, GM, REROLL, [4])


def test_ruling25_other_players_may_not_reroll_once_the_roller_kept_the_success() -> None:
    step = then(rolled([15], BOTH), ROLLER, KEEP)
    with pytest.raises(NotAllowedNow, match="kept"):
        then(step, OTHER, REROLL, [4])


def test_reroll_after_a_failure_is_not_allowed() -> None:
    step = rolled([5], BOTH)
    with pytest.raises(NotAllowedNow, match="successful"):
        then(step, ROLLER, REROLL, [4])


def test_reroll_without_an_unlucky_point_is_not_offered() -> None:
    step = rolled([15], PlotPointPool(4, 0))
    assert step.check.is_over
    with pytest.raises(NotAllowedNow):
        then(step, ROLLER, REROLL, [4])


def test_ruling25_no_limit_per_check_while_the_pool_has_points() -> None:
    step = then(rolled([5], BOTH), ROLLER, RETRY, [15])  # lucky 1, unlucky 3
    step = then(step, OTHER, REROLL, [4])  # lucky 2, unlucky 2
    step = then(step, ROLLER, RETRY, [16])  # lucky 1, unlucky 3
    step = then(step, ROLLER, REROLL, [6])  # lucky 2, unlucky 2
    assert step.pool == PlotPointPool(2, 2)
    assert len(step.check.rolls) == 5
    assert step.check.who_may_act(step.pool) == {ROLLER: {RETRY, KEEP}}


# -- the roller keeps; the Game Master may force a reroll ----------------------------------


def test_roller_may_keep_the_result_and_then_the_gm_decides() -> None:
    step = then(rolled([15], BOTH), ROLLER, KEEP)
    assert step.check.phase is Phase.GM_DECIDES
    assert step.check.who_may_act(step.pool) == {GM: {FORCE, KEEP}}


def test_gm_may_force_a_reroll_when_the_player_spent_nothing() -> None:
    step = then(then(rolled([15], BOTH), ROLLER, KEEP), GM, FORCE, [4])
    assert step.check.result is not None and step.check.result.roll.total == 4
    assert PlotPointSpent(GM, PlotPointKind.UNLUCKY) in step.events
    assert step.check.who_may_act(step.pool) == {GM: {FORCE, KEEP}}  # one unlucky left


def test_forced_reroll_turns_the_unlucky_point_lucky() -> None:
    step = then(then(rolled([5], BOTH), ROLLER, KEEP), GM, FORCE, [12])
    assert step.pool == PlotPointPool(3, 1)


def test_gm_may_force_a_reroll_when_the_player_had_no_point_to_spend() -> None:
    step = rolled([5], PlotPointPool(0, 4))
    assert step.check.who_may_act(step.pool) == {GM: {FORCE, KEEP}}


def test_gm_may_not_force_a_reroll_after_the_player_spent_a_point() -> None:
    step = then(rolled([5], BOTH), ROLLER, RETRY, [3])
    with pytest.raises(NotAllowedNow):
        then(step, GM, FORCE, [15])


def test_gm_may_not_force_a_reroll_while_the_player_decides() -> None:
    step = rolled([5], BOTH)
    with pytest.raises(NotAllowedNow, match="still deciding"):
        then(step, GM, FORCE, [15])


def test_a_forced_reroll_gives_the_player_no_new_choice() -> None:
    step = then(rolled([5], PlotPointPool(0, 4)), GM, FORCE, [3])
    assert step.check.who_may_act(step.pool) == {GM: {FORCE, KEEP}}


def test_ruling25_the_gm_forces_again_while_an_unlucky_point_is_left() -> None:
    step = then(rolled([5], PlotPointPool(2, 2)), ROLLER, KEEP)
    step = then(then(step, GM, FORCE, [3]), GM, FORCE, [15])
    assert step.pool == PlotPointPool(4, 0)
    assert step.check.is_over  # no unlucky point left: the last roll stands
    assert step.check.result is not None and step.check.result.roll.total == 15
    with pytest.raises(NotAllowedNow):
        then(step, GM, FORCE, [15])


def test_forced_reroll_without_an_unlucky_point_is_not_offered() -> None:
    step = then(rolled([5], PlotPointPool(4, 0)), ROLLER, KEEP)
    assert step.check.is_over


def test_player_may_not_force_a_reroll() -> None:
    step = then(rolled([15], BOTH), ROLLER, KEEP)
    with pytest.raises(NotYourTurn):
        then(step, ROLLER, FORCE, [4])


def test_other_player_may_not_force_a_reroll() -> None:
    step = then(rolled([15], BOTH), ROLLER, KEEP)
    with pytest.raises(NotYourTurn):
        then(step, OTHER, FORCE, [4])


def test_player_may_not_spend_after_a_forced_reroll() -> None:
    step = then(then(rolled([15], BOTH), ROLLER, KEEP), GM, FORCE, [4])
    with pytest.raises(NotAllowedNow):
        then(step, ROLLER, RETRY, [15])


def test_player_may_not_spend_after_keeping() -> None:
    step = then(rolled([5], BOTH), ROLLER, KEEP)
    with pytest.raises(NotAllowedNow, match="kept"):
        then(step, ROLLER, RETRY, [15])


def test_gm_may_let_the_result_stand() -> None:
    step = then(then(rolled([15], BOTH), ROLLER, KEEP), GM, KEEP)
    assert step.check.is_over
    assert isinstance(step.events[-1], CheckResolved)


def test_player_may_not_let_the_result_stand_for_the_gm() -> None:
    step = then(rolled([15], BOTH), ROLLER, KEEP)
    with pytest.raises(NotYourTurn):
        then(step, ROLLER, KEEP)


def test_gm_may_not_keep_for_the_player() -> None:
    step = rolled([15], BOTH)
    with pytest.raises(NotYourTurn):
        then(step, GM, KEEP)


def test_gm_own_reroll_is_not_for_a_players_check() -> None:
    step = then(rolled([15], BOTH), ROLLER, KEEP)
    with pytest.raises(NotAllowedNow, match="force"):
        then(step, GM, GM_REROLL, [4])


# -- the Game Master's own check --------------------------------------------------------


def test_gm_may_reroll_their_own_success_with_an_unlucky_point() -> None:
    step = rolled([15], BOTH, roller=GM)
    assert step.check.who_may_act(step.pool) == {GM: {GM_REROLL, KEEP}}
    step = then(step, GM, GM_REROLL, [4])
    assert step.pool == PlotPointPool(3, 1)
    assert step.check.result is not None and not step.check.result.succeeded


def test_gm_may_reroll_their_own_failure_with_an_unlucky_point() -> None:
    step = then(rolled([5], BOTH, roller=GM), GM, GM_REROLL, [14])
    assert step.check.result is not None and step.check.result.succeeded


def test_ruling25_gm_rerolls_their_own_check_while_an_unlucky_point_is_left() -> None:
    step = then(rolled([5], BOTH, roller=GM), GM, GM_REROLL, [4])
    assert step.check.who_may_act(step.pool) == {GM: {GM_REROLL, KEEP}}
    step = then(step, GM, GM_REROLL, [14])
    assert step.pool == PlotPointPool(4, 0) and step.check.is_over
    with pytest.raises(NotAllowedNow):
        then(step, GM, GM_REROLL, [14])


def test_gm_may_not_retry_their_own_check_with_a_lucky_point() -> None:
    step = rolled([5], BOTH, roller=GM)
    with pytest.raises(NotAllowedNow, match="unlucky"):
        then(step, GM, RETRY, [14])


def test_gm_may_not_force_a_reroll_of_their_own_check() -> None:
    step = rolled([5], BOTH, roller=GM)
    with pytest.raises(NotAllowedNow, match="own check"):
        then(step, GM, FORCE, [14])


def test_players_may_not_spend_on_the_gms_check() -> None:
    step = rolled([5], BOTH, roller=GM)
    for action in (RETRY, REROLL, GM_REROLL, KEEP):
        with pytest.raises(NotYourTurn):
            then(step, OTHER, action, [14])


def test_gm_check_without_unlucky_points_ends_at_once() -> None:
    assert rolled([5], PlotPointPool(4, 0), roller=GM).check.is_over


def test_gm_check_naturals_turn_no_points() -> None:
    step = rolled([1], PlotPointPool(4, 0), roller=GM)
    assert step.pool == PlotPointPool(4, 0)
    assert not any(isinstance(e, PlotPointTurned | GameMasterPicksEffect) for e in step.events)


# -- natural 1 and 20 in the flow ---------------------------------------------------------


def test_natural_1_on_a_players_check_turns_a_lucky_point_unlucky() -> None:
    step = rolled([1], BOTH)
    assert step.pool == PlotPointPool(1, 3)
    assert PlotPointTurned(Natural.ONE, PlotPointKind.UNLUCKY) in step.events


def test_natural_20_on_a_players_check_turns_an_unlucky_point_lucky() -> None:
    step = rolled([20], BOTH)
    assert step.pool == PlotPointPool(3, 1)


def test_natural_1_may_take_the_last_lucky_point_before_the_retry() -> None:
    step = rolled([1], PlotPointPool(1, 3))
    assert step.pool == PlotPointPool(0, 4)
    assert RETRY not in step.check.allowed_actions(ROLLER, step.pool)


def test_natural_1_with_no_lucky_point_lets_the_gm_pick_an_effect() -> None:
    step = rolled([1], PlotPointPool(0, 4))
    assert GameMasterPicksEffect(Natural.ONE) in step.events


def test_natural_on_a_retry_also_turns_a_point() -> None:
    step = then(rolled([5], BOTH), ROLLER, RETRY, [20])
    assert step.pool == PlotPointPool(2, 2)  # spent lucky -> unlucky, natural 20 turns it back


def test_natural_on_a_forced_reroll_also_turns_a_point() -> None:
    step = then(then(rolled([15], BOTH), ROLLER, KEEP), GM, FORCE, [1])
    assert step.pool == PlotPointPool(2, 2)  # unlucky spent -> lucky, natural 1 turns one back


def test_ruling19_strong_check_natural_comes_from_the_kept_d20() -> None:
    step = rolled([1, 16], BOTH, setup=CheckSetup(AbilityStrength.STRONG))
    assert step.pool == BOTH


# -- strain from the wound band when the check ends -------------------------------------


def test_injured_player_gains_strain_when_the_check_finally_fails() -> None:
    sheet = CharacterSheet("Ana", wounds=5)
    step = rolled([5], PlotPointPool(1, 3), sheet=sheet)
    assert step.check.phase is Phase.ROLLER_DECIDES
    assert step.sheet == sheet  # nothing yet: the check is not over
    step = then(step, ROLLER, RETRY, [4])  # the last lucky point: the failure stands
    assert step.sheet is not None and step.sheet.strain == 1
    assert any(isinstance(e, HarmChanged) for e in step.events)


def test_injured_player_whose_retry_succeeds_gains_no_strain() -> None:
    step = then(
        rolled([5], PlotPointPool(4, 0), sheet=CharacterSheet("Ana", wounds=5)), ROLLER, RETRY, [15]
    )
    assert step.sheet is not None and step.sheet.strain == 0


def test_dying_player_failing_gains_two_strain_and_may_gain_a_wound() -> None:
    sheet = CharacterSheet("Ana", wounds=13, strain=3)
    step = rolled([5], PlotPointPool(0, 4), sheet=sheet)
    step = then(step, GM, KEEP)
    assert step.sheet is not None
    assert (step.sheet.wounds, step.sheet.strain) == (14, 1)


def test_gm_check_adds_no_band_strain() -> None:
    step = rolled([5], PlotPointPool(4, 0), roller=GM, sheet=CharacterSheet("Orc", wounds=10))
    assert step.sheet == CharacterSheet("Orc", wounds=10)


# -- the finished check ------------------------------------------------------------------


def test_nobody_may_act_on_a_finished_check() -> None:
    step = rolled([15], PlotPointPool(4, 0))
    assert step.check.is_over
    assert step.check.who_may_act(step.pool) == {}
    for actor in (ROLLER, GM, OTHER):
        for action in ActionKind:
            if action is ActionKind.SET_UP:
                continue
            with pytest.raises(NotAllowedNow):
                then(step, actor, action, [10])


def test_refused_actions_draw_no_dice() -> None:
    step = rolled([5], BOTH)
    rng = CountingRng(ScriptedRng([15]))
    with pytest.raises(NotYourTurn):
        step.check.act(OTHER, RETRY, pool=step.pool, rng=rng)
    with pytest.raises(NotAllowedNow):
        step.check.act(ROLLER, REROLL, pool=step.pool, rng=rng)
    assert rng.draws == 0
