"""A Russian table beside an English player, through the local Bot API server.

The group speaks its game's language (its host's, until /language changes it); each
private chat speaks its own user's; the command menus are set per language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from core.store.models import Campaign
from tests.support.counter_system import counter_registry
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db]

OLGA, ALICE, IVAN = 1001, 1002, 1003  # Olga hosts; Alice reads English
LATIN_WORD = re.compile(
    r"\b(?!Counter\b|Alice\b|Marsh\b|Start\b|Stonetable\b|Telegram\b|adv\b|dis\b)[A-Za-z]{3,}\b"
)


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        Player(OLGA, "Ольга", "Петрова", "olga", language_code="ru", started=True),
        Player(ALICE, "Alice", "Marsh", "alice", language_code="en-GB", started=True),
        Player(IVAN, "Иван", language_code="ru-RU", started=True),
    ]
    async with running_stack(db, registry=counter_registry(), players=players) as running:
        yield running


async def say(stack: Stack, user: int, text: str, chat: int = GROUP) -> dict[str, Any]:
    await stack.api.send_text(user, chat, text)
    return await stack.api.wait_for_message(chat, timeout=10)


def english_left(text: str) -> list[str]:
    """Latin words in a Russian message, besides names, game names and /commands."""
    text = re.sub(r"/\w+|<[^>]*>|\b\d*d\d+\w*", " ", text)
    return LATIN_WORD.findall(text)


async def test_a_russian_hosts_game_speaks_russian_and_each_private_chat_its_users_language(
    stack: Stack,
) -> None:
    started = await say(stack, OLGA, "/newgame counter")
    assert "начинает игру" in started["text"] and "/join" in started["text"]
    assert "Кто хочет играть — нажмите /join." in started["text"]
    assert (await Campaign.get(live_chat_id=GROUP)).language == "ru"

    joined = await say(stack, ALICE, "/join")  # an English player in a Russian game
    assert joined["text"] == "✅ Alice Marsh в игре."
    rolled = await say(stack, ALICE, "/roll 2d6+1 за Алису")
    assert "бросает" in rolled["text"] and "Итого:" in rolled["text"]
    assert "за Алису" in rolled["text"]  # the player's note, as written
    status = await say(stack, IVAN, "/status")
    assert "Игроки (2):" in status["text"] and "(организатор)" in status["text"]
    assert english_left(status["text"]) == []
    refused = await say(stack, ALICE, "/pause")
    assert refused["text"] == "✋ Поставить игру на паузу может только организатор."

    # Private chats: each in its own user's language
    alice_hello = await say(stack, ALICE, "/start", chat=ALICE)
    assert alice_hello["text"].startswith("👋 Hello, Alice Marsh!")
    assert "runs tabletop roleplaying games" in alice_hello["text"]
    alice_help = await say(stack, ALICE, "/help", chat=ALICE)
    assert "roll dice" in alice_help["text"]
    ivan_hello = await say(stack, IVAN, "/start", chat=IVAN)
    assert ivan_hello["text"].startswith("👋 Здравствуйте, Иван!")
    assert ivan_hello["reply_markup"]["inline_keyboard"][0][0]["text"] == "📜 Открыть лист"
    ivan_help = await say(stack, IVAN, "/help", chat=IVAN)
    assert "бросить кубики" in ivan_help["text"]
    assert "/story — организатор делится историей игры" in ivan_help["text"]
    # "/story off" and "/newgame counter" (the test game's key) are commands as typed;
    # no other English is left
    typed = ivan_help["text"].replace("/story off", "/story")
    assert english_left(typed.replace("/newgame counter", "/newgame")) == []

    # The command menus: Russian descriptions for Russian users, English otherwise
    assert stack.api.visible_commands(IVAN, IVAN)[0]["description"] == (
        "Поздороваться и открыть лист персонажа"
    )
    assert stack.api.visible_commands(ALICE, ALICE)[0]["description"] == (
        "Say hello and open your sheet"
    )
    group_menu = {c["command"]: c["description"] for c in stack.api.visible_commands(ALICE, GROUP)}
    assert group_menu["status"] == "Коротко об игре"  # the group speaks its game's language

    question = await say(stack, OLGA, "/endgame")
    assert "Завершить игру «Counter»?" in question["text"]
    assert "Ещё 30 дней после завершения" in question["text"]
    end, cancel = question["reply_markup"]["inline_keyboard"][0]
    assert (end["text"], cancel["text"]) == ("🏁 Завершить игру", "✖️ Отмена")
    press = await stack.api.press_button(OLGA, GROUP, question["message_id"], end["callback_data"])
    await press.answered(10)
    ended = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == question["message_id"], timeout=10
    )
    assert "Игра «Counter» завершена" in ended["text"]
    assert re.search(r"До \d{1,2} [а-я]+ \d{4}", ended["text"])  # a date as Russians write it
    assert "В этом чате сейчас нет игры" in (await say(stack, IVAN, "/status"))["text"]


async def test_the_host_changes_the_games_language_and_only_the_host(stack: Stack) -> None:
    await say(stack, OLGA, "/newgame counter")
    await say(stack, ALICE, "/join")
    refused = await say(stack, ALICE, "/language en")
    assert refused["text"] == "✋ Сменить язык игры может только организатор."
    unknown = await say(stack, OLGA, "/language tlh")
    assert unknown["text"] == (
        "🤔 Я не знаю языка «tlh». Выберите один из: en (English), ru (русский)."
    )
    assert (await Campaign.get(live_chat_id=GROUP)).language == "ru"  # nothing changed

    switched = await say(stack, OLGA, "/language en")
    assert switched["text"] == "🗣 From now on this game speaks English."
    status = await say(stack, IVAN, "/status")
    assert "Players (2):" in status["text"]
    menu = {c["command"]: c["description"] for c in stack.api.visible_commands(IVAN, GROUP)}
    assert menu["status"] == "The game at a glance"
    back = await say(stack, OLGA, "/language ru")
    assert back["text"] == "🗣 Теперь эта игра говорит по-русски."


async def test_a_group_without_a_game_answers_in_the_senders_language(stack: Stack) -> None:
    assert "Во что сыграем?" in (await say(stack, IVAN, "/newgame"))["text"]
    assert "Which game shall we play?" in (await say(stack, ALICE, "/newgame"))["text"]
    said = await say(stack, ALICE, "/roll 3d6")
    assert "rolls" in said["text"] and "Total:" in said["text"]
    wrong = await say(stack, IVAN, "/roll 0d6 за «Мост»")
    assert wrong["text"] == (
        "🤔 Бросьте хотя бы один кубик. Попробуйте, например: 2к6+3, 4к6kh3, 2к20kl1, к20 преим."
    )
    unread = await say(stack, IVAN, "/roll 2d6+мост")  # a word standing for a number
    assert unread["text"] == "🤔 Броска «мост» нет среди ваших сохранённых: их список — /saved."
    unread = await say(stack, IVAN, "/roll 2d6*мост|")
    assert unread["text"].startswith("🤔 Не понимаю «мост|»")  # the player's text, as written
    assert "Unknown game system" in (await say(stack, ALICE, "/newgame chess"))["text"]
    assert (
        "Неизвестная игровая система «chess»" in (await say(stack, IVAN, "/newgame chess"))["text"]
    )


async def test_language_alone_says_which_and_how_and_names_are_understood(stack: Stack) -> None:
    none = await say(stack, IVAN, "/language")  # no game here yet: each reads their own
    assert none["text"] == (
        "🗣 Здесь пока нет игры, поэтому я отвечаю каждому на языке его Telegram (вам — "
        "русский). Игра говорит на языке своего организатора; он меняет его командой "
        "/language с кодом или названием языка: en (English), ru (русский)."
    )
    await say(stack, OLGA, "/newgame counter")
    now = await say(stack, ALICE, "/language")
    assert now["text"] == (
        "🗣 Язык этой игры — русский. Организатор меняет его командой /language с кодом или "
        "названием языка: en (English), ru (русский)."
    )
    for word, speaks in [
        ("английский", "en"), ("русский", "ru"), ("English", "en"), ("RUSSIAN", "ru"),
        ("Английский", "en"), ("Русский", "ru"), ("en-GB", "en"), ("ru", "ru"),
    ]:  # fmt: skip
        await say(stack, OLGA, f"/language {word}")
        assert (await Campaign.get(live_chat_id=GROUP)).language == speaks, word
    await say(stack, OLGA, "/language english")
    now = await say(stack, ALICE, "/language")
    assert now["text"].startswith("🗣 This game speaks English. The host changes that")
    unknown = await say(stack, OLGA, "/language klingon")
    assert unknown["text"] == (
        "🤔 I don't speak “klingon”. Choose one of: en (English), ru (русский)."
    )
