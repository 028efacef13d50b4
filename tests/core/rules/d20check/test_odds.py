"""Exact odds, against brute-force enumeration and icepool."""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections import Counter
from fractions import Fraction

import icepool
import pytest

from core.__main__ import main
from core.rules.d20check.check import (
    AbilityStrength,
    CheckSetup,
    Difficulty,
    Opposition,
    Target,
    check_roll_from_faces,
    resolve,
)
from core.rules.d20check.odds import ODDS, check_odds, total_distribution
from core.rules.errors import Malformed

SETUPS = [
    CheckSetup(ability, prof, adv, dis)
    for ability in AbilityStrength
    for prof in (0, 4)
    for adv, dis in [(0, 0), (1, 0), (2, 0), (0, 3), (4, 0), (2, 7), (6, 1)]
]


def _all_rolls(setup: CheckSetup):  # type: ignore[no-untyped-def]
    pairs = itertools.product(range(1, 21), repeat=setup.ability.d20_count)
    die = setup.die
    faces: list[int | None] = [None] if die is None else list(range(1, die.sides + 1))
    for d20s, face in itertools.product(pairs, faces):
        yield check_roll_from_faces(setup, d20s, face)


def _brute_margin(setup: CheckSetup, target: Target) -> tuple[dict[int, Fraction], Fraction]:
    counts: Counter[int] = Counter()
    wins = 0
    n = 0
    for roll in _all_rolls(setup):
        result = resolve(roll, target)
        counts[result.margin] += 1
        wins += result.succeeded
        n += 1
    return {m: Fraction(c, n) for m, c in counts.items()}, Fraction(wins, n)


def _icepool_total(setup: CheckSetup) -> icepool.Die:
    d20 = icepool.d20
    kept = {
        AbilityStrength.WEAK: icepool.lowest(d20, d20),
        AbilityStrength.AVERAGE: d20,
        AbilityStrength.STRONG: icepool.highest(d20, d20),
    }[setup.ability]
    total = kept + setup.proficiency
    die = setup.die
    if die is not None:
        total = total + die.sign * icepool.d(die.sides)
    return total


# One of each ability, each with a different circumstance die (and none).
FAST_SETUPS = [
    CheckSetup(AbilityStrength.WEAK, 0, 0, 0),
    CheckSetup(AbilityStrength.AVERAGE, 4, 2, 0),
    CheckSetup(AbilityStrength.STRONG, 0, 0, 3),
    CheckSetup(AbilityStrength.AVERAGE, 0, 6, 1),
    CheckSetup(AbilityStrength.WEAK, 4, 4, 0),
]


def _assert_static_odds_match_brute_force(setup: CheckSetup, dc: int) -> None:
    margin, success = _brute_margin(setup, Difficulty(dc))
    odds = check_odds(setup, Difficulty(dc))
    assert odds.margin == margin
    assert odds.success == success
    assert odds.tie == 0


@pytest.mark.parametrize("setup", FAST_SETUPS, ids=str)
def test_static_odds_match_brute_force(setup: CheckSetup) -> None:
    _assert_static_odds_match_brute_force(setup, 15)


@pytest.mark.slow
@pytest.mark.parametrize("setup", SETUPS, ids=str)
@pytest.mark.parametrize("dc", [5, 15, 25])
def test_static_odds_match_brute_force_full_grid(setup: CheckSetup, dc: int) -> None:
    _assert_static_odds_match_brute_force(setup, dc)


@pytest.mark.parametrize("setup", FAST_SETUPS, ids=str)
def test_contest_against_known_result_matches_brute_force(setup: CheckSetup) -> None:
    margin, success = _brute_margin(setup, Opposition(12))
    odds = check_odds(setup, Opposition(12))
    assert odds.margin == margin
    assert odds.success == success
    assert odds.tie == margin.get(0, 0)


@pytest.mark.parametrize("setup", SETUPS, ids=str)
def test_total_distribution_matches_icepool(setup: CheckSetup) -> None:
    die = _icepool_total(setup)
    expected = {int(k): Fraction(q, die.denominator()) for k, q in die.items()}
    assert total_distribution(setup) == expected


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        (CheckSetup(AbilityStrength.STRONG, 2, 1, 0), CheckSetup(AbilityStrength.WEAK, 3)),
        (CheckSetup(AbilityStrength.AVERAGE, 0, 0, 5), CheckSetup(AbilityStrength.STRONG, 0, 2)),
    ],
)
def test_rolled_contest_matches_icepool(mine: CheckSetup, theirs: CheckSetup) -> None:
    diff = _icepool_total(mine) - _icepool_total(theirs)
    denominator = diff.denominator()
    odds = check_odds(mine, opponent=theirs)
    assert odds.margin == {int(k): Fraction(q, denominator) for k, q in diff.items()}
    assert odds.success == Fraction(sum(q for k, q in diff.items() if k > 0), denominator)
    assert odds.tie == Fraction(diff.quantity(0), denominator)


