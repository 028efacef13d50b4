"""An independent, deliberately naive reading of the threat dice rules, for oracles.

Written from the rules text without using core.rules.threat, so that tests
compare two separate implementations.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction

LADDER = ("dire", "botched", "messy", "good")


def reference_result(action: Sequence[int], threat: Sequence[int]) -> str:
    """Highest d6 reads 1-3 botched, 4-5 messy, 6 good; two 6s perfect; 7-8 on a d8 cuts."""
    if list(action).count(6) >= 2:
        return "perfect"
    highest = max(action)
    step = 3 if highest == 6 else 2 if highest >= 4 else 1
    cuts = sum(1 for face in threat if face >= 7)
    return LADDER[max(step - cuts, 0)]


def all_faces(dice: int, sides: int) -> Iterator[tuple[int, ...]]:
    return itertools.product(range(1, sides + 1), repeat=dice)


def brute_force(action_dice: int, threat_dice: int) -> dict[str, Fraction]:
    """Enumerate every joint outcome of the dice."""
    counts: Counter[str] = Counter()
    for action in all_faces(action_dice, 6):
        for threat in all_faces(threat_dice, 8):
            counts[reference_result(action, threat)] += 1
    total = 6**action_dice * 8**threat_dice
    return {name: Fraction(counts[name], total) for name in (*LADDER, "perfect")}


def brute_force_grouped(action_dice: int, threat_dice: int) -> dict[str, Fraction]:
    """Enumerate every action outcome, and threat outcomes grouped by their cuts."""
    cut_counts: Counter[int] = Counter(
        sum(1 for f in threat if f >= 7) for threat in all_faces(threat_dice, 8)
    )
    counts: Counter[str] = Counter()
    for action in all_faces(action_dice, 6):
        for cuts, ways in cut_counts.items():
            counts[reference_result(action, (8,) * cuts)] += ways
    total = 6**action_dice * 8**threat_dice
    return {name: Fraction(counts[name], total) for name in (*LADDER, "perfect")}
