"""Player actions, privacy mode, polling conflicts and the page's JSON endpoints."""

from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from telegram import Update
from telegram.error import Forbidden
from telegram.ext import ChatMemberHandler, ContextTypes, MessageHandler, filters

from tests.support.bot_api import PREFIX, polling_bot, running_fake_api
from tgbot.sandbox.fake_api import ApiError, FakeBotApi, SandboxError, default_cast
from webapp.auth import validate_init_data

GROUP = -100123
ALICE, BO = 1001, 1002


@pytest.mark.e2e
async def test_player_edit_reaches_the_bot_as_edited_message() -> None:
    seen: list[str] = []

    async def on_edit(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.edited_message is not None
        seen.append(update.edited_message.text or "")
        await update.edited_message.reply_text("noted")

    handler = MessageHandler(filters.UpdateType.EDITED_MESSAGE, on_edit)
    async with (
        running_fake_api() as (api, base, files),
        polling_bot(api, base, files, [handler]),
    ):
        sent = await api.send_text(ALICE, GROUP, "/roll 2d6")
        await api.users.edit_text(ALICE, GROUP, sent["message_id"], "/roll 3d6")
        reply = await api.wait_for_message(GROUP)
        assert reply["text"] == "noted" and seen == ["/roll 3d6"]
        with pytest.raises(SandboxError):
            await api.users.edit_text(BO, GROUP, sent["message_id"], "not mine")


@pytest.mark.e2e
async def test_blocking_the_bot_gives_403_and_my_chat_member() -> None:
    statuses: list[str] = []

    async def on_member(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.my_chat_member is not None
        statuses.append(update.my_chat_member.new_chat_member.status)

    handler = ChatMemberHandler(on_member, ChatMemberHandler.MY_CHAT_MEMBER)
    async with (
        running_fake_api() as (api, base, files),
        polling_bot(api, base, files, [handler]) as application,
    ):
        await api.block_bot(ALICE)
        with pytest.raises(Forbidden, match="bot was blocked by the user"):
            await application.bot.send_message(ALICE, "hi")
        await api.start_bot(ALICE)
        for _ in range(100):
            if len(statuses) == 2:
                break
            await asyncio.sleep(0.02)
        assert statuses == ["kicked", "member"]
        await application.bot.send_message(ALICE, "welcome back")


async def test_privacy_mode_hides_plain_group_chatter() -> None:
    api = FakeBotApi(bot_is_admin=False)
    await api.send_text(ALICE, GROUP, "just chatting")
    await api.send_text(ALICE, GROUP, "/roll@other_bot")
    await api.send_text(ALICE, GROUP, "/roll")
    await api.send_text(ALICE, GROUP, "hey @stonetable_bot")
    await api.send_text(ALICE, ALICE, "private words")
    texts = [u["message"]["text"] for u in api.pending_updates()]
    assert texts == ["/roll", "hey @stonetable_bot", "private words"]
    me = await api.call("getMe", {})
    assert me["can_read_all_group_messages"] is False


async def test_player_messages_carry_command_entities() -> None:
    api = FakeBotApi()
    message = await api.send_text(ALICE, GROUP, "/roll@stonetable_bot 2d6 for 🐉 /help")
    assert message["entities"] == [
        {"type": "bot_command", "offset": 0, "length": 20},
        {"type": "bot_command", "offset": 32, "length": 5},  # 🐉 counts twice
    ]


async def test_a_second_poll_terminates_the_first_with_conflict() -> None:
    api = FakeBotApi()
    first = asyncio.create_task(api.call("getUpdates", {"timeout": "5"}))
    await asyncio.sleep(0.05)
    second = asyncio.create_task(api.call("getUpdates", {"timeout": "0"}))
    with pytest.raises(ApiError) as caught:
        await first
    assert caught.value.code == 409
    assert "terminated by other getUpdates request" in caught.value.description
    assert await second == []


async def test_long_poll_wakes_on_a_new_update_and_offset_confirms() -> None:
    api = FakeBotApi()
    poll = asyncio.create_task(api.call("getUpdates", {"timeout": "5"}))
    await asyncio.sleep(0.05)
    started = time.monotonic()
    await api.send_text(ALICE, GROUP, "/roll")
    updates = await poll
    assert time.monotonic() - started < 1
    assert [u["message"]["text"] for u in updates] == ["/roll"]
    assert await api.call("getUpdates", {"offset": str(updates[0]["update_id"] + 1)}) == []


async def test_allowed_updates_filter_new_updates() -> None:
    api = FakeBotApi()
    await api.call("getUpdates", {"allowed_updates": json.dumps(["callback_query"])})
    await api.send_text(ALICE, GROUP, "/roll")
    assert api.pending_updates() == []


async def test_web_app_button_in_private_chat_gets_query_id() -> None:
    api = FakeBotApi(players=default_cast(started=True))
    url = api.open_web_app(
        ALICE, {"text": "Sheet", "web_app": {"url": "https://example.org/app"}}, from_chat_id=ALICE
    )
    fragment = parse_qs(urlsplit(url).fragment)
    data = validate_init_data(fragment["tgWebAppData"][0], api.token, now=time.time(), max_age=60)
    assert data.user.id == ALICE and data.start_param == ""
    assert "query_id" in parse_qs(fragment["tgWebAppData"][0])
    assert fragment["tgWebAppPlatform"] == ["web"] and fragment["tgWebAppVersion"] == ["8.0"]
    with pytest.raises(SandboxError):
        api.open_web_app(ALICE, "https://t.me/other_bot?startapp=x", from_chat_id=GROUP)
    with pytest.raises(SandboxError):
        api.open_web_app(
            ALICE, "https://t.me/stonetable_bot?startapp=bad$chars", from_chat_id=GROUP
        )


@pytest.mark.e2e
async def test_page_endpoints_and_event_stream() -> None:
    async with running_fake_api() as (api, base, _files), aiohttp.ClientSession() as http:
        origin = base.removesuffix(f"{PREFIX}/api/bot")
        async with http.get(f"{origin}{PREFIX}") as page:
            html = await page.text()
            assert page.status == 200 and "sandbox.js" in html
        async with http.get(f"{origin}{PREFIX}/state", params={"user_id": str(BO)}) as state:
            snapshot = await state.json()
        chat_ids = [c["chat"]["id"] for c in snapshot["chats"]]
        assert chat_ids == [GROUP, BO], "a player sees the group and only their own private chat"
        async with http.get(f"{origin}{PREFIX}/events", params={"since": "0"}) as stream:
            async with http.post(
                f"{origin}{PREFIX}/send",
                json={"user_id": BO, "chat_id": GROUP, "text": "<i>hi</i>"},
            ) as sent:
                assert (await sent.json())["message"]["text"] == "<i>hi</i>"
            event = await _next_sse_event(stream)
        assert event["kind"] == "message" and event["message"]["text"] == "<i>hi</i>"
        async with http.post(
            f"{origin}{PREFIX}/send", json={"user_id": BO, "chat_id": ALICE, "text": "x"}
        ) as refused:
            assert refused.status == 400
        await api.call(
            "sendMessage",
            {
                "chat_id": str(GROUP),
                "text": "Open",
                "reply_markup": json.dumps(
                    {
                        "inline_keyboard": [
                            [{"text": "App", "url": "https://t.me/stonetable_bot?startapp=t1"}]
                        ]
                    }
                ),
            },
        )
        message_id = api.last_message(GROUP)["message_id"]
        async with http.post(
            f"{origin}{PREFIX}/open",
            json={"user_id": BO, "chat_id": GROUP, "message_id": message_id, "row": 0, "column": 0},
        ) as opened:
            result = await opened.json()
        assert result["action"] == "web_app" and "#tgWebAppData=" in result["url"]
        async with http.post(
            f"{origin}{PREFIX}/open",
            json={"user_id": BO, "chat_id": GROUP, "message_id": message_id, "row": 3, "column": 0},
        ) as missing:
            assert missing.status == 400
        async with http.post(
            f"{origin}{PREFIX}/link",
            json={"user_id": BO, "chat_id": GROUP, "url": "https://t.me/stonetable_bot?start=go"},
        ) as linked:
            assert (await linked.json())["action"] == "start"
        assert api.last_message(BO)["text"] == "/start go"


async def _next_sse_event(stream: aiohttp.ClientResponse) -> dict:
    while True:
        line = (await asyncio.wait_for(stream.content.readline(), 5)).decode()
        if line.startswith("data: "):
            return json.loads(line[len("data: ") :])


@pytest.mark.e2e
async def test_wrong_token_and_unknown_method() -> None:
    async with running_fake_api() as (api, base, _files), aiohttp.ClientSession() as http:
        async with http.post(f"{base}0:wrong/getMe") as wrong:
            assert wrong.status == 401
            assert (await wrong.json())["description"] == "Unauthorized"
        async with http.post(f"{base}{api.token}/frobnicate") as unknown:
            body = await unknown.json()
            assert unknown.status == 400 and body["description"] == "Bad Request: method not found"
        async with http.post(f"{base}{api.token}/getMe", json={}) as me:
            assert (await me.json())["result"]["username"] == "stonetable_bot"


async def test_set_webhook_ends_a_waiting_poll() -> None:
    api = FakeBotApi()
    poll = asyncio.create_task(api.call("getUpdates", {"timeout": "5"}))
    await asyncio.sleep(0.05)
    await api.call("setWebhook", {"url": "http://127.0.0.1:9/hook"})
    with pytest.raises(ApiError, match="terminated by setWebhook request"):
        await poll
    await api.call("deleteWebhook", {})
    await api.aclose()
