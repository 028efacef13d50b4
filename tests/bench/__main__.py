"""`python -m tests.bench`: measure odds, the Mini App, the bot and memory; print a table.

Everything runs on this machine over loopback: the bot talks to a minimal local
Bot API server, the Mini App is loaded by concurrent HTTP clients.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import resource
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web
from telegram import Update

from core.__main__ import build_parser
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.settings import parse_settings
from tests.support.bot_api import free_port, serve_app
from tgbot.main import Runtime


@dataclass
class Figure:
    area: str
    what: str
    value: str
    target: str
    ok: bool | None


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# --- odds ------------------------------------------------------------------------

ODDS_QUERIES: list[tuple[str, list[str], float]] = [
    (
        "nsu",
        [
            "nsu",
            "--aspect",
            "d8",
            "--mood",
            "d8",
            "--risk",
            "world",
            "--aspect-adv",
            "--mood-adv",
            "--skill",
            "3",
        ],
        50.0,
    ),
    ("threat", ["threat", "6d4t", "--harm", "3"], 50.0),
    ("cortex (12 dice)", ["cortex", *(["d12"] * 12), "--keep", "3"], 200.0),
    (
        "d20",
        [
            "d20",
            "--ability",
            "strong",
            "--proficiency",
            "5",
            "--advantages",
            "3",
            "--vs-ability",
            "strong",
            "--vs-proficiency",
            "4",
            "--retry",
        ],
        50.0,
    ),
]


def bench_odds() -> list[Figure]:
    registry = default_registry()
    parser = build_parser(registry)
    figures = []
    for label, argv, target in ODDS_QUERIES:
        args = parser.parse_args(["odds", *argv])
        system = registry.find(args.system)
        assert system.odds is not None
        timings = []
        for _ in range(5):
            start = time.perf_counter()
            system.odds.compute(args)
            timings.append((time.perf_counter() - start) * 1000)
        worst = max(timings)
        figures.append(
            Figure(
                "odds",
                f"{label}: slowest of 5",
                f"{worst:.1f} ms",
                f"< {target:.0f} ms",
                worst < target,
            )
        )
    return figures


# --- a minimal Bot API server ---------------------------------------------------------


def sink_api(token: str) -> web.Application:
    """Answers every Bot API call at once, as Telegram would on success."""
    counter = iter(range(1, 10**9))

    async def call(request: web.Request) -> web.Response:
        method = request.match_info["method"].lower()
        data = dict(await request.post()) if request.can_read_body else {}
        if method == "getme":
            result: Any = {
                "id": 1,
                "is_bot": True,
                "first_name": "Bench",
                "username": "bench_bot",
                "can_join_groups": True,
                "can_read_all_group_messages": False,
                "supports_inline_queries": False,
            }
        elif method in ("sendmessage", "editmessagetext"):
            chat_id = int(str(data.get("chat_id", "0")))
            result = {
                "message_id": next(counter),
                "date": int(time.time()),
                "chat": {"id": chat_id, "type": "supergroup", "title": "Bench"},
                "text": str(data.get("text", ""))[:50],
            }
        elif method == "getupdates":
            await asyncio.sleep(0.2)
            result = []
        else:
            result = True
        return web.json_response({"ok": True, "result": result})

    app = web.Application()
    app.router.add_post(f"/bot{token}/{{method}}", call)
    return app


def message_update(update_id: int, chat_id: int, user_id: int, text: str) -> dict[str, Any]:
    command = text.split()[0]
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(time.time()),
            "text": text,
            "chat": {"id": chat_id, "type": "supergroup", "title": f"Group {chat_id}"},
            "from": {"id": user_id, "is_bot": False, "first_name": f"P{user_id}"},
            "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}],
        },
    }


def press_update(
    update_id: int, chat_id: int, user_id: int, data: str, message_id: int
) -> dict[str, Any]:
    return {
        "update_id": update_id,
        "callback_query": {
            "id": str(update_id),
            "chat_instance": str(chat_id),
            "data": data,
            "from": {"id": user_id, "is_bot": False, "first_name": f"P{user_id}"},
            "message": {
                "message_id": message_id,
                "date": int(time.time()),
                "text": "panel",
                "chat": {"id": chat_id, "type": "supergroup", "title": "Bench"},
                "from": {"id": 1, "is_bot": True, "first_name": "Bench"},
            },
        },
    }


async def timed(
    process: Callable[[Update], Awaitable[None]], update: Update, latencies: list[float]
) -> None:
    start = time.perf_counter()
    await process(update)
    latencies.append((time.perf_counter() - start) * 1000)


async def bench_bot(chats: int, presses: int, workdir: Path) -> list[Figure]:
    """One worker in-process on SQLite: GMs pressing threat buttons in many chats."""
    from tests.bench.workers import make_games, press

    token = "123:bench"
    figures = []
    async with serve_app(sink_api(token)) as api_origin:
        settings = parse_settings(
            {
                "BOT_TOKEN": token,
                "TELEGRAM_API_URL": api_origin,
                "DATABASE_URL": f"sqlite://{workdir / 'bot.sqlite3'}",
                "PORT": str(free_port()),
                "WEBHOOK_URL": "http://127.0.0.1/telegram/webhook",
                "WEBHOOK_SECRET": "bench",
            }
        )
        runtime = Runtime(settings, rng=SeededRng(1), rate_limit=False)
        await runtime.start()
        try:
            app = runtime.application
            assert app is not None
            deps = app.deps
            games = await make_games(deps.campaigns, deps.play, chats)
            bot = app.bot
            update_id = 0
            latencies: list[float] = []
            start = time.perf_counter()
            for _ in range(presses):
                batch = []
                for game in games:
                    update_id += 1
                    update = Update.de_json(press(update_id, game), bot)
                    batch.append(timed(app.process_update, update, latencies))
                    game.version += 1
                    game.level += 1
                await asyncio.gather(*batch)
            elapsed = time.perf_counter() - start
            rate = len(latencies) / elapsed
            p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
            figures += [
                Figure(
                    "bot",
                    f"SQLite, in-process lock, 1 worker: presses over {chats} chats",
                    f"{rate:.0f} updates/s",
                    ">= 250 updates/s",
                    rate >= 250,
                ),
                Figure(
                    "bot",
                    "  server-side latency p50 / p99 (all chats at once)",
                    f"{p50:.1f} / {p99:.1f} ms",
                    "p99 < 40 ms",
                    p99 < 40,
                ),
            ]
            single: list[float] = []
            game = games[0]
            for _ in range(50):
                update_id += 1
                await timed(app.process_update, Update.de_json(press(update_id, game), bot), single)
                game.version += 1
                game.level += 1
            figures.append(
                Figure(
                    "bot",
                    "  one press alone: p50 / p99",
                    f"{percentile(single, 50):.1f} / {percentile(single, 99):.1f} ms",
                    "",
                    None,
                )
            )
            rolls: list[float] = []
            start = time.perf_counter()
            batch = []
            for n in range(chats):
                update_id += 1
                raw = message_update(update_id, -2000 - n, 30_000 + n, "/roll 4d6kh3+2")
                batch.append(timed(app.process_update, Update.de_json(raw, bot), rolls))
            await asyncio.gather(*batch)
            rate = len(rolls) / (time.perf_counter() - start)
            figures.append(
                Figure(
                    "bot",
                    f"/roll commands over {chats} chats",
                    f"{rate:.0f} updates/s, p99 {percentile(rolls, 99):.1f} ms",
                    "",
                    None,
                )
            )
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            await make_games(deps.campaigns, deps.play, 1000 - chats, first=chats)
            rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            figures.append(
                Figure(
                    "memory",
                    "peak resident memory with 1,000 campaigns",
                    f"{rss_after:.0f} MB (was {rss:.0f} MB at {chats})",
                    "< 200 MB",
                    rss_after < 200,
                )
            )
        finally:
            await runtime.stop()
    return figures


def print_table(figures: list[Figure]) -> None:
    print(
        f"\nStonetable benchmarks — {platform.node()}, {platform.processor() or platform.machine()}"
        f", Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}\n"
    )
    width = max(len(f.what) for f in figures)
    print(f"{'area':10} {'measure':{width}}  {'figure':32} {'target':28} met")
    for f in figures:
        met = "" if f.ok is None else ("yes" if f.ok else "NO")
        print(f"{f.area:10} {f.what:{width}}  {f.value:32} {f.target:28} {met}")


async def main_async(args: argparse.Namespace) -> list[Figure]:
    if args.part == "workers":
        from tests.bench.workers import bench_workers

        counts = tuple(int(n) for n in args.workers.split(","))
        return await bench_workers(counts, args.chats, args.seconds, 250, Figure)
    from tests.bench.webapp import Load, bench_webapp

    load = Load(args.clients, args.requests, args.rate, args.seconds)
    if args.part == "webapp":
        with tempfile.TemporaryDirectory() as tmp:
            if args.db == "sqlite":
                return await bench_webapp(load, Path(tmp), sink_api, Figure)
            import asyncpg

            from tests.support.services import running_postgres

            with running_postgres() as pg:
                conn = await asyncpg.connect(pg.url())
                await conn.execute('CREATE DATABASE "bench_webapp"')
                await conn.close()
                url = pg.url("bench_webapp")
                return await bench_webapp(load, Path(tmp), sink_api, Figure, database_url=url)
    figures = bench_odds()
    with tempfile.TemporaryDirectory() as tmp:
        figures += await bench_webapp(load, Path(tmp), sink_api, Figure)
        figures += await bench_bot(args.chats, args.presses, Path(tmp))
    if args.workers:
        figures += workers_in_child(args)
    return figures


def workers_in_child(args: argparse.Namespace) -> list[Figure]:
    """The PostgreSQL part runs in its own process (the ORM keeps one backend per process)."""
    import subprocess
    import sys

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "workers.json"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "tests.bench",
                "--part",
                "workers",
                "--workers",
                args.workers,
                "--chats",
                str(args.chats),
                "--seconds",
                str(args.seconds),
                "--json",
                str(out),
                "--quiet",
            ],
            check=True,
        )
        return [Figure(**item) for item in json.loads(out.read_text())]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench")
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--presses", type=int, default=5)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument(
        "--rate", type=float, default=1000.0, help="Mini App requests/s offered by the clients"
    )
    parser.add_argument(
        "--workers",
        default="1,2",
        help="worker counts on PostgreSQL + Redis, e.g. 1,2 ('' to skip)",
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each load run")
    parser.add_argument(
        "--db",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="the Mini App's database with --part webapp",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--part",
        choices=["all", "workers", "webapp"],
        default="all",
        help="run one part only (webapp: the Mini App alone)",
    )
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    figures = asyncio.run(main_async(args))
    if not args.quiet:
        print_table(figures)
    if args.json:
        args.json.write_text(json.dumps([f.__dict__ for f in figures], indent=2))


if __name__ == "__main__":
    main()
