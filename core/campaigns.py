"""Campaigns and panels: the use cases every game system shares.

Invariants: at most one live (active or paused) campaign per chat; a panel's
state changes only through its system's rules, one version at a time, inside
one transaction under the campaign's lock, so two presses at once, a
redelivered update or a stale button never apply an action twice.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from tortoise.exceptions import IntegrityError

from core.errors import AlreadyHandled, TryAgain
from core.events import CampaignEvents, InProcessEvents
from core.locks import KeyedLock
from core.play import ChatRef, PlayerRef
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.lifecycle import (
    Ended,
    Stage,
    Step,
    check_host,
    check_resume,
    may_resume,
    next_stage,
    resumable_until,
)
from core.rules.registry import GameSystem, Registry
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Role, Seat, Table
from core.store.models import Campaign, CampaignStatus, Chat, LogEntry, Member, Panel, Player
from core.store.presses import CampaignRow, MemberRow, load_panel, panel_head, save_panel
from core.store.repo import guarded, update_done, upsert_chat, upsert_player
from core.store.unit import saving

JOIN_PREFIX = "join_"
STALE = "That button is out of date. Use the latest message."
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


class _OtherCampaign(Exception):
    """A remembered panel id names a panel of another campaign now (ids can be reused)."""


@dataclass(frozen=True)
class MemberView:
    player_id: int
    name: str
    roles: frozenset[Role]


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


@dataclass(frozen=True)
class EndedGame:
    """The chat's most recently ended campaign, and until when /resume brings it back."""

    campaign: CampaignView
    ended_at: datetime
    resumable_until: datetime
    resumable: bool
    retired: tuple[Retired, ...] = ()  # its panels' messages, retired as it ended


@dataclass(frozen=True)
class Resumed:
    """What /resume did: a paused game goes on, or an ended one came back."""

    campaign: CampaignView
    came_back: bool


@dataclass(frozen=True)
class JoinResult:
    """What /join did: joined now, was already in, or needs a private chat first."""

    campaign: CampaignView
    joined: bool
    already_member: bool
    start_payload: str = ""


@dataclass(frozen=True)
class PanelView:
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
    # The other open views this change touched: redraw these, retire those.
    redraw: tuple[PanelView, ...] = ()
    retired: tuple[Retired, ...] = ()


def _name(player: Player | MemberRow) -> str:
    return " ".join(p for p in (player.first_name, player.last_name) if p) or "player"


@dataclass(frozen=True)
class SeatRow:
    """One active member as read from the store, whichever way it was read."""

    member_id: int
    player_id: int
    name: str
    roles: frozenset[Role]
    sheet: Json


def build_view(
    registry: Registry,
    campaign: CampaignRow,
    seats: tuple[SeatRow, ...],
) -> tuple[CampaignView, Table]:
    """The one way a campaign's view and table are built from what the store read.

    Every reader (a press, a command, a Mini App page) comes here, so a viewer's
    view is the same whichever path loaded it; the projection for one member is
    taken from this (:mod:`core.projection`).
    """
    table = Table(
        campaign.id,
        campaign.system,
        campaign.state,
        {s.player_id: Seat(s.player_id, s.name, s.roles, s.sheet) for s in seats},
    )
    view = CampaignView(
        id=campaign.id,
        system=registry.find(campaign.system),
        status=campaign.status,
        host_id=campaign.host_tg_id,
        chat_tg_id=campaign.chat_tg_id,
        chat_title=campaign.chat_title,
        app_token=campaign.app_token,
        members=tuple(MemberView(s.player_id, s.name, s.roles) for s in seats),
        state=campaign.state,
        version=campaign.version,
    )
    return view, table


def _row_seats(members: list[MemberRow]) -> tuple[SeatRow, ...]:
    return tuple(SeatRow(m.id, m.player_tg_id, _name(m), _roles(m.roles), m.sheet) for m in members)


def _model_seats(members: list[Member]) -> tuple[SeatRow, ...]:
    return tuple(
        SeatRow(m.id, m.player.tg_id, _name(m.player), _roles(m.roles), m.sheet) for m in members
    )


def _shown(row: Panel, campaign: CampaignView, table: Table) -> PanelView:
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


