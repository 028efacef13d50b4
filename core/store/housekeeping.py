"""Periodic clean-up, run by one worker at a time under a lock, at most once per interval."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from core.runtime.errors import TryAgain
from core.runtime.locks import KeyedLock
from core.store.models import JobRun, OutboxRow, PendingNote, ProcessedUpdate
from core.store.request_keys import forget_before
from core.store.unit import UnitOfWork

KEEP_UPDATES = timedelta(days=3)  # Telegram stops redelivering long before this
KEEP_NOTES = timedelta(days=30)
# A Mini App page retries an action for minutes at most; a day is plenty.
KEEP_REQUEST_KEYS = timedelta(hours=24)
# outbox rows: kept as long as their update's claim, so a redelivery finds them sent;
# one that could not be sent in that time (Telegram refusing for days) is given up
KEEP_OUTBOX = KEEP_UPDATES


async def run_once(
    name: str,
    every: timedelta,
    locks: KeyedLock,
    clock: Callable[[], float],
    work: Callable[[datetime], Awaitable[None]],
) -> bool:
    """Run ``work`` if no worker ran job ``name`` within ``every``; returns whether it ran."""
    try:
        async with UnitOfWork().saving(locks, f"job:{name}"):
            now = datetime.fromtimestamp(clock(), UTC)
            row = await JobRun.get_or_none(name=name)
            if row is not None and now - row.ran_at < every:
                return False
            await work(now)
            await JobRun.update_or_create(name=name, defaults={"ran_at": now})
            return True
    except TryAgain:
        return False  # another worker holds it, or the store is away: next time


async def tidy(now: datetime) -> None:
    """Forget old update claims, their outbox rows, long-undelivered private notes and
    old request keys."""
    await ProcessedUpdate.filter(created_at__lt=now - KEEP_UPDATES).delete()
    await OutboxRow.filter(created_at__lt=now - KEEP_OUTBOX).delete()
    await PendingNote.filter(created_at__lt=now - KEEP_NOTES).delete()
    await forget_before(now - KEEP_REQUEST_KEYS)
