"""The Mini App under load: an NSU sheet page and the map API, served by a real worker.

The bench builds an NSU game on SQLite with a dealt map (cards face up and face
down, Collateral Clocks ticked) and five characters, starts one worker
(`python -m tgbot run`, webhook mode) in its own process against a minimal
local Bot API, and loads it with concurrent HTTP clients from this process.
Besides requests per second and p99 it reports the worker's CPU time per
request, read from /proc, which stays meaningful on a busy machine.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiohttp

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.nsu.details import Detail
from core.rules.nsu.world import (
    CollateralClock,
    DangerLevel,
    LocationCard,
    MapGrid,
    RewardLevel,
    World,
)
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.db import close_database, open_database
from core.store.models import Campaign, Member
from tests.support.bot_api import serve_app
from tests.support.nsu_table import campaign_state, character, sheet
from tests.support.workers import start_worker
from webapp.auth import make_init_data

TOKEN = "123:bench"
GM = 40_000
PLAYERS = (40_001, 40_002, 40_003, 40_004, 40_005)
CHAT = -4000


def bench_world() -> World:
    """Ten cards (two per player) on a 4x3 grid, home in the middle; four face up."""
    cards = []
    for n in range(10):
        author = PLAYERS[n % len(PLAYERS)]
        cards.append(
            LocationCard(
                id=f"k{n}",
                author_id=author,
                title=f"Place number {n} by the <river>",
                description=f"What is really at place {n}: a long secret description " * 3,
                collateral_target="the river folk",
                danger_type="beasts",
                treasure_type="old maps",
                danger=DangerLevel(1 + n % 4),
                reward=RewardLevel(1 + (n * 3) % 4),
                clock=CollateralClock(n % 6),
                scene_details=("fog", "a broken bridge") if n % 3 == 0 else (),
                revealed=n % 3 == 0,
            )
        )
    ids: list[str | None] = [c.id for c in cards]
    ids.insert(5, None)  # home
    ids.append(None)
    rows = tuple(tuple(ids[r * 4 : r * 4 + 4]) for r in range(3))
    grid = MapGrid(rows, home=(1, 1))
    seen = replace(cards[1], scouted_by=frozenset({PLAYERS[0]}))
    cards[1] = seen
    return World(players=PLAYERS, cards=tuple(cards), grid=grid, current="k0")


async def seed(database_url: str) -> str:
    """The game: a GM and five players with finished characters; returns its Mini App token."""
    await open_database(database_url)
    try:
        campaigns = Campaigns(default_registry(), SeededRng(1), InProcessKeyedLock())
        play = Play(SeededRng(1), campaigns.locks, time.time)
        chat = ChatRef(CHAT, "supergroup", "Bench table")
        view = await campaigns.new_game(chat, PlayerRef(GM, "Gemma", "Master"), "nsu")
        for n, player in enumerate(PLAYERS):
            ref = PlayerRef(player, f"Player{n}", "Bench", f"p{n}")
            await play.mark_started(ref)
            await campaigns.join(chat, ref)
            made = character(f"Hero {n}").add_detail(Detail("Muddy <boots>"))
            made = made.add_rumour("Whispers in the orchard")
            member = await Member.get(campaign_id=view.id, player__tg_id=player)
            await Member.filter(id=member.id).update(sheet=sheet(made))
        await Campaign.filter(id=view.id).update(state=campaign_state(bench_world()))
        return view.app_token
    finally:
        await close_database()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def first_load(
    http: aiohttp.ClientSession, origin: str, headers: dict[str, str], token: str
) -> int:
    """Bytes on the wire for opening the app: shell, the sheet, CSS and JS."""
    total = 0
    html = ""
    for path in ("/app", f"/app/home?startapp={token}"):
        async with http.get(origin + path, headers=headers, auto_decompress=False) as response:
            body = await response.read()
            total += len(body)
            if path == "/app":
                gzipped = response.headers.get("Content-Encoding") == "gzip"
                html = (gzip.decompress(body) if gzipped else body).decode()
    for asset in ("app.css", "app.js"):
        href = html.split(f"/static/{asset}")[1].split('"')[0]
        async with http.get(f"{origin}/static/{asset}{href}", auto_decompress=False) as response:
            total += len(await response.read())
    return total


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if values else 0.0


@dataclass
class Run:
    rate: float
    p50: float
    p99: float
    cpu_ms: float  # the worker's CPU time per request
    failures: int


async def closed_loop(
    http: aiohttp.ClientSession,
    url: str,
    headers: dict[str, str],
    clients: int,
    requests: int,
    pid: int,
) -> Run:
    """``clients`` clients sending back to back: the most the worker serves."""
    latencies: list[float] = []
    failures = 0
    queue = iter(range(requests))

    async def client() -> None:
        nonlocal failures
        for _ in queue:
            start = time.perf_counter()
            async with http.get(url, headers=headers) as response:
                await response.read()
                failures += response.status != 200
            latencies.append((time.perf_counter() - start) * 1000)

    cpu = cpu_seconds(pid)
    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = time.perf_counter() - start
    cpu_ms = (cpu_seconds(pid) - cpu) * 1000 / requests
    return Run(requests / elapsed, pct(latencies, 50), pct(latencies, 99), cpu_ms, failures)


async def open_loop(
    http: aiohttp.ClientSession,
    url: str,
    headers: dict[str, str],
    clients: int,
    rate: float,
    seconds: float,
    pid: int,
) -> Run:
    """``clients`` clients offering ``rate`` requests/s between them, each on its own
    schedule; a late request's latency counts from when it was due. An overloaded
    worker gets no new requests after twice the time (fewer are done)."""
    latencies: list[float] = []
    failures = 0
    interval = clients / rate

    async def client(n: int) -> None:
        nonlocal failures
        due = begin + interval * n / clients
        while due < begin + seconds and time.perf_counter() < begin + 2 * seconds:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            async with http.get(url, headers=headers) as response:
                await response.read()
                failures += response.status != 200
            latencies.append((time.perf_counter() - due) * 1000)
            due += interval

    cpu = cpu_seconds(pid)
    begin = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(clients)))
    elapsed = time.perf_counter() - begin
    done = len(latencies)
    cpu_ms = (cpu_seconds(pid) - cpu) * 1000 / max(1, done)
    return Run(done / elapsed, pct(latencies, 50), pct(latencies, 99), cpu_ms, failures)


async def measure(
    http: aiohttp.ClientSession,
    url: str,
    headers: dict[str, str],
    label: str,
    pid: int,
    load: Load,
    figure: Callable[[str, str, str, str, bool | None], Any],
    db: str = "",
) -> list[Any]:
    await closed_loop(http, url, headers, load.clients, min(load.requests, 300), pid)  # warm
    most = await closed_loop(http, url, headers, load.clients, load.requests, pid)
    steady = await open_loop(http, url, headers, load.clients, load.rate, load.seconds, pid)
    return [
        figure(
            "mini app",
            f"{label}: {load.clients} clients back to back (1 worker{db})",
            f"{most.rate:.0f} req/s, p99 {most.p99:.0f} ms",
            ">= 1,000 req/s",
            most.rate >= 1000 and most.failures == 0,
        ),
        figure(
            "mini app",
            f"  at {load.rate:.0f} req/s offered by {load.clients} clients: p50 / p99",
            f"{steady.p50:.1f} / {steady.p99:.1f} ms ({steady.rate:.0f}/s done)",
            "p99 < 30 ms",
            steady.p99 < 30 and steady.failures == 0,
        ),
        figure(
            "mini app",
            "  worker CPU per request (back to back / offered)",
            f"{most.cpu_ms:.2f} / {steady.cpu_ms:.2f} ms",
            "",
            None,
        ),
    ]


@dataclass(frozen=True)
class Load:
    clients: int
    requests: int  # back to back
    rate: float  # offered, requests/s
    seconds: float  # offered, for this long


async def bench_webapp(
    load: Load,
    workdir: Path,
    sink: Any,
    figure: Callable[[str, str, str, str, bool | None], Any],
    *,
    database_url: str | None = None,
) -> list[Any]:
    """The Mini App on SQLite, or on ``database_url`` (one ORM backend per process)."""
    figures = []
    database_url = database_url or f"sqlite://{workdir / 'web.sqlite3'}"
    await open_database(database_url)  # migrate
    await close_database()
    token = await seed(database_url)
    async with serve_app(sink(TOKEN)) as api_origin:
        with tempfile.TemporaryDirectory() as tmp:
            worker = await start_worker(
                "web",
                api_base=api_origin,
                token=TOKEN,
                database_url=database_url,
                redis_url="",
                tmp=Path(tmp),
                migrate=False,
                rate_limit=False,
            )
            try:
                user = {"id": PLAYERS[0], "first_name": "Player0", "last_name": "Bench"}
                init = make_init_data(TOKEN, user, int(time.time()), start_param=token)
                headers = {"Authorization": f"tma {init}"}
                connector = aiohttp.TCPConnector(limit=load.clients)
                async with aiohttp.ClientSession(connector=connector) as http:
                    total = await first_load(http, worker.origin, headers, token)
                    figures.append(
                        figure(
                            "mini app",
                            "first page load (shell, NSU sheet, CSS, JS; on the wire)"
                            + (" on PostgreSQL" if database_url.startswith("postgres") else ""),
                            f"{total / 1024:.1f} KB",
                            "< 60 KB",
                            total < 60 * 1024,
                        )
                    )
                    for label, path in (
                        ("NSU sheet page", f"/app/c/{token}"),
                        ("map API", f"/api/c/{token}/map"),
                    ):
                        url, pid = worker.origin + path, worker.process.pid
                        db = ", PostgreSQL" if database_url.startswith("postgres") else ""
                        figures += await measure(http, url, headers, label, pid, load, figure, db)
            finally:
                worker.stop()
    return figures
