"""What every campaign use case shares: loading, building views, saving outcomes, and
the open views a change touched."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from datetime import UTC, datetime
from typing import NamedTuple

from core.campaigns.play import PlayerRef
from core.campaigns.views import (
    GAME_ENDED,
    NO_GAME,
    CampaignView,
    Changed,
    PanelView,
    Retired,
    Retirement,
    _shown,
    load_campaign_view,
    view_of_rows,
)
from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.registry import Registry
from core.rules.rng import Rng
from core.rules.table import Outcome, Seat, Table
from core.runtime.errors import TryAgain
from core.runtime.events import CampaignEvents, InProcessEvents
from core.runtime.locks import KeyedLock, Lease
from core.store import reminders
from core.store.loader import (
    CampaignRow,
    PanelRow,
    read_by_token,
    read_touched,
    touched_views,
)
from core.store.models import Campaign, CampaignStatus, Panel
from core.store.presses import (
    campaign_statement,
    close_statement,
    history_statement,
    log_statement,
    sheet_statement,
)
from core.store.reminders import OpenPanel
from core.store.repo import guarded
from core.store.sql import Work
from core.store.undo_steps import Offers
from core.store.unit import UnitOfWork


class Dependencies:
    """What the campaign use cases are given, passed in once: the game systems, chance,
    the campaigns' locks, the change notices to open Mini App pages, and a clock."""

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
        self._wire()

    def _wire(self) -> None:
        """What a subclass builds from its dependencies once they are set (nothing here)."""


class CampaignsBase(Dependencies):
    """Campaign and panel use cases, with their dependencies passed in.

    Every use case that changes something receives the change's unit of work
    (:class:`core.store.unit.UnitOfWork`, ``unit``) and has one shape: under
    ``unit.saving(...)`` it loads, applies the rules, saves with a version check and
    records its result (``unit.record``: the messages it sends, written with the
    change); its caller sends them once it committed. The unit claims the Telegram
    update being handled in the same transaction, so a redelivered copy changes
    nothing, and carries a Mini App request's idempotency key.
    """

    async def _view(self, campaign: Campaign) -> CampaignView:
        view, _, _ = await built(self.registry, campaign)
        return view

    async def _table(self, campaign: Campaign) -> tuple[Table, dict[int, int]]:
        _, table, member_ids = await built(self.registry, campaign)
        return table, member_ids

    async def _live(self, chat_tg_id: int, topic: int = 0) -> Campaign | None:
        """The live campaign of a chat's topic (0: a plain group, or General)."""
        query = Campaign.get_or_none(live_chat_id=chat_tg_id, topic_id=topic)
        return await query.select_related("host")

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def saving(self, unit: UnitOfWork, campaign_id: int) -> AbstractAsyncContextManager[Lease]:
        """The change ``unit`` makes to a campaign: its lock and transaction
        (:meth:`UnitOfWork.saving`), ending with the wait restarted (:func:`moved_on_at`)."""

        start = len(unit.recorded)  # the results this change records come after

        async def moved_on() -> None:
            known = _table_after(unit.recorded[start:], campaign_id)
            held = _panels_held(unit.recorded[start:])
            panels = _open_after(unit.recorded[start:], campaign_id)
            await moved_on_at(self.registry, campaign_id, known, self._now(), held, panels)

        return unit.saving(self.locks, f"campaign:{campaign_id}", then=moved_on)

    async def current(self, chat_tg_id: int, topic: int = 0) -> CampaignView | None:
        """The live campaign of a chat's topic (0: a plain group, or General), if any."""
        async with guarded():
            campaign = await self._live(chat_tg_id, topic)
            return None if campaign is None else await self._view(campaign)

    async def require_current(self, chat_tg_id: int, topic: int = 0) -> CampaignView:
        view = await self.current(chat_tg_id, topic)
        if view is None:
            raise NotAllowedNow(NO_GAME)
        return view

    async def for_viewer(self, app_token: str, player: PlayerRef) -> CampaignView:
        """The campaign behind a Mini App token, for one of its members only.

        Raises:
            NotAllowedNow: no such campaign, or the player is not in it.
        """
        view, _ = await self._for_viewer(app_token, player)
        return view

    async def _for_viewer(self, app_token: str, player: PlayerRef) -> tuple[CampaignView, Table]:
        reading = await read_by_token(app_token)  # the one loader's read
        if reading is None:
            raise NotAllowedNow("That game doesn't exist any more.")
        view, table, _ = view_of_rows(self.registry, *reading.read())
        if view.member(player.tg_id) is None:
            raise NotAllowedNow("You're not in this game. Join it with /join in its chat.")
        return view, table

    async def _panel_view(
        self,
        panel: Panel,
        outcome: Outcome,
        table: Table,
        campaign: Campaign,
    ) -> PanelView:
        shown = _shown(panel, await self._view(campaign), table)
        return replace(shown, events=outcome.events)


