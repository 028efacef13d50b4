"""Dead letters: listed and replayed with ``python -m tgbot dead-letters``; a body over
2 MiB is kept as one. Real processes on SQLite and the local Bot API server."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from core.store.db import close_database, open_database
from core.store.models import DeadLetter, RollRecord
from tests.support.bot_api import running_fake_api
from tests.support.workers import ROOT, SECRET, start_worker
from tgbot.sandbox.fake_api import FakeBotApi

pytestmark = [pytest.mark.e2e]

GROUP = -100123
ALICE = 1001


def cli(args: list[str], env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tgbot", "dead-letters", *args],
        env={**os.environ, "PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING", **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def rolls(api: FakeBotApi) -> int:
    return sum(1 for m in api.messages(GROUP) if " rolls " in (m.get("text") or ""))


async def a_roll_update(api: FakeBotApi) -> dict[str, Any]:
    await api.send_text(ALICE, GROUP, "/roll 1d6")
    (update,) = api.pending_updates()[-1:]
    return update


async def test_a_dead_letter_is_replayed_once_and_listed_as_replayed(tmp_path: Path) -> None:
    database = f"sqlite://{tmp_path}/game.sqlite3"
    async with running_fake_api() as (api, base_url, _):
        env = {
            "BOT_TOKEN": api.token,
            "TELEGRAM_API_URL": base_url.removesuffix("/bot"),
            "DATABASE_URL": database,
            "RATE_LIMIT": "false",
        }
        update = await a_roll_update(api)
        await open_database(database)  # as if its handler had failed: kept, not shown
        try:
            await DeadLetter.create(
                update_id=update["update_id"],
                reason="a handler failed: RuntimeError: boom",
                body=json.dumps(update),
            )
            await DeadLetter.create(update_id=None, reason="not JSON", body="{nope")
        finally:
            await close_database()
        listed = await asyncio.to_thread(cli, ["list"], env, tmp_path)
        assert "a handler failed: RuntimeError: boom" in listed and "not JSON" in listed

        out = await asyncio.to_thread(cli, ["replay"], env, tmp_path)
        assert "#1  update" in out and "replayed" in out.splitlines()[0]
        assert "not replayed: still unusable" in out  # the body that is not JSON
        for _ in range(50):
            if rolls(api):
                break
            await asyncio.sleep(0.1)
        assert rolls(api) == 1

        again = await asyncio.to_thread(cli, ["replay", "--id", "1"], env, tmp_path)
        assert "#1  update" in again and "not replayed" not in again  # safe: changes nothing
        await asyncio.sleep(0.5)
        assert rolls(api) == 1
        await open_database(database)
        try:
            assert await RollRecord.all().count() == 1
        finally:
            await close_database()
        listed = await asyncio.to_thread(cli, ["list"], env, tmp_path)
        assert "(replayed)" in listed


async def test_a_webhook_body_over_two_mib_is_kept_as_a_dead_letter(tmp_path: Path) -> None:
    database = f"sqlite://{tmp_path}/game.sqlite3"
    async with running_fake_api() as (api, base_url, _):
        worker = await start_worker(
            "a",
            api_base=base_url.removesuffix("/bot"),
            token=api.token,
            database_url=database,
            redis_url=None,
            tmp=tmp_path,
            migrate=True,
        )
        try:
            body = b'{"update_id": 5, "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'
            headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
            for _ in range(50):  # 503: the worker is still starting; Telegram sends it again
                async with (
                    aiohttp.ClientSession() as http,
                    http.post(
                        f"{worker.origin}/telegram/webhook", data=body, headers=headers
                    ) as response,
                ):
                    status = response.status
                if status != 503:
                    break
                await asyncio.sleep(0.2)
        finally:
            worker.stop()
        assert status == 200  # acknowledged: Telegram moves on
        await open_database(database, apply_migrations=False)
        try:
            letters = await DeadLetter.all()
        finally:
            await close_database()
        assert len(letters) == 1
        assert "2 MiB" in letters[0].reason and letters[0].update_id == 5
        assert letters[0].body.startswith('{"update_id": 5')  # its start, cut at 64 KiB
