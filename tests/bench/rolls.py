"""/roll: the worker's CPU per roll beside two bare bots, in one run.

Three processes answer the same ``/roll 2d6+3`` updates, posted to their
webhooks by the same load generator through the same Bot API stand-in: a real
worker (`python -m tgbot run`, SQLite, rate limiter off, as in the other bot
figures) and the bare python-telegram-bot and aiogram bots of
:mod:`tests.bench.bare_bots`. A roll counts once its message reached the Bot
API. Each bot's CPU time (user + system, from /proc) is read before and after a
round; rounds take the bots in turn (in a rotating order), so a busy spell on
the machine falls on all of them, and the figures are medians over the rounds.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from tests.bench.workers import TOKEN, Load, RecordingApi, message, pct
from tests.support.bot_api import serve_app
from tests.support.workers import Worker, start_worker

ROLL = "/roll 2d6+3"
STONETABLE = "Stonetable worker"
BARE = {"ptb": "bare python-telegram-bot", "aiogram": "bare aiogram 3"}
TARGET = 2.0  # the worker at most this many times the cheaper bare bot


@dataclass
class Contender:
    name: str
    worker: Worker
    cpu_ms: list[float] = field(default_factory=list)  # per roll, one figure a round
    rate: list[float] = field(default_factory=list)  # rolls answered a second
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0


def chat_of(n: int) -> int:
    return -5000 - n


async def start_contenders(api_origin: str, workdir: Path) -> list[Contender]:
    common: dict[str, Any] = {
        "api_base": api_origin,
        "token": TOKEN,
        "redis_url": None,
        "tmp": workdir,
        "rate_limit": False,
    }
    url = f"sqlite://{workdir / 'rolls.sqlite3'}"
    contenders = [
        Contender(
            STONETABLE,
            await start_worker("rolls", database_url=url, migrate=True, **common),
        )
    ]
    for kind, name in BARE.items():
        module = ("-m", "tests.bench.bare_bots", kind)
        worker = await start_worker(kind, database_url="", migrate=False, command=module, **common)
        contenders.append(Contender(name, worker))
    return contenders


async def roll_round(
    load: Load, chats: int, rolls: int, session: aiohttp.ClientSession
) -> tuple[int, int, float]:
    """``rolls`` /roll updates over ``chats`` groups, each chat rolling again once
    answered; (answered, not answered, seconds)."""
    load.session = session
    per_chat = [rolls // chats + (n < rolls % chats) for n in range(chats)]
    answered = 0
    load.failures = 0

    async def chat_loop(n: int) -> None:
        nonlocal answered
        for _ in range(per_chat[n]):
            load.update_id += 1
            update = message(load.update_id, chat_of(n), 50_000 + n, ROLL)
            took = await load.deliver(update, chat_of(n), load.api.sent)
            if took is not None:
                answered += 1
                load.latencies.append(took)

    start = time.perf_counter()
    await asyncio.gather(*(chat_loop(n) for n in range(chats)))
    return answered, load.failures, time.perf_counter() - start


async def measure_rolls(
    contenders: Sequence[Contender],
    api: RecordingApi,
    chats: int,
    rolls: int,
    rounds: int,
) -> None:
    """Warm every bot up (one roll in each chat), then ``rounds`` rounds in turn."""
    loads = [Load(api, [c.worker], []) for c in contenders]
    for n, load in enumerate(loads):
        load.update_id = 10_000_000 * (n + 1)
    async with aiohttp.ClientSession() as session:
        for load in loads:
            await roll_round(load, chats, chats, session)
            load.latencies = []
        for r in range(rounds):
            order = list(range(len(contenders)))
            order = order[r % len(order) :] + order[: r % len(order)]
            for i in order:
                contender, load = contenders[i], loads[i]
                before = contender.worker.cpu_seconds()
                answered, missed, seconds = await roll_round(load, chats, rolls, session)
                used = contender.worker.cpu_seconds() - before
                contender.unanswered += missed
                if answered == 0:
                    raise RuntimeError(f"{contender.name} answered no /roll")
                contender.cpu_ms.append(used * 1000 / answered)
                contender.rate.append(answered / seconds)
            for contender, load in zip(contenders, loads, strict=True):
                contender.latencies += load.latencies
                load.latencies = []


def figures_of(
    contenders: Sequence[Contender],
    rolls: int,
    figure: Callable[[str, str, str, str, bool | None], Any],
) -> list[Any]:
    rounds = len(contenders[0].cpu_ms)
    found = []
    for c in contenders:
        spread = ", ".join(f"{ms:.2f}" for ms in c.cpu_ms)
        found.append(
            figure(
                "/roll",
                f"{c.name}: CPU per /roll, median of {rounds} x {rolls}",
                f"{statistics.median(c.cpu_ms):.2f} ms ({spread}); "
                f"{statistics.median(c.rate):.0f}/s, p50 {pct(c.latencies, 50):.1f} ms"
                + (f", {c.unanswered} unanswered" if c.unanswered else ""),
                "",
                None if not c.unanswered else False,
            )
        )
    ours, *bare = contenders
    cheaper = min(bare, key=lambda c: statistics.median(c.cpu_ms))
    ratio = statistics.median(ours.cpu_ms) / statistics.median(cheaper.cpu_ms)
    per_round = [o / min(b.cpu_ms[r] for b in bare) for r, o in enumerate(ours.cpu_ms)]
    found.append(
        figure(
            "/roll",
            f"worker against the cheaper bare bot ({cheaper.name})",
            f"{ratio:.2f}x (rounds: {', '.join(f'{x:.2f}' for x in per_round)})",
            f"<= {TARGET:.0f}x",
            ratio <= TARGET,
        )
    )
    return found


async def bench_rolls(
    workdir: Path,
    figure: Callable[[str, str, str, str, bool | None], Any],
    *,
    chats: int = 50,
    rolls: int = 1000,
    rounds: int = 5,
) -> list[Any]:
    api = RecordingApi()
    async with serve_app(api.app()) as api_origin:
        contenders = await start_contenders(api_origin, workdir)
        try:
            await measure_rolls(contenders, api, chats, rolls, rounds)
        finally:
            for contender in contenders:
                contender.worker.stop()
    return figures_of(contenders, rolls, figure)
