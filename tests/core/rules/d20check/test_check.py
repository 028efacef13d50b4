"""Rolling one check: d20s by ability, proficiency, the circumstance die, margin, outcome."""

from __future__ import annotations

import itertools

import pytest

from core.rules.d20check.check import (
    AbilityStrength,
    CheckRoll,
    CheckSetup,
    Difficulty,
    Natural,
    Opposition,
    Outcome,
    check_roll_from_faces,
    circumstance_die,
    resolve,
    roll_check,
)
from core.rules.errors import Malformed
from core.rules.rng import ScriptedRng, SeededRng

WEAK, AVERAGE, STRONG = AbilityStrength.WEAK, AbilityStrength.AVERAGE, AbilityStrength.STRONG


def test_weak_ability_rolls_two_d20_and_keeps_the_lowest() -> None:
    roll = roll_check(CheckSetup(WEAK), ScriptedRng([17, 4]))
    assert roll.d20s == (17, 4)
    assert roll.kept == 4
    assert roll.total == 4


def test_strong_ability_rolls_two_d20_and_keeps_the_highest() -> None:
    roll = roll_check(CheckSetup(STRONG), ScriptedRng([4, 17]))
    assert roll.kept == 17


def test_the_kept_index_points_at_the_kept_d20_the_first_of_equals() -> None:
    assert check_roll_from_faces(CheckSetup(WEAK), (17, 4), None).kept_index == 1
    assert check_roll_from_faces(CheckSetup(STRONG), (9, 9), None).kept_index == 0
    for ability in AbilityStrength:
        for faces in itertools.product(range(1, 21), repeat=ability.d20_count):
            roll = check_roll_from_faces(CheckSetup(ability), faces, None)
            index = roll.kept_index
            assert roll.d20s[index] == roll.kept and roll.kept not in roll.d20s[:index]


def test_average_ability_rolls_one_d20() -> None:
    rng = ScriptedRng([9, 3])
    roll = roll_check(CheckSetup(AVERAGE), rng)
    assert roll.d20s == (9,)
    assert roll.kept == 9
    assert rng.remaining == 1


def test_proficiency_is_added() -> None:
    assert roll_check(CheckSetup(AVERAGE, proficiency=3), ScriptedRng([9])).total == 12


def test_no_proficiency_adds_nothing() -> None:
    assert roll_check(CheckSetup(AVERAGE), ScriptedRng([9])).total == 9


@pytest.mark.parametrize(
    ("count", "sides"), [(1, 4), (2, 6), (3, 8), (4, 10), (5, 12), (6, 12), (20, 12)]
)
def test_advantage_die_by_count(count: int, sides: int) -> None:
    die = circumstance_die(count, 0)
    assert die is not None
    assert (die.sides, die.sign) == (sides, 1)


@pytest.mark.parametrize(("count", "sides"), [(1, 4), (2, 6), (3, 8), (4, 10), (5, 12), (9, 12)])
def test_disadvantage_die_by_count(count: int, sides: int) -> None:
    die = circumstance_die(0, count)
    assert die is not None
    assert (die.sides, die.sign) == (sides, -1)


def test_advantage_die_is_added() -> None:
    roll = roll_check(CheckSetup(AVERAGE, advantages=2), ScriptedRng([10, 6]))
    assert roll.die_face == 6
    assert roll.total == 16


def test_disadvantage_die_is_subtracted() -> None:
    roll = roll_check(CheckSetup(AVERAGE, disadvantages=1), ScriptedRng([10, 3]))
    assert roll.total == 7


def test_advantages_and_disadvantages_cancel_one_for_one() -> None:
    assert circumstance_die(3, 1) == circumstance_die(2, 0)
    assert circumstance_die(1, 4) == circumstance_die(0, 3)
    assert circumstance_die(2, 2) is None


def test_fully_cancelled_circumstances_roll_no_die() -> None:
    rng = ScriptedRng([10, 4])
    roll = roll_check(CheckSetup(AVERAGE, advantages=2, disadvantages=2), rng)
    assert roll.die_face is None
    assert rng.remaining == 1


def test_dice_are_drawn_d20s_first_then_the_circumstance_die() -> None:
    roll = roll_check(CheckSetup(STRONG, advantages=5), ScriptedRng([2, 19, 12]))
    assert roll.d20s == (2, 19)
    assert roll.die_face == 12


def test_static_check_succeeds_when_total_equals_difficulty() -> None:
    result = resolve(roll_check(CheckSetup(AVERAGE), ScriptedRng([15])), Difficulty(15))
    assert result.outcome is Outcome.SUCCESS
    assert result.margin == 0


