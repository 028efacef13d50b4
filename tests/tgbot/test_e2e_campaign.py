"""Campaign commands end to end through the local Bot API server."""

from __future__ import annotations

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from tests.support.counter_system import counter_registry
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = default_cast(started=[1001, 1002])  # the others never opened a private chat
    async with running_stack(db, registry=counter_registry(), players=players) as running:
        yield running


async def say(stack: Stack, user: int, text: str, chat: int = GROUP) -> dict:
    await stack.api.send_text(user, chat, text)
    return await stack.api.wait_for_message(chat, timeout=10)


async def test_a_game_is_chosen_joined_paused_and_ended(stack: Stack) -> None:
    host, friend, newcomer = stack.players[0], stack.players[1], stack.players[2]
    choice = await say(stack, host, "/newgame")
    buttons = choice["reply_markup"]["inline_keyboard"]
    assert buttons[0][0]["text"] == "Counter"
    press = await stack.api.press_button(
        host, GROUP, choice["message_id"], buttons[0][0]["callback_data"]
    )
    await press.answered(10)
    started = await stack.api.wait_for_message(GROUP, timeout=10)
    assert "started a game of Counter" in started["text"]

    assert "joined the game" in (await say(stack, friend, "/join"))["text"]
    assert "already in" in (await say(stack, friend, "/join"))["text"]

    pending = await say(stack, newcomer, "/join")
    link = pending["reply_markup"]["inline_keyboard"][0][0]["url"]
    payload = stack.api.start_link_payload(link)
    assert payload and payload.startswith("join_")
    await stack.api.start_bot(newcomer, payload)
    private = await stack.api.wait_for_message(newcomer, timeout=10)
    assert "You're in the" in private["text"]
    announced = await stack.api.wait_for_message(GROUP, timeout=10)
    assert "joined the game" in announced["text"]

    status = await say(stack, friend, "/status")
    assert status["text"].count("•") == 3 and "(host)" in status["text"]

    assert "Only the host" in (await say(stack, friend, "/pause"))["text"]
    assert "paused" in (await say(stack, host, "/pause"))["text"]
    assert "already running" in (await say(stack, host, "/newgame counter"))["text"]
    assert "goes on" in (await say(stack, host, "/resume"))["text"]
    assert "left the game" in (await say(stack, friend, "/leave"))["text"]
    question = await say(stack, host, "/endgame")
    assert "End the Counter game?" in question["text"]
    end = question["reply_markup"]["inline_keyboard"][0][0]
    press = await stack.api.press_button(host, GROUP, question["message_id"], end["callback_data"])
    await press.answered(10)
    ended = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == question["message_id"], timeout=10
    )
    assert "ended" in ended["text"]
    assert "No game is running" in (await say(stack, host, "/status"))["text"]


async def test_an_unknown_game_and_commands_without_a_game_are_answered_kindly(
    stack: Stack,
) -> None:
    host = stack.players[0]
    assert "Unknown game system" in (await say(stack, host, "/newgame chess"))["text"]
    assert "No game is running" in (await say(stack, host, "/join"))["text"]
    reply = await say(stack, host, "/newgame counter", chat=host)
    assert "group chat" in reply["text"]


@pytest.mark.parametrize(
    "data", ["g2:nosuchverb", "g9:undo:1", "p1:notanumber:1:go", "g2:undo:zz:zz:zz", "x" * 64]
)
async def test_a_button_no_feature_takes_is_answered_out_of_date(stack: Stack, data: str) -> None:
    """A button an older version of the bot left on a message: nothing takes it now."""
    host = stack.players[0]
    application = stack.runtime.application
    assert application is not None
    old = InlineKeyboardMarkup([[InlineKeyboardButton("Old", callback_data=data)]])
    message = await application.bot.send_message(GROUP, "An old message", reply_markup=old)
    press = await stack.api.press_button(host, GROUP, message.message_id, data)
    answer = await press.answered(10)
    assert "out of date" in answer["text"]
