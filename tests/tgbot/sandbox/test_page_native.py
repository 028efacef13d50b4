"""The sandbox page as the Mini App's Telegram client: it answers what the stand-in for
telegram-web-app.js asks (closing confirmation, popups, the settings button,
fullscreen, safe areas, CloudStorage), and shows the bot's description and menu button."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from telegram import MenuButtonWebApp, WebAppInfo

from tests.support.bot_api import PREFIX, polling_bot, serve_app
from tests.tgbot.sandbox.test_page_browser import CHROMIUM, CHROMIUM_ARGS, _require_chromium
from tgbot.sandbox.fake_api import FakeBotApi
from tgbot.sandbox.web import setup_sandbox

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

CONTROLS = """<!doctype html><html><head>
<script src="/sandbox/static/telegram-web-app.js"></script></head>
<body><p id="version"></p><p id="answer"></p><p id="kept"></p><p id="full"></p>
<p id="inset"></p><p id="pressed"></p>
<button id="guard">guard</button><button id="ask">ask</button>
<button id="keep">keep</button><button id="full-on">full</button><button id="full-off">exit</button>
<script>
const app = window.Telegram.WebApp;
const $ = (id) => document.getElementById(id);
$("version").textContent = app.version;
app.SettingsButton.onClick(() => { $("pressed").textContent = "settings"; });
app.SettingsButton.show();
app.onEvent("fullscreenChanged", () => { $("full").textContent = String(app.isFullscreen); });
app.onEvent("contentSafeAreaChanged", () => {
  $("inset").textContent = getComputedStyle(document.documentElement)
    .getPropertyValue("--tg-content-safe-area-inset-top").trim();
});
$("guard").onclick = () => app.enableClosingConfirmation();
$("ask").onclick = () => app.showConfirm("Remove it?", (ok) => {
  $("answer").textContent = String(ok);
});
$("keep").onclick = () => app.CloudStorage.setItem("draft_1", "half a card", () =>
  app.CloudStorage.getItem("draft_1", (error, value) => { $("kept").textContent = value; }));
$("full-on").onclick = () => app.requestFullscreen();
$("full-off").onclick = () => app.exitFullscreen();
app.ready();
</script></body></html>"""


@pytest.fixture
async def sandbox() -> AsyncIterator[tuple[FakeBotApi, Any]]:
    _require_chromium()
    from playwright.async_api import async_playwright

    api = FakeBotApi()
    api.player(1002).started = False
    app = web.Application()
    setup_sandbox(app, api, prefix=PREFIX)

    async def mini_app(request: web.Request) -> web.Response:
        return web.Response(text=CONTROLS, content_type="text/html")

    app.router.add_get("/app", mini_app)
    async with serve_app(app) as origin, async_playwright() as playwright:
        api.webapp_url = f"{origin}/app"
        base, files = f"{origin}{PREFIX}/api/bot", f"{origin}{PREFIX}/api/file/bot"
        async with polling_bot(api, base, files, []) as bot_app:
            bot = bot_app.bot
            await bot.set_my_description("I run tabletop games.")
            await bot.set_my_description("Я веду настольные игры.", language_code="ru")
            await bot.set_chat_menu_button(
                menu_button=MenuButtonWebApp("🎲 Play", WebAppInfo(api.webapp_url))
            )
            browser = await playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
            try:
                context = await browser.new_context(viewport={"width": 1280, "height": 800})
                page = await context.new_page()
                await page.goto(f"{origin}{PREFIX}")
                yield api, page
            finally:
                await browser.close()


async def test_the_sandbox_answers_the_mini_app_s_controls(
    sandbox: tuple[FakeBotApi, Any],
) -> None:
    from playwright.async_api import expect

    _, page = sandbox
    await page.select_option("#player", "1002")
    await page.locator('.chat-item[data-chat-id="1002"]').click()
    # Before Start: what the bot can do, in the player's language (English here)
    await expect(page.locator("#bot-description")).to_contain_text("I run tabletop games.")
    await page.locator("#start-button").click()
    await expect(page.locator("#menu-button")).to_have_text("🎲 Play")
    await page.locator("#menu-button").click()
    frame = page.frame_locator("#miniapp-frame")
    await expect(frame.locator("#version")).to_have_text("8.0")

    # The settings button shows in the client's header and reaches the app
    await expect(page.locator("#miniapp-settings")).to_be_visible()
    await page.locator("#miniapp-settings").click()
    await expect(frame.locator("#pressed")).to_have_text("settings")

    # A native confirm: the client's dialog, its answer back in the app
    await frame.locator("#ask").click()
    await expect(page.locator("#popup-text")).to_have_text("Remove it?")
    await page.locator("#popup-buttons button[data-button-id=ok]").click()
    await expect(frame.locator("#answer")).to_have_text("true")
    await frame.locator("#ask").click()
    await page.locator("#popup-buttons button[data-button-id=cancel]").click()
    await expect(frame.locator("#answer")).to_have_text("false")

    # CloudStorage, kept by the client
    await frame.locator("#keep").click()
    await expect(frame.locator("#kept")).to_have_text("half a card")

    # Fullscreen, with the client's buttons over the page as the content safe area
    await frame.locator("#full-on").click()
    await expect(frame.locator("#full")).to_have_text("true")
    await expect(page.locator("#miniapp")).to_have_class("miniapp fullscreen")
    await expect(frame.locator("#inset")).to_have_text("46px")
    await frame.locator("#full-off").click()
    await expect(frame.locator("#full")).to_have_text("false")
    await expect(frame.locator("#inset")).to_have_text("0px")

    # With unsaved changes, ✕ asks before closing
    await frame.locator("#guard").click()
    await page.locator("#miniapp-close").click()
    await expect(page.locator("#popup-text")).to_have_text(
        "Changes that you made may not be saved."
    )
    await page.locator("#popup-buttons button[data-button-id='']").click()
    await expect(page.locator("#miniapp")).to_be_visible()
    await page.locator("#miniapp-close").click()
    await page.locator("#popup-buttons button[data-button-id=close]").click()
    await expect(page.locator("#miniapp")).to_be_hidden()