def test_static_check_fails_below_difficulty_with_negative_margin() -> None:
    result = resolve(roll_check(CheckSetup(AVERAGE), ScriptedRng([12])), Difficulty(15))
    assert result.outcome is Outcome.FAILURE
    assert result.margin == -3


def test_static_margin_is_total_minus_difficulty() -> None:
    result = resolve(
        roll_check(CheckSetup(AVERAGE, proficiency=2), ScriptedRng([18])), Difficulty(15)
    )
    assert result.margin == 5


def test_contest_highest_total_wins_with_margin_over_opponent() -> None:
    result = resolve(roll_check(CheckSetup(AVERAGE), ScriptedRng([14])), Opposition(11))
    assert result.outcome is Outcome.SUCCESS
    assert result.margin == 3


def test_contest_loss_has_negative_margin() -> None:
    result = resolve(roll_check(CheckSetup(AVERAGE), ScriptedRng([8])), Opposition(11))
    assert result.outcome is Outcome.FAILURE
    assert result.margin == -3


def test_contest_tie_is_no_win() -> None:
    result = resolve(roll_check(CheckSetup(AVERAGE), ScriptedRng([11])), Opposition(11))
    assert result.outcome is Outcome.TIE
    assert not result.succeeded
    assert result.margin == 0


@pytest.mark.parametrize(
    ("ability", "d20s", "natural"),
    [
        (AVERAGE, (1,), Natural.ONE),
        (AVERAGE, (20,), Natural.TWENTY),
        (AVERAGE, (10,), None),
        (STRONG, (1, 15), None),
        (STRONG, (3, 20), Natural.TWENTY),
        (STRONG, (1, 1), Natural.ONE),
        (WEAK, (1, 20), Natural.ONE),
        (WEAK, (20, 5), None),
        (WEAK, (20, 20), Natural.TWENTY),
    ],
)
def test_ruling19_the_kept_d20_is_the_natural(
    ability: AbilityStrength, d20s: tuple[int, ...], natural: Natural | None
) -> None:
    assert check_roll_from_faces(CheckSetup(ability), d20s, None).natural is natural


def test_every_face_combination_matches_the_rules_by_hand() -> None:
    """Brute force: every d20 pair and die face, against the text computed directly."""
    _assert_faces_match_by_hand([(0, 0), (1, 0), (0, 2), (3, 1), (0, 6)])


@pytest.mark.slow
def test_every_face_combination_matches_the_rules_by_hand_all_counts() -> None:
    circumstances = [(n, 0) for n in range(7)] + [(0, n) for n in range(1, 7)] + [(4, 4), (1, 3)]
    _assert_faces_match_by_hand(circumstances)


def _assert_faces_match_by_hand(circumstances: list[tuple[int, int]]) -> None:
    for ability, prof, (adv, dis) in itertools.product(AbilityStrength, (3,), circumstances):
        setup = CheckSetup(ability, prof, adv, dis)
        net = adv - dis
        sides = {0: 0, 1: 4, 2: 6, 3: 8, 4: 10}.get(abs(net), 12)
        pairs = (
            [(a,) for a in range(1, 21)]
            if ability is AVERAGE
            else list(itertools.product(range(1, 21), repeat=2))
        )
        for d20s in pairs:
            kept = {WEAK: min(d20s), AVERAGE: d20s[0], STRONG: max(d20s)}[ability]
            for face in range(1, sides + 1) if sides else [None]:
                roll = check_roll_from_faces(setup, d20s, face)
                signed = 0 if face is None else (face if net > 0 else -face)
                assert roll.total == kept + prof + signed


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"proficiency": -1}, "Proficiency"),
        ({"proficiency": 21}, "Proficiency"),
        ({"advantages": -1}, "Advantages"),
        ({"disadvantages": 99}, "Disadvantages"),
    ],
)
def test_setup_out_of_range_is_malformed(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(Malformed, match=message):
        CheckSetup(**kwargs)  # type: ignore[arg-type]


def test_faces_that_do_not_fit_are_malformed() -> None:
    with pytest.raises(Malformed):
        check_roll_from_faces(CheckSetup(STRONG), (5,), None)
    with pytest.raises(Malformed):
        check_roll_from_faces(CheckSetup(AVERAGE, advantages=1), (5,), 5)
    with pytest.raises(Malformed):
        check_roll_from_faces(CheckSetup(AVERAGE), (21,), None)


def test_roll_round_trips_through_a_dict() -> None:
    rng = SeededRng(7)
    for _ in range(50):
        roll = roll_check(CheckSetup(STRONG, 2, 3, 1), rng)
        assert CheckRoll.from_dict(roll.to_dict()) == roll


def test_setup_from_bad_dict_is_malformed() -> None:
    with pytest.raises(Malformed):
        CheckSetup.from_dict({"ability": "mighty", "proficiency": 0})
