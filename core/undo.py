"""Taking a step back: recording each step's before-images, and restoring them.

Every step taken on a panel or in the Mini App is recorded by :func:`record_step`
in the same guarded transaction that saves it (the campaign's state, the touched
sheets and the touched panel as they were before). :class:`Undos` restores them
exactly in one guarded save, once, when the rules (:mod:`core.rules.undo`) allow:
only the step's author, only while it is the campaign's latest step, never after
dice. Versions go up, so buttons drawn before the undo go stale.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from core import outbox
from core.i18n import N_
from core.play import PlayerRef
from core.rules.choice import Choice, Common
from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.registry import GameSystem
from core.rules.table import Json, Outcome, Table
from core.rules.undo import (
    StepTaken,
    check_undo,
    may_undo,
    taken_back,
    taken_back_words,
    undo_choice,
)
from core.store.models import Campaign, LogEntry, Member, Panel, UndoStep
from core.store.repo import guarded
from core.store.sql import dump_json, execute, fetch, now
from core.store.unit import saving

if TYPE_CHECKING:  # core.campaigns records its steps here
    from core.campaigns import Campaigns, CampaignView, Changed, PanelView, Retired
    from core.events import CampaignEvents

OPENED = N_("opening a new panel")  # how an opening step is named (it stands)
KEPT = 8  # steps kept per campaign (a few more may wait for the next pruning)
PRUNE_EVERY = 4
STALE = "That button is out of date. Use the latest message."
MOVED_ON = "The game moved on since your last step, so it stands."
NO_GAME = "No game is running in this chat. Start one with /newgame."


@dataclass(frozen=True)
class PanelBefore:
    """A panel as it was before a step, and its version after it."""

    panel_id: int
    state: Json
    closed: bool
    version_after: int


async def record_step(
    system: GameSystem,
    campaign_id: int,
    actor: int,
    kind: str,
    action: str,
    rolled: bool,
    *,
    before: Table,
    outcome: Outcome,
    member_ids: dict[int, int],
    campaign_version_after: int,
    panel: PanelBefore | None = None,
    opened: bool = False,
) -> StepTaken:
    """Inside a use case's transaction: keep what a step replaced (see the module).

    Args:
        kind: the panel's kind, or "" for a Mini App edit.
        rolled: the step drew on chance (:class:`core.rules.undo.TallyRng`).
        before: the table before the step.
        outcome: what the step did.
        opened: the step opened a panel: it stands (a new procedure has begun on
            top of what came before, so that stands too).
    """
    step = system.undo.step(
        actor, kind, action, rolled, outcome.events, finished=panel is not None and outcome.closed
    )
    if opened:
        step = replace(step, label=OPENED, final=True)
    # a step that stands needs no before-images
    keep = not (step.rolled or step.final or step.revealed)
    changed_campaign = outcome.campaign_state is not None
    sheets = (
        {str(member_ids[p]): dict(before.seats[p].sheet) for p in outcome.sheets} if keep else {}
    )
    rows = await fetch(
        _INSERT,
        (
            campaign_id,
            step.actor,
            step.label[:160],
            step.rolled,
            step.final,
            step.revealed,
            False,
            dump_json(dict(before.state)) if keep and changed_campaign else None,
            # a step that changed the campaign bumped its version once (core.campaigns._settle)
            campaign_version_after - changed_campaign,
            campaign_version_after,
            dump_json(sheets),
            None if panel is None else panel.panel_id,
            None if panel is None or not keep else dump_json(dict(panel.state)),
            False if panel is None else panel.closed,
            None if panel is None else panel.version_after - 1,
            None if panel is None else panel.version_after,
            now(),
        ),
    )
    if int(rows[0]["id"]) % PRUNE_EVERY == 0:  # now and then, so a step costs one statement
        await execute(_PRUNE, (campaign_id, campaign_id, KEPT - 1))
    return step


_INSERT = (
    "INSERT INTO undo_step (campaign_id, actor_tg_id, label, rolled, final, revealed, undone,"
    " campaign_state, campaign_version_before, campaign_version_after, sheets, panel_id,"
    " panel_state, panel_closed, panel_version_before, panel_version_after, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)

# Keep the campaign's newest KEPT steps, in one statement.
_PRUNE = (
    "DELETE FROM undo_step WHERE campaign_id = ? AND id < ("
    "SELECT id FROM undo_step WHERE campaign_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)"
)


def undo_after(step: StepTaken) -> Choice[Common] | None:
    """The ``↩ Undo`` the rules offer on the panel ``step`` was just taken on."""
    return undo_choice((step,))


def _taken(row: UndoStep) -> StepTaken:
    return StepTaken(row.actor_tg_id, row.label, row.rolled, row.final, row.revealed)


def _offer_on(
    latest: UndoStep | None, panel_id: int, version: int, campaign_version: int | None = None
) -> Choice[Common] | None:
    """The rules' ``↩ Undo`` for a panel drawn at ``version``: only where the campaign's
    latest step was taken, as the panel was drawn right after it, and while nothing
    else moved the campaign on (``campaign_version``, when known): shown only while
    pressing it would work."""
    if latest is None or (latest.panel_id, latest.panel_version_after) != (panel_id, version):
        return None
    if campaign_version is not None and latest.campaign_version_after != campaign_version:
        return None
    return undo_choice((_taken(latest),))


async def undo_offer(
    panel_id: int, version: int, campaign_id: int, campaign_version: int | None = None
) -> Choice[Common] | None:
    """As :func:`_offer_on`, reading the campaign's latest step."""
    latest = await UndoStep.filter(campaign_id=campaign_id, undone=False).order_by("-id").first()
    return _offer_on(latest, panel_id, version, campaign_version)


