"""Exact odds against brute force and icepool; the odds command; the rule-of-thumb figures."""

from __future__ import annotations

import json
import time
from fractions import Fraction

import icepool
import pytest

from core.__main__ import main
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.threat.dice import Result
from core.rules.threat.odds import notation_odds, pool_odds, result_chances, uncut_chances
from core.rules.threat.roll import Pool
from tests.core.rules.threat.reference import brute_force, brute_force_grouped, reference_result


def _named(chances: dict[Result, Fraction]) -> dict[str, Fraction]:
    return {result.value: p for result, p in chances.items()}


@pytest.mark.parametrize(("n", "m"), [(1, 0), (1, 1), (2, 0), (2, 2), (3, 1), (3, 2), (4, 1)])
def test_odds_match_brute_force(n: int, m: int) -> None:
    assert _named(result_chances(n, m)) == brute_force(n, m)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 7))
@pytest.mark.parametrize("m", range(0, 7))
def test_odds_match_brute_force_every_pool_up_to_six(n: int, m: int) -> None:
    assert _named(result_chances(n, m)) == brute_force_grouped(n, m)


def _icepool_chances(n: int, m: int) -> dict[str, Fraction]:
    cuts = m @ icepool.Die([0] * 6 + [1] * 2) if m else icepool.Die([0])
    die = icepool.map(
        lambda faces, k: reference_result(faces, (8,) * k), icepool.d6.pool(n).expand(), cuts
    )
    return {str(outcome): Fraction(p) for outcome, p in zip(die, die.probabilities(), strict=True)}


@pytest.mark.parametrize(("n", "m"), [(1, 3), (3, 3), (5, 2), (6, 6)])
def test_odds_match_icepool(n: int, m: int) -> None:
    ours = {k: p for k, p in _named(result_chances(n, m)).items() if p}
    assert ours == _icepool_chances(n, m)


@pytest.mark.parametrize("n", range(1, 10))
def test_uncut_chances_add_up_to_one(n: int) -> None:
    assert sum(uncut_chances(n).values()) == 1


@pytest.mark.parametrize(("n", "m"), [(1, 0), (6, 12), (9, 3)])
def test_result_chances_add_up_to_one(n: int, m: int) -> None:
    assert sum(result_chances(n, m).values()) == 1


def test_rule_of_thumb_equal_dice_about_half_messy_or_better() -> None:
    figures = [notation_odds(f"{n}d{n}t").at_least(Result.MESSY) for n in (1, 2, 3)]
    assert figures == [Fraction(5, 12), Fraction(155, 288), Fraction(965, 1728)]
    # With harm making up the threat dice beyond +3:
    assert notation_odds("4d3t", harm=1).at_least(Result.MESSY) == Fraction(5065, 9216)


def test_rule_of_thumb_two_more_action_dice_about_three_quarters() -> None:
    assert notation_odds("2d").at_least(Result.MESSY) == Fraction(3, 4)
    assert notation_odds("3d1t").at_least(Result.MESSY) == Fraction(1316, 1728)
    assert notation_odds("4d2t").at_least(Result.MESSY) == Fraction(1261, 1728)


def test_no_roll_odds() -> None:
    assert notation_odds("7d2t").as_json() == {"no_roll": "success"}
    assert notation_odds("3d4t").as_json() == {"no_roll": "impossible"}
    with pytest.raises(NotAllowedNow):
        pool_odds(Pool(approach=0))


def test_odds_harm_out_of_range_is_malformed() -> None:
    with pytest.raises(Malformed):
        notation_odds("3d", harm=10)


def test_odds_query_is_fast() -> None:
    start = time.perf_counter()
    for text in ("1d", "3d2t", "6d3t", "9d"):
        notation_odds(text, harm=9)
    assert time.perf_counter() - start < 0.05


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "threat", "3d2t", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["dire", "botched", "messy", "good", "perfect"]
    assert sum(data.values()) == pytest.approx(1.0, abs=1e-12)
    assert data == {k: float(v) for k, v in brute_force(3, 2).items()}


@pytest.mark.parametrize(
    ("notation", "expected"), [("7d", "success"), ("3d4t", "impossible"), ("9d4t", "impossible")]
)
def test_cli_json_no_roll(capsys: pytest.CaptureFixture[str], notation: str, expected: str) -> None:
    assert main(["odds", "threat", notation, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"no_roll": expected}


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "threat", "2d2t", "--harm", "1"]) == 0
    out = capsys.readouterr().out
    assert "Messy" in out and "this or better" in out
    assert main(["odds", "threat", "7d"]) == 0
    assert "No roll" in capsys.readouterr().out


def test_cli_bad_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "threat", "0d9t"]) == 2
    assert "action die" in capsys.readouterr().err
