"""Reading action dice and applying cuts (Core Rules: action dice roll, threat dice; ruling 14)."""

from __future__ import annotations

import pytest

from core.rules.threat.dice import Result, count_cuts, cut, judge, read_action_dice
from tests.core.rules.threat.reference import all_faces, reference_result


@pytest.mark.parametrize("face", [1, 2, 3])
def test_highest_one_to_three_is_botched(face: int) -> None:
    assert read_action_dice([face, 1]) is Result.BOTCHED


@pytest.mark.parametrize("face", [4, 5])
def test_highest_four_or_five_is_messy(face: int) -> None:
    assert read_action_dice([1, face, 3]) is Result.MESSY


def test_single_six_is_good() -> None:
    assert read_action_dice([6, 5, 5]) is Result.GOOD


def test_two_or_more_sixes_is_perfect() -> None:
    assert read_action_dice([6, 6]) is Result.PERFECT
    assert read_action_dice([6, 1, 6, 6]) is Result.PERFECT


def test_only_the_highest_die_counts() -> None:
    assert read_action_dice([1, 1, 1, 5]) is Result.MESSY


def test_no_action_dice_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        read_action_dice([])


@pytest.mark.parametrize("face", [7, 8])
def test_threat_die_of_seven_or_eight_cuts(face: int) -> None:
    assert count_cuts([face]) == 1


@pytest.mark.parametrize("face", range(1, 7))
def test_threat_die_below_seven_does_not_cut(face: int) -> None:
    assert count_cuts([face]) == 0


def test_each_cutting_die_is_one_cut() -> None:
    assert count_cuts([7, 8, 1, 7]) == 3


def test_good_cut_once_is_messy() -> None:
    assert cut(Result.GOOD, 1) is Result.MESSY


def test_ruling14_messy_cut_once_is_botched() -> None:
    assert cut(Result.MESSY, 1) is Result.BOTCHED


def test_ruling14_botched_cut_is_dire() -> None:
    assert cut(Result.BOTCHED, 1) is Result.DIRE


def test_ruling14_cuts_stop_at_dire() -> None:
    assert cut(Result.BOTCHED, 5) is Result.DIRE
    assert cut(Result.GOOD, 9) is Result.DIRE


def test_ruling14_good_cut_three_times_is_dire() -> None:
    assert cut(Result.GOOD, 2) is Result.BOTCHED
    assert cut(Result.GOOD, 3) is Result.DIRE


def test_ruling14_perfect_cannot_be_cut() -> None:
    assert cut(Result.PERFECT, 4) is Result.PERFECT
    assert judge([6, 6], [8, 8, 8]) is Result.PERFECT


def test_dire_only_comes_from_a_cut() -> None:
    for action in all_faces(3, 6):
        assert judge(action, []) is not Result.DIRE


def test_messy_or_better_succeeds() -> None:
    assert [r for r in Result if r.succeeds] == [Result.MESSY, Result.GOOD, Result.PERFECT]


@pytest.mark.parametrize(("action_dice", "threat_dice"), [(1, 0), (1, 3), (2, 2), (3, 1)])
def test_judge_matches_reference_for_every_face(action_dice: int, threat_dice: int) -> None:
    for action in all_faces(action_dice, 6):
        for threat in all_faces(threat_dice, 8):
            assert judge(action, threat).value == reference_result(action, threat)
