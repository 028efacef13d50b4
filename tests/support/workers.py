"""Real worker processes (`python -m tgbot run` in webhook mode) sharing PostgreSQL and Redis.

The test plays the load balancer: it takes the updates the local Bot API server
holds and posts each to the worker it chooses, the way Telegram posts to a webhook.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from tests.support.bot_api import free_port

ROOT = Path(__file__).resolve().parents[2]
SECRET = "workers-secret"
PAUSING_WORKER = ("-m", "tests.support.pausing_worker")  # a worker with a test's pause points


@dataclass
class Worker:
    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as when a machine dies."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the worker process has used so far."""
        return cpu_seconds(self.process.pid)

    def peak_memory_mb(self) -> float:
        """The worker's peak resident memory (VmHWM)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmHWM in /proc status")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process, from /proc (meaningful on a busy machine)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / os.sysconf("SC_CLK_TCK")


async def start_worker(
    name: str,
    *,
    api_base: str,
    token: str,
    database_url: str,
    redis_url: str | None,
    tmp: Path,
    migrate: bool,
    rate_limit: bool = True,
    profile: Path | None = None,
    webhook: bool = True,
    command: tuple[str, ...] = ("-m", "tgbot", "run"),
    env: dict[str, str] | None = None,
    ready: bool = True,
) -> Worker:
    """Start a worker and wait until it answers; ``profile``: write a cProfile there on exit.

    ``ready=False``: return as soon as its HTTP server answers at all (``/healthz`` says
    503 while the bot is still starting), not once it is ready.

    ``webhook=False``: the worker long-polls the Bot API server instead.
    ``command``: what the interpreter runs (the benchmark's bare bots take the same setup).
    ``env``: more variables (e.g. ``STONETABLE_PAUSE_AT`` for a worker started by
    :mod:`tests.support.pausing_worker`, a point where it stops to be killed).
    """
    port = free_port()
    more_env = env
    env = {
        **os.environ,
        "BOT_TOKEN": token,
        "TELEGRAM_API_URL": api_base,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url or "",
        "WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram/webhook",
        "WEBHOOK_SECRET": SECRET,
        "WEBAPP_URL": f"http://127.0.0.1:{port}/app",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "LOG_LEVEL": os.environ.get("WORKER_LOG_LEVEL", "WARNING"),
        "MIGRATE_ON_START": "true" if migrate else "false",
        "PYTHONPATH": str(ROOT),
        "RATE_LIMIT": "true" if rate_limit else "false",
    }
    if not webhook:
        env["WEBHOOK_URL"] = env["WEBHOOK_SECRET"] = ""
    env.update(more_env or {})
    log = tmp / f"{name}.log"
    process = subprocess.Popen(
        [
            sys.executable,
            *(["-m", "cProfile", "-o", str(profile)] if profile is not None else []),
            *command,
        ],
        cwd=tmp,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    worker = Worker(name, port, process, log)
    async with aiohttp.ClientSession() as http:
        for _ in range(300):
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited: {log.read_text()[-2000:]}")
            try:
                async with http.get(f"{worker.origin}/healthz") as response:
                    if response.status == 200 or not ready:
                        return worker
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    worker.stop()
    raise TimeoutError(f"{name} did not start: {log.read_text()[-2000:]}")


@dataclass
class Balancer:
    """Forwards the Bot API server's pending updates to chosen workers."""

    api: Any
    seen: set[int] = field(default_factory=set)

    def take(self) -> list[dict[str, Any]]:
        fresh = [u for u in self.api.pending_updates() if u["update_id"] not in self.seen]
        self.seen.update(u["update_id"] for u in fresh)
        return fresh

    async def post(self, worker: Worker | str, update: dict[str, Any]) -> int:
        """Post ``update`` to a worker's webhook (or to ``origin``); the status, 0 if none.

        A 503 ("not yet": a worker still starting) is posted again shortly, as
        Telegram does.
        """
        for _ in range(50):
            status = await self._post_once(worker, update)
            if status != 503:
                return status
            await asyncio.sleep(0.1)
        return status

    async def _post_once(self, worker: Worker | str, update: dict[str, Any]) -> int:
        headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
        origin = worker if isinstance(worker, str) else worker.origin
        try:
            async with (
                aiohttp.ClientSession() as http,
                http.post(
                    f"{origin}/telegram/webhook",
                    json=update,
                    headers=headers,
                    timeout=aiohttp.ClientTimeout(total=10),
                ) as response,
            ):
                return response.status
        except (aiohttp.ClientError, TimeoutError):
            return 0  # the worker is gone: Telegram would retry elsewhere


class KillingProxy:
    """A TCP proxy in front of one worker's webhook that SIGKILLs the worker on cue.

    ``at="answer"``: the instant the first bytes of the worker's 200 (its status
    line) arrive, the worker is killed, then the answer is passed on: the caller
    sees the 200 that left a worker which is now dead, as Telegram would. (Other
    answers, such as a starting worker's 503, pass through.)
    ``at="request"``: the worker is killed as soon as the whole request was passed
    to it, before it can answer; the caller sees the connection drop.
    """

    def __init__(self, worker: Worker, at: str) -> None:
        assert at in ("answer", "request")
        self.worker = worker
        self.at = at
        self.killed = asyncio.Event()
        self._server: asyncio.Server | None = None

    @property
    def origin(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def __aenter__(self) -> KillingProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    def _kill(self) -> None:
        if not self.killed.is_set():
            os.kill(self.worker.process.pid, signal.SIGKILL)
            self.worker.process.wait(timeout=10)
            self.killed.set()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            body = await reader.readexactly(length)
            upstream_reader, upstream = await asyncio.open_connection("127.0.0.1", self.worker.port)
            upstream.write(head + body)
            await upstream.drain()
            if self.at == "request":
                self._kill()
                return
            answer = await upstream_reader.read(65536)
            if answer.startswith((b"HTTP/1.1 200", b"HTTP/1.0 200")):
                self._kill()
            while answer:
                writer.write(answer)
                await writer.drain()
                answer = await upstream_reader.read(65536)
            upstream.close()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()


# -- a cluster of workers in front of one database, killed at chosen points -------------------


async def fresh_database(server: Any, prefix: str, template: str = "") -> str:
    """A new PostgreSQL database on ``server`` (a PostgresServer), empty or a copy of
    ``template`` (the tests' ``postgres_template``, migrated once per run); its URL."""
    import asyncpg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    like = f' TEMPLATE "{template}"' if template else ""
    conn = await asyncpg.connect(server.url())
    await conn.execute(f'CREATE DATABASE "{name}"{like}')
    await conn.close()
    return str(server.url(name))


async def count(database: str, query: str) -> int:
    """One number from ``query`` on a worker's database (PostgreSQL or SQLite)."""
    if database.startswith("sqlite://"):
        with sqlite3.connect(database.removeprefix("sqlite://")) as conn:
            return int(conn.execute(query).fetchone()[0])
    import asyncpg

    conn = await asyncpg.connect(database)
    try:
        return int(await conn.fetchval(query))
    finally:
        await conn.close()


@dataclass
class Cluster:
    """Workers on one database and one local Bot API server; the test delivers updates.

    A worker stops at a pause point (its hooks, :class:`tests.support.pausing_worker.FilePauses`,
    given to the unit of work of every change): the one it was started with
    (``pause_at``), or the one the test writes to :attr:`control` before it delivers an
    update (every worker reads it).

    Every worker's clock is the time moved on by what :meth:`move_clock` kept;
    ``env``: more variables for the workers started from then on (such as
    ``STONETABLE_REMIND_EVERY``).
    """

    api: Any
    balancer: Balancer
    common: dict[str, Any]
    tmp: Path
    workers: list[Worker]
    env: dict[str, str] = field(default_factory=dict)
    moved: float = 0.0  # the seconds every worker's clock was moved on

    def move_clock(self, seconds: float) -> None:
        """Move every worker's clock on by ``seconds`` (at once: each reads it anew)."""
        self.moved += seconds
        kept = self.tmp / "clock-offset.new"
        kept.write_text(repr(self.moved))
        kept.replace(self.tmp / "clock-offset")  # whole: never read half written

    @property
    def control(self) -> Path:
        return self.tmp / "pause-at"

    def pause_next_at(self, point: str) -> None:
        """The next update any worker handles stops at ``point`` ("": none)."""
        for worker in self.workers:
            self.paused(worker.name).unlink(missing_ok=True)
        self.control.write_text(point)

    async def start(self, name: str, *, pause_at: str = "", migrate: bool = False) -> Worker:
        env = {
            "STONETABLE_PAUSE_AT": pause_at,
            "STONETABLE_PAUSE_FILE": str(self.paused(name)),
            "STONETABLE_PAUSE_CONTROL": "" if pause_at else str(self.control),
            "STONETABLE_CLOCK_FILE": str(self.tmp / "clock-offset"),
            **self.env,
        }
        worker = await start_worker(
            name, migrate=migrate, env=env, command=PAUSING_WORKER, **self.common
        )
        self.workers.append(worker)
        return worker

    def paused(self, name: str) -> Path:
        return self.tmp / f"{name}.paused"

    async def say(self, worker: Worker, user: int, chat: int, text: str) -> dict[str, Any]:
        """``user`` sends ``text`` in ``chat``; the worker handles it; the bot's reply."""
        await self.api.send_text(user, chat, text)
        for update in self.balancer.take():
            assert await self.balancer.post(worker, update) == 200
        return dict(await self.api.wait_for_message(chat, timeout=15))

    async def kill_at_pause(self, worker: Worker, update: dict[str, Any]) -> None:
        """Deliver ``update`` to ``worker``, wait for it to stop at its point, kill it."""
        delivery = asyncio.create_task(self.balancer.post(worker, update))
        for _ in range(300):
            if self.paused(worker.name).exists():
                break
            await asyncio.sleep(0.05)
        else:
            delivery.cancel()
            raise AssertionError(f"{worker.name} never reached its pause point")
        worker.kill()
        assert await delivery == 0  # no 200: Telegram delivers the update again


@asynccontextmanager
async def cluster_on(database: str, redis_url: str | None, tmp: Path) -> AsyncIterator[Cluster]:
    """A local Bot API server and the workers a test starts on ``database``; stopped after
    (their logs printed: pytest shows them when the test failed)."""
    from tests.support.bot_api import running_fake_api

    async with running_fake_api() as (api, base_url, _):
        common: dict[str, Any] = {
            "api_base": base_url.removesuffix("/bot"),
            "token": api.token,
            "database_url": database,
            "redis_url": redis_url,
            "tmp": tmp,
        }
        cluster = Cluster(api, Balancer(api), common, tmp, [])
        try:
            yield cluster
        finally:
            await stop_all(cluster.workers)
            for worker in cluster.workers:
                print(f"--- worker {worker.name} log ---\n{worker.log.read_text()[-4000:]}")


async def stop_all(workers: list[Worker]) -> None:
    """Stop the workers together, with this event loop free meanwhile: a worker stopping
    still talks to the servers the test runs on it (the local Bot API server)."""
    for worker in workers:
        if worker.process.poll() is None:
            worker.process.terminate()
    await asyncio.gather(*(asyncio.to_thread(worker.stop) for worker in workers))
