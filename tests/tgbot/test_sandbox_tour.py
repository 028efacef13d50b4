"""A new user's first minutes: `make run` with no token, then the sandbox page."""

from __future__ import annotations

import re

import pytest

from core.rules.rng import SeededRng
from core.runtime.settings import parse_settings
from tests.support.bot_api import free_port
from tests.support.browser import chromium, screenshot
from tgbot.main import SANDBOX_PREFIX, Runtime

pytestmark = [pytest.mark.browser, pytest.mark.e2e, pytest.mark.db]


async def test_roll_and_open_the_sheet_from_the_sandbox_group(db: str) -> None:
    from playwright.async_api import expect

    settings = parse_settings({"DATABASE_URL": db, "PORT": str(free_port())})
    runtime = Runtime(settings, rng=SeededRng(11), rate_limit=False)
    await runtime.start()
    try:
        assert runtime.sandbox is not None
        player = runtime.sandbox.players[1001]
        async with chromium() as browser:
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(15_000)
            await page.goto(f"{runtime.origin}{SANDBOX_PREFIX}")
            await page.select_option("#player", str(player.id))
            await expect(page.locator("#chat-title")).to_have_text("The Table")

            await page.fill("#text", "/roll 4d6kh3")
            await page.press("#text", "Enter")
            reply = page.locator('li[data-from="bot"]').last
            await expect(reply.locator(".text")).to_contain_text("4d6kh3")
            await expect(reply.locator(".text")).to_contain_text(re.compile(r"Total: \d+"))
            assert await reply.locator(".text s").count() == 1  # the dropped die

            await page.fill("#text", "/sheet")
            await page.press("#text", "Enter")
            sheet = page.locator('li[data-from="bot"]').last
            await sheet.get_by_role("button", name=re.compile("Open sheet")).click()
            await expect(page.locator("#miniapp")).to_be_visible()
            frame = page.frame_locator("#miniapp-frame")
            await expect(
                frame.get_by_role("heading", name=re.compile(f"Hello, {player.first_name}"))
            ).to_be_visible()
            await expect(frame.locator("main")).to_contain_text("4d6kh3")
            await screenshot(page, "sandbox-tour")
    finally:
        await runtime.stop()
