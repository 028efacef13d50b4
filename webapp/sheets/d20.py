"""The d20 checks page: every character's abilities, proficiencies, strain and
wounds, and the shared plot point pool.

Nothing here is secret at a d20 table, so every member sees every character.
The server decides which edit controls a viewer gets, with the same rule the
edits are checked with (``D20Campaign.edit``): your own sheet unless the Game
Master locked the sheets; anyone's sheet, strain and wounds for the Game Master.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.campaigns import CampaignView
from core.rules.choice import SheetChoices
from core.rules.d20check import AbilityStrength, CharacterSheet, WoundBand
from core.rules.d20check.check import MAX_PROFICIENCY
from core.rules.d20check.table import CHECK_PANEL, page_choices, pool_counts, sheets_locked
from core.rules.d20check.wounds import MAX_STRAIN, MAX_WOUNDS, band_for
from core.rules.errors import Malformed
from core.rules.table import Role, Table
from core.rules.typed import check_text
from core.words.i18n import N_
from core.words.typed_words import vocabulary
from webapp.sheets import NOT_A_ROLL

STRENGTHS = [
    {"value": AbilityStrength.WEAK.value, "label": N_("Weak"), "dice": N_("2d20, keep the lower")},
    {"value": AbilityStrength.AVERAGE.value, "label": N_("Average"), "dice": "1d20"},
    {
        "value": AbilityStrength.STRONG.value,
        "label": N_("Strong"),
        "dice": N_("2d20, keep the higher"),
    },
]
BAND_EFFECT = {
    WoundBand.UNHURT: N_("No wounds."),
    WoundBand.EXHAUSTED: N_("Heals without trouble."),
    WoundBand.INJURED: N_("A failed check adds 1 strain."),
    WoundBand.SEVERELY_INJURED: N_("Every check adds 1 strain."),
    WoundBand.DYING: N_("Every check adds 1 strain, a failed one 2."),
    WoundBand.NEAR_DEATH: N_("A near-death experience."),
}


def _wound_boxes(wounds: int) -> list[dict[str, Any]]:
    """The 16 wound boxes, each with its band (for colour) and whether it is marked."""
    return [
        {"marked": box <= wounds, "band": band_for(box).value} for box in range(1, MAX_WOUNDS + 1)
    ]


def _character(
    table: Table, player_id: int, sheet: CharacterSheet, viewer_id: int, choices: SheetChoices
) -> dict[str, Any]:
    mine = player_id == viewer_id
    labels = {s["value"]: s["label"] for s in STRENGTHS}
    seat = table.seat(player_id)
    return {
        "player": player_id,
        "player_name": seat.name if seat is not None else "",
        "you": mine,
        "name": sheet.name,
        "abilities": [
            {"name": a.name, "strength": a.strength.value, "label": labels[a.strength.value]}
            for a in sheet.abilities
        ],
        "proficiencies": [{"name": p.name, "bonus": p.bonus} for p in sheet.proficiencies],
        "strain": sheet.strain,
        "strain_boxes": [box <= sheet.strain for box in range(1, MAX_STRAIN + 1)],
        "wounds": sheet.wounds,
        "wound_boxes": _wound_boxes(sheet.wounds),
        "band": sheet.band.value,
        "band_label": sheet.band.label,
        "band_effect": BAND_EFFECT[sheet.band],
        "can_edit": "ability.set" in choices.edits,
        "can_harm": "harm.add" in choices.edits,
    }


@dataclass(frozen=True)
class D20Page:
    key: str = "d20"
    template: str = "sheets/d20.html"

    def context(self, view: CampaignView, table: Table, viewer_id: int) -> dict[str, Any]:
        pool = pool_counts(table.state)
        page = page_choices(table, viewer_id)
        characters = []
        for player_id in sorted(table.seats, key=lambda p: (p != viewer_id, p)):
            seat = table.seats[player_id]
            if Role.GAME_MASTER in seat.roles or not seat.sheet:
                continue
            try:
                sheet = CharacterSheet.from_dict(seat.sheet)
            except Malformed:
                continue
            characters.append(_character(table, player_id, sheet, viewer_id, page.sheet(player_id)))
        masters = [m.name for m in view.game_masters]
        return {
            "pool": {
                "lucky": pool.lucky,
                "unlucky": pool.unlucky,
                "pips": ["lucky"] * pool.lucky + ["unlucky"] * pool.unlucky,
                "ready": pool.ready,
            },
            "game_master": masters[0] if masters else "",
            "you_are_gm": page.runs_table,
            "locked": sheets_locked(table.state),
            "characters": characters,
            "strengths": STRENGTHS,
            "max_proficiency": MAX_PROFICIENCY,
            "max_strain": MAX_STRAIN,
            "max_wounds": MAX_WOUNDS,
        }

    def roll(self, what: str, name: str) -> tuple[str, str]:
        """An ability or a proficiency: ``/check <name>``, a check with it."""
        if what not in ("ability", "proficiency") or not name.strip():
            raise Malformed(NOT_A_ROLL)
        return CHECK_PANEL, check_text(name.strip(), vocabulary())


PAGE = D20Page()
