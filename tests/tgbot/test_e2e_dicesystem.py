"""Library games end to end through the local Bot API server: /newgame KEY, the game's
own /roll and /odds, a mistyped roll's reason, dice notation still rolling dice, and a
player's stat rolled by its name."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from core.campaigns.play import PlayerRef
from core.rules.dicesystem import STAT_SET
from core.store.models import Campaign
from tests.support.dice import PushedDice as Dice
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, IVAN = 3101, 3102, 3103  # Alice and Bo read English, Ivan Russian


@pytest.fixture
async def dice() -> Dice:
    return Dice()


@pytest.fixture
async def stack(db: str, dice: Dice) -> AsyncIterator[Stack]:
    players = [
        Player(ALICE, "Alice", "Marsh", "alice", language_code="en", started=True),
        Player(BO, "Bo", language_code="en", started=True),
        Player(IVAN, "Иван", language_code="ru", started=True),
    ]
    async with running_stack(db, rng=dice, players=players) as running:
        yield running


async def say(stack: Stack, user: int, text: str, timeout: float = 10) -> str:
    mark = stack.api.mark()
    await stack.api.send_text(user, GROUP, text)
    message: dict[str, Any] = await stack.api.wait_for_message(
        GROUP, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=timeout, since=mark
    )
    return str(message["text"])


async def test_a_game_of_pbta_rolls_its_moves_and_gives_their_odds(
    stack: Stack, dice: Dice
) -> None:
    choice = await say(stack, ALICE, "/newgame")
    assert "Powered by the Apocalypse pbta" in choice and "Call of Cthulhu coc" in choice
    started = await say(stack, ALICE, "/newgame pbta")
    assert "Powered by the Apocalypse" in started
    assert "Powered by the Apocalypse" in await say(stack, ALICE, "/status")
    assert "joined the game" in await say(stack, BO, "/join")

    dice.push(3, 5)
    rolled = await say(stack, BO, "/roll +2")
    assert rolled == (
        "🎲 Bo — Powered by the Apocalypse, stat +2\n3 + 5 + 2 = 10 → Strong hit (41.7%)"
    )
    odds = await say(stack, ALICE, "/odds +2")
    assert odds == (
        "📊 Powered by the Apocalypse, stat +2\n41.7% — Strong hit\n41.7% — Weak hit\n16.7% — Miss"
    )
    refused = await say(stack, BO, "/roll +9")
    assert "“+9” is out of range here: from -3 to 4." in refused
    unknown = await say(stack, BO, "/roll banana")
    assert "I couldn't read “banana” for this game." in unknown

    dice.push(4, 6)
    plain = await say(stack, BO, "/roll 2d6")  # dice notation is still a dice roll
    assert "2d6" in plain and "10" in plain and "Strong hit" not in plain


async def panel_says(stack: Stack, user: int, text: str) -> dict[str, Any]:
    mark = stack.api.mark()
    await stack.api.send_text(user, GROUP, text)
    message: dict[str, Any] = await stack.api.wait_for_message(
        GROUP, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=10, since=mark
    )
    return message


async def tap(stack: Stack, user: int, message: dict[str, Any], label: str) -> dict[str, Any]:
    """Press the button whose label starts with ``label``; the panel's message after."""
    rows = message["reply_markup"]["inline_keyboard"]
    found = [b["callback_data"] for row in rows for b in row if b["text"].startswith(label)]
    assert len(found) == 1, (label, rows)
    mark = stack.api.mark()
    press = await stack.api.press_button(user, GROUP, message["message_id"], found[0])
    answer = await press.answered(10)
    if answer["text"]:
        return {"answer": answer["text"], **message}
    edited: dict[str, Any] = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == message["message_id"], timeout=10, since=mark
    )
    return edited


async def test_a_roll_set_up_with_buttons_rolls_for_its_roller(stack: Stack, dice: Dice) -> None:
    await say(stack, ALICE, "/newgame pbta")
    await say(stack, BO, "/join")
    panel = await panel_says(stack, BO, "/roll")  # a bare /roll: the game's roll, by taps
    assert panel["text"] == (
        "🎲 Bo — Powered by the Apocalypse\nstat: 0\nSet the roll up with the buttons, then roll."
    )
    assert [b["text"] for b in panel["reply_markup"]["inline_keyboard"][0]] == ["stat −1", "+1"]
    panel = await tap(stack, BO, panel, "+1")
    panel = await tap(stack, BO, panel, "+1")
    assert "stat: +2" in panel["text"]
    refused = await tap(stack, ALICE, panel, "🎲 Roll")  # Bo's roll, not Alice's
    assert refused["answer"] == "✋ This roll is another player's: start your own with /roll."
    dice.push(6, 6)
    rolled = await tap(stack, BO, panel, "🎲 Roll")
    assert rolled["text"] == (
        "🎲 Bo — Powered by the Apocalypse, stat +2\n6 + 6 + 2 = 14 → Strong hit (41.7%)"
    )
    assert "reply_markup" not in rolled or not rolled["reply_markup"]["inline_keyboard"]


