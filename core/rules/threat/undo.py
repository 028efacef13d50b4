"""What Threat dice says about taking a step back (see :mod:`core.rules.undo`)."""

from __future__ import annotations

from core.rules.threat.table import ROLL_PANEL
from core.rules.undo import UndoRules

UNDO = UndoRules(panel_names={ROLL_PANEL: "a choice before the roll"})
