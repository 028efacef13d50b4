"""Cortex die ratings and how a rolled pool turns into a Result.

Invariants: a :class:`Die` is one of d4, d6, d8, d10, d12; stepping up from
d12 or back from d4 leaves the ladder (``None``); a face of 1 is a dud and is
never part of a Result (ruling 17); a Result is the sum of the ``keep``
highest non-dud faces, 0 when every face is a dud.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from core.rules.errors import Malformed
from core.rules.rng import Rng, roll_die

DUD = 1
FREE_KEEP = 2
MAX_POOL = 40


class Die(IntEnum):
    """A trait's die rating, from d4 to d12."""

    D4 = 4
    D6 = 6
    D8 = 8
    D10 = 10
    D12 = 12

    @property
    def label(self) -> str:
        return f"d{int(self)}"

    def stepped_up(self) -> Die | None:
        """The next larger die, or ``None`` past d12."""
        return Die(self + 2) if self < Die.D12 else None

    def stepped_back(self) -> Die | None:
        """The next smaller die, or ``None`` below d4."""
        return Die(self - 2) if self > Die.D4 else None

    @classmethod
    def parse(cls, text: object) -> Die:
        """Read ``"d8"``, ``"D8"``, ``"к8"`` (the Cyrillic dice letters), ``"8"`` or ``8``.

        Raises:
            Malformed: not one of d4, d6, d8, d10, d12.
        """
        if isinstance(text, bool):
            raise Malformed("A die is d4, d6, d8, d10 or d12.")
        if isinstance(text, int):
            value = text
        elif isinstance(text, str):
            match = re.fullmatch(r"\s*[dDдДкК]?(\d{1,2})\s*", text)
            if match is None:
                raise Malformed(
                    "“{text}” is not a die. Use d4, d6, d8, d10 or d12.", text=text[:20]
                )
            value = int(match.group(1))
        else:
            raise Malformed("A die is d4, d6, d8, d10 or d12.")
        try:
            return cls(value)
        except ValueError:
            raise Malformed(
                "d{size} is not a Cortex die. Use d4, d6, d8, d10 or d12.", size=value
            ) from None


@dataclass(frozen=True)
class RolledDie:
    """One die of a pool after the roll, with the trait it came from."""

    die: Die
    face: int
    source: str

    def __post_init__(self) -> None:
        if not 1 <= self.face <= int(self.die):
            raise Malformed("A {die} cannot show {face}.", die=self.die.label, face=self.face)

    @property
    def is_dud(self) -> bool:
        return self.face == DUD

    def to_dict(self) -> dict[str, object]:
        return {"die": int(self.die), "face": self.face, "source": self.source}

    @classmethod
    def from_dict(cls, data: object) -> RolledDie:
        if not isinstance(data, dict):
            raise Malformed("A rolled die must be an object.")
        face = data.get("face")
        source = data.get("source", "")
        if not isinstance(face, int) or isinstance(face, bool) or not isinstance(source, str):
            raise Malformed("A rolled die needs a whole-number face and a source.")
        return cls(Die.parse(data.get("die")), face, source)


def roll_pool(dice: Iterable[tuple[Die, str]], rng: Rng) -> tuple[RolledDie, ...]:
    """Roll each ``(die, source)`` once, in order."""
    return tuple(RolledDie(die, roll_die(rng, int(die)), source) for die, source in dice)


def kept_indexes(rolled: Sequence[RolledDie], keep: int) -> tuple[int, ...]:
    """Indexes of the ``keep`` highest non-dud faces (larger die first on ties)."""
    order = sorted(
        (i for i, r in enumerate(rolled) if not r.is_dud),
        key=lambda i: (-rolled[i].face, -int(rolled[i].die), i),
    )
    return tuple(sorted(order[: max(keep, 0)]))


def result_of(faces: Iterable[int], keep: int = FREE_KEEP) -> int:
    """Sum of the ``keep`` highest faces that are not 1 (0 when none)."""
    good = sorted((f for f in faces if f != DUD), reverse=True)
    return sum(good[: max(keep, 0)])


def best_single(rolled: Sequence[RolledDie]) -> RolledDie | None:
    """The highest non-dud die (larger die on a tie), or ``None``."""
    good = [r for r in rolled if not r.is_dud]
    if not good:
        return None
    return max(good, key=lambda r: (r.face, int(r.die)))
