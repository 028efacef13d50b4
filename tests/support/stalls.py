"""Test-only stalls: a database that is slow inside a transaction, a worker that pauses
while it holds a lock, a lock released late. Production code has no hooks for them;
these subclasses add the pauses around the real code paths.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from core.campaigns import Campaigns
from core.campaigns.edits import Edits
from core.campaigns.views import Changed
from core.runtime.locks import Lease, RedisKeyedLock


class StallingEdits(Edits):
    """Mini App edits whose next saves stall inside their transaction (under the lock,
    before reading and writing) for the given seconds, one entry per save."""

    stalls: list[float]

    async def _edit(self, *args: Any, **kwargs: Any) -> Changed:
        if self.stalls:
            await asyncio.sleep(self.stalls.pop(0))
        return await super()._edit(*args, **kwargs)


class StallingCampaigns(Campaigns):
    """Campaigns whose next Mini App edits stall inside their transaction (after loading,
    before writing) for the given seconds, one entry per save, as a slow database would."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        edits = StallingEdits(self.registry, self.rng, self.locks, self.events, clock=self.clock)
        edits.stalls = []
        self.stalling, self.edits, self.edit = edits, edits, edits.edit

    @property
    def stalls(self) -> list[float]:
        return self.stalling.stalls

    @stalls.setter
    def stalls(self, seconds: list[float]) -> None:
        self.stalling.stalls = seconds


class PausingRedisLock(RedisKeyedLock):
    """Redis locks whose holder pauses right after taking the lock (before its
    transaction) or right before letting go (after its commit), one entry per holding."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.after_acquire: list[float] = []
        self.before_release: list[float] = []

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[Lease]:
        async with super().hold(key) as lease:
            if self.after_acquire:
                await asyncio.sleep(self.after_acquire.pop(0))
            yield lease
            if self.before_release:
                await asyncio.sleep(self.before_release.pop(0))
