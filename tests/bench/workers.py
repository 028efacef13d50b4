"""Worker processes on PostgreSQL and Redis under load: action-roll button presses.

The bench sets up threat-dice games in many group chats, starts N real workers
(`python -m tgbot run`, webhook mode) against a minimal local Bot API, and posts
button presses to their webhooks, round robin, as a load balancer would. A
press's latency runs from posting the update until the worker's edit of that
panel reaches the Bot API.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
from aiohttp import web

from core.campaigns import Campaigns
from core.locks import InProcessKeyedLock
from core.play import ChatRef, Play, PlayerRef
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.store.db import close_database, open_database
from tests.support.bot_api import serve_app
from tests.support.services import running_postgres, start_redis
from tests.support.workers import SECRET, Worker, start_worker

TOKEN = "123:bench"


@dataclass
class Game:
    chat: int
    gm: int
    panel: int
    version: int
    level: int = 0


class RecordingApi:
    """Answers every Bot API call; wakes whoever waits for an edit in a chat."""

    def __init__(self) -> None:
        self.waiting: dict[int, asyncio.Future[float]] = {}
        self.counter = 0

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post(f"/bot{TOKEN}/{{method}}", self.call)
        return app

    async def call(self, request: web.Request) -> web.Response:
        method = request.match_info["method"].lower()
        data = await request.post()
        self.counter += 1
        result: Any = True
        if method == "getme":
            result = {"id": 1, "is_bot": True, "first_name": "Bench", "username": "bench_bot"}
        elif method in ("sendmessage", "editmessagetext"):
            chat_id = int(str(data.get("chat_id", "0")))
            result = {
                "message_id": 1,
                "date": int(time.time()),
                "text": "ok",
                "chat": {"id": chat_id, "type": "supergroup", "title": "Bench"},
            }
            if method == "editmessagetext":
                waiter = self.waiting.pop(chat_id, None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(time.perf_counter())
        return web.json_response({"ok": True, "result": result})


def press(update_id: int, game: Game) -> dict[str, Any]:
    data = f"p1:{game.panel}:{game.version}:set_threat:{1 + game.level % 2}"
    return {
        "update_id": update_id,
        "callback_query": {
            "id": str(update_id),
            "chat_instance": str(game.chat),
            "data": data,
            "from": {"id": game.gm, "is_bot": False, "first_name": f"GM{game.gm}"},
            "message": {
                "message_id": 1,
                "date": int(time.time()),
                "text": "panel",
                "chat": {"id": game.chat, "type": "supergroup", "title": "Bench"},
                "from": {"id": 1, "is_bot": True, "first_name": "Bench"},
            },
        },
    }


async def make_games(campaigns: Campaigns, play: Play, chats: int, first: int = 0) -> list[Game]:
    """Threat-dice games in ``chats`` groups, each with a roll panel waiting for its GM."""
    games = []
    for n in range(first, first + chats):
        chat = ChatRef(-2000 - n, "supergroup", f"Bench {n}")
        gm, roller = PlayerRef(20_000 + n, f"GM{n}"), PlayerRef(30_000 + n, f"R{n}")
        await campaigns.new_game(chat, gm, "threat")
        await play.mark_started(roller)
        await campaigns.join(chat, roller)
        panel = await campaigns.open_panel(chat, roller, "threat.roll", "3d2t")
        await campaigns.bind_message(panel.id, 1)
        games.append(Game(chat.tg_id, gm.tg_id, panel.id, panel.version))
    return games


async def set_up_games(database_url: str, chats: int) -> list[Game]:
    await open_database(database_url)
    campaigns = Campaigns(default_registry(), SeededRng(1), InProcessKeyedLock())
    games = await make_games(campaigns, Play(SeededRng(1), campaigns.locks, time.time), chats)
    await close_database()
    return games


class Load:
    def __init__(self, api: RecordingApi, workers: list[Worker], games: list[Game]) -> None:
        self.api, self.workers, self.games = api, workers, games
        self.update_id = 0
        self.latencies: list[float] = []
        self.failures = 0
        self.session: aiohttp.ClientSession | None = None

    async def one(self, game: Game) -> None:
        assert self.session is not None
        self.update_id += 1
        worker = self.workers[self.update_id % len(self.workers)]
        waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.api.waiting[game.chat] = waiter
        start = time.perf_counter()
        async with self.session.post(
            f"{worker.origin}/telegram/webhook",
            json=press(self.update_id, game),
            headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
        ) as response:
            await response.read()
        try:
            done = await asyncio.wait_for(waiter, timeout=10)
        except TimeoutError:
            self.failures += 1
            return
        self.latencies.append((done - start) * 1000)
        game.version += 1
        game.level += 1

    async def closed_loop(self, seconds: float) -> float:
        """Every chat presses again as soon as its panel changed: the most it can do."""
        deadline = time.perf_counter() + seconds

        async def chat_loop(game: Game) -> None:
            while time.perf_counter() < deadline:
                await self.one(game)

        start = time.perf_counter()
        await asyncio.gather(*(chat_loop(g) for g in self.games))
        return len(self.latencies) / (time.perf_counter() - start)

    async def open_loop(self, rate: float, seconds: float) -> float:
        """Presses arrive at a steady rate, spread over the chats."""
        interval = 1 / rate
        tasks = []
        start = time.perf_counter()
        n = 0
        busy: dict[int, asyncio.Task[None]] = {}
        while time.perf_counter() - start < seconds:
            game = self.games[n % len(self.games)]
            n += 1
            previous = busy.get(game.chat)
            if previous is None or previous.done():
                busy[game.chat] = task = asyncio.create_task(self.one(game))
                tasks.append(task)
            await asyncio.sleep(max(0.0, start + n * interval - time.perf_counter()))
        await asyncio.gather(*tasks)
        return len(self.latencies) / (time.perf_counter() - start)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if values else 0.0


async def bench_workers(
    counts: tuple[int, ...],
    chats: int,
    seconds: float,
    rate: float,
    figure: Callable[[str, str, str, str, bool | None], Any],
) -> list[Any]:
    figures = []
    throughput: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp, running_postgres() as pg:
        redis = start_redis(Path(tmp))
        api = RecordingApi()
        try:
            async with serve_app(api.app()) as api_origin:
                for count in counts:
                    name = f"bench_{count}_{int(time.time())}"
                    conn = await asyncpg.connect(pg.url())
                    await conn.execute(f'CREATE DATABASE "{name}"')
                    await conn.close()
                    games = await set_up_games(pg.url(name), chats)
                    workers = [
                        await start_worker(
                            f"w{i}",
                            api_base=api_origin,
                            token=TOKEN,
                            database_url=pg.url(name),
                            redis_url=redis.url,
                            tmp=Path(tmp),
                            migrate=False,
                            rate_limit=False,
                        )
                        for i in range(count)
                    ]
                    try:
                        load = Load(api, workers, games)
                        async with aiohttp.ClientSession() as session:
                            load.session = session
                            rate_max = await load.closed_loop(seconds)
                            closed = list(load.latencies)
                            load.latencies = []
                            achieved = await load.open_loop(rate * count, seconds)
                        throughput[count] = rate_max
                        label = f"PostgreSQL + Redis, {count} worker{'s' * (count > 1)}"
                        figures.append(
                            figure(
                                "bot",
                                f"{label}: most presses/s over {chats} chats",
                                f"{rate_max:.0f} updates/s (p99 {pct(closed, 99):.0f} ms)",
                                f">= {250 * count} updates/s",
                                rate_max >= 250 * count,
                            )
                        )
                        open_lat = load.latencies
                        figures.append(
                            figure(
                                "bot",
                                f"  at {rate * count:.0f}/s offered: p50 / p99",
                                f"{pct(open_lat, 50):.1f} / {pct(open_lat, 99):.1f} ms "
                                f"({achieved:.0f}/s done, {load.failures} lost)",
                                "p99 < 40 ms",
                                pct(open_lat, 99) < 40 and load.failures == 0,
                            )
                        )
                    finally:
                        for worker in workers:
                            worker.stop()
        finally:
            redis.stop()
    if 1 in throughput and 2 in throughput:
        ratio = throughput[2] / throughput[1]
        figures.append(
            figure("bot", "two workers against one", f"{ratio:.2f}x", ">= 1.7x", ratio >= 1.7)
        )
    return figures
