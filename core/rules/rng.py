"""Random number sources, passed into the rules as arguments.

Production uses :class:`FairRng` (the operating system's CSPRNG). Tests use
:class:`SeededRng` for reproducible sequences or :class:`ScriptedRng` to force
exact die faces.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Protocol


class Rng(Protocol):
    """Anything that can pick a uniform integer in a closed range."""

    def randint(self, low: int, high: int) -> int:
        """Return a uniform integer N with low <= N <= high."""
        ...


class FairRng:
    """A fair RNG backed by the operating system's entropy source."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()

    def randint(self, low: int, high: int) -> int:
        return self._random.randint(low, high)

    def __reduce__(self) -> tuple[type[FairRng], tuple[()]]:
        # sent to another process (a large roll), it is that process's own fair RNG
        return (FairRng, ())


class SeededRng:
    """A reproducible RNG for tests and replays."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return self._random.randint(low, high)


class ScriptedRng:
    """Returns the given values in order; for tests that need exact faces.

    Raises:
        ValueError: a scripted value is outside the requested range, or the
            script ran out.
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._values = deque(values)

    def randint(self, low: int, high: int) -> int:
        if not self._values:
            raise ValueError("ScriptedRng ran out of values")
        value = self._values.popleft()
        if not low <= value <= high:
            raise ValueError(f"scripted value {value} is outside {low}..{high}")
        return value

    @property
    def remaining(self) -> int:
        return len(self._values)


def roll_die(rng: Rng, sides: int) -> int:
    """Roll one die with the given number of sides."""
    return rng.randint(1, sides)
