"""How the process runs: the built-in sandbox, webhook mode, configuration errors."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import aiohttp
import pytest

from core.rules.rng import SeededRng
from core.runtime.settings import parse_settings
from tests.support.bot_api import free_port
from tests.support.stack import GROUP, running_stack
from tgbot.main import SANDBOX_PREFIX, Runtime

pytestmark = [pytest.mark.e2e, pytest.mark.db]


async def test_without_a_token_the_sandbox_answers_a_roll(db: str) -> None:
    settings = parse_settings({"DATABASE_URL": db, "PORT": str(free_port())})
    runtime = Runtime(settings, rng=SeededRng(5), rate_limit=False)
    await runtime.start()
    try:
        api = runtime.sandbox
        assert api is not None
        ana = next(iter(api.players))
        await api.send_text(ana, api.group_id, "/roll 4d6kh3")
        reply = await api.wait_for_message(api.group_id, timeout=10)
        assert "4d6kh3" in reply["text"] and "Total:" in reply["text"]
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{runtime.origin}{SANDBOX_PREFIX}") as page:
                assert page.status == 200
            async with http.get(f"{runtime.origin}/healthz") as health:
                assert (await health.json()) == {"ok": True}
    finally:
        await runtime.stop()


async def test_webhook_mode_takes_updates_with_the_secret_and_refuses_others(db: str) -> None:
    async with running_stack(db, webhook_secret="hook-secret") as stack:
        application = stack.runtime.application
        assert application is not None and application.updater is None
        hook = f"{stack.origin}/telegram/webhook"
        await application.bot.set_webhook(hook, secret_token="hook-secret")
        await stack.api.send_text(stack.players[0], GROUP, "/roll 2d6+3")
        reply = await stack.api.wait_for_message(GROUP, timeout=10)
        assert "2d6 + 3" in reply["text"]
        async with aiohttp.ClientSession() as http:
            forged = {"X-Telegram-Bot-Api-Secret-Token": "guess"}
            async with http.post(hook, json={"update_id": 1}, headers=forged) as response:
                assert response.status == 403
            async with http.post(hook, json={"update_id": 1}) as response:
                assert response.status == 403
            good = {"X-Telegram-Bot-Api-Secret-Token": "hook-secret"}
            async with http.post(hook, data=b"not json", headers=good) as response:
                assert response.status == 200  # never usable: kept as a dead letter


def test_a_bad_setting_stops_start_up_with_one_line_naming_it() -> None:
    env = {**os.environ, "PORT": "eighty", "BOT_TOKEN": ""}
    result = subprocess.run(
        [sys.executable, "-m", "tgbot", "run"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "Configuration error: PORT must be a whole number, got 'eighty'"


async def test_an_update_delivered_twice_is_applied_once(db: str) -> None:
    from core.store.models import RollRecord

    async with running_stack(db, webhook_secret="hook-secret") as stack:
        # No webhook is registered with the Bot API, so the update waits there; we deliver
        # it ourselves three times, as Telegram does when it did not see our answer.
        await stack.api.send_text(stack.players[0], GROUP, "/roll 3d6")
        (update,) = stack.api.pending_updates()
        hook = f"{stack.origin}/telegram/webhook"
        headers = {"X-Telegram-Bot-Api-Secret-Token": "hook-secret"}
        async with aiohttp.ClientSession() as http:
            for _ in range(3):
                async with http.post(hook, json=update, headers=headers) as response:
                    assert response.status == 200
        await stack.api.wait_for_message(GROUP, timeout=10)
        await asyncio.sleep(0.5)
        assert await RollRecord.all().count() == 1
        replies = [m for m in stack.api.messages(GROUP) if "Total" in m.get("text", "")]
        assert len(replies) == 1
