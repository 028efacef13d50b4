"""d20 checks: weak/average/strong d20, proficiency, advantage dice, shared
lucky and unlucky plot points, strain and wounds.

Modules:
    check: setup, dice, total, margin and outcome of one roll.
    plot_points: the shared pool of lucky and unlucky points.
    naturals: natural 1 and 20 turning points.
    wounds: strain, wounds, the bands and the strain a check adds.
    sheet: the character sheet value.
    flow: the check state machine the bot drives (who may act, and how).
    rest: the long rest and its recovery checks.
    odds: exact odds and the ``python -m core odds d20`` command.
    table: the campaign, the check panel and the long rest at the table.
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.d20check.check import (
    AbilityStrength,
    CheckResult,
    CheckRoll,
    CheckSetup,
    Difficulty,
    Natural,
    Opposition,
    Outcome,
    Target,
    resolve,
    roll_check,
)
from core.rules.d20check.flow import ActionKind, CheckFlow, Phase, Step
from core.rules.d20check.odds import ODDS, check_odds
from core.rules.d20check.plot_points import PlotPointKind, PlotPointPool
from core.rules.d20check.rest import LongRest, RecoveryCheck, long_rest
from core.rules.d20check.sheet import Ability, CharacterSheet, Proficiency
from core.rules.d20check.table import (
    CHECK_PANEL,
    REST_PANEL,
    CheckPanel,
    D20Campaign,
    RestPanel,
    rolled_by,
)
from core.rules.d20check.undo import UNDO
from core.rules.d20check.wounds import WoundBand, band_for
from core.rules.registry import Edges, GameSystem

SYSTEM = GameSystem(
    key="d20",
    name=N_("d20 checks"),
    summary=N_(
        "Roll a d20 (two for a weak or strong ability), add proficiency and an "
        "advantage or disadvantage die; share lucky and unlucky plot points; "
        "track strain and wounds."
    ),
    odds=ODDS,
    campaign=D20Campaign(),
    panels={CHECK_PANEL: CheckPanel(), REST_PANEL: RestPanel()},
    rolled_by={CHECK_PANEL: rolled_by},  # each player's check is their own; a rest is the chat's
    undo=UNDO,  # undo: what stands, how steps are named
    gm_edits_sheets=True,  # the Game Master edits every sheet (page_choices)
    # where it is shown: its bot features (commands, renderers) and its sheet page
    edges=Edges(features=("tgbot.features.d20",), sheet="webapp.sheets.d20"),
)

__all__ = [
    "SYSTEM",
    "Ability",
    "AbilityStrength",
    "ActionKind",
    "CharacterSheet",
    "CheckFlow",
    "CheckResult",
    "CheckRoll",
    "CheckSetup",
    "Difficulty",
    "LongRest",
    "Natural",
    "Opposition",
    "Outcome",
    "Phase",
    "PlotPointKind",
    "PlotPointPool",
    "Proficiency",
    "RecoveryCheck",
    "Step",
    "Target",
    "WoundBand",
    "band_for",
    "check_odds",
    "long_rest",
    "resolve",
    "roll_check",
]
