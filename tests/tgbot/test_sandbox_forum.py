"""The sandbox's forum group in a browser: topics as sub-chats, a game in each."""

from __future__ import annotations

import pytest

from core.rules.rng import SeededRng
from core.runtime.settings import parse_settings
from tests.support.bot_api import free_port
from tests.support.browser import chromium, screenshot
from tgbot.main import SANDBOX_FORUM, SANDBOX_PREFIX, Runtime

pytestmark = [pytest.mark.browser, pytest.mark.e2e, pytest.mark.db]


async def test_each_topic_of_the_forum_group_runs_its_own_game(db: str) -> None:
    from playwright.async_api import expect

    settings = parse_settings({"DATABASE_URL": db, "PORT": str(free_port())})
    runtime = Runtime(settings, rng=SeededRng(5), rate_limit=False)
    await runtime.start()
    try:
        assert runtime.sandbox is not None
        topics = {t["name"]: t["message_thread_id"] for t in runtime.sandbox.topics(SANDBOX_FORUM)}
        a, b = topics["Campaign A"], topics["Campaign B"]
        async with chromium() as browser:
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(15_000)
            await page.goto(f"{runtime.origin}{SANDBOX_PREFIX}")
            await page.select_option("#player", "1001")

            async def open_topic(thread: int, title: str) -> None:
                await page.click(f'.chat-item[data-chat-id="{SANDBOX_FORUM}/{thread}"]')
                await expect(page.locator("#chat-title")).to_have_text(f"Forum Table › {title}")

            async def say(text: str, expected: str) -> None:
                await page.fill("#text", text)
                await page.press("#text", "Enter")
                last = page.locator('li[data-from="bot"]').last
                await expect(last.locator(".text")).to_contain_text(expected)

            await open_topic(a, "Campaign A")
            await say("/newgame threat", "Threat dice")
            await open_topic(b, "Campaign B")
            await say("/newgame d20", "d20")
            # Topic B shows only its own game; A's messages are not here.
            await expect(page.locator("#messages")).not_to_contain_text("Threat dice")
            await open_topic(0, "General")
            await expect(page.locator('li[data-from="bot"]')).to_have_count(0)

            # Closing topic B from the page pauses its game; reopening says so.
            await open_topic(b, "Campaign B")
            await page.click("#topic-toggle")
            await expect(page.locator("#topic-toggle")).to_have_text("🔓 Reopen topic")
            await page.click("#topic-toggle")
            last = page.locator('li[data-from="bot"]').last
            await expect(last.locator(".text")).to_contain_text("open again")
            await screenshot(page, "sandbox-forum")
    finally:
        await runtime.stop()
