"""The sandbox page in headless Chromium, with a real PTB bot behind it."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from telegram import ForceReply, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import CallbackQueryHandler, CommandHandler, ContextTypes

from tests.support.bot_api import PREFIX, polling_bot, serve_app
from tgbot.sandbox.fake_api import FakeBotApi
from tgbot.sandbox.web import setup_sandbox

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MINI_APP = """<!doctype html><html><head>
<script src="/sandbox/static/telegram-web-app.js"></script></head>
<body><p id="who"></p><p id="start"></p><script>
const app = window.Telegram.WebApp;
document.getElementById("who").textContent = app.initDataUnsafe.user.first_name;
document.getElementById("start").textContent = app.initDataUnsafe.start_param || "";
</script></body></html>"""


async def roll(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Reply with a result, a re-roll button and a Mini App link."""
    assert update.effective_message is not None
    keyboard = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton("Again", callback_data="again")],
            [InlineKeyboardButton("Quietly", callback_data="quiet")],
            [InlineKeyboardButton("Sheet", url="https://t.me/stonetable_bot?startapp=tok_1")],
        ]
    )
    await update.effective_message.reply_html("Rolled <b>5</b>", reply_markup=keyboard)


async def again(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Alert the presser and edit the message."""
    query = update.callback_query
    assert query is not None
    if query.data == "quiet":
        await query.answer("Only you see this")
        return
    await query.answer("Rolling again", show_alert=True)
    await query.edit_message_text("Rolled <b>6</b>", parse_mode="HTML")


async def ask(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Ask the sender for a name, by a forced reply."""
    assert update.effective_message is not None
    await update.effective_message.reply_text(
        "What is your name?",
        reply_markup=ForceReply(selective=True, input_field_placeholder="Your name"),
    )


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{CHROMIUM} is missing; browser tests must run in CI")
    pytest.skip(f"{CHROMIUM} is missing")


@pytest.fixture
async def sandbox_origin() -> AsyncIterator[tuple[FakeBotApi, str]]:
    _require_chromium()
    api = FakeBotApi()
    app = web.Application()
    setup_sandbox(app, api, prefix=PREFIX)

    async def mini_app(request: web.Request) -> web.Response:
        return web.Response(text=MINI_APP, content_type="text/html")

    app.router.add_get("/app", mini_app)
    async with serve_app(app) as origin:
        api.webapp_url = f"{origin}/app"
        base, files = f"{origin}{PREFIX}/api/bot", f"{origin}{PREFIX}/api/file/bot"
        handlers = [
            CommandHandler("roll", roll),
            CommandHandler("ask", ask),
            CallbackQueryHandler(again),
        ]
        async with polling_bot(api, base, files, handlers):
            yield api, origin


@pytest.fixture
async def page(sandbox_origin: tuple[FakeBotApi, str]) -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        try:
            context = await browser.new_context(viewport={"width": 1280, "height": 800})
            page = await context.new_page()
            await page.goto(f"{sandbox_origin[1]}{PREFIX}")
            yield page
        finally:
            await browser.close()


async def test_command_button_and_mini_app(
    page: Any, sandbox_origin: tuple[FakeBotApi, str]
) -> None:
    from playwright.async_api import expect

    api, _ = sandbox_origin
    await page.select_option("#player", "1003")
    await expect(page.locator("#chat-title")).to_have_text("The Table")
    await page.fill("#text", "<b>not bold</b>")
    await page.press("#text", "Enter")
    own = page.locator("li.message.own .text").last
    await expect(own).to_have_text("<b>not bold</b>")
    assert await own.locator("b").count() == 0

    await page.fill("#text", "/roll")
    await page.press("#text", "Enter")
    reply = page.locator('li[data-from="bot"]').last
    await expect(reply.locator(".text")).to_have_text("Rolled 5")
    await expect(reply.locator(".text b")).to_have_text("5")

    await reply.get_by_role("button", name="Again").click()
    await expect(page.locator("#alert-dialog")).to_be_visible()
    await expect(page.locator("#alert-text")).to_have_text("Rolling again")
    await page.locator("#alert-dialog button").click()
    await expect(reply.locator(".text")).to_have_text("Rolled 6")
    await expect(reply.locator(".edited")).to_be_visible()
    assert api.alerts_for(1003)[-1]["text"] == "Rolling again"

    await page.fill("#text", "/roll")
    await page.press("#text", "Enter")
    second = page.locator('li[data-from="bot"]').last
    await expect(second.locator(".text")).to_have_text("Rolled 5")
    await second.get_by_role("button", name="Sheet").click()
    await expect(page.locator("#miniapp")).to_be_visible()
    frame = page.frame_locator("#miniapp-frame")
    await expect(frame.locator("#who")).to_have_text("Chidi")
    await expect(frame.locator("#start")).to_have_text("tok_1")
    src = await page.locator("#miniapp-frame").get_attribute("src")
    assert "#tgWebAppData=" in src


async def test_private_chat_needs_start(page: Any, sandbox_origin: tuple[FakeBotApi, str]) -> None:
    from playwright.async_api import expect

    api, _ = sandbox_origin
    api.player(1002).started = False
    await page.select_option("#player", "1002")
    await page.locator('.chat-item[data-chat-id="1002"]').click()
    await expect(page.locator("#start-button")).to_be_visible()
    await page.locator("#start-button").click()
    await expect(page.locator("#composer")).to_be_visible()
    await expect(page.locator("li.message.own .text").last).to_have_text("/start")
    assert api.player(1002).started


async def test_reply_is_labelled_and_a_quote_shows_what_it_replies_to(
    page: Any, sandbox_origin: tuple[FakeBotApi, str]
) -> None:
    """Bots ask for replies: the action says "Reply", and a quote leads back to its message."""
    from playwright.async_api import expect

    await page.select_option("#player", "1001")
    await expect(page.locator("#chat-title")).to_have_text("The Table")
    await page.fill("#text", "/roll")
    await page.press("#text", "Enter")
    answer = page.locator('li[data-from="bot"]').last
    await expect(answer.locator(".text")).to_have_text("Rolled 5")
    asked_id = await page.locator("li.message.own").last.get_attribute("data-message-id")
    asked = page.locator(f'li[data-message-id="{asked_id}"]')
    answer = page.locator(f'li[data-message-id="{await answer.get_attribute("data-message-id")}"]')
    action = answer.get_by_role("button", name="Reply")
    await expect(action).to_have_text(re.compile("Reply"))  # words, not a bare glyph
    for n in range(12):  # push the question out of sight
        await page.fill("#text", f"chatter {n}")
        await page.press("#text", "Enter")
    await expect(page.locator("li.message.own .text").last).to_have_text("chatter 11")
    await expect(asked).not_to_be_in_viewport()
    await answer.locator(".reply-quote").click()
    await expect(asked).to_be_in_viewport()
    await expect(asked).to_have_class(re.compile("flash"))


async def test_a_forced_reply_opens_a_reply_to_it_with_its_hint(
    page: Any, sandbox_origin: tuple[FakeBotApi, str]
) -> None:
    from playwright.async_api import expect

    api, _ = sandbox_origin
    await page.select_option("#player", "1001")
    await expect(page.locator("#chat-title")).to_have_text("The Table")
    await page.fill("#text", "/ask")
    await page.press("#text", "Enter")
    question = page.locator('li[data-from="bot"]').last
    await expect(question.locator(".text")).to_have_text("What is your name?")
    await expect(page.locator("#reply-bar")).to_be_visible()
    await expect(page.locator("#reply-text")).to_contain_text("What is your name?")
    await expect(page.locator("#text")).to_have_attribute("placeholder", "Your name")
    await expect(page.locator("#text")).to_be_focused()
    await page.fill("#text", "Alice")
    await page.press("#text", "Enter")
    await expect(page.locator("#reply-bar")).to_be_hidden()
    await expect(page.locator("#text")).not_to_have_attribute("placeholder", "Your name")
    answer = api.last_message(-100123)
    assert answer is not None and answer["text"] == "Alice"
    asked_id = int(await question.get_attribute("data-message-id"))
    assert answer["reply_to_message"]["message_id"] == asked_id


async def test_switching_player_leaves_the_last_players_notices_behind(
    page: Any, sandbox_origin: tuple[FakeBotApi, str]
) -> None:
    from playwright.async_api import expect

    await page.select_option("#player", "1001")
    await expect(page.locator("#chat-title")).to_have_text("The Table")
    await page.fill("#text", "/roll")
    await page.press("#text", "Enter")
    answer = page.locator('li[data-from="bot"]').last
    await expect(answer.locator(".text")).to_have_text("Rolled 5")
    await answer.get_by_role("button", name="Quietly").click()
    await expect(page.locator(".toast")).to_have_text("Only you see this")
    await answer.get_by_role("button", name="Reply").click()
    await expect(page.locator("#reply-bar")).to_be_visible()

    await page.select_option("#player", "1002")
    await expect(page.locator('.chat-item[data-chat-id="1002"]')).to_be_visible()
    await expect(page.locator(".toast")).to_have_count(0)
    await expect(page.locator("#reply-bar")).to_be_hidden()


async def test_a_long_quote_does_not_widen_the_page_on_a_phone(
    page: Any, sandbox_origin: tuple[FakeBotApi, str]
) -> None:
    from playwright.async_api import expect

    await page.set_viewport_size({"width": 390, "height": 844})
    await page.select_option("#player", "1001")
    await page.fill("#text", "word " * 200)
    await page.press("#text", "Enter")
    long = page.locator("li.message.own").last
    await expect(long).to_be_visible()
    await long.get_by_role("button", name="Reply").click()
    await page.fill("#text", "short answer")
    await page.press("#text", "Enter")
    await expect(page.locator("li.message.own .reply-quote")).to_be_visible()
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390


async def test_a_message_sent_while_the_page_reloads_its_chats_is_not_lost(
    page: Any, sandbox_origin: tuple[FakeBotApi, str]
) -> None:
    """Switching player reloads the chats; what arrives meanwhile still shows up."""
    import asyncio

    from playwright.async_api import expect

    api, _ = sandbox_origin
    await page.select_option("#player", "1001")
    await expect(page.locator("#chat-title")).to_have_text("The Table")
    taken = asyncio.Event()

    async def slow_state(route: Any) -> None:
        response = await route.fetch()  # the snapshot is taken now...
        taken.set()
        await asyncio.sleep(1.5)  # ...and reaches the page after the next message
        await route.fulfill(response=response)

    await page.route("**/state?*", slow_state)
    await page.select_option("#player", "1002")
    await taken.wait()
    await api.send_text(1003, api.group_id, "said during the reload")
    await expect(page.locator('.chat-item[data-chat-id="1002"]')).to_be_visible()
    await expect(page.locator("li.message .text").last).to_have_text("said during the reload")


async def test_each_player_has_a_language_and_the_page_speaks_it(
    page: Any, sandbox_origin: tuple[FakeBotApi, str]
) -> None:
    from playwright.async_api import expect

    api, _ = sandbox_origin
    await page.select_option("#player", "1001")
    await expect(page.locator("#language")).to_have_value("en")
    await page.select_option("#language", "ru")
    await expect(page.locator("#send")).to_have_text("Отправить")
    await expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert api.player(1001).language_code == "ru"
    await page.fill("#text", "/roll")
    await page.press("#text", "Enter")
    await expect(page.locator('li[data-from="bot"]').last).to_be_visible()
    sent = [m for m in api.snapshot(1001)["chats"][0]["messages"] if m["from"]["id"] == 1001]
    assert sent[-1]["from"]["language_code"] == "ru"  # what the bot is told

    await page.select_option("#player", "1002")  # an English player beside her
    await expect(page.locator("#send")).to_have_text("Send")
    await expect(page.locator("#language")).to_have_value("en")
    await page.select_option("#player", "1001")
    await expect(page.locator("#send")).to_have_text("Отправить")
    saved = api.persistence.saved_state()
    assert saved["players"]["1001"]["language_code"] == "ru"  # kept on restart
    await page.select_option("#language", "xx")  # the pseudo-language, for finding leaks
    await expect(page.locator("#language")).to_have_value("xx")
    await expect(page.locator("#send")).to_have_text("Send")
    assert api.player(1001).language_code == "xx"


async def test_unread_messages_stay_unread_when_the_page_reloads_its_chats(
    page: Any, sandbox_origin: tuple[FakeBotApi, str]
) -> None:
    """A new menu reloads the player's chats (as a client refreshes them); what they have
    not read yet keeps its badge, and a message that comes meanwhile is counted too."""
    import aiohttp
    from playwright.async_api import expect

    api, origin = sandbox_origin
    await page.select_option("#player", "1001")
    await expect(page.locator("#chat-title")).to_have_text("The Table")
    bot = f"{origin}{PREFIX}/api/bot{api.token}"
    badge = page.locator('.chat-item[data-chat-id="1001"] .badge')
    async with aiohttp.ClientSession() as http:
        sent = await http.post(f"{bot}/sendMessage", json={"chat_id": 1001, "text": "psst"})
        assert (await sent.json())["ok"]
        await expect(badge).to_have_text("1")
        reloads = 0

        def count(request: Any) -> None:
            nonlocal reloads
            reloads += "/state?" in request.url

        page.on("request", count)
        menu = {"type": "commands"}
        done = await http.post(
            f"{bot}/setChatMenuButton", json={"chat_id": 1001, "menu_button": menu}
        )
        assert (await done.json())["ok"]
        await http.post(f"{bot}/sendMessage", json={"chat_id": 1001, "text": "and this"})
        await expect(badge).to_have_text("2")
        await page.wait_for_timeout(300)  # the reload's snapshot has been applied
        assert reloads >= 1
        await expect(badge).to_have_text("2")
    await page.locator('.chat-item[data-chat-id="1001"]').click()
    await expect(badge).to_have_count(0)
    await page.locator(f'.chat-item[data-chat-id="{api.group_id}"]').click()
    await page.select_option("#player", "1002")  # another player's view: their own counts
    await expect(page.locator('.chat-item[data-chat-id="1002"]')).to_be_visible()
    await expect(page.locator(".chat-item .badge")).to_have_count(0)
