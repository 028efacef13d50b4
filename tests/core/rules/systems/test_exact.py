"""The exact distributions of groups of dice agree with the dice engine's own odds
(which roll as the roller does: explosions 20 deep, rerolls, mi/ma), and their work
stays within the bound estimated before it."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core.rules.dice import Compare, Dice, parse
from core.rules.dice_odds import odds as engine_odds
from core.rules.systems.exact import (
    STEP_BUDGET,
    Budget,
    GroupDice,
    estimate_group,
    group_distribution,
)
from core.rules.systems.reading import Feature

TERMS = [
    "3d6", "2d10", "4dF", "1d20", "2d6ro<6", "3d6r1", "2d8mi3", "2d8ma5", "1d6!", "2d6!",
    "1d4!", "1d10!>=8", "2d6!p", "1d6ra6", "1d10!!", "2d10!!kh1", "3d6kh2", "3d6kl2", "4d6dl1",
]  # fmt: skip


def _dice(notation: str) -> Dice:
    node = parse(notation).node
    assert isinstance(node, Dice)
    return node


@pytest.mark.parametrize("notation", TERMS)
def test_a_groups_total_is_the_engines_distribution(notation: str) -> None:
    dice = _dice(notation)
    order, dist = group_distribution(GroupDice("g", dice), [Feature("g", "total")], Budget())
    assert order == (Feature("g", "total"),)
    ours = {key[0]: float(dist.chance(key)) for key in dist.weights}
    theirs = dict(engine_odds(parse(notation)).distribution)
    assert ours.keys() == theirs.keys()
    assert all(abs(ours[v] - theirs[v]) < 1e-12 for v in ours)
    assert sum(dist.chance(key) for key in dist.weights) == 1


@pytest.mark.parametrize(
    ("notation", "engine"),
    [
        ("4d6", "4d6>=5"),
        ("3d10!>=9", "3d10!>=9 >=5"),
        ("2d6!", "2d6! >=5"),
        ("5d6ro<6", "5d6ro<6>=5"),
    ],
)
def test_a_count_is_the_engines_success_count(notation: str, engine: str) -> None:
    count = Feature("g", "count", Compare(">=", 5))
    _, dist = group_distribution(GroupDice("g", _dice(notation)), [count], Budget())
    ours = {key[0]: float(dist.chance(key)) for key in dist.weights}
    theirs = dict(engine_odds(parse(engine)).distribution)
    assert ours.keys() == theirs.keys()
    assert all(abs(ours[v] - p) < 1e-12 for v, p in theirs.items())


def test_listed_faces_show_in_place_of_the_dice_faces() -> None:
    tens = GroupDice("t", _dice("2d10"), tuple(range(0, 100, 10)))
    high = Feature("t", "high")
    low = Feature("t", "low", Compare(">", 0))
    _, dist = group_distribution(tens, [high, low], Budget())
    order = tuple(sorted([high, low], key=lambda f: f.name))
    at = {f: i for i, f in enumerate(order)}
    # both dice on 00: the highest is 0 and no die is above 0
    both_zero = tuple(0 for _ in order)
    assert dist.chance(both_zero) == Fraction(1, 100)
    key = [0, 0]
    key[at[high]], key[at[low]] = 90, 90  # both 90, or a 90 and a 00
    assert dist.chance(tuple(key)) == Fraction(3, 100)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["d6", "d10", "d4!", "d6!", "d8ro1", "dF", "d10!>=9", "d6!p"]),
    st.integers(1, 6),
    st.sets(st.sampled_from(["total", "high", "low", "count"]), min_size=1),
)
def test_the_work_stays_within_its_estimate(die: str, count: int, kinds: set[str]) -> None:
    dice = _dice(f"{count}{die}")
    features = [
        Feature("g", k, Compare(">=", 3) if k == "count" else None) for k in sorted(kinds)
    ]  # fmt: skip
    steps, _ = estimate_group(GroupDice("g", dice), features, STEP_BUDGET)
    assume(steps <= STEP_BUDGET // 4)  # what odds would do at all, and quickly here
    budget = Budget(STEP_BUDGET)
    group_distribution(GroupDice("g", dice), features, budget)
    assert budget.used <= steps
