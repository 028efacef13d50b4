"""The bot's pace: Telegram's flood limits kept with a token bucket per chat.

Telegram takes about 30 messages a second from a bot overall, about one a second in a
private chat (a short burst is fine) and 20 a minute in a group. Every Bot API call
that names a chat takes a token from the overall bucket and from its chat's bucket
(a group's: ``chat_id`` below zero or a ``@channel``; else a private chat's). A bucket
refills at its rate up to its size; a call finding a token in each goes at once, with
no timer and no task: a bot under its limits only counts. A call finding a bucket
empty reserves the next token (the count goes below zero) and sleeps until it is due,
so calls waiting on one chat leave in the order they came, at its rate. Calls that name
no chat (answering a button, reading a file) are not paced.

A call Telegram answers with 429 (``RetryAfter``) is tried again after the time it
named (and a tenth of a second), up to ``max_retries`` times; meanwhile every other
call waits as long, as PTB's own limiter does.

The clock and the sleep are given (``clock``, ``sleep``), so the pacing is tested on a
clock of the test's own, without waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)

JSONDict = dict[str, Any]

OVERALL = (30.0, 30.0)  # tokens a second, bucket size
PRIVATE = (1.0, 5.0)  # a private chat: one a second, a burst of five
GROUP = (20.0 / 60.0, 20.0)  # a group: twenty a minute
KEPT_BUCKETS = 512  # chat buckets kept before the full ones are dropped
RETRY_MARGIN = 0.1  # seconds waited past a 429's retry_after


@dataclass
class Bucket:
    """``tokens`` (below zero: that many reserved by waiting calls) as of ``stamp``."""

    rate: float
    size: float
    tokens: float
    stamp: float

    def take(self, now: float) -> float:
        """Take a token at ``now``: how long to wait until it is due (0: at once)."""
        self.tokens = min(self.size, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        self.tokens -= 1.0
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.stamp) * self.rate >= self.size


class Pace:
    """The buckets (see the module): how long a call to a chat waits, at a given time."""

    def __init__(self) -> None:
        self.overall = Bucket(*OVERALL, tokens=OVERALL[1], stamp=float("-inf"))
        self.chats: dict[int | str, Bucket] = {}

    def wait(self, chat_id: Any, now: float) -> float:
        """Take a token for a call naming ``chat_id`` (None: no chat) at ``now``; the
        seconds it waits before it goes."""
        if chat_id is None:
            return 0.0
        with contextlib.suppress(ValueError, TypeError):
            chat_id = int(chat_id)
        bucket = self.chats.get(chat_id)
        if bucket is None:
            if len(self.chats) >= KEPT_BUCKETS:
                self.chats = {k: b for k, b in self.chats.items() if not b.full(now)}
            group = isinstance(chat_id, str) or chat_id < 0
            rate, size = GROUP if group else PRIVATE
            bucket = self.chats[chat_id] = Bucket(rate, size, size, now)
        return max(bucket.take(now), self.overall.take(now))


class ChatLimiter(BaseRateLimiter[int]):
    """PTB's rate limiter interface over :class:`Pace` (see the module)."""

    def __init__(
        self,
        max_retries: int = 0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.max_retries = max_retries
        self.pace = Pace()
        self.clock = clock
        self.sleep = sleep
        self.paused_until = float("-inf")  # a 429 being waited out holds every call

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        """Run the call when its buckets allow; again after a 429, up to the retries."""
        retries = rate_limit_args or self.max_retries
        wait = self.pace.wait(data.get("chat_id"), self.clock())
        if wait > 0:
            await self.sleep(wait)
        for attempt in range(retries + 1):
            held = self.paused_until - self.clock()
            if held > 0:
                await self.sleep(held)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as error:
                if attempt == retries:
                    log.warning("Telegram still refused %s after %d retries", endpoint, retries)
                    raise
                pause = error.retry_after
                seconds = pause if isinstance(pause, int | float) else pause.total_seconds()
                log.info("Telegram asked to wait %s s before %s", seconds, endpoint)
                self.paused_until = max(self.paused_until, self.clock() + seconds + RETRY_MARGIN)
        raise AssertionError("unreachable")  # the loop returns or raises
