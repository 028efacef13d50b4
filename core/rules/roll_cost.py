"""How much work a roll can be: the most dice it may throw, explosions and rerolls counted.

The edges read it to tell a large roll (run in a worker process, off the event loop)
from an everyday one (rolled at once). It is an upper bound from the expression
alone, computed without rolling.
"""

from __future__ import annotations

from core.rules.dice import EXPLODE_DEPTH, DiceExpression, dice_terms

LARGE_ROLL = 5_000  # dice thrown at most: past this, a roll is large

_EXPLOSIONS = {
    "": 1,
    "ra": 2,
    "!": 1 + EXPLODE_DEPTH,
    "!!": 1 + EXPLODE_DEPTH,
    "!p": 1 + EXPLODE_DEPTH,
}
# a reroll takes one more draw: "r" draws among the faces that do not match, at once
_REROLLS = {"": 1, "ro": 2, "r": 2}


def most_dice_thrown(expression: DiceExpression) -> int:
    """The most dice one roll of ``expression`` may throw (each repeat counted)."""
    per_roll = sum(
        term.count * _EXPLOSIONS.get(term.explode, 1 + EXPLODE_DEPTH) * _REROLLS.get(term.reroll, 2)
        for term in dice_terms(expression.node)
    )
    return per_roll * expression.repeat


def is_large(expression: DiceExpression) -> bool:
    """Whether rolling ``expression`` may take long enough to hold others up."""
    return most_dice_thrown(expression) > LARGE_ROLL
