"""The whole application, started in-process against the local Bot API server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp

from core.campaigns import Campaigns
from core.rules.registry import Registry
from core.rules.rng import Rng, SeededRng
from core.runtime.settings import parse_settings
from core.store.models import Panel as PanelRow
from tests.support.bot_api import free_port, running_fake_api
from tgbot.main import Runtime
from tgbot.sandbox.fake_api import FakeBotApi, Player, default_cast

GROUP = -100123
OLGA = 1005  # beside default_cast's four: a Russian speaker who has started the bot
TIMEOUT = 10


@dataclass
class Stack:
    api: FakeBotApi
    runtime: Runtime

    @property
    def origin(self) -> str:
        return self.runtime.origin

    @property
    def players(self) -> list[int]:
        return list(self.api.players)


@asynccontextmanager
async def running_stack(
    database_url: str,
    *,
    rng: Rng | None = None,
    env: dict[str, str] | None = None,
    webhook_secret: str | None = None,
    registry: Registry | None = None,
    clock: Callable[[], float] = time.time,
    through: Callable[[str], AbstractAsyncContextManager[str]] | None = None,
    **api_kwargs: Any,
) -> AsyncIterator[Stack]:
    """Start the fake Bot API and the real application pointed at it (``through``: a
    proxy started on the Bot API's URL, yielding the URL the bot is to use instead)."""
    port = free_port()
    webapp_url = f"http://127.0.0.1:{port}/app"
    async with (
        running_fake_api(webapp_url=webapp_url, **api_kwargs) as (api, base_url, _),
        (through or nullcontext)(base_url.removesuffix("/bot")) as api_url,
    ):
        settings = parse_settings(
            {
                "BOT_TOKEN": api.token,
                "TELEGRAM_API_URL": api_url,
                "DATABASE_URL": database_url,
                "HOST": "127.0.0.1",
                "PORT": str(port),
                "WEBAPP_URL": webapp_url,
                **(
                    {
                        "WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram/webhook",
                        "WEBHOOK_SECRET": webhook_secret,
                    }
                    if webhook_secret
                    else {}
                ),
                **(env or {}),
            }
        )
        runtime = Runtime(
            settings, rng=rng or SeededRng(2026), clock=clock, rate_limit=False, registry=registry
        )
        await runtime.start()
        stack = Stack(api, runtime)
        try:
            yield stack
        finally:
            await stack.runtime.stop()  # a test may have restarted it


def campaigns(stack: Stack) -> Campaigns:
    """The running application's campaign use cases."""
    assert stack.runtime.application is not None
    return stack.runtime.application.deps.campaigns


def labels(message: dict[str, Any], *, undo: bool = False) -> list[str]:
    """The text of every inline button on a message, row by row (the ``↩ Undo`` button
    under a panel only with ``undo``)."""
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [b["text"] for row in rows for b in row if undo or not b["text"].startswith("↩ Undo")]


def cast_with_olga(*, started: bool | Iterable[int] = True) -> list[Player]:
    """``default_cast``'s four players (``started`` as there) and Olga, in Russian."""
    olga = Player(OLGA, "Ольга", "Петрова", "olga", language_code="ru", started=True)
    return [*default_cast(started=started), olga]


def from_bot(stack: Stack) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is the bot's."""
    return lambda m: m["from"]["id"] == stack.api.bot_id


async def say(
    stack: Stack, user: int, chat: int, text: str, thread: int | None = None
) -> dict[str, Any]:
    """``user`` sends ``text`` in ``chat`` (in a forum, in the topic ``thread``); the bot's
    next message there."""
    mark = stack.api.mark()
    await stack.api.send_text(user, chat, text, thread_id=thread)
    return await stack.api.wait_for_message(chat, from_bot(stack), timeout=TIMEOUT, since=mark)


async def panel_row(message: dict[str, Any], timeout: float = TIMEOUT) -> PanelRow:
    """The stored panel a bot message shows. The bot notes a panel's message id once
    Telegram has answered the send, a moment after the message reaches the chat, so
    this waits for that note rather than racing it."""
    chat = message["chat"]["id"]
    deadline = time.monotonic() + timeout
    while True:
        row = await PanelRow.get_or_none(message_id=message["message_id"], chat_tg_id=chat)
        if row is not None:
            return row
        if time.monotonic() > deadline:
            raise AssertionError(f"no panel noted for message {message['message_id']}")
        await asyncio.sleep(0.02)


def mini_app_headers(stack: Stack, user: int) -> dict[str, str]:
    """What ``user``'s Mini App sends with each request (signed initData), opened from the
    bot's link in the group."""
    link = f"https://t.me/{stack.api.username}?startapp=home"
    launch = stack.api.open_web_app(user, link, from_chat_id=GROUP)
    init_data = parse_qs(urlsplit(launch).fragment)["tgWebAppData"][0]
    return {"Authorization": f"tma {init_data}"}


async def mini_app_get(stack: Stack, user: int, path: str) -> tuple[int, str]:
    """``user`` opens ``path`` of the Mini App (or its API); the status and the body."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(stack.origin + path, headers=mini_app_headers(stack, user)) as response,
    ):
        return response.status, await response.text()
