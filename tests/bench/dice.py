"""Dice engine figures for ``make bench``: parsing and rolling a 100-term expression, and
the exact odds of the heaviest expressions the odds still accept."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from core.rules.dice import MAX_TERMS, parse, roll
from core.rules.dice_odds import odds
from core.rules.errors import Malformed
from core.rules.rng import SeededRng

# 100 numbers and dice terms of every kind, spaces and all
TERMS = ["1d20", "4d6kh3", "2d6!", "3", "1d8r1", "2d10>=8", "1d4ro1", "1d12mi2", "dF", "2"]
HUNDRED_TERMS = " + ".join(TERMS[i % len(TERMS)] for i in range(MAX_TERMS)) + " fireball"

# Each near the odds' step budget: the heaviest allowed of its kind.
HEAVY = [
    "20d20kh10",
    "10d100kh3",
    "120d6",
    "8d6!",
    "(1d20+5, 1d20+3, 1d20+1, 1d20)kh2",
    "40d10>=8cf1",
]


def bench_dice(figure: Any) -> list[Any]:
    rng = SeededRng(1)
    each = 1e9
    for _ in range(5):  # the best of 5 batches: the machine's other load only adds
        start = time.perf_counter()
        for _ in range(60):
            roll(parse(HUNDRED_TERMS), rng)
        each = min(each, (time.perf_counter() - start) * 1000 / 60)
    what = "parse+roll a 100-term expression (best of 5 batches)"
    figures = [figure("dice", what, f"{each:.3f} ms", "< 1 ms", each < 1.0)]
    worst, name = 0.0, ""
    for text in HEAVY:
        expression = parse(text)
        for _ in range(3):
            start = time.perf_counter()
            try:
                odds(expression)
            except Malformed:
                continue
            took = (time.perf_counter() - start) * 1000
            if took > worst:
                worst, name = took, text
    figures.append(
        figure("dice", f"exact odds, heaviest allowed ({name})", f"{worst:.1f} ms", "< 200 ms",
               worst < 200)
    )  # fmt: skip
    start = time.perf_counter()
    with contextlib.suppress(Malformed):
        odds(parse("1000d1000kh500"))
    refused = (time.perf_counter() - start) * 1000
    figures.append(
        figure("dice", "exact odds refused as too large", f"{refused:.1f} ms", "< 200 ms",
               refused < 200)
    )  # fmt: skip
    return figures
