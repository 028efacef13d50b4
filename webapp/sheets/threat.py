"""The threat dice sheet in the Mini App: approaches, Momentum, harm, notes.

What a viewer sees is decided here: their own sheet in full with the edits the
rules allow them; other players' approaches, Momentum and harm read-only (notes
stay private to their owner); the GM sees every player's sheet with the GM's
edits. Non-members never get here (the campaign use case refuses them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.campaigns import CampaignView
from core.rules.choice import SheetChoices
from core.rules.errors import Malformed
from core.rules.table import Table
from core.rules.threat.momentum import BURN_MINIMUM, MOMENTUM_MAX, MOMENTUM_RESET, can_burn
from core.rules.threat.roll import MAX_HARM
from core.rules.threat.sheet import MAX_APPROACH_NAME, MAX_APPROACH_VALUE, MAX_APPROACHES, MAX_NOTES
from core.rules.threat.table import ROLL_PANEL, page_choices, sheet_of
from webapp.sheets import NOT_A_ROLL


def _sheet(table: Table, player_id: int, choices: SheetChoices, *, own: bool) -> dict[str, Any]:
    seat = table.seats[player_id]
    sheet = sheet_of(seat.sheet)
    return {
        "player": player_id,
        "name": seat.name,
        "own": own,
        "approaches": [{"name": a.name, "value": a.value} for a in sheet.approaches],
        "momentum": sheet.momentum,
        "pips": [
            {
                "value": n,
                "on": 0 < n <= sheet.momentum,
                "current": n == sheet.momentum,
                "burn": can_burn(n),
                "reset": n == MOMENTUM_RESET,
            }
            for n in range(MOMENTUM_MAX + 1)
        ],
        "can_burn": can_burn(sheet.momentum),
        "harm": sheet.harm,
        "harm_boxes": [n <= sheet.harm for n in range(1, MAX_HARM + 1)],
        "notes": sheet.notes if choices.whole else None,
        "can": sorted(choices.edits),
    }


@dataclass(frozen=True)
class ThreatSheetPage:
    key: str = "threat"
    template: str = "sheets/threat.html"

    def context(self, view: CampaignView, table: Table, viewer_id: int) -> dict[str, Any]:
        page = page_choices(table, viewer_id)
        players = [m.player_id for m in view.members if m.player_id in page.sheets]
        me = (
            _sheet(table, viewer_id, page.sheet(viewer_id), own=True)
            if viewer_id in page.sheets
            else None
        )
        others = [_sheet(table, p, page.sheet(p), own=False) for p in players if p != viewer_id]
        gm = next((m.name for m in view.game_masters), "")
        return {
            "gm": page.runs_table,
            "gm_name": gm,
            "me": me,
            "others": others,
            "limits": {
                "momentum_max": MOMENTUM_MAX,
                "burn_at": BURN_MINIMUM,
                "reset": MOMENTUM_RESET,
                "harm_max": MAX_HARM,
                "approach_value": MAX_APPROACH_VALUE,
                "approach_name": MAX_APPROACH_NAME,
                "approaches": MAX_APPROACHES,
                "notes": MAX_NOTES,
            },
        }

    def roll(self, what: str, name: str) -> tuple[str, str]:
        """An approach: ``/threat <approach>``, the roll with that approach picked."""
        if what != "approach" or not name.strip():
            raise Malformed(NOT_A_ROLL)
        return ROLL_PANEL, name.strip()


PAGE = ThreatSheetPage()
