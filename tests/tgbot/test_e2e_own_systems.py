"""A group's own game systems end to end: /system lists, /system new keeps one written in
one message (or refuses it, naming the field, in the reader's language), /system show,
share by a link and import into another group, delete."""

from __future__ import annotations

import re

import pytest

from core.store.models import OwnSystem, OwnSystemVersion
from tests.support.own_system import OUR_GAME
from tests.support.stack import GROUP, OLGA, Stack, cast_with_olga, running_stack, say

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
    assert await OwnSystemVersion.all().count() == 0
    usage = await say(stack, OLGA, GROUP, "/system новая")
    assert "Напишите свою игровую систему" in usage["text"], usage["text"]
