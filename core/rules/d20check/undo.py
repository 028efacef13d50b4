"""What the d20 check says about taking a step back (see :mod:`core.rules.undo`)."""

from __future__ import annotations

from core.rules.d20check.table import CHECK_PANEL, REST_PANEL
from core.rules.undo import UndoRules

UNDO = UndoRules(panel_names={CHECK_PANEL: "a choice before the check", REST_PANEL: "a rest step"})
