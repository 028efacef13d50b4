"""Taking a step back: restoring a step's before-images.

Every step taken on a panel or in the Mini App is recorded by
:func:`core.store.undo_steps.record_step` in the same guarded transaction that saves
it (the campaign's state, the touched sheets and the touched panel as they were
before). :class:`Undos` restores them
exactly in one guarded save, once, when the rules (:mod:`core.rules.undo`) allow:
only the step's author, only while it is the campaign's latest step, never after
dice. Versions go up, so buttons drawn before the undo go stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from core.campaigns import Campaigns, CampaignView, Changed, PanelView, Retired
from core.campaigns.base import built, check_playing, check_seated, touching
from core.campaigns.play import PlayerRef
from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.log import LogKind
from core.rules.table import Table
from core.rules.turns import TurnOrder
from core.rules.undo import check_undo, may_undo, taken_back, taken_back_words
from core.runtime.events import CampaignEvents
from core.store import reminders
from core.store.models import Campaign, LogEntry, Member, Panel, UndoStep
from core.store.repo import guarded
from core.store.sql import ran
from core.store.undo_steps import KEPT, MOVED_ON, NO_GAME, STALE, history
from core.store.unit import UnitOfWork


@dataclass(frozen=True)
class TookBack:
    """What an undo did: the campaign as restored, and the open views it touched."""

    campaign: CampaignView
    table: Table
    name: str
    label: str
    redraw: tuple[PanelView, ...]
    retired: tuple[Retired, ...] = ()

    @cached_property
    def changed(self) -> Changed:
        """The undo as a change for the presenter: every view it touched (one value, the
        one whose messages were written to the outbox)."""
        return Changed(self.campaign, self.table, self.redraw, self.retired)


class Undos:
    """The undo use cases, beside the campaign use cases they take back."""

    def __init__(self, campaigns: Campaigns, events: CampaignEvents | None = None) -> None:
        self.campaigns = campaigns
        self.events = events if events is not None else campaigns.events

    async def _recent(self, campaign_id: int) -> list[UndoStep]:
        rows = (
            await UndoStep.filter(campaign_id=campaign_id, undone=False).order_by("-id").limit(KEPT)
        )
        return list(reversed(rows))

    async def last_change(self, campaign_id: int, actor: int) -> tuple[int, str] | None:
        """``actor``'s step they may take back now, if any, as (step id, label), for the
        Mini App's log."""
        async with guarded():
            rows = await self._recent(campaign_id)
        if not rows or not may_undo(history(rows), actor):
            return None
        return rows[-1].id, rows[-1].label

    async def undo_in_chat(
        self,
        chat_tg_id: int,
        actor: PlayerRef,
        *,
        topic: int = 0,
        unit: UnitOfWork | None = None,
    ) -> TookBack:
        """``/undo``: take back the sender's latest step in the game of this chat's topic."""
        async with guarded():
            campaign = await Campaign.get_or_none(live_chat_id=chat_tg_id, topic_id=topic)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        return await self.undo(campaign.id, actor, unit=unit)

    async def undo_panel(
        self, panel_id: int, version: int, actor: PlayerRef, *, unit: UnitOfWork | None = None
    ) -> TookBack:
        """The ``↩ Undo`` button on a panel (drawn at ``version``)."""
        async with guarded():
            panel = await Panel.get_or_none(id=panel_id)
        if panel is None:
            raise NotAllowedNow(STALE)
        return await self.undo(panel.campaign_id, actor, panel=(panel_id, version), unit=unit)

    async def undo(
        self,
        campaign_id: int,
        actor: PlayerRef,
        *,
        panel: tuple[int, int] | None = None,
        step_id: int | None = None,
        unit: UnitOfWork | None = None,
    ) -> TookBack:
        """Take back ``actor``'s latest step of a campaign, exactly once.

        Args:
            panel: the panel and version a ``↩ Undo`` button was drawn for; the
                step must be the one it offered.
            step_id: the step the Mini App's log offered; it must still be the latest.

        Raises:
            NotAllowedNow: nothing to take back, someone acted on top, the dice
                were rolled, the game moved on, or the button is stale.
            NotYourTurn: the button was offered to someone else.
        """
        campaigns = self.campaigns
        unit = unit or UnitOfWork()
        async with campaigns.saving(unit, campaign_id):
            campaign = await Campaign.get(id=campaign_id).select_related("host")
            check_playing(campaign)
            rows = await self._recent(campaign_id)
            latest = rows[-1] if rows else None
            if (
                panel is not None
                and latest is not None
                and latest.actor_tg_id != actor.tg_id
                and (latest.panel_id, latest.panel_version_after) == panel
            ):
                raise NotYourTurn("That's for someone else.")
            step = check_undo(history(rows), actor.tg_id)
            row = rows[-1]
            if panel is not None and (row.panel_id, row.panel_version_after) != panel:
                raise NotAllowedNow(STALE)
            if step_id is not None and row.id != step_id:
                raise NotAllowedNow(STALE)
            if campaign.version != row.campaign_version_after:
                raise NotAllowedNow(MOVED_ON)
            panel_row = None
            if row.panel_id is not None:
                panel_row = await Panel.get_or_none(id=row.panel_id)
                if panel_row is None or panel_row.version != row.panel_version_after:
                    raise NotAllowedNow(MOVED_ON)
            _, after, _ = await built(campaigns.registry, campaign)
            check_seated(after, actor.tg_id)
            version_before = campaign.version
            if row.campaign_state is not None:
                changed = await Campaign.filter(id=campaign_id, version=campaign.version).update(
                    state=row.campaign_state, version=campaign.version + 1
                )
                if changed != 1:
                    raise NotAllowedNow(MOVED_ON)
                campaign.state, campaign.version = dict(row.campaign_state), campaign.version + 1
            if row.turns is not None:  # a /turns or /next: the order as it was
                await _restore_order(campaign_id, row.turns)
            for member_id, sheet in row.sheets.items():
                await Member.filter(id=int(member_id)).update(sheet=sheet)
            if panel_row is not None:
                changed = await Panel.filter(id=panel_row.id, version=panel_row.version).update(
                    state=row.panel_state, closed=row.panel_closed, version=panel_row.version + 1
                )
                if changed != 1:
                    raise NotAllowedNow(MOVED_ON)
            row.undone = True
            await row.save(update_fields=["undone"])
            await self._rebase(rows[:-1], row, version_before, campaign.version)
            view, restored, _ = await built(campaigns.registry, campaign)
            name = next((m.name for m in view.members if m.player_id == actor.tg_id), "player")
            await LogEntry.create(
                campaign_id=campaign_id,
                kind=LogKind.UNDO.value,
                text=taken_back(name, step.label)[:500],
                words=taken_back_words(name[:200], step.label).to_json(),
            )
            # The open views the undo touched, decided as for any change.
            views, retired, _ = await ran(
                touching(
                    campaigns.registry,
                    campaign.system,
                    view,
                    after,
                    restored,
                    acting=None if panel_row is None else panel_row.id,
                    turned=row.turns is not None,  # each open view shows whose turn it is
                )
            )
            redraw = list(views)
            if panel_row is not None:  # it reads as before, its ↩ Undo for the step before too
                redraw.insert(0, await campaigns.panel(panel_row.id))
            back = TookBack(view, restored, name, step.label, tuple(redraw), retired)
            await unit.record(back)  # its reply and the views it redraws, sent after the commit
        await self.events.publish(campaign_id)
        return back

    async def _rebase(
        self, earlier: list[UndoStep], undone: UndoStep, version_was: int, version_now: int
    ) -> None:
        """Move the steps before the undone one on to the versions the undo gave the
        campaign and the panel, where they left them as they are again now, so their
        authors may take them back next.

        Args:
            version_was: the campaign's version just before the undo.
            version_now: its version after.
        """
        back_to = undone.campaign_version_before  # the campaign is as it was then
        panel_back_to = undone.panel_version_before
        panel_now = None if undone.panel_version_after is None else undone.panel_version_after + 1
        for row in earlier:
            fields: list[str] = []
            if version_now != version_was:
                if row.campaign_version_before == row.campaign_version_after == back_to:
                    row.campaign_version_before = version_now
                    fields.append("campaign_version_before")
                if row.campaign_version_after == back_to:
                    row.campaign_version_after = version_now
                    fields.append("campaign_version_after")
            if (
                panel_now is not None
                and row.panel_id == undone.panel_id
                and row.panel_version_after == panel_back_to
            ):
                row.panel_version_after = panel_now
                fields.append("panel_version_after")
            if fields:
                await row.save(update_fields=fields)


