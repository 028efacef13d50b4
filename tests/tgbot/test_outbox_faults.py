"""What was saved always reaches the players: real workers killed at chosen points.

A worker started with ``STONETABLE_PAUSE_AT=<point>`` stops at that point of an
update's handling (core/outbox.py: ``pause_point``) and writes a file; the test then
SIGKILLs it and delivers the update again, as Telegram does when no 200 came. The
points: inside the transaction just before COMMIT, just after COMMIT (the change saved,
nothing sent), and just after Telegram took the first message (not yet marked sent).
Then: every committed roll and press is shown (a new message at most twice, only in
the last case), nothing is applied twice. A proxy in front of PostgreSQL swallows the
answer to a COMMIT: the player still reads the roll, with no dead letter.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests.support.bot_api import running_fake_api
from tests.support.pg_proxy import CommitSwallower
from tests.support.services import PostgresServer, RedisServer
from tests.support.workers import Balancer, Worker, start_worker
from tgbot.sandbox.fake_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.redis]

GROUP = -100123
ALICE, BO, CHIDI = 1001, 1002, 1003


async def fresh_database(server: PostgresServer) -> str:
    name = f"o_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(server.url())
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    return server.url(name)


@dataclass
class Cluster:
    api: FakeBotApi
    balancer: Balancer
    common: dict[str, Any]
    tmp: Path
    workers: list[Worker]

    async def start(self, name: str, *, pause_at: str = "", migrate: bool = False) -> Worker:
        env = {"STONETABLE_PAUSE_AT": pause_at, "STONETABLE_PAUSE_FILE": str(self.paused(name))}
        worker = await start_worker(name, migrate=migrate, env=env, **self.common)
        self.workers.append(worker)
        return worker

    def paused(self, name: str) -> Path:
        return self.tmp / f"{name}.paused"

    async def say(self, worker: Worker, user: int, text: str) -> dict[str, Any]:
        await self.api.send_text(user, GROUP, text)
        for update in self.balancer.take():
            assert await self.balancer.post(worker, update) == 200
        return await self.api.wait_for_message(GROUP, timeout=15)

    async def kill_at_pause(self, worker: Worker, update: dict[str, Any]) -> None:
        """Deliver ``update`` to ``worker``, wait for it to stop at its point, kill it."""
        delivery = asyncio.create_task(self.balancer.post(worker, update))
        for _ in range(200):
            if self.paused(worker.name).exists():
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail(f"{worker.name} never reached its pause point")
        worker.kill()
        assert await delivery == 0  # no 200: Telegram delivers the update again


@asynccontextmanager
async def cluster_on(database: str, redis_url: str | None, tmp: Path) -> AsyncIterator[Cluster]:
    async with running_fake_api() as (api, base_url, _):
        common: dict[str, Any] = {
            "api_base": base_url.removesuffix("/bot"),
            "token": api.token,
            "database_url": database,
            "redis_url": redis_url,
            "tmp": tmp,
        }
        cluster = Cluster(api, Balancer(api), common, tmp, [])
        try:
            yield cluster
        finally:
            for worker in cluster.workers:
                worker.stop()
                print(f"--- worker {worker.name} log ---\n{worker.log.read_text()[-4000:]}")


@pytest.fixture
async def pg(
    postgres_server: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> AsyncIterator[tuple[Cluster, str]]:
    database = await fresh_database(postgres_server)
    async with cluster_on(database, redis_server.url, tmp_path) as cluster:
        yield cluster, database


async def count(database: str, query: str) -> int:
    conn = await asyncpg.connect(database)
    try:
        return int(await conn.fetchval(query))
    finally:
        await conn.close()


def rolls_shown(api: FakeBotApi) -> int:
    return sum(1 for m in api.messages(GROUP) if " rolls " in (m.get("text") or ""))


async def wait_for_rolls(api: FakeBotApi, at_least: int, timeout: float = 15) -> int:
    for _ in range(int(timeout / 0.1)):
        if rolls_shown(api) >= at_least:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)  # and nothing more comes
    return rolls_shown(api)


# (point, times the committed roll is stored, most copies of its message)
ROLL_POINTS = [("before_commit", 1, 1), ("after_commit", 1, 1), ("after_send", 1, 2)]


@pytest.mark.parametrize(("point", "stored", "most"), ROLL_POINTS)
async def test_a_roll_killed_at_a_point_is_shown_after_redelivery(
    pg: tuple[Cluster, str], point: str, stored: int, most: int
) -> None:
    cluster, database = pg
    a = await cluster.start("a", pause_at=point, migrate=True)
    b = await cluster.start("b")
    await cluster.api.send_text(ALICE, GROUP, "/roll 1d6")
    (update,) = cluster.balancer.take()
    await cluster.kill_at_pause(a, update)
    assert await cluster.balancer.post(b, update) == 200  # Telegram, again
    assert await cluster.balancer.post(b, update) == 200  # and a late copy
    shown = await wait_for_rolls(cluster.api, 1)
    assert 1 <= shown <= most
    assert await count(database, "SELECT count(*) FROM roll_record") == stored
    assert await count(database, "SELECT count(*) FROM dead_letter") == 0
    assert await count(database, "SELECT count(*) FROM outbox WHERE NOT sent") == 0


async def test_a_roll_left_by_a_killed_worker_is_sent_by_the_sweeper(
    pg: tuple[Cluster, str],
) -> None:
    cluster, database = pg
    a = await cluster.start("a", pause_at="after_commit", migrate=True)
    await cluster.start("b")
    await cluster.api.send_text(ALICE, GROUP, "/roll 2d6")
    (update,) = cluster.balancer.take()
    await cluster.kill_at_pause(a, update)
    # no redelivery at all: the other worker's sweeper sends it once the lease ran out
    assert await wait_for_rolls(cluster.api, 1, timeout=20) == 1  # ~7 s; a busy machine
    assert await count(database, "SELECT count(*) FROM roll_record") == 1


def data_for(message: dict[str, Any], action: str) -> str:
    rows = message["reply_markup"]["inline_keyboard"]
    return next(
        b["callback_data"]
        for row in rows
        for b in row
        if b.get("callback_data", "").split(":")[3] == action
    )


@pytest.mark.parametrize("point", ["after_commit", "after_send"])
async def test_a_press_killed_at_a_point_is_applied_once_and_shown(
    pg: tuple[Cluster, str], point: str
) -> None:
    cluster, _ = pg
    a = await cluster.start("a", pause_at=point, migrate=True)
    b = await cluster.start("b")
    assert "started a game" in (await cluster.say(b, ALICE, "/newgame threat"))["text"]
    assert "joined" in (await cluster.say(b, BO, "/join"))["text"]
    assert "joined" in (await cluster.say(b, CHIDI, "/join"))["text"]
    panel = await cluster.say(b, BO, "/roll 3d2t")
    api = cluster.api
    await api.press_button(CHIDI, GROUP, panel["message_id"], data_for(panel, "join"))
    (update,) = cluster.balancer.take()
    await cluster.kill_at_pause(a, update)
    assert await cluster.balancer.post(b, update) == 200
    shown = await api.wait_for_message(
        GROUP,
        lambda m: m["message_id"] == panel["message_id"] and "helps" in m["text"],
        timeout=15,
    )
    assert shown["text"].count("helps") == 1  # applied once


@pytest.fixture
async def pg_behind_proxy(
    postgres_server: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> AsyncIterator[tuple[Cluster, str, CommitSwallower]]:
    database = await fresh_database(postgres_server)
    async with CommitSwallower(postgres_server.port) as proxy:
        proxied = database.replace(f":{postgres_server.port}/", f":{proxy.port}/")
        async with cluster_on(proxied, redis_server.url, tmp_path) as cluster:
            yield cluster, database, proxy


async def test_a_roll_whose_commit_answer_is_lost_is_shown_without_a_dead_letter(
    pg_behind_proxy: tuple[Cluster, str, CommitSwallower],
) -> None:
    cluster, database, proxy = pg_behind_proxy
    a = await cluster.start("a", migrate=True)
    await asyncio.sleep(6)  # past the start's one-off jobs (the menus), which commit too
    await cluster.api.send_text(ALICE, GROUP, "/roll 1d6")
    (update,) = cluster.balancer.take()
    proxy.arm()
    assert await cluster.balancer.post(a, update) == 200
    assert proxy.swallowed.is_set()
    assert await wait_for_rolls(cluster.api, 1) == 1  # the result, not "try again"
    assert await count(database, "SELECT count(*) FROM roll_record") == 1
    assert await count(database, "SELECT count(*) FROM dead_letter") == 0
    assert "Traceback" not in a.log.read_text()
    assert await cluster.balancer.post(a, update) == 200  # a redelivery changes nothing
    assert await wait_for_rolls(cluster.api, 1) == 1
    assert await count(database, "SELECT count(*) FROM roll_record") == 1


async def test_on_sqlite_a_roll_killed_after_commit_is_shown_by_the_restarted_worker(
    tmp_path: Path,
) -> None:
    database = f"sqlite://{tmp_path}/game.sqlite3"
    async with cluster_on(database, None, tmp_path) as cluster:
        a = await cluster.start("a", pause_at="after_commit", migrate=True)
        await cluster.api.send_text(ALICE, GROUP, "/roll 1d6")
        (update,) = cluster.balancer.take()
        await cluster.kill_at_pause(a, update)
        again = await cluster.start("a2")  # the same machine, started again
        assert await cluster.balancer.post(again, update) == 200
        assert await wait_for_rolls(cluster.api, 1) == 1
