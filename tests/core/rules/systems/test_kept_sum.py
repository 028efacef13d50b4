"""Keeping the highest (or lowest) of alike dice by how many show each value: the sum's
distribution is exactly that of every way the dice can fall (itertools.product for a
few plain dice, icepool's pools for exploding ones), and the work stays within its
estimate."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.dice import Dice, parse
from core.rules.systems.exact import (
    STEP_BUDGET,
    Budget,
    GroupDice,
    estimate_group,
    group_distribution,
    keeps_by_value,
)
from core.rules.systems.reading import Feature

TOTAL = [Feature("g", "total")]


def _dice(notation: str) -> Dice:
    node = parse(notation).node
    assert isinstance(node, Dice)
    return node


def _ours(group: GroupDice) -> dict[int, Fraction]:
    _, dist = group_distribution(group, TOTAL, Budget())
    return {key[0]: dist.chance(key) for key in dist.weights}


def _enumerated(
    count: int, sides: int, keep: str, n: int, faces: tuple[int, ...] | None
) -> dict[int, Fraction]:
    """Every way ``count`` dice of ``sides`` fall, each shown as its listed face."""
    seen: Counter[int] = Counter()
    for rolled in product(range(1, sides + 1), repeat=count):
        shown = sorted(faces[r - 1] if faces else r for r in rolled)
        kept = {
            "kh": shown[count - n :],
            "kl": shown[:n],
            "dh": shown[: count - n],
            "dl": shown[n:],
        }[keep]
        seen[sum(kept)] += 1
    return {t: Fraction(c, sides**count) for t, c in seen.items()}


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 5),
    st.sampled_from([2, 4, 6]),
    st.sampled_from(["kh", "kl", "dh", "dl"]),
    st.data(),
)
def test_keeping_by_value_is_every_way_the_dice_fall(
    count: int, sides: int, keep: str, data: st.DataObject
) -> None:
    n = data.draw(st.integers(1, count - 1))
    faces = data.draw(
        st.none() | st.lists(st.integers(-3, 9), min_size=sides, max_size=sides).map(tuple)
    )
    group = GroupDice("g", _dice(f"{count}d{sides}{keep}{n}"), faces)
    assert keeps_by_value(group, TOTAL)
    assert _ours(group) == _enumerated(count, sides, keep, n, faces)


@pytest.mark.parametrize(
    ("count", "keep", "highest", "depth"),
    [(6, 3, True, 20), (4, 2, False, 20), (10, 5, True, 3), (10, 9, True, 3), (7, 2, False, 5)],
)
def test_exploding_dice_kept_by_their_sums_are_icepools_pools(
    count: int, keep: int, highest: bool, depth: int
) -> None:
    notation = f"{count}d10!!{'kh' if highest else 'kl'}{keep}"
    group = GroupDice("g", _dice(notation), None, depth)
    pool = icepool.d10.explode(depth=depth).pool(count)
    theirs = (pool.highest(keep) if highest else pool.lowest(keep)).sum()
    expected = {v: Fraction(theirs.probability(v)) for v in theirs.outcomes()}
    assert _ours(group) == expected


def test_a_penetrating_die_kept_by_its_sum_is_icepools() -> None:
    """d6!p two deep: a 6 adds a die one less, at most twice (the last one stands)."""
    group = GroupDice("g", _dice("5d6!pkh2"), None, 2)
    weights = {a: 36 for a in range(1, 6)}  # no 6: out of 216
    weights |= {6 + b - 1: 6 for b in range(1, 6)}  # 6, then 1..5 shows 0..4
    weights |= {6 + 5 + c - 1: 1 for c in range(1, 7)}  # 6, 6 (shows 5), then 0..5
    pool = icepool.Die(weights).pool(5).highest(2).sum()
    expected = {v: Fraction(pool.probability(v)) for v in pool.outcomes()}
    assert _ours(group) == expected


def test_the_engines_depth_holds_without_a_bound_of_its_own() -> None:
    bounded = _ours(GroupDice("g", _dice("3d6!!kh2"), None, 20))
    assert _ours(GroupDice("g", _dice("3d6!!kh2"))) == bounded


def test_keeping_every_die_or_reading_more_than_the_total_is_folded_die_by_die() -> None:
    assert not keeps_by_value(GroupDice("g", _dice("3d6kh3")), TOTAL)
    assert not keeps_by_value(GroupDice("g", _dice("3d6")), TOTAL)
    assert not keeps_by_value(GroupDice("g", _dice("3d6kh2")), [*TOTAL, Feature("g", "high")])
    assert _ours(GroupDice("g", _dice("3d6kh3"))) == _enumerated(3, 6, "kh", 3, None)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["d6", "d10", "d4!!", "d6!!", "d10!!", "d8ro1", "d10!!>=9", "d6!p"]),
    st.integers(2, 10),
    st.sampled_from(["kh", "kl", "dh", "dl"]),
    st.integers(1, 20),
    st.data(),
)
def test_the_work_stays_within_its_estimate(
    die: str, count: int, keep: str, depth: int, data: st.DataObject
) -> None:
    n = data.draw(st.integers(1, count - 1))
    group = GroupDice("g", _dice(f"{count}{die}{keep}{n}"), None, depth)
    steps, size = estimate_group(group, TOTAL, STEP_BUDGET)
    if steps > STEP_BUDGET // 4:  # what odds would refuse, or too slow here
        return
    budget = Budget(STEP_BUDGET)
    _, dist = group_distribution(group, TOTAL, budget)
    assert budget.used <= steps
    assert len(dist.weights) <= size
