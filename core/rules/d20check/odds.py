"""Exact odds of a d20 check, for ``python -m core odds d20``.

Distributions are counted in integers over equally likely outcomes and built
by convolution, so every query is a few thousand integer operations; they
become exact ``Fraction`` values at the end and floats only in the CLI.

Invariants:
    * A distribution maps integers to positive probabilities summing to 1.
    * Success is ``margin >= 0`` against a difficulty and ``margin > 0`` in a
      contest (a tie wins for nobody); with ``--retry`` a failed first roll is
      replaced by a second roll, as when the roller spends a lucky point.
    * Wounds do not change the dice; with ``--wounds N`` the result also gives
      the strain the check adds to a character with N wounds.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from core.rules.d20check.check import (
    AbilityStrength,
    CheckSetup,
    Difficulty,
    Opposition,
    Target,
    outcome_for,
)
from core.rules.d20check.wounds import MAX_WOUNDS, band_for, strain_from_check
from core.rules.errors import Malformed
from core.rules.registry import OddsCommand, OddsResult

Counts = dict[int, int]


def _kept_d20_counts(ability: AbilityStrength) -> tuple[Counts, int]:
    """Ways to get each kept d20 face, and the number of equally likely outcomes."""
    if ability is AbilityStrength.AVERAGE:
        return {face: 1 for face in range(1, 21)}, 20
    if ability is AbilityStrength.STRONG:
        return {face: face * face - (face - 1) ** 2 for face in range(1, 21)}, 400
    return {face: (21 - face) ** 2 - (20 - face) ** 2 for face in range(1, 21)}, 400


def _convolve(left: Counts, right: Counts) -> Counts:
    out: Counts = {}
    for a, p in left.items():
        for b, q in right.items():
            out[a + b] = out.get(a + b, 0) + p * q
    return out


def _total_counts(setup: CheckSetup) -> tuple[Counts, int]:
    kept, outcomes = _kept_d20_counts(setup.ability)
    counts = {face + setup.proficiency: ways for face, ways in kept.items()}
    die = setup.die
    if die is None:
        return counts, outcomes
    faces = {die.sign * face: 1 for face in range(1, die.sides + 1)}
    return _convolve(counts, faces), outcomes * die.sides


def kept_d20_distribution(ability: AbilityStrength) -> dict[int, Fraction]:
    """The kept d20 for a weak (lowest of two), average, or strong (highest of two) ability."""
    counts, outcomes = _kept_d20_counts(ability)
    return {face: Fraction(ways, outcomes) for face, ways in counts.items()}


def total_distribution(setup: CheckSetup) -> dict[int, Fraction]:
    """The distribution of a check's total: kept d20 + proficiency ± circumstance die."""
    counts, outcomes = _total_counts(setup)
    return {total: Fraction(ways, outcomes) for total, ways in sorted(counts.items())}


@dataclass(frozen=True)
class CheckOdds:
    """Exact odds of one check.

    Attributes:
        margin: the distribution of the final margin.
        success: probability of success.
        tie: probability of a contest tie (0 for static checks).
        strain: distribution of strain added, if a wound count was given.
    """

    margin: dict[int, Fraction]
    success: Fraction
    tie: Fraction
    strain: dict[int, Fraction] | None = None


def check_odds(
    setup: CheckSetup,
    target: Target | None = None,
    opponent: CheckSetup | None = None,
    retry: bool = False,
    wounds: int | None = None,
) -> CheckOdds:
    """Exact odds against a difficulty, a known opposing result, or a rolling opponent.

    Raises:
        Malformed: not exactly one of ``target`` and ``opponent``, or wounds out of range.
    """
    if (target is None) == (opponent is None):
        raise Malformed("Give either a difficulty or an opponent, not both.")
    if wounds is not None and not 0 <= wounds <= MAX_WOUNDS:
        raise Malformed("Wounds go from 0 to {limit}.", limit=MAX_WOUNDS)
    mine, outcomes = _total_counts(setup)
    if opponent is not None:
        theirs, their_outcomes = _total_counts(opponent)
        counts = _convolve(mine, {-total: ways for total, ways in theirs.items()})
        outcomes *= their_outcomes
        rule: Target = Opposition(0)
    else:
        assert target is not None
        offset = target.value if isinstance(target, Difficulty) else target.result
        counts = {total - offset: ways for total, ways in mine.items()}
        rule = target
    if retry:
        counts, outcomes = _with_retry(counts, outcomes, rule)
    margin = {m: Fraction(ways, outcomes) for m, ways in sorted(counts.items()) if ways}
    wins = sum(ways for m, ways in counts.items() if outcome_for(rule, m).succeeded)
    success = Fraction(wins, outcomes)
    tie = margin.get(0, Fraction(0)) if isinstance(rule, Opposition) else Fraction(0)
    strain = None if wounds is None else _strain_odds(wounds, success)
    return CheckOdds(margin=margin, success=success, tie=tie, strain=strain)


