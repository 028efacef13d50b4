"""Inline rolls in the sandbox on a phone (360x740): ``@bot 2d6+3`` typed in the composer
lists the bot's results above it, as Telegram does; a tap posts the roll "via @bot" and
the bot's edit shows the dice. Kept under artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import screenshot
from tests.tgbot.test_sandbox_nsu import ALICE, Table
from tests.tgbot.test_sandbox_words import phone_sandbox

pytestmark = [pytest.mark.browser, pytest.mark.e2e, pytest.mark.db]


async def test_an_inline_roll_typed_in_the_composer(db: str) -> None:
    async with phone_sandbox(db) as (page, group_id):
        t = Table(page, group_id)
        await t.play_as(ALICE)
        await t.group_chat()
        bot = await page.get_attribute("body", "data-bot-username")
        results = page.locator("#inline-results")

        await page.fill("#text", f"@{bot} 2d6+3 fire")
        offered = results.locator("button.inline-result")
        await t.expect(offered).to_have_count(1)
        await t.expect(offered).to_contain_text("🎲 2d6+3 fire")
        await t.expect(offered).to_contain_text("Roll 2d6 + 3 — fire")
        box = await results.bounding_box()
        composer = await page.locator("#composer").bounding_box()
        assert box is not None and composer is not None
        assert box["y"] + box["height"] <= composer["y"] + 1  # above the composer
        await screenshot(page, "sandbox-inline-1-results")

        await offered.click()
        await t.expect(page.locator("#text")).to_have_value("")
        await t.expect(results).to_be_hidden()
        rolled = page.locator("li.message.own").filter(has_text="Total: ").last
        await t.expect(rolled).to_be_visible()
        await t.expect(rolled.locator(".via")).to_have_text(f"via @{bot}")
        await t.expect(rolled).to_contain_text(re.compile(r"Alice Marsh rolls 2d6 \+ 3 — fire"))
        await t.expect(rolled.locator(".edited")).to_be_visible()
        await screenshot(page, "sandbox-inline-2-rolled")

        # the button under it types the same roll again, and the results come back
        await rolled.get_by_role("button", name=re.compile("Roll again")).click()
        await t.expect(page.locator("#text")).to_have_value(f"@{bot} 2d6+3 fire")
        await t.expect(offered).to_contain_text("🎲 2d6+3 fire")
        await page.fill("#text", "")
        await t.expect(results).to_be_hidden()

        # text that is no roll offers nothing to post: the button above the results opens
        # the private chat, whose /start dice says how to write a roll
        await page.fill("#text", f"@{bot} hello there")
        above = results.locator("button.inline-results-button")
        await t.expect(above).to_have_text("🤔 That's no roll yet: how to write dice")
        await t.expect(offered).to_have_count(0)
        box = await above.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360
        await screenshot(page, "sandbox-inline-hint")
        await above.click()
        await t.expect(results).to_be_hidden()
        explained = page.locator("li.message").filter(has_text="How to write a roll").last
        await t.expect(explained).to_be_visible()
        await t.expect(explained).to_contain_text(f"@{bot} 2d6+3")
        await t.group_chat()
        await page.fill("#text", "@another_bot 2d6")
        await t.expect(results).to_be_hidden()

        # a Russian player reads the results in Russian
        await page.select_option("#language", "ru")
        await page.fill("#text", f"@{bot} 1d20 преим")
        await t.expect(offered).to_contain_text("Бросок 2d20kh1")
        await screenshot(page, "sandbox-inline-3-russian")
        await offered.click()
        russian = page.locator("li.message.own").filter(has_text="Итого: ").last
        await t.expect(russian).to_be_visible()
        await t.expect(russian.locator(".via")).to_have_text(f"через @{bot}")
