"""Pools, rolls and burns (Core Rules: threat dice, threat level, bonus dice, working together)."""

from __future__ import annotations

import itertools

import pytest

from core.rules.errors import NotAllowedNow
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.threat.dice import Result, read_action_dice
from core.rules.threat.roll import (
    ActionDie,
    Assist,
    Bonus,
    DieSource,
    NoRoll,
    Pool,
    Stance,
    ThreatLevel,
    burn_momentum,
    outcome_of,
    roll,
    suggested_threat,
)


def test_action_dice_equal_the_approach_value() -> None:
    assert Pool(approach=3).action_dice == 3


def test_threat_level_adds_that_many_threat_dice() -> None:
    assert [Pool(approach=2, threat_level=n).threat_dice for n in range(4)] == [0, 1, 2, 3]


def test_threat_level_names() -> None:
    assert [ThreatLevel.of(n) for n in range(-1, 5)] == [
        ThreatLevel.FAVOURABLE,
        ThreatLevel.NORMAL,
        ThreatLevel.RISKY,
        ThreatLevel.COMPLEX,
        ThreatLevel.DESPERATE,
        ThreatLevel.IMPOSSIBLE,
    ]


def test_threat_level_outside_minus_two_to_four_is_refused() -> None:
    with pytest.raises(ValueError):
        Pool(approach=2, threat_level=5)
    with pytest.raises(ValueError):
        Pool(approach=2, threat_level=-3)


def test_ruling15_impossible_at_plus_four_means_no_roll() -> None:
    assert Pool(approach=3, threat_level=4).no_roll is NoRoll.IMPOSSIBLE
    with pytest.raises(NotAllowedNow):
        roll(Pool(approach=3, threat_level=4), ScriptedRng([]))


def test_ruling15_harm_does_not_count_towards_impossible() -> None:
    pool = Pool(approach=3, threat_level=3, harm=2)
    assert pool.no_roll is None
    assert pool.threat_dice == 5


def test_harm_adds_one_threat_die_per_harm() -> None:
    assert Pool(approach=3, harm=2).threat_dice == 2


def test_negative_threat_level_gives_momentum_and_no_threat_dice() -> None:
    pool = Pool(approach=3, threat_level=-2, harm=1)
    assert pool.momentum_gain == 2
    assert pool.threat_dice == 1


def test_ruling15_bonus_dice_one_each_at_most_three() -> None:
    pool = Pool(approach=2, expertise=True, ability=True, assist=Assist(7))
    assert pool.bonuses == frozenset(Bonus)
    assert pool.bonus_dice == 3
    assert pool.action_dice == 5


def test_ruling15_more_than_six_action_dice_succeeds_without_roll() -> None:
    assert Pool(approach=6).no_roll is None
    pool = Pool(approach=6, expertise=True)
    assert pool.no_roll is NoRoll.SUCCESS
    with pytest.raises(NotAllowedNow):
        roll(pool, ScriptedRng([]))


def test_impossible_wins_over_a_big_pool() -> None:
    assert Pool(approach=7, threat_level=4).no_roll is NoRoll.IMPOSSIBLE


def test_zero_action_dice_cannot_roll() -> None:
    with pytest.raises(NotAllowedNow):
        roll(Pool(approach=0), ScriptedRng([]))
    assert roll(Pool(approach=0, expertise=True), ScriptedRng([4])).result is Result.MESSY


def test_roll_uses_roller_dice_then_assist_then_threat() -> None:
    pool = Pool(approach=2, threat_level=1, harm=1, expertise=True, assist=Assist(42))
    outcome = roll(pool, ScriptedRng([1, 2, 3, 5, 7, 2]))
    assert outcome.action_faces == (1, 2, 3, 5)
    assert outcome.action_dice[-1] == ActionDie(5, DieSource.HELPER, 42)
    assert outcome.threat_dice == (7, 2)
    assert outcome.harm_dice == 1
    assert outcome.cuts == 1
    assert outcome.uncut is Result.MESSY
    assert outcome.result is Result.BOTCHED
    assert outcome.cutting_dice == (0,)


def test_the_counting_dice_are_the_highest_and_alone_read_the_same_result() -> None:
    assert outcome_of((ActionDie(6), ActionDie(2), ActionDie(6)), ()).counting_dice == (0, 2)
    assert outcome_of((ActionDie(3), ActionDie(5)), ()).counting_dice == (1,)
    for count in (1, 2, 3):
        for faces in itertools.product(range(1, 7), repeat=count):
            outcome = outcome_of(tuple(ActionDie(f) for f in faces), ())
            counted = [faces[i] for i in outcome.counting_dice]
            assert counted and set(counted) == {max(faces)}
            assert read_action_dice(counted) is outcome.uncut, faces


def test_assist_helper_rolls_one_die_and_shares_the_result() -> None:
    outcome = roll(Pool(approach=1, assist=Assist(9)), ScriptedRng([2, 6]))
    assert outcome.result is Result.GOOD
    assert outcome.action_dice[1].helper == 9


def test_outside_assistance_is_one_die_rolled_by_the_gm() -> None:
    outcome = roll(Pool(approach=1, assist=Assist(None)), ScriptedRng([2, 6]))
    assert outcome.action_dice[1].source is DieSource.OUTSIDE
    assert Pool(approach=1, assist=Assist(None)).bonuses == frozenset({Bonus.WORKING_TOGETHER})


def test_roll_is_reproducible_with_a_seed() -> None:
    pool = Pool(approach=4, threat_level=2)
    assert roll(pool, SeededRng(5)) == roll(pool, SeededRng(5))


def _outcome(action: tuple[int, ...], threat: tuple[int, ...] = ()) -> object:
    return outcome_of(tuple(ActionDie(f) for f in action), threat)


def test_ruling16_burn_replaces_highest_die_then_cuts_apply() -> None:
    before = outcome_of((ActionDie(2), ActionDie(3)), (7,))
    assert before.result is Result.DIRE
    after = burn_momentum(before, 6)
    assert after.action_faces == (2, 6)
    assert after.uncut is Result.GOOD
    assert after.result is Result.MESSY
    assert after.burn is not None and after.burn.old_face == 3 and after.burn.index == 1


def test_burn_replaces_the_first_of_equal_highest_dice() -> None:
    after = burn_momentum(outcome_of((ActionDie(5), ActionDie(5)), ()), 6)
    assert after.action_faces == (6, 5)


def test_burn_can_make_a_perfect() -> None:
    after = burn_momentum(outcome_of((ActionDie(6), ActionDie(5), ActionDie(6)), ()), 6)
    assert after.result is Result.PERFECT


def test_ruling16_burn_below_four_is_refused() -> None:
    with pytest.raises(NotAllowedNow):
        burn_momentum(outcome_of((ActionDie(2),), ()), 3)


def test_burn_only_once() -> None:
    once = burn_momentum(outcome_of((ActionDie(2),), ()), 4)
    with pytest.raises(NotAllowedNow):
        burn_momentum(once, 5)


def test_stances_suggest_a_threat_range() -> None:
    assert Stance.COMPROMISED.threat_range == (-2, 0)
    assert Stance.SUBSTANTIAL.threat_range == (1, 4)
    assert Stance.INERT.threat_range == (0, 0)
    assert Stance.ADVANCING.threat_range is None
    assert suggested_threat(frozenset()) == (0, 0)
    assert suggested_threat(frozenset({Stance.COMPROMISED, Stance.VOLATILE})) == (-2, 4)
    assert suggested_threat(frozenset({Stance.SUBSTANTIAL, Stance.RESISTANT})) == (1, 4)
