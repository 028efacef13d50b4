"""A group's own game systems end to end: /system lists, /system new keeps one written in
one message (or refuses it, naming the field, in the reader's language), /system show,
share by a link and import into another group, delete."""

from __future__ import annotations

import re
from typing import Any

import pytest

from core.store.models import OwnSystem, OwnSystemDraft, OwnSystemVersion
from tests.support.own_system import OUR_GAME
from tests.support.stack import (
    GROUP,
    OLGA,
    Stack,
    cast_with_olga,
    from_bot,
    running_stack,
    say,
)

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE = 1001
ELSEWHERE = -100777

GOOD = f"```{OUR_GAME}```"  # as a phone sends a pasted block


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=cast_with_olga()) as running:
        yield running


async def test_write_list_show_share_import_and_delete(stack: Stack) -> None:
    listed = await say(stack, ALICE, GROUP, "/system")
    assert "This group's game systems" in listed["text"]
    assert "None yet: /system new writes one." in listed["text"]
    assert "pbta" in listed["text"] and "dnd5e" in listed["text"]

    kept = await say(stack, ALICE, GROUP, "/system new\n" + GOOD)
    assert kept["text"] == "✅ Kept Our game (mine), version 1."
    listed = await say(stack, ALICE, GROUP, "/system")
    assert "mine Our game, version 1" in listed["text"]
    shown = await say(stack, ALICE, GROUP, "/system show mine")
    assert shown["text"].startswith("Our game (mine), version 1")
    assert 'die = "d6"' in shown["text"]

    edited = await say(stack, ALICE, GROUP, "/system edit\n" + GOOD.replace("max = 3", "max = 4"))
    assert edited["text"] == "✅ Kept Our game (mine), version 2."

    shared = await say(stack, ALICE, GROUP, "/system share mine")
    found = re.search(r"\?startgroup=sys_(\S+) ", shared["text"])
    assert found is not None, shared["text"]
    assert f"/system import {found[1]}" in shared["text"]
    stack.api.add_forum(ELSEWHERE, "Another table")
    copied = await say(stack, ALICE, ELSEWHERE, f"/start sys_{found[1]}")
    assert copied["text"] == "✅ Kept Our game (mine), version 1."
    again = await say(stack, ALICE, ELSEWHERE, f"/system import {found[1]}")
    assert "A game system with the key “mine” exists already" in again["text"]

    gone = await say(stack, ALICE, GROUP, "/system delete mine")
    assert gone["text"] == "🗑 Deleted the game system mine."
    assert await OwnSystem.filter(chat_tg_id=GROUP).count() == 0
    assert await OwnSystem.filter(chat_tg_id=ELSEWHERE).count() == 1


async def test_a_bad_definition_is_refused_in_the_readers_language(stack: Stack) -> None:
    overlapping = GOOD.replace("max = 7", "max = 8")
    refused = await say(stack, OLGA, GROUP, "/system new\n" + overlapping)
    assert "outcomes" in refused["text"] and "пересекаются" in refused["text"], refused["text"]
    html = GOOD.replace('en = "Good"', 'en = "<b>Good</b>"')
    refused = await say(stack, ALICE, GROUP, "/system новая\n" + html)
    assert refused["text"] == "🤔 “outcomes[0].label.en” must be plain text, without HTML."
    follow = '\n[[followups]]\nkey = "push"\ngroup = "pool"\nlabel = { en = "Push", ru = "Рывок" }'
    refused = await say(stack, OLGA, GROUP, "/system new\n" + GOOD.strip("`\n") + follow)
    assert refused["text"] == (
        "🤔 «followups[0].group» называет кости «pool», но таких костей в описании нет."
    )
    unbounded = follow.replace('group = "pool"', 'group = "roll"\ntimes = 50')
    refused = await say(stack, ALICE, GROUP, "/system new\n" + GOOD.strip("`\n") + unbounded)
    assert refused["text"] == (
        "🤔 “followups[0].times”: a follow-up is made a bounded number of times on one roll, "
        "from 1 to 5."
    )
    assert await OwnSystemVersion.all().count() == 0
    usage = await say(stack, OLGA, GROUP, "/system помощь")
    assert "Напишите свою игровую систему" in usage["text"], usage["text"]
    assert "Или отправьте просто /system new" in usage["text"]


