"""The Mini App in headless Chromium at phone size, light and dark."""

from __future__ import annotations

import re
import time

import pytest

from core.campaigns.play import ChatRef, PlayerRef
from tests.support.browser import chromium, phone_page, screenshot
from tests.support.stack import GROUP, Stack, running_stack
from webapp.auth import make_init_data

pytestmark = [pytest.mark.browser, pytest.mark.db]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db) as running:
        yield running


def init_data_for(stack: Stack, user_id: int, *, token: str | None = None,
                  age: int = 5, start_param: str = "") -> str:
    player = stack.api.players[user_id]
    return make_init_data(token or stack.api.token, player.user_dict(), int(time.time()) - age,
                          start_param=start_param, chat_type="supergroup" if start_param else "")


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_the_sheet_greets_the_player_by_name_in_both_themes(
    stack: Stack, theme: str
) -> None:
    ana = stack.api.players[stack.players[0]]
    play = stack.runtime.application.deps.play  # type: ignore[union-attr]
    await play.roll(ChatRef(GROUP, "supergroup", "The Table"),
                    PlayerRef(ana.id, ana.first_name), "4d6kh3 stealth")
    token = await play.chat_app_token(ChatRef(GROUP, "supergroup", "The Table"))
    async with chromium() as browser:
        page = await phone_page(browser, init_data=init_data_for(stack, ana.id, start_param=token),
                                theme=theme)
        await page.goto(f"{stack.origin}/app")
        await page.get_by_role("heading", name=re.compile(f"^Hello, {ana.first_name}")).wait_for()
        assert await page.locator("main").get_attribute("data-status") == "200"
        assert "4d6kh3" in await page.inner_text("main")
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(33, 33, 33)" if theme == "dark" else "rgb(255, 255, 255)")
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360  # nothing overflows a small phone
        await screenshot(page, f"miniapp-home-{theme}")


@pytest.mark.parametrize("case", ["forged", "expired", "missing"])
async def test_bad_init_data_gets_the_401_page_and_no_data(stack: Stack, case: str) -> None:
    ana = stack.api.players[stack.players[0]]
    init = {
        "forged": init_data_for(stack, ana.id, token="999:forged-token"),
        "expired": init_data_for(stack, ana.id, age=3 * 86400),
        "missing": "",
    }[case]
    async with chromium() as browser:
        page = await phone_page(browser, init_data=init)
        await page.goto(f"{stack.origin}/app")
        await page.get_by_role("heading", name="Open this from Telegram").wait_for()
        assert await page.locator("main").get_attribute("data-status") == "401"
        assert ana.first_name not in await page.content()
        if case == "forged":
            await screenshot(page, "miniapp-401")
