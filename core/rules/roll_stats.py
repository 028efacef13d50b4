"""What a stored roll should come to on average, and how a player's rolls compare.

The roll history keeps each roll's expression as text; :func:`expected_mean` reads it
back through the dice engine and gives the exact expected total. A player's rolls are
then summed against those expectations (:func:`luck`): the two averages the Mini App's
roll history shows side by side.

The mean comes from the engine's exact odds (:mod:`core.rules.dice_odds`), which for a
large expression take a good part of a second: each process keeps the means it has worked
out. :func:`known_means` reads only what this process already knows, :func:`expected_means`
works out a list of them at once (as one job of the heavy pool) and :func:`remember` keeps
what came back, so a page of history never waits on odds it has not got.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.rules import dice
from core.rules.dice_odds import odds
from core.rules.errors import Malformed

__all__ = ["Luck", "expected_mean", "expected_means", "known_means", "luck", "remember"]

KNOWN_MEANS = 512  # the means a process keeps, the least recently used let go first
_known: OrderedDict[str, float | None] = OrderedDict()


def expected_mean(notation: str) -> float | None:
    """The exact expected total of a stored roll's expression; None when it no longer
    reads as dice (a roll kept under an older notation) or is too large for exact odds.
    Each repeat of a roll is stored as a roll of its own; a roll stored with its repeats
    in one row (before they were kept apart) expects its totals summed."""
    found = known_means((notation,))
    if notation in found:
        return found[notation]
    mean = _mean(notation)
    remember({notation: mean})
    return mean


def _mean(notation: str) -> float | None:
    try:
        expression = dice.parse(notation)
        one = odds(expression)
    except Malformed:
        return None
    return one.mean * expression.repeat


def known_means(notations: Iterable[str]) -> dict[str, float | None]:
    """The expected totals this process already knows, of those asked; nothing is worked out."""
    found: dict[str, float | None] = {}
    for notation in notations:
        if notation in _known:
            _known.move_to_end(notation)
            found[notation] = _known[notation]
    return found


def remember(means: Mapping[str, float | None]) -> None:
    """Keep expected totals worked out elsewhere (in a worker process)."""
    for notation, mean in means.items():
        _known[notation] = mean
        _known.move_to_end(notation)
    while len(_known) > KNOWN_MEANS:
        _known.popitem(last=False)


def expected_means(notations: tuple[str, ...]) -> dict[str, float | None]:
    """The expected total of each expression (see :func:`expected_mean`): one job for the
    heavy pool, for a whole page of history."""
    return {notation: expected_mean(notation) for notation in notations}


@dataclass(frozen=True)
class Luck:
    """A player's rolls against what they should come to, on average."""

    rolls: int  # rolls counted (those whose expression still reads)
    average: float  # the mean of their totals
    expected: float  # the mean of their expressions' expected totals

    @property
    def difference(self) -> float:
        return self.average - self.expected


def luck(
    rolls: Iterable[tuple[str, int]], means: Mapping[str, float | None] | None = None
) -> Luck | None:
    """Average and expected average over ``(notation, total)`` pairs; None when none count.

    ``means``: the expected totals already worked out, by expression (else each is worked
    out here); None also when one of the rolls' expressions is missing from them."""
    count, got, wanted = 0, 0.0, 0.0
    for notation, total in rolls:
        if means is not None and notation not in means:
            return None
        mean = expected_mean(notation) if means is None else means[notation]
        if mean is None:
            continue
        count += 1
        got += total
        wanted += mean
    if not count:
        return None
    return Luck(count, got / count, wanted / count)
