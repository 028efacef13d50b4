"""No Stone Unturned's sheet in Russian on a phone, beside the same sheet in English (Chromium)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from tests.support.browser import chromium, screenshot
from tests.support.stack import Stack, running_stack
from tests.webapp.test_nsu_app import ALICE, BO, fits_the_phone, open_app, start_table
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.browser, pytest.mark.db, pytest.mark.e2e]

# Player-written text and names on Alice's sheet (tests.support.nsu_table.character).
WRITTEN = (
    "Ana", "Bram", "Muddy <boots>", "they/them", "Patched coat", "Curious", "Wary", "Angry",
    "My sister", "The old compass", "Nothing is wasted", "Climbing", "Haggling", "Tinkering",
    "Chidi", "Okafor", "Alice", "Marsh", "<b>Bo</b> & Co", "No Stone Unturned", "The Table",
)  # fmt: skip


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    cast = [replace(p, language_code="ru") if p.id == ALICE else p for p in default_cast()]
    async with running_stack(db, players=cast) as running:
        yield running


def english_left(text: str) -> list[str]:
    for value in sorted(WRITTEN, key=len, reverse=True):
        text = text.replace(value, " ")
    text = re.sub(r"\b\d*[dD]\d+\b", " ", text)  # dice
    text = re.sub(r"/\w+", " ", text)  # commands, typed as they are (/say)
    return re.findall(r"[A-Za-z]{2,}", text)


async def test_the_nsu_sheet_reads_russian_for_a_russian_player_on_a_phone(stack: Stack) -> None:
    token, _ = await start_table(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, "light")
        own = page.locator("[data-sheet=own]")
        await own.locator(".pc-name", has_text="Ana").wait_for()
        for label in ("Аспекты", "Настрои", "Навыки", "Детали вреда", "Чувства"):
            await own.get_by_role("heading", name=label).first.wait_for()
        for tab in ("Лист", "Мир", "Карта", "Мои карточки", "Журнал"):
            await page.get_by_role("button", name=tab, exact=True).wait_for()
        main = await page.text_content("main") or ""  # as written, not as CSS cases it
        assert english_left(main) == [], main
        await own.get_by_role("button", name="Вычеркнуть: Muddy <boots>").wait_for()
        await fits_the_phone(page)
        # nothing cut: no element of the sheet is wider than its box
        cut = await page.evaluate(
            """[...document.querySelectorAll('main *')].filter(e =>
                 e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'
                 && e.clientWidth > 0).map(e => e.className || e.tagName)"""
        )
        assert cut == [], cut
        await screenshot(page, "nsu-sheet-ru")

        await page.get_by_role("button", name="Карта", exact=True).click()
        await page.get_by_text("В кадре").wait_for()
        shown = await page.text_content("main") or ""
        assert not re.search(r"On screen|Arbiters|Together|The party|Tap a card", shown), shown

        english = await open_app(browser, stack, BO, token, "light")
        await english.locator("[data-sheet=own] .pc-name", has_text="Bram").wait_for()
        await english.get_by_role("heading", name="Aspects").first.wait_for()
        await english.get_by_role("button", name="My cards", exact=True).wait_for()
