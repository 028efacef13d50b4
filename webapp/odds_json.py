"""The exact odds of a roll as the Mini App's JSON, and as the odds page's chart: both
worked out in a worker process.

A small module on purpose: the worker processes import it as they start.
"""

from __future__ import annotations

import json
from typing import Any

from core.rules.dice import DiceExpression
from core.rules.dice_odds import DiceOdds, odds


def odds_json_text(expression: DiceExpression) -> str:
    """The exact odds of ``expression`` as JSON text: what a worker process is sent."""
    return json.dumps(odds_json(odds(expression)))


def odds_json(result: DiceOdds) -> dict[str, Any]:
    return {
        "notation": result.expression.notation,
        "minimum": result.minimum,
        "maximum": result.maximum,
        "mean": result.mean,
        "target": None if result.expression.target is None else str(result.expression.target),
        "target_chance": result.target_chance,
        "explosion_depth": result.explosion_depth,
        "distribution": [[value, chance] for value, chance in result.distribution],
    }


Bar = tuple[int, float, float]  # a total, its chance, its height in % of the tallest bar


def odds_chart(expression: DiceExpression) -> tuple[DiceOdds, list[Bar]]:
    """The exact odds of ``expression`` and its chart's bars: what a worker process is sent
    for the odds page."""
    result = odds(expression)
    return result, chart_bars(result)


def chart_bars(result: DiceOdds) -> list[Bar]:
    """Each total, its chance, and its bar's height against the likeliest total's."""
    top = max(p for _, p in result.distribution)
    return [(v, p, 100 * p / top) for v, p in result.distribution]
