"""A character's portrait on the sheet, in headless Chromium at 360x740: the player adds
one, sees it, is told kindly when a picture is too large, and removes it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, PlayerRef
from core.store.models import Portrait
from tests.support.browser import chromium, phone_page, screenshot
from tests.support.stack import GROUP, Stack, running_stack
from tests.tgbot.test_e2e_portraits import png
from webapp.auth import make_init_data

pytestmark = [pytest.mark.browser, pytest.mark.db]

ALICE, BO, CHIDI = 1001, 1002, 1003  # Alice hosts the d20 game: its Game Master
TABLE = ChatRef(GROUP, "supergroup", "The Table")


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db) as running:
        yield running


def ref(stack: Stack, user: int) -> PlayerRef:
    p = stack.api.players[user]
    return PlayerRef(p.id, p.first_name, p.last_name, p.username)


async def d20_game(stack: Stack) -> str:
    assert stack.runtime.application is not None
    deps = stack.runtime.application.deps
    use: Campaigns = deps.campaigns
    view = await use.new_game(TABLE, ref(stack, ALICE), "d20")
    for user in (BO, CHIDI):
        await deps.play.mark_started(ref(stack, user))
        await use.join(TABLE, ref(stack, user))
    return view.app_token


async def open_sheet(browser: Any, stack: Stack, user: int, token: str) -> Any:
    player = stack.api.players[user]
    init = make_init_data(
        stack.api.token, player.user_dict(), int(time.time()) - 5, start_param=token,
        chat_type="supergroup",
    )  # fmt: skip
    page = await phone_page(browser, init_data=init, start_param=token)
    await page.goto(f"{stack.origin}/app")
    await page.get_by_role("heading", name="Portraits").wait_for()
    return page


async def eventually(check: Any) -> None:
    for _ in range(100):
        if await check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError("never happened")


async def test_a_player_adds_sees_and_removes_their_portrait(stack: Stack) -> None:
    token = await d20_game(stack)
    async with chromium() as browser:
        page = await open_sheet(browser, stack, BO, token)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        mine = page.locator(f"li.portrait[data-player='{BO}']")
        assert "No portrait yet." in (await mine.text_content() or "")
        assert await page.locator(f"input[data-portrait$='/{CHIDI}']").count() == 0

        # too large: refused on the phone, nothing sent
        big = {"name": "big.png", "mimeType": "image/png", "buffer": png(1) + b"\0" * 600_000}
        await mine.locator("input[data-portrait]").set_input_files(big)
        await page.locator(".toast.error", has_text="Pictures can be at most 512 KB.").wait_for()
        assert await Portrait.all().count() == 0

        picture = {"name": "mirra.png", "mimeType": "image/png", "buffer": png(90)}
        await mine.locator("input[data-portrait]").set_input_files(picture)
        await page.locator(".toast", has_text="Portrait saved.").wait_for()
        await page.locator(f"li.portrait[data-player='{BO}'] img.picture[src^='blob:']").wait_for()
        shown = page.locator(f"li.portrait[data-player='{BO}'] img.picture")
        assert await shown.get_attribute("alt") == "Portrait of <b>Bo</b> & Co"  # text, not markup
        assert [bytes(p.data) for p in await Portrait.all()] == [png(90)]
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        await screenshot(page, "portrait-d20-360")

        await page.get_by_role("button", name="Remove the portrait").click()
        await page.evaluate("TelegramClient.receive('popup_closed', {button_id: 'ok'})")

        async def removed() -> bool:
            return await Portrait.all().count() == 0

        await eventually(removed)
        await page.locator(
            f"li.portrait[data-player='{BO}']", has_text="No portrait yet."
        ).wait_for()
        assert errors == []
