"""The downtime panel on the sandbox page in Chromium at 360x740: no button's text is cut."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from aiohttp import web

from core.rules.nsu.downtime_panel import DowntimePanelState, Menu
from core.words.i18n import lang_for
from tests.core.rules.nsu.test_downtime_panel import ANA, BEN, CY, Driver, fresh
from tests.support.bot_api import PREFIX, serve_app
from tests.tgbot.sandbox.test_page_browser import CHROMIUM, CHROMIUM_ARGS, _require_chromium
from tests.tgbot.test_render_now_line import nsu_view
from tgbot.render.nsu_downtime import NsuDowntimeRenderer
from tgbot.sandbox.fake_api import FakeBotApi
from tgbot.sandbox.web import setup_sandbox

EN = lang_for("en")

pytestmark = [pytest.mark.browser, pytest.mark.e2e]
CONTROL = "✖️ Drop my choice"
ONE_LINE = ".keyboard button { white-space: nowrap; }"  # Telegram draws a label on one line
MEASURE = """() => [...document.querySelectorAll('.keyboard button')]
    .map(b => [b.textContent, b.scrollWidth, b.clientWidth])"""


def keyboards() -> list[tuple[str, dict[str, object]]]:
    """The downtime panel's keyboards: every group, fresh and with prompts open."""
    d = Driver(fresh(ana_harms=1), [4] + [3] * 20)
    found = []
    for actor, action, argument in [
        (0, "", ""),
        (ANA, "seek", ""),
        (BEN, "seek_help", str(ANA)),
        (CY, "scout_pick", ""),
    ]:
        if action:
            d.do(actor, action, argument)
        panel = DowntimePanelState.from_dict(d.state)
        pages = [(m, None) for m in Menu if m is not Menu.PLAYER] + [(Menu.PLAYER, ANA)]
        for menu, focus in pages:
            state = replace(panel, menu=menu, focus=focus).to_dict()
            html, markup = NsuDowntimeRenderer().render(nsu_view(state, d.table), EN)
            assert markup is not None
            found.append((html, markup.to_dict()))
    return found


async def test_no_downtime_button_is_cut_at_phone_width() -> None:
    from playwright.async_api import async_playwright

    _require_chromium()
    api = FakeBotApi()
    app = web.Application()
    setup_sandbox(app, api, prefix=PREFIX)
    boards = keyboards()
    control = {  # two labels a phone cuts when they share a row: the measure can fail
        "inline_keyboard": [
            [{"text": t, "callback_data": "x"} for t in ("🎲 Ana: roll + healer", CONTROL)]
        ]
    }
    async with serve_app(app) as origin:
        for html, markup in boards:  # the panel's own text sets the message's width
            params = {
                "chat_id": api.group_id,
                "text": html,
                "parse_mode": "HTML",
                "reply_markup": json.dumps(markup),
            }
            await api.call("sendMessage", params)
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
            try:
                context = await browser.new_context(viewport={"width": 360, "height": 740})
                page = await context.new_page()
                await page.goto(f"{origin}{PREFIX}")
                await page.select_option("#player", "1001")
                await page.wait_for_selector(".keyboard button")
                await page.add_style_tag(content=ONE_LINE)
                measured = await page.evaluate(MEASURE)
                await api.call(
                    "sendMessage",
                    {
                        "chat_id": api.group_id,
                        "text": boards[0][0],
                        "parse_mode": "HTML",
                        "reply_markup": json.dumps(control),
                    },
                )
                await page.wait_for_selector(f"text={CONTROL}")
                after = await page.evaluate(MEASURE)
            finally:
                await browser.close()
    labels = {b["text"] for _, m in boards for row in m["inline_keyboard"] for b in row}  # type: ignore[index]
    assert {text for text, _, _ in measured} >= labels - {""}
    cut = [(text, scroll, client) for text, scroll, client in measured if scroll > client]
    assert cut == [], cut
    assert [t for t, scroll, client in after if scroll > client] == [
        "🎲 Ana: roll + healer",
        CONTROL,
    ]
    assert any(text == "🛌 Rest & heal" for text, _, _ in measured)
