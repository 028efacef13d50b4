"""Cortex drama end to end through the local Bot API server: a Test, a Contest of
several exchanges in one edited message, the Watchtower's buttons refused to players."""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Iterable
from typing import Any

import pytest

from core.rules.cortex.campaign import load
from tests.support.stack import GROUP, Stack, labels, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

WATCHTOWER, BO, CHIDI = 1001, 1002, 1003  # Bo's name is "<b>Bo</b> & Co"


class Faces:
    """Scripted faces first, then seeded ones (for rolls the test does not care about)."""

    def __init__(self) -> None:
        self.queue: deque[int] = deque()
        self.spare = random.Random(7)

    def script(self, faces: Iterable[int]) -> None:
        self.queue.extend(faces)

    def randint(self, low: int, high: int) -> int:
        if self.queue:
            value = self.queue.popleft()
            assert low <= value <= high, (value, high)
            return value
        return self.spare.randint(low, high)


@pytest.fixture
def faces() -> Faces:
    return Faces()


@pytest.fixture
async def stack(db: str, faces: Faces) -> Stack:  # type: ignore[misc]
    async with running_stack(db, rng=faces, players=default_cast(started=True)) as running:
        yield running


async def say(stack: Stack, user: int, text: str) -> dict[str, Any]:
    await stack.api.send_text(user, GROUP, text)
    return await stack.api.wait_for_message(GROUP, timeout=10)


def data_of(message: dict[str, Any], label: str) -> str:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    for row in rows:
        for b in row:
            if b["text"].startswith(label):
                return str(b["callback_data"])
    raise AssertionError(f"no button {label!r} in {labels(message)}")


class Panel:
    """The one message showing a conflict, pressed by players."""

    def __init__(self, stack: Stack, message: dict[str, Any]) -> None:
        self.stack = stack
        self.message = message
        self.id = message["message_id"]

    async def press(self, user: int, label: str) -> dict[str, Any]:
        api = self.stack.api
        pressed = await api.press_button(user, GROUP, self.id, data_of(self.message, label))
        answer = await pressed.answered(10)
        assert not answer["text"], answer["text"]
        self.message = await api.wait_for_message(
            GROUP, lambda m: m["message_id"] == self.id and m["from"]["id"] == api.bot_id, 10
        )
        return self.message

    async def refused(self, user: int, label: str, data: str | None = None) -> str:
        api = self.stack.api
        pressed = await api.press_button(user, GROUP, self.id, data or data_of(self.message, label))
        answer = await pressed.answered(10)
        assert answer["show_alert"] and answer["text"]
        current = next(m for m in api.messages(GROUP) if m["message_id"] == self.id)
        assert current["text"] == self.message["text"]  # nothing changed
        return str(answer["text"])


async def open_game(stack: Stack) -> None:
    assert "Cortex" in (await say(stack, WATCHTOWER, "/newgame cortex"))["text"]
    assert "joined" in (await say(stack, BO, "/join"))["text"]
    assert "joined" in (await say(stack, CHIDI, "/join"))["text"]
    for line in ("value Justice d10", "asset <i>Strong</i> d8", "relationship Chidi d6"):
        assert "recorded" in (await say(stack, BO, f"/trait {line}"))["text"]
    for line in ("value Truth d8", "asset Reporter d8"):
        assert "recorded" in (await say(stack, CHIDI, f"/trait {line}"))["text"]


async def campaign_table(stack: Stack):  # type: ignore[no-untyped-def]
    deps = stack.runtime.application.deps  # type: ignore[union-attr]
    view = await deps.campaigns.require_current(GROUP)
    from core.campaigns.play import PlayerRef

    _, table = await deps.campaigns.table_for_viewer(view.app_token, PlayerRef(WATCHTOWER, "A"))
    return load(table).table


async def test_a_test_with_the_watchtowers_opposition(stack: Stack, faces: Faces) -> None:
    await open_game(stack)
    panel = Panel(stack, await say(stack, BO, "/test"))
    text = panel.message["text"]
    assert "Test: <b>Bo</b> & Co" in text and "Waiting for the Watchtower" in text
    assert "Trouble: none" in text and "1 PP" in text
    # The Watchtower's buttons are refused to players with an alert, and nothing changes.
    alert = await panel.refused(BO, "👁 +d8")
    assert "Watchtower" in alert
    await panel.press(WATCHTOWER, "👁 +d8")
    faces.script([5])
    message = await panel.press(WATCHTOWER, "👁 Roll 1")
    assert "Opposition d8:5 → 5" in message["text"]
    assert "To beat: 5 (a tie fails)" in message["text"]  # ruling 24
    # Nothing to roll yet: Roll is offered once the pool holds a trait.
    assert labels(message) == ["➕ Add to the pool…", "👁 End the scene"]
    assert await panel.refused(CHIDI, "➕ Add to the pool") == "✋ It's up to <b>Bo</b> & Co now."
    message = await panel.press(BO, "➕ Add to the pool")  # the traits, with Back
    assert "➕ <i>Strong</i> d8" in labels(message)  # a trait name with HTML, shown as text
    assert labels(message)[-1] == "⬅️ Back" and len(labels(message)) <= 8
    assert await panel.refused(CHIDI, "➕ Justice") == "✋ It's up to <b>Bo</b> & Co now."
    await panel.press(BO, "➕ Justice")
    message = await panel.press(BO, "➕ <i>Strong</i>")
    assert "Justice d10 · <i>Strong</i> d8" in message["text"] and "% to beat 5" in message["text"]
    await panel.press(BO, "⬅️ Back")
    faces.script([1, 4])
    message = await panel.press(BO, "🎲 Roll")
    assert "Result 4" in message["text"]
    assert any(e["type"] == "strikethrough" for e in message["entities"])  # the dud
    assert "Complications" in message["text"]
    assert not any(label.startswith("➕ Include") for label in labels(message))
    await panel.press(BO, "✅ Keep this Result")
    assert "fails" in panel.message["text"]
    # The Watchtower buys the 1 into Trouble; Bo gets a Plot Point for it.
    message = await panel.press(WATCHTOWER, "👁 <b>Bo</b>'s d10 1 → Trouble")  # whole words
    assert "joins Trouble" in message["text"] and labels(message) == []  # (only ↩ Undo)
    table = await campaign_table(stack)
    assert [int(d) for d in table.trouble] == [10]
    assert table.sheet("<b>Bo</b> & Co").plot_points == 2
    trouble = await say(stack, CHIDI, "/trouble")
    assert "Trouble: d10" in trouble["text"] and "<b>Bo</b> & Co · 2 PP" in trouble["text"]


