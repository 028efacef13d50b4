"""What a stored roll should come to on average, and how a player's rolls compare.

The roll history keeps each roll's expression as text; :func:`expected_mean` reads it
back through the dice engine and gives the exact expected total. A player's rolls are
then summed against those expectations (:func:`luck`): the two averages the Mini App's
roll history shows side by side.

The mean comes from the engine's exact odds (:mod:`core.rules.dice_odds`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from core.rules import dice
from core.rules.dice_odds import odds
from core.rules.errors import Malformed

__all__ = ["Luck", "expected_mean", "luck"]


@lru_cache(maxsize=512)
def expected_mean(notation: str) -> float | None:
    """The exact expected total of a stored roll's expression; None when it no longer
    reads as dice (a roll kept under an older notation) or is too large for exact odds.
    Each repeat of a roll is stored as a roll of its own; a roll stored with its repeats
    in one row (before they were kept apart) expects its totals summed."""
    try:
        expression = dice.parse(notation)
        one = odds(expression)
    except Malformed:
        return None
    return one.mean * expression.repeat


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
