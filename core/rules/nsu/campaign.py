"""A No Stone Unturned campaign at the table: its stored state and member sheets.

This is the layer every NSU panel and Mini App edit builds on. It adapts the
pure rules (:mod:`setup`, :mod:`world`, :mod:`sheet`, :mod:`downtime`) to the
shared contract of :mod:`core.rules.table`.

Campaign state (JSON)::

    {"v": 1, "phase": "setup" | "adventure" | "downtime",
     "settings": {...NsuSettings...},
     "setup": SetupState.to_dict() | None,     # None before /begin and after the world is built
     "world": world_to_dict(World) | None,     # set once worldbuilding is done
     "downtime": DowntimeState.to_dict() | None,
     "safety": {"lines": [...], "veils": [...], "x_cards": n, "knocks": n}}

Member sheet (JSON)::

    {"draft": CharacterDraft.to_dict()}        # while the character is being made
    {"character": Character.to_dict()}         # after finish_creation

Invariants:

* ``phase`` is SETUP exactly while ``world`` is None; ``setup`` is only set in
  SETUP (None means worldbuilding has not begun); ``downtime`` only in DOWNTIME.
* The campaign state holds secrets (card faces): it is stored, never shown.
  Anything shown to a person goes through :func:`visible_card` /
  :func:`visible_map` or a panel's own public state.
* Lines and veils are stored without their authors; X-cards and knocks only
  as counts. Nobody can learn who played one.
* Every seated member has a sheet: a draft or a finished character.
* Worldbuilding seats the members present when it begins; later joiners make a
  character and join the party once the world is built and their character is
  finished. A member who leaves takes their character out of the party (their
  cards stay on the map); one who leaves during worldbuilding leaves its turns
  too, so it never waits on them (:func:`setup.without_player`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu.downtime import DowntimeState
from core.rules.nsu.projection import downtime_seen_by, roll_panel_seen_by, sheet_seen_by
from core.rules.nsu.settings import NsuSettings
from core.rules.nsu.setup import (
    SetupState,
    SetupStep,
    finished_world,
    new_setup,
    without_player,
)
from core.rules.nsu.sheet import Character, CharacterDraft
from core.rules.nsu.world import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    World,
    clean_text,
    world_from_dict,
    world_seen_by,
    world_to_dict,
)
from core.rules.registry import CampaignRules
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Seat, Table

STATE_VERSION = 1
SETUP_PANEL_KIND = "nsu.setup"  # the group's worldbuilding panel (setup_panel.SETUP_PANEL)
ROLL_PANEL_KIND = "nsu.roll"  # an Action Roll (roll_panel.ROLL_PANEL)
ADVENTURE_PANEL_KIND = "nsu.adventure"  # the group's travels (adventure_panel.ADVENTURE_PANEL)
MAX_SAFETY_ENTRIES = 50

EditHandler = Callable[[Table, int, Json, Rng], Outcome]

# Modules that export ``EDITS: dict[str, EditHandler]`` for Mini App edits, one line each.
EDIT_MODULES: tuple[str, ...] = (
    "core.rules.nsu.edits_setup",
    "core.rules.nsu.edits_play",
    # "core.rules.nsu.edits_web",
)


class Phase(StrEnum):
    """Where the campaign is: building the world, adventuring, or at rest."""

    SETUP = "setup"
    ADVENTURE = "adventure"
    DOWNTIME = "downtime"


@dataclass(frozen=True)
class Safety:
    """What the table's safety tools hold, with no names attached."""

    lines: tuple[str, ...] = ()
    veils: tuple[str, ...] = ()
    x_cards: int = 0
    knocks: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "lines": list(self.lines),
            "veils": list(self.veils),
            "x_cards": self.x_cards,
            "knocks": self.knocks,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Safety:
        return cls(
            lines=tuple(str(x) for x in data.get("lines", ())),
            veils=tuple(str(x) for x in data.get("veils", ())),
            x_cards=int(data.get("x_cards", 0)),
            knocks=int(data.get("knocks", 0)),
        )


