"""Panels: opening a procedure and applying button presses and replies to it."""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import NamedTuple

from core.campaigns.base import CampaignsBase, check_playing, check_seated, settling, touching
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.views import (
    GAME_ENDED,
    NO_GAME,
    PANEL_CAMPAIGNS_KEPT,
    STALE,
    TOPIC_CLOSED,
    CampaignView,
    LoadedPanel,
    PanelView,
    Retired,
    _OtherCampaign,
    read_panel_view,
)
from core.rules.errors import NotAllowedNow
from core.rules.registry import Registry
from core.rules.table import Outcome, Table
from core.rules.undo import StepTaken, TallyRng
from core.runtime.errors import AlreadyHandled
from core.store.loader import LOAD, CampaignRow, PanelRow, games_of, load_arguments, read_games
from core.store.models import Campaign, CampaignStatus, ForumTopic, Panel
from core.store.presses import PanelHead, panel_head, save_statement
from core.store.repo import guarded, update_done
from core.store.sql import Work, fetch, ran
from core.store.undo_steps import PanelBefore, pruned, record_step, step_row, undo_after
from core.store.unit import UnitOfWork


class Presses(CampaignsBase):
    """Panel use cases: open, bind its message, act."""

    @cached_property
    def _panel_campaigns(self) -> dict[int, int]:
        """Which campaign a panel belongs to (it never changes): a press locks it at once."""
        return {}

    async def open_panel(
        self,
        chat: ChatRef,
        actor: PlayerRef,
        kind: str,
        argument: str = "",
        *,
        campaign_id: int | None = None,
        unit: UnitOfWork | None = None,
    ) -> PanelView:
        """Start a procedure; its message is recorded on ``unit``, sent after the commit.

        Args:
            chat: where the panel's message goes: the campaign's group, or a private
                chat when ``campaign_id`` names the campaign it belongs to.
            campaign_id: the campaign, for panels outside its group (private steps).
            unit: the change's unit of work (a fresh one, planning nothing, by default).
        """
        unit = unit or UnitOfWork()
        async with guarded():
            if campaign_id is None:
                campaign = await self._live(chat.tg_id, chat.topic)
            else:
                campaign = await Campaign.get_or_none(id=campaign_id, live_chat_id__isnull=False)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
        system = self.registry.find(campaign.system)
        rules = system.panel(kind)
        async with self.saving(unit, campaign.id):
            campaign = await Campaign.get(id=campaign.id)
            check_playing(campaign, any_time=system.any_time(kind, "open"))
            before, member_ids = await self._table(campaign)
            check_seated(before, actor.tg_id)
            rng = TallyRng(self.rng)  # undo: a panel opened with dice ends what came before
            outcome = rules.open(before, actor.tg_id, argument, rng)
            procedure = system.procedure(kind, outcome.state)
            panel = await Panel.create(
                campaign=campaign,
                kind=kind,
                procedure=procedure,
                state=dict(outcome.state),
                closed=outcome.closed,
                chat_tg_id=chat.tg_id,
            )
            self._remember(panel.id, campaign.id)  # its first press locks at once
            table = await ran(settling(self.registry, campaign, before, member_ids, outcome))
            # undo: opening a procedure (and any dice it rolled) stands, and so does every
            # step before it: someone acted on top of them
            await record_step(
                system,
                campaign.id,
                actor.tg_id,
                kind,
                "open",
                rng.rolled,
                before=before,
                outcome=outcome,
                member_ids=member_ids,
                campaign_version_after=campaign.version,
                opened=True,
            )
            opened = await self._panel_view(panel, outcome, table, campaign)
            redraw, retired, others = await ran(
                touching(
                    self.registry,
                    campaign.system,
                    opened.campaign,
                    before,
                    table,
                    acting=panel.id,
                    opened=(procedure, chat.tg_id),
                )
            )
            opened = replace(opened, redraw=redraw, retired=retired, others=others)
            await unit.record(opened, "post")  # its message, sent after the commit
        await self.events.publish(campaign.id)
        return opened

    async def bind_message(self, panel_id: int, message_id: int) -> None:
        """Remember which message shows a panel."""
        async with guarded():
            await Panel.filter(id=panel_id).update(message_id=message_id)

    async def act(
        self,
        panel_id: int,
        version: int,
        actor: PlayerRef,
        action: str,
        argument: str = "",
        *,
        unit: UnitOfWork | None = None,
    ) -> PanelView:
        """Apply one button press to a panel, exactly once: load, rules, save (the panel's
        version checked), record its messages on ``unit`` (sent after the commit).

        Raises:
            NotAllowedNow: the button is stale (older version, closed or unknown panel),
                or the rules refuse the action now.
            NotYourTurn: someone else must act.
            TryAgain: the store or the lock is unavailable; nothing changed.
        """
        unit = unit or UnitOfWork()
        # The panel's campaign, remembered from its opening or an earlier press, or read
        # first without a lock; a remembered id may name another campaign's panel now
        # (ids can be reused): then it is read again, once.
        campaign_id = self._panel_campaigns.get(panel_id)
        head: PanelHead | None = None
        for _ in range(2):
            if campaign_id is None:
                head = await _head(panel_id, version, unit.update_id)
                campaign_id = self._remember(panel_id, head.campaign_id)
            try:
                async with self.saving(unit, campaign_id):
                    rows = await fetch(LOAD, load_arguments(panel_id))  # load
                    loaded = read_panel_view(self.registry, panel_id, rows)
                    if loaded is None:
                        raise NotAllowedNow(STALE)
                    panel, campaign = _pressable(loaded, campaign_id, version)
                    system = self.registry.find(campaign.system)
                    any_time = system.any_time(panel.kind, action)
                    paused = campaign.status is CampaignStatus.PAUSED
                    if not any_time and paused and await _topic_closed(campaign):
                        raise NotAllowedNow(TOPIC_CLOSED)  # /resume can't be sent there
                    check_playing(campaign, any_time=any_time)
                    before = loaded.table
                    check_seated(before, actor.tg_id)
                    rng = TallyRng(self.rng)  # undo: a step that drew on chance stands
                    rules = system.panel(panel.kind)  # rules -> events
                    outcome = rules.act(
                        before, rules.read(panel.state), actor.tg_id, action, argument, rng
                    )
                    saved = await ran(  # save
                        _saved(
                            self.registry,
                            loaded,
                            campaign,
                            outcome,
                            actor.tg_id,
                            action,
                            rng.rolled,
                        )
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
                        campaign=saved.view,
                        table=saved.table,
                        undo=undo_after(saved.step),
                        redraw=saved.redraw,
                        retired=saved.retired,
                        others=saved.others,
                        read_as=outcome.model,  # the rules' own value: not read again
                        viewer_games=saved.games,
                    )
                    await unit.record(acted)  # messages: written with the change
            except _OtherCampaign:
                del self._panel_campaigns[panel_id]
                if head is not None:
                    break  # read just now, and already another campaign's: out of date
                campaign_id = None
                continue
            await self.events.publish(campaign_id)
            return acted
        raise NotAllowedNow(STALE)

    def _remember(self, panel_id: int, campaign_id: int) -> int:
        """Keep which campaign a panel belongs to (it never changes), so a press locks it
        at once; returns ``campaign_id``."""
        if len(self._panel_campaigns) >= PANEL_CAMPAIGNS_KEPT:
            self._panel_campaigns.clear()
        self._panel_campaigns[panel_id] = campaign_id
        return campaign_id