def _table_after(recorded: list[object], campaign_id: int) -> tuple[Table, CampaignStatus] | None:
    """The table and status after the change, as its last recorded result holds them (a
    press's panel, an edit's redraws), if it holds them."""
    for result in reversed(recorded):
        table, view = getattr(result, "table", None), getattr(result, "campaign", None)
        if (
            isinstance(table, Table)
            and isinstance(view, CampaignView)
            and table.campaign_id == view.id == campaign_id
        ):
            return table, view.status
    return None


def _open_after(recorded: list[object], campaign_id: int) -> list[OpenPanel] | None:
    """The campaign's open panels after the change, as its last result read them (a
    press's panel and the others its change touched, an edit's), if it read them (and
    is the change's last: nothing opened or closed a panel after it)."""
    result = recorded[-1] if recorded else None
    if not isinstance(result, PanelView | Changed) or result.campaign.id != campaign_id:
        return None
    if result.others is None:
        return None
    found = [OpenPanel(row.id, row.kind, row.state) for row in result.others]
    if isinstance(result, PanelView) and not result.closed:
        found.append(OpenPanel(result.id, result.kind, result.model))
    return found


def _panels_held(recorded: list[object]) -> dict[int, object]:
    """The typed states of the panels the change's results hold (a press's panel and the
    ones it redraws), by panel id."""
    held: dict[int, object] = {}
    for result in recorded:
        if isinstance(result, PanelView):
            for view in (result, *result.redraw):
                held[view.id] = view.model
    return held


async def built(
    registry: Registry, campaign: Campaign
) -> tuple[CampaignView, Table, dict[int, int]]:
    """The campaign's view and table and member ids by player, read by the one loader
    with the campaign's own fields as the use case holds them
    (:func:`core.campaigns.views.load_campaign_view`)."""
    return await load_campaign_view(registry, campaign)


class Touched(NamedTuple):
    """The open views a change touched: those to redraw, and those it retired; and the
    campaign's open panels (but the one acting) as the change leaves them, for the wait's
    restart (:meth:`CampaignsBase.saving`) to read no twice."""

    redraw: tuple[PanelView, ...]
    retired: tuple[Retired, ...]
    others: tuple[PanelRow, ...]


def touching(
    registry: Registry,
    system: str,
    view: CampaignView,
    before: Table,
    after: Table,
    *,
    acting: int | None = None,
    opened: tuple[str, int] | None = None,
    ending: bool = False,
    turned: bool = False,
) -> Work[Touched]:
    """The open views (panels with a message) a change touched, in its transaction, as
    statements its caller runs (:data:`core.store.sql.Work`).

    This is the one place that decides what a change does to the messages on
    screen, whichever surface it came from: a panel whose procedure the rules call
    over is closed and drawn so (its own buttons go); one a newer panel of its
    procedure supersedes in its chat (``opened``: that procedure, as
    :meth:`core.rules.registry.GameSystem.procedure` names it, and chat), or of a game
    that ends, is closed and retired, reading as its message showed it before the
    change (its own state over the table ``before``, never the newer procedure's);
    when the table changed, every other one is
    redrawn from it; so is one that showed, or now may show, a ``↩ Undo``, and every
    one when the turn order changed (``turned``: each shows whose turn it is).

    Args:
        acting: the panel the change came through (its caller shows it).
    """
    changed = before.state != after.state or before.seats != after.seats
    # a ↩ Undo shown or now due is a view touched too: the two newest live steps
    # (one read: the two newest live steps, and the open panels)
    steps, rows = read_touched((yield touched_views(view.id, but=acting)))
    offered = Offers.read(steps)
    if not (changed or turned or opened or ending or offered.panels - {acting}):
        return Touched((), (), tuple(rows))
    if not rows:
        return Touched((), (), ())
    over = set(registry.find(system).campaign.finished(after)) if changed else set()
    redraw: list[PanelView] = []
    retired: list[Retired] = []
    others: list[PanelRow] = []
    for row in rows:
        if row.message_id is None:  # nothing on screen to touch: it stays as it is
            others.append(row)
            continue
        over_now = row.kind in over
        why = (
            Retirement.ENDED
            if ending
            else Retirement.NEWER
            if opened == (row.procedure or row.kind, row.chat_tg_id) and not over_now
            else None
        )
        if why is None and not over_now:
            others.append(row)
            if changed or turned or row.id in offered.panels:
                shown = _shown(row, view, after)
                undo = offered.undo(row.id, row.version, view.version)
                redraw.append(replace(shown, undo=undo))
            continue
        if why is not None:  # retired: it reads as its message showed it, from before
            as_shown = _shown(row, replace(view, state=before.state), before)
            retired.append(Retired(as_shown, why))
        row = replace(row, closed=True, version=row.version + 1)
        yield close_statement(row.id, row.version)
        if why is None:  # over: drawn as its procedure ends (no buttons of its own)
            redraw.append(_shown(row, view, after))
    return Touched(tuple(redraw), tuple(retired), tuple(others))


