"""A group's pace of lines: at most its number a minute, in-process and across workers
sharing one Redis, on a clock the test moves."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from core.runtime.errors import TryAgain
from core.runtime.pace import PER_MINUTE, GroupPace, InProcessPace, RedisPace
from tests.support.services import RedisServer

GROUP, OTHER = -1001234567890, -1009


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def redis_paces(server: RedisServer, clock: Clock, count: int) -> list[RedisPace]:
    """``count`` workers' paces, each with its own connection to one Redis."""
    from redis.asyncio import Redis

    paces = [RedisPace(Redis.from_url(server.url), clock) for _ in range(count)]
    await paces[0]._redis.flushdb()
    return paces


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def pace(request: pytest.FixtureRequest) -> AsyncIterator[tuple[GroupPace, Clock]]:
    clock = Clock()
    if request.param == "memory":
        one: GroupPace = InProcessPace(clock)
    else:
        (one,) = await redis_paces(request.getfixturevalue("redis_server"), clock, 1)
    yield one, clock
    await one.aclose()


async def test_a_group_gets_at_most_its_pace_of_lines_a_minute(
    pace: tuple[GroupPace, Clock],
) -> None:
    group_pace, clock = pace
    for _ in range(PER_MINUTE):
        assert await group_pace.take(GROUP)
        clock.now += 1
    assert not await group_pace.take(GROUP)
    assert await group_pace.take(OTHER)  # another group has its own
    clock.now += 60 - PER_MINUTE  # the first line is a minute old now
    assert await group_pace.take(GROUP)
    assert not await group_pace.take(GROUP)  # the second is not yet


@pytest.mark.redis
async def test_two_workers_share_one_groups_pace(redis_server: RedisServer) -> None:
    clock = Clock()
    a, b = await redis_paces(redis_server, clock, 2)
    taken = await asyncio.gather(*(p.take(GROUP) for _ in range(PER_MINUTE) for p in (a, b)))
    assert taken.count(True) == PER_MINUTE  # never both the last one, however they race
    assert not await a.take(GROUP) and not await b.take(GROUP)
    clock.now += 61
    assert await b.take(GROUP)
    for p in (a, b):
        await p.aclose()


@pytest.mark.redis
async def test_redis_going_away_says_try_again() -> None:
    from redis.asyncio import Redis

    pace = RedisPace(Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2), Clock())
    with pytest.raises(TryAgain):
        await pace.take(GROUP)
    await pace.aclose()
