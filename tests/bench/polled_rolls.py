"""/roll as measured from outside: three bots in turn, long-polling one Bot API stand-in.

Each process in turn (a worker, ``python -m tgbot run`` with SQLite and no Redis; the
bare python-telegram-bot bot; the bare aiogram bot, :mod:`tests.bench.bare_bots`)
polls the same local stand-in, which holds its updates: 50 warm-up ``/roll 3d6``,
then 1,500 from 300 users in 200 group chats, all queued at once, so each bot takes
them as fast as it can poll (100 an answer). A roll counts once its ``sendMessage``
reached the stand-in. The figure is the bot process's CPU time over those 1,500
(user + system, children included, from ``/proc/PID/stat``) divided by 1,500. Most
users are new to the bot when they roll, as in a busy group.

The worker as it starts paces its messages (30 a second overall, as Telegram takes
them), so its 1,500 answers are spread over 50 seconds; the bare aiogram bot is run
both as its documentation shows (as fast as the stand-in takes them) and paced the
same way, and each worker is compared with the bare bot sending at its own pace.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from tests.bench.workers import TOKEN, message
from tests.support.bot_api import serve_app
from tests.support.workers import Worker, start_worker
from tgbot.ratelimit import OVERALL

ROLL = "/roll 3d6"
WARM_UP, ROLLS, USERS, CHATS = 50, 1500, 300, 200
TARGET = 2.0  # the worker's CPU per roll at most this many times the bare aiogram bot's
BOTS = {
    "worker": "Stonetable worker (polling, SQLite, its defaults)",
    "unlimited": "the same, rate limiter off",
    "ptb": "bare python-telegram-bot",
    "aiogram": "bare aiogram 3",
    "aiogram-paced": f"bare aiogram 3, paced at {OVERALL[0]:.0f} messages a second",
}
# each worker against the bare bot sending at its pace: (worker, bare bot, target)
COMPARED = (("worker", "aiogram-paced", TARGET), ("unlimited", "aiogram", TARGET))
UNLIKE = ("worker", "aiogram")  # shown too: a paced worker against an unpaced bot


class PolledApi:
    """A Bot API stand-in holding updates for one bot to poll; it counts the messages
    sent back."""

    def __init__(self) -> None:
        self.updates: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.sent = 0
        self.texts: dict[int, str] = {}  # the last message sent, by chat
        self.enough: tuple[int, asyncio.Future[None]] | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post(f"/bot{TOKEN}/{{method}}", self.call)
        return app

    def hold(self, updates: list[dict[str, Any]]) -> asyncio.Future[None]:
        """Queue ``updates``; a future done once as many more messages were sent."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.enough = (self.sent + len(updates), done)
        self.updates += updates
        self.arrived.set()
        return done

    async def call(self, request: web.Request) -> web.Response:
        method = request.match_info["method"].lower()
        data: Any = (
            await request.json()
            if request.content_type == "application/json"
            else await request.post()
        )
        result: Any = True
        if method == "getme":
            result = {"id": 1, "is_bot": True, "first_name": "Bench", "username": "bench_bot"}
        elif method == "getupdates":
            result = await self._updates(data)
        elif method == "sendmessage":
            chat_id = int(str(data.get("chat_id", "0")))
            result = {
                "message_id": 1,
                "date": int(time.time()),
                "text": "ok",
                "chat": {"id": chat_id, "type": "supergroup", "title": "Bench"},
            }
            self.texts[chat_id] = str(data.get("text", ""))
            self.sent += 1
            if self.enough is not None and self.sent >= self.enough[0]:
                _, done = self.enough
                self.enough = None
                done.set_result(None)
        return web.json_response({"ok": True, "result": result})

    async def _updates(self, data: Any) -> list[dict[str, Any]]:
        offset = int(str(data.get("offset") or 0))
        limit = int(str(data.get("limit") or 100))
        timeout = float(str(data.get("timeout") or 0))
        self.updates = [u for u in self.updates if u["update_id"] >= offset]
        if not self.updates and timeout:
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), min(timeout, 1.0))
            except TimeoutError:
                return []
        return self.updates[:limit]


