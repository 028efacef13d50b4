"""Reply keyboards, their removal and forced replies in the local Bot API server: accepted
and checked as Telegram checks them, acting on the readers' clients, and never part of
the ``Message`` the bot gets back (Telegram's ``Message.reply_markup`` is only ever an
inline keyboard)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from telegram import (
    Bot,
    ForceReply,
    KeyboardButton,
    Message,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    Update,
)
from telegram.error import BadRequest
from telegram.ext import CommandHandler, ContextTypes, MessageHandler, filters

from tests.support.bot_api import polling_bot, running_fake_api, send_and_wait
from tgbot.sandbox.fake_api import ApiError, FakeBotApi, Json

pytestmark = pytest.mark.e2e

GROUP = -100123
ALICE, BO, CHIDI = 1001, 1002, 1003


def _client_markup_events(api: FakeBotApi, message_id: int) -> list[Json]:
    return [
        event
        for event in api.events_since(0)
        if event["kind"] == "message" and event["message"]["message_id"] == message_id
    ]


async def test_a_forced_reply_reaches_the_readers_not_the_bots_message() -> None:
    sent: list[Message] = []
    replies: list[Message] = []

    async def ask(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        sent.append(
            await update.effective_message.reply_text(
                "What is your name?",
                reply_markup=ForceReply(selective=True, input_field_placeholder="Your name"),
            )
        )

    async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        assert message is not None and message.reply_to_message is not None
        replies.append(message)
        await message.reply_text(f"Hello, {message.text}")

    handlers = [
        CommandHandler("ask", ask),
        MessageHandler(filters.REPLY & filters.TEXT & ~filters.COMMAND, answer),
    ]
    async with (
        running_fake_api() as (api, base, files),
        polling_bot(api, base, files, handlers),
    ):
        asked = await send_and_wait(api, ALICE, GROUP, "/ask")
        assert asked["text"] == "What is your name?"
        assert "reply_markup" not in asked
        # the bot read Telegram's answer to sendMessage
        async with asyncio.timeout(5):
            while not sent:
                await asyncio.sleep(0.01)
        assert sent[0].message_id == asked["message_id"] and sent[0].reply_markup is None
        # the readers' clients got the forced reply: selective, so only the asker's
        (event,) = _client_markup_events(api, asked["message_id"])
        assert event["client_markup"] == {
            "force_reply": True,
            "selective": True,
            "input_field_placeholder": "Your name",
        }
        assert event["client_markup_for"] == [ALICE]

        await api.send_text(ALICE, GROUP, "Alice", reply_to_message_id=asked["message_id"])
        hello = await api.wait_for_message(GROUP)
        assert hello["text"] == "Hello, Alice"
        assert replies[0].reply_to_message is not None
        assert replies[0].reply_to_message.message_id == asked["message_id"]
        assert replies[0].reply_to_message.reply_markup is None


async def test_the_update_of_a_reply_carries_no_reply_keyboard() -> None:
    async with running_fake_api() as (api, _base, _files):
        asked = await api.call(
            "sendMessage",
            {"chat_id": GROUP, "text": "Who goes first?", "reply_markup": '{"force_reply":true}'},
        )
        assert "reply_markup" not in asked
        (event,) = _client_markup_events(api, asked["message_id"])
        assert event["client_markup"] == {"force_reply": True}
        assert event["client_markup_for"] is None, "not selective: every reader's client"

        await api.send_text(BO, GROUP, "me", reply_to_message_id=asked["message_id"])
        (update,) = api.pending_updates()
        assert update["message"]["reply_to_message"]["text"] == "Who goes first?"
        assert "reply_markup" not in update["message"]["reply_to_message"]


async def test_reply_keyboards_and_their_removal_are_accepted_not_echoed() -> None:
    async with (
        running_fake_api() as (api, base, files),
        Bot(api.token, base_url=base, base_file_url=files) as bot,
    ):
        keyboard = ReplyKeyboardMarkup(
            [["Yes", KeyboardButton("No")]],
            one_time_keyboard=True,
            selective=True,
            input_field_placeholder="Yes or no",
        )
        shown = await bot.send_message(GROUP, "Ready, @chidi_o?", reply_markup=keyboard)
        assert shown.reply_markup is None
        (event,) = _client_markup_events(api, shown.message_id)
        assert event["client_markup"]["keyboard"] == [[{"text": "Yes"}, {"text": "No"}]]
        assert event["client_markup_for"] == [CHIDI], "the @mentioned reader"

        removed = await bot.send_message(GROUP, "Thanks", reply_markup=ReplyKeyboardRemove())
        assert removed.reply_markup is None
        assert "reply_markup" not in api.last_message(GROUP)  # type: ignore[operator]
        (event,) = _client_markup_events(api, removed.message_id)
        assert event["client_markup"] == {"remove_keyboard": True}


@pytest.mark.parametrize(
    ("markup", "error"),
    [
        ({"force_reply": False}, "can't parse reply keyboard markup"),
        ({"force_reply": "yes"}, 'field "force_reply" of the ForceReply'),
        ({"force_reply": True, "input_field_placeholder": ""}, "placeholder"),
        ({"force_reply": True, "input_field_placeholder": "x" * 65}, "placeholder"),
        ({"force_reply": True, "selective": 1}, 'field "selective"'),
        ({"remove_keyboard": False}, "can't parse reply keyboard markup"),
        ({"keyboard": "Yes"}, 'field "keyboard" of the ReplyKeyboardMarkup'),
        ({"keyboard": ["Yes"]}, "must be an Array of Arrays"),
        ({"keyboard": [[]]}, "must not be empty"),
        ({"keyboard": [[{"request_contact": True}]]}, 'must have field "text"'),
        ({"keyboard": [[" "]]}, "BUTTON_TEXT_INVALID"),
        ({"keyboard": [[7]]}, "can't parse keyboard button"),
        ({"keyboard": [[{"text": "Go", "web_app": {"url": "https://x.example"}}]]}, "BUTTON_TYPE"),
        ({"keyboards": [["Yes"]]}, "can't parse reply keyboard markup"),
    ],
)
async def test_malformed_markups_are_refused(markup: dict[str, Any], error: str) -> None:
    async with running_fake_api() as (api, _base, _files):
        with pytest.raises(ApiError, match=error):
            await api.call("sendMessage", {"chat_id": GROUP, "text": "?", "reply_markup": markup})
        assert api.messages(GROUP) == []


async def test_an_edit_takes_only_an_inline_keyboard() -> None:
    async with running_fake_api() as (api, base, files):
        async with Bot(api.token, base_url=base, base_file_url=files) as bot:
            sent = await bot.send_message(GROUP, "Name?")
            with pytest.raises(BadRequest, match=r"(?i)reply_markup_invalid"):
                await bot.edit_message_text(
                    "Name, please?",
                    GROUP,
                    sent.message_id,
                    api_kwargs={"reply_markup": '{"force_reply":true}'},
                )
        assert api.last_message(GROUP)["text"] == "Name?"  # type: ignore[index]
