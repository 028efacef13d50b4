"""A Russian No Stone Unturned table builds its world in Russian beside an English player.

Through the local Bot API server: Olga hosts in Russian, Alice's Telegram speaks
English, Ivan's Russian. The group's worldbuilding board, its buttons and answers
read Russian from the tone talk to the rolled map, whoever presses; each player's
private panels (locations, character, lines and veils) and the answers there read
their own language; the X-card and a new line reach the group in Russian.
"""

from __future__ import annotations

import pytest

from tests.support.nsu_bot import (
    card,
    find_button,
    message,
    press,
    press_only,
    private_panel,
    reply,
    say,
)
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db, pytest.mark.backend_neutral]

OLGA, ALICE, IVAN = 1001, 1002, 1003  # Olga hosts; Alice reads English
TIMEOUT = 20


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        Player(OLGA, "Ольга", language_code="ru", started=True),
        Player(ALICE, "Alice", "Marsh", language_code="en-GB", started=True),
        Player(IVAN, "Иван", language_code="ru-RU", started=True),
    ]
    async with running_stack(db, players=players) as running:
        yield running


async def write_locations(stack: Stack, board: int, pid: int) -> str:
    """Open the private locations panel from the board and write both; its last text."""
    mark = stack.api.mark()
    answer = await press_only(stack, pid, GROUP, board, "Написать мои локации")
    assert answer["text"] == "📬 Написал вам в личные сообщения.", answer
    panel = await private_panel(stack, pid, mark)
    first = panel["text"]
    for n in (1, 2):
        for value in card(pid, n):
            await reply(stack, pid, pid, panel["message_id"], value)
    return first + "\n" + message(stack, pid, panel["message_id"])["text"]


async def make_character(stack: Stack, board: int, pid: int, name: str, aspects: str) -> str:
    """Make a character from the board's button; every text the private panel showed."""
    mark = stack.api.mark()
    newest = max((m["message_id"] for m in stack.api.messages(pid)), default=0)
    answer = await press_only(stack, pid, GROUP, board, "Мой персонаж")
    assert answer["text"] == "📬 Написал вам в личные сообщения.", answer
    # the character's panel is a new message (the world's last redraws may still arrive)
    panel = (
        await stack.api.wait_for_message(
            pid, lambda m: m["message_id"] > newest, timeout=TIMEOUT, since=mark
        )
    )["message_id"]
    shown = [message(stack, pid, panel)["text"]]
    for text in (name, "they/them", "Tall", "Curious, Wary, Angry"):
        shown.append((await reply(stack, pid, pid, panel, text))["text"])
    shown.append((await press(stack, pid, pid, panel, aspects))["text"])
    for text in ("My compass\n-\nThe bell", "Climbing, Talking, Fixing", "A tale", "Another"):
        shown.append((await reply(stack, pid, pid, panel, text))["text"])
    finish = "Finish" if pid == ALICE else "Готово"
    shown.append((await press(stack, pid, pid, panel, finish))["text"])
    return "\n".join(shown)


