"""Every change a Telegram update makes is applied once, however often it is delivered.

Each update id travels from the handler to the use case, which claims it in the
same transaction as the change; a second copy changes nothing and says nothing.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from core.store.models import Campaign, Member, Panel, ProcessedUpdate
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

SECRET = "hook-secret"
ALICE, BO, CHIDI = 1001, 1002, 1003


class Telegram:
    """Delivers each new update to the webhook twice, as Telegram does when an answer is lost."""

    def __init__(self, stack: Stack) -> None:
        self.stack, self.seen = stack, set[int]()
        self.hook = f"{stack.origin}/telegram/webhook"

    async def deliver_twice(self) -> int:
        fresh = [u for u in self.stack.api.pending_updates() if u["update_id"] not in self.seen]
        self.seen.update(u["update_id"] for u in fresh)
        headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
        async with aiohttp.ClientSession() as http:
            for update in fresh:
                for _ in range(2):
                    async with http.post(self.hook, json=update, headers=headers) as response:
                        assert response.status == 200
        return len(fresh)

    async def say(self, user: int, text: str) -> dict[str, Any]:
        await self.stack.api.send_text(user, GROUP, text)
        assert await self.deliver_twice() == 1
        return await self.stack.api.wait_for_message(GROUP, timeout=10)


def texts(stack: Stack, part: str) -> int:
    return sum(part in m.get("text", "") for m in stack.api.messages(GROUP))


async def test_commands_and_presses_delivered_twice_are_applied_once(db: str) -> None:
    async with running_stack(db, webhook_secret=SECRET, players=default_cast()) as stack:
        telegram = Telegram(stack)
        assert "started a game" in (await telegram.say(ALICE, "/newgame threat"))["text"]
        for user in (BO, CHIDI):
            assert "joined" in (await telegram.say(user, "/join"))["text"]
        panel = await telegram.say(BO, "/roll 3d2t")
        join = next(
            b["callback_data"]
            for row in panel["reply_markup"]["inline_keyboard"]
            for b in row
            if b.get("callback_data", "").split(":")[3] == "join"
        )
        await stack.api.press_button(CHIDI, GROUP, panel["message_id"], join)
        assert await telegram.deliver_twice() == 1
        helped = await stack.api.wait_for_message(
            GROUP, lambda m: m["message_id"] == panel["message_id"] and "helps" in m["text"], 10
        )
        await asyncio.sleep(0.5)  # time for a second copy to do anything it would

        assert helped["text"].count("helps") == 1
        assert await Campaign.all().count() == 1
        assert await Member.filter(active=True).count() == 3
        panels = await Panel.all()
        assert len(panels) == 1 and panels[0].version == 1  # opened, then one press
        assert (texts(stack, "started a game"), texts(stack, "joined the game")) == (1, 2)
        assert await ProcessedUpdate.all().count() == 5  # one claim per update that changed
