"""The bot introduces itself: descriptions in every language, the Mini App as the
private chat's menu button, and a /start with a button for each thing it can do."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from telegram.error import BadRequest

from core.words.i18n import available
from tests.support.bot_api import polling_bot, running_fake_api
from tests.support.stack import Stack, running_stack
from tgbot.sandbox.fake_api import ApiError, FakeBotApi, Player

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ANA, IVAN = 1001, 1002


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        Player(ANA, "Ana", language_code="en-GB", started=False),
        Player(IVAN, "Иван", language_code="ru-RU", started=False),
    ]
    async with running_stack(db, players=players) as running:
        yield running


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for row in message["reply_markup"]["inline_keyboard"] for b in row]


async def test_descriptions_and_menu_button_are_set_at_start_up_in_every_language(
    stack: Stack,
) -> None:
    assert {code for _, code in stack.api._descriptions} == {
        "" if code == "en" else code for code in available()
    }
    english = stack.api.description_for(ANA)
    russian = stack.api.description_for(IVAN)
    assert english.startswith("I run tabletop roleplaying games")
    assert "Press Start" in english and "Запустить" in russian
    assert "настольные ролевые игры" in russian
    assert len(stack.api.description_for(IVAN, "short_description")) <= 120
    assert stack.api.description_for(ANA, "short_description").startswith("Tabletop")
    # What a user sees in the sandbox before Start: their language's description
    chat = next(c for c in stack.api.snapshot(IVAN)["chats"] if c["chat"]["id"] == IVAN)
    assert chat["description"] == russian
    default = stack.api.menu_button(ANA)
    assert default["type"] == "web_app" and default["text"] == "🎲 Play"
    assert default["web_app"]["url"] == f"{stack.origin}/app"


async def test_start_shows_what_the_bot_does_with_a_button_for_each(stack: Stack) -> None:
    await stack.api.start_bot(IVAN)
    hello = await stack.api.wait_for_message(IVAN, timeout=10)
    assert hello["text"].startswith("👋 Здравствуйте, Иван!")
    labels = [b["text"] for b in buttons(hello)]
    assert labels == ["📜 Открыть лист", "🎲 Бросить d20", "❓ Все команды", "➕ Играть в группе"]
    assert buttons(hello)[0]["web_app"]["url"].startswith(stack.origin + "/app")
    assert buttons(hello)[3]["url"] == f"https://t.me/{stack.api.username}?startgroup=play"
    # Ivan's own chat's menu button speaks Russian; Ana's is still the default one
    for _ in range(100):  # set right after the greeting is sent
        if stack.api.menu_button(IVAN)["text"] != "🎲 Play":
            break
        await asyncio.sleep(0.05)
    assert stack.api.menu_button(IVAN)["text"] == "🎲 Играть"
    assert stack.api.menu_button(ANA)["text"] == "🎲 Play"

    roll = buttons(hello)[1]["callback_data"]
    press = await stack.api.press_button(IVAN, IVAN, hello["message_id"], roll)
    await press.answered(10)
    rolled = await stack.api.wait_for_message(IVAN, timeout=10)
    assert "d20" in rolled["text"] and "Итого:" in rolled["text"]

    help_data = buttons(hello)[2]["callback_data"]
    press = await stack.api.press_button(IVAN, IVAN, hello["message_id"], help_data)
    await press.answered(10)
    helped = await stack.api.wait_for_message(IVAN, timeout=10)
    assert "/newgame" in helped["text"] and "/roll" in helped["text"]


async def test_the_bot_api_server_holds_descriptions_to_telegram_s_limits() -> None:
    async with (
        running_fake_api() as (api, base_url, file_url),
        polling_bot(api, base_url, file_url, []) as application,
    ):
        bot = application.bot
        assert await bot.set_my_description("d" * 512)
        assert await bot.set_my_short_description("s" * 120, language_code="ru")
        assert (await bot.get_my_description()).description == "d" * 512
        assert (await bot.get_my_short_description("ru")).short_description == "s" * 120
        assert (await bot.get_my_short_description()).short_description == ""
        with pytest.raises(BadRequest, match=r"(?i)^bot_description_too_long"):
            await bot.set_my_description("d" * 513)
        with pytest.raises(BadRequest, match=r"(?i)short_description_too_long"):
            await bot.set_my_short_description("s" * 121)
        with pytest.raises(BadRequest, match=r"(?i)language_code_invalid"):
            await bot.set_my_description("hello", language_code="english")
        assert await bot.set_my_description("")  # removes it: the default shows again
        assert (await bot.get_my_description()).description == ""


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(
        [
            ("setMyDescription", "description", 512),
            ("setMyShortDescription", "short_description", 120),
        ]
    ),
    text=st.text(max_size=600),
    language=st.sampled_from(["", "ru", "en", "de", "RU", "rus", "r1"]),
)
async def test_descriptions_are_taken_exactly_within_their_limits(
    kind: tuple[str, str, int], text: str, language: str
) -> None:
    method, field, limit = kind
    api = FakeBotApi()
    params = {field: text, **({"language_code": language} if language else {})}
    good_language = language == "" or re.fullmatch(r"[a-z]{2}", language) is not None
    try:
        assert await api.call(method, params) is True
    except ApiError as error:
        assert len(text) > limit or not good_language, error.description
        return
    assert len(text) <= limit and good_language
    got = await api.call("get" + method[3:], {"language_code": language} if language else {})
    assert got == {field: text}
