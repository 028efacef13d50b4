"""A game's Mini App served over the test database, and a client calling its API as a
Telegram user would (signed launch data, an optional idempotency key); the app of a
running stack opened on a phone in Chromium."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from tests.support.bot_api import serve_app
from tests.support.browser import TELEGRAM_JS, phone_page, telegram_stub
from tests.support.heavy import small_heavy
from tests.support.stack import Stack
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages


async def start_game(
    campaigns: Campaigns,
    play: Play,
    system: str,
    group: ChatRef,
    gm: PlayerRef,
    member: PlayerRef,
    strangers: Iterable[PlayerRef] = (),
) -> str:
    """A game of ``system`` hosted by ``gm`` in ``group`` and joined by ``member``;
    ``strangers`` have started the bot but are not in it. Its Mini App token."""
    await campaigns.new_game(group, gm, system)
    await play.mark_started(member)
    await campaigns.join(group, member)
    for stranger in strangers:
        await play.mark_started(stranger)
    return (await campaigns.require_current(group.tg_id)).app_token


@dataclass
class Web:
    """The served Mini App of one game, called as ``member`` unless told otherwise."""

    origin: str
    token: str
    http: aiohttp.ClientSession
    campaigns: Campaigns
    bot_token: str
    member: PlayerRef

    def auth(self, who: PlayerRef | None = None, bot_token: str | None = None) -> dict[str, str]:
        """The header of a launch by ``who``, signed with ``bot_token`` (a forgery if not
        the app's)."""
        who = who or self.member
        user = {"id": who.tg_id, "first_name": who.first_name}
        if who.language_code:
            user["language_code"] = who.language_code
        signed_with = bot_token or self.bot_token
        init = make_init_data(signed_with, user, int(time.time()) - 5, start_param=self.token)
        return {"Authorization": f"tma {init}"}

    async def post(
        self,
        route: str,
        body: Any = None,
        *,
        key: str | None = None,
        who: PlayerRef | None = None,
        bot_token: str | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        """POST ``body`` (or the bytes ``raw``) as JSON to ``/api/c/<token>/<route>``:
        the status, the answer and its headers."""
        headers = {**self.auth(who, bot_token), "Content-Type": "application/json"}
        if key is not None:
            headers["Idempotency-Key"] = key
        data = raw if raw is not None else json.dumps(body).encode()
        async with self.http.post(
            f"{self.origin}/api/c/{self.token}/{route}", data=data, headers=headers
        ) as response:
            return response.status, json.loads(await response.text()), dict(response.headers)


@asynccontextmanager
async def served_game(
    system: str,
    *,
    bot_token: str,
    group: ChatRef,
    gm: PlayerRef,
    member: PlayerRef,
    strangers: Iterable[PlayerRef] = (),
) -> AsyncIterator[Web]:
    """The web app over the test database with a game started as :func:`start_game` does."""
    locks = InProcessKeyedLock()
    campaigns = Campaigns(default_registry(), SeededRng(1), locks)
    play = Play(SeededRng(1), locks, time.time)
    token = await start_game(campaigns, play, system, group, gm, member, strangers)
    app = create_app(
        WebDeps(play, campaigns, sheet_pages(), bot_token, 86400, time.time, heavy=small_heavy())
    )
    async with serve_app(app) as origin, aiohttp.ClientSession() as http:
        yield Web(origin, token, http, campaigns, bot_token, member)


def init_for(stack: Stack, user: int, token: str, *, bot_token: str | None = None) -> str:
    """The launch data Telegram gives ``user`` opening the game ``token`` from its group
    (signed with ``bot_token``: a forgery if not the bot's)."""
    return make_init_data(
        bot_token or stack.api.token,
        stack.api.players[user].user_dict(),
        int(time.time()) - 5,
        start_param=token,
        chat_type="supergroup",
    )


async def open_app(browser: Any, stack: Stack, user: int, token: str, theme: str) -> Any:
    """The Mini App on a phone, as Telegram opens it from the group's link."""
    init = init_for(stack, user, token)
    page = await phone_page(browser, init_data=init, theme=theme, start_param=token)
    # The shared stub has no HapticFeedback.notificationOccurred, which app.js calls
    # after an edit; Telegram has it, so the stub served here adds it.
    stub = telegram_stub(init, theme, token) + (
        "window.Telegram.WebApp.HapticFeedback.notificationOccurred = function () {};"
    )

    async def serve(route: Any) -> None:
        await route.fulfill(status=200, content_type="application/javascript", body=stub)

    await page.route(TELEGRAM_JS + "*", serve)
    page.set_default_timeout(30_000)  # generous: CI machines run browsers side by side
    await page.goto(f"{stack.origin}/app")
    return page
