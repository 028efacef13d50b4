"""A worker process takes a burst of updates that comes the moment it says it is up.

The HTTP server starts before the bot (the sandbox's Bot API and the Mini App live
on it). A worker that said "healthy" then, and answered 503 to the webhook until the
bot had started, lost a load balancer's first burst (the benchmark's closed loop
stalled on it: nothing was answered, the worker sat idle).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from tests.bench.workers import TOKEN, Game, RecordingApi, press, set_up_games
from tests.support.bot_api import serve_app
from tests.support.services import RedisServer
from tests.support.workers import SECRET, Worker, start_worker

pytestmark = [pytest.mark.e2e, pytest.mark.db]

CHATS = 20
SLOW_CALL = 0.5  # seconds the Bot API takes to answer each description the worker sets


class SlowToStart(RecordingApi):
    """The bench's Bot API, slow to answer the calls a worker makes while starting (as
    under load): the time between the HTTP server starting and the bot taking updates
    grows to a second or more (two languages, a description each)."""

    async def call(self, request: web.Request) -> web.Response:
        if request.match_info["method"].lower() == "setmydescription":
            await asyncio.sleep(SLOW_CALL)
        return await super().call(request)


async def burst(
    api: RecordingApi, worker: Worker, games: list[Game]
) -> tuple[list[int], list[asyncio.Future[float]]]:
    """Every chat presses at once; the webhook's answers, in order, and the edits awaited."""
    loop = asyncio.get_running_loop()
    edits = [api.waiting.setdefault(game.chat, loop.create_future()) for game in games]
    async with aiohttp.ClientSession() as http:

        async def post(n: int, game: Game) -> int:
            async with http.post(
                f"{worker.origin}/telegram/webhook",
                json=press(n, game),
                headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
            ) as response:
                return response.status

        statuses = await asyncio.gather(*(post(n, g) for n, g in enumerate(games, 1)))
    return list(statuses), edits


@pytest.mark.parametrize("ready", [True, False], ids=["once-healthy", "while-starting"])
async def test_a_burst_right_after_start_is_answered(
    request: pytest.FixtureRequest, database_url: str, tmp_path: Path, ready: bool
) -> None:
    """``once-healthy``: the burst comes as soon as /healthz says 200, as a load balancer
    sends it. ``while-starting``: it comes while /healthz still says 503 (Telegram posts
    to the webhook whatever the balancer thinks); the webhook waits for the start."""
    database, redis_url = database_url, None  # SQLite: the in-process lock
    if database.startswith("postgres://"):  # with Redis, as in production
        redis: RedisServer = request.getfixturevalue("redis_server")
        redis_url = redis.url
    games = await set_up_games(database, CHATS)
    api = SlowToStart()
    async with serve_app(api.app()) as api_origin:
        worker = await start_worker(
            "w",
            api_base=api_origin,
            token=TOKEN,
            database_url=database,
            redis_url=redis_url,
            tmp=tmp_path,
            migrate=False,
            rate_limit=False,
            ready=ready,
        )
        try:
            if not ready:
                async with (
                    aiohttp.ClientSession() as http,
                    http.get(f"{worker.origin}/healthz") as health,
                ):
                    assert health.status == 503  # up, but the bot is still starting
            start = time.perf_counter()
            statuses, edits = await burst(api, worker, games)
            assert statuses == [200] * CHATS  # 503: "not yet", though it said it was up
            await asyncio.wait_for(asyncio.gather(*edits), timeout=5)  # every panel edited
            assert time.perf_counter() - start < 5
        finally:
            worker.stop()
            print(f"--- worker log ---\n{worker.log.read_text()[-4000:]}")
