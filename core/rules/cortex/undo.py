"""What Cortex says about taking a step back (see :mod:`core.rules.undo`).

Nothing in this game is shown to one person alone or turned face up: its only
irreversible events are the dice, which the tally counts, so it lists no revealing
events (``UndoRules.revealing``), and a step that finishes a panel stands as in
every game.
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.cortex.panel import CONFLICT_PANEL
from core.rules.undo import UndoRules

UNDO = UndoRules(
    panel_names={CONFLICT_PANEL: N_("a choice in the conflict")},
    edit_names={
        "trait.": N_("a trait change"),
        "text": N_("a trait change"),
        "rename": N_("a new name"),
        "growth.spend": N_("Growth spent"),
        "resource.restore": N_("a Resource restored"),
        "stress.recover": N_("Stress recovered"),
        "feature.add": N_("a Feature added"),
        "scene.end": N_("the end of a scene"),
        "episode.end": N_("the end of an episode"),
        "settings.stress": N_("the Stress types"),
    },
)