class Saved(NamedTuple):
    """What a press saved: the table after it, its undo step, the campaign's view, the
    open views it redraws and retires, the other open panels, and (in a private chat)
    how many games the viewer plays (0: not read)."""

    table: Table
    step: StepTaken
    view: CampaignView
    redraw: tuple[PanelView, ...]
    retired: tuple[Retired, ...]
    others: tuple[PanelRow, ...]
    games: int


def _saved(
    registry: Registry,
    loaded: LoadedPanel,
    campaign: CampaignRow,
    outcome: Outcome,
    actor: int,
    action: str,
    rolled: bool,
) -> Work[Saved]:
    """What a press saves under the campaign's lock, as statements its use case runs: the
    panel (a stale one raises NotAllowedNow), what the outcome changed (:func:`settling`),
    the undo step and the open views the change touched (:func:`touching`)."""
    panel, before = loaded.row, loaded.table
    system = registry.find(campaign.system)
    if not (yield save_statement(panel.id, panel.version, dict(outcome.state), outcome.closed)):
        raise NotAllowedNow(STALE)
    table = yield from settling(registry, campaign, before, loaded.member_ids, outcome)
    step, keep = step_row(  # undo: keep what this press replaced
        system,
        campaign.id,
        actor,
        panel.kind,
        action,
        rolled,
        before=before,
        outcome=outcome,
        member_ids=loaded.member_ids,
        campaign_version_after=campaign.version,
        panel=PanelBefore(panel.id, panel.state, panel.closed, panel.version + 1, panel.text),
    )
    pruning = pruned(campaign.id, (yield keep))
    if pruning is not None:
        yield pruning
    view = replace(loaded.campaign, state=campaign.state, version=campaign.version)
    touched = touching(registry, campaign.system, view, before, table, acting=panel.id)
    redraw, retired, others = yield from touched  # it reads the undo offers first
    private = panel.chat_tg_id != campaign.chat_tg_id  # a player's own panel, in private
    games = read_games((yield games_of(panel.chat_tg_id))) if private else 0
    return Saved(table, step, view, redraw, retired, others, games)


