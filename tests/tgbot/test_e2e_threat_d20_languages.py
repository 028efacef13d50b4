"""Threat dice and d20 checks in Russian beside an English player, through the local Bot API.

A Russian host's group plays a threat roll and a d20 check: the panels, their
buttons, the alerts a wrong press gets and /pool read Russian. Alice, who reads
English, plays in the same game; what the bot tells her in private is English.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from core.campaigns.play import PlayerRef
from core.store.models import Campaign
from tests.support.stack import GROUP, Stack, campaigns, running_stack
from tests.tgbot.test_e2e_d20 import Dice
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db, pytest.mark.backend_neutral]

OLGA, ALICE, IVAN = 1001, 1002, 1003  # Olga hosts and runs the game; Alice reads English
NAMES = ("Alice Marsh", "Prowess", "Might")
LATIN_WORD = re.compile(r"\b[A-Za-z]{2,}\b")


@pytest.fixture
async def dice() -> Dice:
    return Dice()


@pytest.fixture
async def stack(db: str, dice: Dice) -> Any:
    players = [
        Player(OLGA, "Ольга", "Петрова", "olga", language_code="ru", started=True),
        Player(ALICE, "Alice", "Marsh", "alice", language_code="en-GB", started=True),
        Player(IVAN, "Иван", language_code="ru-RU", started=True),
    ]
    async with running_stack(db, rng=dice, players=players) as running:
        yield running


def labels(message: dict[str, Any]) -> list[str]:
    """The panel's own buttons (not the take-back button under it, ``↩ Отменить``)."""
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [b["text"] for row in rows for b in row if not b["text"].startswith("↩ ")]


def english_left(text: str) -> list[str]:
    """Latin words in a Russian message, besides names, player text, commands and dice."""
    for name in NAMES:
        text = text.replace(name, " ")
    text = re.sub(r"/\w+|<[^>]*>|\b\d*d\d+\w*", " ", text)
    return LATIN_WORD.findall(text)


def uncoded(message: dict[str, Any]) -> str:
    """A message's text without its code spans (what to type stays as typed)."""
    text: bytes = str(message["text"]).encode("utf-16-le")
    for entity in sorted(message.get("entities", []), key=lambda e: -e["offset"]):
        if entity["type"] == "code":
            start, end = 2 * entity["offset"], 2 * (entity["offset"] + entity["length"])
            text = text[:start] + " ".encode("utf-16-le") + text[end:]
    return text.decode("utf-16-le")


def ref(stack: Stack, user: int) -> PlayerRef:
    player = stack.api.players[user]
    return PlayerRef(player.id, player.first_name, player.last_name, player.username)


async def say(
    stack: Stack, user: int, text: str, chat: int = GROUP, reply_to: int | None = None
) -> dict[str, Any]:
    await stack.api.send_text(user, chat, text, reply_to_message_id=reply_to)
    return await stack.api.wait_for_message(chat, timeout=10)


def data_of(message: dict[str, Any], label: str) -> str:
    rows = message["reply_markup"]["inline_keyboard"]
    found = [b["callback_data"] for row in rows for b in row if b["text"].startswith(label)]
    assert len(found) == 1, (label, labels(message))
    return str(found[0])


async def tap(
    stack: Stack, user: int, message: dict[str, Any], label: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Press a button; return the bot's answer and the panel message afterwards."""
    press = await stack.api.press_button(
        user, GROUP, message["message_id"], data_of(message, label)
    )
    answer = await press.answered(10)
    if answer["text"]:
        return answer, message
    edited = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == message["message_id"], timeout=10
    )
    return answer, edited


async def start_game(stack: Stack, system: str) -> str:
    started = await say(stack, OLGA, f"/newgame {system}")
    assert "начинает игру" in started["text"]
    for user in (ALICE, IVAN):
        assert "в игре" in (await say(stack, user, "/join"))["text"]
    assert (await Campaign.get(live_chat_id=GROUP)).language == "ru"
    return (await campaigns(stack).require_current(GROUP)).app_token


def russian(message: dict[str, Any]) -> None:
    for text in (message["text"], *labels(message)):
        assert english_left(text) == [], text


