"""Heavy work in worker processes: off the event loop, stopped past its time, one job per
user (in-process, and through a real Redis across two independent workers)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.rules import dice
from core.rules.dice_odds import odds
from core.rules.errors import Malformed
from core.rules.rng import FairRng, SeededRng
from core.rules.roll_stats import expected_mean, expected_means
from core.runtime.errors import OneAtATime, TooHeavy
from core.runtime.heavy import HeavyWork, InProcessTurns, ProcessPool, RedisTurns
from tests.support.services import RedisServer

STOP_SPINNING = "stop"


def spin_until(path: str) -> int:
    """Busy work until ``path`` exists; the pid of the process that did it."""
    while not os.path.exists(path):
        pass
    return os.getpid()


def refuse(count: int) -> None:
    raise Malformed("That's {count} dice; I roll at most {limit} at once.", count=count, limit=9)


@pytest.fixture
async def pool() -> AsyncIterator[ProcessPool]:
    pool = ProcessPool(2, seconds=30)
    yield pool
    await pool.aclose()


async def test_a_heavy_job_runs_in_another_process_while_the_loop_goes_on(
    pool: ProcessPool, tmp_path: Path
) -> None:
    stop = tmp_path / STOP_SPINNING
    heavy = asyncio.create_task(pool.run(spin_until, str(stop)))
    ticks = 0
    while not pool.processes:  # the worker starting
        await asyncio.sleep(0.01)
    for _ in range(200):  # the loop turns while the job spins (it cannot end before the file)
        await asyncio.sleep(0)
        ticks += 1
    roll = dice.roll(dice.parse("2d6+3"), SeededRng(1))  # another chat's roll, meanwhile
    assert 5 <= roll.total <= 15 and ticks == 200 and not heavy.done()
    stop.touch()
    assert await heavy != os.getpid()


async def test_odds_from_a_worker_are_the_same_as_here(pool: ProcessPool) -> None:
    for text in ("2d6+3", "4d6kh3", "1d20+5 adv >= 15", "3d6! >= 12"):
        expression = dice.parse(text)
        assert await pool.run(odds, expression) == odds(expression)


async def test_a_large_roll_in_a_worker_is_a_roll_of_the_expression(pool: ProcessPool) -> None:
    expression = dice.parse("1000d1000r<999")
    result = await pool.run(dice.roll, expression, FairRng())
    assert result.expression == expression and 1000 <= result.total <= 1000 * 1000


async def test_a_rules_refusal_comes_back_as_raised(pool: ProcessPool) -> None:
    with pytest.raises(Malformed) as refused:
        await pool.run(refuse, 12)
    assert refused.value.message_id == "That's {count} dice; I roll at most {limit} at once."
    assert refused.value.values == {"count": 12, "limit": 9}


async def test_a_runaway_job_is_killed_and_the_pool_serves_the_next(tmp_path: Path) -> None:
    pool = ProcessPool(1, seconds=0.5)
    try:
        first = await pool.run(os.getpid)
        with pytest.raises(TooHeavy) as stopped:
            await pool.run(spin_until, str(tmp_path / "never"))
        assert stopped.value.values == {"seconds": 1}
        with pytest.raises(ProcessLookupError):
            os.kill(first, 0)  # the runaway's process is gone, not left busy
        assert await pool.run(os.getpid) not in (first, os.getpid())
        expression = dice.parse("2d6")
        assert await pool.run(odds, expression) == odds(expression)
    finally:
        await pool.aclose()


async def test_a_cancelled_job_leaves_no_answer_for_the_next(
    pool: ProcessPool, tmp_path: Path
) -> None:
    waiting = asyncio.create_task(pool.run(spin_until, str(tmp_path / "never")))
    while not pool.processes:
        await asyncio.sleep(0.01)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    (tmp_path / "now").touch()
    assert await pool.run(spin_until, str(tmp_path / "now")) != os.getpid()


async def test_closing_the_pool_stops_its_processes(tmp_path: Path) -> None:
    pool = ProcessPool(2)
    pids = await asyncio.gather(pool.run(os.getpid), pool.run(os.getpid))
    await pool.aclose()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


# -- one job at a time per user ---------------------------------------------------------------


async def test_one_heavy_job_per_user_in_process(pool: ProcessPool, tmp_path: Path) -> None:
    heavy = HeavyWork(pool, InProcessTurns(wait_seconds=0.2))
    stop = tmp_path / STOP_SPINNING
    first = asyncio.create_task(heavy.run(7, spin_until, str(stop)))
    while not pool.processes:
        await asyncio.sleep(0.01)
    with pytest.raises(OneAtATime):
        await heavy.run(7, os.getpid)  # the same user: refused while the first runs
    assert await heavy.run(8, os.getpid) != os.getpid()  # another user is served
    stop.touch()
    await first
    assert await heavy.run(7, os.getpid) != os.getpid()  # their turn again


async def test_a_job_a_page_can_go_without_is_refused_at_once_while_the_last_runs(
    pool: ProcessPool, tmp_path: Path
) -> None:
    heavy = HeavyWork(pool, InProcessTurns(wait_seconds=600))  # run() would wait that long
    stop = tmp_path / STOP_SPINNING
    first = asyncio.create_task(heavy.run(7, spin_until, str(stop)))
    while not pool.processes:
        await asyncio.sleep(0.01)
    with pytest.raises(OneAtATime):
        await heavy.run_if_free(7, os.getpid)
    assert await heavy.run_if_free(8, os.getpid) != os.getpid()  # another user is served
    stop.touch()
    await first
    assert await heavy.run_if_free(7, os.getpid) != os.getpid()  # free again


async def test_a_page_of_expected_totals_is_one_job_with_the_same_means(
    pool: ProcessPool,
) -> None:
    notations = ("1d575!kl1", "7d100kh3", "4d6kh3", "2x1d6", "banana")
    heavy = HeavyWork(pool, InProcessTurns())
    means = await heavy.run(7, expected_means, notations)
    assert means == {n: expected_mean(n) for n in notations}
    assert means["4d6kh3"] == pytest.approx(15869 / 1296)
    assert means["2x1d6"] == pytest.approx(7.0) and means["banana"] is None


async def test_a_user_waits_briefly_for_their_last_job() -> None:
    turns = InProcessTurns(wait_seconds=5)
    order: list[str] = []

    async def job(name: str) -> None:
        async with turns.hold(7):
            order.append(name)
            await asyncio.sleep(0)
            order.append(name)

    await asyncio.gather(job("a"), job("b"))
    assert order == ["a", "a", "b", "b"]


@pytest.fixture
async def two_workers(redis_server: RedisServer) -> AsyncIterator[tuple[RedisTurns, RedisTurns]]:
    from redis.asyncio import Redis

    first, second = Redis.from_url(redis_server.url), Redis.from_url(redis_server.url)
    await first.flushdb()
    turns = (
        RedisTurns(first, expire_seconds=30, wait_seconds=0.2),
        RedisTurns(second, expire_seconds=30, wait_seconds=0.2),
    )
    yield turns
    for each in turns:
        await each.aclose()


@pytest.mark.redis
async def test_one_heavy_job_per_user_across_workers(
    two_workers: tuple[RedisTurns, RedisTurns],
) -> None:
    one, other = two_workers
    async with one.hold(7):
        with pytest.raises(OneAtATime):
            async with other.hold(7):
                pass
        async with other.hold(8):  # another user, on the other worker
            pass
    async with other.hold(7):  # let go: the other worker serves them now
        with pytest.raises(OneAtATime):
            async with one.hold(7):
                pass


@pytest.mark.redis
async def test_a_dead_workers_turn_expires(redis_server: RedisServer) -> None:
    from redis.asyncio import Redis

    dead = RedisTurns(Redis.from_url(redis_server.url), expire_seconds=0.3, wait_seconds=0)
    alive = RedisTurns(Redis.from_url(redis_server.url), expire_seconds=30, wait_seconds=5)
    held = dead.hold(9)
    await held.__aenter__()  # its worker dies holding the turn: nothing lets it go
    ttl = await alive._redis.pttl("stonetable:heavy:9")
    assert 0 < ttl <= 300
    async with alive.hold(9):  # the key expired by itself
        pass
    await dead.aclose()
    await alive.aclose()


@pytest.mark.redis
async def test_heavy_work_through_redis_refuses_a_second_job(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    from redis.asyncio import Redis

    pools = ProcessPool(1), ProcessPool(1)
    workers = [
        HeavyWork(pool, RedisTurns(Redis.from_url(redis_server.url), 30, wait_seconds=0.2))
        for pool in pools
    ]
    stop = tmp_path / STOP_SPINNING
    try:
        first = asyncio.create_task(workers[0].run(7, spin_until, str(stop)))
        started = time.monotonic()
        while not pools[0].processes and time.monotonic() - started < 30:
            await asyncio.sleep(0.01)
        with pytest.raises(OneAtATime):
            await workers[1].run(7, os.getpid)
        stop.touch()
        await first
        assert await workers[1].run(7, os.getpid) != os.getpid()
    finally:
        for worker in workers:
            await worker.aclose()