def test_rolled_contest_matches_brute_force_for_average_dice() -> None:
    mine, theirs = CheckSetup(proficiency=1, advantages=1), CheckSetup(disadvantages=2)
    counts: Counter[int] = Counter()
    for a, b in itertools.product(_all_rolls(mine), _all_rolls(theirs)):
        counts[a.total - b.total] += 1
    n = sum(counts.values())
    assert check_odds(mine, opponent=theirs).margin == {
        m: Fraction(c, n) for m, c in counts.items()
    }


def test_retry_odds_match_brute_force_over_two_rolls() -> None:
    setup, target = CheckSetup(proficiency=2, disadvantages=1), Difficulty(14)
    rolls = list(_all_rolls(setup))
    counts: Counter[int] = Counter()
    for first, second in itertools.product(rolls, rolls):
        final = first if resolve(first, target).succeeded else second
        counts[resolve(final, target).margin] += 1
    n = len(rolls) ** 2
    odds = check_odds(setup, target, retry=True)
    assert odds.margin == {m: Fraction(c, n) for m, c in counts.items()}
    p = check_odds(setup, target).success
    assert odds.success == 1 - (1 - p) ** 2


@pytest.mark.parametrize(
    ("wounds", "expected"),
    [
        (0, {0: 1}),
        (3, {0: 1}),
        (6, {0: "success", 1: "failure"}),
        (10, {1: 1}),
        (14, {1: "success", 2: "failure"}),
        (16, {0: 1}),
    ],
)
def test_strain_odds_follow_the_wound_band(wounds: int, expected: dict[int, object]) -> None:
    odds = check_odds(CheckSetup(), Difficulty(11), wounds=wounds)
    p = odds.success
    want = {
        k: (p if v == "success" else 1 - p if v == "failure" else Fraction(1))
        for k, v in expected.items()
    }
    assert odds.strain == want


def test_odds_need_exactly_one_target() -> None:
    with pytest.raises(Malformed):
        check_odds(CheckSetup())
    with pytest.raises(Malformed):
        check_odds(CheckSetup(), Difficulty(10), opponent=CheckSetup())


def _cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["odds", "d20", *argv, "--json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_cli_json_has_success_and_margin_keyed_by_integer_strings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = "--ability strong --proficiency 2 --advantages 1 --disadvantages 0 --dc 15"
    out = _cli_json(argv.split(), capsys)
    margin = out["margin"]
    assert isinstance(margin, dict)
    assert all(str(int(k)) == k for k in margin)
    assert abs(sum(margin.values()) - 1) < 1e-12
    exact = check_odds(CheckSetup(AbilityStrength.STRONG, 2, 1, 0), Difficulty(15))
    assert out["success"] == float(exact.success)
    assert out["success"] == pytest.approx(sum(p for k, p in margin.items() if int(k) >= 0))
    assert set(out) == {"success", "margin"}


def test_cli_contest_success_excludes_ties(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli_json(["--vs-ability", "average"], capsys)
    margin = out["margin"]
    assert isinstance(margin, dict)
    assert out["success"] == pytest.approx(sum(p for k, p in margin.items() if int(k) > 0))
    assert out["tie"] == pytest.approx(margin["0"])


def test_cli_wounds_adds_strain(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli_json(["--dc", "10", "--wounds", "14"], capsys)
    assert set(out) == {"success", "margin", "strain"}


def test_cli_without_json_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "d20", "--dc", "12", "--retry", "--wounds", "6"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Success")
    assert "margin" in text and "strain" in text


def test_cli_refuses_two_targets_with_a_friendly_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["odds", "d20", "--dc", "12", "--vs-result", "10"]) == 2
    assert "--dc" in capsys.readouterr().err


def test_cli_refuses_out_of_range_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "d20", "--dc", "12", "--proficiency", "-2"]) == 2
    assert "Proficiency" in capsys.readouterr().err


def test_each_query_is_well_under_50_ms() -> None:
    args = argparse.Namespace(
        ability="strong",
        proficiency=5,
        advantages=9,
        disadvantages=0,
        dc=None,
        vs_result=None,
        vs_ability="weak",
        vs_proficiency=3,
        vs_advantages=0,
        vs_disadvantages=5,
        retry=True,
        wounds=14,
    )
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        ODDS.compute(args)
        timings.append(time.perf_counter() - start)
    assert min(timings) < 0.025
