"""Secret rolls end to end: /roll ... secret and /sroll send the dice privately to the
roller and the game's GM, the chat sees only that a roll was made, with a button that
only they may press to reveal it; a player the bot can't write to is told how first."""

from __future__ import annotations

import re
from typing import Any

import pytest

from core.store.models import RollRecord
from tests.support.stack import (
    GROUP,
    OLGA,
    TIMEOUT,
    Stack,
    cast_with_olga,
    from_bot,
    running_stack,
    say,
)

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, CHIDI, ZOE = 1001, 1002, 1003, 1004  # Zoë has not started the bot
FORUM = -100888


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    cast = cast_with_olga(started=[ALICE, BO, CHIDI])
    async with running_stack(db, players=cast) as running:
        yield running


def bot_texts(stack: Stack, chat: int) -> list[str]:
    return [m["text"] for m in stack.api.messages(chat) if m["from"]["id"] == stack.api.bot_id]


def button(message: dict[str, Any]) -> str:
    return str(message["reply_markup"]["inline_keyboard"][0][0]["callback_data"])


async def test_a_secret_roll_reaches_roller_and_gm_and_only_they_reveal_it(stack: Stack) -> None:
    await say(stack, ALICE, GROUP, "/newgame threat")  # Alice hosts: the GM
    await say(stack, BO, GROUP, "/join")
    before = {p: len(bot_texts(stack, p)) for p in (ALICE, BO, CHIDI)}
    shown = await say(stack, BO, GROUP, "/roll secret 1d20+5 sneaking")
    assert "rolled in secret" in shown["text"] and "Total" not in shown["text"]
    assert "sneaking" not in shown["text"] and "1d20" not in shown["text"]
    await stack.api.wait_for_message(ALICE, from_bot(stack), timeout=TIMEOUT)
    mine, gms = bot_texts(stack, BO)[before[BO] :], bot_texts(stack, ALICE)[before[ALICE] :]
    assert len(mine) == 1 and len(gms) == 1
    total = re.findall(r"Total: (\d+)", mine[0])[0]
    assert "Secret roll" in mine[0] and "sneaking" in mine[0]
    assert f"Total: {total}" in gms[0]
    assert bot_texts(stack, CHIDI)[before[CHIDI] :] == []  # a player who isn't the GM
    history = await say(stack, CHIDI, GROUP, "/rolls")
    assert "No rolls here yet" in history["text"]

    press = await stack.api.press_button(CHIDI, GROUP, shown["message_id"], button(shown))
    refused = await press.answered(TIMEOUT)
    assert "Only the roller or the GM" in str(refused.get("text"))
    same = next(m for m in stack.api.messages(GROUP) if m["message_id"] == shown["message_id"])
    assert "Total" not in same["text"] and same.get("reply_markup")  # still secret
    press = await stack.api.press_button(ALICE, GROUP, shown["message_id"], button(shown))
    await press.answered(TIMEOUT)
    edited = await stack.api.wait_for_message(GROUP, timeout=TIMEOUT)
    assert edited["message_id"] == shown["message_id"]
    assert f"Total: {total}" in edited["text"] and "sneaking" in edited["text"]
    assert "Revealed by Alice Marsh" in edited["text"]
    assert not edited.get("reply_markup")
    history = await say(stack, CHIDI, GROUP, "/rolls")
    assert f"→ {total}" in history["text"] and "revealed" in history["text"]


