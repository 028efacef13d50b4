"""What the campaign use cases hand out: views of campaigns and panels, built one way."""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from core.rules.choice import Choice, Common
from core.rules.errors import Malformed
from core.rules.lifecycle import may_resume, resumable_until
from core.rules.registry import GameSystem, Registry
from core.rules.said import Said
from core.rules.systems import Definition
from core.rules.table import Json, Role, Seat, Table
from core.rules.turns import TurnOrder, turn_line
from core.store.loader import (
    LOAD,
    CampaignRow,
    MemberRow,
    PanelRow,
    load_arguments,
    load_campaign,
    read_panel,
)
from core.store.models import Campaign, CampaignStatus, Panel
from core.store.sql import fetch

JOIN_PREFIX = "join_"
STALE = "That button is out of date. Use the latest message."
GAME_ENDED = (
    "This game has ended. The host can bring it back with /resume in its group, "
    "or anyone can start a new one there with /newgame."
)
"""What an ended game's old buttons answer: what is true, and what can be done next."""
TOPIC_CLOSED = (
    "This topic is closed, so its game waits. Once the topic is reopened (by the group's "
    "admins), play goes on here where it stopped."
)
"""What a closed topic's panels answer (nothing can be sent into a closed topic)."""
NO_GAME = "No game is running in this chat. Start one with /newgame."
NOTHING_TO_RESUME = (
    "No game is running in this chat, and none ended here that could come back. "
    "Start one with /newgame."
)
RUNNING = (
    "A game of {name} is already running here (see /status). The host can end it with /endgame."
)
MOVED_ON = "The game moved on since you asked, so it goes on. Send /endgame again to end it."
PANEL_CAMPAIGNS_KEPT = 100_000
S = TypeVar("S")


class _OtherCampaign(Exception):
    """A remembered panel id names a panel of another campaign now (ids can be reused)."""


@dataclass(frozen=True)
class MemberView:
    player_id: int
    name: str
    roles: frozenset[Role]
    language: str = "en"  # the catalogue they read in private (their Telegram app's)


@dataclass(frozen=True)
class CampaignView:
    id: int
    system: GameSystem
    status: CampaignStatus
    host_id: int
    chat_tg_id: int
    chat_title: str
    app_token: str
    members: tuple[MemberView, ...]
    state: Json
    version: int
    topic_id: int = 0  # the forum topic it is played in (0: General, or a plain group)
    language: str = "en"  # the catalogue its group reads (the host's, or /language)
    turn_order: TurnOrder | None = None  # whose turn it is, in a game with an order

    @property
    def turn(self) -> Said | None:
        """``🔁 Turn: Chidi (then Bo, Alice)`` in a game with a turn order (its panels
        show it, as /status does), else None."""
        return turn_line(self.turn_order, {m.player_id: m.name for m in self.members})

    @property
    def thread(self) -> int | None:
        """The ``message_thread_id`` every message of this game is sent with."""
        return self.topic_id or None

    def member(self, player_id: int) -> MemberView | None:
        return next((m for m in self.members if m.player_id == player_id), None)

    @property
    def game_masters(self) -> tuple[MemberView, ...]:
        return tuple(m for m in self.members if Role.GAME_MASTER in m.roles)


class Retirement(StrEnum):
    """Why a panel's message stops taking presses."""

    NEWER = "newer"  # a newer panel of the same procedure was opened in its chat
    ENDED = "ended"  # the game ended


@dataclass(frozen=True)
class Retired:
    """A panel whose message keeps what it shows but loses its buttons, with a reason."""

    panel: PanelView
    why: Retirement


@dataclass(frozen=True)
class Changed:
    """A campaign after a change outside its panels, and the open views it touched."""

    campaign: CampaignView
    table: Table
    redraw: tuple[PanelView, ...] = ()
    retired: tuple[Retired, ...] = ()
    # the campaign's open panels as the change left them, when it read them (the wait's
    # restart reads them here; None: not read)
    others: tuple[PanelRow, ...] | None = None


@dataclass(frozen=True)
class EndedGame:
    """The chat's most recently ended campaign, and until when /resume brings it back."""

    campaign: CampaignView
    ended_at: datetime
    resumable_until: datetime
    resumable: bool
    retired: tuple[Retired, ...] = ()  # its panels' messages, retired as it ended
    story_shared: bool = False  # its story's link still opens (the host may withdraw it)

    @classmethod
    def of(cls, campaign: CampaignView, row: Campaign, now: datetime) -> EndedGame:
        """The archived ``row`` (read as ``campaign``) as it stands at ``now``."""
        ended_at = row.ended_at or row.updated_at  # games ended before it was kept
        return cls(campaign, ended_at, resumable_until(ended_at), may_resume(ended_at, now))