async def test_a_contest_of_several_exchanges_in_one_edited_message(
    stack: Stack, faces: Faces
) -> None:
    await open_game(stack)
    panel = Panel(stack, await say(stack, BO, "/contest Chidi Okafor"))
    before = len(stack.api.messages(GROUP))
    assert "Contest: <b>Bo</b> & Co vs Chidi Okafor" in panel.message["text"]
    await panel.press(BO, "➕ Add to the pool")
    await panel.press(BO, "➕ Justice")
    await panel.press(BO, "➕ <i>Strong</i>")
    await panel.press(BO, "⬅️ Back")
    faces.script([6, 5])
    await panel.press(BO, "🎲 Roll")
    message = await panel.press(BO, "✅ Keep this Result")
    assert (
        "sets the Action: 11" in message["text"] and "Waiting for Chidi Okafor" in message["text"]
    )
    assert "🏳️ Give in · Chidi Okafor" in labels(message)
    await panel.press(CHIDI, "➕ Add to the pool")
    await panel.press(CHIDI, "➕ Truth")
    await panel.press(CHIDI, "➕ Reporter")
    await panel.press(CHIDI, "⬅️ Back")
    faces.script([7, 6])
    await panel.press(CHIDI, "🎲 Roll")
    message = await panel.press(CHIDI, "✅ Keep this Result")
    assert "Chidi Okafor beats it and takes over: Action 13" in message["text"]
    # Bo rolls again with the same pool.
    assert "Justice d10 · <i>Strong</i> d8" in message["text"]
    faces.script([4, 3])
    await panel.press(BO, "🎲 Roll")
    message = await panel.press(BO, "✅ Keep this Result")
    assert "falls short by 6" in message["text"]
    assert (await panel.refused(CHIDI, "💥 Take Stress")).startswith("✋")
    await panel.press(BO, "💥 Take Stress")
    faces.script([5, 2])
    message = await panel.press(CHIDI, "💥 Angry")
    assert "<b>Bo</b> & Co takes Angry d8" in message["text"]
    assert "wins; <b>Bo</b> & Co takes Stress" in message["text"]
    assert "reply_markup" not in message
    assert len(stack.api.messages(GROUP)) == before  # every exchange edited the one message
    table = await campaign_table(stack)
    assert table.sheet("<b>Bo</b> & Co").stress_of("Angry") == 8
    assert table.sheet("<b>Bo</b> & Co").plot_points == 1


async def test_double_presses_apply_once_and_old_buttons_are_stale(
    stack: Stack, faces: Faces
) -> None:
    await open_game(stack)
    panel = Panel(stack, await say(stack, BO, "/contest Chidi Okafor"))
    await panel.press(BO, "➕ Add to the pool")
    await panel.press(BO, "➕ Justice")
    await panel.press(BO, "⬅️ Back")
    faces.script([6])
    api = stack.api
    roll, add = data_of(panel.message, "🎲 Roll"), data_of(panel.message, "➕ Add to the pool")
    presses = [await api.press_button(BO, GROUP, panel.id, data) for data in (roll, roll, add)]
    answers = list(await asyncio.gather(*(p.answered(10) for p in presses)))
    assert [bool(a["text"]) for a in answers] == [False, True, True]
    assert all("out of date" in a["text"] for a in answers[1:])
    await api.wait_for_message(GROUP, lambda m: m["message_id"] == panel.id, 10)
    table = await campaign_table(stack)
    assert table.conflict is not None and table.conflict.roll is not None
    assert len(table.conflict.roll.dice) == 1  # rolled once, and the list never opened


async def test_a_reply_creates_a_useful_detail_and_players_cannot_end_the_scene(
    stack: Stack, faces: Faces
) -> None:
    await open_game(stack)
    panel = Panel(stack, await say(stack, BO, "/contest Chidi Okafor"))
    await stack.api.reply_to(BO, GROUP, panel.id, "The <u>barn</u> door")
    message = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == panel.id and m["from"]["id"] == stack.api.bot_id, 10
    )
    assert "creates “The <u>barn</u> door” d6" in message["text"]
    panel.message = message
    assert "Only the Watchtower" in await panel.refused(CHIDI, "👁 End the scene")
    assert "Only the Watchtower" in (await say(stack, BO, "/endscene"))["text"]
    assert "scene ends" in (await say(stack, WATCHTOWER, "/endscene"))["text"]
    answer = await (
        await stack.api.press_button(BO, GROUP, panel.id, data_of(message, "➕ Add to the pool"))
    ).answered(10)
    assert "over" in answer["text"]
