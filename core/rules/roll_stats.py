"""What a stored roll should come to on average, and how a player's rolls compare.

The roll history keeps each roll's expression as text; :func:`expected_mean` reads it
back through the dice engine and gives the exact expected total. A player's rolls are
then summed against those expectations (:func:`luck`): the two averages the Mini App's
roll history shows side by side.

When the engine can tell an expression's exact mean itself, :func:`expected_mean`
should ask it; until then the mean is worked out here from the expression's dice terms.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from math import exp, lgamma, log

from core.rules import dice
from core.rules.errors import Malformed

__all__ = ["Luck", "expected_mean", "luck"]


def _binomial_pmf(n: int, j: int, p: float) -> float:
    """P(exactly ``j`` of ``n`` independent events of probability ``p``)."""
    if p <= 0.0:
        return 1.0 if j == 0 else 0.0
    if p >= 1.0:
        return 1.0 if j == n else 0.0
    return exp(
        lgamma(n + 1) - lgamma(j + 1) - lgamma(n - j + 1) + j * log(p) + (n - j) * log(1 - p)
    )


@lru_cache(maxsize=256)
def _top_sum_mean(count: int, sides: int, keep: int) -> float:
    """Expected sum of the highest ``keep`` of ``count`` dice with ``sides`` sides.

    The sum of the top ``keep`` dice is, over every face value ``x`` from 1 up,
    how many of them show ``x`` or more: min(keep, N_x), N_x binomial.
    """
    if keep >= count:
        return count * (sides + 1) / 2
    if 2 * keep > count:  # the top k are all the dice but the bottom n - k (fewer steps)
        rest = count - keep
        bottom = rest * (sides + 1) - _top_sum_mean(count, sides, rest)
        return count * (sides + 1) / 2 - bottom
    total = 0.0
    for x in range(1, sides + 1):
        p = (sides - x + 1) / sides
        under = 0.0  # E[N_x; N_x < keep]
        chance = 0.0  # P(N_x < keep)
        for j in range(keep):
            pmf = _binomial_pmf(count, j, p)
            under += j * pmf
            chance += pmf
        total += under + keep * (1.0 - chance)
    return total


def _term_mean(term: dice.DiceTerm) -> float:
    kept = term.kept_count
    highest = term.keep in (dice.Keep.ALL, dice.Keep.HIGHEST, dice.Keep.DROP_LOWEST)
    top = _top_sum_mean(term.count, term.sides, kept)
    # the lowest k faces of n dice mirror the highest k of (sides + 1 - face)
    return top if highest else kept * (term.sides + 1) - top


def expected_mean(notation: str) -> float | None:
    """The exact expected total of a stored roll's expression; None when it no longer
    reads as dice (a roll kept under an older notation)."""
    try:
        expression = dice.parse(notation)
    except Malformed:
        return None
    mean = 0.0
    for signed in expression.terms:
        term = signed.term
        value = _term_mean(term) if isinstance(term, dice.DiceTerm) else float(term.value)
        mean += signed.sign * value
    return mean


@dataclass(frozen=True)
class Luck:
    """A player's rolls against what they should come to, on average."""

    rolls: int  # rolls counted (those whose expression still reads)
    average: float  # the mean of their totals
    expected: float  # the mean of their expressions' expected totals

    @property
    def difference(self) -> float:
        return self.average - self.expected


def luck(rolls: Iterable[tuple[str, int]]) -> Luck | None:
    """Average and expected average over ``(notation, total)`` pairs; None when none count."""
    count, got, wanted = 0, 0.0, 0.0
    for notation, total in rolls:
        mean = expected_mean(notation)
        if mean is None:
            continue
        count += 1
        got += total
        wanted += mean
    if not count:
        return None
    return Luck(count, got / count, wanted / count)