async def test_blades_and_call_of_cthulhu_read_their_own_outcomes(stack: Stack, dice: Dice) -> None:
    assert "Forged in the Dark" in await say(stack, ALICE, "/newgame blades")
    dice.push(6, 6)
    assert await say(stack, ALICE, "/roll 2") == (
        "🎲 Alice Marsh — Forged in the Dark, dice 2\n6 · 6 → Critical success (2.8%)"
    )
    dice.push(2, 4)
    assert await say(stack, ALICE, "/roll 2") == (
        "🎲 Alice Marsh — Forged in the Dark, dice 2\n2 · 4 → Partial success (44.4%)"
    )
    assert await say(stack, ALICE, "/odds 2") == (
        "📊 Forged in the Dark, dice 2\n2.8% — Critical success\n27.8% — Full success\n"
        "44.4% — Partial success\n25.0% — Bad outcome"
    )
    refused = await say(stack, ALICE, "/roll 11")  # a bare number is the pool, out of range
    assert refused == "🤔 “11” is out of range here: from 0 to 10."


async def test_a_russian_table_plays_call_of_cthulhu_in_russian(stack: Stack, dice: Dice) -> None:
    assert "Зов Ктулху coc" in await say(stack, IVAN, "/newgame")
    assert "Зов Ктулху" in await say(stack, IVAN, "/newgame coc")
    assert "Зов Ктулху" in await say(stack, IVAN, "/status")
    assert await say(stack, IVAN, "/odds 45") == (
        "📊 Зов Ктулху, навык 45\n1,0\xa0% — Критический успех\n8,0\xa0% — Экстремальный успех\n"
        "13,0\xa0% — Трудный успех\n23,0\xa0% — Обычный успех\n50,0\xa0% — Провал\n"
        "5,0\xa0% — Катастрофический провал"
    )
    dice.push(3, 7, 1)  # tens 30, units 7; the bonus die's tens 10: 17 is kept
    assert await say(stack, IVAN, "/roll 45 бонус") == (
        "🎲 Иван — Зов Ктулху, навык 45, бонусные или штрафные кости +1\n"
        "2 | 60 · 0 → Экстремальный успех (15,2\xa0%)"
    )
    assert await say(stack, IVAN, "/roll 45 банан") == (
        "🤔 Не понимаю «банан» для этой игры. Она принимает: 1..99, "
        "bonus/bonus2/penalty/penalty2/бонус/бонус2."
    )


async def test_two_library_games_in_two_forum_topics_each_roll_their_own(
    stack: Stack, dice: Dice
) -> None:
    forum = -100888
    threads = stack.api.add_forum(forum, "Friday Games", ["Apocalypse", "Cthulhu"])
    a, b = threads["Apocalypse"], threads["Cthulhu"]
    started = await in_topic(stack, ALICE, forum, "/newgame pbta", a)
    assert started["message_thread_id"] == a
    await in_topic(stack, ALICE, forum, "/newgame coc", b)
    dice.push(3, 5)
    rolled = await in_topic(stack, ALICE, forum, "/roll +2", a)
    assert rolled["message_thread_id"] == a
    assert rolled["text"].endswith("3 + 5 + 2 = 10 → Strong hit (41.7%)")
    dice.push(5, 1)  # units 4, tens 00: 4 against a skill of 45, an extreme success
    rolled = await in_topic(stack, ALICE, forum, "/roll 45", b)
    assert rolled["message_thread_id"] == b
    assert rolled["text"] == (
        "🎲 Alice Marsh — Call of Cthulhu, skill 45\n4 | 0 → Extreme success (8.0%)"
    )


async def in_topic(stack: Stack, user: int, chat: int, text: str, thread: int) -> dict[str, Any]:
    mark = stack.api.mark()
    await stack.api.send_text(user, chat, text, thread_id=thread)
    message: dict[str, Any] = await stack.api.wait_for_message(
        chat, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=10, since=mark
    )
    return message


