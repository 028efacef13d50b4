"""Cortex drama (Smallville style): Leads, the Watchtower, Plot Points and Trouble.

Modules: :mod:`.dice` (die ratings, Results), :mod:`.traits` (sheets),
:mod:`.stress` (Stress, relief, Growth), :mod:`.pool` (building and pricing a
pool), :mod:`.state` (the table, JSON round trip), :mod:`.actions` (actions and
events), :mod:`.contest` (``apply``: the Test/Contest state machine, with
:mod:`.turns`, :mod:`.aftermath`, :mod:`.interference`, :mod:`.scene`),
:mod:`.odds` (exact Result odds), :mod:`.campaign` (the campaign and sheets at
the platform's table) and :mod:`.panel` (the ``cortex.conflict`` panel the bot
drives). Invariant: pure, like the rest of :mod:`core.rules`.
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.cortex.campaign import CortexCampaign
from core.rules.cortex.odds import ODDS
from core.rules.cortex.panel import CONFLICT_PANEL, ConflictPanel
from core.rules.cortex.undo import UNDO
from core.rules.registry import Edges, GameSystem

SYSTEM = GameSystem(
    key="cortex",
    name=N_("Cortex drama"),
    summary=N_(
        "Build a pool from why, who and how, add the opponent's Stress, spend Plot Points "
        "for more; sum your two best dice. The Watchtower turns 1s into Trouble."
    ),
    odds=ODDS,
    campaign=CortexCampaign(),
    panels={CONFLICT_PANEL: ConflictPanel()},
    undo=UNDO,  # undo: what stands, how steps are named
    # where it is shown: its bot features (commands, renderers) and its sheet page
    edges=Edges(features=("tgbot.features.cortex",), sheet="webapp.sheets.cortex"),
)
