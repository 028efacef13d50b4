"""A campaign's life: a new game, joining and leaving, pausing, ending, resuming."""

from __future__ import annotations

import secrets
from datetime import datetime

from tortoise.exceptions import IntegrityError

from core.campaigns.base import CampaignsBase, built, moved_on_at, touching
from core.campaigns.own_systems import own_version
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.views import (
    JOIN_PREFIX,
    MOVED_ON,
    NO_GAME,
    NOTHING_TO_RESUME,
    RUNNING,
    STALE,
    CampaignView,
    Changed,
    EndedGame,
    JoinResult,
    Resumed,
)
from core.rules.dicesystem import own_game
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.lifecycle import (
    Ended,
    Stage,
    Step,
    check_host,
    check_resume,
    next_stage,
    resumable_until,
)
from core.rules.registry import GameSystem, Registry
from core.rules.said import Said
from core.rules.table import Role, Table
from core.store import reminders
from core.store.models import Campaign, CampaignStatus, Chat, Member, Panel, Player, StoryLink
from core.store.repo import guarded, upsert_chat, upsert_player
from core.store.sql import ran
from core.store.unit import UnitOfWork
from core.words.i18n import pick


class Joining(CampaignsBase):
    """A new game, joining and leaving it."""

    async def new_game(
        self, chat: ChatRef, host: PlayerRef, system_key: str, *, unit: UnitOfWork | None = None
    ) -> CampaignView:
        """Start a campaign of ``system_key`` in a group chat; the host joins it.

        ``system_key`` names the group's own system first (:mod:`core.campaigns.own_systems`:
        the game plays its newest version, kept with the campaign), else the registry's.

        Raises:
            Malformed: unknown system.
            NotAllowedNow: not a group, or a game is already live in this chat.
        """
        system = await self._to_start(chat.tg_id, system_key)
        if chat.kind not in ("group", "supergroup"):
            raise NotAllowedNow("Start a game in a group chat, so everyone can play together.")
        unit = unit or UnitOfWork()
        async with unit.saving(self.locks, f"chat:{chat.tg_id}:{chat.topic}"):
            running = await self._live(chat.tg_id, chat.topic)
            if running is not None:
                raise NotAllowedNow(RUNNING, name=Said(_named(self.registry, running)))
            chat_row = await upsert_chat(chat.tg_id, chat.kind, chat.title)
            host_row = await upsert_player(
                host.tg_id,
                host.first_name,
                host.last_name,
                host.username,
                host.language_code,
            )
            # it speaks the language of the host who starts it (until /language)
            campaign = await _create_campaign(
                chat, chat_row, host_row, system, pick(host.language_code)
            )
            roles = [Role.HOST.value, Role.PLAYER.value]
            if system.campaign.has_game_master:
                roles = [Role.HOST.value, Role.GAME_MASTER.value]
            await Member.create(campaign=campaign, player=host_row, roles=roles)
            await self._seat(campaign, host.tg_id)
            view, table, _ = await built(self.registry, campaign)
            # its wait starts now, as after any change (a new game reminds after 12 hours)
            await moved_on_at(self.registry, campaign.id, (table, campaign.status), self._now())
            await unit.record(view)  # its reply, sent after the commit
            return view

    async def _to_start(self, chat_tg_id: int, key: str) -> GameSystem:
        """The system ``/newgame key`` starts in a chat: the group's own of that key (a
        group's key never equals the library's: :func:`own_systems.create` refuses it),
        else the registry's."""
        if chat_tg_id < 0 and key.strip():
            try:
                found = await own_version(chat_tg_id, key)
            except NotAllowedNow:
                return self.registry.find(key)
            return own_game(found.key, found.text, found.version)
        return self.registry.find(key)

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
        self, chat: ChatRef, player: PlayerRef, *, unit: UnitOfWork | None = None
    ) -> JoinResult:
        """Join the chat's live campaign, or say how to open a private chat first."""
        async with guarded():
            campaign = await self._live(chat.tg_id, chat.topic)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
            row = await upsert_player(
                player.tg_id,
                player.first_name,
                player.last_name,
                player.username,
                player.language_code,
            )
            if not row.started_private:
                view = await self._view(campaign)
                return JoinResult(
                    view,
                    joined=False,
                    already_member=False,
                    start_payload=JOIN_PREFIX + campaign.app_token,
                )
        return await self._add_member(campaign.id, player, unit)

    async def complete_join(
        self, payload: str, player: PlayerRef, *, unit: UnitOfWork | None = None
    ) -> JoinResult:
        """Finish a join that waited for the player's private chat (/start join_...)."""
        if not payload.startswith(JOIN_PREFIX):
            raise Malformed("That start link isn't one of ours.")
        async with guarded():
            campaign = await Campaign.get_or_none(app_token=payload[len(JOIN_PREFIX) :])
            if campaign is None or campaign.live_chat_id is None:
                raise NotAllowedNow("That game has ended, so it can't be joined.")
        return await self._add_member(campaign.id, player, unit)

    async def _add_member(
        self, campaign_id: int, player: PlayerRef, unit: UnitOfWork | None
    ) -> JoinResult:
        unit = unit or UnitOfWork()
        async with self.saving(unit, campaign_id):
            campaign = await Campaign.get(id=campaign_id)
            row = await upsert_player(
                player.tg_id,
                player.first_name,
                player.last_name,
                player.username,
                player.language_code,
            )
            member = await Member.get_or_none(campaign_id=campaign.id, player_id=row.id)
            if member is not None and member.active:
                result = JoinResult(await self._view(campaign), joined=False, already_member=True)
            else:
                if member is None:
                    await Member.create(campaign=campaign, player=row, roles=[Role.PLAYER.value])
                else:
                    await Member.filter(id=member.id).update(active=True)
                await self._seat(campaign, player.tg_id)
                result = JoinResult(await self._view(campaign), joined=True, already_member=False)
            await unit.record(result)  # its replies, sent after the commit
            return result

    async def leave(
        self, chat: ChatRef, player: PlayerRef, *, unit: UnitOfWork | None = None
    ) -> Changed:
        """Leave the chat's campaign (the host hands over or ends it instead).

        The system adjusts the campaign to the member who left (a turn moves on);
        the result names the panel messages that show it.
        """
        async with guarded():
            campaign = await self._live(chat.tg_id, chat.topic)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
        unit = unit or UnitOfWork()
        async with self.saving(unit, campaign.id):
            member = await Member.get_or_none(
                campaign_id=campaign.id, player__tg_id=player.tg_id, active=True
            )
            if member is None:
                raise NotAllowedNow("You're not in this game.")
            if Role.HOST.value in member.roles:
                raise NotAllowedNow("You host this game: end it with /endgame instead.")
            await Member.filter(id=member.id).update(active=False)
            # no reminder, no turn of theirs (the panels then show whose turn it is now)
            turned = await reminders.left(campaign.id, player.tg_id)
            changed = await self._unseat(campaign, player.tg_id, turned=turned)
            await unit.record(changed)  # its reply and redraws, sent after the commit
        await self.events.publish(campaign.id)
        return changed

    async def _unseat(self, campaign: Campaign, player_id: int, *, turned: bool = False) -> Changed:
        """Let the system adjust the campaign state to a member who left."""
        campaign = await Campaign.get(id=campaign.id).select_related("host")
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
        redraw, retired, _ = await ran(
            touching(self.registry, campaign.system, view, before, after, turned=turned)
        )
        return Changed(view, after, redraw, retired)


