"""Change notices: "campaign N changed", fanned out to open Mini App pages.

A notice carries no data, only the campaign id; a page that hears it fetches
its own fragment again, authorised like any other request, so nothing secret
travels through here. Notices are coalesced: a subscriber that has not yet
read one pending notice is not sent a second.

``InProcessEvents`` serves one process. ``RedisEvents`` publishes on Redis and
runs one listener per process that hands notices to that process's local
subscribers, so a change made by one worker reaches pages held open by another.
Publishing never fails a use case: errors are logged and swallowed (the page
catches up on its next load).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger(__name__)
CHANNEL_PREFIX = "stonetable:campaign:"


class Subscription:
    """Notices for one campaign, read one at a time."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)

    def notify(self) -> None:
        with suppress(asyncio.QueueFull):  # one pending notice is enough
            self._queue.put_nowait(None)

    async def wait(self, timeout: float) -> bool:
        """True when the campaign changed, False when ``timeout`` seconds passed quietly."""
        try:
            await asyncio.wait_for(self._queue.get(), timeout)
        except TimeoutError:
            return False
        return True


class CampaignEvents(Protocol):
    async def publish(self, campaign_id: int) -> None:
        """Tell every open page of ``campaign_id`` that it changed."""
        ...

    def subscribe(self, campaign_id: int) -> AbstractAsyncContextManager[Subscription]:
        """Listen to ``campaign_id`` for as long as the context is open."""
        ...

    async def start(self) -> None: ...

    async def aclose(self) -> None: ...


class InProcessEvents:
    """Notices between the handlers of one process."""

    def __init__(self) -> None:
        self._subscribers: dict[int, set[Subscription]] = {}

    def deliver(self, campaign_id: int) -> None:
        """Hand a notice to this process's subscribers."""
        for subscription in tuple(self._subscribers.get(campaign_id, ())):
            subscription.notify()

    async def publish(self, campaign_id: int) -> None:
        self.deliver(campaign_id)

    @asynccontextmanager
    async def _subscription(self, campaign_id: int) -> AsyncIterator[Subscription]:
        subscription = Subscription()
        self._subscribers.setdefault(campaign_id, set()).add(subscription)
        try:
            yield subscription
        finally:
            subscribers = self._subscribers.get(campaign_id, set())
            subscribers.discard(subscription)
            if not subscribers:
                self._subscribers.pop(campaign_id, None)

    def subscribe(self, campaign_id: int) -> AbstractAsyncContextManager[Subscription]:
        return self._subscription(campaign_id)

    def subscriber_count(self, campaign_id: int) -> int:
        return len(self._subscribers.get(campaign_id, ()))

    async def start(self) -> None:
        return None

    async def aclose(self) -> None:
        self._subscribers.clear()


class RedisEvents:
    """Notices through Redis pub/sub, for several worker processes."""

    def __init__(self, redis: Redis, prefix: str = CHANNEL_PREFIX) -> None:
        self._redis = redis
        self._prefix = prefix
        self._local = InProcessEvents()
        self._pubsub: PubSub | None = None
        self._listener: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def publish(self, campaign_id: int) -> None:
        try:
            await self._redis.publish(f"{self._prefix}{campaign_id}", b"changed")
        except Exception:  # a lost notice must not undo a committed change
            log.warning("Could not publish a change notice", exc_info=True)
            self._local.deliver(campaign_id)

    def subscribe(self, campaign_id: int) -> AbstractAsyncContextManager[Subscription]:
        return self._local.subscribe(campaign_id)

    def subscriber_count(self, campaign_id: int) -> int:
        return self._local.subscriber_count(campaign_id)

    async def start(self) -> None:
        """Start this process's listener (idempotent); returns once it is subscribed."""
        if self._listener is None:
            self._listener = asyncio.create_task(self._listen(), name="stonetable-events")
        await asyncio.wait_for(self._ready.wait(), 10)

    async def _listen(self) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                self._pubsub = pubsub
                await pubsub.psubscribe(f"{self._prefix}*")
                self._ready.set()
                async for message in pubsub.listen():
                    self._dispatch(message)
            except asyncio.CancelledError:
                raise
            except Exception:  # keep listening after a dropped connection
                log.warning("Change notices: Redis listener restarting", exc_info=True)
                await asyncio.sleep(1)

    def _dispatch(self, message: object) -> None:
        if not isinstance(message, dict) or message.get("type") != "pmessage":
            return
        channel = message.get("channel", b"")
        name = channel.decode() if isinstance(channel, bytes) else str(channel)
        suffix = name.removeprefix(self._prefix)
        if suffix.isdigit():
            self._local.deliver(int(suffix))

    async def aclose(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self._listener
            self._listener = None
        if self._pubsub is not None:
            with suppress(Exception):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
            self._pubsub = None
        await self._local.aclose()
