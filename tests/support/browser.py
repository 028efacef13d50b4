"""Headless Chromium through Playwright, with Telegram's Mini App script stubbed."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from tests.support.services import unavailable
from tgbot.sandbox.fake_api import DARK_THEME, LIGHT_THEME

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# the fonts pages are drawn with, the same on every machine (see the file)
FONTS_CONF = Path(__file__).resolve().parent / "fonts.conf"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"

THEMES: dict[str, dict[str, str]] = {"light": LIGHT_THEME, "dark": DARK_THEME}


STAND_IN = (
    Path(__file__).resolve().parents[2] / "tgbot" / "sandbox" / "static" / "telegram-web-app.js"
)


def telegram_stub(init_data: str, theme: str, start_param: str = "", version: str = "8.0") -> str:
    """The sandbox's stand-in for telegram-web-app.js, launched as Telegram would launch
    this player (signed initData, a theme, a start parameter, a client version).

    Opened on its own, the page is its own client: ``window.TelegramClient`` records
    what the app asks of Telegram (``events``, ``last(type)``) and plays Telegram's
    answers (``receive(type, data)``); see the stand-in's header.
    """
    launch = {
        "tgWebAppData": init_data,
        "tgWebAppThemeParams": json.dumps(THEMES[theme]),
        "tgWebAppVersion": version,
        "tgWebAppPlatform": "android",
        "tgWebAppStartParam": start_param,
    }
    return (
        f"window.__telegramLaunch = {json.dumps(launch)};\n"
        + STAND_IN.read_text(encoding="utf-8")
        + "\n(function () { var ready = window.Telegram.WebApp.ready;"
        " window.Telegram.WebApp.ready = function () { window.__tgReady = true; ready(); }; })();"
    )


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A headless Chromium browser (Debian's package, never a downloaded build), drawing
    with the fonts :data:`FONTS_CONF` names and no others."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        unavailable(f"Chromium is not installed at {CHROMIUM}")
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            env={**os.environ, "FONTCONFIG_FILE": str(FONTS_CONF)},
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
            ],
        )
        try:
            yield browser
        finally:
            await browser.close()


async def phone_page(
    browser: Any,
    *,
    init_data: str,
    theme: str = "light",
    start_param: str = "",
    version: str = "8.0",
) -> Any:
    """A 360x740 page whose Telegram script is the stand-in, launched for this player by a
    client of this version."""
    context = await browser.new_context(viewport=PHONE, device_scale_factor=2, color_scheme=theme)
    page = await context.new_page()
    page.set_default_timeout(10_000)
    stub = telegram_stub(init_data, theme, start_param, version)

    async def serve_stub(route: Any) -> None:
        await route.fulfill(status=200, content_type="application/javascript", body=stub)

    await page.route(TELEGRAM_JS + "*", serve_stub)
    return page


async def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path
