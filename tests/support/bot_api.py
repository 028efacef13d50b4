"""Test helpers: the fake Bot API on a local port, and a real PTB bot polling it."""

from __future__ import annotations

import itertools
import os
import random
import socket
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp import web
from telegram.ext import Application, BaseHandler

from tgbot.sandbox.fake_api import FakeBotApi, Json
from tgbot.sandbox.web import create_sandbox_app

PREFIX = "/sandbox"


def _ports() -> Iterable[int]:
    """Where the servers the tests start listen: below the ports the kernel gives outgoing
    connections, so that no connection takes one between its pick and its bind; the
    PostgreSQL pass, which runs beside the SQLite one, has a half of its own; each pass
    goes round its half from a random place, so a port is not given twice soon."""
    try:
        first = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        first = 0
    if first < 12000:  # no room below them: whatever the kernel gives
        return iter(())
    low, high = 10081, first - 1  # above the ports browsers refuse to open (10080 the last)
    middle = (low + high) // 2
    if os.environ.get("STONETABLE_TEST_DB") == "postgres":
        low = middle + 1
    else:
        high = middle
    ports = list(range(low, high + 1))
    start = random.randrange(len(ports))
    return itertools.cycle(ports[start:] + ports[:start])


_PORTS = _ports()


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    for port in itertools.islice(_PORTS, 500):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:  # taken (or waiting out its close): the next
                continue
            return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@asynccontextmanager
async def serve_app(app: web.Application) -> AsyncIterator[str]:
    """Serve ``app`` on a free 127.0.0.1 port; yield its origin."""
    runner = web.AppRunner(app, shutdown_timeout=1.0)
    await runner.setup()
    port = free_port()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@asynccontextmanager
async def running_fake_api(**kwargs: Any) -> AsyncIterator[tuple[FakeBotApi, str, str]]:
    """Run ``FakeBotApi(**kwargs)`` over HTTP; yield (api, base_url, base_file_url) for PTB."""
    api = FakeBotApi(**kwargs)
    async with serve_app(create_sandbox_app(api, prefix=PREFIX)) as origin:
        yield api, f"{origin}{PREFIX}/api/bot", f"{origin}{PREFIX}/api/file/bot"


def build_application(
    api: FakeBotApi,
    base_url: str,
    base_file_url: str,
    handlers: Iterable[BaseHandler[Any, Any, Any]],
) -> Application[Any, Any, Any, Any, Any, Any]:
    """Build a PTB Application that talks to the fake API, with ``handlers`` added."""
    application = (
        Application.builder()
        .token(api.token)
        .base_url(base_url)
        .base_file_url(base_file_url)
        .build()
    )
    application.add_handlers(list(handlers))
    return application


@asynccontextmanager
async def polling_bot(
    api: FakeBotApi,
    base_url: str,
    base_file_url: str,
    handlers: Iterable[BaseHandler[Any, Any, Any]],
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """Run a real PTB Application polling the fake API for the duration of the block."""
    application = build_application(api, base_url, base_file_url, handlers)
    await application.initialize()
    await application.start()
    assert application.updater is not None
    await application.updater.start_polling(poll_interval=0.0, timeout=1)
    try:
        yield application
    finally:
        await application.updater.stop()
        await application.stop()
        await application.shutdown()


async def send_and_wait(
    api: FakeBotApi,
    user_id: int,
    chat_id: int,
    text: str,
    predicate: Callable[[Json], bool] | None = None,
    timeout: float = 5.0,
) -> Json:
    """Post ``text`` as a player and return the bot's next matching message in that chat."""
    await api.send_text(user_id, chat_id, text)
    return await api.wait_for_message(chat_id, predicate, timeout)


async def press_and_wait(
    api: FakeBotApi,
    user_id: int,
    chat_id: int,
    message_id: int,
    callback_data: str,
    timeout: float = 5.0,
) -> tuple[Json, Json]:
    """Press a button; return the bot's answer and the next message or edit in that chat."""
    press = await api.press_button(user_id, chat_id, message_id, callback_data)
    answer = await press.answered(timeout)
    return answer, await api.wait_for_message(chat_id, timeout=timeout)
