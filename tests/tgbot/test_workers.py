"""Two worker processes on PostgreSQL and Redis: a killed worker loses nothing."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests.support.bot_api import running_fake_api
from tests.support.services import PostgresServer, RedisServer
from tests.support.workers import Balancer, Worker, start_worker, stop_all
from tgbot.sandbox.fake_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.redis]

GROUP = -100123
ALICE, BO, CHIDI = 1001, 1002, 1003


async def fresh_database(server: PostgresServer, template: str) -> str:
    """A copy of the migrated template (the first worker still runs the migrations)."""
    name = f"w_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(server.url())
    await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    await conn.close()
    return server.url(name)


@pytest.fixture
async def cluster(
    postgres_server: PostgresServer,
    postgres_template: str,
    redis_server: RedisServer,
    tmp_path: Path,
) -> AsyncIterator[tuple[FakeBotApi, Balancer, Worker, Worker]]:
    database = await fresh_database(postgres_server, postgres_template)
    async with running_fake_api() as (api, base_url, _):
        common: dict[str, Any] = {
            "api_base": base_url.removesuffix("/bot"),
            "token": api.token,
            "database_url": database,
            "redis_url": redis_server.url,
            "tmp": tmp_path,
        }
        first = await start_worker("a", migrate=True, **common)
        second = await start_worker("b", migrate=False, **common)
        try:
            yield api, Balancer(api), first, second
        finally:
            await stop_all([first, second])
            for worker in (first, second):  # shown by pytest when a test fails
                print(f"--- worker {worker.name} log ---\n{worker.log.read_text()[-4000:]}")


async def send(
    api: FakeBotApi, balancer: Balancer, worker: Worker, user: int, text: str
) -> dict[str, Any]:
    await api.send_text(user, GROUP, text)
    for update in balancer.take():
        assert await balancer.post(worker, update) == 200
    return await api.wait_for_message(GROUP, timeout=15)


def data_for(message: dict[str, Any], action: str) -> str:
    rows = message["reply_markup"]["inline_keyboard"]
    return next(
        b["callback_data"]
        for row in rows
        for b in row
        if b.get("callback_data", "").split(":")[3] == action
    )


async def test_a_worker_killed_mid_roll_loses_nothing_and_the_other_carries_on(
    cluster: tuple[FakeBotApi, Balancer, Worker, Worker],
) -> None:
    api, balancer, a, b = cluster
    assert "started a game" in (await send(api, balancer, a, ALICE, "/newgame threat"))["text"]
    assert "joined" in (await send(api, balancer, b, BO, "/join"))["text"]
    assert "joined" in (await send(api, balancer, a, CHIDI, "/join"))["text"]
    panel = await send(api, balancer, b, BO, "/roll 3d2t")
    join = data_for(panel, "join")

    await api.press_button(CHIDI, GROUP, panel["message_id"], join)
    (update,) = balancer.take()
    delivery = asyncio.create_task(balancer.post(a, update))
    await asyncio.sleep(0.05)
    a.kill()  # in the middle of handling the press, or just after
    if await delivery != 200:  # as Telegram: again, elsewhere, only when no 200 came
        assert await balancer.post(b, update) == 200
    assert await balancer.post(b, update) == 200  # a late copy changes nothing
    panel = await api.wait_for_message(
        GROUP,
        lambda m: m["message_id"] == panel["message_id"] and "helps" in m["text"],
        timeout=15,
    )
    assert panel["text"].count("helps") == 1

    roll = data_for(panel, "roll")
    for _ in range(2):  # a double tap, both delivered at once
        await api.press_button(BO, GROUP, panel["message_id"], roll)
    first, second = balancer.take()
    statuses = await asyncio.gather(balancer.post(b, first), balancer.post(b, second))
    assert statuses == [200, 200]
    done = await api.wait_for_message(
        GROUP,
        lambda m: (
            m["message_id"] == panel["message_id"] and "roll" not in str(m.get("reply_markup"))
        ),
        timeout=15,
    )
    assert done["text"]
    await asyncio.sleep(0.5)
    alerts = api.alerts_for(BO)
    assert any("out of date" in (a_.get("text") or "") for a_ in alerts)


async def test_two_workers_share_the_load_and_see_each_others_games(
    cluster: tuple[FakeBotApi, Balancer, Worker, Worker],
) -> None:
    api, balancer, a, b = cluster
    await send(api, balancer, a, ALICE, "/newgame d20")
    status = await send(api, balancer, b, BO, "/status")
    assert "d20" in status["text"].lower() or "check" in status["text"].lower()
