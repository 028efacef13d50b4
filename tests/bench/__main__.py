"""`python -m tests.bench`: measure odds, the Mini App, the bot and memory; print a table.

Everything runs on this machine over loopback: the bot talks to a minimal local
Bot API server, the Mini App is loaded by concurrent HTTP clients.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.__main__ import build_parser
from core.rules.registry import default_registry


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


def print_table(figures: list[Figure]) -> None:
    print(
        f"\nStonetable benchmarks — {platform.node()}, {platform.processor() or platform.machine()}"
        f", Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}\n"
    )
    width = max(len(f.what) for f in figures)
    value = max(len(f.value) for f in figures)
    target = max(len(f.target) for f in figures)
    print(f"{'area':10} {'measure':{width}}  {'figure':{value}}  {'target':{target}}  met")
    for f in figures:
        met = "" if f.ok is None else ("yes" if f.ok else "NO")
        print(f"{f.area:10} {f.what:{width}}  {f.value:{value}}  {f.target:{target}}  {met}")


async def main_async(args: argparse.Namespace) -> list[Figure]:
    from tests.bench.workers import bench_sqlite_worker

    if args.part == "workers":
        from tests.bench.workers import bench_workers

        counts = tuple(int(n) for n in args.workers.split(","))
        return await bench_workers(counts, args.chats, args.seconds, 250, Figure, args.profile)
    from tests.bench.webapp import Load, bench_webapp
    from tests.bench.workers import RecordingApi

    load = Load(args.clients, args.requests, args.rate, args.seconds)

    def sink(_token: str) -> Any:
        return RecordingApi().app()

    if args.part == "edits":
        from tests.bench.edits import bench_edits

        with tempfile.TemporaryDirectory() as tmp:
            return await bench_edits(Path(tmp), Figure, args.db)
    if args.part == "heavy":
        from tests.bench.heavy import bench_heavy

        with tempfile.TemporaryDirectory() as tmp:
            return await bench_heavy(Path(tmp), Figure)
    if args.part == "polled":
        from tests.bench.polled_rolls import bench_polled_rolls

        with tempfile.TemporaryDirectory() as tmp:
            return await bench_polled_rolls(Path(tmp), Figure, runs=args.polled_runs)
    if args.part == "rolls":
        from tests.bench.rolls import bench_rolls

        with tempfile.TemporaryDirectory() as tmp:
            return await bench_rolls(Path(tmp), Figure, rolls=args.rolls, rounds=args.rounds)
    if args.part == "bot":
        with tempfile.TemporaryDirectory() as tmp:
            return await bench_sqlite_worker(
                args.chats, args.seconds, 250, Path(tmp), Figure, args.campaigns, args.profile
            )
    if args.part == "webapp":
        with tempfile.TemporaryDirectory() as tmp:
            if args.db == "sqlite":
                return await bench_webapp(load, Path(tmp), sink, Figure)
            import asyncpg

            from tests.support.services import running_postgres

            with running_postgres() as pg:
                conn = await asyncpg.connect(pg.url())
                await conn.execute('CREATE DATABASE "bench_webapp"')
                await conn.close()
                url = pg.url("bench_webapp")
                return await bench_webapp(load, Path(tmp), sink, Figure, database_url=url)
    figures = bench_odds() + __import__("tests.bench.dice").bench.dice.bench_dice(Figure)
    from tests.bench.edits import bench_edits

    with tempfile.TemporaryDirectory() as tmp:
        figures += await bench_edits(Path(tmp), Figure)
    figures += part_in_child(["--part", "edits", "--db", "postgres"])
    with tempfile.TemporaryDirectory() as tmp:
        figures += await bench_webapp(load, Path(tmp), sink, Figure)
        figures += await bench_sqlite_worker(
            args.chats, args.seconds, 250, Path(tmp), Figure, args.campaigns, args.profile
        )
    from tests.bench.rolls import bench_rolls

    with tempfile.TemporaryDirectory() as tmp:
        figures += await bench_rolls(Path(tmp), Figure, rolls=args.rolls, rounds=args.rounds)
    from tests.bench.polled_rolls import bench_polled_rolls

    with tempfile.TemporaryDirectory() as tmp:
        figures += await bench_polled_rolls(Path(tmp), Figure, runs=args.polled_runs)
    from tests.bench.heavy import bench_heavy

    with tempfile.TemporaryDirectory() as tmp:
        figures += await bench_heavy(Path(tmp), Figure)
    if args.workers:
        figures += workers_in_child(args)
    return figures


def workers_in_child(args: argparse.Namespace) -> list[Figure]:
    """The PostgreSQL workers' part (see :func:`part_in_child`)."""
    return part_in_child(
        [
            "--part",
            "workers",
            "--workers",
            args.workers,
            "--chats",
            str(args.chats),
            "--seconds",
            str(args.seconds),
        ]
    )


def part_in_child(argv: list[str]) -> list[Figure]:
    """A PostgreSQL part runs in its own process (the ORM keeps one backend per process)."""
    import subprocess
    import sys

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "part.json"
        command = [sys.executable, "-m", "tests.bench", *argv, "--json", str(out), "--quiet"]
        subprocess.run(command, check=True)
        return [Figure(**item) for item in json.loads(out.read_text())]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench")
    parser.add_argument("--chats", type=int, default=200)
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
    parser.add_argument(
        "--campaigns", type=int, default=1000, help="campaigns for the memory figure"
    )
    parser.add_argument(
        "--profile", type=Path, help="write a cProfile of the (single) worker to this file"
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each load run")
    parser.add_argument(
        "--db",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="the Mini App's database with --part webapp or edits",
    )
    parser.add_argument(
        "--rolls", type=int, default=1000, help="/roll updates a bot takes in each round"
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds of /roll, the bots in turn")
    parser.add_argument(
        "--polled-runs",
        type=int,
        default=1,
        help="runs of polled /roll (each: the worker and the bare bots in turn)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--part",
        choices=["all", "workers", "bot", "webapp", "rolls", "polled", "heavy", "edits"],
        default="all",
        help="all, or one part: the bot on SQLite ('bot') or on PostgreSQL ('workers'),"
        " or the Mini App ('webapp'), or /roll beside bare bots ('rolls', by webhook;"
        " 'polled', as measured from outside), or another"
        " chat's /roll while one user floods heavy /odds ('heavy'), or the statements of"
        " a Mini App edit ('edits', on --db)",
    )
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    try:  # the load generator on the workers' event loop too: more load per core
        import uvloop

        figures = uvloop.run(main_async(args))
    except ImportError:
        figures = asyncio.run(main_async(args))
    if not args.quiet:
        print_table(figures)
    if args.json:
        args.json.write_text(json.dumps([f.__dict__ for f in figures], indent=2))


if __name__ == "__main__":
    main()