class Lifecycle(CampaignsBase):
    """A game's stages: pausing, ending, resuming."""

    async def last_ended(self, chat_tg_id: int, topic: int = 0) -> EndedGame | None:
        """The topic's most recently ended campaign, if no game runs there now."""
        async with guarded():
            if await self._live(chat_tg_id, topic) is not None:
                return None
            campaign = (
                await Campaign.filter(
                    chat__tg_id=chat_tg_id, topic_id=topic, status=CampaignStatus.ARCHIVED
                )
                .order_by("-id")
                .select_related("host")
                .first()
            )
            if campaign is None:
                return None
            return EndedGame.of(await self._view(campaign), campaign, self._now())

    async def set_status(
        self,
        chat: ChatRef,
        player: PlayerRef,
        status: CampaignStatus,
        *,
        unit: UnitOfWork | None = None,
    ) -> CampaignView:
        """Pause, resume or end the chat's live campaign at once (host only).

        The bot asks the host to confirm an ending first (``ask_end``, then ``end``);
        an ended campaign comes back with ``resume``.
        """
        return (await self.change_status(chat, player, status, unit=unit)).campaign

    async def change_status(
        self,
        chat: ChatRef,
        player: PlayerRef,
        status: CampaignStatus,
        *,
        unit: UnitOfWork | None = None,
    ) -> Changed:
        """As :meth:`set_status`, with the open views the change touched: a panel that
        offered ``↩ Undo`` is redrawn without it (the step now stands)."""
        async with guarded():
            campaign = await self._live(chat.tg_id, chat.topic)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
        step = {
            CampaignStatus.PAUSED: Step.PAUSE,
            CampaignStatus.ACTIVE: Step.RESUME,
            CampaignStatus.ARCHIVED: Step.END,
        }[status]
        changed = await self._step(campaign.id, chat, player, step, unit=unit)
        if isinstance(changed, EndedGame):  # its retirements were written with it
            async with guarded():
                table, _ = await self._table(await Campaign.get(id=changed.campaign.id))
            return Changed(changed.campaign, table)
        return changed

    async def _step(
        self,
        campaign_id: int,
        chat: ChatRef,
        player: PlayerRef,
        step: Step,
        version: int | None = None,
        *,
        unit: UnitOfWork | None = None,
    ) -> Changed | EndedGame:
        """Move a live campaign to its next stage (with ``version``, only if still at it):
        the ended game and the panels it retired, or the campaign and its redrawn panels
        (a pause or resume makes every step stand), recorded to the outbox with it."""
        unit = unit or UnitOfWork()
        async with self.saving(unit, campaign_id):
            campaign = await _still_at(campaign_id, chat, player, step, version)
            status = CampaignStatus(next_stage(Stage(campaign.status.value), step).value)
            ending = status is CampaignStatus.ARCHIVED
            live = None if ending else campaign.live_chat_id
            ended_at = self._now() if ending else campaign.ended_at
            await Campaign.filter(id=campaign.id).update(
                status=status, live_chat_id=live, ended_at=ended_at, version=campaign.version + 1
            )
            campaign.status, campaign.live_chat_id = status, live
            campaign.ended_at, campaign.version = ended_at, campaign.version + 1
            if status is not CampaignStatus.ACTIVE:  # paused or ended: nobody is reminded
                await reminders.stopped(campaign.id, ended=ending)
            result = await self._stepped(campaign)
            await unit.record(result)  # its reply, redraws and retirements, after the commit
        await self.events.publish(campaign_id)
        return result

    async def _stepped(self, campaign: Campaign) -> Changed | EndedGame:
        """What a step that moved ``campaign`` changed: an ending retires its panels, any
        other step redraws them."""
        view = await self._view(campaign)
        table, _ = await self._table(campaign)
        if campaign.status is CampaignStatus.ARCHIVED:
            ended_at = campaign.ended_at
            assert ended_at is not None
            _, retired, _ = await ran(
                touching(self.registry, campaign.system, view, table, table, ending=True)
            )
            await Panel.filter(campaign_id=campaign.id).update(closed=True)
            shared = await StoryLink.filter(
                campaign_id=campaign.id, withdrawn_at__isnull=True
            ).exists()
            return EndedGame(view, ended_at, resumable_until(ended_at), True, retired, shared)
        redraw, _, _ = await ran(touching(self.registry, campaign.system, view, table, table))
        return Changed(view, table, redraw)

    async def ask_end(self, chat: ChatRef, player: PlayerRef) -> CampaignView:
        """The chat's live campaign, for its host to confirm that it ends.

        Raises:
            NotAllowedNow: no game is running in this chat.
            NotYourTurn: the player is not its host.
        """
        view = await self.require_current(chat.tg_id, chat.topic)
        check_host(Step.END, player.tg_id, view.host_id)
        return view

    async def end(
        self,
        chat: ChatRef,
        player: PlayerRef,
        campaign_id: int,
        version: int,
        *,
        unit: UnitOfWork | None = None,
    ) -> EndedGame:
        """End the campaign the host confirmed, as it was when asked (``version``).

        Everything is kept; ``resume`` brings it back for a while.

        Raises:
            NotAllowedNow: it ended or changed since the question was asked.
            NotYourTurn: the player is not its host.
        """
        ended = await self._step(campaign_id, chat, player, Step.END, version, unit=unit)
        assert isinstance(ended, EndedGame)
        return ended

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
            campaign = await Campaign.get_or_none(id=campaign_id).select_related("host")
            if campaign is None:
                raise NotAllowedNow(STALE)
            check_host(Step.END, player.tg_id, campaign.host.tg_id)
            if (campaign.live_chat_id, campaign.topic_id) != (chat.tg_id, chat.topic):
                raise NotAllowedNow(STALE)
            return await self._view(campaign)

    async def resume(
        self, chat: ChatRef, player: PlayerRef, *, unit: UnitOfWork | None = None
    ) -> Resumed:
        """Resume the chat's paused campaign, or bring back the one that ended last.

        Raises:
            NotAllowedNow: the game is running already, nothing ended here, or it
                ended too long ago.
            NotYourTurn: the player is not its host.
        """
        async with guarded():
            live = await self._live(chat.tg_id, chat.topic)
        if live is not None:
            changed = await self._step(live.id, chat, player, Step.RESUME, unit=unit)
            assert isinstance(changed, Changed)
            return Resumed(
                changed.campaign, came_back=False, redraw=changed.redraw, changed=changed
            )
        ended = await self.last_ended(chat.tg_id, chat.topic)
        if ended is None:
            raise NotAllowedNow(NOTHING_TO_RESUME)
        campaign_id = ended.campaign.id
        unit = unit or UnitOfWork()
        async with unit.saving(self.locks, f"chat:{chat.tg_id}:{chat.topic}"):
            running = await self._live(chat.tg_id, chat.topic)
            if running is not None:
                raise NotAllowedNow(RUNNING, name=Said(_named(self.registry, running)))
            campaign = await Campaign.get(id=campaign_id).select_related("host")
            check_resume(Ended(campaign.host.tg_id, ended.ended_at), player.tg_id, self._now())
            view = await _bring_back(self.registry, campaign, chat, self._now())
            resumed = Resumed(view, came_back=True)
            await unit.record(resumed)  # its reply, sent after the commit
        await self.events.publish(campaign_id)
        return resumed