@dataclass(frozen=True)
class Offers:
    """Where a ``↩ Undo`` may show: the campaign's two newest live steps, newest first."""

    steps: tuple[UndoStep, ...]

    @property
    def panels(self) -> frozenset[int]:
        """Panels that offered or now offer a step back: a change redraws them."""
        return frozenset(s.panel_id for s in self.steps if s.panel_id is not None)

    def undo(
        self, panel_id: int, version: int, campaign_version: int | None = None
    ) -> Choice[Common] | None:
        """As :func:`undo_offer`, for a panel drawn at ``version``."""
        latest = self.steps[0] if self.steps else None
        return _offer_on(latest, panel_id, version, campaign_version)


async def offers(campaign_id: int) -> Offers:
    """The campaign's undo offers, in one query (inside a change's transaction)."""
    rows = await UndoStep.filter(campaign_id=campaign_id, undone=False).order_by("-id").limit(2)
    return Offers(tuple(rows))


def _history(rows: list[UndoStep]) -> list[StepTaken]:
    return [_taken(r) for r in rows]


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
        from core.campaigns import Changed

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
        if not rows or not may_undo(_history(rows), actor):
            return None
        return rows[-1].id, rows[-1].label

    async def undo_in_chat(
        self,
        chat_tg_id: int,
        actor: PlayerRef,
        *,
        topic: int = 0,
        update_id: int | None = None,
    ) -> TookBack:
        """``/undo``: take back the sender's latest step in the game of this chat's topic."""
        async with guarded():
            campaign = await Campaign.get_or_none(live_chat_id=chat_tg_id, topic_id=topic)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        return await self.undo(campaign.id, actor, update_id=update_id)

    async def undo_panel(
        self, panel_id: int, version: int, actor: PlayerRef, *, update_id: int | None = None
    ) -> TookBack:
        """The ``↩ Undo`` button on a panel (drawn at ``version``)."""
        async with guarded():
            panel = await Panel.get_or_none(id=panel_id)
        if panel is None:
            raise NotAllowedNow(STALE)
        return await self.undo(
            panel.campaign_id, actor, panel=(panel_id, version), update_id=update_id
        )

    async def undo(
        self,
        campaign_id: int,
        actor: PlayerRef,
        *,
        panel: tuple[int, int] | None = None,
        step_id: int | None = None,
        update_id: int | None = None,
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
        async with saving(campaigns.locks, f"campaign:{campaign_id}", update_id):
            campaign = await Campaign.get(id=campaign_id).select_related("chat", "host")
            campaigns._check_playing(campaign)
            rows = await self._recent(campaign_id)
            latest = rows[-1] if rows else None
            if (
                panel is not None
                and latest is not None
                and latest.actor_tg_id != actor.tg_id
                and (latest.panel_id, latest.panel_version_after) == panel
            ):
                raise NotYourTurn("That's for someone else.")
            step = check_undo(_history(rows), actor.tg_id)
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
            _, after, _ = await campaigns._built(campaign)
            campaigns._check_seated(after, actor.tg_id)
            version_before = campaign.version
            if row.campaign_state is not None:
                changed = await Campaign.filter(id=campaign_id, version=campaign.version).update(
                    state=row.campaign_state, version=campaign.version + 1
                )
                if changed != 1:
                    raise NotAllowedNow(MOVED_ON)
                campaign.state, campaign.version = dict(row.campaign_state), campaign.version + 1
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
            view, restored, _ = await campaigns._built(campaign)
            name = next((m.name for m in view.members if m.player_id == actor.tg_id), "player")
            await LogEntry.create(
                campaign_id=campaign_id,
                kind="undo",
                text=taken_back(name, step.label)[:500],
                words=taken_back_words(name[:200], step.label).to_json(),
            )
            # The open views the undo touched, decided as for any change.
            touched, retired = await campaigns._touched(
                campaign.system,
                view,
                after,
                restored,
                acting=None if panel_row is None else panel_row.id,
            )
            redraw = list(touched)
            if panel_row is not None:  # it reads as before, its ↩ Undo for the step before too
                redraw.insert(0, await campaigns.panel(panel_row.id))
            back = TookBack(view, restored, name, step.label, tuple(redraw), retired)
            await outbox.record(back)  # its reply and the views it redraws, sent after the commit
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


@dataclass(frozen=True)
class ViewerUndo:
    """What an undo from the Mini App tells the web side: no campaign state, only what
    was taken back and the open views it touched (they go to the chat, not the page)."""

    label: str
    changed: Changed


async def undo_for_viewer(
    campaigns: Campaigns, app_token: str, player: PlayerRef, step_id: int
) -> ViewerUndo:
    """The Mini App log's ``↩ Undo``: take back the step it offered to this member.

    Raises:
        NotAllowedNow: not a member, or the step can no longer be taken back.
    """
    view = await campaigns.for_viewer(app_token, player)
    back = await Undos(campaigns).undo(view.id, player, step_id=step_id)
    return ViewerUndo(back.label, back.changed)
