"""Game systems as data: a definition (TOML or JSON a host can write), checked once,
rolled with the one dice engine and read by its outcome bands, with the exact chance
of every outcome.

The public API::

    definition = library_definition("pbta")        # or read_system(text)
    inputs = parse_args(definition, "+2")          # the short form /roll takes
    result = roll(definition, inputs, rng)         # SystemRoll: dice, value, outcome, marks
    table = odds(definition, inputs)               # SystemOdds: every outcome, best first,
                                                   # each with an exact Fraction
"""

from __future__ import annotations

from core.rules.systems.definition import (
    Definition,
    Followup,
    Input,
    Mark,
    OutcomeBand,
    Stat,
    Words,
    read_definition,
)
from core.rules.systems.library import LIBRARY, library, library_definition
from core.rules.systems.play import (
    GroupRoll,
    MarkChance,
    OutcomeChance,
    SystemOdds,
    SystemRoll,
    check_budget,
    estimate,
    follow_up,
    followup_odds,
    inputs_for,
    odds,
    offered,
    parse_args,
    parse_stat_roll,
    read_system,
    roll,
    stat_of,
    stat_values,
)

__all__ = [
    "LIBRARY",
    "Definition",
    "Followup",
    "GroupRoll",
    "Input",
    "Mark",
    "MarkChance",
    "OutcomeBand",
    "OutcomeChance",
    "Stat",
    "SystemOdds",
    "SystemRoll",
    "Words",
    "check_budget",
    "estimate",
    "follow_up",
    "followup_odds",
    "inputs_for",
    "library",
    "library_definition",
    "odds",
    "offered",
    "parse_args",
    "parse_stat_roll",
    "read_definition",
    "read_system",
    "roll",
    "stat_of",
    "stat_values",
]
