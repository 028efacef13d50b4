"""The sandbox of ``make run`` survives a restart, as Telegram's chats do.

A real ``python -m tgbot run`` process without a token (the sandbox), in a temporary
folder with the default ``data/``, played through the sandbox's HTTP endpoints,
stopped with SIGTERM and started again.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.support.bot_api import free_port
from tests.support.browser import chromium

pytestmark = [pytest.mark.e2e]

ROOT = Path(__file__).resolve().parents[3]
GROUP = -100123
ALICE, BO, CHIDI = 1001, 1002, 1003


@dataclass
class Sandbox:
    """One run of ``python -m tgbot run`` with no token: the sandbox on a port."""

    origin: str
    process: subprocess.Popen[bytes]
    log: Path
    http: aiohttp.ClientSession

    async def state(self, user_id: int) -> dict[str, Any]:
        async with self.http.get(f"{self.origin}/sandbox/state?user_id={user_id}") as response:
            assert response.status == 200
            return dict(await response.json())

    async def messages(self, user_id: int, chat_id: int) -> list[dict[str, Any]]:
        state = await self.state(user_id)
        (chat,) = [c for c in state["chats"] if c["chat"]["id"] == chat_id]
        return list(chat["messages"])

    async def act(self, action: str, **body: Any) -> dict[str, Any]:
        async with self.http.post(f"{self.origin}/sandbox/{action}", json=body) as response:
            answer = dict(await response.json())
            assert response.status == 200, answer
            return answer

    async def until(
        self, user_id: int, chat_id: int, found: Callable[[list[dict[str, Any]]], bool]
    ) -> list[dict[str, Any]]:
        for _ in range(200):
            messages = await self.messages(user_id, chat_id)
            if found(messages):
                return messages
            await asyncio.sleep(0.05)
        raise AssertionError(f"not seen in chat {chat_id}: {messages[-3:]}\n{self.log_text()}")

    async def say(self, user_id: int, chat_id: int, text: str) -> dict[str, Any]:
        """Send a message; return the bot's answer, the next message from the bot."""
        sent = (await self.act("send", user_id=user_id, chat_id=chat_id, text=text))["message"]

        def answered(messages: list[dict[str, Any]]) -> bool:
            return any(
                m["message_id"] > sent["message_id"] and m["from"]["is_bot"] for m in messages
            )

        messages = await self.until(user_id, chat_id, answered)
        return next(
            m for m in messages if m["message_id"] > sent["message_id"] and m["from"]["is_bot"]
        )

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        """SIGTERM, as Ctrl+C or a service manager stops ``make run``."""
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=20) == 0, self.log_text()


@asynccontextmanager
async def sandbox(folder: Path, port: int, run: int) -> AsyncIterator[Sandbox]:
    env = {
        **os.environ,
        "BOT_TOKEN": "",
        "DATABASE_URL": "",
        "REDIS_URL": "",
        "WEBHOOK_URL": "",
        "WEBAPP_URL": "",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "LOG_LEVEL": "INFO",
        "RATE_LIMIT": "false",
        "PYTHONPATH": str(ROOT),
    }
    log = folder / f"run-{run}.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "tgbot", "run"],
        cwd=folder,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        async with aiohttp.ClientSession() as http:
            runner = Sandbox(f"http://127.0.0.1:{port}", process, log, http)
            for _ in range(300):
                assert process.poll() is None, runner.log_text()
                if "Sandbox ready" in log.read_text(errors="replace"):
                    break
                await asyncio.sleep(0.1)
            else:
                raise TimeoutError(runner.log_text())
            yield runner
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def handled_update_ids(folder: Path) -> set[int]:
    """The update ids the bot recorded as handled in its database."""
    with sqlite3.connect(folder / "data" / "stonetable.sqlite3") as db:
        return {row[0] for row in db.execute("SELECT update_id FROM processed_update")}


def saved(folder: Path) -> dict[str, Any]:
    return dict(json.loads((folder / "data" / "sandbox.json").read_text()))


async def press(runner: Sandbox, message: dict[str, Any], label: str, then: str) -> None:
    """Alice presses the button starting with ``label``; wait until the message reads ``then``."""
    rows = message["reply_markup"]["inline_keyboard"]
    button = next(b for row in rows for b in row if b["text"].startswith(label))
    await runner.act(
        "press",
        user_id=ALICE,
        chat_id=GROUP,
        message_id=message["message_id"],
        data=button["callback_data"],
    )

    def edited(messages: list[dict[str, Any]]) -> bool:
        (now,) = [m for m in messages if m["message_id"] == message["message_id"]]
        return "edit_date" in now and then in now["text"]

    await runner.until(ALICE, GROUP, edited)


async def choose_game(runner: Sandbox, chooser: dict[str, Any], game: str) -> None:
    """Press a game on the chooser in the group; wait until the bot edits it."""
    await press(runner, chooser, game, game)


