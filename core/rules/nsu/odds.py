"""Exact odds of an NSU Action Roll, and the ``python -m core odds nsu`` command.

Model: the player's margin is (player's die - Arbiters' die), where the player
holds the Mood die when the World is at risk and the Aspect die (with the
skill) when the Character is. Whoever picks a doubled die (the player with
advantage, the Arbiters with disadvantage) keeps the face best for their own
side's margin, and the player always turns the skill in their own favour. The
margin is linear in each die, so each pick is independent of the others.

Invariants: probabilities are exact fractions summing to 1; ``rows`` is the
distribution of |margin| with 5 and more in one row; every query enumerates at
most 8 x 8 kept-face pairs, so answers are instant.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from core.rules.errors import Malformed
from core.rules.nsu.terms import Die, Edge, ResultRow, Risk
from core.rules.registry import OddsCommand, OddsResult

MAX_SKILL = 20
ROW_LABELS = ("0", "1", "2", "3", "4", "5+")


@dataclass(frozen=True)
class OddsQuery:
    """One Action Roll set-up."""

    aspect: Die
    mood: Die
    risk: Risk
    aspect_edge: Edge = Edge.NONE
    mood_edge: Edge = Edge.NONE
    skill: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.skill <= MAX_SKILL:
            raise Malformed(f"A skill modifier runs from 0 to {MAX_SKILL}.")


@dataclass(frozen=True)
class Odds:
    """Exact chances for one query."""

    player_wins: Fraction
    arbiters_win: Fraction
    tie: Fraction
    rows: tuple[Fraction, ...]  # one per ResultRow

    def as_json(self) -> dict[str, object]:
        return {
            "player_wins": float(self.player_wins),
            "arbiters_win": float(self.arbiters_win),
            "tie": float(self.tie),
            "rows": {label: float(p) for label, p in zip(ROW_LABELS, self.rows, strict=True)},
        }


def kept_distribution(die: Die, edge: Edge, keep_high: bool) -> dict[int, Fraction]:
    """Chance of each kept face: one die, or the higher/lower of two."""
    sides = int(die)
    if edge is Edge.NONE:
        return {face: Fraction(1, sides) for face in range(1, sides + 1)}
    square = sides * sides
    if keep_high:
        return {face: Fraction(2 * face - 1, square) for face in range(1, sides + 1)}
    return {face: Fraction(2 * (sides - face) + 1, square) for face in range(1, sides + 1)}


def _player_wants_high(pool: str, risk: Risk) -> bool:
    """Whether a higher face of this pool helps the player."""
    if pool == "mood":
        return risk is Risk.WORLD
    return risk is Risk.CHARACTER


def _keep_high(pool: str, risk: Risk, edge: Edge) -> bool:
    wants_high = _player_wants_high(pool, risk)
    return wants_high if edge is Edge.ADVANTAGE else not wants_high


def player_margin(risk: Risk, aspect_face: int, mood_face: int, skill: int) -> int:
    """The player's margin when the skill is turned in the player's favour."""
    if risk is Risk.WORLD:
        return mood_face - (aspect_face - skill)
    return (aspect_face + skill) - mood_face


@cache
def action_roll_odds(query: OddsQuery) -> Odds:
    """Exact odds of the winner and of each results-table row."""
    aspect = kept_distribution(
        query.aspect, query.aspect_edge, _keep_high("aspect", query.risk, query.aspect_edge)
    )
    mood = kept_distribution(
        query.mood, query.mood_edge, _keep_high("mood", query.risk, query.mood_edge)
    )
    win = lose = tie = Fraction(0)
    rows = [Fraction(0)] * len(ResultRow)
    for a, pa in aspect.items():
        for m, pm in mood.items():
            p = pa * pm
            margin = player_margin(query.risk, a, m, query.skill)
            if margin > 0:
                win += p
            elif margin < 0:
                lose += p
            else:
                tie += p
            rows[ResultRow.for_difference(abs(margin))] += p
    return Odds(win, lose, tie, tuple(rows))


# -- command line -------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``python -m core odds nsu``; values are checked in :func:`compute`."""
    parser.add_argument("--aspect", help="the Aspect die: d4, d6 or d8")
    parser.add_argument("--mood", help="the Mood die: d4, d6 or d8")
    parser.add_argument("--risk", help="what is at risk: world or character")
    parser.add_argument("--aspect-adv", action="store_true", help="Aspect Advantage")
    parser.add_argument("--aspect-disadv", action="store_true", help="Aspect Disadvantage")
    parser.add_argument("--mood-adv", action="store_true", help="Mood Advantage")
    parser.add_argument("--mood-disadv", action="store_true", help="Mood Disadvantage")
    parser.add_argument("--skill", default="0", help="skill modifier N (0 or more)")


def _edge(name: str, advantage: bool, disadvantage: bool) -> Edge:
    if advantage and disadvantage:
        raise Malformed(
            f"Pick one of --{name}-adv and --{name}-disadv: on the table they cancel, "
            "so leave both out for a plain roll."
        )
    return Edge.ADVANTAGE if advantage else Edge.DISADVANTAGE if disadvantage else Edge.NONE


def query_from_args(args: argparse.Namespace) -> OddsQuery:
    """Read and check the command-line options.

    Raises:
        Malformed: a missing or unreadable option, with what to write instead.
    """
    for option in ("aspect", "mood", "risk"):
        if getattr(args, option, None) is None:
            raise Malformed(f"Missing --{option}. Example: --aspect d6 --mood d8 --risk world")
    risk_text = str(args.risk).strip().lower()
    try:
        risk = Risk(risk_text)
    except ValueError:
        raise Malformed(f"--risk is world or character, not “{args.risk}”.") from None
    try:
        skill = int(str(args.skill).strip().lstrip("+"))
    except ValueError:
        raise Malformed(f"--skill takes a whole number, not “{args.skill}”.") from None
    return OddsQuery(
        aspect=Die.parse(str(args.aspect)),
        mood=Die.parse(str(args.mood)),
        risk=risk,
        aspect_edge=_edge("aspect", bool(args.aspect_adv), bool(args.aspect_disadv)),
        mood_edge=_edge("mood", bool(args.mood_adv), bool(args.mood_disadv)),
        skill=skill,
    )


def compute(args: argparse.Namespace) -> OddsResult:
    """The JSON-ready odds for the parsed options."""
    return action_roll_odds(query_from_args(args)).as_json()


def format_table(result: OddsResult) -> str:
    """A small readable table of :func:`compute`'s result."""
    rows = result["rows"]
    assert isinstance(rows, dict)
    lines = [
        "No Stone Unturned - Action Roll odds",
        f"  Player wins   {_pct(result['player_wins'])}",
        f"  Arbiters win  {_pct(result['arbiters_win'])}",
        f"  Tie           {_pct(result['tie'])}",
        "  Difference (results row)",
    ]
    lines += [f"    {label:>2}          {_pct(rows[label])}" for label in ROW_LABELS]
    return "\n".join(lines)


def _pct(value: object) -> str:
    assert isinstance(value, float)
    return f"{100 * value:6.2f}%"


ODDS_COMMAND = OddsCommand(add_arguments=add_arguments, compute=compute, format_table=format_table)
