"""What the d20 check says about taking a step back (see :mod:`core.rules.undo`).

Nothing in this game is shown to one person alone or turned face up: its only
irreversible events are the dice, which the tally counts, so it lists no revealing
events (``UndoRules.revealing``), and a step that finishes a panel stands as in
every game.
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.d20check.table import CHECK_PANEL, REST_PANEL
from core.rules.undo import UndoRules

UNDO = UndoRules(
    panel_names={
        CHECK_PANEL: N_("a choice before the check"),
        REST_PANEL: N_("a rest step"),
    },
    edit_names={
        "rename": N_("a new name"),
        "ability.": N_("an ability change"),
        "proficiency.": N_("a proficiency change"),
        "harm.": N_("a wounds change"),
        "sheets.lock": N_("locking or unlocking the sheets"),
    },
)