async def test_after_a_restart_every_message_is_answered_and_the_chats_are_still_there(
    tmp_path: Path,
) -> None:
    port = free_port()
    async with sandbox(tmp_path, port, 1) as first:
        assert "2d6" in (await first.say(ALICE, GROUP, "/roll 2d6"))["text"]
        chooser = await first.say(ALICE, GROUP, "/newgame")
        left_for_later = await first.say(ALICE, GROUP, "/newgame")
        await choose_game(first, chooser, "Threat dice")
        assert "/roll" in (await first.say(BO, BO, "/help"))["text"]
        group_before = await first.messages(ALICE, GROUP)
        private_before = await first.messages(BO, BO)
        bot_before = (await first.state(ALICE))["bot"]
        first.stop()
    handled_before = handled_update_ids(tmp_path)
    assert handled_before and saved(tmp_path)["next_update_id"] > max(handled_before)

    async with sandbox(tmp_path, port, 2) as second:
        assert (await second.state(ALICE))["bot"] == bot_before
        assert await second.messages(ALICE, GROUP) == group_before
        assert await second.messages(BO, BO) == private_before
        question = await second.say(ALICE, GROUP, "/endgame")
        await press(second, question, "🏁", "ended")
        await choose_game(second, left_for_later, "Cortex drama")  # a button from before
        answers = [
            await second.say(ALICE, GROUP, "/roll 3d6"),
            await second.say(CHIDI, GROUP, "/roll d20"),
            await second.say(CHIDI, CHIDI, "/help"),
            await second.say(BO, GROUP, "/roll 1d8"),
            await second.say(BO, BO, "/help"),
        ]
        assert "3d6" in answers[0]["text"] and "d20" in answers[1]["text"]
        assert "1d8" in answers[3]["text"]
        assert all("/roll" in answer["text"] for answer in (answers[2], answers[4]))
        group_after = await second.messages(ALICE, GROUP)
        untouched = [m for m in group_before if m["message_id"] != left_for_later["message_id"]]
        assert [m for m in group_after if m in group_before] == untouched
        assert [m["message_id"] for m in group_after] == list(range(1, len(group_after) + 1))
        log = second.log_text()
        second.stop()
    assert "Ignored a redelivered update" not in log
    handled_after = handled_update_ids(tmp_path) - handled_before
    assert handled_after and min(handled_after) > max(handled_before)
    assert saved(tmp_path)["next_update_id"] > max(handled_after)


@pytest.mark.browser
async def test_the_sandbox_page_shows_the_old_chat_after_a_restart(tmp_path: Path) -> None:
    """A page left open follows the restart; a page opened afterwards shows the history."""
    from playwright.async_api import expect

    port = free_port()
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(15_000)
        async with sandbox(tmp_path, port, 1) as first:
            await page.goto(f"{first.origin}/sandbox")
            await page.select_option("#player", str(ALICE))
            await expect(page.locator("#chat-title")).to_have_text("The Table")
            await page.fill("#text", "/roll 2d6")
            await page.press("#text", "Enter")
            reply = page.locator('li[data-from="bot"] .text').last
            await expect(reply).to_contain_text("rolls 2d6")
            first.stop()
        async with sandbox(tmp_path, port, 2) as second:
            # The open page reconnects by itself and keeps working.
            await page.fill("#text", "/roll 3d6")
            await page.press("#text", "Enter")
            await expect(page.locator('li[data-from="bot"] .text').last).to_contain_text(
                "rolls 3d6"
            )
            fresh = await browser.new_page(viewport={"width": 1280, "height": 800})
            await fresh.goto(f"{second.origin}/sandbox")
            await fresh.select_option("#player", str(ALICE))
            texts = fresh.locator("li.message .text")
            await expect(texts).to_have_count(4)
            await expect(texts.nth(0)).to_have_text("/roll 2d6")
            await expect(texts.nth(1)).to_contain_text("rolls 2d6")
            await expect(texts.nth(2)).to_have_text("/roll 3d6")
            await expect(fresh.locator('li[data-from="bot"]')).to_have_count(2)


async def test_a_killed_sandbox_keeps_what_happened_before_the_last_moment(
    tmp_path: Path,
) -> None:
    """SIGKILL, as when the machine dies: changes older than a moment are kept."""
    port = free_port()
    async with sandbox(tmp_path, port, 1) as first:
        roll = await first.say(ALICE, GROUP, "/roll 2d6")
        await asyncio.sleep(1.0)  # several times the delay before a write
        before = await first.messages(ALICE, GROUP)
        first.process.kill()
        first.process.wait(timeout=10)
    async with sandbox(tmp_path, port, 2) as second:
        assert (await second.messages(ALICE, GROUP))[: len(before)] == before
        answer = await second.say(ALICE, GROUP, "/roll 3d6")
        assert "3d6" in answer["text"] and answer["message_id"] > roll["message_id"]
        second.stop()
