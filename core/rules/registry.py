"""Game systems by key, like a variant registry.

Each system lives in its own subpackage and describes itself with one
:class:`GameSystem` value, its manifest: its rules (campaign and panels), and, in
:class:`Edges`, the modules that show it (the bot features with its commands and
panel renderers, the Mini App's sheet page), named, never imported here.
:func:`default_registry` imports the systems of :data:`SYSTEM_MODULES` on demand,
so nothing is built at import time; a new game is its own package and one line there.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.history import HistoryRoll, no_history
from core.rules.log import LogLine, no_log_lines
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, PanelRules, Seat, Table
from core.rules.turns import no_modifier
from core.rules.undo import UndoRules

OddsResult = Mapping[str, object]


@dataclass(frozen=True)
class OddsCommand:
    """How a system answers ``python -m core odds <system> ...``.

    Attributes:
        add_arguments: declares the system's options on an argparse parser.
        compute: exact odds from the parsed options, as a JSON-ready mapping.
        format_table: a readable table of the same result.
    """

    add_arguments: Callable[[argparse.ArgumentParser], None]
    compute: Callable[[argparse.Namespace], OddsResult]
    format_table: Callable[[OddsResult], str]


def no_status_lines(table: Table) -> tuple[str, ...]:
    """The default: /status shows the shared facts only."""
    return ()


class CampaignRules:
    """How a system starts a campaign and seats a new member (override as needed)."""

    has_game_master: bool = False
    # a card map the whole table shares (it goes into the shared story)
    has_map: bool = False
    # /odds in its chat reads the game's own roll first (bare dN words are its dice)
    own_odds_first: bool = False

    def new_state(self) -> Json:
        """The campaign's state when it is created."""
        return {}

    def shown_system(self, system: GameSystem, state: Json, language: str) -> GameSystem:
        """The system as a campaign in ``state`` names it to a group reading ``language``:
        itself, unless the campaign plays rules its state carries (a group's own system,
        named as its text says)."""
        return system

    def check_state(self, state: Json) -> None:
        """Refuse a campaign state this system can't play (an imported one).

        Raises:
            Malformed: the state is damaged.
        """

    def seated(self, table: Table, player_id: int) -> tuple[Json, Json]:
        """The campaign state and the member's sheet after ``player_id`` joined."""
        seat = table.seat(player_id)
        return table.state, (seat.sheet if seat is not None else {})

    def left(self, table: Table, player_id: int) -> Json:
        """The campaign state after ``player_id`` left (``table`` no longer seats them)."""
        return table.state

    def redrawn(self, before: Table, after: Table) -> tuple[str, ...]:
        """Kinds of open panels whose messages show what changed from ``before`` to ``after``.

        After a Mini App edit or a member leaving, these panels' messages are redrawn
        (a panel's own presses redraw it anyway).
        """
        return ()

    def finished(self, table: Table) -> tuple[str, ...]:
        """Kinds of panels whose procedure ``table`` shows as over (closed when redrawn)."""
        return ()

    def projected(self, table: Table, viewer: int) -> Table:
        """The campaign as ``viewer`` may see it: the one view every page, answer, export,
        picture and live notice for that member is built from.

        Pure. The default keeps what :meth:`seen_by` keeps of the campaign state and
        what :meth:`sheet_seen_by` keeps of each member's sheet.
        """
        seats = {
            p: replace(seat, sheet=self.sheet_seen_by(seat.sheet, p, viewer))
            for p, seat in table.seats.items()
        }
        return Table(table.campaign_id, table.system, self.seen_by(table.state, viewer), seats)

    def seen_by(self, state: Json, viewer: int) -> Json:
        """The campaign state as ``viewer`` may see it: all of it unless the system has
        secrets kept from some members."""
        return state

    def sheet_seen_by(self, sheet: Json, owner: int, viewer: int) -> Json:
        """What ``viewer`` may see of ``owner``'s sheet: all of it unless the system
        keeps part of a sheet to its owner."""
        return sheet

    def character_names(self, table: Table) -> Mapping[int, str]:
        """Each member's character's name by player, where the system names characters
        apart from their players (none by default)."""
        return {}

    def panel_seen_by(self, kind: str, state: Json, viewer: int) -> Json:
        """What ``viewer`` may see of an open procedure's stored state (a panel keeps
        copies of sheets, for instance): all of it unless the system says otherwise."""
        return state

    def edit(self, table: Table, actor: int, action: str, payload: Json, rng: Rng) -> Outcome:
        """Apply an edit made in the Mini App (a sheet field, a clock tick...).

        ``rng`` is the dice, for the edits that roll (injected like a panel's).

        Raises:
            Malformed, NotAllowedNow, NotYourTurn: the rules refuse it; nothing changes.
        """
        raise NotAllowedNow("That can't be changed here.")


def never_any_time(kind: str, action: str) -> bool:
    """No step of a system without safety tools goes on while its game is paused."""
    return False


SHEETS_AND_LOG_KEPT = "Nothing is deleted: everyone's sheets and the log are kept."
"""What an ended game keeps, for a system with sheets and a log and nothing more."""