async def _head(panel_id: int, version: int, update_id: int | None) -> PanelHead:
    """The panel's campaign, read without a lock, when the button can still be pressed.

    Raises:
        AlreadyHandled: this very press was applied (say nothing).
        NotAllowedNow: the button is out of date, or its game ended.
    """
    async with guarded():
        head = await panel_head(panel_id)
        if head is None or head.closed or head.version != version:
            if await update_done(update_id):
                raise AlreadyHandled()
            if head is not None and await _has_ended(head.campaign_id):
                raise NotAllowedNow(GAME_ENDED)  # an ended game's old button
            raise NotAllowedNow(STALE)
    return head


def _pressable(loaded: LoadedPanel, campaign_id: int, version: int) -> tuple[PanelRow, CampaignRow]:
    """Under the campaign's lock: the panel and campaign a press at ``version`` acts on.

    Raises:
        _OtherCampaign: the panel id names another campaign's panel now.
        NotAllowedNow: the button is out of date, or its game ended.
    """
    panel, campaign = loaded.row, loaded.stored
    if panel.campaign_id != campaign_id:
        raise _OtherCampaign()  # rolls back the update's claim too
    if panel.closed or panel.version != version:
        if campaign.status is CampaignStatus.ARCHIVED:
            raise NotAllowedNow(GAME_ENDED)  # an ended game's old button
        raise NotAllowedNow(STALE)
    return panel, campaign


async def _has_ended(campaign_id: int) -> bool:
    return await Campaign.filter(id=campaign_id, status=CampaignStatus.ARCHIVED).exists()


async def _topic_closed(campaign: object) -> bool:
    """Whether the game waits because its forum topic was closed (not a host's pause)."""
    topic = int(getattr(campaign, "topic_id", 0) or 0)
    chat = int(getattr(campaign, "chat_tg_id", 0) or 0)
    if not topic or not chat:
        return False
    return await ForumTopic.filter(chat_tg_id=chat, thread_id=topic, paused_game=True).exists()
