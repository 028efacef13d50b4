"""Sending the reminders that fell due: which are due now (claimed for one worker), what
each one is about, and what became of it once Telegram answered.

A claimed reminder (:func:`core.store.reminders.claim_due`) is read into a
:class:`Reminder`: the game and its chat, the player, whether it is the private reminder
or the line in the group, and what the table waits on them for (the open panel that
waits on them, with its message, or their turn). The edge words and sends it, then
reports back: :meth:`Reminding.reminded` (sent: the private one becomes the group line a
wait later, the group line ends the wait), :meth:`Reminding.unreachable` (the player
can't be written to in private: the group line is due at once) or
:meth:`Reminding.give_back` (a passing fault: due again for any worker).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from core.campaigns.base import CampaignsBase, built
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.topics import topic_name
from core.campaigns.views import NO_GAME
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.reminders import Stage
from core.store import outbox, reminders
from core.store.models import Campaign, CampaignStatus, Chat, ChatKind, Panel, Player
from core.store.reminders import Claimed
from core.store.repo import guarded
from core.store.unit import UnitOfWork


@dataclass(frozen=True)
class Reminder:
    """One due reminder, as the edge words it.

    Attributes:
        in_group: the line in the game's chat (else the private message).
        kind: the kind of the open panel waiting on the player ("" when it is only
            their turn); ``panel_chat`` and ``message_id`` say where its message is
            (0: none sent yet).
        language: the player's (private) or the game's (the group line).
        chat_title: the game's chat's own title; ``topic_name`` its forum topic's name
            (``#5`` when Telegram never told it; "" outside a topic).
    """

    claimed: Claimed
    player: int
    name: str
    system: str
    chat_tg_id: int
    chat_title: str
    topic_id: int
    in_group: bool
    kind: str
    panel_chat: int
    message_id: int
    language: str
    game_language: str
    supergroup: bool = False  # the game's chat (its messages have t.me links)
    topic_name: str = ""


class Reminding(CampaignsBase):
    """The reminders due now, read for sending, and what became of them."""

    async def due(self, worker: str = outbox.WORKER, limit: int = 50) -> list[Reminder]:
        """Claim the reminders due now for ``worker`` and read each; one whose game or
        player is gone meanwhile is dropped."""
        async with guarded():
            claimed = await reminders.claim_due(self._now(), worker=worker, limit=limit)
            found: list[Reminder] = []
            for c in claimed:
                read = await self._read(c)
                if read is None:
                    await reminders.cancel(c.campaign_id, c.due.player)
                else:
                    found.append(read)
            return found

    async def _read(self, claimed: Claimed) -> Reminder | None:
        campaign = await Campaign.get_or_none(id=claimed.campaign_id)
        if campaign is None or campaign.status is not CampaignStatus.ACTIVE:
            return None
        view, table, _ = await built(self.registry, campaign)
        seat = table.seats.get(claimed.due.player)
        player = await Player.get_or_none(tg_id=claimed.due.player)
        if seat is None or player is None or view.chat_tg_id == 0:
            return None
        system = self.registry.find(campaign.system)
        kind, panel_chat, message_id = "", 0, 0
        for row in await Panel.filter(campaign_id=campaign.id, closed=False).order_by("id"):
            if row.kind not in system.panels:
                continue
            try:
                awaited = system.panel(row.kind).waiting(table, row.state).awaited
            except Malformed:
                continue
            if claimed.due.player in awaited:
                kind, panel_chat, message_id = row.kind, row.chat_tg_id, row.message_id or 0
                break
        chat = await Chat.get_or_none(tg_id=view.chat_tg_id)
        topic = ""
        if view.topic_id:
            topic = await topic_name(view.chat_tg_id, view.topic_id) or f"#{view.topic_id}"
        return Reminder(
            claimed,
            claimed.due.player,
            seat.name,
            campaign.system,
            view.chat_tg_id,
            view.chat_title if chat is None else chat.title,
            view.topic_id,
            claimed.due.stage is Stage.GROUP,
            kind,
            panel_chat,
            message_id,
            player.language or "en",
            view.language,
            chat is not None and chat.kind is ChatKind.SUPERGROUP,
            topic,
        )

    async def reminded(self, reminder: Reminder) -> None:
        """Telegram took the reminder: the private one is followed by the group line a
        wait later; the group line ends the wait."""
        async with guarded():
            await reminders.sent(reminder.claimed, self._now())

    async def unreachable(self, reminder: Reminder) -> None:
        """The player can't be written to in private: their group line is due now."""
        async with guarded():
            await reminders.due_in_group(reminder.claimed, self._now())

    async def give_back(self, found: list[Reminder]) -> None:
        """Reminders not sent this time (a passing fault, the group's pace): due again."""
        async with guarded():
            await reminders.release([r.claimed for r in found])


@dataclass(frozen=True)
class NudgeSetting:
    """What ``/nudge`` alone says: the game's wait (None: off) and whether the player
    muted theirs."""

    wait: timedelta | None
    muted: bool


@dataclass(frozen=True)
class QuietSetting:
    """A player's quiet hours: from, to (``22:00``, ``07:00``) on the clock of ``zone``."""

    start: str
    end: str
    zone: str


class NudgeReading(CampaignsBase):
    """The chat's game's reminder setting as one player sees it, and a player's quiet
    hours (kept with their device's time zone; reminders due inside them wait)."""

    async def quiet_hours(self, player: PlayerRef) -> QuietSetting | None:
        async with guarded():
            found = await reminders.quiet_hours_as_set(player.tg_id)
        return None if found is None else QuietSetting(*found)

    async def set_quiet_hours(
        self,
        player: PlayerRef,
        hours: str | None,
        zone: str = "",
        *,
        unit: UnitOfWork | None = None,
    ) -> QuietSetting | None:
        """Keep ``hours`` (``22:00-07:00``) on the clock of ``zone`` (an IANA name such as
        ``Asia/Tokyo``, or an offset such as ``+03:00``), or none (None).

        Raises:
            Malformed: hours or a zone that can't be read; nothing changes.
        """
        async with guarded(), (unit or UnitOfWork()).committing():
            await reminders.set_quiet_hours(player.tg_id, hours, zone[:64])
            found = await reminders.quiet_hours_as_set(player.tg_id)
        return None if found is None else QuietSetting(*found)

    async def nudge_setting(self, chat: ChatRef, player: PlayerRef) -> NudgeSetting:
        """Raises: NotAllowedNow: no game here."""
        async with guarded():
            campaign = await self._live(chat.tg_id, chat.topic)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
            settings = await reminders.settings_of(campaign.id)
        return NudgeSetting(settings.wait, player.tg_id in settings.muted)
