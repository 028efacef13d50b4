"""Games of a group's own systems: the version a game plays, and its host moving it on.

A game of a group's own system keeps the version it started with (its text is in the
campaign's state, :mod:`core.rules.dicesystem.table`), however often the system is
edited, until its host moves it on to the newest version (``/system use KEY``). Rolls
already made keep the version that rolled them, in the roll history.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.campaigns.base import CampaignsBase
from core.campaigns.own_systems import own_version
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.views import NO_GAME, CampaignView
from core.rules.dicesystem import moved_on, played
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.table import Role
from core.store.models import Campaign, Member
from core.store.repo import guarded
from core.store.unit import UnitOfWork

NOT_HOST = "Only the game's host can move it to another version of its system."
NOT_PLAYED = "The game here doesn't play this group's system “{key}”: /status says what it plays."
ALREADY = "The game here plays the newest version of “{key}” already."


@dataclass(frozen=True)
class VersionMoved:
    """A game moved on to the newest version of the group's system it plays."""

    view: CampaignView
    key: str
    before: int
    after: int


async def playing_older(chat: ChatRef, key: str, version: int) -> int | None:
    """The version of the group's system ``key`` the chat's live game plays, when it is
    older than ``version`` (None: no such game, or it plays that version)."""
    async with guarded():
        rows = await Campaign.filter(live_chat_id=chat.tg_id, topic_id=chat.topic).values("state")
    for row in rows:
        try:
            found = played(row["state"])
        except Malformed:
            continue
        if found.own and found.key == key and found.version < version:
            return found.version
    return None


class OwnGames(CampaignsBase):
    """The version a game of a group's own system plays."""

    async def use_newest(
        self, chat: ChatRef, player: PlayerRef, key: str, *, unit: UnitOfWork
    ) -> VersionMoved:
        """Move the chat's live game of the group's system ``key`` to its newest version.

        Raises:
            NotAllowedNow: no game here, not its host, it plays another system, no such
                system, or it plays the newest version already.
        """
        async with guarded():
            live = await self._live(chat.tg_id, chat.topic)
        if live is None:
            raise NotAllowedNow(NO_GAME)
        newest = await own_version(chat.tg_id, key)
        async with self.saving(unit, live.id):
            campaign = await Campaign.get_or_none(id=live.id, live_chat_id=chat.tg_id)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
            roles = await Member.filter(
                campaign_id=campaign.id, player__tg_id=player.tg_id, active=True
            ).values_list("roles", flat=True)
            if not any(Role.HOST.value in (r or []) for r in roles):
                raise NotAllowedNow(NOT_HOST)
            try:
                playing = played(campaign.state)
            except Malformed:
                raise NotAllowedNow(NOT_PLAYED, key=newest.key) from None
            if not playing.own or playing.key != newest.key:
                raise NotAllowedNow(NOT_PLAYED, key=newest.key)
            if playing.version == newest.version:
                raise NotAllowedNow(ALREADY, key=newest.key)
            state = dict(moved_on(campaign.state, newest.text, newest.version))
            await Campaign.filter(id=campaign.id, version=campaign.version).update(
                state=state, version=campaign.version + 1
            )
            campaign.state, campaign.version = state, campaign.version + 1
            view = await self._view(campaign)
        await self.events.publish(campaign.id)
        return VersionMoved(view, newest.key, playing.version, newest.version)
