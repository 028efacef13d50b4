"""Change notices: in-process delivery, coalescing, and fan-out between processes via Redis."""

from __future__ import annotations

import asyncio

import pytest

from core.runtime.events import InProcessEvents, RedisEvents


async def test_in_process_notices_reach_only_that_campaign() -> None:
    events = InProcessEvents()
    async with events.subscribe(1) as one, events.subscribe(2) as two:
        await events.publish(1)
        assert await one.wait(0.5) is True
        assert await two.wait(0.05) is False
    assert events.subscriber_count(1) == 0


async def test_notices_coalesce_while_unread() -> None:
    events = InProcessEvents()
    async with events.subscribe(7) as sub:
        for _ in range(5):
            await events.publish(7)
        assert await sub.wait(0.1) is True
        assert await sub.wait(0.05) is False


@pytest.mark.redis
async def test_redis_fans_out_between_two_workers(redis_server) -> None:  # type: ignore[no-untyped-def]
    from redis.asyncio import Redis

    workers = [RedisEvents(Redis.from_url(redis_server.url)) for _ in range(2)]
    try:
        for worker in workers:
            await worker.start()
        a, b = workers
        async with a.subscribe(5) as on_a, b.subscribe(5) as on_b, b.subscribe(6) as other:
            loop = asyncio.get_running_loop()
            started = loop.time()
            await a.publish(5)  # published by worker A ...
            assert await on_b.wait(1.0) is True  # ... heard by worker B's page
            assert await on_a.wait(1.0) is True
            assert loop.time() - started < 1.0
            assert await other.wait(0.1) is False
            await b.publish(6)
            assert await other.wait(1.0) is True
    finally:
        for worker in workers:
            await worker.aclose()


async def test_redis_publish_failure_still_reaches_local_pages() -> None:
    class Broken:
        async def publish(self, *args: object) -> None:
            raise ConnectionError("down")

    events = RedisEvents(Broken())  # type: ignore[arg-type]
    async with events.subscribe(3) as sub:
        await events.publish(3)
        assert await sub.wait(0.2) is True
