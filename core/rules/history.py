"""What a game's own roll leaves in the chat's roll history (``/rolls``, the Mini App's
Rolls tab), as plain data: who rolled, the number read, each group's dice, and what the
game system says of it (its name, version, outcome and chance, in every language).

Dice notation rolls are kept by the dice use case itself; a game system whose rolls are
panels names what each outcome adds to the history with :data:`GameSystem.history`
(:mod:`core.rules.registry`), kept in the same transaction as the roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.rules.table import Outcome, Table


@dataclass(frozen=True)
class HistoryRoll:
    """One roll of a game system, as the history keeps it.

    Attributes:
        by: who rolled (Telegram id).
        notation: the roll in short, in English (what a reader without the system sees).
        total: the number the dice were read as.
        faces: per group of dice, each die as ``(total, kept)``.
        system: the game system's words (see :mod:`core.rules.dicesystem.table`).
    """

    by: int
    notation: str
    total: int
    faces: tuple[tuple[tuple[int, bool], ...], ...]
    system: dict[str, Any]


def no_history(table: Table, outcome: Outcome) -> tuple[HistoryRoll, ...]:
    """The default: a system's panels add nothing to the roll history."""
    return ()
