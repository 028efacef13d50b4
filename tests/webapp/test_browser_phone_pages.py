"""Every page of the Mini App at 360 px, in English and in Russian (Chromium).

On a phone-sized page each of No Stone Unturned's sections (the sheet, the world,
the map and a card, the player's cards, the log) is opened in each language: nothing
is wider than the screen, no element cuts its text, and no two pieces of text run
into each other (their drawn boxes never overlap).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.browser import chromium, screenshot
from tests.support.stack import Stack, running_stack
from tests.webapp.test_nsu_app import ALICE, fits_the_phone, open_app, start_table
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.browser, pytest.mark.db, pytest.mark.e2e]

SECTIONS = {
    "en": ("Sheet", "World", "Map", "My cards", "Log"),
    "ru": ("Лист", "Мир", "Карта", "Мои карточки", "Журнал"),
}

# Text boxes drawn over each other (two captions running into each other), and
# elements whose text is cut by their own box.
CLASHES = """() => {
  const boxes = [];
  const walker = document.createTreeWalker(document.querySelector('main') || document.body,
                                           NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const parent = node.parentElement;
    if (!parent.checkVisibility({checkVisibilityCSS: true, checkOpacity: true})) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      const text = node.textContent.trim().slice(0, 40);
      if (r.width > 1 && r.height > 1) boxes.push({r, text, node});
    }
  }
  const clashes = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.node === b.node) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 2 && h > 3) clashes.push(`${a.text} × ${b.text}`);
    }
  }
  const cut = [...document.querySelectorAll('main *')].filter(e =>
    e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'
    && e.clientWidth > 0)
    .map(e => `${e.className || e.tagName}: ${e.textContent.trim().slice(0, 40)}`);
  return {clashes, cut, wide: document.documentElement.scrollWidth};
}"""


async def check_page(page: Any, name: str) -> None:
    await page.wait_for_timeout(400)  # fonts and pictures settle
    found = await page.evaluate(CLASHES)
    await screenshot(page, name)
    assert found["wide"] <= 360, (name, found["wide"])
    assert found["clashes"] == [], (name, found["clashes"])
    assert found["cut"] == [], (name, found["cut"])
    await fits_the_phone(page)


@pytest.fixture(params=["en", "ru"])
async def stack(request: pytest.FixtureRequest, db: str) -> Stack:  # type: ignore[misc]
    code = request.param
    cast = [replace(p, language_code=code) if p.id == ALICE else p for p in default_cast()]
    async with running_stack(db, players=cast) as running:
        running.language = code  # type: ignore[attr-defined]
        yield running


async def test_every_nsu_page_fits_a_360_px_phone_in_each_language(stack: Stack) -> None:
    code = stack.language  # type: ignore[attr-defined]
    token, _ = await start_table(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, "light")
        await page.locator("[data-sheet=own] .pc-name", has_text="Ana").wait_for()
        await check_page(page, f"phone-{code}-sheet")
        for section in SECTIONS[code][1:]:
            await page.get_by_role("button", name=section, exact=True).click()
            await page.locator("nav.tabs .tab.on", has_text=section).wait_for()
            await check_page(page, f"phone-{code}-{section}")
        # a card of the map, opened from the map
        await page.get_by_role("button", name=SECTIONS[code][2], exact=True).click()
        await page.locator(".card-tile").first.click()
        await page.locator(".badge.d").first.wait_for()
        await check_page(page, f"phone-{code}-card")
