"""Games of the systems library at the table: one generic game system built from a
definition (:mod:`core.rules.systems`), so each library game is one registry entry
generated from its data, with no code of its own.

A campaign keeps the definition's text (with its key and version) in its state, so
a running game plays the rules it started with, and an export carries them.
``/roll +2`` opens the ``dice.roll`` panel, which rolls at once and closes.
"""

from __future__ import annotations

from core.rules.dicesystem.table import (
    ROLL_PANEL,
    STAT_SET,
    DiceCampaign,
    DiceRollPanel,
    Mistyped,
    RollAction,
    RolledPanel,
    RollLine,
    choices,
    definition_of,
    game_system,
    light_odds,
    needs_odds,
    player_stats,
    read_roll,
    remember_odds,
    shown_input,
    system_odds,
)
from core.rules.systems import LIBRARY, library_definition

SYSTEMS = tuple(game_system(library_definition(key)) for key in LIBRARY)
"""Every library game, in the library's order (see :data:`core.rules.registry.SYSTEM_MODULES`)."""

__all__ = [
    "ROLL_PANEL",
    "STAT_SET",
    "SYSTEMS",
    "DiceCampaign",
    "DiceRollPanel",
    "Mistyped",
    "RollAction",
    "RollLine",
    "RolledPanel",
    "choices",
    "definition_of",
    "game_system",
    "light_odds",
    "needs_odds",
    "player_stats",
    "read_roll",
    "remember_odds",
    "shown_input",
    "system_odds",
]
