"""Keyed locks: one critical section per key (a chat, a campaign, a roll).

Both implementations take a lease (how long a holder may keep the lock before it
is considered dead) and a wait timeout (how long a caller queues before giving
up with :class:`~core.errors.TryAgain`). ``InProcessKeyedLock`` serves a single
process; ``RedisKeyedLock`` serves several workers sharing one Redis.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from typing import TYPE_CHECKING, Protocol

from core.errors import LockLost, TryAgain

if TYPE_CHECKING:
    from redis.asyncio import Redis


class KeyedLock(Protocol):
    lease_seconds: float
    wait_seconds: float

    def hold(self, key: str) -> AbstractAsyncContextManager[None]:
        """An async context manager that holds the lock for ``key``."""
        ...

    async def aclose(self) -> None: ...


class InProcessKeyedLock:
    """Per-key locks inside one event loop, with a lease and a wait timeout."""

    def __init__(
        self,
        lease_seconds: float = 30.0,
        wait_seconds: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lease_seconds = lease_seconds
        self.wait_seconds = wait_seconds
        self._clock = clock
        self._owners: dict[str, tuple[str, float]] = {}
        self._released: dict[str, asyncio.Event] = {}

    def _try_take(self, key: str, token: str) -> bool:
        owner = self._owners.get(key)
        if owner is not None and owner[1] > self._clock():
            return False
        self._owners[key] = (token, self._clock() + self.lease_seconds)
        return True

    async def _acquire(self, key: str, token: str) -> None:
        deadline = self._clock() + self.wait_seconds
        while not self._try_take(key, token):
            remaining = deadline - self._clock()
            if remaining <= 0:
                raise TryAgain()
            expires = self._owners[key][1] - self._clock()
            event = self._released.setdefault(key, asyncio.Event())
            with suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=max(0.001, min(remaining, expires)))

    def _release(self, key: str, token: str) -> None:
        owner = self._owners.get(key)
        if owner is None or owner[0] != token:
            raise LockLost("That took too long and was cancelled. Please try again.")
        del self._owners[key]
        event = self._released.pop(key, None)
        if event is not None:
            event.set()

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        token = secrets.token_hex(8)
        await self._acquire(key, token)
        try:
            yield
        finally:
            self._release(key, token)

    @property
    def held_keys(self) -> int:
        return len(self._owners)

    async def aclose(self) -> None:
        self._owners.clear()


class RedisKeyedLock:
    """Per-key locks shared by every worker through Redis (SET NX PX + Lua release)."""

    def __init__(
        self,
        redis: Redis,
        lease_seconds: float = 30.0,
        wait_seconds: float = 5.0,
        prefix: str = "stonetable:lock:",
    ) -> None:
        self.lease_seconds = lease_seconds
        self.wait_seconds = wait_seconds
        self._redis = redis
        self._prefix = prefix

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        from redis.exceptions import LockNotOwnedError, RedisError

        lock = self._redis.lock(
            self._prefix + key,
            timeout=self.lease_seconds,
            blocking_timeout=self.wait_seconds,
            sleep=0.01,
        )
        try:
            acquired = await lock.acquire()
        except RedisError as error:
            raise TryAgain("The game store is unreachable. Try again in a moment.") from error
        if not acquired:
            raise TryAgain()
        try:
            yield
        finally:
            try:
                await lock.release()
            except LockNotOwnedError as error:
                raise LockLost("That took too long and was cancelled. Please try again.") from error
            except RedisError:
                pass  # the lease expires by itself

    async def aclose(self) -> None:
        await self._redis.aclose()
