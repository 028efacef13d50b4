"""The guarded save, with real Redis locks and the database under test.

A holder whose lease ran out (a slow database, a paused worker) saves nothing and
is told to try again; a change that committed is reported done whatever happens to
the lock afterwards; two workers racing on one sheet neither lose nor double a change.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from redis.asyncio import Redis

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.rng import SeededRng
from core.runtime.errors import AlreadyHandled, LockLost, TryAgain
from core.runtime.locks import TOO_LONG, InProcessKeyedLock, KeyedLock, Lease, RedisKeyedLock
from core.store.models import LockFence, Member, Panel, ProcessedUpdate
from core.store.unit import UnitOfWork
from tests.support.counter_system import counter_registry
from tests.support.services import RedisServer
from tests.support.stalls import PausingRedisLock, StallingCampaigns

pytestmark = [pytest.mark.db, pytest.mark.redis]

LEASE = 0.3  # seconds: far shorter than the stalls below
GROUP = ChatRef(-100555, "supergroup", "The Table")
HOST = PlayerRef(1, "Hana")
BEN = PlayerRef(2, "Ben")


@pytest.fixture
async def redis_url(redis_server: RedisServer, db: str) -> AsyncIterator[str]:
    """A flushed Redis, next to the migrated database under test."""
    redis = Redis.from_url(redis_server.url)
    await redis.flushdb()
    await redis.aclose()
    yield redis_server.url


def worker(
    redis_url: str,
    *,
    lease: float = LEASE,
    wait: float = 10.0,
    lock_class: type[RedisKeyedLock] = RedisKeyedLock,
) -> StallingCampaigns:
    """One worker's use cases, with its own Redis connection and locks."""
    locks = lock_class(Redis.from_url(redis_url), lease_seconds=lease, wait_seconds=wait)
    return StallingCampaigns(counter_registry(), SeededRng(1), locks)


async def table(campaigns: Campaigns) -> str:
    """A counter game hosted by Hana that Ben joined; its Mini App token."""
    await campaigns.new_game(GROUP, HOST, "counter")
    await Play(SeededRng(1), campaigns.locks, lambda: 0.0).mark_started(BEN)
    await campaigns.join(GROUP, BEN)
    return (await campaigns.require_current(GROUP.tg_id)).app_token


async def tally() -> int:
    """Ben's sheet tally as stored."""
    member = await Member.get(campaign__live_chat_id=GROUP.tg_id, player__tg_id=BEN.tg_id)
    return int(member.sheet.get("tally", 0))


async def test_a_holder_stalled_in_its_transaction_past_the_lease_saves_nothing(
    redis_url: str,
) -> None:
    slow, other = worker(redis_url), worker(redis_url, lease=10)
    token = await table(slow)
    slow.stalls = [LEASE * 3]  # the database stalls after loading, before writing
    stalled = asyncio.create_task(slow.edit(token, BEN, "tally", {}))
    await asyncio.sleep(LEASE * 1.5)
    await other.edit(token, BEN, "tally", {})  # takes the key once the lease ran out
    with pytest.raises(LockLost) as caught:
        await stalled
    assert caught.value.message == TOO_LONG  # "... Please try again.": nothing was saved
    assert await tally() == 1  # the other worker's change, and only it
    retried = await slow.edit(token, BEN, "tally", {})  # the player tries again
    assert retried.table.seats[BEN.tg_id].sheet["tally"] == 2 == await tally()


async def test_a_worker_paused_holding_the_lock_is_fenced_out_by_a_later_holder(
    redis_url: str,
) -> None:
    paused = PausingRedisLock(Redis.from_url(redis_url), lease_seconds=LEASE, wait_seconds=5)
    later = RedisKeyedLock(Redis.from_url(redis_url), lease_seconds=5, wait_seconds=5)
    paused.after_acquire = [LEASE * 2]  # between taking the lock and opening the transaction
    ran: list[str] = []
    tokens: dict[str, int] = {}

    async def change(name: str, locks: KeyedLock) -> None:
        async with UnitOfWork().saving(locks, "campaign:1") as lease:
            tokens[name] = lease.token
            ran.append(name)

    first = asyncio.create_task(change("paused", paused))
    await asyncio.sleep(LEASE * 1.3)
    await change("later", later)
    with pytest.raises(LockLost):
        await first
    assert ran == ["later"]  # the paused holder was refused before its change began
    assert (await LockFence.get(lock_key="campaign:1")).token == tokens["later"]
    await paused.aclose()
    await later.aclose()


