"""The Mini App's log offers the viewer's own last change back: headless Chromium at 360x740."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from core.store.models import LogEntry, Member
from tests.support.browser import chromium, screenshot
from tests.support.stack import Stack, running_stack
from tests.webapp.test_browser_d20 import (
    BO,
    BO_NAME,
    CHIDI,
    d20_game,
    init_data_for,
    open_game,
    ref,
)

pytestmark = [pytest.mark.browser, pytest.mark.db]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db) as running:
        yield running


async def open_log(browser: Any, stack: Stack, user: int, token: str) -> Any:
    page = await open_game(browser, stack, user, token, "Plot points")
    await page.evaluate(  # the app's own navigation, as the NSU pages' Log tab does
        """url => { const b = document.createElement('button'); b.dataset.nav = url;
        document.querySelector('main').appendChild(b); b.click(); }""",
        f"/app/c/{token}/log",
    )
    await page.get_by_role("heading", name="Campaign log").wait_for()
    return page


async def test_the_log_takes_back_the_viewers_own_last_change_once(stack: Stack) -> None:
    token = await d20_game(stack)
    assert stack.runtime.application is not None
    use = stack.runtime.application.deps.campaigns
    await use.edit(token, ref(stack, BO), "proficiency.set", {"name": "Stealth", "bonus": 3})
    assert "Stealth" in str((await Member.get(player__tg_id=BO)).sheet)
    async with chromium() as browser:
        theirs = await open_log(browser, stack, CHIDI, token)
        assert await theirs.get_by_role("button", name="↩ Undo").count() == 0

        page = await open_log(browser, stack, BO, token)
        offer = page.locator("section.undo")
        assert "Your last change" in (await offer.text_content() or "")
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
        await screenshot(page, "miniapp-log-undo")
        stale = await offer.locator("form").get_attribute("data-version")
        await page.get_by_role("button", name="↩ Undo").click()
        # Telegram's confirm dialog asks first; the player presses OK
        asked = await page.evaluate("TelegramClient.last('web_app_open_popup')")
        assert asked["message"].startswith("Take back your last change:")
        await page.evaluate("TelegramClient.receive('popup_closed', {button_id: 'ok'})")
        await page.locator("section.undo").wait_for(state="detached")
        await page.get_by_text(f"{BO_NAME} took back").wait_for()
    assert "Stealth" not in str((await Member.get(player__tg_id=BO)).sheet)
    assert await LogEntry.filter(kind="undo").count() == 1

    # The same offer posted again (a double press): nothing more is taken back.
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{stack.origin}/api/c/{token}/undo",
            json={"version": int(stale or 0)},
            headers={"Authorization": "tma " + init_data_for(stack, BO)},
        ) as response,
    ):
        assert response.status >= 400
    assert await LogEntry.filter(kind="undo").count() == 1
    assert "Athletics" in str((await Member.get(player__tg_id=BO)).sheet)  # the step before stays
