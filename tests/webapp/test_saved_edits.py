"""A Mini App edit tells the player the truth, through the real edit route and Redis locks.

Gaining Momentum from 2: when the save stalls past the lock's lease, nothing is
saved and the player is told to try again, and the retry ends at exactly 3; when
the save committed and only the lock ran out afterwards, the player is told it
worked (3), so there is nothing to retry and nothing is applied twice.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from redis.asyncio import Redis

from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.runtime.locks import TOO_LONG
from core.store.models import Member
from tests.support.bot_api import serve_app
from tests.support.heavy import small_heavy
from tests.support.mini_app import start_game
from tests.support.services import RedisServer
from tests.support.stalls import PausingRedisLock, StallingCampaigns
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

pytestmark = [pytest.mark.db, pytest.mark.redis]

BOT_TOKEN = "123456:saved-edits"
LEASE = 0.3
GROUP = ChatRef(-100321, "supergroup", "The Table")
GM = PlayerRef(501, "Gwen")
BO = PlayerRef(502, "Bo")


class Worker:
    """One worker's Mini App over real locks, with a database that can stall."""

    def __init__(self, origin: str, campaigns: StallingCampaigns, token: str) -> None:
        self.origin, self.campaigns, self.token = origin, campaigns, token
        locks = campaigns.locks
        assert isinstance(locks, PausingRedisLock)
        self.locks = locks

    async def gain_momentum(self) -> tuple[int, dict[str, Any]]:
        user = {"id": BO.tg_id, "first_name": BO.first_name}
        init = make_init_data(BOT_TOKEN, user, int(time.time()) - 5, start_param=self.token)
        async with (
            aiohttp.ClientSession() as http,
            http.post(
                f"{self.origin}/api/c/{self.token}/edit",
                headers={"Authorization": f"tma {init}"},
                json={"action": "momentum.gain", "payload": {}},
            ) as response,
        ):
            return response.status, await response.json()


@pytest.fixture
async def worker(redis_server: RedisServer, db: str) -> AsyncIterator[Worker]:
    redis = Redis.from_url(redis_server.url)
    await redis.flushdb()
    locks = PausingRedisLock(redis, lease_seconds=30, wait_seconds=5)  # set-up is never short
    campaigns = StallingCampaigns(default_registry(), SeededRng(1), locks)
    play = Play(SeededRng(1), locks, time.time)
    token = await start_game(campaigns, play, "threat", GROUP, GM, BO)
    locks.lease_seconds = LEASE  # only the test's own saves run on the short lease
    app = create_app(
        WebDeps(play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=small_heavy())
    )
    async with serve_app(app) as origin:
        yield Worker(origin, campaigns, token)
    await locks.aclose()


async def momentum() -> int:
    return int((await Member.get(player__tg_id=BO.tg_id, active=True)).sheet["momentum"])


async def test_a_save_stalled_past_the_lease_says_try_again_and_the_retry_ends_at_three(
    worker: Worker,
) -> None:
    assert await momentum() == 2
    worker.campaigns.stalls = [LEASE * 2]  # the database is slow inside the transaction
    status, body = await worker.gain_momentum()
    assert (status, body) == (503, {"error": TOO_LONG})
    assert await momentum() == 2  # nothing was saved, as the player was told
    status, body = await worker.gain_momentum()  # the player tries again
    assert status == 200 and body["ok"] is True
    assert await momentum() == 3


async def test_a_save_committed_before_the_lease_ran_out_is_reported_done(
    worker: Worker,
) -> None:
    worker.locks.before_release = [LEASE * 2]  # the lease runs out after the commit
    status, body = await worker.gain_momentum()
    assert status == 200 and body["ok"] is True  # so the player has no reason to retry
    assert await momentum() == 3
