"""The campaign's shared pool of lucky and unlucky plot points.

Invariants:
    * ``lucky + unlucky == size`` and the size never changes by spending or
      flipping; it equals the number of players including the Game Master
      (ruling 20), at least 2.
    * A new campaign starts with every point lucky (ruling 20).
    * Spending a lucky point turns it unlucky and spending an unlucky point
      turns it lucky; a natural 1 turns a lucky point unlucky and a natural 20
      turns an unlucky point lucky, if there is one to turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from core.rules.d20check.check import Natural
from core.rules.errors import Malformed, NotAllowedNow

MIN_TABLE = 2
MAX_TABLE = 50


class PlotPointKind(Enum):
    LUCKY = "lucky"
    UNLUCKY = "unlucky"

    @property
    def other(self) -> PlotPointKind:
        return PlotPointKind.UNLUCKY if self is PlotPointKind.LUCKY else PlotPointKind.LUCKY


@dataclass(frozen=True)
class PlotPointPool:
    """How many of the shared points are lucky and unlucky right now.

    Raises:
        Malformed: negative counts or a size outside 2..50.
    """

    lucky: int
    unlucky: int

    def __post_init__(self) -> None:
        for value in (self.lucky, self.unlucky):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise Malformed("Plot point counts must be whole numbers, zero or more.")
        if not MIN_TABLE <= self.lucky + self.unlucky <= MAX_TABLE:
            raise Malformed(
                "A table has between {low} and {high} plot points, "
                "one per player including the Game Master.",
                low=MIN_TABLE,
                high=MAX_TABLE,
            )

    @classmethod
    def new_campaign(cls, players_including_gm: int) -> PlotPointPool:
        """One lucky point per player, the Game Master included (ruling 20)."""
        return cls(lucky=players_including_gm, unlucky=0)

    @property
    def size(self) -> int:
        return self.lucky + self.unlucky

    def count(self, kind: PlotPointKind) -> int:
        return self.lucky if kind is PlotPointKind.LUCKY else self.unlucky

    def has(self, kind: PlotPointKind) -> bool:
        return self.count(kind) > 0

    def spend(self, kind: PlotPointKind) -> PlotPointPool:
        """Spend one point of ``kind``; it turns to the other kind.

        Raises:
            NotAllowedNow: no point of that kind is left.
        """
        if not self.has(kind):
            if kind is PlotPointKind.LUCKY:
                raise NotAllowedNow("There is no lucky plot point left to spend.")
            raise NotAllowedNow("There is no unlucky plot point left to spend.")
        return self._turn(kind)

    def _turn(self, kind: PlotPointKind) -> PlotPointPool:
        if kind is PlotPointKind.LUCKY:
            return PlotPointPool(lucky=self.lucky - 1, unlucky=self.unlucky + 1)
        return PlotPointPool(lucky=self.lucky + 1, unlucky=self.unlucky - 1)

    def after_natural(self, natural: Natural) -> tuple[PlotPointPool, bool]:
        """Apply a natural 1 or 20; returns the pool and whether a point turned.

        When no point of the needed kind is left, nothing turns and the Game
        Master picks another effect instead.
        """
        kind = PlotPointKind.LUCKY if natural is Natural.ONE else PlotPointKind.UNLUCKY
        if not self.has(kind):
            return self, False
        return self._turn(kind), True

    def to_dict(self) -> dict[str, object]:
        return {"lucky": self.lucky, "unlucky": self.unlucky}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> PlotPointPool:
        """Rebuild a pool.

        Raises:
            Malformed: missing or bad counts.
        """
        lucky, unlucky = data.get("lucky"), data.get("unlucky")
        if not isinstance(lucky, int) or not isinstance(unlucky, int):
            raise Malformed("That plot point pool could not be read.")
        return cls(lucky=lucky, unlucky=unlucky)
