"""Telegram's 429 Too Many Requests: the bot waits as told and the message still arrives."""

from __future__ import annotations

import time

import aiohttp
import pytest
from aiohttp import web

from core.rules.rng import SeededRng
from core.runtime.settings import parse_settings
from tests.support.bot_api import free_port, running_fake_api, serve_app
from tgbot.main import Runtime

pytestmark = [pytest.mark.e2e, pytest.mark.db]

GROUP = -100123


def throttling_proxy(target: str, refusals: list[float]) -> web.Application:
    """Forwards Bot API calls, but answers the first sendMessage with 429 retry_after=1."""

    async def forward(request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if method.lower() == "sendmessage" and not refusals:
            refusals.append(time.monotonic())
            return web.json_response(
                {
                    "ok": False,
                    "error_code": 429,
                    "description": "Too Many Requests: retry after 1",
                    "parameters": {"retry_after": 1},
                },
                status=429,
            )
        body = await request.read()
        headers = {"Content-Type": request.headers.get("Content-Type", "")}
        async with (
            aiohttp.ClientSession() as http,
            http.post(
                f"{target}/{request.match_info['path']}/{method}", data=body, headers=headers
            ) as response,
        ):
            return web.Response(
                body=await response.read(), status=response.status, content_type="application/json"
            )

    app = web.Application()
    app.router.add_post("/{path}/{method}", forward)
    return app


async def test_a_429_is_waited_out_and_the_reply_arrives_once(db: str) -> None:
    refusals: list[float] = []
    async with running_fake_api() as (api, base_url, _):
        target = base_url.removesuffix("/bot")
        async with serve_app(throttling_proxy(target, refusals)) as proxy:
            settings = parse_settings(
                {
                    "BOT_TOKEN": api.token,
                    "TELEGRAM_API_URL": proxy,
                    "DATABASE_URL": db,
                    "PORT": str(free_port()),
                }
            )
            runtime = Runtime(settings, rng=SeededRng(1))  # the real rate limiter
            await runtime.start()
            try:
                await api.send_text(1001, GROUP, "/roll 2d6")
                reply = await api.wait_for_message(GROUP, timeout=15)
                waited = time.monotonic() - refusals[0]
            finally:
                await runtime.stop()
    assert "Total" in reply["text"]
    assert waited >= 1.0
    assert len([m for m in api.messages(GROUP) if "Total" in m.get("text", "")]) == 1