async def _bring_back(
    registry: Registry, campaign: Campaign, chat: ChatRef, now: datetime
) -> CampaignView:
    """An ended campaign live again in ``chat`` (refused if another game started there),
    its wait starting ``now``; its view."""
    try:
        await Campaign.filter(id=campaign.id, status=CampaignStatus.ARCHIVED).update(
            status=CampaignStatus.ACTIVE, live_chat_id=chat.tg_id, version=campaign.version + 1
        )
    except IntegrityError:
        raise NotAllowedNow("Another game started here meanwhile. See /status.") from None
    campaign.status, campaign.live_chat_id = CampaignStatus.ACTIVE, chat.tg_id
    campaign.version += 1
    view, table, _ = await built(registry, campaign)
    await moved_on_at(registry, campaign.id, (table, campaign.status), now)
    return view


def _named(registry: Registry, campaign: Campaign) -> str:
    """A live game's name, as its group reads it (a group's own system's, from its text)."""
    system = registry.find(campaign.system)
    return system.campaign.shown_system(system, campaign.state, campaign.language).name


async def _create_campaign(
    chat: ChatRef, chat_row: Chat, host_row: Player, system: GameSystem, language: str
) -> Campaign:
    """The campaign's row; a second one live in the chat is refused (as the database does)."""
    try:
        campaign = await Campaign.create(
            chat=chat_row,
            live_chat_id=chat.tg_id,
            topic_id=chat.topic,
            system=system.key,
            host=host_row,
            app_token=secrets.token_urlsafe(16),
            state=dict(system.campaign.new_state()),
            language=language,
        )
    except IntegrityError:
        raise NotAllowedNow(RUNNING, name=Said(system.name)) from None
    await reminders.start_new_game(campaign.id)  # a new game reminds after 12 hours
    return campaign


async def _still_at(
    campaign_id: int, chat: ChatRef, player: PlayerRef, step: Step, version: int | None
) -> Campaign:
    """The campaign, still live in the chat (and at ``version``), the step the host's to take."""
    campaign = await Campaign.get_or_none(id=campaign_id)
    if campaign is None:
        raise NotAllowedNow(STALE)
    await campaign.fetch_related("host")
    check_host(step, player.tg_id, campaign.host.tg_id)
    if (campaign.live_chat_id, campaign.topic_id) != (chat.tg_id, chat.topic):
        raise NotAllowedNow(STALE)  # it ended since it was asked
    if version is not None and campaign.version != version:
        raise NotAllowedNow(MOVED_ON)
    return campaign