def settling(
    registry: Registry,
    campaign: Campaign | CampaignRow,
    table: Table,
    member_ids: dict[int, int],
    outcome: Outcome,
) -> Work[Table]:
    """Save what an outcome changed in the campaign and the sheets, and what the log says
    of it, as statements its caller runs; the table as it was (its campaign state read
    once, :meth:`Table.read`) when it changed neither.

    Raises:
        TryAgain: the campaign changed under the use case (its version moved on).
        NotAllowedNow: the outcome wrote the sheet of someone not in the game.
    """
    state = table.state
    if outcome.campaign_state is not None:
        state = outcome.campaign_state
        if not (yield campaign_statement(campaign.id, campaign.version, dict(state))):
            raise TryAgain()
        campaign.state, campaign.version = dict(state), campaign.version + 1
    seats = dict(table.seats)
    for player_id, sheet in outcome.sheets.items():
        if player_id not in member_ids:
            raise NotAllowedNow("That player isn't in this game.")
        yield sheet_statement(member_ids[player_id], dict(sheet))
        seat = seats[player_id]
        seats[player_id] = Seat(seat.player_id, seat.name, seat.roles, sheet)
    unchanged = outcome.campaign_state is None and not outcome.sheets
    settled = table if unchanged else Table(table.campaign_id, table.system, state, seats)
    system = registry.find(campaign.system)
    lines = system.log_lines(settled, outcome)  # kept with the change
    if lines:
        yield log_statement(campaign.id, lines)
    for roll in system.history(settled, outcome):  # a game's own roll, in /rolls
        yield history_statement(campaign.id, roll)
    return settled


def check_playing(campaign: Campaign | CampaignRow, *, any_time: bool = False) -> None:
    """Refuse a step unless the game is being played.

    Args:
        any_time: the rules keep this step open while the game is paused (safety tools).
    """
    if campaign.status is CampaignStatus.PAUSED and not any_time:
        raise NotAllowedNow("The game is paused. The host can /resume it.")
    if campaign.status is CampaignStatus.ARCHIVED:
        raise NotAllowedNow(GAME_ENDED)


def check_seated(table: Table, player_id: int) -> None:
    if table.seat(player_id) is None:
        raise NotYourTurn("Only players in this game can do that. Join with /join.")


async def moved_on_at(
    registry: Registry,
    campaign_id: int,
    known: tuple[Table, CampaignStatus] | None,
    now: datetime,
    held: Mapping[int, object] | None = None,
    panels: list[OpenPanel] | None = None,
) -> None:
    """Every change to a campaign, in its transaction: the table moved on, so whoever it
    waits on now waits afresh, and a reminder whose wait was met goes. Nothing for a
    paused or ended game (its reminders went when it stopped). ``known``: the table
    and status the change's result holds (else read again); ``panels``: its open
    panels as the change read them (else read again)."""
    if known is None:
        campaign = await Campaign.get_or_none(id=campaign_id)
        if campaign is None:
            return
        _, table, _ = await built(registry, campaign)
        known = table, campaign.status
    table, status = known
    if status is not CampaignStatus.ACTIVE:
        return
    await reminders.moved_on(table, registry.find(table.system), now, held, panels)
