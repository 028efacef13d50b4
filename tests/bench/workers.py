"""Worker processes on PostgreSQL and Redis under load: action-roll button presses.

The bench sets up threat-dice games in many group chats, starts N real workers
(`python -m tgbot run`, webhook mode) against a minimal local Bot API, and posts
button presses to their webhooks, round robin, as a load balancer would. A
press's latency runs from posting the update until the worker's edit of that
panel reaches the Bot API.
"""

from __future__ import annotations

import asyncio
import os
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
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.db import close_database, open_database
from tests.support.bot_api import serve_app
from tests.support.services import running_postgres, start_redis
from tests.support.workers import SECRET, Worker, cpu_seconds, start_worker

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
        self.waiting: dict[int, asyncio.Future[float]] = {}  # edits, by chat
        self.sent: dict[int, asyncio.Future[float]] = {}  # new messages, by chat
        self.texts: dict[int, str] = {}  # the last message sent or edited, by chat
        self.counter = 0

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post(f"/bot{TOKEN}/{{method}}", self.call)
        return app

    async def call(self, request: web.Request) -> web.Response:
        method = request.match_info["method"].lower()
        data: Any = (
            await request.json()
            if request.content_type == "application/json"
            else await request.post()
        )
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
            self.texts[chat_id] = str(data.get("text", ""))
            waiters = self.waiting if method == "editmessagetext" else self.sent
            waiter = waiters.pop(chat_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(time.perf_counter())
        return web.json_response({"ok": True, "result": result})


def press(update_id: int, game: Game) -> dict[str, Any]:
    step = ("open_threat:", f"set_threat:{1 + game.level // 2 % 2}")[game.level % 2]
    data = f"p1:{game.panel}:{game.version}:{step}"  # the GM's keypad, then a level on it
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


def message(update_id: int, chat: int, user: int, text: str) -> dict[str, Any]:
    command = text.split()[0]
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(time.time()),
            "text": text,
            "chat": {"id": chat, "type": "supergroup", "title": f"Bench {chat}"},
            "from": {"id": user, "is_bot": False, "first_name": f"P{user}"},
            "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}],
        },
    }


class Load:
    def __init__(self, api: RecordingApi, workers: list[Worker], games: list[Game]) -> None:
        self.api, self.workers, self.games = api, workers, games
        self.update_id = 0
        self.latencies: list[float] = []
        self.failures = 0
        self.session: aiohttp.ClientSession | None = None

    def cpu_seconds(self) -> float:
        """CPU the worker processes have used so far, all together."""
        return sum(worker.cpu_seconds() for worker in self.workers)

    async def deliver(
        self, update: dict[str, Any], chat: int, waiters: dict[int, asyncio.Future[float]]
    ) -> float | None:
        """Post an update to the next worker; the ms until the bot's reply reached the API."""
        assert self.session is not None
        worker = self.workers[update["update_id"] % len(self.workers)]
        waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        waiters[chat] = waiter
        start = time.perf_counter()
        for _ in range(50):  # a 503 ("not yet") is posted again shortly, as Telegram does
            async with self.session.post(
                f"{worker.origin}/telegram/webhook",
                json=update,
                headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
            ) as response:
                await response.read()
            if response.status != 503:
                break
            await asyncio.sleep(0.1)
        try:
            done = await asyncio.wait_for(waiter, timeout=10)
        except TimeoutError:
            self.failures += 1
            return None
        return (done - start) * 1000

    async def one(self, game: Game) -> None:
        self.update_id += 1
        took = await self.deliver(press(self.update_id, game), game.chat, self.api.waiting)
        if took is None:
            return
        self.latencies.append(took)
        game.version += 1
        game.level += 1

    async def roll(self, chat: int, user: int) -> float | None:
        self.update_id += 1
        update = message(self.update_id, chat, user, "/roll 4d6kh3+2")
        return await self.deliver(update, chat, self.api.sent)

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


