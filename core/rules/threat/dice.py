"""Reading threat dice: action d6s give a result, threat d8s cut it.

The ladder, worst to best, is Dire < Botched < Messy < Good < Perfect.

Invariants:
- The highest action die gives the uncut result: 1-3 Botched, 4-5 Messy, 6 Good;
  two or more 6s give Perfect.
- Each threat die showing 7 or 8 is one cut; a cut moves the result one step down
  the ladder (ruling 14), never below Dire. Perfect is never cut.
- Dire only ever comes from a cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

ACTION_SIDES = 6
THREAT_SIDES = 8
CUTTING_FACES = frozenset({7, 8})
GOOD_FACE = 6
MESSY_FACES = frozenset({4, 5})


class Result(Enum):
    """The five results of an action roll, worst first."""

    DIRE = "dire"
    BOTCHED = "botched"
    MESSY = "messy"
    GOOD = "good"
    PERFECT = "perfect"

    @property
    def rank(self) -> int:
        """Position on the ladder: Dire 0 .. Perfect 4."""
        return _LADDER.index(self)

    @property
    def succeeds(self) -> bool:
        """Messy or better: the character does it."""
        return self.rank >= Result.MESSY.rank

    @property
    def label(self) -> str:
        """Short display name."""
        return self.value.capitalize()


_LADDER: tuple[Result, ...] = (
    Result.DIRE,
    Result.BOTCHED,
    Result.MESSY,
    Result.GOOD,
    Result.PERFECT,
)


def read_action_dice(faces: Sequence[int]) -> Result:
    """The uncut result of some action dice.

    Raises:
        ValueError: no dice, or a face outside 1..6 (a programming error).
    """
    if not faces:
        raise ValueError("an action roll needs at least one action die")
    if any(not 1 <= face <= ACTION_SIDES for face in faces):
        raise ValueError(f"action dice show 1..6, got {tuple(faces)}")
    sixes = sum(1 for face in faces if face == GOOD_FACE)
    if sixes >= 2:
        return Result.PERFECT
    if sixes == 1:
        return Result.GOOD
    if max(faces) in MESSY_FACES:
        return Result.MESSY
    return Result.BOTCHED


def count_cuts(faces: Sequence[int]) -> int:
    """How many threat dice cut (show 7 or 8).

    Raises:
        ValueError: a face outside 1..8 (a programming error).
    """
    if any(not 1 <= face <= THREAT_SIDES for face in faces):
        raise ValueError(f"threat dice show 1..8, got {tuple(faces)}")
    return sum(1 for face in faces if face in CUTTING_FACES)


def cut(result: Result, cuts: int) -> Result:
    """Move ``result`` down the ladder by ``cuts`` steps; Perfect stays, Dire is the floor."""
    if cuts < 0:
        raise ValueError("cuts cannot be negative")
    if result is Result.PERFECT:
        return result
    return _LADDER[max(result.rank - cuts, 0)]


def judge(action_faces: Sequence[int], threat_faces: Sequence[int]) -> Result:
    """The final result of a roll: read the action dice, then apply the cuts."""
    return cut(read_action_dice(action_faces), count_cuts(threat_faces))