@dataclass(frozen=True)
class NsuCampaign:
    """The whole stored state of one NSU campaign."""

    phase: Phase = Phase.SETUP
    settings: NsuSettings = field(default_factory=NsuSettings)
    setup: SetupState | None = None
    world: World | None = None
    downtime: DowntimeState | None = None
    safety: Safety = field(default_factory=Safety)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able values (secrets included: store, never show)."""
        return {
            "v": STATE_VERSION,
            "phase": self.phase.value,
            "settings": self.settings.to_dict(),
            "setup": None if self.setup is None else self.setup.to_dict(),
            "world": None if self.world is None else world_to_dict(self.world),
            "downtime": None if self.downtime is None else self.downtime.to_dict(),
            "safety": self.safety.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Json) -> NsuCampaign:
        """Read a stored campaign; an empty mapping is a new campaign.

        Raises:
            Malformed: the data is not a stored NSU campaign.
        """
        if not data:
            return cls()
        try:
            if data.get("v") != STATE_VERSION:
                raise Malformed("That saved game is from an unknown version.")
            setup, world, downtime = data.get("setup"), data.get("world"), data.get("downtime")
            return cls(
                phase=Phase(data["phase"]),
                settings=NsuSettings.from_dict(data.get("settings") or {}),
                setup=None if setup is None else SetupState.from_dict(setup),
                world=None if world is None else world_from_dict(world),
                downtime=None if downtime is None else DowntimeState.from_dict(downtime),
                safety=Safety.from_dict(data.get("safety") or {}),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise Malformed("That saved game could not be read.") from exc

    # -- queries -------------------------------------------------------------

    @property
    def began(self) -> bool:
        """Worldbuilding has begun (or is over)."""
        return self.setup is not None or self.world is not None

    def current_world(self) -> World | None:
        """The world as built so far: the finished one, or the one being built."""
        if self.world is not None:
            return self.world
        return None if self.setup is None else self.setup.world

    def require_setup(self) -> SetupState:
        """The worldbuilding in progress.

        Raises:
            NotAllowedNow: worldbuilding has not begun or is over.
        """
        if self.setup is None:
            if self.world is not None:
                raise NotAllowedNow("The world is already built.")
            raise NotAllowedNow("Worldbuilding hasn't begun yet: the host starts it with /begin.")
        return self.setup

    def require_world(self) -> World:
        """The finished world.

        Raises:
            NotAllowedNow: the world is still being built.
        """
        if self.world is None:
            raise NotAllowedNow("The world isn't built yet: finish worldbuilding with /begin.")
        return self.world

    # -- changes ---------------------------------------------------------------

    def with_setup(self, setup: SetupState) -> NsuCampaign:
        """Store worldbuilding progress; once it is done the world is built and play starts."""
        if setup.step is SetupStep.DONE:
            return replace(self, setup=None, world=finished_world(setup), phase=Phase.ADVENTURE)
        return replace(self, setup=setup)

    def with_world(self, world: World) -> NsuCampaign:
        """Store a changed world (in setup: the world being built)."""
        if self.world is None:
            return replace(self, setup=replace(self.require_setup(), world=world))
        return replace(self, world=world)


def join_world(campaign: NsuCampaign, player_id: int) -> NsuCampaign:
    """Bring a player's character into the built world (a late joiner, or someone back).

    They join the party; when it is split, they start off screen, as an Arbiter.
    Nothing changes before the world is built or during downtime.
    """
    world = campaign.world
    if world is None or campaign.phase is Phase.DOWNTIME or player_id in world.players:
        return campaign
    groups = world.groups
    if groups:
        off = 1 - world.focus
        groups = tuple(g | {player_id} if i == off else g for i, g in enumerate(groups))
    return replace(
        campaign, world=replace(world, players=(*world.players, player_id), groups=groups)
    )


def leave_world(campaign: NsuCampaign, player_id: int) -> NsuCampaign:
    """Take a departed player out of the game's turns (their cards stay on the map).

    During worldbuilding they leave its turn order (see :func:`setup.without_player`).
    Once the world is built their character leaves the party; a group left empty
    ends the split. Nothing changes in downtime.
    """
    if campaign.setup is not None:
        setup, _ = without_player(campaign.setup, player_id)
        return campaign.with_setup(setup)
    world = campaign.world
    if world is None or campaign.phase is Phase.DOWNTIME or player_id not in world.players:
        return campaign
    groups = tuple(g - {player_id} for g in world.groups)
    focus = world.focus
    if any(not g for g in groups):
        groups, focus = (), 0
    players = tuple(p for p in world.players if p != player_id)
    return replace(campaign, world=replace(world, players=players, groups=groups, focus=focus))


def begin_worldbuilding(campaign: NsuCampaign, players: tuple[int, ...]) -> NsuCampaign:
    """Start worldbuilding with the members seated now, in joining order.

    Raises:
        NotAllowedNow: it has begun already, or the table has too few or too many players.
    """
    if campaign.began:
        raise NotAllowedNow("Worldbuilding has already begun.")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        if len(players) == 1:
            raise NotAllowedNow(
                "No Stone Unturned needs {low} to {high} players; "
                "{count} is at the table. Ask the others to /join.",
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
                count=len(players),
            )
        raise NotAllowedNow(
            "No Stone Unturned needs {low} to {high} players; "
            "{count} are at the table. Ask the others to /join.",
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
            count=len(players),
        )
    return replace(campaign, setup=new_setup(players))


# -- safety tools ------------------------------------------------------------------


class SafetyKind(StrEnum):
    LINE = "line"
    VEIL = "veil"


@dataclass(frozen=True)
class XCardPlayed:
    """Someone played the X-card. Who is never recorded."""


@dataclass(frozen=True)
class Knocked:
    """Someone knocked. Who is never recorded."""


@dataclass(frozen=True)
class SafetyEntryAdded:
    kind: SafetyKind
    text: str


def play_x_card(campaign: NsuCampaign) -> tuple[NsuCampaign, XCardPlayed]:
    safety = replace(campaign.safety, x_cards=campaign.safety.x_cards + 1)
    return replace(campaign, safety=safety), XCardPlayed()


def knock(campaign: NsuCampaign) -> tuple[NsuCampaign, Knocked]:
    safety = replace(campaign.safety, knocks=campaign.safety.knocks + 1)
    return replace(campaign, safety=safety), Knocked()


def add_safety_entry(
    campaign: NsuCampaign, kind: SafetyKind, text: str
) -> tuple[NsuCampaign, SafetyEntryAdded]:
    """Add a line or a veil, without its author.

    Raises:
        Malformed: empty or too long text.
        NotAllowedNow: the list is full, or it is already on it.
    """
    clean = clean_text(text, "Write the topic in a few words.", 200)
    safety = campaign.safety
    current = safety.lines if kind is SafetyKind.LINE else safety.veils
    if len(safety.lines) + len(safety.veils) >= MAX_SAFETY_ENTRIES:
        raise NotAllowedNow("The lines and veils card is full.")
    if any(c.casefold() == clean.casefold() for c in current):
        raise NotAllowedNow("That's already on the list.")
    if kind is SafetyKind.LINE:
        safety = replace(safety, lines=(*safety.lines, clean))
    else:
        safety = replace(safety, veils=(*safety.veils, clean))
    return replace(campaign, safety=safety), SafetyEntryAdded(kind, clean)


# -- tables and sheets ---------------------------------------------------------------


def campaign_of(table: Table) -> NsuCampaign:
    """The NSU campaign stored at a table, read once per table (:meth:`Table.read`)."""
    return table.read(_stored_campaign)


def _stored_campaign(table: Table) -> NsuCampaign:
    return NsuCampaign.from_dict(table.state)


def character_of(seat: Seat | None) -> Character | None:
    """The member's finished character, or None while they make one."""
    if seat is None or "character" not in seat.sheet:
        return None
    return seat.read(_character)