class Campaigns:
    """Campaign and panel use cases, with their dependencies passed in.

    Every use case that changes something saves through :func:`core.store.unit.saving`
    and takes ``update_id``: the Telegram update being handled, claimed in the same
    transaction so a redelivered copy changes nothing (None from the Mini App).
    """

    def __init__(
        self,
        registry: Registry,
        rng: Rng,
        locks: KeyedLock,
        events: CampaignEvents | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.registry = registry
        self.rng = rng
        self.locks = locks
        self.clock = clock
        self.events: CampaignEvents = events if events is not None else InProcessEvents()
        # Which campaign a panel belongs to (it never changes): a press locks it at once.
        self._panel_campaigns: dict[int, int] = {}

    # --- reading -----------------------------------------------------------

    async def _members(self, campaign: Campaign) -> list[Member]:
        return (
            await Member.filter(campaign_id=campaign.id, active=True)
            .select_related("player")
            .order_by("joined_at", "id")
        )

    async def _built(
        self, campaign: Campaign, members: list[Member] | None = None
    ) -> tuple[CampaignView, Table, dict[int, int]]:
        """The campaign's view and table (see :func:`build_view`), and member ids by player."""
        if members is None:
            members = await self._members(campaign)
        if not isinstance(campaign.chat, Chat) or not isinstance(campaign.host, Player):
            await campaign.fetch_related("chat", "host")
        row = CampaignRow(
            id=campaign.id,
            system=campaign.system,
            status=campaign.status,
            version=campaign.version,
            state=campaign.state,
            app_token=campaign.app_token,
            chat_tg_id=campaign.chat.tg_id,
            chat_title=campaign.chat.title,
            host_tg_id=campaign.host.tg_id,
        )
        seats = _model_seats(members)
        view, table = build_view(self.registry, row, seats)
        return view, table, {s.player_id: s.member_id for s in seats}

    async def _view(self, campaign: Campaign, members: list[Member] | None = None) -> CampaignView:
        view, _, _ = await self._built(campaign, members)
        return view

    async def _table(
        self, campaign: Campaign, members: list[Member] | None = None
    ) -> tuple[Table, dict[int, int]]:
        _, table, member_ids = await self._built(campaign, members)
        return table, member_ids

    async def _load(self, campaign_id: int) -> tuple[Campaign, list[Member]]:
        """A campaign with its chat, host and active members, in two queries."""
        campaign = await Campaign.get(id=campaign_id).select_related("chat", "host")
        return campaign, await self._members(campaign)

    async def _live(self, chat_tg_id: int) -> Campaign | None:
        query = Campaign.get_or_none(live_chat_id=chat_tg_id)
        return await query.select_related("chat", "host")

    async def current(self, chat_tg_id: int) -> CampaignView | None:
        """The live campaign of a chat, if any."""
        async with guarded():
            campaign = await self._live(chat_tg_id)
            return None if campaign is None else await self._view(campaign)

    async def require_current(self, chat_tg_id: int) -> CampaignView:
        view = await self.current(chat_tg_id)
        if view is None:
            raise NotAllowedNow(NO_GAME)
        return view

    async def at_a_glance(self, chat_tg_id: int) -> tuple[CampaignView, tuple[str, ...]]:
        """The chat's live campaign and what its system says of it for /status.

        Raises:
            NotAllowedNow: no game is running in this chat.
        """
        async with guarded():
            campaign = await self._live(chat_tg_id)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
            members = await self._members(campaign)
            view = await self._view(campaign, members)
            table, _ = await self._table(campaign, members)
        return view, tuple(view.system.status_lines(table))

    async def for_viewer(self, app_token: str, player: PlayerRef) -> CampaignView:
        """The campaign behind a Mini App token, for one of its members only.

        Raises:
            NotAllowedNow: no such campaign, or the player is not in it.
        """
        async with guarded():
            campaign = await Campaign.get_or_none(app_token=app_token)
            if campaign is None:
                raise NotAllowedNow("That game doesn't exist any more.")
            view = await self._view(campaign)
        if view.member(player.tg_id) is None:
            raise NotAllowedNow("You're not in this game. Join it with /join in its chat.")
        return view

    async def table_for_viewer(
        self, app_token: str, player: PlayerRef
    ) -> tuple[CampaignView, Table]:
        """The campaign and its table, for one of its members only."""
        view = await self.for_viewer(app_token, player)
        async with guarded():
            campaign = await Campaign.get(id=view.id)
            table, _ = await self._table(campaign)
        return view, table

    async def edit(
        self,
        app_token: str,
        actor: PlayerRef,
        action: str,
        payload: Json,
        *,
        update_id: int | None = None,
    ) -> Changed:
        """Apply a Mini App edit through the system's rules, in one transaction.

        The dice are this use case's RNG, as for panels. The result names the open
        panels whose messages show what changed (the caller redraws them).
        """
        view = await self.for_viewer(app_token, actor)
        async with saving(self.locks, f"campaign:{view.id}", update_id):
            campaign = await Campaign.get(id=view.id)
            self._check_playing(campaign)
            before, member_ids = await self._table(campaign)
            outcome = view.system.campaign.edit(before, actor.tg_id, action, payload, self.rng)
            table = await self._settle(campaign, before, member_ids, outcome)
            after = await self._view(campaign)
            redraw, retired = await self._touched(campaign.system, after, before, table)
            result = Changed(after, table, redraw, retired)
        await self.events.publish(view.id)
        return result

    async def _touched(
        self,
        system: str,
        view: CampaignView,
        before: Table,
        after: Table,
        *,
        acting: int | None = None,
        opened: tuple[str, int] | None = None,
        ending: bool = False,
    ) -> tuple[tuple[PanelView, ...], tuple[Retired, ...]]:
        """The open views (panels with a message) a change touched, in its transaction.

        This is the one place that decides what a change does to the messages on
        screen, whichever surface it came from: a panel whose procedure the rules call
        over is closed and drawn so (its own buttons go); one a newer panel of its
        procedure supersedes in its chat (``opened``: that kind and chat), or of a game
        that ends, is closed and retired; when the table changed, every other one is
        redrawn from it.

        Args:
            acting: the panel the change came through (its caller shows it).
        """
        changed = before.state != after.state or before.seats != after.seats
        if not (changed or opened or ending):
            return (), ()
        query = Panel.filter(campaign_id=view.id, closed=False, message_id__isnull=False)
        if acting is not None:
            query = query.exclude(id=acting)
        rows = await query.order_by("id")
        if not rows:
            return (), ()
        over = set(self.registry.find(system).campaign.finished(after)) if changed else set()
        redraw: list[PanelView] = []
        retired: list[Retired] = []
        for row in rows:
            over_now = row.kind in over
            why = (
                Retirement.ENDED
                if ending
                else Retirement.NEWER
                if opened == (row.kind, row.chat_tg_id) and not over_now
                else None
            )
            if why is None and not over_now:
                if changed:
                    redraw.append(_shown(row, view, after))
                continue
            row.closed, row.version = True, row.version + 1
            await Panel.filter(id=row.id).update(closed=True, version=row.version)
            if why is None:  # over: drawn as its procedure ends (no buttons of its own)
                redraw.append(_shown(row, view, after))
            else:
                retired.append(Retired(_shown(row, view, after), why))
        return tuple(redraw), tuple(retired)

    async def campaigns_of(self, player: PlayerRef) -> tuple[CampaignView, ...]:
        """The live campaigns a player is in, newest first."""
        async with guarded():
            rows = (
                await Campaign.filter(
                    members__player__tg_id=player.tg_id,
                    members__active=True,
                    live_chat_id__isnull=False,
                )
                .order_by("-id")
                .distinct()
            )
            return tuple([await self._view(c) for c in rows])

    # --- campaign lifecycle ------------------------------------------------

    async def new_game(
        self, chat: ChatRef, host: PlayerRef, system_key: str, *, update_id: int | None = None
    ) -> CampaignView:
        """Start a campaign of ``system_key`` in a group chat; the host joins it.

        Raises:
            Malformed: unknown system.
            NotAllowedNow: not a group, or a game is already live in this chat.
        """
        system = self.registry.find(system_key)
        if chat.kind not in ("group", "supergroup"):
            raise NotAllowedNow("Start a game in a group chat, so everyone can play together.")
        async with saving(self.locks, f"chat:{chat.tg_id}", update_id):
            running = await self._live(chat.tg_id)
            if running is not None:
                raise NotAllowedNow(RUNNING.format(name=self.registry.find(running.system).name))
            chat_row = await upsert_chat(chat.tg_id, chat.kind, chat.title)
            host_row = await upsert_player(
                host.tg_id, host.first_name, host.last_name, host.username
            )
            try:
                campaign = await Campaign.create(
                    chat=chat_row,
                    live_chat_id=chat.tg_id,
                    system=system.key,
                    host=host_row,
                    app_token=secrets.token_urlsafe(16),
                    state=dict(system.campaign.new_state()),
                )
            except IntegrityError:
                raise NotAllowedNow(RUNNING.format(name=system.name)) from None
            roles = [Role.HOST.value, Role.PLAYER.value]
            if system.campaign.has_game_master:
                roles = [Role.HOST.value, Role.GAME_MASTER.value]
            await Member.create(campaign=campaign, player=host_row, roles=roles)
            await self._seat(campaign, host.tg_id)
            return await self._view(campaign)

    async def _seat(self, campaign: Campaign, player_id: int) -> None:
        system = self.registry.find(campaign.system)
        table, member_ids = await self._table(campaign)
        state, sheet = system.campaign.seated(table, player_id)
        await Campaign.filter(id=campaign.id).update(
            state=dict(state), version=campaign.version + 1
        )
        await Member.filter(id=member_ids[player_id]).update(sheet=dict(sheet))
        campaign.state, campaign.version = dict(state), campaign.version + 1

    async def join(
        self, chat: ChatRef, player: PlayerRef, *, update_id: int | None = None
    ) -> JoinResult:
        """Join the chat's live campaign, or say how to open a private chat first."""
        async with guarded():
            campaign = await self._live(chat.tg_id)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
            row = await upsert_player(
                player.tg_id, player.first_name, player.last_name, player.username
            )
            if not row.started_private:
                view = await self._view(campaign)
                return JoinResult(
                    view,
                    joined=False,
                    already_member=False,
                    start_payload=JOIN_PREFIX + campaign.app_token,
                )
        return await self._add_member(campaign.id, player, update_id)

    async def complete_join(
        self, payload: str, player: PlayerRef, *, update_id: int | None = None
    ) -> JoinResult:
        """Finish a join that waited for the player's private chat (/start join_...)."""
        if not payload.startswith(JOIN_PREFIX):
            raise Malformed("That start link isn't one of ours.")
        async with guarded():
            campaign = await Campaign.get_or_none(app_token=payload[len(JOIN_PREFIX) :])
            if campaign is None or campaign.live_chat_id is None:
                raise NotAllowedNow("That game has ended, so it can't be joined.")
        return await self._add_member(campaign.id, player, update_id)

    async def _add_member(
        self, campaign_id: int, player: PlayerRef, update_id: int | None
    ) -> JoinResult:
        async with saving(self.locks, f"campaign:{campaign_id}", update_id):
            campaign = await Campaign.get(id=campaign_id)
            row = await upsert_player(
                player.tg_id, player.first_name, player.last_name, player.username
            )
            member = await Member.get_or_none(campaign_id=campaign.id, player_id=row.id)
            if member is not None and member.active:
                return JoinResult(await self._view(campaign), joined=False, already_member=True)
            if member is None:
                await Member.create(campaign=campaign, player=row, roles=[Role.PLAYER.value])
            else:
                await Member.filter(id=member.id).update(active=True)
            await self._seat(campaign, player.tg_id)
            return JoinResult(await self._view(campaign), joined=True, already_member=False)

    async def leave(
        self, chat: ChatRef, player: PlayerRef, *, update_id: int | None = None
    ) -> Changed:
        """Leave the chat's campaign (the host hands over or ends it instead).

        The system adjusts the campaign to the member who left (a turn moves on);
        the result names the panel messages that show it.
        """
        async with guarded():
            campaign = await self._live(chat.tg_id)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
        async with saving(self.locks, f"campaign:{campaign.id}", update_id):
            member = await Member.get_or_none(
                campaign_id=campaign.id, player__tg_id=player.tg_id, active=True
            )
            if member is None:
                raise NotAllowedNow("You're not in this game.")
            if Role.HOST.value in member.roles:
                raise NotAllowedNow("You host this game: end it with /endgame instead.")
            await Member.filter(id=member.id).update(active=False)
            changed = await self._unseat(campaign, player.tg_id)
        await self.events.publish(campaign.id)
        return changed

    async def _unseat(self, campaign: Campaign, player_id: int) -> Changed:
        """Let the system adjust the campaign state to a member who left."""
        campaign = await Campaign.get(id=campaign.id).select_related("chat", "host")
        before, _ = await self._table(campaign)
        state = self.registry.find(campaign.system).campaign.left(before, player_id)
        after = before
        if state != before.state:
            await Campaign.filter(id=campaign.id).update(
                state=dict(state), version=campaign.version + 1
            )
            campaign.state, campaign.version = dict(state), campaign.version + 1
            after = Table(before.campaign_id, before.system, campaign.state, before.seats)
        view = await self._view(campaign)
        redraw, retired = await self._touched(campaign.system, view, before, after)
        return Changed(view, after, redraw, retired)

    async def set_status(
        self,
        chat: ChatRef,
        player: PlayerRef,
        status: CampaignStatus,
        *,
        update_id: int | None = None,
    ) -> CampaignView:
        """Pause, resume or end the chat's live campaign at once (host only).

        The bot asks the host to confirm an ending first (``ask_end``, then ``end``);
        an ended campaign comes back with ``resume``.
        """
        async with guarded():
            campaign = await self._live(chat.tg_id)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
        step = {
            CampaignStatus.PAUSED: Step.PAUSE,
            CampaignStatus.ACTIVE: Step.RESUME,
            CampaignStatus.ARCHIVED: Step.END,
        }[status]
        view, _, _ = await self._step(campaign.id, chat, player, step, update_id=update_id)
        return view

    async def _step(
        self,
        campaign_id: int,
        chat: ChatRef,
        player: PlayerRef,
        step: Step,
        version: int | None = None,
        *,
        update_id: int | None = None,
    ) -> tuple[CampaignView, datetime | None, tuple[Retired, ...]]:
        """Move a live campaign to its next stage; with ``version``, only if still at it.

        Returns the campaign, when it last ended, and the panels an ending retired.
        """
        async with saving(self.locks, f"campaign:{campaign_id}", update_id):
            campaign = await Campaign.get_or_none(id=campaign_id)
            if campaign is None:
                raise NotAllowedNow(STALE)
            await campaign.fetch_related("host")
            check_host(step, player.tg_id, campaign.host.tg_id)
            if campaign.live_chat_id != chat.tg_id:
                raise NotAllowedNow(STALE)  # it ended since it was asked
            if version is not None and campaign.version != version:
                raise NotAllowedNow(MOVED_ON)
            status = CampaignStatus(next_stage(Stage(campaign.status.value), step).value)
            ending = status is CampaignStatus.ARCHIVED
            live = None if ending else campaign.live_chat_id
            ended_at = self._now() if ending else campaign.ended_at
            await Campaign.filter(id=campaign.id).update(
                status=status, live_chat_id=live, ended_at=ended_at, version=campaign.version + 1
            )
            campaign.status, campaign.live_chat_id = status, live
            campaign.ended_at, campaign.version = ended_at, campaign.version + 1
            view = await self._view(campaign)
            retired: tuple[Retired, ...] = ()
            if ending:
                table, _ = await self._table(campaign)
                _, retired = await self._touched(campaign.system, view, table, table, ending=True)
                await Panel.filter(campaign_id=campaign.id).update(closed=True)
        await self.events.publish(campaign_id)
        return view, ended_at, retired

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    async def ask_end(self, chat: ChatRef, player: PlayerRef) -> CampaignView:
        """The chat's live campaign, for its host to confirm that it ends.

        Raises:
            NotAllowedNow: no game is running in this chat.
            NotYourTurn: the player is not its host.
        """
        view = await self.require_current(chat.tg_id)
        check_host(Step.END, player.tg_id, view.host_id)
        return view

    async def end(
        self,
        chat: ChatRef,
        player: PlayerRef,
        campaign_id: int,
        version: int,
        *,
        update_id: int | None = None,
    ) -> EndedGame:
        """End the campaign the host confirmed, as it was when asked (``version``).

        Everything is kept; ``resume`` brings it back for a while.

        Raises:
            NotAllowedNow: it ended or changed since the question was asked.
            NotYourTurn: the player is not its host.
        """
        view, ended_at, retired = await self._step(
            campaign_id, chat, player, Step.END, version, update_id=update_id
        )
        assert ended_at is not None
        return EndedGame(view, ended_at, resumable_until(ended_at), True, retired)

    async def keep_playing(
        self, chat: ChatRef, player: PlayerRef, campaign_id: int
    ) -> CampaignView:
        """The host called off an ending: the campaign goes on unchanged.

        Raises:
            NotAllowedNow: the campaign ended since (whatever else happened meanwhile,
                calling off an ending changes nothing).
            NotYourTurn: the player is not its host.
        """
        async with guarded():
            campaign = await Campaign.get_or_none(id=campaign_id).select_related("chat", "host")
            if campaign is None:
                raise NotAllowedNow(STALE)
            check_host(Step.END, player.tg_id, campaign.host.tg_id)
            if campaign.live_chat_id != chat.tg_id:
                raise NotAllowedNow(STALE)
            return await self._view(campaign)

    async def last_ended(self, chat_tg_id: int) -> EndedGame | None:
        """The chat's most recently ended campaign, if no game runs there now."""
        async with guarded():
            if await self._live(chat_tg_id) is not None:
                return None
            campaign = (
                await Campaign.filter(chat__tg_id=chat_tg_id, status=CampaignStatus.ARCHIVED)
                .order_by("-id")
                .select_related("chat", "host")
                .first()
            )
            if campaign is None:
                return None
            view = await self._view(campaign)
        ended_at = campaign.ended_at or campaign.updated_at  # games ended before it was kept
        return EndedGame(
            view, ended_at, resumable_until(ended_at), may_resume(ended_at, self._now())
        )

    async def resume(
        self, chat: ChatRef, player: PlayerRef, *, update_id: int | None = None
    ) -> Resumed:
        """Resume the chat's paused campaign, or bring back the one that ended last.

        Raises:
            NotAllowedNow: the game is running already, nothing ended here, or it
                ended too long ago.
            NotYourTurn: the player is not its host.
        """
        async with guarded():
            live = await self._live(chat.tg_id)
        if live is not None:
            view, _, _ = await self._step(live.id, chat, player, Step.RESUME, update_id=update_id)
            return Resumed(view, came_back=False)
        ended = await self.last_ended(chat.tg_id)
        if ended is None:
            raise NotAllowedNow(NOTHING_TO_RESUME)
        campaign_id = ended.campaign.id
        async with saving(self.locks, f"chat:{chat.tg_id}", update_id):
            running = await self._live(chat.tg_id)
            if running is not None:
                raise NotAllowedNow(RUNNING.format(name=self.registry.find(running.system).name))
            campaign = await Campaign.get(id=campaign_id).select_related("chat", "host")
            check_resume(Ended(campaign.host.tg_id, ended.ended_at), player.tg_id, self._now())
            try:
                await Campaign.filter(id=campaign_id, status=CampaignStatus.ARCHIVED).update(
                    status=CampaignStatus.ACTIVE,
                    live_chat_id=chat.tg_id,
                    version=campaign.version + 1,
                )
            except IntegrityError:
                raise NotAllowedNow("Another game started here meanwhile. See /status.") from None
            campaign.status, campaign.live_chat_id = CampaignStatus.ACTIVE, chat.tg_id
            campaign.version += 1
            view = await self._view(campaign)
        await self.events.publish(campaign_id)
        return Resumed(view, came_back=True)

    async def live_games(self) -> tuple[tuple[int, str], ...]:
        """Every live campaign's chat and game system (for the command menus)."""
        async with guarded():
            rows = await Campaign.filter(live_chat_id__isnull=False).values_list(
                "live_chat_id", "system"
            )
        return tuple((int(chat), str(system)) for chat, system in rows)

    async def games_of_players(self) -> dict[int, frozenset[str]]:
        """The game systems each player plays in live campaigns (for the command menus)."""
        async with guarded():
            rows = await Member.filter(
                active=True, campaign__live_chat_id__isnull=False
            ).values_list("player__tg_id", "campaign__system")
        games: dict[int, set[str]] = {}
        for player, system in rows:
            games.setdefault(int(player), set()).add(str(system))
        return {player: frozenset(keys) for player, keys in games.items()}

    # --- panels ------------------------------------------------------------

    async def open_panel(
        self,
        chat: ChatRef,
        actor: PlayerRef,
        kind: str,
        argument: str = "",
        *,
        campaign_id: int | None = None,
        update_id: int | None = None,
    ) -> PanelView:
        """Start a procedure (the caller sends its message).

        Args:
            chat: where the panel's message goes: the campaign's group, or a private
                chat when ``campaign_id`` names the campaign it belongs to.
            campaign_id: the campaign, for panels outside its group (private steps).
        """
        async with guarded():
            if campaign_id is None:
                campaign = await self._live(chat.tg_id)
            else:
                campaign = await Campaign.get_or_none(id=campaign_id, live_chat_id__isnull=False)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
        system = self.registry.find(campaign.system)
        rules = system.panel(kind)
        async with saving(self.locks, f"campaign:{campaign.id}", update_id):
            campaign = await Campaign.get(id=campaign.id)
            self._check_playing(campaign)
            before, member_ids = await self._table(campaign)
            self._check_seated(before, actor.tg_id)
            outcome = rules.open(before, actor.tg_id, argument, self.rng)
            panel = await Panel.create(
                campaign=campaign,
                kind=kind,
                state=dict(outcome.state),
                closed=outcome.closed,
                chat_tg_id=chat.tg_id,
            )
            table = await self._settle(campaign, before, member_ids, outcome)
            opened = await self._panel_view(panel, outcome, table, campaign)
            redraw, retired = await self._touched(
                campaign.system,
                opened.campaign,
                before,
                table,
                acting=panel.id,
                opened=(kind, chat.tg_id),
            )
            opened = replace(opened, redraw=redraw, retired=retired)
        await self.events.publish(campaign.id)
        return opened

    async def bind_message(self, panel_id: int, message_id: int) -> None:
        """Remember which message shows a panel."""
        async with guarded():
            await Panel.filter(id=panel_id).update(message_id=message_id)

    async def panel_at(self, chat_tg_id: int, message_id: int) -> PanelView | None:
        """The open panel shown by a message, if any (for replies to it)."""
        async with guarded():
            panel = await Panel.get_or_none(
                chat_tg_id=chat_tg_id, message_id=message_id, closed=False
            )
        return None if panel is None else await self.panel(panel.id)

    async def panel(self, panel_id: int) -> PanelView:
        async with guarded():
            panel = await Panel.get_or_none(id=panel_id)
            if panel is None:
                raise NotAllowedNow(STALE)
            campaign = await Campaign.get(id=panel.campaign_id)
            table, _ = await self._table(campaign)
            return await self._panel_view(
                panel, Outcome(panel.state, closed=panel.closed), table, campaign
            )

    async def act(
        self,
        panel_id: int,
        version: int,
        actor: PlayerRef,
        action: str,
        argument: str = "",
        *,
        update_id: int | None = None,
    ) -> PanelView:
        """Apply one button press to a panel, exactly once.

        Raises:
            NotAllowedNow: the button is stale (older version, closed or unknown panel),
                or the rules refuse the action now.
            NotYourTurn: someone else must act.
            TryAgain: the store or the lock is unavailable; nothing changed.
        """
        campaign_id = self._panel_campaigns.get(panel_id)
        if campaign_id is not None:
            acted = await self._act(
                campaign_id, panel_id, version, actor, action, argument, update_id
            )
            if acted is not None:
                return acted
            del self._panel_campaigns[panel_id]  # the id now names another campaign's panel
        async with guarded():
            head = await panel_head(panel_id)
            if head is None or head.closed or head.version != version:
                if await update_done(update_id):
                    raise AlreadyHandled()  # this very press was applied: say nothing
                raise NotAllowedNow(STALE)
        if len(self._panel_campaigns) >= PANEL_CAMPAIGNS_KEPT:
            self._panel_campaigns.clear()
        self._panel_campaigns[panel_id] = head.campaign_id
        acted = await self._act(
            head.campaign_id, panel_id, version, actor, action, argument, update_id
        )
        if acted is None:
            raise NotAllowedNow(STALE)
        return acted

    async def _act(
        self,
        campaign_id: int,
        panel_id: int,
        version: int,
        actor: PlayerRef,
        action: str,
        argument: str,
        update_id: int | None,
    ) -> PanelView | None:
        """The press under the lock of ``campaign_id``; None if the panel is not that campaign's."""
        try:
            async with saving(self.locks, f"campaign:{campaign_id}", update_id):
                loaded = await load_panel(panel_id)
                if loaded is None:
                    raise NotAllowedNow(STALE)
                panel, campaign, members = loaded
                if panel.campaign_id != campaign_id:
                    raise _OtherCampaign()  # rolls back the update's claim too
                if panel.closed or panel.version != version:
                    raise NotAllowedNow(STALE)
                self._check_playing(campaign)
                seats = _row_seats(members)
                view, before = build_view(self.registry, campaign, seats)
                member_ids = {s.player_id: s.member_id for s in seats}
                self._check_seated(before, actor.tg_id)
                rules = self.registry.find(campaign.system).panel(panel.kind)
                outcome = rules.act(before, panel.state, actor.tg_id, action, argument, self.rng)
                if not await save_panel(panel_id, version, dict(outcome.state), outcome.closed):
                    raise NotAllowedNow(STALE)
                table = await self._settle(campaign, before, member_ids, outcome)
                view = replace(view, state=campaign.state, version=campaign.version)
                redraw, retired = await self._touched(
                    campaign.system, view, before, table, acting=panel_id
                )
                acted = PanelView(
                    id=panel.id,
                    kind=panel.kind,
                    version=version + 1,
                    state=dict(outcome.state),
                    closed=outcome.closed,
                    chat_tg_id=panel.chat_tg_id,
                    message_id=panel.message_id,
                    events=outcome.events,
                    campaign=view,
                    table=table,
                    redraw=redraw,
                    retired=retired,
                )
        except _OtherCampaign:
            return None
        await self.events.publish(campaign_id)
        return acted

    @staticmethod
    def _check_playing(campaign: Campaign | CampaignRow) -> None:
        if campaign.status is CampaignStatus.PAUSED:
            raise NotAllowedNow("The game is paused. The host can /resume it.")
        if campaign.status is CampaignStatus.ARCHIVED:
            raise NotAllowedNow("That game has ended.")

    @staticmethod
    def _check_seated(table: Table, player_id: int) -> None:
        if table.seat(player_id) is None:
            raise NotYourTurn("Only players in this game can do that. Join with /join.")

    async def _settle(
        self,
        campaign: Campaign | CampaignRow,
        table: Table,
        member_ids: dict[int, int],
        outcome: Outcome,
    ) -> Table:
        """Save what an outcome changed in the campaign and the sheets."""
        state = table.state
        if outcome.campaign_state is not None:
            state = outcome.campaign_state
            changed = await Campaign.filter(id=campaign.id, version=campaign.version).update(
                state=dict(state), version=campaign.version + 1
            )
            if changed != 1:
                raise TryAgain()
            campaign.state, campaign.version = dict(state), campaign.version + 1
        seats = dict(table.seats)
        for player_id, sheet in outcome.sheets.items():
            if player_id not in member_ids:
                raise NotAllowedNow("That player isn't in this game.")
            await Member.filter(id=member_ids[player_id]).update(sheet=dict(sheet))
            seat = seats[player_id]
            seats[player_id] = Seat(seat.player_id, seat.name, seat.roles, sheet)
        settled = Table(table.campaign_id, table.system, state, seats)
        await self._log(campaign, settled, outcome)
        return settled

    async def _log(self, campaign: Campaign | CampaignRow, table: Table, outcome: Outcome) -> None:
        """Keep what the system's log says of this outcome, in the same transaction."""
        lines = self.registry.find(campaign.system).log_lines(table, outcome)
        if lines:
            await LogEntry.bulk_create(
                [
                    LogEntry(
                        campaign_id=campaign.id,
                        kind=line.kind[:16],
                        text=line.text[:500],
                        player_ids=list(line.player_ids),
                    )
                    for line in lines
                ]
            )

    async def log_for_viewer(
        self, app_token: str, player: PlayerRef, limit: int = 200
    ) -> tuple[CampaignView, tuple[LogEntry, ...]]:
        """The newest ``limit`` log lines of a campaign, oldest first, for members only."""
        view = await self.for_viewer(app_token, player)
        async with guarded():
            rows = await LogEntry.filter(campaign_id=view.id).order_by("-id").limit(limit)
        return view, tuple(reversed(rows))

    async def _panel_view(
        self,
        panel: Panel,
        outcome: Outcome,
        table: Table,
        campaign: Campaign,
        members: list[Member] | None = None,
    ) -> PanelView:
        return PanelView(
            id=panel.id,
            kind=panel.kind,
            version=panel.version,
            state=panel.state,
            closed=panel.closed,
            chat_tg_id=panel.chat_tg_id,
            message_id=panel.message_id,
            events=outcome.events,
            campaign=await self._view(campaign, members),
            table=table,
        )


def describe_members(view: CampaignView) -> list[dict[str, Any]]:
    """Members as plain data (for JSON)."""
    return [
        {"id": m.player_id, "name": m.name, "roles": sorted(r.value for r in m.roles)}
        for m in view.members
    ]
