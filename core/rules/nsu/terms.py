"""The small vocabulary shared by the NSU modules: dice, aspects, risk, edges, results.

Plain enums and functions only, so that the odds command can load quickly.
Invariants: a :class:`Die` is a sheet die (d4, d6, d8); :func:`combine_edges`
never stacks; a :class:`ResultRow` is 0..5 with every difference of 5 or more in row 5.
"""

from __future__ import annotations

import enum

from core.rules.errors import Malformed


class Die(enum.IntEnum):
    """A die size on the sheet."""

    D4 = 4
    D6 = 6
    D8 = 8

    @property
    def label(self) -> str:
        return f"d{self.value}"

    @property
    def boxes(self) -> int:
        """Boxes on a mood level track for this die: die + 1."""
        return self.value + 1

    @property
    def overload_threshold(self) -> int:
        """The threshold box: die / 2. Past it means level > threshold."""
        return self.value // 2

    @classmethod
    def parse(cls, text: str) -> Die:
        """Read "d8", "D6", "к6" (the Cyrillic dice letters), "4" and the like.

        Raises:
            Malformed: not one of d4, d6, d8.
        """
        cleaned = text.strip().lower()
        cleaned = cleaned[1:] if cleaned[:1] in ("d", "д", "к") else cleaned
        if cleaned in ("4", "6", "8"):
            return cls(int(cleaned))
        raise Malformed("“{text}” is not a sheet die: use d4, d6 or d8.", text=text)


class Aspect(enum.Enum):
    """Body, Mind and Heart."""

    BODY = "body"
    MIND = "mind"
    HEART = "heart"


class Risk(enum.Enum):
    """What is most at risk; decides which die belongs to whom."""

    CHARACTER = "character"  # player keeps the Aspect die, Arbiters the Mood die
    WORLD = "world"  # player keeps the Mood die, Arbiters the Aspect die


class Edge(enum.Enum):
    """Advantage, disadvantage or neither, after cancelling (ruling 2)."""

    NONE = "none"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


def combine_edges(advantage: bool, disadvantage: bool) -> Edge:
    """Any number of advantages count once, as do disadvantages; one of each cancels."""
    if advantage == disadvantage:
        return Edge.NONE
    return Edge.ADVANTAGE if advantage else Edge.DISADVANTAGE


class Side(enum.Enum):
    PLAYER = "player"
    ARBITERS = "arbiters"


class Winner(enum.Enum):
    PLAYER = "player"
    ARBITERS = "arbiters"
    TIE = "tie"


class ResultRow(enum.IntEnum):
    """The results-table row: the difference of the dice, 5 and up sharing a row."""

    EACH_SIDE = 0
    WIN_WITH_COST = 1
    WIN = 2
    WIN_WITH_SCENE = 3
    WIN_WITH_ALLY = 4
    BIG_WIN = 5

    @classmethod
    def for_difference(cls, difference: int) -> ResultRow:
        if difference < 0:
            raise Malformed("A difference is never negative.")
        return cls(min(difference, 5))


def winner_for(risk: Risk, aspect_total: int, mood: int) -> Winner:
    """The reference sheet's matrix: who wins for each risk and higher die."""
    if aspect_total == mood:
        return Winner.TIE
    mood_higher = mood > aspect_total
    if risk is Risk.WORLD:
        return Winner.PLAYER if mood_higher else Winner.ARBITERS
    return Winner.ARBITERS if mood_higher else Winner.PLAYER
