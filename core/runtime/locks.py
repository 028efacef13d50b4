"""Keyed locks: one critical section per key (a chat, a campaign, a job).

Both implementations take a lease (how long a holder may keep the lock before it
is considered dead) and a wait timeout (how long a caller queues before giving
up with :class:`~core.runtime.errors.TryAgain`). ``InProcessKeyedLock`` serves a single
process; ``RedisKeyedLock`` serves several workers sharing one Redis.

Holding a lock gives a :class:`Lease`: its fencing ``token`` grows with every
acquisition of a key (a later holder always has a larger token, even across
workers and restarts: tokens are microseconds of the clock, bumped when two fall
in the same microsecond), and :meth:`Lease.expired` tells its holder that the
lease may have passed to someone else. The store checks both before it commits
(see ``core.store.unit``), so a holder whose lease ran out cannot save anything.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from core.runtime.errors import LockLost, TryAgain

if TYPE_CHECKING:
    from redis.asyncio import Redis

TOO_LONG = "That took too long and was cancelled. Please try again."


@dataclass(frozen=True)
class Lease:
    """One holding of a key's lock."""

    key: str
    token: int  # larger for every later holder of the key
    expires_at: float  # on ``clock``; counted from before the lock was asked for
    clock: Callable[[], float]

    def expired(self) -> bool:
        """Whether the lease may have run out (another holder may have the key now)."""
        return self.clock() >= self.expires_at


class KeyedLock(Protocol):
    lease_seconds: float
    wait_seconds: float

    def hold(self, key: str) -> AbstractAsyncContextManager[Lease]:
        """An async context manager that holds the lock for ``key``.

        Raises:
            TryAgain: the key stayed busy for ``wait_seconds`` (or the lock service is away).
            LockLost: on leaving, the lease had run out and another holder may have come.
        """
        ...

    async def aclose(self) -> None: ...


class _Tokens:
    """Fencing tokens from the wall clock in microseconds, strictly increasing here."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        self._last = max(self._last + 1, time.time_ns() // 1000)
        return self._last


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
        self._tokens = _Tokens()

    def _try_take(self, key: str, owner: str) -> float | None:
        held = self._owners.get(key)
        if held is not None and held[1] > self._clock():
            return None
        expires_at = self._clock() + self.lease_seconds
        self._owners[key] = (owner, expires_at)
        return expires_at

    async def _acquire(self, key: str, owner: str) -> Lease:
        deadline = self._clock() + self.wait_seconds
        while (expires_at := self._try_take(key, owner)) is None:
            remaining = deadline - self._clock()
            if remaining <= 0:
                raise TryAgain()
            expires = self._owners[key][1] - self._clock()
            event = self._released.setdefault(key, asyncio.Event())
            with suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=max(0.001, min(remaining, expires)))
        return Lease(key, self._tokens.next(), expires_at, self._clock)

    def _release(self, key: str, owner: str) -> None:
        held = self._owners.get(key)
        if held is None or held[0] != owner:
            raise LockLost(TOO_LONG)
        del self._owners[key]
        event = self._released.pop(key, None)
        if event is not None:
            event.set()

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[Lease]:
        owner = secrets.token_hex(8)
        lease = await self._acquire(key, owner)
        try:
            yield lease
        except BaseException:
            with suppress(LockLost):  # the holder's own error is the one to tell
                self._release(key, owner)
            raise
        self._release(key, owner)

    @property
    def held_keys(self) -> int:
        return len(self._owners)

    async def aclose(self) -> None:
        self._owners.clear()


# Take the lock if free, and with it the key's next fencing token: Redis's clock in
# microseconds, or one more than the last token given for the key if that is larger.
_ACQUIRE = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 0
end
local now = redis.call('TIME')
local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if token <= last then
  token = last + 1
end
redis.call('SET', KEYS[2], string.format('%d', token), 'PX', ARGV[3])
return token
"""

# Let go only of our own holding.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

TOKEN_MEMORY_MS = 86_400_000  # a key's last token is kept a day; the clock carries on after


class RedisKeyedLock:
    """Per-key locks shared by every worker through Redis (SET NX PX in Lua, compare-and-delete)."""

    def __init__(
        self,
        redis: Redis,
        lease_seconds: float = 30.0,
        wait_seconds: float = 5.0,
        prefix: str = "stonetable:lock:",
        fence_prefix: str = "stonetable:fence:",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lease_seconds = lease_seconds
        self.wait_seconds = wait_seconds
        self._redis = redis
        self._prefix = prefix
        self._fence_prefix = fence_prefix
        self._clock = clock
        self._acquire_script = redis.register_script(_ACQUIRE)
        self._release_script = redis.register_script(_RELEASE)

    async def _acquire(self, key: str, owner: str) -> Lease:
        keys = [self._prefix + key, self._fence_prefix + key]
        args: list[str | int] = [owner, max(1, int(self.lease_seconds * 1000)), TOKEN_MEMORY_MS]
        deadline = self._clock() + self.wait_seconds
        while True:
            asked_at = self._clock()
            token = int(await self._acquire_script(keys=keys, args=args))
            if token:
                return Lease(key, token, asked_at + self.lease_seconds, self._clock)
            if self._clock() >= deadline:
                raise TryAgain()
            await asyncio.sleep(0.01)

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[Lease]:
        from redis.exceptions import RedisError

        owner = secrets.token_hex(8)
        try:
            lease = await self._acquire(key, owner)
        except RedisError as error:
            raise TryAgain("The game store is unreachable. Try again in a moment.") from error
        try:
            yield lease
        except BaseException:
            with suppress(RedisError):  # the holder's own error is the one to tell
                await self._release_script(keys=[self._prefix + key], args=[owner])
            raise
        try:
            released = await self._release_script(keys=[self._prefix + key], args=[owner])
        except RedisError:
            released = 1  # the lease expires by itself
        if not released:
            raise LockLost(TOO_LONG)

    async def aclose(self) -> None:
        await self._redis.aclose()
