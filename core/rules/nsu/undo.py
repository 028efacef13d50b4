"""What No Stone Unturned says about taking a step back (see :mod:`core.rules.undo`).

Safety calls stand and carry no name: a line, a veil, an X-card or a knock is
never taken back, and its step is kept without its author, so neither an undo
nor a refusal can tell who made it.
"""

from __future__ import annotations

from core.rules.nsu.adventure_panel import ADVENTURE_PANEL
from core.rules.nsu.cards_panel import CARDS_PANEL
from core.rules.nsu.character_panel import CHARACTER_PANEL
from core.rules.nsu.downtime_panel import DOWNTIME_PANEL
from core.rules.nsu.roll_panel import ROLL_PANEL
from core.rules.nsu.safety_panel import SAFETY_PANEL
from core.rules.nsu.setup_panel import SETUP_PANEL
from core.rules.undo import UndoRules


def is_safety(kind: str, action: str) -> bool:
    """Whether a step is a safety call (kept without its author, never taken back)."""
    return kind == SAFETY_PANEL or (not kind and action.startswith("safety."))


UNDO = UndoRules(
    final=is_safety,
    anonymous=is_safety,
    panel_names={
        SETUP_PANEL: "a worldbuilding step",
        CARDS_PANEL: "a step on the location cards",
        CHARACTER_PANEL: "a character step",
        ADVENTURE_PANEL: "an adventure step",
        SAFETY_PANEL: "a safety call",
        ROLL_PANEL: "a choice before the action roll",
        DOWNTIME_PANEL: "a downtime pick",
    },
    edit_names={
        "clock.tick": "a Collateral Clock tick",
        "clock.untick": "a Collateral Clock untick",
        "play.scene_detail": "a detail on the scene",
        "play.drop_scene_detail": "a detail dropped from the scene",
        "play.drop_detail": "a detail dropped",
        "character.finish": "a finished character",
    },
)
