"""Keyed locks: mutual exclusion per key, wait timeouts and leases, in-process and Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from core.runtime.errors import LockLost, TryAgain
from core.runtime.locks import InProcessKeyedLock, KeyedLock, RedisKeyedLock
from tests.support.services import RedisServer


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def locks(request: pytest.FixtureRequest) -> AsyncIterator[KeyedLock]:
    if request.param == "memory":
        lock: KeyedLock = InProcessKeyedLock(lease_seconds=0.5, wait_seconds=0.3)
    else:
        from redis.asyncio import Redis

        server: RedisServer = request.getfixturevalue("redis_server")
        redis = Redis.from_url(server.url)
        await redis.flushdb()
        lock = RedisKeyedLock(redis, lease_seconds=0.5, wait_seconds=0.3)
    yield lock
    await lock.aclose()


async def test_one_holder_per_key_at_a_time(locks: KeyedLock) -> None:
    inside, most = 0, 0

    async def work() -> None:
        nonlocal inside, most
        async with locks.hold("chat:1"):
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.01)
            inside -= 1

    await asyncio.gather(*(work() for _ in range(5)))
    assert most == 1


async def test_different_keys_do_not_wait_for_each_other(locks: KeyedLock) -> None:
    async with locks.hold("chat:1"), locks.hold("chat:2"):
        pass


async def test_waiting_too_long_says_try_again(locks: KeyedLock) -> None:
    async with locks.hold("chat:1"):
        with pytest.raises(TryAgain):
            async with locks.hold("chat:1"):
                pass


async def test_a_dead_holders_lease_runs_out(locks: KeyedLock) -> None:
    locks.wait_seconds = 2.0
    entered = asyncio.Event()

    async def stuck() -> None:
        async with locks.hold("chat:9"):
            entered.set()
            await asyncio.sleep(1.2)

    task = asyncio.create_task(stuck())
    await entered.wait()
    async with locks.hold("chat:9"):
        pass  # got in after the 0.5 s lease, without the holder letting go
    with pytest.raises(LockLost):
        await task


async def test_redis_going_away_says_try_again(redis_server: RedisServer) -> None:
    from redis.asyncio import Redis

    redis = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    lock = RedisKeyedLock(redis, lease_seconds=1, wait_seconds=0.2)
    with pytest.raises(TryAgain):
        async with lock.hold("chat:1"):
            pass
    await lock.aclose()


async def test_every_later_holder_gets_a_larger_fencing_token(locks: KeyedLock) -> None:
    locks.wait_seconds = 2.0
    tokens: list[int] = []
    for _ in range(3):
        async with locks.hold("chat:5") as lease:
            assert lease.key == "chat:5" and not lease.expired()
            tokens.append(lease.token)
    entered = asyncio.Event()
    stale: list[bool] = []

    async def stuck() -> None:
        async with locks.hold("chat:5") as lease:
            tokens.append(lease.token)
            entered.set()
            await asyncio.sleep(0.8)
            stale.append(lease.expired())

    task = asyncio.create_task(stuck())
    await entered.wait()
    async with locks.hold("chat:5") as later:  # after the stuck holder's 0.5 s lease
        tokens.append(later.token)
    with pytest.raises(LockLost):
        await task
    assert stale == [True]
    assert tokens == sorted(set(tokens))


async def test_a_holders_own_error_is_not_hidden_by_a_lost_lease(locks: KeyedLock) -> None:
    with pytest.raises(ZeroDivisionError):
        async with locks.hold("chat:6"):
            await asyncio.sleep(0.6)  # past the 0.5 s lease
            raise ZeroDivisionError


@pytest.mark.redis
async def test_two_workers_on_one_redis_hand_out_growing_tokens(redis_server: RedisServer) -> None:
    from redis.asyncio import Redis

    workers = [
        RedisKeyedLock(Redis.from_url(redis_server.url), lease_seconds=1, wait_seconds=1)
        for _ in range(2)
    ]
    tokens = []
    for n in range(6):
        async with workers[n % 2].hold("campaign:3") as lease:
            tokens.append(lease.token)
    assert tokens == sorted(set(tokens))
    for worker in workers:
        await worker.aclose()
