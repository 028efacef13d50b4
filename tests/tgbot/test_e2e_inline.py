"""Inline rolls through the local Bot API server: ``@bot 2d6+3`` offers the roll, the
dice are rolled once the result is chosen, and a redelivered choice shows them again."""

from __future__ import annotations

import re

import pytest
from telegram import Update

from core.store.models import InlineRoll
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.__main__ import _set_webhook
from tgbot.sandbox.fake_api import InlineAsk, Json, Player

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, IVAN = 2001, 2002  # Alice reads English, Ivan Russian


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        Player(ALICE, "Alice", "Marsh", "alice", language_code="en", started=True),
        Player(IVAN, "Иван", language_code="ru", started=True),
    ]
    async with running_stack(db, players=players) as running:
        yield running


async def ask(
    stack: Stack, user: int, query: str, chat: int | None = GROUP
) -> tuple[InlineAsk, Json]:
    asked = await stack.api.inline_query(user, query, chat)
    return asked, await asked.answered(timeout=10)


async def pick(
    stack: Stack, user: int, asked: InlineAsk, result_id: str, chat: int = GROUP
) -> Json:
    """Choose a result; return the message once the bot edited it to show the dice."""
    posted = await stack.api.choose_inline_result(user, asked.query_id, result_id, chat)
    return await stack.api.wait_for_message(
        chat,
        lambda m: m["message_id"] == posted["message_id"] and "edit_date" in m,
        timeout=10,
    )


async def say(stack: Stack, user: int, text: str, chat: int) -> Json:
    await stack.api.send_text(user, chat, text)
    return await stack.api.wait_for_message(
        chat, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=10
    )


def total(text: str, word: str = "Total: ") -> int:
    found = re.search(re.escape(word) + r"(-?\d+)", text)
    assert found is not None, text
    return int(found.group(1))


async def test_a_query_offers_the_roll_without_rolling_it(stack: Stack) -> None:
    asked, answer = await ask(stack, ALICE, "2d6+3")
    assert asked.update is not None
    assert answer["is_personal"] is True and answer["cache_time"] <= 5
    [result] = answer["results"]
    assert result["title"] == "🎲 2d6+3" and result["description"] == "Roll 2d6 + 3"
    assert result["message"]["text"] == "🎲 Alice Marsh rolls 2d6+3…"
    assert await InlineRoll.all().count() == 0  # nothing rolled while typing
    _, russian = await ask(stack, IVAN, "1d20+5 преим", None)
    [result] = russian["results"]
    assert result["message"]["text"] == "🎲 Иван бросает 1d20+5 преим…"
    assert result["description"] == "Бросок 2d20kh1 + 5"
    buttons = result["reply_markup"]["inline_keyboard"]
    assert buttons == [[{"text": "🎲 Бросить ещё раз",
                         "switch_inline_query_current_chat": "1d20+5 преим"}]]  # fmt: skip


async def test_the_chosen_result_is_rolled_and_shown_in_an_edit(stack: Stack) -> None:
    asked, answer = await ask(stack, ALICE, "2d6+3 fire")
    edited = await pick(stack, ALICE, asked, answer["results"][0]["id"])
    assert edited["text"].startswith("🎲 Alice Marsh rolls 2d6 + 3 — fire\n2d6: [")
    assert 5 <= total(edited["text"]) <= 15
    assert edited["via_bot"]["id"] == stack.api.bot_id
    assert edited["reply_markup"]["inline_keyboard"][0][0]["text"] == "🎲 Roll again"
    [kept] = await InlineRoll.all().prefetch_related("player")
    assert kept.player.tg_id == ALICE and kept.notation == "2d6 + 3" and kept.label == "fire"
    assert kept.total == total(edited["text"])
    history = await say(stack, ALICE, "/rolls", GROUP)
    assert "2d6 + 3" not in history["text"]  # the chat was not told: no chat history


async def push(stack: Stack, **update: Json) -> None:
    """Deliver an update as Telegram would (a copy of one it sent, or a forged one)."""
    async with stack.api._lock:
        stack.api._push_update(**update)


async def test_a_redelivered_choice_shows_the_same_dice(stack: Stack) -> None:
    asked, answer = await ask(stack, IVAN, "20d100", IVAN)
    edited = await pick(stack, IVAN, asked, answer["results"][0]["id"], IVAN)
    first = edited["text"]
    assert "Итого: " in first
    inline_id = stack.api._inline_id(IVAN, edited["message_id"])
    # as if the first edit were lost on its way; then Telegram delivers the choice again
    lost = {"inline_message_id": inline_id, "text": "🎲 …"}
    assert await stack.api.call("editMessageText", lost) is True
    copy = {
        "result_id": answer["results"][0]["id"],
        "from": stack.api.player(IVAN).user_dict(),
        "query": "20d100",
        "inline_message_id": inline_id,
    }
    await push(stack, chosen_inline_result=copy)
    again = await stack.api.wait_for_message(
        IVAN, lambda m: m["message_id"] == edited["message_id"] and m["text"] != "🎲 …", timeout=10
    )
    assert again["text"] == first  # the same dice, not rolled again
    assert await InlineRoll.all().count() == 1
    # a copy whose result the query no longer offers (a saved roll changed) keeps the dice
    assert await stack.api.call("editMessageText", lost) is True
    await push(stack, chosen_inline_result={**copy, "result_id": "r" + "0" * 40})
    kept = await stack.api.wait_for_message(
        IVAN, lambda m: m["message_id"] == edited["message_id"] and m["text"] != "🎲 …", timeout=10
    )
    assert kept["text"] == first