async def test_a_russian_table_builds_its_world_in_russian_and_an_english_player_reads_english(
    stack: Stack,
) -> None:
    started = await say(stack, OLGA, "/newgame nsu")
    assert "Исследуйте мир, отстроенный после краха" in started["text"], started["text"]
    assert "👉 Когда все присоединятся, организатор отправляет /begin" in started["text"]
    for user in (ALICE, IVAN):
        await say(stack, user, "/join")
    panel = await say(stack, OLGA, "/begin")
    board = panel["message_id"]
    assert panel["text"].startswith("🌍 Создание мира — шаг 1 из 9: разговор о тоне"), panel
    labels = [b["text"] for row in panel["reply_markup"]["inline_keyboard"] for b in row]
    assert "🧍 Мой персонаж" in labels and "🛑 X-карта" in labels and "✊ Стук" in labels

    # The tone: Alice, who reads English, writes it down; the board stays Russian.
    proposed = await reply(stack, ALICE, GROUP, board, "Weird and hopeful")
    assert "🎭 Предложено: Weird and hopeful" in proposed["text"], proposed["text"]
    await press(stack, OLGA, GROUP, board, "👍 Согласны")
    bans = await press(stack, IVAN, GROUP, board, "👍 Согласны")
    assert "Каждый может запретить в мире что-то одно" in bans["text"], bans["text"]
    await press(stack, OLGA, GROUP, board, "Пропустить")
    await reply(stack, ALICE, GROUP, board, "No dragons")
    settlement = await press(stack, IVAN, GROUP, board, "Пропустить")
    assert "Ход: Ольга." in settlement["text"], settlement["text"]
    assert "🚫 Под запретом: No dragons" in settlement["text"], settlement["text"]

    # The settlement, the scope, the resources and their abundance.
    await reply(stack, OLGA, GROUP, board, "Walls of old buses")
    await press(stack, ALICE, GROUP, board, "Пропустить")
    scope = await press(stack, IVAN, GROUP, board, "Пропустить")
    assert "шаг 4 из 9: рамки приключений" in scope["text"], scope["text"]
    await reply(stack, ALICE, GROUP, board, "A week between trips")
    await press(stack, IVAN, GROUP, board, "Следующий вопрос")
    resources = await press(stack, IVAN, GROUP, board, "Рамки готовы")
    assert "одним ресурсом каждый (0 из 5)" in resources["text"], resources["text"]
    named = ("Water", "Salt", "Music", "Light", "Trust")
    for pid, name in zip((OLGA, ALICE, IVAN, OLGA, ALICE), named, strict=True):
        await reply(stack, pid, GROUP, board, name)
    locations = await press(stack, IVAN, GROUP, board, "Music")
    assert "Каждый пишет две локации в личных сообщениях" in locations["text"], locations["text"]
    assert "📦 Ресурсы: Water (нехватка)" in locations["text"], locations["text"]

    # Locations in private: each in their own language.
    start = stack.api.mark()
    written = {pid: await write_locations(stack, board, pid) for pid in (OLGA, ALICE, IVAN)}
    assert written[ALICE].startswith("✍️ Your locations — secret"), written[ALICE]
    assert "Title: Name the place." in written[ALICE] and "Both written." in written[ALICE]
    for pid in (OLGA, IVAN):
        assert written[pid].startswith("✍️ Ваши локации — тайна"), written[pid]
        assert "Название: Назовите место." in written[pid] and "Обе написаны." in written[pid]

    await stack.api.wait_for_message(  # the board, redrawn as the cards were written
        GROUP,
        lambda m: "Сколько карточек в ширину?" in (m.get("text") or ""),
        timeout=TIMEOUT,
        since=start,
    )

    # The deal and the dice, pressed by the English player: the board stays Russian.
    dealt = await press(stack, ALICE, GROUP, board, "3 в ширину")
    assert "🗺 Карта (рубашкой вверх):" in dealt["text"], dealt["text"]
    built = await press(stack, ALICE, GROUP, board, "Бросить Опасность и Награду")
    assert built["text"].startswith("🌍 Мир создан."), built["text"]
    assert "6 локаций лежат рубашкой вверх вокруг поселения:" in built["text"], built["text"]
    assert find_button(built, "🧭 Выступить") and find_button(built, "🧍 Мой персонаж")

    # Characters: Alice's private panel in English, Ivan's in Russian.
    alice = await make_character(stack, board, ALICE, "Wren", "Body d8 · Mind d6 · Heart d4")
    assert "👉 Step 1 of 7: Name" in alice and "Wren is ready." in alice, alice
    assert "Шаг" not in alice and "Имя" not in alice
    ivan = await make_character(stack, board, IVAN, "Вера", "Тело d8 · Разум d6 · Сердце d4")
    assert "👉 Шаг 1 из 7: Имя" in ivan and "Вера готов." in ivan, ivan
    assert "Step" not in ivan and "Name" not in ivan

    # /status in the group reads Russian, with the players' own words as they wrote them.
    status = await say(stack, ALICE, "/status")
    assert (
        "🧍 Персонажи: Ольга: создаёт персонажа; Wren (Alice Marsh); Вера (Иван)" in status["text"]
    ), status["text"]
    assert "📦 Water (нехватка)" in status["text"], status["text"]

    # Safety: Alice plays the X-card in private (English there), the group reads Russian.
    mark = stack.api.mark()
    done = await say(stack, ALICE, "/xcard", chat=ALICE)
    assert done["text"] == "Done. The group was told, without your name.", done
    x_card = await stack.api.wait_for_message(GROUP, timeout=TIMEOUT, since=mark)
    assert x_card["text"].startswith("🛑 X-карта. Кто-то нажал X-карту."), x_card

    # Alice adds a line in her English panel; the group is told in Russian.
    mark = stack.api.mark()
    lines = await say(stack, ALICE, "/lines", chat=ALICE)
    assert lines["text"].startswith("🚧 Lines and veils — anonymous"), lines["text"]
    await stack.api.reply_to(ALICE, ALICE, lines["message_id"], "Spiders")
    notice = await stack.api.wait_for_message(
        GROUP, lambda m: "🚧" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert notice["text"] == "🚧 Новая граница для этого стола: Spiders", notice
