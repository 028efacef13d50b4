"""Exact odds of a Cortex Result: the sum of the highest non-dud dice.

The distribution is computed by a dynamic programme over faces, from the
largest down to 2. Given that a die has not shown anything above ``f``, it is
uniform on ``1..f``, so every still-unplaced die that can show ``f`` is alike.
Until ``keep`` dice are kept every placed die is kept, so the state is only
the number of dice still unplaced, holding a polynomial in the sum whose
coefficients count outcomes (packed into one big integer, so a whole row of
sums moves in one operation);
once ``keep`` dice are kept the sum is final and the rest of the outcomes are
counted in one product. Dice left unplaced after face 2 showed 1, which are
duds. The work grows with pool size, keep and the sum range, never with the
number of outcomes.

Invariants: the counts add up to the product of the die sizes; every key of
the returned distribution is between 0 and ``keep`` times the largest die.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import comb, prod

from core.rules.cortex.dice import FREE_KEEP, Die
from core.rules.errors import Malformed
from core.rules.registry import OddsCommand, OddsResult

MAX_ODDS_DICE = 20
_TOKEN = re.compile(r"(\d{1,2})?[dDдДкК](\d{1,2})")  # к8 and д8 as Russian players type them


def result_counts(dice: Sequence[Die], keep: int = FREE_KEEP) -> dict[int, int]:
    """Outcome counts of the Result for ``dice`` keeping ``keep`` non-dud dice.

    Returns:
        Result value -> number of equally likely face combinations giving it;
        the counts sum to the product of the die sizes.
    """
    if keep < 0:
        raise Malformed("Keep at least one die.")
    whole = prod(int(d) for d in dice)
    if keep == 0 or not dice:
        return {0: whole}
    by_size = Counter(int(die) for die in dice)
    # A polynomial in the sum is packed into one integer, ``width`` bits per
    # coefficient; no count can exceed ``whole``, so coefficients never overlap.
    width = whole.bit_length() + 1
    # While fewer than ``keep`` dice are kept, every placed die was kept, so the
    # state is the number of unplaced dice; kept = joined - unplaced.
    states: dict[int, int] = {0: 1}
    final = 0
    joined = 0
    for face in range(max(by_size), 1, -1):
        joining = by_size.get(face, 0)
        joined += joining
        later = prod(size**n for size, n in by_size.items() if size < face)
        next_states: dict[int, int] = defaultdict(int)
        for unplaced, poly in states.items():
            active = unplaced + joining
            need = keep - (joined - active)
            for showing in range(min(active, need - 1) + 1):
                shifted = poly << (width * showing * face)
                next_states[active - showing] += shifted * comb(active, showing)
            if active >= need:
                filled = sum(
                    comb(active, s) * (face - 1) ** (active - s) for s in range(need, active + 1)
                )
                final += (poly << (width * need * face)) * filled * later
        states = next_states
    final += sum(states.values())
    return _unpacked(final, width)


def _unpacked(packed: int, width: int) -> dict[int, int]:
    """The polynomial's nonzero coefficients, ``width`` bits each: total -> count."""
    counts: dict[int, int] = {}
    mask = (1 << width) - 1
    total = 0
    while packed:
        if packed & mask:
            counts[total] = packed & mask
        packed >>= width
        total += 1
    return counts


def result_distribution(dice: Sequence[Die], keep: int = FREE_KEEP) -> dict[int, Fraction]:
    """Exact probability of each Result value."""
    counts = result_counts(dice, keep)
    whole = prod(int(d) for d in dice)
    return {value: Fraction(n, whole) for value, n in counts.items()}