def _character(sheet: Json) -> Character:
    """A stored sheet's finished character (read once per seat: :meth:`Seat.read`)."""
    return Character.from_dict(sheet["character"])


def draft_of(seat: Seat | None) -> CharacterDraft | None:
    """The member's character draft, or None once the character is finished."""
    if seat is None or "character" in seat.sheet:
        return None
    data = seat.sheet.get("draft")
    return CharacterDraft() if data is None else CharacterDraft.from_dict(data)


def draft_sheet(draft: CharacterDraft) -> dict[str, Any]:
    return {"draft": draft.to_dict()}


def character_sheet(character: Character) -> dict[str, Any]:
    return {"character": character.to_dict()}


def characters(table: Table) -> dict[int, Character]:
    """Every finished character at the table, by player."""
    found = {pid: character_of(seat) for pid, seat in table.seats.items()}
    return {pid: c for pid, c in found.items() if c is not None}


def world_players(table: Table) -> tuple[int, ...]:
    """Players in the world's turn order who still sit at the table."""
    world = campaign_of(table).current_world()
    if world is None:
        return tuple(table.seats)
    return tuple(p for p in world.players if p in table.seats)


def outcome(
    campaign: NsuCampaign,
    events: tuple[object, ...] = (),
    *,
    state: Json | None = None,
    sheets: Mapping[int, Json] | None = None,
    closed: bool = False,
) -> Outcome:
    """An Outcome that stores ``campaign`` (for edits: the panel state is empty)."""
    return Outcome(
        state={} if state is None else state,
        events=events,
        closed=closed,
        campaign_state=campaign.to_dict(),
        sheets={} if sheets is None else sheets,
    )


# -- the campaign rules -------------------------------------------------------------


def load_edits(modules: tuple[str, ...] = EDIT_MODULES) -> dict[str, EditHandler]:
    """Every Mini App edit, by action name, from the modules in :data:`EDIT_MODULES`.

    Raises:
        TypeError: two modules define the same action.
    """
    edits: dict[str, EditHandler] = {}
    for name in modules:
        for action, handler in importlib.import_module(name).EDITS.items():
            if action in edits:
                raise TypeError(f"{name} redefines the edit {action!r}")
            edits[action] = handler
    return edits