def _with_retry(counts: dict[int, int], outcomes: int, rule: Target) -> tuple[dict[int, int], int]:
    """A failed roll is rolled again: the margins of both rolls, and their outcomes."""
    failed = sum(ways for m, ways in counts.items() if not outcome_for(rule, m).succeeded)
    retried = {
        m: (ways * outcomes if outcome_for(rule, m).succeeded else 0) + failed * ways
        for m, ways in counts.items()
    }
    return retried, outcomes * outcomes


def _strain_odds(wounds: int, success: Fraction) -> dict[int, Fraction]:
    """The strain a check costs with these wounds: its odds on success and on failure."""
    band = band_for(wounds)
    strain: dict[int, Fraction] = {}
    for succeeded, p in ((True, success), (False, 1 - success)):
        amount = strain_from_check(band, succeeded)
        if p:
            strain[amount] = strain.get(amount, Fraction(0)) + p
    return dict(sorted(strain.items()))


# -- the CLI ------------------------------------------------------------------

_ABILITIES = [strength.value for strength in AbilityStrength]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m core odds d20``."""
    parser.add_argument(
        "--ability",
        choices=_ABILITIES,
        default="average",
        help="weak: 2d20 keep lowest; average: 1d20; strong: 2d20 keep highest",
    )
    parser.add_argument("--proficiency", type=int, default=0, help="bonus added (0-20)")
    parser.add_argument("--advantages", type=int, default=0, help="count of advantages")
    parser.add_argument("--disadvantages", type=int, default=0, help="count of disadvantages")
    parser.add_argument("--dc", type=int, help="difficulty of a static check")
    parser.add_argument("--vs-result", type=int, help="a contest against this known total")
    parser.add_argument("--vs-ability", choices=_ABILITIES, help="a contest against a roll")
    parser.add_argument("--vs-proficiency", type=int, default=0)
    parser.add_argument("--vs-advantages", type=int, default=0)
    parser.add_argument("--vs-disadvantages", type=int, default=0)
    parser.add_argument(
        "--retry", action="store_true", help="spend a lucky plot point to retry a failure"
    )
    parser.add_argument(
        "--wounds", type=int, help="also give the strain a character with this many wounds gains"
    )


def compute(args: argparse.Namespace) -> OddsResult:
    """Exact odds from parsed options, as ``{"success": p, "margin": {"-k": p, ...}}``.

    Contests add ``"tie"``; ``--wounds`` adds ``"strain"`` (amount -> probability).

    Raises:
        Malformed: no target, two targets, or numbers out of range.
    """
    setup = CheckSetup(
        ability=AbilityStrength(args.ability),
        proficiency=args.proficiency,
        advantages=args.advantages,
        disadvantages=args.disadvantages,
    )
    chosen = [args.dc is not None, args.vs_result is not None, args.vs_ability is not None]
    if sum(chosen) != 1:
        raise Malformed("Give exactly one of --dc, --vs-result or --vs-ability.")
    target: Target | None = None
    opponent = None
    if args.dc is not None:
        target = Difficulty(args.dc)
    elif args.vs_result is not None:
        target = Opposition(args.vs_result)
    else:
        opponent = CheckSetup(
            ability=AbilityStrength(args.vs_ability),
            proficiency=args.vs_proficiency,
            advantages=args.vs_advantages,
            disadvantages=args.vs_disadvantages,
        )
    odds = check_odds(setup, target, opponent, retry=args.retry, wounds=args.wounds)
    result: dict[str, object] = {
        "success": float(odds.success),
        "margin": {str(m): float(p) for m, p in odds.margin.items()},
    }
    if target is None or isinstance(target, Opposition):
        result["tie"] = float(odds.tie)
    if odds.strain is not None:
        result["strain"] = {str(k): float(p) for k, p in odds.strain.items()}
    return result


def _percent(p: object) -> str:
    return f"{float(p) * 100:6.2f}%" if isinstance(p, float | int) else "?"


def format_table(result: OddsResult) -> str:
    """A readable table: success, then each margin with its chance and the chance of at least it."""
    lines = [f"Success {_percent(result['success'])}"]
    if "tie" in result:
        lines.append(f"Tie     {_percent(result['tie'])}")
    margin = result["margin"]
    lines.append("")
    lines.append(" margin   exactly  at least")
    if isinstance(margin, Mapping):
        items = sorted((int(k), float(v)) for k, v in margin.items())
        remaining = 1.0
        for m, p in items:
            lines.append(f"{m:7d}  {_percent(p)}  {_percent(max(remaining, 0.0))}")
            remaining -= p
    strain = result.get("strain")
    if isinstance(strain, Mapping):
        lines.append("")
        lines.append(" strain   chance")
        for k, p in strain.items():
            lines.append(f"{int(k):7d}  {_percent(p)}")
    return "\n".join(lines)


ODDS = OddsCommand(add_arguments=add_arguments, compute=compute, format_table=format_table)