async def test_sroll_in_a_forum_topic_of_no_stone_unturned_reaches_only_the_roller(
    stack: Stack,
) -> None:
    threads = stack.api.add_forum(FORUM, "Friday Games", ["Campaign A"])
    a = threads["Campaign A"]
    await say(stack, CHIDI, FORUM, "/newgame nsu", a)
    await say(stack, BO, FORUM, "/join", a)
    before = {p: len(bot_texts(stack, p)) for p in (BO, CHIDI)}
    shown = await say(stack, BO, FORUM, "/sroll 2d6", a)
    assert shown["message_thread_id"] == a and "rolled in secret" in shown["text"]
    assert len(bot_texts(stack, BO)[before[BO] :]) == 1
    assert bot_texts(stack, CHIDI)[before[CHIDI] :] == []  # the host is no GM in this game
    record = await RollRecord.get()
    assert (record.topic_id, record.seen_by, record.revealed) == (a, [BO], False)
    # the roller reveals it in the topic
    press = await stack.api.press_button(BO, FORUM, shown["message_id"], button(shown))
    await press.answered(TIMEOUT)
    edited = await stack.api.wait_for_message(FORUM, timeout=TIMEOUT)
    assert "Revealed by" in edited["text"] and edited["message_thread_id"] == a


async def test_a_player_the_bot_cant_write_to_is_told_how_and_nothing_is_posted(
    stack: Stack,
) -> None:
    told = await say(stack, ZOE, GROUP, "/sroll d20")
    assert "press <b>Start</b>" not in told["text"] and "press Start" in told["text"]
    url = told["reply_markup"]["inline_keyboard"][0][0]["url"]
    assert url.endswith("?start=inbox")
    assert not any("rolled in secret" in t for t in bot_texts(stack, GROUP))
    assert await RollRecord.all().count() == 0
    await stack.api.start_bot(ZOE, "inbox")
    await stack.api.wait_for_message(ZOE, from_bot(stack), timeout=TIMEOUT)
    shown = await say(stack, ZOE, GROUP, "/sroll d20")
    assert "rolled in secret" in shown["text"]
    assert await RollRecord.all().count() == 1


async def test_secret_rolls_speak_russian_and_are_ordinary_in_private(stack: Stack) -> None:
    shown = await say(stack, OLGA, GROUP, "/roll тайно 1d6")
    assert ": тайный бросок." in shown["text"] and "(а)" not in shown["text"]
    assert shown["reply_markup"]["inline_keyboard"][0][0]["text"] == "👁 Раскрыть"
    mine = bot_texts(stack, OLGA)[-1]
    assert "Тайный бросок" in mine
    last = await say(stack, BO, GROUP, "/roll 1d6 secret")  # the word after the dice
    assert "rolled in secret" in last["text"] and "Total" not in last["text"]
    alone = await say(stack, BO, BO, "/sroll 1d6")
    assert "rolls" in alone["text"] and "Total" in alone["text"]


async def test_a_repeated_secret_roll_is_revealed_and_kept_repeat_by_repeat(stack: Stack) -> None:
    mark = stack.api.mark()
    shown = await say(stack, BO, GROUP, "/roll secret 3x1d20 ambush")
    private = await stack.api.wait_for_message(BO, from_bot(stack), timeout=TIMEOUT, since=mark)
    totals = re.findall(r"Totals: ([\d, ]+)", private["text"])[0].split(", ")
    assert len(totals) == 3 and await RollRecord.all().count() == 3
    assert "No rolls here yet" in (await say(stack, CHIDI, GROUP, "/rolls"))["text"]
    press = await stack.api.press_button(BO, GROUP, shown["message_id"], button(shown))
    await press.answered(TIMEOUT)
    edited = await stack.api.wait_for_message(GROUP, timeout=TIMEOUT)
    assert edited["message_id"] == shown["message_id"]
    assert f"Totals: {', '.join(totals)}" in edited["text"] and "3x1d20" in edited["text"]
    rows = (await say(stack, CHIDI, GROUP, "/rolls"))["text"].split("\n")[1:]
    assert [r.split(" → ")[1].split(" ")[0] for r in rows] == totals, rows
    assert all("1d20 →" in r and "revealed" in r for r in rows), rows


async def test_a_repeated_secret_roll_the_bot_cant_send_keeps_none_of_its_repeats(
    stack: Stack,
) -> None:
    told = await say(stack, ZOE, GROUP, "/sroll 2x1d20")
    assert "press Start" in told["text"]
    assert await RollRecord.all().count() == 0
