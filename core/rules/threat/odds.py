"""Exact odds of an action roll, as fractions.

For n action dice the uncut result has a closed form: Botched when every die
shows 1-3, Messy when the highest is 4 or 5, Good with exactly one 6, Perfect
with two or more. Each threat die cuts with chance 2/8, so the number of cuts is
binomial; the final result is the uncut one moved down by the cuts (Perfect
stays). Everything is exact (:class:`fractions.Fraction`) and takes O(n + m)
work, so a query costs well under a millisecond.

Invariants: the chances of an :class:`Odds` that needs a roll add up to exactly 1;
an :class:`Odds` that needs no roll has no chances.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb

from core.rules.errors import Malformed
from core.rules.registry import OddsCommand, OddsResult
from core.rules.threat.dice import ACTION_SIDES, CUTTING_FACES, THREAT_SIDES, Result, cut
from core.rules.threat.notation import parse
from core.rules.threat.roll import MAX_HARM, NoRoll, Pool

CUT_CHANCE = Fraction(len(CUTTING_FACES), THREAT_SIDES)


@dataclass(frozen=True)
class Odds:
    """The chance of each result, or why there is no roll."""

    chances: Mapping[Result, Fraction] = field(default_factory=dict)
    no_roll: NoRoll | None = None

    def chance(self, result: Result) -> Fraction:
        return self.chances.get(result, Fraction(0))

    def at_least(self, result: Result) -> Fraction:
        """The chance of ``result`` or better."""
        return sum(
            (p for r, p in self.chances.items() if r.rank >= result.rank),
            start=Fraction(0),
        )

    def as_json(self) -> dict[str, object]:
        """``{"dire": p, ..., "perfect": p}`` or ``{"no_roll": "success"|"impossible"}``."""
        if self.no_roll is not None:
            return {"no_roll": self.no_roll.value}
        return {result.value: float(self.chance(result)) for result in Result}


def uncut_chances(action_dice: int) -> dict[Result, Fraction]:
    """The result of ``action_dice`` d6 before any cut."""
    if action_dice < 1:
        raise ValueError("odds need at least one action die")
    n = action_dice
    no_six = Fraction(ACTION_SIDES - 1, ACTION_SIDES) ** n
    all_low = Fraction(1, 2) ** n
    one_six = n * Fraction(1, ACTION_SIDES) * Fraction(ACTION_SIDES - 1, ACTION_SIDES) ** (n - 1)
    return {
        Result.BOTCHED: all_low,
        Result.MESSY: no_six - all_low,
        Result.GOOD: one_six,
        Result.PERFECT: 1 - no_six - one_six,
    }


def cut_chances(threat_dice: int) -> list[Fraction]:
    """Chance of exactly k cuts, for k = 0..threat_dice."""
    if threat_dice < 0:
        raise ValueError("threat dice cannot be negative")
    m, p = threat_dice, CUT_CHANCE
    return [comb(m, k) * p**k * (1 - p) ** (m - k) for k in range(m + 1)]


def result_chances(action_dice: int, threat_dice: int) -> dict[Result, Fraction]:
    """The final result of ``action_dice`` d6 against ``threat_dice`` d8."""
    return dict(_result_chances(action_dice, threat_dice))


@lru_cache(maxsize=256)
def _result_chances(action_dice: int, threat_dice: int) -> tuple[tuple[Result, Fraction], ...]:
    """Remembered per pool size: every roll panel shows its odds on each redraw."""
    chances = {result: Fraction(0) for result in Result}
    cuts = cut_chances(threat_dice)
    for uncut, p in uncut_chances(action_dice).items():
        for k, q in enumerate(cuts):
            chances[cut(uncut, k)] += p * q
    return tuple(chances.items())


def pool_odds(pool: Pool) -> Odds:
    """Exact odds for a pool, or the reason it needs no roll.

    Raises:
        NotAllowedNow: the pool has no action dice.
    """
    if pool.no_roll is not None:
        return Odds(no_roll=pool.no_roll)
    pool.check_rollable()
    return Odds(result_chances(pool.action_dice, pool.threat_dice))


def notation_odds(text: str, harm: int = 0) -> Odds:
    """Exact odds for notation such as ``3d2t``, with the roller's harm.

    Raises:
        Malformed: bad notation or harm.
    """
    if not 0 <= harm <= MAX_HARM:
        raise Malformed("Harm runs from 0 to {limit}.", limit=MAX_HARM)
    return pool_odds(parse(text).to_pool(harm))


# The command line: python -m core odds threat 3d2t [--harm N] [--json]


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("notation", help="action and threat dice, e.g. 3d, 3d2t, 4d-1t")
    parser.add_argument("--harm", type=int, default=0, help="the roller's harm (adds threat dice)")


def _compute(args: argparse.Namespace) -> OddsResult:
    return notation_odds(str(args.notation), int(args.harm)).as_json()


_NO_ROLL_TEXT = {
    NoRoll.SUCCESS.value: "No roll: more than six action dice, the character simply does it.",
    NoRoll.IMPOSSIBLE.value: "No roll: at +4t it can't be done. Break it up or change plans.",
}


def format_table(result: OddsResult) -> str:
    """A readable table of :func:`_compute`'s output."""
    if "no_roll" in result:
        return _NO_ROLL_TEXT[str(result["no_roll"])]
    rows = ["result    chance   this or better"]
    better = 1.0
    for outcome in Result:
        value = result[outcome.value]
        chance = float(value) if isinstance(value, int | float) else 0.0
        rows.append(f"{outcome.label:<8} {chance:>7.2%}   {max(better, 0.0):>7.2%}")
        better -= chance
    return "\n".join(rows)


ODDS_COMMAND = OddsCommand(
    add_arguments=_add_arguments, compute=_compute, format_table=format_table
)
