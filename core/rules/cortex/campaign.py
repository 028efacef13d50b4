"""Cortex drama at the platform's table: who is the Watchtower, where each part is stored.

The platform keeps a campaign state and one sheet per member
(:mod:`core.rules.table`); the Cortex rules want one :class:`~.state.Table`.
This module maps between them and applies the Mini App's (and ``/trait``'s) edits.

Decisions (see docs/rules/cortex.md, "Playing in the bot"):
- The Watchtower is the member with the GM role (the host unless handed over).
  Every other member plays a Lead, seated with an empty sheet named after them.
- The campaign state holds everything but the Leads' sheets: the Features,
  settings, Trouble, the scene's Useful Details, open 1s, the conflict under
  way and a conflict counter (``no``) that ties a panel to its conflict.
- Each Lead's sheet is ``Sheet.to_dict()`` in that player's seat.
- A Lead changes their own sheet (not while in a roll); the Watchtower adds and
  changes Features and ends scenes and episodes. Trouble changes only through
  the rules' 1s and Useful Details, never by hand.

Invariants: a stored state always rebuilds into a valid Cortex table (anything
naming a character who left is dropped on loading); a refused edit raises and
changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from core.rules.catalogue import N_
from core.rules.choice import PageChoices, SheetChoices
from core.rules.cortex import actions as a
from core.rules.cortex import codec
from core.rules.cortex.contest import apply
from core.rules.cortex.dice import Die
from core.rules.cortex.pool import UsefulDetail
from core.rules.cortex.state import Complication, Conflict, Phase, Seat
from core.rules.cortex.state import Table as CortexTable
from core.rules.cortex.stress import recover
from core.rules.cortex.traits import (
    MAX_NAME,
    MAX_TRAITS,
    Asset,
    AssetKind,
    CortexSettings,
    Limit,
    Relationship,
    Resource,
    ResourceKind,
    Role,
    Sheet,
    Value,
    same_name,
    stress_term,
)
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.registry import CampaignRules
from core.rules.rng import Rng
from core.rules.table import Json, Outcome
from core.rules.table import Role as SeatRole
from core.rules.table import Table as PlatformTable

STATE_VERSION = 1
BOXES = ("value", "relationship", "asset", "resource", "limit")
DAMAGED = "This game's Cortex data can't be read. Ask the host to start a new game."


# --- reading and writing the campaign ------------------------------------------


def watchtower_of(table: PlatformTable) -> int:
    """The Watchtower's player id (the lowest id among GMs; 0 when there is none)."""
    gms = sorted(table.with_role(SeatRole.GAME_MASTER))
    return gms[0] if gms else 0


def lead_sheet(data: Json) -> Sheet | None:
    """A seat's Lead sheet, or ``None`` for an empty seat (the Watchtower's)."""
    return Sheet.from_dict(dict(data)) if data else None


@dataclass(frozen=True)
class Loaded:
    """A Cortex table built from the platform's table, with the ids behind it."""

    table: CortexTable
    number: int  # the conflict counter
    lead_users: Mapping[str, int]  # Lead name (casefolded) -> player id


