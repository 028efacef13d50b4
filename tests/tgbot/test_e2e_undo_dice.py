"""Undo in Threat dice and Cortex end to end: choices before the dice go back, dice stand."""

from __future__ import annotations

from typing import Any

import pytest

from core.store.models import LogEntry
from tests.support.stack import GROUP, Stack, labels
from tests.tgbot import test_e2e_cortex as cortex
from tests.tgbot import test_e2e_threat as threat

pytestmark = [pytest.mark.e2e, pytest.mark.db]

stack = threat.stack  # the threat game's stack (its scripted faces)


def read(msg: dict[str, Any]) -> tuple[str, list[str]]:
    return msg["text"], labels(msg, undo=True)


async def slash_undo(stack: Stack, user: int, expect: str) -> None:
    await stack.api.send_text(user, GROUP, "/undo")
    await stack.api.wait_for_message(GROUP, lambda m: expect in m.get("text", ""), timeout=10)


async def test_threat_choices_before_the_roll_go_back_and_the_roll_stands(stack: Stack) -> None:
    token = await threat.start_game(stack)
    use, bo = threat.campaigns(stack), threat.ref(stack, threat.BO)
    sheet = await threat.sheet_of(threat.BO)
    await use.edit(token, bo, "approach.set", {"name": "Prowess", "value": 2})
    await slash_undo(stack, threat.BO, "took back: an approach set")
    assert await threat.sheet_of(threat.BO) == sheet
    await use.edit(token, bo, "approach.set", {"name": "Prowess", "value": 2})

    climb = await stack.api.send_text(threat.BO, GROUP, "I climb the tower")
    opened = await threat.say(stack, threat.ALICE, "/threat", reply_to=climb["message_id"])
    _, keypad = await threat.tap(stack, threat.ALICE, opened, "⚠️ Threat +0")
    _, raised = await threat.tap(stack, threat.ALICE, keypad, "+3")
    assert "↩ Undo (Alice Marsh)" in labels(raised, undo=True)
    _, back = await threat.tap(stack, threat.ALICE, raised, "↩ Undo (Alice Marsh)")
    assert back is raised  # answered with what was taken back; the panel is redrawn
    back = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == opened["message_id"], timeout=10
    )
    assert read(back) == read(keypad)  # the keypad again, as before the pick
    _, main = await threat.tap(stack, threat.ALICE, back, "⬅️ Back")

    _, listed = await threat.tap(stack, threat.BO, main, "🎯 Approach…")
    _, picked = await threat.tap(stack, threat.BO, listed, "Prowess 2")
    await slash_undo(stack, threat.BO, "took back: a choice before the roll")
    back = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == opened["message_id"], timeout=10
    )
    assert read(back) == read(listed)
    _, picked = await threat.tap(stack, threat.BO, back, "Prowess 2")
    _, rolled = await threat.tap(stack, threat.BO, picked, "🎲 Roll")
    assert not any(label.startswith("↩ Undo") for label in labels(rolled, undo=True))
    await slash_undo(stack, threat.BO, "rolled dice stand")
    assert await LogEntry.filter(kind="undo").count() == 3


@pytest.fixture
def faces() -> cortex.Faces:
    return cortex.Faces()


async def test_a_cortex_opposition_pick_goes_back_until_the_watchtower_rolls(
    db: str, faces: cortex.Faces
) -> None:
    async with cortex.running_stack(
        db, rng=faces, players=cortex.default_cast(started=True)
    ) as running:
        await cortex.open_game(running)
        message = await cortex.say(running, cortex.BO, "/test")
        panel = cortex.Panel(running, message)
        added = await panel.press(cortex.WATCHTOWER, "👁 +d8")
        assert "↩ Undo (Alice Marsh)" in labels(added, undo=True)
        await slash_undo(running, cortex.WATCHTOWER, "took back: a choice in the conflict")
        back = await running.api.wait_for_message(
            GROUP, lambda m: m["message_id"] == message["message_id"], timeout=10
        )
        assert read(back) == read(message)
        panel.message = back
        await panel.press(cortex.WATCHTOWER, "👁 +d8")
        faces.script([5])
        await panel.press(cortex.WATCHTOWER, "👁 Roll 1")
        await slash_undo(running, cortex.WATCHTOWER, "rolled dice stand")
