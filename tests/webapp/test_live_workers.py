"""Live updates across real worker processes: a page held open on one worker hears a change
made through the bot on another, through Redis."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

from tests.support.workers import Balancer, Worker
from tests.tgbot.test_workers import ALICE, BO, GROUP, send
from tests.tgbot.test_workers import cluster as cluster  # the fixture
from tgbot.sandbox.fake_api import FakeBotApi
from webapp.auth import make_init_data

pytestmark = [pytest.mark.e2e, pytest.mark.redis]


async def test_a_roll_on_one_worker_reaches_a_page_open_on_the_other_within_a_second(
    cluster: tuple[FakeBotApi, Balancer, Worker, Worker],
) -> None:
    api, balancer, a, b = cluster
    await send(api, balancer, a, ALICE, "/newgame threat")
    await send(api, balancer, a, BO, "/join")
    await send(api, balancer, b, ALICE, "/sheet")
    token = _app_token(api)
    init = make_init_data(api.token, api.players[ALICE].user_dict(), int(time.time()) - 5)
    async with (
        aiohttp.ClientSession() as http,
        http.get(
            f"{b.origin}/api/c/{token}/events", headers={"Authorization": f"tma {init}"}
        ) as stream,
    ):
        assert stream.status == 200
        assert b"event: ready" in await stream.content.readuntil(b"\n\n")
        started = time.monotonic()
        await send(api, balancer, a, BO, "/roll 3d2t")  # handled by worker A
        notice = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 1.0)
        assert notice.startswith(b"event: changed")
        assert time.monotonic() - started < 1.5  # includes the bot's own reply


def _app_token(api: FakeBotApi) -> str:
    """The campaign's Mini App token, from the link the bot posted in the group."""
    for message in api.messages(GROUP):
        rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
        for button in (b for row in rows for b in row):
            url = button.get("url") or (button.get("web_app") or {}).get("url") or ""
            if "startapp=" in url:
                return str(url.split("startapp=", 1)[1].split("&", 1)[0])
    raise AssertionError("no Mini App link in the group")
