"""Posting in character through the local Bot API server: ``/say`` with dice in square
brackets rolled in place, ``/npc`` by the host, the same picked inline "as Mirra", and
the post kept in the game's log and its rolls in the roll history."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from core.rules.log import Words
from core.store.models import Campaign, GameNudges, LogEntry, Member, RollRecord
from core.words.i18n import lang_for
from tests.support.flaky import Flaky
from tests.support.nsu_bot import Faces
from tests.support.nsu_table import character, sheet
from tests.support.stack import GROUP, OLGA, TIMEOUT, Stack, cast_with_olga, from_bot, running_stack
from webapp.log_lines import KINDS

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO = 1001, 1002


@pytest.fixture
def faces() -> Faces:
    return Faces([])


@pytest.fixture
async def stack(db: str, faces: Faces) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=cast_with_olga(), rng=faces) as running:
        yield running


async def say(stack: Stack, user: int, chat: int, text: str) -> dict[str, Any]:
    """``user`` sends ``text``; the bot's next new message there."""
    mark = stack.api.mark()
    await stack.api.send_text(user, chat, text)
    return await stack.api.wait_for_message(
        chat, lambda m: from_bot(stack)(m) and "edit_date" not in m, timeout=TIMEOUT, since=mark
    )


def bold(message: dict[str, Any]) -> list[str]:
    """The bold pieces of a message, as Telegram shows them."""
    text = message["text"].encode("utf-16-le")
    return [
        text[2 * e["offset"] : 2 * (e["offset"] + e["length"])].decode("utf-16-le")
        for e in message.get("entities", [])
        if e["type"] == "bold"
    ]


async def test_say_rolls_each_bracket_where_it_was_written(stack: Stack, faces: Faces) -> None:
    await say(stack, ALICE, GROUP, "/newgame d20")
    faces.push(12, 3)
    posted = await say(
        stack, ALICE, GROUP, "/say I swing [1d20+5], and it bites for [1d8+3]! <b>[OOC]</b>"
    )
    assert posted["text"] == (
        "💬 Alice Marsh: I swing [1d20+5 (12) = 17], and it bites for [1d8+3 (3) = 6]! <b>[OOC]</b>"
    )
    assert bold(posted) == ["Alice Marsh", "1d20+5", "17", "1d8+3", "6"]  # the typed <b> is text
    assert "reply_to_message" not in posted
    [line] = await LogEntry.all()
    assert line.kind == "said"
    assert line.text == (
        "Alice Marsh says: I swing [1d20+5 = 17], and it bites for [1d8+3 = 6]! <b>[OOC]</b>"
    )
    said = Words.from_json(line.words)
    assert said is not None and said.said().startswith("Alice Marsh says: I swing")
    rolls = await RollRecord.all().order_by("id")
    assert [(r.notation, r.total) for r in rolls] == [("1d20 + 5", 17), ("1d8 + 3", 6)]
    history = await say(stack, ALICE, GROUP, "/rolls")
    assert "1d20 + 5" in history["text"]
    # the story page shows the post as the log keeps it, the words' HTML as text
    shared = await say(stack, ALICE, GROUP, "/story")
    [url] = [b["url"] for row in shared["reply_markup"]["inline_keyboard"] for b in row]
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        page = await response.text()
    assert (
        "Alice Marsh says: I swing [1d20+5 = 17], and it bites for [1d8+3 = 6]! "
        "&lt;b&gt;[OOC]&lt;/b&gt;"
    ) in page
    assert '<li class="said"><span class="kind">said</span>' in page


async def test_saved_rolls_and_refusals(stack: Stack, faces: Faces) -> None:
    await say(stack, ALICE, GROUP, "/newgame d20")
    await say(stack, ALICE, GROUP, "/save atk 1d20+7")
    faces.push(10)
    posted = await say(stack, ALICE, GROUP, "/say [atk] and [2 goblins] flee")
    assert posted["text"] == "💬 Alice Marsh: [atk (10) = 17] and [2 goblins] flee"
    empty = await say(stack, ALICE, GROUP, "/say")
    assert "/say I swing [1d20+5]" in empty["text"]
    long = await say(stack, ALICE, GROUP, "/say " + "a" * 4090)
    assert "4096" in long["text"] and "longer than Telegram allows" in long["text"]
    huge = await say(stack, ALICE, GROUP, "/say [5000d6]")
    assert huge["text"] == "🤔 That number of dice is too big: the most is 1000."
    outsider = await say(stack, BO, GROUP, "/say Hello")
    assert "Join with /join" in outsider["text"]
    assert await LogEntry.all().count() == 1  # the refused posts changed nothing
    assert faces.remaining == 0


