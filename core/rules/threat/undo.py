"""What Threat dice says about taking a step back (see :mod:`core.rules.undo`).

Nothing in this game is shown to one person alone or turned face up: its only
irreversible events are the dice, which the tally counts, so it lists no revealing
events (``UndoRules.revealing``), and a step that finishes a panel stands as in
every game.
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.threat.table import ROLL_PANEL
from core.rules.undo import UndoRules

UNDO = UndoRules(
    panel_names={ROLL_PANEL: N_("a choice before the roll")},
    edit_names={
        "approach.set": N_("an approach set"),
        "approach.remove": N_("an approach removed"),
        "notes": N_("a change to the notes"),
        "momentum.": N_("a Momentum change"),
        "harm.": N_("a harm change"),
    },
)
