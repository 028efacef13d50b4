"""No Stone Unturned through the local Bot API: a player leaving mid-worldbuilding, /status.

Alice hosts; "<b>Bo</b> & Co" and Chidi join (see tests/tgbot/test_e2e_nsu.py).
"""

from __future__ import annotations

import pytest

from tests.support.nsu_bot import (
    ALICE,
    BO,
    CHIDI,
    TIMEOUT,
    Json,
    edited,
    press,
    press_only,
    reply,
    say,
    seat_three,
)
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def to_the_settlement(stack: Stack) -> int:
    """Worldbuilding up to the settlement round; returns the group panel's message id."""
    await seat_three(stack)
    board = (await say(stack, ALICE, "/begin"))["message_id"]
    await reply(stack, BO, GROUP, board, "Weird & hopeful")
    await press(stack, ALICE, GROUP, board, "Agree")
    await press(stack, CHIDI, GROUP, board, "Agree")
    await press(stack, ALICE, GROUP, board, "Pass")
    await press(stack, BO, GROUP, board, "Pass")
    settlement = await press(stack, CHIDI, GROUP, board, "Pass")
    assert "Alice Marsh's turn" in settlement["text"]
    return board


async def test_a_player_who_leaves_on_their_turn_passes_it_to_the_next(stack: Stack) -> None:
    board = await to_the_settlement(stack)
    turn = await reply(stack, ALICE, GROUP, board, "Walls of old buses")
    assert "<b>Bo</b> & Co's turn" in turn["text"]

    mark = stack.api.mark()
    left = await say(stack, BO, "/leave")
    assert "left the game" in left["text"]
    moved = await edited(stack, GROUP, board, mark)
    assert "Chidi Okafor's turn" in moved["text"]

    # Bo can't act any more; Chidi's fact hands the turn to Alice, past Bo's old seat.
    refused = await press_only(stack, BO, GROUP, board, "Pass")
    assert "/join" in refused["text"]
    after = await reply(stack, CHIDI, GROUP, board, "A bell at noon")
    assert "Alice Marsh's turn" in after["text"]
    assert "Walls of old buses" in after["text"]  # what was said before stays


async def bot_messages(stack: Stack) -> list[Json]:
    return [m for m in stack.api.messages(GROUP) if m["from"]["id"] == stack.api.bot_id]


async def test_status_is_one_message_with_the_nsu_glance(stack: Stack) -> None:
    board = await to_the_settlement(stack)
    assert board
    before = len(await bot_messages(stack))
    mark = stack.api.mark()
    await stack.api.send_text(CHIDI, GROUP, "/status")
    status = await stack.api.wait_for_message(GROUP, timeout=TIMEOUT, since=mark)
    # Updates of one chat are handled in order: once /help is answered, /status is done.
    await stack.api.send_text(CHIDI, GROUP, "/help")
    await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] > status["message_id"], timeout=TIMEOUT
    )
    assert len(await bot_messages(stack)) == before + 2  # the status and the help

    text = status["text"]
    assert text.startswith("No Stone Unturned — ▶️ playing")
    assert "Players (3)" in text and "<b>Bo</b> & Co" in text
    assert "🌍 Worldbuilding: drawing the settlement." in text
    assert "Characters: Alice Marsh: making one" in text
    assert "/xcard" in text
    # drawing the settlement: anyone may speak or pass, so the table waits on everyone
    assert "⏳ Waiting on <b>Bo</b> & Co, Alice Marsh, Chidi Okafor since just now." in text


async def test_status_of_another_system_keeps_working(stack: Stack) -> None:
    await say(stack, ALICE, "/newgame threat")
    before = len(await bot_messages(stack))
    status = await say(stack, BO, "/status")
    assert "Players (1)" in status["text"] and "🌍" not in status["text"]
    await stack.api.send_text(BO, GROUP, "/help")
    await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] > status["message_id"], timeout=TIMEOUT
    )
    assert len(await bot_messages(stack)) == before + 2
