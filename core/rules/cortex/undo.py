"""What Cortex says about taking a step back (see :mod:`core.rules.undo`)."""

from __future__ import annotations

from core.i18n import N_
from core.rules.cortex.panel import CONFLICT_PANEL
from core.rules.undo import UndoRules

UNDO = UndoRules(panel_names={CONFLICT_PANEL: N_("a choice in the conflict")})
