"""Forum topics: their names, whether they are closed, and a game paused with its topic.

A forum group runs one game per topic. Telegram names a topic only in its service
messages (created, edited), so the names are kept here, per chat and thread, for the
deep links and the Mini App's home page to tell a group's games apart.
"""

from __future__ import annotations

from core.campaigns.base import CampaignsBase, moved_on_at
from core.store import reminders
from core.store.models import Campaign, CampaignStatus, ForumTopic
from core.store.repo import guarded
from core.store.unit import UnitOfWork

GENERAL = 0  # a plain group, or a forum's General topic


async def remember_topic(
    chat_tg_id: int, thread_id: int, *, name: str | None = None, closed: bool | None = None
) -> None:
    """Keep what a topic's service message told (its name, or that it closed/reopened)."""
    changes: dict[str, object] = {}
    if name is not None:
        changes["name"] = name[:128]
    if closed is not None:
        changes["closed"] = closed
        if not closed:
            changes["refused"] = False  # reopened: say it again if posting fails again
    async with guarded():
        row, created = await ForumTopic.get_or_create(
            chat_tg_id=chat_tg_id,
            thread_id=thread_id,
            defaults={"name": str(changes.get("name", "")), **changes},
        )
        if not created and changes:
            await ForumTopic.filter(id=row.id).update(**changes)


async def topic_name(chat_tg_id: int, thread_id: int) -> str:
    """The topic's name as last told, or "" (General, or never seen)."""
    if thread_id == GENERAL:
        return ""
    async with guarded():
        names = await ForumTopic.filter(chat_tg_id=chat_tg_id, thread_id=thread_id).values_list(
            "name", flat=True
        )
    return str(names[0]) if names else ""


async def first_refusal(chat_tg_id: int, thread_id: int) -> bool:
    """Whether this is the first time posting to the topic failed (since it reopened)."""
    async with guarded():
        row, _ = await ForumTopic.get_or_create(
            chat_tg_id=chat_tg_id, thread_id=thread_id, defaults={"name": ""}
        )
        if row.refused:
            return False
        changed = await ForumTopic.filter(id=row.id, refused=False).update(refused=True)
    return bool(changed)


async def pause_with_topic(chat_tg_id: int, thread_id: int, *, paused: bool) -> int | None:
    """Pause the game of a topic that closed (or resume it on reopening).

    Returns the campaign's id when its status changed, else None (no game there, or
    it was already so: a game its host paused stays paused when the topic reopens).
    """
    before, after = (
        (CampaignStatus.ACTIVE, CampaignStatus.PAUSED)
        if paused
        else (CampaignStatus.PAUSED, CampaignStatus.ACTIVE)
    )
    async with guarded():
        row = await Campaign.get_or_none(live_chat_id=chat_tg_id, topic_id=thread_id, status=before)
        topic, _ = await ForumTopic.get_or_create(
            chat_tg_id=chat_tg_id, thread_id=thread_id, defaults={"name": ""}
        )
        if row is None or (not paused and not topic.paused_game):
            return None
        await ForumTopic.filter(id=topic.id).update(paused_game=paused)
        await Campaign.filter(id=row.id).update(status=after, version=row.version + 1)
        if paused:  # nobody is reminded while it waits; reopened, its wait starts anew
            await reminders.stopped(row.id, ended=False)
    return int(row.id)


class TopicChanges(CampaignsBase):
    """A forum topic closed or reopened: the game it holds pauses or goes on."""

    async def with_topic(
        self, chat_tg_id: int, thread_id: int, *, paused: bool, unit: UnitOfWork | None = None
    ) -> int | None:
        """A forum topic closed (its game pauses, its reminders go) or reopened (a game
        it paused goes on, its wait starting now). Returns the campaign's id when its
        status changed (:func:`core.campaigns.topics.pause_with_topic`)."""
        async with guarded(), (unit or UnitOfWork()).committing():
            changed = await pause_with_topic(chat_tg_id, thread_id, paused=paused)
            if changed is not None and not paused:
                await moved_on_at(self.registry, changed, None, self._now())
        return changed