async def test_the_fence_keeps_the_largest_token_and_refuses_smaller_ones(db: str) -> None:
    class Given:
        """A lock that hands out the lease it was given (its token chosen by the test)."""

        def __init__(self, token: int) -> None:
            self.lease = Lease("chat:7", token, float("inf"), lambda: 0.0)

        @asynccontextmanager
        async def hold(self, key: str) -> AsyncIterator[Lease]:
            yield self.lease

    for token in (10, 10, 11):  # the same holder again, then a later one
        async with UnitOfWork().saving(Given(token), "chat:7"):  # type: ignore[arg-type]
            pass
    with pytest.raises(LockLost):
        async with UnitOfWork().saving(Given(9), "chat:7"):  # type: ignore[arg-type]
            pass
    assert (await LockFence.get(lock_key="chat:7")).token == 11


async def test_a_change_committed_before_the_lease_ran_out_is_reported_done(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    campaigns = worker(redis_url, lock_class=PausingRedisLock)
    locks = campaigns.locks
    assert isinstance(locks, PausingRedisLock)
    token = await table(campaigns)
    locks.before_release = [LEASE * 2]  # committed; the lease runs out before the release
    with caplog.at_level(logging.WARNING, logger="core.store.unit"):
        changed = await campaigns.edit(token, BEN, "tally", {})
    assert changed.table.seats[BEN.tg_id].sheet["tally"] == 1 == await tally()
    assert "the change stands" in caplog.text

    # A button press from Telegram, the same way: done once, and its copy changes nothing.
    panel = await campaigns.open_panel(GROUP, HOST, "count", "5", unit=UnitOfWork(700))
    locks.before_release = [LEASE * 2]
    pressed = await campaigns.act(panel.id, panel.version, HOST, "inc", unit=UnitOfWork(701))
    assert pressed.state["value"] == 1
    with pytest.raises(AlreadyHandled):
        await campaigns.act(panel.id, panel.version, HOST, "inc", unit=UnitOfWork(701))
    assert (await Panel.get(id=panel.id)).state["value"] == 1
    assert await ProcessedUpdate.filter(update_id__in=[700, 701]).count() == 2
    await locks.aclose()


async def test_two_workers_racing_on_one_sheet_neither_lose_nor_double_a_change(
    redis_url: str,
) -> None:
    workers = [worker(redis_url, lease=0.2), worker(redis_url, lease=0.2)]
    token = await table(workers[0])
    stalls = random.Random(7)
    for each in workers:  # most saves are quick; some stall past the lease
        each.stalls = [stalls.choice([0, 0, 0, 0.02, 0.35]) for _ in range(12)]
    outcomes: list[str] = []

    async def tally_once(campaigns: Campaigns) -> None:
        try:
            await campaigns.edit(token, BEN, "tally", {})
            outcomes.append("done")
        except TryAgain:  # LockLost or a busy lock: nothing was saved
            outcomes.append("try again")

    await asyncio.gather(*(tally_once(w) for w in workers for _ in range(12)))
    done = outcomes.count("done")
    assert await tally() == done  # every change reported done is there, exactly once
    assert done >= 1 and outcomes.count("try again") >= 1
    for each in workers:
        await each.locks.aclose()


async def test_in_process_locks_fence_a_stalled_holder_too(db: str) -> None:
    campaigns = StallingCampaigns(
        counter_registry(), SeededRng(1), InProcessKeyedLock(lease_seconds=LEASE, wait_seconds=5)
    )
    token = await table(campaigns)
    campaigns.stalls = [LEASE * 2]
    with pytest.raises(LockLost):
        await campaigns.edit(token, BEN, "tally", {})
    assert await tally() == 0
    await campaigns.edit(token, BEN, "tally", {})
    assert await tally() == 1
