"""One player's heavy requests against another chat's /roll, through the real bot stack.

A real worker (`python -m tgbot run`, SQLite, webhook mode, rate limiter off) answers
through the local Bot API stand-in. Another group's ``/roll 1d6`` is timed alone, then
while one user floods heavy ``/odds`` (each in a chat of its own, all at once), then
while the same user sends parallel ``/api/odds`` requests to the Mini App. A roll's
latency runs from posting its update until its message reaches the Bot API. Every
flooded ``/odds`` must be answered: with the odds, or with "one at a time".
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from tests.bench.workers import TOKEN, Load, RecordingApi, message
from tests.support.bot_api import serve_app
from tests.support.workers import start_worker
from webapp.auth import make_init_data

HEAVY_ODDS = "1d575!kl1"  # about 0.6 s of CPU for its exact odds
ROLL = "/roll 1d6"
ROLLER, FLOODER = 61_000, 62_000
ROLL_CHAT = -7000
FLOOD_CHATS = 48
FLOOD_UPDATES = 10_000_000  # the flood's update ids, apart from the rolls'
APP_REQUESTS = 4
ALONE_ROLLS = 30
ONE_AT_A_TIME = "One at a time"
TIMES_ALONE, FLOOR_MS, SLOWEST_MS = 3.0, 300.0, 1500.0


async def roll_until(load: Load, done: asyncio.Event, latencies: list[float]) -> None:
    """``/roll 1d6`` in the rolling chat, again as soon as answered, until ``done``."""
    while not done.is_set():
        load.update_id += 1
        update = message(load.update_id, ROLL_CHAT, ROLLER, ROLL)
        took = await load.deliver(update, ROLL_CHAT, load.api.sent)
        latencies.append(took if took is not None else float("inf"))


async def flood_odds(load: Load, api: RecordingApi) -> tuple[int, int, int]:
    """One user's heavy /odds in chats of their own, all at once; (odds, one at a time,
    unanswered)."""

    async def one(n: int) -> str | None:
        chat = -8000 - n
        update = message(FLOOD_UPDATES + n, chat, FLOODER, f"/odds {HEAVY_ODDS}")
        took = await load.deliver(update, chat, api.sent)
        return None if took is None else api.texts.get(chat, "")

    answers = await asyncio.gather(*(one(n) for n in range(FLOOD_CHATS)))
    refused = sum(1 for a in answers if a is not None and ONE_AT_A_TIME in a)
    odds = sum(1 for a in answers if a is not None and ONE_AT_A_TIME not in a)
    return odds, refused, sum(1 for a in answers if a is None)


async def flood_app(origin: str, session: aiohttp.ClientSession) -> tuple[int, int, int]:
    """One user's parallel /api/odds requests; (worked out or too heavy: 200 or 400,
    one at a time: 429, anything else)."""
    person = {"id": FLOODER, "first_name": "Flood", "language_code": "en"}
    headers = {"Authorization": "tma " + make_init_data(TOKEN, person, int(time.time()) - 5)}

    async def one() -> int:
        async with session.get(
            f"{origin}/api/odds", params={"expr": HEAVY_ODDS}, headers=headers
        ) as response:
            await response.read()
            return response.status

    statuses = await asyncio.gather(*(one() for _ in range(APP_REQUESTS)))
    ok, limited = statuses.count(200) + statuses.count(400), statuses.count(429)
    return ok, limited, len(statuses) - ok - limited


async def bench_heavy(
    workdir: Path, figure: Callable[[str, str, str, str, bool | None], Any]
) -> list[Any]:
    api = RecordingApi()
    async with serve_app(api.app()) as api_origin:
        worker = await start_worker(
            "heavy",
            api_base=api_origin,
            token=TOKEN,
            database_url=f"sqlite://{workdir / 'heavy.sqlite3'}",
            redis_url=None,
            tmp=workdir,
            migrate=True,
            rate_limit=False,
        )
        try:
            load = Load(api, [worker], [])
            async with aiohttp.ClientSession() as session:
                load.session = session
                alone: list[float] = []
                for _ in range(ALONE_ROLLS + 5):  # the first few warm the worker up
                    load.update_id += 1
                    update = message(load.update_id, ROLL_CHAT, ROLLER, ROLL)
                    took = await load.deliver(update, ROLL_CHAT, api.sent)
                    alone.append(took if took is not None else float("inf"))
                alone = alone[5:]
                done, flooded = asyncio.Event(), []
                rolling = asyncio.create_task(roll_until(load, done, flooded))
                cpu_before = worker.cpu_seconds()
                started = time.perf_counter()
                odds, refused, unanswered = await flood_odds(load, api)
                flood_seconds = time.perf_counter() - started
                worker_cpu = worker.cpu_seconds() - cpu_before
                done.set()
                await rolling
                done, app_flooded = asyncio.Event(), []
                rolling = asyncio.create_task(roll_until(load, done, app_flooded))
                app_ok, app_limited, app_other = await flood_app(worker.origin, session)
                await asyncio.sleep(0.2)  # a roll or two after the requests too
                done.set()
                await rolling
        finally:
            worker.stop()
    return figures_of(
        alone,
        flooded,
        app_flooded,
        (odds, refused, unanswered, flood_seconds, worker_cpu),
        (app_ok, app_limited, app_other),
        figure,
    )


def figures_of(
    alone: list[float],
    flooded: list[float],
    app_flooded: list[float],
    flood: tuple[int, int, int, float, float],
    app: tuple[int, int, int],
    figure: Callable[[str, str, str, str, bool | None], Any],
) -> list[Any]:
    odds, refused, unanswered, seconds, worker_cpu = flood
    base = statistics.median(alone)
    bound = max(TIMES_ALONE * base, FLOOR_MS)
    found = [
        figure(
            "heavy",
            f"another chat's {ROLL} alone: median, slowest of {len(alone)}",
            f"{base:.1f} ms, {max(alone):.1f} ms",
            "",
            None,
        )
    ]
    for label, latencies in (
        (f"{FLOOD_CHATS} /odds {HEAVY_ODDS} of one user", flooded),
        (f"{APP_REQUESTS} parallel /api/odds of one user", app_flooded),
    ):
        median, slowest = statistics.median(latencies), max(latencies)
        found += [
            figure(
                "heavy",
                f"{ROLL} during {label}: median of {len(latencies)}",
                f"{median:.1f} ms",
                f"<= {bound:.0f} ms",
                median <= bound,
            ),
            figure(
                "heavy",
                f"{ROLL} during {label}: slowest",
                f"{slowest:.1f} ms",
                f"<= {SLOWEST_MS:.0f} ms",
                slowest <= SLOWEST_MS,
            ),
        ]
    found += [
        figure(
            "heavy",
            f"flooded /odds answered (odds + one at a time) in {seconds:.1f} s",
            f"{odds + refused}/{FLOOD_CHATS} ({odds} + {refused}); worker's own CPU "
            f"{worker_cpu:.2f} s",
            f"{FLOOD_CHATS}/{FLOOD_CHATS}",
            unanswered == 0,
        ),
        figure(
            "heavy",
            "parallel /api/odds: answered (odds or too heavy + one at a time)",
            f"{app[0]} + {app[1]}" + (f", {app[2]} unanswered" if app[2] else ""),
            f"{APP_REQUESTS} answered",
            app[2] == 0,
        ),
    ]
    return found