@dataclass(frozen=True)
class Edges:
    """Where a game is shown, by module name (the rules import none of them).

    Attributes:
        features: its bot features, each exporting ``COMMANDS``, ``handlers()`` and
            maybe ``RENDERERS`` (its panels' renderers); empty: ``tgbot.features.<key>``.
        sheet: its Mini App sheet page module, exporting ``PAGE``; empty:
            ``webapp.sheets.<key>``.
    """

    features: tuple[str, ...] = ()
    sheet: str = ""


@dataclass(frozen=True)
class GameSystem:
    """One supported game system: its manifest (see the module)."""

    key: str
    name: str
    summary: str
    odds: OddsCommand | None = None
    # What the host does once everyone has joined ("" when play starts at once).
    first_step: str = ""
    # What an ended game keeps (the host's question before it ends, and the notice after).
    kept_at_end: str = SHEETS_AND_LOG_KEPT
    campaign: CampaignRules = field(default_factory=CampaignRules)
    panels: Mapping[str, PanelRules[Any]] = field(default_factory=dict)
    roll_panel: str | None = None  # the panel /roll opens when its notation fits
    # What the campaign log keeps of one action's outcome (rolls, details...).
    log_lines: Callable[[Table, Outcome], tuple[LogLine, ...]] = no_log_lines
    # What the chat's roll history keeps of one action's outcome (a game's own roll).
    history: Callable[[Table, Outcome], tuple[HistoryRoll, ...]] = no_history
    # What /status adds about this system's campaign (public facts, plain text lines).
    status_lines: Callable[[Table], tuple[str, ...]] = no_status_lines
    # undo: which steps stand although no dice fell, and how steps are named.
    undo: UndoRules = field(default_factory=UndoRules)
    # Rolls each player has their own of, by panel kind: who rolls, read from the
    # panel's state. Every other kind is the chat's, one at a time (see :meth:`procedure`).
    rolled_by: Mapping[str, Callable[[Json], int]] = field(default_factory=dict)
    # Steps open in every state of a game, paused included: its safety tools (panel kind,
    # or "" for an edit; action). Every other step waits while the game is paused.
    any_time: Callable[[str, str], bool] = never_any_time
    # Where it is shown: its bot features (commands, renderers) and its sheet page.
    edges: Edges = field(default_factory=Edges)
    # What a player adds to their d20 when the turn order is rolled (core.rules.turns):
    # read from their sheet where the game's sheet has such a modifier; 0 otherwise.
    turn_modifier: Callable[[Seat], int] = no_modifier
    # Whether its Game Master changes the players' sheets (then also their characters'
    # portraits, core.rules.portraits); otherwise a portrait is its player's alone.
    gm_edits_sheets: bool = False

    @property
    def feature_modules(self) -> tuple[str, ...]:
        """Its bot feature modules, its own first."""
        return self.edges.features or (f"tgbot.features.{self.key}",)

    @property
    def sheet_module(self) -> str:
        """Its Mini App sheet page module."""
        return self.edges.sheet or f"webapp.sheets.{self.key}"

    def procedure(self, kind: str, state: Json) -> str:
        """The procedure a panel of ``kind`` runs, from its state as opened.

        A chat has at most one live panel per procedure: a newer one retires the
        older. A roll is its roller's procedure (whoever asked for it), so a
        player's new roll retires only their own older one, never another
        player's; a shared panel (worldbuilding, adventure, downtime, the NSU
        Action Roll) is the chat's.
        """
        roller = self.rolled_by.get(kind)
        return kind if roller is None else f"{kind}:{roller(state)}"

    def panel(self, kind: str) -> PanelRules[Any]:
        """The rules of one kind of panel.

        Raises:
            Malformed: this system has no such panel.
        """
        try:
            return self.panels[kind]
        except KeyError:
            raise Malformed(f"{self.name} has no “{kind}” procedure.") from None


@dataclass(frozen=True)
class Registry:
    """An immutable lookup of game systems by key."""

    systems: Mapping[str, GameSystem] = field(default_factory=dict)

    def find(self, key: str) -> GameSystem:
        """Return the system for ``key``.

        Raises:
            Malformed: no system has that key.
        """
        try:
            return self.systems[key.strip().lower()]
        except KeyError:
            known = ", ".join(sorted(self.systems))
            raise Malformed(
                "Unknown game system “{key}”. Known systems: {known}.", key=key[:40], known=known
            ) from None

    def __iter__(self) -> Iterator[GameSystem]:
        return iter(self.systems.values())


# Subpackages that define a module-level ``SYSTEM`` (or ``SYSTEMS``, a package that
# builds several from data), one line each.
SYSTEM_MODULES: tuple[str, ...] = (
    "core.rules.nsu",
    "core.rules.threat",
    "core.rules.cortex",
    "core.rules.d20check",
    "core.rules.dicesystem",
)


def default_registry(modules: tuple[str, ...] | None = None) -> Registry:
    """Build the registry of every system subpackage that is installed."""
    systems: dict[str, GameSystem] = {}
    for name in SYSTEM_MODULES if modules is None else modules:
        module = importlib.import_module(name)
        for system in getattr(module, "SYSTEMS", None) or (module.SYSTEM,):
            if not isinstance(system, GameSystem):
                raise TypeError(f"{name}.SYSTEM is not a GameSystem")
            systems[system.key] = system
    return Registry(systems)
