"""The expected total of a stored roll, and a player's luck against it."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.roll_stats import expected_mean, luck


@pytest.mark.parametrize(
    ("notation", "mean"),
    [
        ("1d20", 10.5),
        ("2d6+3", 10.0),
        ("d20 adv", 13.825),
        ("d20 dis", 7.175),
        ("1d8-1d6+2", 3.0),
        ("d%", 50.5),
    ],
)
def test_known_means(notation: str, mean: float) -> None:
    assert expected_mean(notation) == pytest.approx(mean)


def _brute(count: int, sides: int, keep: str, n: int) -> Fraction:
    """The mean of a keep/drop term over every way the dice can fall."""
    total, ways = Fraction(0), 0
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        ordered = sorted(faces)
        kept = {
            "kh": ordered[count - n :],
            "kl": ordered[:n],
            "dh": ordered[: count - n],
            "dl": ordered[n:],
        }[keep]
        total += sum(kept)
        ways += 1
    return total / ways


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(2, 4),
    sides=st.integers(2, 6),
    keep=st.sampled_from(["kh", "kl", "dh", "dl"]),
    data=st.data(),
)
def test_keep_and_drop_means_match_every_way_the_dice_fall(
    count: int, sides: int, keep: str, data: st.DataObject
) -> None:
    n = data.draw(st.integers(1, count if keep in ("kh", "kl") else count - 1))
    got = expected_mean(f"{count}d{sides}{keep}{n}")
    assert got == pytest.approx(float(_brute(count, sides, keep, n)), rel=1e-9)


def test_a_roll_too_large_for_exact_odds_is_left_out_not_guessed() -> None:
    assert expected_mean("1000d1000kh999") is None
    assert expected_mean("100d6") == pytest.approx(350.0)
    result = luck([("1000d1000kh999", 500_000), ("1d6", 4)])
    assert result is not None and result.rolls == 1


def test_an_unreadable_notation_has_no_mean_and_does_not_count() -> None:
    assert expected_mean("banana") is None
    result = luck([("banana", 3), ("1d6", 6), ("1d6", 2)])
    assert result is not None
    assert (result.rolls, result.average, result.expected) == (2, 4.0, 3.5)
    assert result.difference == pytest.approx(0.5)
    assert luck([]) is None
