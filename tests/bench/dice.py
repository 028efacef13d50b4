"""Dice engine figures for ``make bench``: parsing and rolling a 100-term expression, and
the exact odds of the heaviest expressions the odds still accept (and of the refusals).

Times are this process's CPU time (``time.process_time``), the best of several batches:
the machine's other load only adds to them."""

from __future__ import annotations

import time
from typing import Any

from core.rules.dice import MAX_INPUT, MAX_TERMS, parse, roll
from core.rules.dice_odds import odds
from core.rules.errors import Malformed
from core.rules.rng import SeededRng

# 100 numbers and dice terms of every kind, spaces and all
TERMS = ["1d20", "4d6kh3", "2d6!", "3", "1d8r1", "2d10>=8", "1d4ro1", "1d12mi2", "dF", "2"]
HUNDRED_TERMS = " + ".join(TERMS[i % len(TERMS)] for i in range(MAX_TERMS)) + " fireball"

# Each just inside the odds' step budget: the heaviest allowed of its kind (one more
# die, or a larger keep, is refused).
HEAVY = [
    "7d100kh3",
    "18d20kh9",
    "115d6",
    "5d6!",
    "30d20",
    "(1d20+5, 1d20+3, 1d20+1, 1d20)kh2",
    "200d10>=8f1",
    "5d10!k2",
    "14d10!kh3",
    "122d20!kh1",
    "1d1000!kl1",
    "1d675!kl1",
    "4d6e6kh3",
    "2d6 >= 7",
]
# Just outside it: refused as too large for exact odds, and how long saying so takes.
REFUSED = ["8d100kh3", "20d20kh10", "118d6", "6d6!", "1000d1000kh500", "1000d1000!kh1",
           "10d10!kh5", "3d6!dl1", "3d1000!", "1d1000!", "1000d1000", "15d10!kh3", "123d20!kh1",
           "+".join(["1d1000!"] * 100)]  # fmt: skip
# Rolls that do the most work the limits allow: the slowest is shown
ROLLS = [
    "1000d1000r<1000!<1000",
    "1000d1000!",
    "1000d1000!p",
    "1000d1000!kh1",
    "1000d1000rr<1000",
    "+".join(["d1000!"] * 100)[:MAX_INPUT],
    "+".join(f"d{1000 - i}!" for i in range(100)),
]


def _cpu_ms(work: Any, times: int = 1) -> float:
    start = time.process_time()
    for _ in range(times):
        work()
    return (time.process_time() - start) * 1000 / times


def bench_dice(figure: Any) -> list[Any]:
    rng = SeededRng(1)
    each = min(_cpu_ms(lambda: roll(parse(HUNDRED_TERMS), rng), 60) for _ in range(9))
    what = "parse+roll a 100-term expression (CPU, best of 9 batches of 60)"
    figures = [figure("dice", what, f"{each:.3f} ms", "< 1 ms", each < 1.0)]
    worst, name = 0.0, ""
    for text in ROLLS:
        took = min(_cpu_ms(lambda: roll(parse(text), rng)) for _ in range(3))  # noqa: B023
        if took > worst:
            worst, name = took, text
    figures.append(
        figure("dice", f"parse+roll, slowest allowed ({name[:40]})", f"{worst:.1f} ms", "< 50 ms",
               worst < 50)
    )  # fmt: skip
    worst, name = 0.0, ""
    for text in HEAVY:
        expression = parse(text)
        took = min(_cpu_ms(lambda: odds(expression)) for _ in range(3))  # noqa: B023
        if took > worst:
            worst, name = took, text
    figures.append(
        figure("dice", f"exact odds, heaviest allowed ({name})", f"{worst:.1f} ms", "< 200 ms",
               worst < 200)
    )  # fmt: skip
    worst, name = 0.0, ""
    for text in REFUSED:
        expression = parse(text)

        def refuse() -> None:
            try:
                odds(expression)  # noqa: B023
            except Malformed:
                return
            raise AssertionError(f"{text} should be too large for exact odds")  # noqa: B023

        took = min(_cpu_ms(refuse) for _ in range(3))
        if took > worst:
            worst, name = took, text
    figures.append(
        figure("dice", f"exact odds refused as too large ({name[:40]})", f"{worst:.1f} ms",
               "< 20 ms", worst < 20)
    )  # fmt: skip
    return figures