def cpu_with_children(pid: int) -> float:
    """User + system CPU seconds of a process and its waited-for children, from /proc."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def rolls(first_id: int, count: int, offset: int = 0) -> list[dict[str, Any]]:
    """``count`` updates of /roll 3d6, round robin over the users and the chats."""
    return [
        message(first_id + n, -7000 - (offset + n) % CHATS, 70_000 + (offset + n) % USERS, ROLL)
        for n in range(count)
    ]


@dataclass
class Measured:
    name: str
    cpu_ms: float  # per roll
    seconds: float


async def measure_one(
    kind: str,
    workdir: Path,
    first_id: int,
    profile: Path | None = None,
    api: PolledApi | None = None,
    counts: tuple[int, int] = (WARM_UP, ROLLS),
) -> Measured:
    """One bot: started, warmed up, then the 1,500 rolls (``counts``); stopped
    (``profile``: the worker's cProfile, written there)."""
    api = api or PolledApi()
    async with serve_app(api.app()) as origin:
        common: dict[str, Any] = {
            "api_base": origin,
            "token": TOKEN,
            "redis_url": None,
            "tmp": workdir,
            "webhook": False,
        }
        if kind in ("worker", "unlimited"):  # as `python -m tgbot run` starts, or unlimited
            url = f"sqlite://{workdir / f'polled-{first_id}.sqlite3'}"
            bot = await start_worker(
                kind,
                database_url=url,
                migrate=True,
                profile=profile,
                rate_limit=kind == "worker",
                **common,
            )
        else:
            library, _, paced = kind.partition("-")
            bare = ("-m", "tests.bench.bare_bots", library)
            pace = {"BARE_PACE": str(OVERALL[0]) if paced else ""}
            bot = await start_worker(
                kind, database_url="", migrate=False, command=bare, env=pace, **common
            )
        try:
            return await _run(bot, api, BOTS[kind], first_id, *counts)
        finally:  # the stand-in goes on answering while the bot stops
            bot.process.terminate()
            await asyncio.to_thread(bot.stop)


async def _run(
    bot: Worker, api: PolledApi, name: str, first_id: int, warm_up: int, count: int
) -> Measured:
    await asyncio.wait_for(api.hold(rolls(first_id, warm_up)), 60)
    before = cpu_with_children(bot.process.pid)
    start = time.perf_counter()
    await asyncio.wait_for(api.hold(rolls(first_id + warm_up, count, warm_up)), 120)
    seconds = time.perf_counter() - start
    used = cpu_with_children(bot.process.pid) - before
    return Measured(name, used * 1000 / count, seconds)


async def bench_polled_rolls(
    workdir: Path, figure: Callable[[str, str, str, str, bool | None], Any], runs: int = 1
) -> list[Any]:
    """The three bots in turn, ``runs`` times; a figure each (every run), and the ratio."""
    found: dict[str, list[Measured]] = {kind: [] for kind in BOTS}
    for run in range(runs):
        for n, kind in enumerate(BOTS):
            first_id = 1_000_000 * (run * len(BOTS) + n + 1)
            found[kind].append(await measure_one(kind, workdir, first_id))
    figures = []
    for kind, runs_of in found.items():
        each = ", ".join(f"{m.cpu_ms:.2f}" for m in runs_of)
        rate = ", ".join(f"{ROLLS / m.seconds:.0f}" for m in runs_of)
        figures.append(
            figure(
                "/roll",
                f"polled, {ROLLS} from {USERS} users in {CHATS} groups: {BOTS[kind]}",
                f"{each} ms CPU a roll ({rate}/s)",
                "",
                None,
            )
        )
    for kind, bare, target in (*COMPARED, (*UNLIKE, None)):
        ratios = [w.cpu_ms / a.cpu_ms for w, a in zip(found[kind], found[bare], strict=True)]
        figures.append(
            figure(
                "/roll",
                f"polled: {BOTS[kind]} against {BOTS[bare]}",
                ", ".join(f"{r:.2f}x" for r in ratios),
                "" if target is None else f"<= {target:.0f}x",
                None if target is None else max(ratios) <= target,
            )
        )
    return figures