async def test_npc_by_the_host_and_refused_for_a_player(stack: Stack, faces: Faces) -> None:
    await say(stack, ALICE, GROUP, "/newgame d20")
    await say(stack, BO, GROUP, "/join")
    faces.push(4)
    gobbo = await say(stack, ALICE, GROUP, "/npc Gobbo: Halt, or [1d6] arrows fly!")
    assert gobbo["text"] == "🎭 Gobbo: Halt, or [1d6 (4) = 4] arrows fly!"
    narrator = await say(stack, ALICE, GROUP, "/npc The door creaks open.")
    assert narrator["text"] == "📜 The door creaks open."
    assert [e["type"] for e in narrator["entities"]] == ["italic"]
    game = await Campaign.get()  # a wait of 12 hours, the table last moved on long ago
    await GameNudges.update_or_create(
        campaign_id=game.id, defaults={"wait_minutes": 720, "since": 1.0}
    )
    refused = await say(stack, BO, GROUP, "/npc Gobbo: I am the king now")
    assert (await GameNudges.get()).since == 1.0  # a refused post is no step
    assert refused["text"].startswith("✋ Only the host or the game master")
    posted = await say(stack, BO, GROUP, "/say Fine.")
    assert posted["text"] == "💬 <b>Bo</b> & Co: Fine."
    assert (await GameNudges.get()).since > 1.0  # Bo acted: the game's wait starts again
    lines = [e.text for e in await LogEntry.all().order_by("id")]
    assert lines == [
        "Gobbo says: Halt, or [1d6 = 4] arrows fly!",
        "Narrator: The door creaks open.",
        "<b>Bo</b> & Co says: Fine.",
    ]


async def test_an_inline_post_as_mirra(stack: Stack, faces: Faces) -> None:
    await say(stack, ALICE, GROUP, "/newgame nsu")
    await Member.filter(player__tg_id=ALICE).update(sheet=sheet(character("Mirra")))
    asked = await stack.api.inline_query(ALICE, "I strike [1d20+5]", GROUP)
    answer = await asked.answered(timeout=10)
    [result] = [r for r in answer["results"] if r["title"] == "💬 as Mirra"]
    assert result["message"]["text"] == "💬 Mirra speaks…"
    faces.push(15)
    posted = await stack.api.choose_inline_result(ALICE, asked.query_id, result["id"], GROUP)
    edited = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == posted["message_id"] and "edit_date" in m, timeout=10
    )
    assert edited["text"] == "💬 Mirra: I strike [1d20+5 (15) = 20]"
    assert edited["via_bot"]["id"] == stack.api.bot_id
    [line] = await LogEntry.filter(kind="said")
    assert line.text == "Mirra says: I strike [1d20+5 = 20]"


async def test_an_inline_posts_edit_lost_on_the_way_is_sent_again(db: str, faces: Faces) -> None:
    flaky = Flaky()
    async with running_stack(db, players=cast_with_olga(), rng=faces, through=flaky) as stack:
        await say(stack, ALICE, GROUP, "/newgame nsu")
        await Member.filter(player__tg_id=ALICE).update(sheet=sheet(character("Mirra")))
        asked = await stack.api.inline_query(ALICE, "I strike [1d20+5]", GROUP)
        answer = await asked.answered(timeout=10)
        [result] = [r for r in answer["results"] if r["title"] == "💬 as Mirra"]
        faces.push(15)
        flaky.lose("editMessageText", '"inline_message_id"')  # the post's edit, lost once
        posted = await stack.api.choose_inline_result(ALICE, asked.query_id, result["id"], GROUP)
        edited = await stack.api.wait_for_message(
            GROUP,
            lambda m: m["message_id"] == posted["message_id"] and "edit_date" in m,
            timeout=20,
        )
        assert flaky.lost == ["editmessagetext"]
        assert edited["text"] == "💬 Mirra: I strike [1d20+5 (15) = 20]"
        assert [b["text"] for row in edited["reply_markup"]["inline_keyboard"] for b in row] == [
            "💬 Say more"
        ]
        [line] = await LogEntry.filter(kind="said")  # posted once, its dice rolled once
        assert line.text == "Mirra says: I strike [1d20+5 = 20]"


async def test_russian_words(stack: Stack, faces: Faces) -> None:
    await say(stack, OLGA, GROUP, "/newgame d20")
    empty = await say(stack, OLGA, GROUP, "/say")
    assert "Напишите" in empty["text"] and "/say" in empty["text"]
    long = await say(stack, OLGA, GROUP, "/say " + "а" * 4090)
    assert "4096" in long["text"] and "Telegram" in long["text"]
    faces.push(2)
    narrated = await say(stack, OLGA, GROUP, "/npc Ночь. [1d6]")
    assert narrated["text"] == "📜 Ночь. [1d6 (2) = 2]"
    [line] = await LogEntry.all()
    said = Words.from_json(line.words)
    assert said is not None and said.said(lang_for("ru").gettext).startswith("Рассказчик: Ночь.")
    assert KINDS["said"](lang_for("ru")) == "сказано"
    asked = await stack.api.inline_query(OLGA, "Привет", OLGA)
    answer = await asked.answered(timeout=10)
    assert [r["title"] for r in answer["results"]] == ["💬 как Ольга Петрова"]