async def answer(stack: Stack, user: int, asked: dict[str, object], text: str) -> dict[str, Any]:
    """``user`` replies ``text`` to the bot's question ``asked``; the bot's next message."""
    mark = stack.api.mark()
    await stack.api.send_text(user, GROUP, text, reply_to_message_id=int(str(asked["message_id"])))
    found: dict[str, Any] = await stack.api.wait_for_message(
        GROUP, from_bot(stack), timeout=10, since=mark
    )
    return found


def opened_reply(stack: Stack, asked: dict[str, Any]) -> tuple[str, list[int] | None]:
    """What a question opens in its readers' apps: a forced reply's hint, and whose apps
    (the markup never comes back in the message)."""
    assert "reply_markup" not in asked
    (sent,) = [
        event
        for event in stack.api.events_since(0)
        if event["kind"] == "message" and event["message"]["message_id"] == asked["message_id"]
    ]
    markup = sent["client_markup"]
    assert markup["force_reply"] is True and markup["selective"] is True
    return markup["input_field_placeholder"], sent["client_markup_for"]


async def test_a_system_written_step_by_step_by_reply_is_kept_as_one_message_would_be(
    stack: Stack,
) -> None:
    asked = await say(stack, ALICE, GROUP, "/system new")
    assert asked["text"].startswith("✍️ A new game system, step 1 of 4: its name.")
    # on a phone the reply opens by itself, for the host alone, with a hint
    assert opened_reply(stack, asked) == ("Name in English / in Russian", [ALICE])
    refused = await answer(stack, ALICE, asked, "Лунопад")  # no Latin letter for the key
    assert refused["text"].startswith("🤔 Start the name in English with a Latin letter")
    taken = await answer(stack, ALICE, asked, "Fate / Судьба")  # the library's game
    assert "exists already" in taken["text"]
    asked = await answer(stack, ALICE, asked, "Moonfall / Лунопад")  # the same question again
    assert asked["text"].startswith("✍️ Step 2 of 4: the dice.")
    assert opened_reply(stack, asked) == ("Dice, as 2d6", [ALICE])
    asked = await answer(stack, ALICE, asked, "2d6")
    assert asked["text"].startswith("✍️ Step 3 of 4")
    assert opened_reply(stack, asked) == ("One input a line, or -", [ALICE])
    refused = await answer(stack, ALICE, asked, "modifier / модификатор -3..2000")
    assert refused["text"] == "🤔 “inputs[0].max” must stay within -1000 and 1000."
    asked = await answer(stack, ALICE, asked, "modifier / модификатор -3..4")
    assert asked["text"].startswith("✍️ Step 4 of 4: the outcomes, best first.")
    assert opened_reply(stack, asked) == ("One outcome a line, best first", [ALICE])
    bands = "10 Strong hit / Сильный успех\n7 Weak hit / Частичный успех\nMiss / Провал"
    kept = await answer(stack, ALICE, asked, bands)
    assert kept["text"] == "✅ Kept Moonfall (moonfall), version 1."
    shown = await say(stack, ALICE, GROUP, "/system show moonfall")
    assert 'value = "total(roll) + modifier"' in shown["text"] and "max = 9" in shown["text"]
    assert await OwnSystem.filter(key="moonfall").count() == 1


async def test_a_step_by_step_system_is_cancelled_and_its_errors_read_in_russian(
    stack: Stack,
) -> None:
    asked = await say(stack, OLGA, GROUP, "/system new")
    assert asked["text"].startswith("✍️ Новая игровая система, шаг 1 из 4")
    assert opened_reply(stack, asked) == ("Название по-английски / по-русски", [OLGA])
    asked = await answer(stack, OLGA, asked, "Moonfall / Лунопад")
    assert opened_reply(stack, asked) == ("Кости, например 2d6", [OLGA])
    refused = await answer(stack, OLGA, asked, "два кубика")
    assert refused["text"].startswith("🤔 Напишите кости")
    dropped = await answer(stack, OLGA, asked, "отмена")
    assert dropped["text"] == "Черновик игровой системы удалён."
    assert await OwnSystemDraft.filter(author_tg_id=OLGA).count() == 0  # nothing is asked
    none = await say(stack, OLGA, GROUP, "/system cancel")
    assert none["text"] == "Вы сейчас не пишете игровую систему."