def _loaded_list(cls: Any, data: object) -> tuple[Any, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        raise Malformed(DAMAGED)
    return tuple(codec.load(cls, item) for item in data)


def _lead_seen_by(data: Json) -> Json:
    """Another member's Lead sheet without its Growth and Special Effects."""
    try:
        lead = lead_sheet(data)
    except Malformed:
        return {}
    return {} if lead is None else replace(lead, growth=(), special_effects=()).to_dict()


def _feature_seen_by(feature: Sheet) -> Any:
    """A Feature as the players see it: its name, Limits, Stress and state."""
    return codec.dump(
        replace(
            feature,
            values=(),
            relationships=(),
            assets=(),
            resources=(),
            growth=(),
            special_effects=(),
        )
    )


def _seated_leads(table: PlatformTable, watchtower: int) -> tuple[list[Seat], list[Sheet]]:
    """Each player's seat and Lead sheet, in seat order (the Watchtower has none)."""
    seats: list[Seat] = []
    leads: list[Sheet] = []
    for player_id in sorted(table.seats):
        sheet = table.seats[player_id].read(lead_sheet)  # read once per seat
        if sheet is None or player_id == watchtower:
            continue
        seats.append(Seat(player_id, sheet.name))
        leads.append(sheet)
    return seats, leads


def load(table: PlatformTable) -> Loaded:
    """The Cortex table of a campaign, read once per table (:meth:`PlatformTable.read`).

    Raises:
        Malformed: the stored state is damaged or from an unknown version.
    """
    return table.read(read_table)


def read_table(table: PlatformTable) -> Loaded:
    """The Cortex table read from the platform's table, every time: :func:`load` reads once."""
    state = table.state
    if state.get("v") != STATE_VERSION:
        raise Malformed(DAMAGED)
    watchtower = watchtower_of(table)
    seats, leads = _seated_leads(table, watchtower)
    features = _loaded_list(Sheet, state.get("features"))
    sheets = (*leads, *features)
    known = {s.name.casefold() for s in sheets}

    def here(name: str) -> bool:
        return not name or name.strip().casefold() in known

    details = tuple(d for d in _loaded_list(UsefulDetail, state.get("details")) if here(d.owner))
    ones = tuple(c for c in _loaded_list(Complication, state.get("complications")) if here(c.owner))
    w_ones = _loaded_list(Complication, state.get("watchtower_ones"))
    conflict_data = state.get("conflict")
    conflict = None if conflict_data is None else codec.load(Conflict, conflict_data)
    if conflict is not None and not all(here(n) for n in conflict.names()):
        conflict = None  # someone in it left the game
    number = state.get("no", 0)
    if not isinstance(number, int) or isinstance(number, bool):
        raise Malformed(DAMAGED)
    built = CortexTable(
        watchtower=watchtower,
        seats=tuple(seats),
        sheets=sheets,
        settings=codec.load(CortexSettings, state.get("settings", {})),
        trouble=tuple(Die.parse(d) for d in _loaded_list(int, state.get("trouble"))),
        details=details,
        complications=ones,
        watchtower_ones=tuple(c for c in w_ones if here(c.owner)),
        conflict=conflict,
    )
    return Loaded(built, number, {s.character.casefold(): s.user for s in seats})


def campaign_state(table: CortexTable, number: int) -> dict[str, Any]:
    """The campaign's share of a Cortex table: everything but the Leads' sheets."""
    return {
        "v": STATE_VERSION,
        "no": number,
        "features": [codec.dump(s) for s in table.sheets if not s.is_lead],
        "settings": codec.dump(table.settings),
        "trouble": [int(d) for d in table.trouble],
        "details": codec.dump(table.details),
        "complications": codec.dump(table.complications),
        "watchtower_ones": codec.dump(table.watchtower_ones),
        "conflict": None if table.conflict is None else codec.dump(table.conflict),
    }


def saved(before: Loaded, after: CortexTable, number: int | None = None) -> Outcome:
    """An outcome that stores ``after``: the campaign state and every changed Lead sheet.

    The panel state is left empty; panels replace it.
    """
    sheets: dict[int, Json] = {}
    for seat in after.seats:
        new = after.sheet(seat.character)
        old = before.table.find(seat.character)
        if old != new:
            sheets[seat.user] = new.to_dict()
    state = campaign_state(after, before.number if number is None else number)
    return Outcome(state={}, campaign_state=state, sheets=sheets)


def _unique_name(wanted: str, taken: list[str]) -> str:
    base = " ".join(wanted.split())[: MAX_NAME - 3].strip() or "Lead"
    name, n = base, 2
    while any(same_name(name, t) for t in taken):
        name, n = f"{base} {n}", n + 1
    return name


# --- the campaign rules ------------------------------------------------------------


class CortexCampaign(CampaignRules):
    """The Watchtower is the GM; every other member plays a Lead."""

    has_game_master = True

    def new_state(self) -> Json:
        return campaign_state(CortexTable(watchtower=0), 0)

    def seated(self, table: PlatformTable, player_id: int) -> tuple[Json, Json]:
        """A new Lead gets an empty sheet named after the player; the Watchtower none."""
        seat = table.seat(player_id)
        if seat is None or player_id == watchtower_of(table):
            return table.state, (seat.sheet if seat is not None else {})
        try:
            if lead_sheet(seat.sheet) is not None:
                return table.state, seat.sheet  # back again: the old sheet stays
        except Malformed:
            pass
        others = PlatformTable(
            table.campaign_id,
            table.system,
            table.state,
            {p: s for p, s in table.seats.items() if p != player_id},
        )
        taken = [s.name for s in load(others).table.sheets]
        return table.state, Sheet(name=_unique_name(seat.name, taken)).to_dict()

    def left(self, table: PlatformTable, player_id: int) -> Json:
        """Drop whatever names the Lead who left (their conflict, details, 1s)."""
        loaded = load(table)
        return campaign_state(loaded.table, loaded.number)

    def projected(self, table: PlatformTable, viewer: int) -> PlatformTable:
        """What ``viewer`` may see: Growth and Special Effects stay on their own Lead's
        sheet; a Feature's traits but its Limits (and its Growth and Special Effects)
        stay with the Watchtower. Stress, Plot Points and the Leads' traits are the
        table's to see."""
        seats = {
            p: replace(seat, sheet=_lead_seen_by(seat.sheet) if p != viewer else seat.sheet)
            for p, seat in table.seats.items()
        }
        state = table.state
        if viewer != watchtower_of(table) and state.get("features"):
            try:
                features = [_feature_seen_by(f) for f in _loaded_list(Sheet, state["features"])]
            except Malformed:
                features = []
            state = {**state, "features": features}
        return PlatformTable(table.campaign_id, table.system, state, seats)

    def edit(
        self, table: PlatformTable, actor: int, action: str, payload: Json, rng: Rng
    ) -> Outcome:
        """Apply one edit from the Mini App or ``/trait``.

        Lead edits (own sheet, not while in a roll): ``trait.set`` {box, name, die,
        kind?}, ``trait.remove`` {box, name}, ``rename`` {name}, ``growth.spend``
        {die, effect}, ``resource.restore`` {name}, ``stress.recover`` {type},
        ``text`` {text} (the ``/trait`` grammar, optionally after ``Name:``).
        ``character`` in the payload names the sheet (default: the actor's Lead);
        the Watchtower uses it for a Feature. Watchtower only: ``feature.add``
        {name}, ``settings.stress`` {types}, ``scene.end``, ``episode.end``.

        Raises:
            Malformed: unknown edit or bad values.
            NotYourTurn: not your sheet, or a Watchtower's edit by a player.
            NotAllowedNow: the rules forbid it now (in a roll, a name taken...).
        """
        loaded = load(table)
        ct = loaded.table
        if action in ("scene.end", "episode.end"):
            kind = a.EndScene() if action == "scene.end" else a.EndEpisode()
            step = apply(ct, actor, kind, rng)
            return _with_events(saved(loaded, step.table), step.events)
        if action == "feature.add":
            return saved(loaded, _feature_added(ct, actor, payload))
        if action == "settings.stress":
            return saved(loaded, _stress_types(ct, actor, _text(payload, "types")))
        if action == "text":
            action, payload = trait_edit(ct, _text(payload, "text"))
        change = _SHEET_EDITS.get(action)
        if change is None:
            raise Malformed("That can't be changed here.")
        sheet = _own_sheet(ct, actor, payload)
        changed = change(sheet, payload)
        if not same_name(changed.name, sheet.name):
            return saved(loaded, _renamed(ct, sheet, changed))
        return saved(loaded, ct.update_sheet(actor, changed))


def _feature_added(ct: CortexTable, actor: int, payload: Json) -> CortexTable:
    """Only the Watchtower adds Features."""
    if actor != ct.watchtower:
        raise NotYourTurn("Only the Watchtower adds Features.")
    return ct.add_feature(Sheet(name=_text(payload, "name").strip(), role=Role.FEATURE))


def trait_edit(ct: CortexTable, text: str) -> tuple[str, Json]:
    """``/trait`` text, optionally after ``Name:``: the edit and its payload.

    Raises:
        Malformed: the text does not follow the grammar in :data:`TRAIT_HELP`.
    """
    who, sep, rest = text.partition(":")
    named = ct.find(who.strip()) if sep else None
    action, parsed = parse_trait_text(rest if named is not None else text)
    return action, {**parsed, "character": named.name if named is not None else ""}


def _with_events(outcome: Outcome, events: tuple[object, ...]) -> Outcome:
    return replace(outcome, events=events)


def _stress_types(ct: CortexTable, actor: int, text: str) -> CortexTable:
    """The table with the campaign's Stress types set (a comma-separated list)."""
    if actor != ct.watchtower:
        raise NotYourTurn("Only the Watchtower sets the Stress types.")
    types = tuple(" ".join(t.split()) for t in text.split(",") if t.strip())
    settings = replace(ct.settings, stress_types=types)
    for sheet in ct.sheets:
        for entry in sheet.stress:
            if not any(same_name(entry.type, t) for t in types):
                raise NotAllowedNow(
                    "{name} still has {stress} Stress; keep that type.",
                    name=sheet.name,
                    stress=stress_term(entry.type),
                )
    return replace(ct, settings=settings)


def _own_sheet(ct: CortexTable, actor: int, payload: Json) -> Sheet:
    named = payload.get("character")
    if named is None or named == "":
        lead = ct.lead_of(actor)
        if lead is None:
            raise NotAllowedNow(
                N_("The Watchtower has no Lead. Name the Feature to change.")
                if actor == ct.watchtower
                else N_("You have no Lead in this game. Join it with /join.")
            )
        return ct.sheet(lead)
    if not isinstance(named, str):
        raise Malformed("Name the character to change.")
    sheet = ct.sheet(named)
    if ct.controller(sheet.name) != actor:
        raise NotYourTurn("Only {name}'s player can change that sheet.", name=sheet.name)
    return sheet


def _renamed(ct: CortexTable, old: Sheet, new: Sheet) -> CortexTable:
    """The table with a character renamed (not while anything names them)."""
    c = ct.conflict
    named = [d.owner for d in ct.details] + [x.owner for x in ct.complications]
    named += [x.owner for x in ct.watchtower_ones]
    if c is not None:
        named += list(c.names())
    if any(same_name(n, old.name) for n in named):
        raise NotAllowedNow("{name} is part of this scene; rename after it ends.", name=old.name)
    if ct.find(new.name) is not None:
        raise NotAllowedNow("Someone called {name} is already here.", name=new.name)
    seats = tuple(
        Seat(s.user, new.name) if same_name(s.character, old.name) else s for s in ct.seats
    )
    sheets = tuple(new if same_name(s.name, old.name) else s for s in ct.sheets)
    return replace(ct, seats=seats, sheets=sheets)


# --- sheet edits -----------------------------------------------------------------------


_MISSING = {
    "name": N_("The name is missing."),
    "types": N_("The types is missing."),
    "text": N_("The text is missing."),
    "box": N_("The box is missing."),
    "effect": N_("The effect is missing."),
    "type": N_("The type is missing."),
}
NO_TRAIT = {
    "value": "{name} has no value called “{trait}”.",
    "relationship": "{name} has no relationship called “{trait}”.",
    "asset": "{name} has no asset called “{trait}”.",
    "resource": "{name} has no resource called “{trait}”.",
    "limit": "{name} has no limit called “{trait}”.",
}


def _text(payload: Json, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value.strip():
        raise Malformed(_MISSING.get(key, N_("Something is missing.")))
    return value


def _box(payload: Json) -> str:
    box = _text(payload, "box").strip().lower()
    if box not in BOXES:
        raise Malformed("Choose Value, Relationship, Asset, Resource or Limit.")
    return box


def _set_trait(sheet: Sheet, payload: Json) -> Sheet:
    box = _box(payload)
    name = " ".join(_text(payload, "name").split())
    die = Die.parse(payload.get("die"))
    kind = str(payload.get("kind") or "")
    field, item = _trait(box, name, die, kind)
    current: tuple[Any, ...] = getattr(sheet, field)
    kept = [t for t in current if not same_name(t.name, name)]
    if len(kept) == len(current):
        if len(current) >= MAX_TRAITS:
            raise NotAllowedNow("A sheet holds at most {most} of those.", most=MAX_TRAITS)
        updated = (*current, item)
    else:
        old = next(t for t in current if same_name(t.name, name))
        item = _kept_marks(old, item)
        updated = tuple(item if t is old else t for t in current)
    changes: dict[str, Any] = {field: updated}
    return replace(sheet, **changes)


def _kept_marks(old: Any, new: Any) -> Any:
    """A changed rating keeps what play marked on the trait (challenged, used up)."""
    if isinstance(old, Value) and isinstance(new, Value):
        return replace(new, challenged=old.challenged)
    if isinstance(old, Resource) and isinstance(new, Resource):
        return replace(new, used_up=old.used_up)
    return new


def _trait(box: str, name: str, die: Die, kind: str) -> tuple[str, Any]:
    if box == "value":
        return "values", Value(name, die)
    if box == "relationship":
        return "relationships", Relationship(name, die)
    if box == "asset":
        try:
            asset_kind = AssetKind(kind.lower()) if kind else AssetKind.DISTINCTION
        except ValueError:
            raise Malformed("An Asset is a Distinction, an Ability or Heritage.") from None
        return "assets", Asset(name, die, asset_kind)
    if box == "resource":
        try:
            resource_kind = ResourceKind(kind.lower()) if kind else ResourceKind.EXTRA
        except ValueError:
            raise Malformed("A Resource is an Extra or a Location.") from None
        return "resources", Resource(name, die, resource_kind)
    return "limits", Limit(name, die)


def _remove_trait(sheet: Sheet, payload: Json) -> Sheet:
    box = _box(payload)
    name = _text(payload, "name")
    field = {"value": "values", "relationship": "relationships", "asset": "assets"}.get(
        box, box + "s"
    )
    current: tuple[Any, ...] = getattr(sheet, field)
    kept = tuple(t for t in current if not same_name(t.name, name))
    if len(kept) == len(current):
        raise NotAllowedNow(NO_TRAIT[box], name=sheet.name, trait=name[:MAX_NAME])
    changes: dict[str, Any] = {field: kept}
    return replace(sheet, **changes)


def _rename(sheet: Sheet, payload: Json) -> Sheet:
    return replace(sheet, name=" ".join(_text(payload, "name").split()))


def _spend_growth(sheet: Sheet, payload: Json) -> Sheet:
    return sheet.spend_growth(Die.parse(payload.get("die")), _text(payload, "effect").strip())


def _restore(sheet: Sheet, payload: Json) -> Sheet:
    resource = sheet.resource(_text(payload, "name"))
    if not resource.used_up:
        raise NotAllowedNow("{name} is ready already.", name=resource.name)
    return sheet.with_resource_restored(resource.name)


def _recover(sheet: Sheet, payload: Json) -> Sheet:
    stress_type = _text(payload, "type")
    if sheet.stress_of(stress_type) is None:
        raise NotAllowedNow(
            "{name} has no {stress} Stress.", name=sheet.name, stress=stress_type[:MAX_NAME]
        )
    return recover(sheet, next(s.type for s in sheet.stress if same_name(s.type, stress_type)))


_SHEET_EDITS = {
    "trait.set": _set_trait,
    "trait.remove": _remove_trait,
    "rename": _rename,
    "growth.spend": _spend_growth,
    "resource.restore": _restore,
    "stress.recover": _recover,
}
SHEET_EDITS: tuple[str, ...] = tuple(_SHEET_EDITS)

_TRAIT_TEXT = re.compile(
    r"^\s*(?P<box>value|relationship|asset|resource|limit)s?\s+"
    r"(?:(?P<first>distinction|ability|heritage|extra|location)\s+(?=\S+\s+\S))?"
    r"(?P<name>.+?)\s+"
    r"(?P<die>[dD]?\d{1,2})(?:\s+(?P<kind>distinction|ability|heritage|extra|location))?\s*$",
    re.IGNORECASE,
)
_KINDS_OF_BOX = {
    "asset": frozenset(k.value for k in AssetKind),
    "resource": frozenset(k.value for k in ResourceKind),
}
_REMOVE_TEXT = re.compile(
    r"^\s*(?:remove|drop)\s+(?P<box>value|relationship|asset|resource|limit)s?\s+(?P<name>.+?)\s*$",
    re.IGNORECASE,
)
_NAME_TEXT = re.compile(r"^\s*name\s+(?P<name>.+?)\s*$", re.IGNORECASE)
TRAIT_HELP = N_(
    "Write it like: /trait value Justice d8 · /trait relationship Lois d6 · "
    "/trait asset Farm Boy d8 distinction · /trait resource Fortress d8 location · "
    "/trait limit Kryptonite d10 · /trait remove value Justice · /trait name Clark"
)


def parse_trait_text(text: str) -> tuple[str, dict[str, Any]]:
    """Read ``/trait`` text into an edit.

    Raises:
        Malformed: the text does not follow the grammar in :data:`TRAIT_HELP`.
    """
    text = text[:200]
    if found := _REMOVE_TEXT.match(text):
        return "trait.remove", {"box": found["box"].lower(), "name": found["name"]}
    if found := _TRAIT_TEXT.match(text):
        box, name, first = found["box"].lower(), found["name"], found["first"]
        if first and first.lower() not in _KINDS_OF_BOX.get(box, ()):
            name, first = f"{first} {name}", None  # another box's kind word: part of the name
        payload = {"box": box, "name": name, "die": found["die"]}
        kind = found["kind"] or first  # the kind after the die, else the one before the name
        if kind:
            payload["kind"] = kind.lower()
        return "trait.set", payload
    if found := _NAME_TEXT.match(text):
        return "rename", {"name": found["name"]}
    raise Malformed(TRAIT_HELP)


def in_roll(ct: CortexTable, name: str) -> bool:
    """Whether a character is in the conflict under way (their sheet is locked)."""
    c = ct.conflict
    return (
        c is not None and c.phase is not Phase.DONE and any(same_name(n, name) for n in c.names())
    )


WATCHTOWER_EDITS: tuple[str, ...] = ("feature.add", "settings.stress", "scene.end", "episode.end")


def sees_whole_sheet(ct: CortexTable, viewer: int, name: str) -> bool:
    """Whether ``viewer`` sees every trait box of ``name``'s sheet: their own, a Lead's,
    or, as the Watchtower, anyone's; others see its Limits only."""
    sheet = ct.find(name)
    if sheet is None:
        return False
    return ct.controller(sheet.name) == viewer or viewer == ct.watchtower or sheet.is_lead


def may_edit(ct: CortexTable, viewer: int, name: str) -> frozenset[str]:
    """The sheet edits ``viewer`` may make on ``name``'s sheet now (for showing forms)."""
    sheet = ct.find(name)
    if sheet is None or ct.controller(sheet.name) != viewer or in_roll(ct, sheet.name):
        return frozenset()
    return frozenset(SHEET_EDITS)


def may_edit_table(ct: CortexTable, viewer: int) -> frozenset[str]:
    """The table edits ``viewer`` may make (the Watchtower's)."""
    return frozenset(WATCHTOWER_EDITS) if viewer == ct.watchtower else frozenset()


def page_choices(ct: CortexTable, viewer: int) -> PageChoices[str]:
    """What ``viewer`` may do on the table's sheet page, by character name: the sheets
    they see whole and edit (their own Lead's, unless it is in a roll), and the
    Watchtower's edits of the table."""
    return PageChoices(
        sheets={
            sheet.name: SheetChoices(
                edits=may_edit(ct, viewer, sheet.name),
                whole=sees_whole_sheet(ct, viewer, sheet.name),
                locked=ct.controller(sheet.name) == viewer and in_roll(ct, sheet.name),
            )
            for sheet in ct.sheets
        },
        table_edits=may_edit_table(ct, viewer),
        runs_table=viewer == ct.watchtower,
    )
