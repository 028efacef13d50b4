"""An acknowledged update is never lost: workers killed at the worst moments.

Real worker processes on PostgreSQL and Redis. A small proxy kills a worker
(SIGKILL) at an exact point of an exchange, not by chance: as its 200 leaves,
before it answers, or (polling) once getUpdates handed it an update.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest
from aiohttp import web

from tests.support.bot_api import running_fake_api, serve_app
from tests.support.services import PostgresServer, RedisServer
from tests.support.workers import (
    Balancer,
    KillingProxy,
    Worker,
    fresh_database,
    start_worker,
    stop_all,
)
from tgbot.sandbox.fake_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.redis]

GROUP = -100123
ALICE, BO, CHIDI = 1001, 1002, 1003


@dataclass
class Cluster:
    api: FakeBotApi
    api_base: str
    balancer: Balancer
    database: str
    start: Callable[..., Awaitable[Worker]]
    workers: list[Worker]

    async def rows(self, query: str) -> int:
        conn = await asyncpg.connect(self.database)
        try:
            return int(await conn.fetchval(query))
        finally:
            await conn.close()

    def replies(self, marker: str) -> list[dict[str, Any]]:
        return [m for m in self.api.messages(GROUP) if marker in m.get("text", "")]


@pytest.fixture
async def cluster(
    postgres_server: PostgresServer,
    postgres_template: str,
    redis_server: RedisServer,
    tmp_path: Path,
) -> AsyncIterator[Cluster]:
    database = await fresh_database(postgres_server, "i", postgres_template)
    workers: list[Worker] = []
    async with running_fake_api() as (api, base_url, _):

        async def start(name: str, *, api_base: str | None = None, **kwargs: Any) -> Worker:
            worker = await start_worker(
                name,
                api_base=api_base or base_url.removesuffix("/bot"),
                token=api.token,
                database_url=database,
                redis_url=redis_server.url,
                tmp=tmp_path,
                migrate=not workers,
                **kwargs,
            )
            workers.append(worker)
            return worker

        try:
            api_base = base_url.removesuffix("/bot")
            yield Cluster(api, api_base, Balancer(api), database, start, workers)
        finally:
            await stop_all(workers)
            for worker in workers:  # shown by pytest when a test fails
                print(f"--- worker {worker.name} log ---\n{worker.log.read_text()[-4000:]}")


async def test_a_worker_killed_as_its_200_leaves_has_already_handled_the_roll(
    cluster: Cluster,
) -> None:
    a = await cluster.start("a")
    await cluster.api.send_text(ALICE, GROUP, "/roll 3d6")
    (update,) = cluster.balancer.take()
    async with KillingProxy(a, at="answer") as proxy:
        assert await cluster.balancer.post(proxy.origin, update) == 200
    assert proxy.killed.is_set() and a.process.poll() is not None
    # Telegram saw 200 and never sends this update again; the worker comes back.
    b = await cluster.start("a-again")
    reply = await cluster.api.wait_for_message(
        GROUP, lambda m: "Total" in m.get("text", ""), timeout=10
    )
    assert "3d6" in reply["text"]
    assert await cluster.balancer.post(b, update) == 200  # a copy changes nothing
    await asyncio.sleep(0.5)
    assert len(cluster.replies("Total")) == 1
    assert await cluster.rows("SELECT count(*) FROM roll_record") == 1


def data_for(message: dict[str, Any], action: str) -> str:
    rows = message["reply_markup"]["inline_keyboard"]
    return next(
        b["callback_data"]
        for row in rows
        for b in row
        if b.get("callback_data", "").split(":")[3] == action
    )


async def test_a_worker_killed_before_it_answers_a_press_leaves_it_to_the_other(
    cluster: Cluster,
) -> None:
    a, b = await cluster.start("a"), await cluster.start("b")
    api, balancer = cluster.api, cluster.balancer

    async def send(worker: Worker, user: int, text: str) -> dict[str, Any]:
        await api.send_text(user, GROUP, text)
        for update in balancer.take():
            assert await balancer.post(worker, update) == 200
        return await api.wait_for_message(GROUP, timeout=15)

    await send(b, ALICE, "/newgame threat")
    await send(b, BO, "/join")
    await send(b, CHIDI, "/join")
    panel = await send(b, BO, "/roll 3d2t")
    await api.press_button(CHIDI, GROUP, panel["message_id"], data_for(panel, "join"))
    (update,) = balancer.take()
    async with KillingProxy(a, at="request") as proxy:
        assert await balancer.post(proxy.origin, update) == 0  # no answer: Telegram retries
    assert proxy.killed.is_set()
    assert await balancer.post(b, update) == 200  # delivered again, to the other worker
    assert await balancer.post(b, update) == 200  # and once more: nothing changes
    panel = await api.wait_for_message(
        GROUP,
        lambda m: m["message_id"] == panel["message_id"] and "helps" in m["text"],
        timeout=15,
    )
    await asyncio.sleep(0.5)
    assert api.messages(GROUP)[-1]["text"].count("helps") == 1


class BotApiTap:
    """A proxy between a polling worker and the Bot API server that kills the worker on cue.

    ``at="fetched"``: as getUpdates hands the worker an update (before the worker
    sees it). ``at="confirmed"``: as the worker's next getUpdates tells the server
    it is done with the update (the server then forgets it).
    """

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.at: str | None = None
        self.worker: Worker | None = None
        self.killed = asyncio.Event()
        self.http: aiohttp.ClientSession | None = None
        self.refuse = 0  # answer this many getUpdates with 502, as a failing network would

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.forward)
        return app

    def _kill(self) -> None:
        assert self.worker is not None
        os.kill(self.worker.process.pid, signal.SIGKILL)
        self.worker.process.wait(timeout=10)
        self.at = None
        self.killed.set()

    async def forward(self, request: web.Request) -> web.Response:
        assert self.http is not None
        body = await request.read()
        polls = request.path.endswith("/getUpdates")
        if polls and self.refuse:
            self.refuse -= 1
            raise web.HTTPBadGateway()
        if polls and self.at == "confirmed":
            fields = json.loads(body) if body.startswith(b"{") else dict(await request.post())
            if int(str(fields.get("offset", "0"))) > 0:
                # The worker dies the instant its confirmation leaves it; the
                # confirmation still reaches the server, which forgets the update.
                self._kill()
                await self._relay(request, body)
                raise web.HTTPServiceUnavailable()
        status, headers, answer = await self._relay(request, body)
        if polls and self.at == "fetched" and b'"update_id"' in answer:
            self._kill()
        return web.Response(status=status, body=answer, headers=headers)

    async def _relay(self, request: web.Request, body: bytes) -> tuple[int, dict[str, str], bytes]:
        assert self.http is not None
        kept = {"Content-Type": request.headers.get("Content-Type", "")}
        async with self.http.request(
            request.method, f"{self.upstream}{request.path_qs}", data=body, headers=kept
        ) as response:
            answer = await response.read()
            type_ = {"Content-Type": response.headers.get("Content-Type", "application/json")}
            return response.status, type_, answer


@pytest.mark.parametrize("moment", ["fetched", "confirmed"])
async def test_a_polling_worker_killed_with_an_update_in_hand_handles_it_after_restart(
    cluster: Cluster, moment: str
) -> None:
    api = cluster.api
    tap = BotApiTap(cluster.api_base.removesuffix("/sandbox/api"))
    async with serve_app(tap.app()) as tap_origin, aiohttp.ClientSession() as tap.http:
        through_tap = {"api_base": f"{tap_origin}/sandbox/api", "webhook": False}
        first = await cluster.start("poll", **through_tap)
        tap.worker, tap.at = first, moment
        await api.send_text(ALICE, GROUP, "/roll 2d6")
        await asyncio.wait_for(tap.killed.wait(), timeout=15)
        assert first.process.poll() is not None
        await cluster.start("poll-again", **through_tap)
        reply = await api.wait_for_message(
            GROUP, lambda m: "Total" in m.get("text", ""), timeout=15
        )
        assert "2d6" in reply["text"]
        await asyncio.sleep(0.5)
        assert len(cluster.replies("Total")) == 1
        assert await cluster.rows("SELECT count(*) FROM roll_record") == 1


async def test_a_polling_worker_rides_out_a_failing_network(cluster: Cluster) -> None:
    tap = BotApiTap(cluster.api_base.removesuffix("/sandbox/api"))
    async with serve_app(tap.app()) as tap_origin, aiohttp.ClientSession() as tap.http:
        tap.refuse = 4  # from its first getUpdates on
        worker = await cluster.start("poll", api_base=f"{tap_origin}/sandbox/api", webhook=False)
        await cluster.api.send_text(ALICE, GROUP, "/roll 2d6")
        reply = await cluster.api.wait_for_message(
            GROUP, lambda m: "Total" in m.get("text", ""), timeout=30
        )
        assert "2d6" in reply["text"] and tap.refuse == 0
        worker.process.terminate()  # a clean stop confirms what was handled
        assert await asyncio.to_thread(worker.process.wait, 15) == 0
        assert cluster.api.pending_updates() == []
        assert "getUpdates failed" in worker.log.read_text()