async def _restore_order(campaign_id: int, turns: dict[str, Any]) -> None:
    """The turn order as it was before a ``/turns`` or ``/next``, while it is still as that
    step left it.

    Raises:
        NotAllowedNow: the order changed since (a player left).
    """
    now = (await reminders.settings_of(campaign_id)).order
    if (None if now is None else now.to_dict()) != turns.get("after"):
        raise NotAllowedNow(MOVED_ON)
    before = turns.get("before")
    await reminders.set_turn_order(
        campaign_id, None if before is None else TurnOrder.from_dict(before)
    )


@dataclass(frozen=True)
class ViewerUndo:
    """What an undo from the Mini App tells the web side: no campaign state, only what
    was taken back and the open views it touched (they go to the chat, not the page)."""

    label: str
    changed: Changed


async def undo_for_viewer(
    campaigns: Campaigns,
    app_token: str,
    player: PlayerRef,
    step_id: int,
    *,
    unit: UnitOfWork | None = None,
) -> ViewerUndo:
    """The Mini App log's ``↩ Undo``: take back the step it offered to this member.

    Raises:
        NotAllowedNow: not a member, or the step can no longer be taken back.
    """
    view = await campaigns.for_viewer(app_token, player)
    back = await Undos(campaigns).undo(view.id, player, step_id=step_id, unit=unit)
    return ViewerUndo(back.label, back.changed)