async def measure(
    load: Load,
    label: str,
    seconds: float,
    rate: float,
    figure: Callable[[str, str, str, str, bool | None], Any],
) -> tuple[float, list[Any]]:
    """Closed loop (the most the workers do), then open loop at ``rate`` presses/s."""
    count = len(load.workers)
    chats = len(load.games)
    async with aiohttp.ClientSession() as session:
        load.session = session
        cpu_before, own_before = load.cpu_seconds(), cpu_seconds(os.getpid())
        rate_max = await load.closed_loop(seconds)
        presses = max(1, len(load.latencies))
        cpu_ms = (load.cpu_seconds() - cpu_before) * 1000 / presses
        own_ms = (cpu_seconds(os.getpid()) - own_before) * 1000 / presses
        closed = list(load.latencies)
        load.latencies = []
        achieved = await load.open_loop(rate, seconds)
        open_lat = load.latencies
        load.latencies = []
    figures = [
        figure(
            "bot",
            f"{label}: most presses/s over {chats} chats",
            f"{rate_max:.0f} updates/s (p99 {pct(closed, 99):.0f} ms)",
            f">= {250 * count} updates/s",
            rate_max >= 250 * count,
        ),
        figure(
            "bot",
            "  worker CPU per press" + (f" ({count} workers together)" if count > 1 else ""),
            f"{cpu_ms:.2f} ms ({1000 / cpu_ms:.0f}/s a core; bench {own_ms:.1f} ms)",
            "<= 4.0 ms (250/s on one core)",
            cpu_ms <= 1000 / 250,
        ),
        figure(
            "bot",
            f"  at {rate:.0f}/s offered: p50 / p99",
            f"{pct(open_lat, 50):.1f} / {pct(open_lat, 99):.1f} ms "
            f"({achieved:.0f}/s done, {load.failures} not answered within 10 s)",
            "p99 < 40 ms",
            pct(open_lat, 99) < 40 and load.failures == 0,
        ),
    ]
    return rate_max, figures


async def bench_workers(
    counts: tuple[int, ...],
    chats: int,
    seconds: float,
    rate: float,
    figure: Callable[[str, str, str, str, bool | None], Any],
    profile: Path | None = None,
) -> list[Any]:
    """``profile``: write a cProfile of the single worker (the first count of 1) there."""
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
                            profile=profile if count == 1 and i == 0 else None,
                        )
                        for i in range(count)
                    ]
                    try:
                        label = f"PostgreSQL + Redis, {count} worker{'s' * (count > 1)}"
                        load = Load(api, workers, games)
                        throughput[count], found = await measure(
                            load, label, seconds, rate * count, figure
                        )
                        figures += found
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


async def bench_sqlite_worker(
    chats: int,
    seconds: float,
    rate: float,
    workdir: Path,
    figure: Callable[[str, str, str, str, bool | None], Any],
    campaigns: int = 1000,
    profile: Path | None = None,
) -> list[Any]:
    """One worker process on SQLite with the in-process lock; memory with many campaigns."""
    url = f"sqlite://{workdir / 'bot.sqlite3'}"
    games = await set_up_games(url, max(chats, campaigns))
    api = RecordingApi()
    async with serve_app(api.app()) as api_origin:
        worker = await start_worker(
            "sqlite",
            api_base=api_origin,
            token=TOKEN,
            database_url=url,
            redis_url=None,
            tmp=workdir,
            migrate=False,
            rate_limit=False,
            profile=profile,
        )
        try:
            load = Load(api, [worker], games[:chats])
            _, figures = await measure(
                load, "SQLite, in-process lock, 1 worker", seconds, rate, figure
            )
            async with aiohttp.ClientSession() as session:
                load.session = session
                for _ in range(50):
                    await load.one(games[0])
                alone = load.latencies
                figures.append(
                    figure(
                        "bot",
                        "  one press alone: p50 / p99",
                        f"{pct(alone, 50):.1f} / {pct(alone, 99):.1f} ms",
                        "",
                        None,
                    )
                )
                start = time.perf_counter()
                rolls = await asyncio.gather(*(load.roll(g.chat, g.gm) for g in games[:chats]))
                took = [r for r in rolls if r is not None]
                rolled = len(took) / (time.perf_counter() - start)
                figures.append(
                    figure(
                        "bot",
                        f"/roll commands over {chats} chats at once",
                        f"{rolled:.0f} updates/s, p99 {pct(took, 99):.1f} ms",
                        "",
                        None,
                    )
                )
                load.latencies = []
                for game in games[chats:]:
                    await load.one(game)
            peak = worker.peak_memory_mb()
            figures.append(
                figure(
                    "memory",
                    f"worker's peak resident memory after presses in {len(games):,} campaigns",
                    f"{peak:.0f} MB",
                    "< 200 MB",
                    peak < 200,
                )
            )
        finally:
            worker.stop()
    return figures