async def test_a_result_the_query_does_not_offer_rolls_nothing(stack: Stack) -> None:
    stack.api.inline_feedback = False  # the choice below reaches the bot only forged
    asked, answer = await ask(stack, ALICE, "2d6")
    posted = await stack.api.choose_inline_result(
        ALICE, asked.query_id, answer["results"][0]["id"], GROUP
    )
    forged = {
        "result_id": "r" + "0" * 40,
        "from": stack.api.player(ALICE).user_dict(),
        "query": "2d6",
        "inline_message_id": stack.api._inline_id(GROUP, posted["message_id"]),
    }
    await push(stack, chosen_inline_result=forged)
    edited = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == posted["message_id"] and "edit_date" in m, timeout=10
    )
    assert edited["text"].startswith("🤔 That roll is no longer offered")
    assert f"@{stack.api.username}" in edited["text"]
    assert await InlineRoll.all().count() == 0


async def test_text_that_is_no_roll_offers_nothing_to_post_and_a_way_to_learn(
    stack: Stack,
) -> None:
    _, english = await ask(stack, ALICE, "hello there")
    assert english["results"] == []  # nothing a tap could post into the chat
    assert english["button"] == {
        "text": "🤔 That's no roll yet: how to write dice", "start_parameter": "dice",
    }  # fmt: skip
    asked, russian = await ask(stack, IVAN, "1001d6", IVAN)
    assert russian["results"] == []
    assert russian["button"]["text"] == "🤔 Не бросок: как записать кубики"
    # pressing it opens the private chat with /start dice: how to write a roll
    mark = stack.api.mark()
    opened = await stack.api.press_results_button(IVAN, asked.query_id)
    assert opened == {"action": "start", "chat_id": IVAN}
    explained = await stack.api.wait_for_message(
        IVAN, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=10, since=mark
    )
    assert explained["text"].startswith("🎲 Как записать бросок")
    assert f"@{stack.api.username} 2к6+3" in explained["text"]
    asked, _ = await ask(stack, ALICE, "2d6 | 3d6")
    await stack.api.press_results_button(ALICE, asked.query_id)
    explained = await stack.api.wait_for_message(
        ALICE, lambda m: "How to write a roll" in m.get("text", ""), timeout=10
    )
    assert "/roll 2d6+3" in explained["text"]


async def test_a_huge_pool_fits_one_message(stack: Stack) -> None:
    asked, answer = await ask(stack, ALICE, "1000d1000")
    edited = await pick(stack, ALICE, asked, answer["results"][0]["id"])
    assert "more" in edited["text"] and len(edited["text"]) <= 4096
    assert 1000 <= total(edited["text"]) <= 1_000_000


async def test_html_in_the_query_is_shown_as_typed(stack: Stack) -> None:
    asked, answer = await ask(stack, ALICE, "1d6 <b>x</b> & <i>")
    [result] = answer["results"]
    assert result["message"]["text"] == "🎲 Alice Marsh rolls 1d6 <b>x</b> & <i>…"
    edited = await pick(stack, ALICE, asked, result["id"])
    assert "— <b>x</b> & <i>" in edited["text"]


def test_the_bot_asks_for_inline_updates() -> None:
    assert {"inline_query", "chosen_inline_result"} <= set(Update.ALL_TYPES)


async def test_inline_rolls_come_by_webhook_too(db: str) -> None:
    players = [Player(ALICE, "Alice", language_code="en", started=True)]
    async with running_stack(db, players=players, webhook_secret="inline-secret") as webhooked:
        await _set_webhook(webhooked.runtime.settings)  # as `python -m tgbot set-webhook` does
        info = await webhooked.api.call("getWebhookInfo", {})
        assert {"inline_query", "chosen_inline_result"} <= set(info["allowed_updates"])
        asked, answer = await ask(webhooked, ALICE, "3d6")
        edited = await pick(webhooked, ALICE, asked, answer["results"][0]["id"])
        assert 3 <= total(edited["text"]) <= 18


async def test_saved_rolls_are_offered_while_typing_and_roll_when_chosen(stack: Stack) -> None:
    await say(stack, ALICE, "/save dmg 1d8+3", ALICE)
    await say(stack, ALICE, "/save crit dmg*2", ALICE)
    _, answer = await ask(stack, ALICE, "cr")  # a name's start: the saved roll is offered
    titles = [r["title"] for r in answer["results"]]
    assert any("crit" in t for t in titles), titles
    asked, answer = await ask(stack, ALICE, "crit+1")  # a saved roll inside the typed roll
    [first, *_] = answer["results"]
    assert first["title"].startswith("🎲 crit+1") and "(1d8 + 3) * 2" in first["description"]
    assert not any("couldn't read" in r["title"] for r in answer["results"])  # no hint then
    edited = await pick(stack, ALICE, asked, first["id"])
    assert 9 <= total(edited["text"]) <= 23
    _, other = await ask(stack, IVAN, "cr")  # someone else's saved rolls are not offered
    assert not any("crit" in r["title"] for r in other["results"])
