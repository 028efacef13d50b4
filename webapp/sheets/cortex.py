"""The Cortex drama sheet page: traits by box, Plot Points, Stress, Growth.

What each viewer sees is decided here, on the server:
- a Lead's player sees their whole sheet and edits it (not while in a roll);
- everyone sees every Lead's traits, Plot Points and Stress (the table uses
  them: an opponent's Stress is a die for you), but Growth and Special Effects
  only on their own sheet;
- players see a Feature's name, Stress and Limits (what they may use against
  it); the Watchtower sees and edits every Feature, and ends scenes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.campaigns import CampaignView
from core.rules.choice import PageChoices
from core.rules.cortex.campaign import load, page_choices
from core.rules.cortex.dice import Die
from core.rules.cortex.panel import CONFLICT_PANEL
from core.rules.cortex.state import Table as CortexTable
from core.rules.cortex.traits import DEFAULT_STRESS_TYPES, Sheet
from core.rules.errors import Malformed
from core.rules.table import Table
from core.words.cortex_words import stress_typed
from core.words.i18n import N_, Lang
from webapp.sheets import NOT_A_ROLL

DICE = [d.label for d in Die]
BOXES = (
    ("value", "values", N_("Values"), N_("why")),
    ("relationship", "relationships", N_("Relationships"), N_("who")),
    ("asset", "assets", N_("Assets"), N_("how")),
    ("resource", "resources", N_("Resources"), N_("aid")),
    ("limit", "limits", N_("Limits"), N_("opponents add 3 dice")),
)
KINDS = {
    "distinction": N_("distinction"),
    "ability": N_("ability"),
    "heritage": N_("heritage"),
    "extra": N_("extra"),
    "location": N_("location"),
}
"""A trait's kind as the sheet notes it (the rules name it by its Enum value)."""


def _trait(item: Any) -> dict[str, Any]:
    """A trait's row; its ``note`` lists message ids (", "), each worded by the page."""
    notes = []
    kind = getattr(item, "kind", None)
    if kind is not None:
        notes.append(KINDS.get(kind.value, kind.value))
    if getattr(item, "challenged", False):
        notes.append(N_("challenged"))
    if getattr(item, "used_up", False):
        notes.append(N_("used up"))
    return {"name": item.name, "die": item.die.label, "note": ", ".join(notes)}


def _sheet(
    ct: CortexTable, sheet: Sheet, viewer: int, players: dict[int, str], page: PageChoices[str]
) -> dict[str, Any]:
    mine = ct.controller(sheet.name) == viewer
    choices = page.sheet(sheet.name)
    full = choices.whole
    boxes = [
        {
            "key": key,
            "title": title,
            "hint": hint,
            "traits": [_trait(t) for t in getattr(sheet, field)],
        }
        for key, field, title, hint in BOXES
        if full or key == "limit"
    ]
    player = next((players.get(s.user, "") for s in ct.seats if s.character == sheet.name), "")
    return {
        "name": sheet.name,
        "lead": sheet.is_lead,
        "player": player,
        "mine": mine,
        "plot_points": sheet.plot_points if sheet.is_lead else None,
        "boxes": boxes,
        "stress": [{"type": s.type, "die": s.die.label} for s in sheet.stress],
        "stressed_out": sheet.stressed_out,
        "growth": [d.label for d in sheet.growth] if mine else None,
        "effects": list(sheet.special_effects) if mine else None,
        "used_up": [r.name for r in sheet.resources if r.used_up] if mine else [],
        "can": sorted(choices.edits),
        "locked": choices.locked,
    }


@dataclass(frozen=True)
class CortexPage:
    key: str = "cortex"
    template: str = "sheets/cortex.html"
    typed_edits: frozenset[str] = frozenset({"settings.stress"})
    """Edits whose typed words name Stress types (shown in the viewer's language)."""

    def read_edit(self, action: str, payload: dict[str, Any], lang: Lang) -> dict[str, Any]:
        """The Watchtower's list of Stress types as the rules keep them: a new table's
        type typed in the viewer's language (as the form shows it) is the stored type;
        any other word stays as written."""
        types = payload.get("types")
        if action != "settings.stress" or not isinstance(types, str):
            return payload
        typed = (stress_typed(t.strip(), DEFAULT_STRESS_TYPES, lang) for t in types.split(","))
        return {**payload, "types": ", ".join(typed)}

    def context(self, view: CampaignView, table: Table, viewer_id: int) -> dict[str, Any]:
        members = [{"name": m.name, "you": m.player_id == viewer_id} for m in view.members]
        try:
            ct = load(table).table
        except Malformed as error:
            return {"members": members, "problem": error.message_id, "values": error.values}
        players = {m.player_id: m.name for m in view.members}
        page = page_choices(ct, viewer_id)
        sheets = [_sheet(ct, s, viewer_id, players, page) for s in ct.sheets]
        sheets.sort(key=lambda s: (not s["mine"], not s["lead"]))
        return {
            "members": members,
            "watchtower": players.get(ct.watchtower, ""),
            "you_watchtower": page.runs_table,
            "table_can": sorted(page.table_edits),
            "trouble": [d.label for d in ct.trouble],
            "stress_types": list(ct.settings.stress_types),
            "details": [{"owner": d.owner, "name": d.name, "die": d.die.label} for d in ct.details],
            "dice": DICE,
            "sheets": sheets,
        }

    def roll(self, what: str, name: str) -> tuple[str, str]:
        """A trait of your Lead: ``/test``, a Test whose pool you then build with it."""
        if what != "trait" or not name.strip():
            raise Malformed(NOT_A_ROLL)
        return CONFLICT_PANEL, "test"


PAGE = CortexPage()