async def test_a_players_stat_rolls_by_its_name_with_their_value_and_a_bonus(
    stack: Stack, dice: Dice
) -> None:
    await say(stack, ALICE, "/newgame ironsworn")
    assert "joined the game" in await say(stack, BO, "/join")
    token = (await Campaign.get(live_chat_id=GROUP)).app_token
    campaigns = stack.runtime.application.deps.campaigns  # type: ignore[union-attr]
    await campaigns.edit(token, PlayerRef(BO, "Bo"), STAT_SET, {"stat": "iron", "value": 3})
    assert "a stat set" in await say(stack, BO, "/undo")  # a change on the sheet, taken back
    await campaigns.edit(token, PlayerRef(BO, "Bo"), STAT_SET, {"stat": "iron", "value": 2})

    dice.push(4, 3, 9)  # the action die, then the two challenge dice
    rolled = await say(stack, BO, "/roll iron +1")
    assert rolled.startswith("🎲 Bo — Ironsworn, Iron 3\n") and "Weak hit" in rolled
    dice.push(1, 3, 9)
    rolled = await say(stack, ALICE, "/roll Iron")  # Alice's Iron: its default, 1
    assert rolled == "🎲 Alice Marsh — Ironsworn, Iron 1\n1 | 3 · 9 → Miss (45.2%)"
    refused = await say(stack, BO, "/roll iron +9")
    assert "“11” is out of range here: from 0 to 10." in refused


async def test_a_push_is_a_button_on_the_result_for_the_roller_alone(
    stack: Stack, dice: Dice
) -> None:
    await say(stack, ALICE, "/newgame yze")
    await say(stack, BO, "/join")
    dice.push(6, 3, 1, 2)
    rolled = await panel_says(stack, BO, "/roll 4")
    assert rolled["text"] == (
        "🎲 Bo — Year Zero Engine, dice 4\n6 · 3 · 1 · 2 → Success (38.6%)\n"
        "🔁 Push: Success, three or more sixes 7.4% · Success, two sixes 34.7% · Success 57.9%"
    )
    assert [[b["text"] for b in row] for row in rolled["reply_markup"]["inline_keyboard"]] == [
        ["🔁 Push"]
    ]
    # a reply to the roll is table talk: the bot says nothing to it
    await stack.api.send_text(ALICE, GROUP, "Nice!", reply_to_message_id=rolled["message_id"])
    assert (await say(stack, ALICE, "/odds 1")).startswith("📊 Year Zero Engine, dice 1")
    refused = await tap(stack, ALICE, rolled, "🔁 Push")  # Bo's roll: nothing changes
    assert refused["answer"] == "✋ This roll is another player's: start your own with /roll."
    dice.push(6, 1, 5)  # the 6 stays; the 3, the 1 and the 2 are rolled again
    pushed = await tap(stack, BO, rolled, "🔁 Push")
    assert pushed["text"] == (
        "🎲 Bo — Year Zero Engine, dice 4\n6 · 3 · 1 · 2 → Success (38.6%)\n"
        "🔁 Push: 6 · 6 · 1 · 5 → Success, two sixes (34.7%)\n✨ Pushed with a 1: take the cost"
    )
    assert "reply_markup" not in pushed or not pushed["reply_markup"]["inline_keyboard"]
    # the button pressed again from a phone that still shows it: nothing doubles
    rows = rolled["reply_markup"]["inline_keyboard"]
    (data,) = [b["callback_data"] for row in rows for b in row]
    late = await stack.api.press_button(BO, GROUP, rolled["message_id"], data, as_seen=rolled)
    answer = await late.answered(10)
    assert answer["text"] == "⏳ That button is out of date. Use the latest message."
    shown = [m for m in stack.api.messages(GROUP) if m["message_id"] == rolled["message_id"]]
    assert shown[-1]["text"] == pushed["text"]
    undone = await say(stack, BO, "/undo")
    assert "rolled dice stand" in undone


async def test_a_benny_rerolls_and_the_better_roll_stands_in_russian(
    stack: Stack, dice: Dice
) -> None:
    await say(stack, IVAN, "/newgame savage")
    dice.push(5, 2)  # trait die 5, wild die 2: a success
    rolled = await panel_says(stack, IVAN, "/roll к8")
    assert rolled["text"] == (
        "🎲 Иван — Savage Worlds, кость черты 8, модификатор 0\n5 | 2 | – → Успех (56,6\xa0%)\n"
        "🔁 Потратить фишку: Успех с 3+ подъёмами 2,9\xa0% · Успех с двумя подъёмами 7,4\xa0% · "
        "Успех с подъёмом 14,3\xa0% · Успех 75,3\xa0%"
    )
    dice.push(2, 3)  # worse: the first roll stands
    after = await tap(stack, IVAN, rolled, "🔁 Потратить фишку")
    assert after["text"].split("\n")[1:4] == [
        "5 | 2 | – → Успех (56,6\xa0%)",
        "🔁 Потратить фишку: 2 | 3 | – → Провал",
        "Остаётся лучший бросок: Успех (75,3\xa0%)",
    ]
    assert [[b["text"] for b in row] for row in after["reply_markup"]["inline_keyboard"]] == [
        ["🔁 Потратить фишку"]  # two Bennies more may be spent on it
    ]
