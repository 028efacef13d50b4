"""While you were away: a player back in a game after a while gets, in private, what
happened since they last acted there, from the log as their own view shows it (the log
is written public, :mod:`core.rules.log`; the Mini App's log page reads it the same way).

A player's last action (their command or press in the game's chat) is kept with the
game (:mod:`core.store.seen`); the digest is made once per return: the return is an
action too, so the next one is no return. The digest is recorded on the unit of work it
is given (its message written to the outbox with the return, in the same transaction),
so it is sent once, as every other message: by its worker after the commit, or by the
sweeper when that worker could not.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.campaigns import Campaigns, CampaignView
from core.campaigns.base import built
from core.store.loader import playing_here
from core.store.models import Campaign, LogEntry
from core.store.repo import guarded
from core.store.seen import seen
from core.store.unit import UnitOfWork
from core.views.projection import LogLineView, line_of

AWAY = 24 * 60 * 60  # seconds: a day away makes a return
SHOWN = 5  # the newest lines a digest shows; the Mini App has the rest


@dataclass(frozen=True)
class Digest:
    """What happened in a game while ``player`` was away: its newest lines, oldest first,
    and how many more came before them."""

    player: int
    campaign: CampaignView
    lines: tuple[LogLineView, ...]
    more: int


async def returning(
    campaigns: Campaigns,
    chat_tg_id: int,
    topic: int,
    player: int,
    *,
    unit: UnitOfWork | None = None,
) -> Digest | None:
    """``player`` acts in the game of this chat's topic: keep when, and if they come back
    after :data:`AWAY` or more to a log that moved on, what happened meanwhile (None
    otherwise, or when there is no game here or they are not in it). The digest is
    recorded on ``unit``, with the return."""
    campaign_id = await playing_here(chat_tg_id, topic, player)  # one read, most often no
    if campaign_id is None:
        return None
    unit = unit or UnitOfWork()
    async with guarded(), unit.committing():  # an outage: TryAgain
        before = await seen(campaign_id, player, campaigns.clock())
        if before is None or campaigns.clock() - before.at < AWAY:
            return None
        since = LogEntry.filter(campaign_id=campaign_id, id__gt=before.log_id)
        count = await since.count()
        if not count:
            return None
        entries = await since.order_by("-id").limit(SHOWN)
        campaign = await Campaign.get(id=campaign_id)
        view, _, _ = await built(campaigns.registry, campaign)
        lines = tuple(line_of(e) for e in reversed(entries))
        digest = Digest(player, view, lines, count - len(lines))
        await unit.record(digest)  # its message, written with the return, sent after it
    return digest
