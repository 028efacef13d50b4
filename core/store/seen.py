"""When each player last acted in each game, and the newest log line then."""

from __future__ import annotations

from dataclasses import dataclass

from core.store.models import LogEntry, PlayerSeen


@dataclass(frozen=True)
class LastSeen:
    """A player's last action in a game before this one (seconds since the epoch), and
    the newest log line then."""

    at: float
    log_id: int


async def seen(campaign_id: int, player: int, now: float) -> LastSeen | None:
    """Inside a change's transaction: ``player`` acts in the game at ``now``; returns when
    they acted before (None: never since this was kept)."""
    newest = await LogEntry.filter(campaign_id=campaign_id).order_by("-id").first()
    log_id = 0 if newest is None else newest.id
    row = await PlayerSeen.get_or_none(campaign_id=campaign_id, player_tg_id=player)
    if row is None:
        await PlayerSeen.create(campaign_id=campaign_id, player_tg_id=player, at=now, log_id=log_id)
        return None
    before = LastSeen(row.at, row.log_id)
    row.at, row.log_id = now, log_id
    await row.save(update_fields=["at", "log_id"])
    return before