class NsuCampaignRules(CampaignRules):
    """Seats, sheets and the Mini App edits of an NSU campaign (no Game Master)."""

    has_game_master = False
    has_map = True
    own_odds_first = True

    def __init__(self, modules: tuple[str, ...] = EDIT_MODULES) -> None:
        self._modules = modules
        self._edits: dict[str, EditHandler] | None = None

    def new_state(self) -> Json:
        return NsuCampaign().to_dict()

    def character_names(self, table: Table) -> Mapping[int, str]:
        """Each finished character's name by player (a draft has none yet)."""
        found = {p: character_of(seat) for p, seat in table.seats.items()}
        return {p: c.name for p, c in found.items() if c is not None}

    def seated(self, table: Table, player_id: int) -> tuple[Json, Json]:
        """A newcomer gets an empty character draft; a returning player keeps their sheet
        and, with a finished character, rejoins the party."""
        campaign = campaign_of(table)
        seat = table.seat(player_id)
        sheet = seat.sheet if seat is not None else {}
        if "character" in sheet:
            return join_world(campaign, player_id).to_dict(), sheet
        if "draft" in sheet:
            return campaign.to_dict(), sheet
        return campaign.to_dict(), draft_sheet(CharacterDraft())

    def left(self, table: Table, player_id: int) -> Json:
        """A player who leaves takes their turns and their character with them."""
        campaign = campaign_of(table)
        changed = leave_world(campaign, player_id)
        return table.state if changed == campaign else changed.to_dict()

    def redrawn(self, before: Table, after: Table) -> tuple[str, ...]:
        """The group's worldbuilding panel shows the worldbuilding: redraw it when that changed."""
        if campaign_of(before).setup != campaign_of(after).setup:
            return (SETUP_PANEL_KIND,)
        return ()

    def finished(self, table: Table) -> tuple[str, ...]:
        """Worldbuilding is over once the world is built, wherever its last step was taken;
        an adventure's travels once the party rests in downtime."""
        campaign = campaign_of(table)
        over = (SETUP_PANEL_KIND,) if campaign.world is not None else ()
        return over + ((ADVENTURE_PANEL_KIND,) if campaign.phase is Phase.DOWNTIME else ())

    def seen_by(self, state: Json, viewer: int) -> Json:
        """The campaign without what ``viewer`` may not read (card faces, clocks and
        authors, others' looks, others' rumours in downtime), in every copy of the
        world it keeps (worldbuilding, the adventure, downtime); see :mod:`.projection`."""
        campaign = NsuCampaign.from_dict(state)
        setup, downtime = campaign.setup, campaign.downtime
        return replace(
            campaign,
            world=None if campaign.world is None else world_seen_by(campaign.world, viewer),
            setup=None
            if setup is None
            else replace(setup, world=world_seen_by(setup.world, viewer)),
            downtime=None if downtime is None else downtime_seen_by(downtime, viewer),
        ).to_dict()

    def sheet_seen_by(self, sheet: Json, owner: int, viewer: int) -> Json:
        """Another member's draft shows only its name, their character no rumours."""
        return sheet_seen_by(sheet, owner, viewer)

    def panel_seen_by(self, kind: str, state: Json, viewer: int) -> Json:
        """An Action Roll keeps copies of its players' characters: their rumours stay theirs."""
        return roll_panel_seen_by(state, viewer) if kind == ROLL_PANEL_KIND else state

    def edits(self) -> dict[str, EditHandler]:
        """The edit table, built on first use."""
        if self._edits is None:
            self._edits = load_edits(self._modules)
        return self._edits

    def edit(self, table: Table, actor: int, action: str, payload: Json, rng: Rng) -> Outcome:
        """Apply a Mini App edit by its action name.

        Raises:
            Malformed: no such edit, or a bad payload.
            NotAllowedNow, NotYourTurn: the rules refuse it.
        """
        handler = self.edits().get(action)
        if handler is None:
            raise Malformed("That can't be changed here.")
        return handler(table, actor, payload, rng)


__all__ = [
    "EDIT_MODULES",
    "EditHandler",
    "Knocked",
    "NsuCampaign",
    "NsuCampaignRules",
    "Phase",
    "Safety",
    "SafetyEntryAdded",
    "SafetyKind",
    "XCardPlayed",
    "add_safety_entry",
    "begin_worldbuilding",
    "campaign_of",
    "character_of",
    "character_sheet",
    "characters",
    "draft_of",
    "draft_sheet",
    "join_world",
    "knock",
    "leave_world",
    "load_edits",
    "outcome",
    "play_x_card",
    "world_players",
]