@dataclass(frozen=True)
class Resumed:
    """What /resume did: a paused game goes on, or an ended one came back."""

    campaign: CampaignView
    came_back: bool
    redraw: tuple[PanelView, ...] = ()  # panels that showed ↩ Undo (the steps now stand)
    changed: Changed | None = None  # a paused game's resuming, as recorded to the outbox


@dataclass(frozen=True)
class JoinResult:
    """What /join did: joined now, was already in, or needs a private chat first."""

    campaign: CampaignView
    joined: bool
    already_member: bool
    start_payload: str = ""


@dataclass(frozen=True)
class PanelView:
    """One panel as its message shows it.

    ``state`` is what the store keeps; ``model`` is the same state read by the
    panel's rules (:meth:`core.rules.table.PanelRules.read`) into its typed value,
    once, as the view is built, or handed over as ``read_as`` by whoever already
    holds it (a press: the rules' ``Outcome.model``, the value ``state`` was written
    from). Renderers read ``model`` (see :meth:`typed`).
    """

    id: int
    kind: str
    version: int
    state: Json
    closed: bool
    chat_tg_id: int
    message_id: int | None
    events: tuple[object, ...]
    campaign: CampaignView
    table: Table
    undo: Choice[Common] | None = None  # the rules' ↩ Undo for the step just taken here
    # The other open views this change touched: redraw these, retire those.
    redraw: tuple[PanelView, ...] = ()
    retired: tuple[Retired, ...] = ()
    # the campaign's other open panels as the change left them, when it read them (the
    # wait's restart reads them here; None: not read)
    others: tuple[PanelRow, ...] | None = None
    # in a player's private chat: how many live games they are in, when its builder read
    # it (a press does; 0: not read), to name the game for a player in several
    viewer_games: int = 0
    # ``state`` as the panel's rules read it; set as the view is built (never passed in,
    # so a view replaced with another state reads that state).
    model: object = field(init=False, repr=False, compare=False)
    # ``state``'s typed value when the builder holds it already (never kept: a view
    # replaced with another field reads its state again)
    read_as: InitVar[object] = None

    def __post_init__(self, read_as: object) -> None:
        model = read_as
        if model is None:
            model = self.campaign.system.panel(self.kind).read(self.state)
        object.__setattr__(self, "model", model)

    def typed(self, kind: type[S]) -> S:
        """The panel's state as its rules read it.

        Raises:
            TypeError: the panel's rules read it as another type (a renderer of
                another kind of panel).
        """
        if not isinstance(self.model, kind):
            raise TypeError(
                f"{self.kind} reads as {type(self.model).__name__}, not {kind.__name__}"
            )
        return self.model


def _name(player: MemberRow) -> str:
    return " ".join(p for p in (player.first_name, player.last_name) if p) or "player"


@dataclass(frozen=True)
class SeatRow:
    """One active member as read from the store, whichever way it was read."""

    member_id: int
    player_id: int
    name: str
    roles: frozenset[Role]
    sheet: Json
    language: str = "en"


def build_view(
    registry: Registry,
    campaign: CampaignRow,
    seats: tuple[SeatRow, ...],
) -> tuple[CampaignView, Table]:
    """The one way a campaign's view and table are built from what the store read.

    Every reader (a press, a command, a Mini App page) comes here, so a viewer's
    view is the same whichever path loaded it; the projection for one member is
    taken from this (:mod:`core.views.projection`).
    """
    table = Table(
        campaign.id,
        campaign.system,
        campaign.state,
        {s.player_id: Seat(s.player_id, s.name, s.roles, s.sheet) for s in seats},
    )
    system = registry.find(campaign.system)
    view = CampaignView(
        id=campaign.id,
        system=system.campaign.shown_system(system, campaign.state, campaign.language),
        status=campaign.status,
        host_id=campaign.host_tg_id,
        chat_tg_id=campaign.chat_tg_id,
        chat_title=campaign.chat_title,
        app_token=campaign.app_token,
        members=tuple(MemberView(s.player_id, s.name, s.roles, s.language) for s in seats),
        state=campaign.state,
        version=campaign.version,
        topic_id=campaign.topic_id,
        language=campaign.language,
        turn_order=None
        if campaign.turn_order is None
        else TurnOrder.from_dict(campaign.turn_order),
    )
    return view, table


