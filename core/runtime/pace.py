"""A group's pace: how many lines the bot may still post in one group this minute,
counted across every worker.

Telegram lets a bot post about 20 messages a minute in one group; the reminders' lines in
a group keep under that (:data:`PER_MINUTE`). :meth:`GroupPace.take` reserves one line
for a group at once, or refuses when the last minute holds as many already: two workers
never both take the last one. :class:`RedisPace` counts for every worker sharing one
Redis (chosen as the locks are: when ``REDIS_URL`` is set); :class:`InProcessPace` for
one process (without Redis the bot runs one worker).

The clock is passed in (seconds), so a test moves time without waiting.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from core.runtime.errors import TryAgain

if TYPE_CHECKING:
    from redis.asyncio import Redis

PER_MINUTE = 20  # Telegram's pace for one group
WINDOW = 60.0  # seconds


class GroupPace(Protocol):
    """Lines reserved per group over the last minute."""

    async def take(self, chat: int) -> bool:
        """Reserve one line in ``chat`` now; False when the last minute holds
        ``per_minute`` already (nothing is reserved then)."""
        ...

    async def aclose(self) -> None: ...


class InProcessPace:
    """The pace as one process counts it."""

    def __init__(self, clock: Callable[[], float], per_minute: int = PER_MINUTE) -> None:
        self.clock = clock
        self.per_minute = per_minute
        self._taken: dict[int, deque[float]] = {}

    async def take(self, chat: int) -> bool:
        now = self.clock()
        times = self._taken.setdefault(chat, deque())
        while times and times[0] <= now - WINDOW:
            times.popleft()
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        return True

    async def aclose(self) -> None:
        self._taken.clear()


# one step in Redis: forget what fell out of the minute, count, reserve if there is room
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3]) * 2))
return 1
"""


class RedisPace:
    """The pace shared by every worker through Redis: a sorted set per group of the
    moments lines were taken, trimmed to the last minute and counted in one script."""

    def __init__(
        self,
        redis: Redis,
        clock: Callable[[], float],
        per_minute: int = PER_MINUTE,
        prefix: str = "stonetable:pace:",
    ) -> None:
        self.clock = clock
        self.per_minute = per_minute
        self._redis = redis
        self._prefix = prefix
        self._take = redis.register_script(_TAKE)

    async def take(self, chat: int) -> bool:
        """Raises: TryAgain: Redis is unreachable (nothing reserved)."""
        from redis.exceptions import RedisError

        line = secrets.token_hex(8)  # each reservation its own member
        args: list[float | str] = [self.clock(), self.per_minute, WINDOW, line]
        try:
            return bool(await self._take(keys=[f"{self._prefix}{chat}"], args=args))
        except RedisError as error:
            raise TryAgain("The game store is unreachable. Try again in a moment.") from error

    async def aclose(self) -> None:
        await self._redis.aclose()
