"""Cortex drama in Russian beside an English player, through the local Bot API server.

A Russian host's group plays a Test in Russian: the panel, its buttons, the answers
to presses and the command menu read Russian. An English player at the same table
writes their traits and reads the table in a private chat, in English; when the bot
cannot reach them there, the group is asked in Russian to let it. The table's own
Stress types read Russian in the group and English in private, and each player may
type them in their language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.stack import GROUP, Stack, labels, running_stack
from tests.tgbot.test_e2e_cortex import Faces, Panel, campaign_table
from tgbot.context import StonetableContext
from tgbot.private import INBOX, send_private
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db, pytest.mark.backend_neutral]

OLGA, IVAN, ALICE = 1001, 1002, 1003  # Olga hosts (the Watchtower); Alice reads English
NAMES = ("Ольга", "Иван", "Alice", "Marsh", "Justice", "Truth", "Farm", "Boy", "Cortex", "drama")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def english_left(text: str) -> list[str]:
    """Latin words in a Russian message, besides names, traits, dice and /commands."""
    text = re.sub(r"/\w+|<[^>]*>|\b\d*d\d+\w*", " ", text)
    return [w for w in LATIN_WORD.findall(text) if w not in NAMES]


@pytest.fixture
def faces() -> Faces:
    return Faces()


@pytest.fixture
async def stack(db: str, faces: Faces) -> Stack:  # type: ignore[misc]
    players = [
        Player(OLGA, "Ольга", "Петрова", "olga", language_code="ru", started=True),
        Player(IVAN, "Иван", language_code="ru-RU", started=True),
        Player(ALICE, "Alice", "Marsh", "alice", language_code="en-GB", started=True),
    ]
    async with running_stack(db, rng=faces, players=players) as running:
        yield running


async def say(stack: Stack, user: int, text: str, chat: int = GROUP) -> dict[str, Any]:
    await stack.api.send_text(user, chat, text)
    return await stack.api.wait_for_message(chat, timeout=10)


def russian(message: dict[str, Any]) -> None:
    for said in (message["text"], *labels(message)):
        assert english_left(said) == [], said


async def test_a_russian_table_plays_a_cortex_test_while_an_english_player_reads_english(
    stack: Stack, faces: Faces
) -> None:
    started = await say(stack, OLGA, "/newgame cortex")
    assert (
        "начинает игру" in started["text"] and "Дозор превращает единицы в Беду" in started["text"]
    )
    russian(started)  # the game's summary too
    await say(stack, IVAN, "/join")
    await say(stack, ALICE, "/join")
    status = await say(stack, OLGA, "/status")  # Cortex's game master is the Watchtower
    assert "(Дозор, организатор)" in status["text"], status["text"]
    bare = await say(stack, IVAN, "/test")  # no traits yet: told how to write one, in Russian
    assert "У персонажа Иван пока нет черт" in bare["text"], bare["text"]
    assert "/trait ценность Справедливость d8" in bare["text"] and "reply_markup" not in bare
    noted = await say(stack, IVAN, "/trait value Justice d10")
    assert noted["text"].startswith("✅ Ценность «Justice» d10 записана.")
    assert "⚠️ Беда: нет" in noted["text"]
    russian(noted)
    # the kind is read where it is typed, and the answer says what was written
    hammer = await say(stack, IVAN, "/trait актив способность Кузнечный молот д6")
    assert hammer["text"].startswith("✅ Актив «Кузнечный молот» d6 (способность) записан.")
    (asset,) = (await campaign_table(stack)).sheet("Иван").assets
    assert (asset.name, int(asset.die), asset.kind.value) == ("Кузнечный молот", 6, "ability")
    gone = await say(stack, IVAN, "/trait убрать актив Кузнечный молот")
    assert gone["text"].startswith("✅ Актив «Кузнечный молот» удалён.")

    # Alice, in private, in her own language: her trait and the table
    mine = await say(stack, ALICE, "/trait asset Farm Boy d8", chat=ALICE)
    assert mine["text"].startswith("✅ Asset “Farm Boy” d8 (distinction) recorded.")
    assert "⚠️ Trouble: none" in mine["text"]
    table = await say(stack, ALICE, "/trouble", chat=ALICE)
    assert "Trouble" in table["text"] and "1 PP" in table["text"] and "no Stress" in table["text"]
    bad = await say(stack, ALICE, "/trait value Truth d7", chat=ALICE)
    assert bad["text"] == "🤔 d7 is not a Cortex die. Use d4, d6, d8, d10 or d12."
    help_ = await say(stack, ALICE, "/trait", chat=ALICE)
    assert help_["text"].startswith("Write it like: /trait value Justice d8")

    # The group: a Test, every step in Russian
    panel = Panel(stack, await say(stack, IVAN, "/test"))
    text = panel.message["text"]
    assert "🎭 Испытание: Иван" in text and "⏳ Ждём: Дозор" in text
    assert "Беда: нет" in text and "1 ОС" in text
    russian(panel.message)
    alert = await panel.refused(IVAN, "👁 +d8")
    assert alert == "✋ Это может только Дозор."
    await panel.press(OLGA, "👁 +d8")
    faces.script([5])
    message = await panel.press(OLGA, "👁 Бросить 1")
    assert "👁 Противодействие d8:5 → 5" in message["text"]
    assert "🎯 Перебить: 5 (ничья — провал)" in message["text"]
    assert labels(message) == ["➕ В запас…", "👁 Конец сцены"]  # Roll once the pool holds a die
    russian(message)
    assert await panel.refused(ALICE, "➕ В запас") == "✋ Сейчас ход: Иван."
    message = await panel.press(IVAN, "➕ В запас")
    assert "⬅️ Назад" in labels(message)
    russian(message)
    message = await panel.press(IVAN, "➕ Justice")
    assert "🧺 Запас (Иван): Justice d10" in message["text"]
    assert "шанс перебить 5: " in message["text"]
    russian(message)
    await panel.press(IVAN, "⬅️ Назад")
    faces.script([9])
    message = await panel.press(IVAN, "🎲 Бросок")
    assert "Результат 9" in message["text"]
    russian(message)
    message = await panel.press(IVAN, "✅ Оставить")
    assert "✅ Иван: успех" in message["text"]
    russian(message)
    trouble = await say(stack, ALICE, "/trouble")  # in the group: the group's language
    assert "⚠️ Беда" in trouble["text"]
    russian(trouble)

    # The command menus: the group's in Russian, Alice's private one in English
    group = {c["command"]: c["description"] for c in stack.api.visible_commands(ALICE, GROUP)}
    assert group["test"] == "Cortex: Испытание против Дозора (/test или /test Лекс)"
    assert group["trouble"] == "Cortex: Беда, очки сюжета и Стресс"
    private = {c["command"]: c["description"] for c in stack.api.visible_commands(ALICE, ALICE)}
    assert private["trait"] == "Cortex: write a trait (/trait value Justice d8)"


async def test_a_russian_group_is_asked_in_russian_to_let_an_english_player_read_in_private(
    stack: Stack,
) -> None:
    await say(stack, OLGA, "/newgame cortex")
    await say(stack, ALICE, "/join")
    await stack.api.block_bot(ALICE)
    application = stack.runtime.application
    assert application is not None
    context = StonetableContext(application)  # type: ignore[arg-type]
    delivered = await send_private(
        context, ALICE, "🗝 A secret, in English.", group_chat_id=GROUP, name="Alice"
    )
    assert delivered is False
    nudge = await stack.api.wait_for_message(GROUP, timeout=10)
    assert nudge["text"].startswith("🔒 Alice, у меня для вас личное сообщение")
    assert "нажмите Запустить" in nudge["text"] and "secret" not in nudge["text"]
    assert labels(nudge) == ["🔓 Открыть мои сообщения"]
    await stack.api.start_bot(ALICE, INBOX)
    held = await stack.api.wait_for_message(ALICE, timeout=10)
    assert held["text"] == "🗝 A secret, in English."  # the note itself, as it was worded


async def panel_after_reply(stack: Stack, user: int, panel: Panel, text: str) -> dict[str, Any]:
    """``user`` replies ``text`` to the panel; the panel as the bot edits it then."""
    api = stack.api
    await api.reply_to(user, GROUP, panel.id, text)
    panel.message = await api.wait_for_message(
        GROUP, lambda m: m["message_id"] == panel.id and m["from"]["id"] == api.bot_id, 10
    )
    return panel.message


async def contest(stack: Stack, faces: Faces, winner: int, loser: int, name: str) -> Panel:
    """``winner`` beats ``loser`` (whose Lead is ``name``) in a Contest; the loser takes Stress."""
    panel = Panel(stack, await say(stack, winner, f"/contest {name}"))
    for user, face in ((winner, 9), (loser, 2)):
        await panel.press(user, "➕ В запас")
        await panel.press(user, "➕ ")  # their one Value
        await panel.press(user, "⬅️ Назад")
        faces.script([face])
        await panel.press(user, "🎲 Бросок")
        await panel.press(user, "✅ Оставить")
    await panel.press(loser, "💥 Принять Стресс")
    return panel


async def test_a_russian_player_types_stress_in_russian_and_an_english_one_in_english(
    stack: Stack, faces: Faces
) -> None:
    await say(stack, OLGA, "/newgame cortex")
    await say(stack, IVAN, "/join")
    await say(stack, ALICE, "/join")
    await say(stack, IVAN, "/trait value Justice d10")
    await say(stack, ALICE, "/trait value Truth d10")

    # Ivan beats Alice and names the Stress in Russian, in a reply to the panel
    panel = await contest(stack, faces, IVAN, ALICE, "Alice Marsh")
    assert "💥 Страх · Иван" in labels(panel.message)  # the buttons name it in Russian too
    faces.script([5])
    message = await panel_after_reply(stack, IVAN, panel, "страх")
    assert (
        "💥 Alice Marsh получает Страх d10" in message["text"]
        and "Стресс: Страх d10" in message["text"]
    )
    russian(message)
    assert (await campaign_table(stack)).sheet("Alice Marsh").stress_of("Afraid") is not None
    trouble = await say(stack, IVAN, "/trouble")
    assert "Стресс: Страх d10" in trouble["text"]
    russian(trouble)
    mine = await say(stack, ALICE, "/trouble", chat=ALICE)  # Alice reads English in private
    assert "Stress: Afraid d10" in mine["text"]

    # Ivan relieves Alice's Stress, naming it in Russian
    relief = Panel(stack, await say(stack, IVAN, "/relieve Alice Marsh Страх"))
    assert "Иван → Alice Marsh (Страх)" in relief.message["text"]
    russian(relief.message)
    faces.script([3])
    await relief.press(ALICE, "🎲 Alice Marsh: бросьте Стресс")
    await relief.press(IVAN, "➕ В запас")
    await relief.press(IVAN, "➕ Justice")
    await relief.press(IVAN, "⬅️ Назад")
    faces.script([8])
    await relief.press(IVAN, "🎲 Бросок")
    message = await relief.press(IVAN, "✅ Оставить")
    assert "💚 Alice Marsh: Стресс «Страх» снят" in message["text"]
    russian(message)
    assert (await campaign_table(stack)).sheet("Alice Marsh").stress_of("Afraid") is None

    # Alice, at the same Russian table, types the English name: it works too
    panel = await contest(stack, faces, ALICE, IVAN, "Иван")
    faces.script([4])
    message = await panel_after_reply(stack, ALICE, panel, "Afraid")
    assert "💥 Иван получает Страх d10" in message["text"]
    assert (await campaign_table(stack)).sheet("Иван").stress_of("Afraid") is not None
    relief = Panel(stack, await say(stack, ALICE, "/relieve Иван Afraid"))
    assert "Alice Marsh → Иван (Страх)" in relief.message["text"]
    assert "🎲 Иван: бросьте Стресс" in labels(relief.message)
