"""The sandbox page on a phone (360x740), as a new user first meets it: its top bar and
chat list fit, and the Mini App frame shows and honours the app's back button as
Telegram's client does (a ← in the frame's header; a press is the app's
``backButtonClicked``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from telegram import MenuButtonWebApp, WebAppInfo

from tests.support.bot_api import PREFIX, polling_bot, serve_app
from tests.support.browser import PHONE, screenshot
from tests.tgbot.sandbox.test_page_browser import CHROMIUM, CHROMIUM_ARGS, _require_chromium
from tgbot.sandbox.fake_api import FakeBotApi
from tgbot.sandbox.web import setup_sandbox

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# An app with two screens: "deeper" opens the second and shows the back button, whose
# press comes back to the first and hides it (as the Mini App's pages do).
TWO_SCREENS = """<!doctype html><html><head>
<script src="/sandbox/static/telegram-web-app.js"></script></head>
<body><p id="screen">first</p><p id="backs">0</p><button id="deeper">deeper</button><script>
const app = window.Telegram.WebApp;
const $ = (id) => document.getElementById(id);
$("deeper").onclick = () => { $("screen").textContent = "second"; app.BackButton.show(); };
app.BackButton.onClick(() => {
  $("backs").textContent = String(Number($("backs").textContent) + 1);
  $("screen").textContent = "first";
  app.BackButton.hide();
});
app.ready();
</script></body></html>"""

# What does not fit: the page wider than the screen, an element of the top bar or the
# chat list cutting its text, a picker showing less than its chosen option.
CUT = """() => {
  const cut = [];
  const shown = e => e.checkVisibility() && e.clientWidth > 0;
  for (const e of document.querySelectorAll('.topbar *, .chat-list *'))
    if (shown(e) && e.tagName !== 'SELECT' && e.scrollWidth > e.clientWidth + 1)
      cut.push(`${e.className || e.tagName}: ${e.textContent.trim().slice(0, 30)}`);
  const canvas = document.createElement('canvas').getContext('2d');
  for (const select of document.querySelectorAll('.topbar select')) {
    if (!shown(select)) continue;
    const style = getComputedStyle(select);
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = select.options[select.selectedIndex].text;
    // the arrow takes about 20 px of the box
    const room = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 20;
    if (canvas.measureText(text).width > room) cut.push(`${select.id}: ${text}`);
  }
  const bar = document.querySelector('.topbar').getBoundingClientRect();
  return {cut, wide: document.documentElement.scrollWidth, bar: bar.height};
}"""


@pytest.fixture
async def phone() -> AsyncIterator[tuple[FakeBotApi, Any]]:
    _require_chromium()
    from playwright.async_api import async_playwright

    api = FakeBotApi()
    api.add_forum(-1009001, "Forum Table", ("Campaign A", "Rules talk"))
    app = web.Application()
    setup_sandbox(app, api, prefix=PREFIX)

    async def mini_app(request: web.Request) -> web.Response:
        return web.Response(text=TWO_SCREENS, content_type="text/html")

    app.router.add_get("/app", mini_app)
    async with serve_app(app) as origin, async_playwright() as playwright:
        api.webapp_url = f"{origin}/app"
        base, files = f"{origin}{PREFIX}/api/bot", f"{origin}{PREFIX}/api/file/bot"
        async with polling_bot(api, base, files, []) as bot_app:
            await bot_app.bot.set_chat_menu_button(
                menu_button=MenuButtonWebApp("🎲 Play", WebAppInfo(api.webapp_url))
            )
            browser = await playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
            try:
                context = await browser.new_context(viewport=PHONE, device_scale_factor=2)
                page = await context.new_page()
                await page.goto(f"{origin}{PREFIX}")
                yield api, page
            finally:
                await browser.close()


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_top_bar_and_the_chats_fit_a_phone(
    phone: tuple[FakeBotApi, Any], language: str
) -> None:
    from playwright.async_api import expect

    _, page = phone
    for player in ("1001", "1004"):
        await page.select_option("#player", player)
        await page.select_option("#language", language)
        await expect(page.locator("#language")).to_have_value(language)
        await page.wait_for_timeout(300)
        found = await page.evaluate(CUT)
        await screenshot(page, f"sandbox-phone-{language}-{player}")
        assert found["wide"] <= 360, found
        assert found["cut"] == [], found
        assert found["bar"] < 120, found  # the chat keeps the screen
    # the forum group is there by its name
    forum = page.locator(".chat-item", has_text="Forum Table")
    await expect(forum.first).to_be_visible()


async def test_the_frame_shows_and_honours_the_app_s_back_button(
    phone: tuple[FakeBotApi, Any],
) -> None:
    from playwright.async_api import expect

    _, page = phone
    await page.select_option("#player", "1001")
    await page.locator('.chat-item[data-chat-id="1001"]').click()
    await page.locator("#menu-button").click()
    frame = page.frame_locator("#miniapp-frame")
    await expect(frame.locator("#screen")).to_have_text("first")
    back = page.locator("#miniapp-back")
    await expect(back).to_be_hidden()  # nothing to go back to yet

    await frame.locator("#deeper").click()
    await expect(frame.locator("#screen")).to_have_text("second")
    await expect(back).to_be_visible()
    await expect(page.locator("#miniapp-close")).to_be_visible()
    assert await page.evaluate("document.documentElement.scrollWidth") <= 360
    await screenshot(page, "sandbox-phone-back-button")
    await back.click()
    await expect(frame.locator("#backs")).to_have_text("1")
    await expect(frame.locator("#screen")).to_have_text("first")
    await expect(back).to_be_hidden()  # the app hid it

    # a fresh launch starts without it
    await frame.locator("#deeper").click()
    await expect(back).to_be_visible()
    await page.locator("#miniapp-close").click()
    await page.locator("#menu-button").click()
    await expect(page.frame_locator("#miniapp-frame").locator("#screen")).to_have_text("first")
    await expect(back).to_be_hidden()