@dataclass(frozen=True)
class LoadedPanel:
    """A panel as :func:`load_panel_view` read it: its row, its campaign's row, the
    campaign's view (its language included) and table, and member ids by player."""

    row: PanelRow
    stored: CampaignRow
    campaign: CampaignView
    table: Table
    member_ids: dict[int, int]

    def view(self, undo: Choice[Common] | None = None) -> PanelView:
        """The panel as its message shows it (its state read by its rules here, once)."""
        return replace(_shown(self.row, self.campaign, self.table), undo=undo)


async def load_panel_view(registry: Registry, panel_id: int) -> LoadedPanel | None:
    """The one loader of a panel view, for every surface (a press, a reply, a command's
    redraw, the Mini App's redraw of a group panel): the panel, its campaign with its
    chat, host, topic and language, and the active members, in one statement, built
    the one way (:func:`view_of_rows`). None when there is no such panel."""
    return read_panel_view(registry, panel_id, await fetch(LOAD, load_arguments(panel_id)))


def read_panel_view(
    registry: Registry, panel_id: int, rows: list[dict[str, Any]]
) -> LoadedPanel | None:
    """What :func:`load_panel_view` makes of the rows of its statement (a press runs it
    itself: ``fetch(LOAD, load_arguments(panel_id))``)."""
    loaded = read_panel(panel_id, rows)
    if loaded is None:
        return None
    panel, campaign, members = loaded
    view, table, member_ids = view_of_rows(registry, campaign, members)
    return LoadedPanel(panel, campaign, view, table, member_ids)


_CAMPAIGN_OWN = ("system", "status", "version", "state", "app_token", "topic_id", "language")
"""The campaign's own fields, which a use case may have changed in memory."""


async def load_campaign_view(
    registry: Registry, campaign: Campaign
) -> tuple[CampaignView, Table, dict[int, int]]:
    """The view and table of a campaign a use case holds in its transaction, and member
    ids by player: read by the one loader (:data:`core.store.loader.BY_ID`), the
    campaign's own fields laid over from ``campaign`` as the use case has it (it may
    have changed them in memory); its chat, host, topic and members as stored."""
    read = await load_campaign(campaign.id)
    if read is None:
        raise LookupError(f"campaign {campaign.id} is not stored")
    stored, members = read
    held = replace(stored, **{own: getattr(campaign, own) for own in _CAMPAIGN_OWN})
    return view_of_rows(registry, held, members)


def view_of_rows(
    registry: Registry, campaign: CampaignRow, members: list[MemberRow]
) -> tuple[CampaignView, Table, dict[int, int]]:
    """The one way the loader's rows become a campaign's view and table
    (:func:`build_view`), with member ids by player."""
    seats = tuple(
        SeatRow(m.id, m.player_tg_id, _name(m), _roles(m.roles), m.sheet, m.language)
        for m in members
    )
    view, table = build_view(registry, campaign, seats)
    return view, table, {s.player_id: s.member_id for s in seats}


def _shown(row: Panel | PanelRow, campaign: CampaignView, table: Table) -> PanelView:
    """An open panel as its message shows it (no events: nothing happened on it)."""
    return PanelView(
        id=row.id,
        kind=row.kind,
        version=row.version,
        state=row.state,
        closed=row.closed,
        chat_tg_id=row.chat_tg_id,
        message_id=row.message_id,
        events=(),
        campaign=campaign,
        table=table,
    )


def _roles(names: list[str]) -> frozenset[Role]:
    return frozenset(Role(r) for r in names)


def describe_members(view: CampaignView) -> list[dict[str, Any]]:
    """Members as plain data (for JSON)."""
    return [
        {"id": m.player_id, "name": m.name, "roles": sorted(r.value for r in m.roles)}
        for m in view.members
    ]


def played_definition(view: CampaignView) -> Definition | None:
    """The game system a game of the library or of a group's own plays, as its state
    keeps it (None for the built-in games, or state that no longer reads)."""
    from core.rules.dicesystem import ROLL_PANEL, definition_of

    if view.system.roll_panel != ROLL_PANEL:
        return None
    try:
        return definition_of(view.state)
    except Malformed:
        return None