def parse_dice(tokens: Sequence[str]) -> tuple[Die, ...]:
    """Read pool tokens such as ``d8 d6 2d10``.

    Raises:
        Malformed: an unknown token, no dice, or more than :data:`MAX_ODDS_DICE`.
    """
    dice: list[Die] = []
    for token in tokens:
        match = _TOKEN.fullmatch(token.strip())
        if match is None:
            raise Malformed("“{text}” is not a die. Write dice like d8 or 2d6.", text=token[:20])
        count = int(match.group(1)) if match.group(1) else 1
        if count < 1:
            raise Malformed("A die count starts at 1.")
        die = Die.parse(int(match.group(2)))
        if len(dice) + count > MAX_ODDS_DICE:
            raise Malformed("Odds go up to {most} dice.", most=MAX_ODDS_DICE)
        dice.extend([die] * count)
    if not dice:
        raise Malformed("Name at least one die, like d8 d6.")
    return tuple(dice)


def parse_keep(text: str | int | None) -> int:
    """Read the ``--keep`` option: how many dice count towards the Result.

    Raises:
        Malformed: not a whole number from 1 to :data:`MAX_ODDS_DICE`.
    """
    if text is None:
        return FREE_KEEP
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    elif isinstance(text, str) and re.fullmatch(r"\s*\d{1,3}\s*", text):
        value = int(text)
    else:
        raise Malformed("--keep takes a whole number, like 3.")
    if not 1 <= value <= MAX_ODDS_DICE:
        raise Malformed("--keep goes from 1 to {most}.", most=MAX_ODDS_DICE)
    return value


def parse_query(words: Sequence[str]) -> tuple[tuple[Die, ...], int]:
    """Read a whole odds query, e.g. ``d8 d6 2d10 --keep 3`` (for the bot's /odds too).

    Raises:
        Malformed: anything that is not dice, ``--keep N`` or ``--json``.
    """
    tokens: list[str] = []
    keep: str | None = None
    items = list(words)
    index = 0
    while index < len(items):
        word = items[index]
        if word == "--json":
            pass
        elif word == "--keep":
            if index + 1 >= len(items) or keep is not None:
                raise Malformed("--keep takes one whole number, like --keep 3.")
            keep = items[index + 1]
            index += 1
        elif word.startswith("--keep="):
            if keep is not None:
                raise Malformed("--keep takes one whole number, like --keep 3.")
            keep = word.removeprefix("--keep=")
        else:
            tokens.append(word)
        index += 1
    return parse_dice(tokens), parse_keep(keep)


def odds_result(dice: Sequence[Die], keep: int = FREE_KEEP) -> dict[str, object]:
    """The JSON-ready answer: ``{"result": {"0": p, ...}, "mean": m}``."""
    dist = result_distribution(dice, keep)
    mean = sum((value * p for value, p in dist.items()), Fraction(0))
    return {
        "result": {str(value): float(p) for value, p in dist.items()},
        "mean": float(mean),
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``dice...`` and ``--keep N`` on the odds sub-command."""
    parser.add_argument("dice", nargs="+", help="the pool, e.g. d8 d6 d6 d10 or 2d6")
    parser.add_argument(
        "--keep", default=None, help="how many dice count towards the Result (default 2)"
    )


def compute(args: argparse.Namespace) -> OddsResult:
    """Exact odds for the parsed command line.

    Raises:
        Malformed: bad dice or keep count.
    """
    dice = parse_dice(list(getattr(args, "dice", ()) or ()))
    keep = parse_keep(getattr(args, "keep", None))
    return odds_result(dice, keep)


def format_table(result: OddsResult) -> str:
    """A readable table: Result, chance of exactly it, chance of at least it."""
    raw = result.get("result", {})
    dist = raw if isinstance(raw, Mapping) else {}
    rows = sorted((int(k), float(v)) for k, v in dist.items())
    lines = ["Result  exactly  at least", "------  -------  --------"]
    remaining = 1.0
    for value, p in rows:
        lines.append(f"{value:>6}  {p:7.2%}  {max(remaining, 0.0):8.2%}")
        remaining -= p
    mean = result.get("mean", 0.0)
    lines.append(f"Mean Result: {float(mean) if isinstance(mean, int | float) else 0.0:.2f}")
    lines.append("(A Result of 0 means every die came up 1.)")
    return "\n".join(lines)


ODDS = OddsCommand(add_arguments=add_arguments, compute=compute, format_table=format_table)
