"""The Mini App's roll history in headless Chromium at 360x740: recent rolls of the
game's chat, filters by player and game, averages against the expected ones, and a
secret roll only for whoever saw it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.browser import chromium, phone_page, screenshot
from tests.support.stack import Stack, running_stack
from tests.webapp.test_browser_d20 import (
    ALICE,
    BO,
    BO_NAME,
    CHIDI,
    TABLE,
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


async def open_rolls(browser: Any, stack: Stack, user: int, token: str) -> Any:
    page = await open_game(browser, stack, user, token, "Plot points")
    await page.get_by_role("button", name="Rolls").click()  # the tab under the game's title
    await page.get_by_role("heading", name="Roll history").wait_for()
    return page


async def notes(page: Any) -> list[str]:
    return list(await page.locator("li.roll i.note").all_text_contents())


async def test_roll_history_filters_and_compares_averages(stack: Stack) -> None:
    assert stack.runtime.application is not None
    play = stack.runtime.application.deps.play
    await play.roll(TABLE, ref(stack, BO), "1d6 before the game")  # no game yet
    token = await d20_game(stack)
    await play.roll(TABLE, ref(stack, BO), "2d6+3 climb")
    await play.roll(TABLE, ref(stack, BO), "2d6+3 <b>jump</b>")
    await play.roll(TABLE, ref(stack, CHIDI), "1d20 spot")
    await play.roll(TABLE, ref(stack, ALICE), "1d20 hidden", seen_by=(ALICE,))
    async with chromium() as browser:
        page = await open_rolls(browser, stack, BO, token)
        assert await notes(page) == ["spot", "<b>jump</b>", "climb", "before the game"]
        assert await page.get_by_text("hidden").count() == 0  # Alice's secret roll
        bo_row = page.locator(f"tr[data-player='{BO}']")
        assert await bo_row.locator("td").nth(1).text_content() == "3"
        assert await bo_row.locator("td.expected").text_content() == "7.83"  # (3.5 + 10 + 10) / 3
        chidi_row = page.locator(f"tr[data-player='{CHIDI}']")
        assert await chidi_row.locator("td.expected").text_content() == "10.5"
        assert await page.locator(f"tr[data-player='{ALICE}']").count() == 0
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
        await screenshot(page, "miniapp-roll-history")

        await page.get_by_role("button", name=BO_NAME).click()  # only Bo's rolls
        await page.locator("nav.players .chip.on", has_text="Co").wait_for()
        assert await notes(page) == ["<b>jump</b>", "climb", "before the game"]
        await page.get_by_role("button", name="d20 checks").click()  # and only this game's
        await page.locator("nav.games .chip.on", has_text="d20 checks").wait_for()
        assert await notes(page) == ["<b>jump</b>", "climb"]
        assert await page.locator("nav.players .chip.on").text_content() == BO_NAME

        mine = await open_rolls(browser, stack, ALICE, token)
        secret = mine.locator("li.roll.secret")
        assert await secret.count() == 1
        assert "(rolled in secret)" in (await secret.text_content() or "")


async def test_roll_history_reads_in_russian(stack: Stack) -> None:
    assert stack.runtime.application is not None
    play = stack.runtime.application.deps.play
    token = await d20_game(stack)
    await play.roll(TABLE, ref(stack, CHIDI), "1d20 осмотреться")
    stack.api.players[BO].language_code = "ru"  # Bo's Telegram app speaks Russian
    async with chromium() as browser:
        init_data = init_data_for(stack, BO, start=token)
        page = await phone_page(browser, init_data=init_data, start_param=token)
        await page.goto(f"{stack.origin}/app")
        await page.get_by_role("button", name="Броски").click()
        await page.get_by_role("heading", name="История бросков").wait_for()
        assert await page.get_by_role("heading", name="Среднее и ожидаемое").count() == 1
        assert await page.get_by_role("button", name="Все игры").count() == 1
        when = await page.locator("li.roll time").text_content() or ""
        months = ("янв", "февр", "мар", "апр", "мая", "июн", "июл", "авг", "сент", "окт", "нояб")
        assert any(m in when for m in (*months, "дек")), when  # Babel's Russian month
        assert await notes(page) == ["осмотреться"]
        await screenshot(page, "miniapp-roll-history-ru")
