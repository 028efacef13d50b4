"""What No Stone Unturned says about taking a step back (see :mod:`core.rules.undo`).

A step that showed someone something stands: a card flipped face up as the party
travels there (the whole table reads it) and a scout's private look at a face-down
card.

Safety calls stand and carry no name: a line, a veil, an X-card or a knock is
never taken back, and its step is kept without its author, so neither an undo
nor a refusal can tell who made it.
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.nsu.adventure_panel import ADVENTURE_PANEL
from core.rules.nsu.cards_panel import CARDS_PANEL
from core.rules.nsu.character_panel import CHARACTER_PANEL
from core.rules.nsu.downtime import ScoutLooked
from core.rules.nsu.downtime_panel import DOWNTIME_PANEL
from core.rules.nsu.roll_panel import ROLL_PANEL
from core.rules.nsu.safety_panel import SAFETY_PANEL
from core.rules.nsu.setup_panel import SETUP_PANEL
from core.rules.nsu.world import CardFlipped, CardScouted
from core.rules.undo import UndoRules


def is_safety(kind: str, action: str) -> bool:
    """Whether a step is a safety call (kept without its author, never taken back)."""
    return kind == SAFETY_PANEL or (not kind and action.startswith("safety."))


UNDO = UndoRules(
    final=is_safety,
    anonymous=is_safety,
    revealing=(CardFlipped, CardScouted, ScoutLooked),
    panel_names={
        SETUP_PANEL: N_("a worldbuilding step"),
        CARDS_PANEL: N_("a step on the location cards"),
        CHARACTER_PANEL: N_("a character step"),
        ADVENTURE_PANEL: N_("an adventure step"),
        SAFETY_PANEL: N_("a safety call"),
        ROLL_PANEL: N_("a choice before the action roll"),
        DOWNTIME_PANEL: N_("a downtime pick"),
    },
    edit_names={
        "clock.tick": N_("a Collateral Clock tick"),
        "clock.untick": N_("a Collateral Clock untick"),
        "play.scene_detail": N_("a detail on the scene"),
        "play.drop_scene_detail": N_("a detail dropped from the scene"),
        "play.drop_detail": N_("a detail dropped"),
        "character.finish": N_("a finished character"),
        "setup.": N_("a worldbuilding step"),
        "character.": N_("a character step"),
        "safety.": N_("a safety call"),
    },
)