async def test_a_russian_group_plays_a_threat_roll_while_alice_reads_english_in_private(
    stack: Stack, dice: Dice
) -> None:
    token = await start_game(stack, "threat")
    await campaigns(stack).edit(
        token, ref(stack, IVAN), "approach.set", {"name": "Prowess", "value": 2}
    )
    asked = await stack.api.send_text(IVAN, GROUP, "Лезу на башню")
    panel = await say(stack, OLGA, "/threat", reply_to=asked["message_id"])
    assert "Иван действует — кубики Угрозы" in panel["text"]
    assert {"⚠️ Угроза +0", "🎯 Подход…", "🤝 Помочь (+1d)", "✖️ Отмена"} <= set(labels(panel))
    russian(panel)

    answer, _ = await tap(stack, ALICE, panel, "⚠️ Угроза +0")  # not hers to press
    assert answer["show_alert"] and answer["text"] == "✋ Угрозу задаёт только мастер."
    _, panel = await tap(stack, OLGA, panel, "⚠️ Угроза +0")
    assert labels(panel)[-1] == "⬅️ Назад" and "задать Угрозу или вернуться" in panel["text"]
    _, panel = await tap(stack, OLGA, panel, "+1")
    assert "+1 (рискованная)" in panel["text"]
    _, panel = await tap(stack, IVAN, panel, "🎯 Подход…")
    _, panel = await tap(stack, IVAN, panel, "Prowess 2")
    _, panel = await tap(stack, ALICE, panel, "🤝 Помочь (+1d)")
    assert "Alice Marsh помогает: +1d и делит риск" in panel["text"]
    assert "Кубики действия: 3 · Угроза: +1" in panel["text"]
    russian(panel)

    dice.push(2, 3, 1, 4)  # Ivan's two dice, Alice's help, one threat die
    _, panel = await tap(stack, IVAN, panel, "🎲 Бросить")
    assert "ПРОВАЛ" in panel["text"] and "Кубики Угрозы: 4 — без снижений" in panel["text"]
    assert "Alice Marsh делит риск." in panel["text"] and labels(panel) == []
    russian(panel)

    # In private, each reads their own language.
    alice = await say(stack, ALICE, "/threat", chat=ALICE)
    assert alice["text"].startswith("🎲 Threat dice") and "burn it after the roll" in alice["text"]
    ivan = await say(stack, IVAN, "/threat", chat=IVAN)
    assert ivan["text"].startswith("🎲 Кубики Угрозы") and english_left(ivan["text"]) == []
    assert "/threat <подход> просит его сразу с этим подходом" in ivan["text"]
    helped = await say(stack, IVAN, "/help", chat=IVAN)
    assert "/threat с названием подхода" in helped["text"]
    # In the group, the help word is typed in Russian: the help, not a refused notation.
    helped = await say(stack, IVAN, "/threat справка")
    assert helped["text"].startswith("🎲 Кубики Угрозы") and "не запись" not in helped["text"]
    # A player with no approaches is told what to do, in Russian.
    refused = await say(stack, OLGA, "/threat")
    assert "пока нет подходов" in refused["text"] and "/threat 3к2т" in refused["text"]
    assert english_left(refused["text"]) == []


async def test_a_russian_group_plays_a_d20_check_while_alice_reads_english_in_private(
    stack: Stack, dice: Dice
) -> None:
    await start_game(stack, "d20")
    panel = await say(stack, IVAN, "/check dc12")
    assert "делает проверку" in panel["text"] and "Сложность 12" in panel["text"]
    assert labels(panel)[:3] == [
        "💪 Средняя характеристика",
        "⚖️ Влад. 0, Преим. 0, Помеха 0",
        "🎯 СЛ 12",
    ]
    russian(panel)
    answer, _ = await tap(stack, ALICE, panel, "⚖️ Влад")
    assert answer["show_alert"] and answer["text"] == "✋ Это чужая проверка."
    _, panel = await tap(stack, IVAN, panel, "⚖️ Влад")
    assert labels(panel) == ["Владение +", "Преимущество +", "Помеха +", "⬅️ Назад"]
    _, panel = await tap(stack, IVAN, panel, "Преимущество +")
    assert "преимущество 1, помеха 0: +d4" in panel["text"]
    _, panel = await tap(stack, IVAN, panel, "⬅️ Назад")
    russian(panel)

    dice.push(15, 2)  # the d20 and the advantage die
    _, panel = await tap(stack, IVAN, panel, "🎲 Бросить")
    assert "✅ Успех — разница +5" in panel["text"]
    # No unlucky point in the pool yet (three lucky ones): the success stands at once.
    assert labels(panel) == [] and "Результат остаётся" in panel["text"]
    russian(panel)

    pool = await say(stack, OLGA, "/pool")
    assert pool["text"].startswith("Очки сюжета:") and "Удача: бросающий" in pool["text"]
    russian(pool)

    # Alice asks the bot in private: English; Ivan: Russian.
    alice = await say(stack, ALICE, "/check", chat=ALICE)
    assert alice["text"].startswith("🎲 d20 checks") and "lucky plot point" in alice["text"]
    ivan = await say(stack, IVAN, "/check", chat=IVAN)
    assert ivan["text"].startswith("🎲 Проверки d20") and english_left(uncoded(ivan)) == []


async def test_threat_dice_typed_with_cyrillic_letters(stack: Stack) -> None:
    await start_game(stack, "threat")

    async def answer(text: str, wanted: str) -> str:
        mark = stack.api.mark()
        await stack.api.send_text(IVAN, GROUP, text)
        found = await stack.api.wait_for_message(
            GROUP, lambda m: wanted in m.get("text", ""), timeout=10, since=mark
        )
        return str(found["text"])

    for typed in ("3д2т", "3к2т", "3К2Т", "3d2t"):
        panel = await answer(f"/threat {typed}", "Иван действует")
        assert "Угроза: +2" in panel and "Кубики: 3d (заданы вручную)" in panel, panel
    refused = await answer("/threat 3д9т", "Угроза в записи")
    assert refused == "⏳ Угроза в записи — от -2т до 4т (при 4т успех невозможен)."
    refused = await answer("/threat 3ж", "запись")
    assert refused == (
        "🤔 «3ж» — не запись броска с Угрозой и не подход из листа. Попробуйте 3к, 3к2т или "
        "4к-1т либо название подхода."
    )
    rolled = await answer("/roll 4к-1т", "Иван действует")  # /roll opens the game's roll too
    assert "Кубики действия: 4" in rolled, rolled
