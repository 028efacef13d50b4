"""Undo end to end through the local Bot API server: the ↩ Undo button and /undo."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.store.models import LogEntry
from core.store.models import Panel as PanelRow
from tests.support.stack import GROUP, Stack, labels, running_stack
from tests.tgbot.test_e2e_d20 import BO, BO_NAME, CHIDI, Dice, say, start_game, tap
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture
async def stack(db: str, dice: Dice) -> Any:
    async with running_stack(db, rng=dice, players=default_cast()) as running:
        yield running


@pytest.fixture
async def dice() -> Dice:
    return Dice()


async def test_the_button_and_undo_take_back_choices_but_never_rolled_dice(
    stack: Stack, dice: Dice
) -> None:
    await start_game(stack)
    opened = await say(stack, BO, "/check dc12")
    assert not any(label.startswith("↩") for label in labels(opened, undo=True))
    _, mods = await tap(stack, BO, opened, "⚖️ Prof")  # opening the bonuses is a step too
    _, chosen = await tap(stack, BO, mods, "Prof +")
    assert f"↩ Undo ({BO_NAME})" in labels(chosen, undo=True)

    answer, _ = await tap(stack, CHIDI, chosen, "↩ Undo")  # not Chidi's to take back
    assert answer["show_alert"] and "someone else" in answer["text"]

    row = await PanelRow.get(message_id=opened["message_id"])
    answer, _ = await tap(stack, BO, chosen, "↩ Undo")
    assert answer["text"] == f"↩ {BO_NAME} took back: a choice before the check"
    back = await stack.api.wait_for_message(
        GROUP,
        lambda m: m["message_id"] == opened["message_id"] and m["text"] == mods["text"],
        timeout=10,
    )
    assert labels(back, undo=True) == labels(mods, undo=True)  # the panel reads as it did
    assert (await PanelRow.get(id=row.id)).version == row.version + 1
    assert await LogEntry.filter(kind="undo").count() == 1

    _, chosen = await tap(stack, BO, back, "Prof +")
    for _ in range(2):  # the bonus, then opening the bonuses
        mark = stack.api.mark()
        await stack.api.send_text(BO, GROUP, "/undo")
        reply = await stack.api.wait_for_message(
            GROUP, lambda m: m.get("text", "").startswith("↩"), timeout=10, since=mark
        )
        assert "took back" in reply["text"]
    back = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == opened["message_id"] and "↩" not in str(m), timeout=10
    )
    assert back["text"] == opened["text"]
    await stack.api.send_text(BO, GROUP, "/undo")  # opening the check stands
    await stack.api.wait_for_message(
        GROUP,
        lambda m: "(opening a new panel) can't be taken back" in m.get("text", ""),
        timeout=10,
    )


async def test_undo_in_private_says_where_it_works(stack: Stack) -> None:
    await start_game(stack)
    await stack.api.send_text(BO, BO, "/undo")
    answer = await stack.api.wait_for_message(BO, timeout=10)
    assert "in your game's group" in answer["text"]


async def test_an_undo_delivered_twice_takes_back_once(db: str) -> None:
    from tests.tgbot.test_redelivered_updates import ALICE as HOST
    from tests.tgbot.test_redelivered_updates import SECRET, Telegram

    async with running_stack(db, webhook_secret=SECRET, players=default_cast()) as stack:
        telegram = Telegram(stack)
        await telegram.say(HOST, "/newgame threat")
        for user in (BO, CHIDI):
            await telegram.say(user, "/join")
        panel = await telegram.say(BO, "/roll 3d2t")

        async def press(label: str) -> dict:
            data = next(
                b["callback_data"]
                for row in panel["reply_markup"]["inline_keyboard"]
                for b in row
                if b["text"].startswith(label)
            )
            mark = stack.api.mark()
            await stack.api.press_button(CHIDI, GROUP, panel["message_id"], data)
            assert await telegram.deliver_twice() == 1
            return await stack.api.wait_for_message(
                GROUP, lambda m: m["message_id"] == panel["message_id"], 10, since=mark
            )

        opened = panel
        panel = await press("🤝 Help")
        assert "↩ Undo (Chidi Okafor)" in labels(panel, undo=True)
        panel = await press("↩ Undo")
        assert panel["text"] == opened["text"]
        panel = await press("🤝 Help")
        await stack.api.send_text(CHIDI, GROUP, "/undo")
        assert await telegram.deliver_twice() == 1
        await stack.api.wait_for_message(GROUP, lambda m: "took back" in m.get("text", ""), 10)
        await asyncio.sleep(0.5)  # time for a second copy to do anything it would
        assert await LogEntry.filter(kind="undo").count() == 2
        assert sum("took back" in m.get("text", "") for m in stack.api.messages(GROUP)) == 1
        assert (await PanelRow.get(message_id=opened["message_id"])).version == 4
