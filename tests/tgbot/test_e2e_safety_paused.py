"""Safety tools work in every state of a game, paused included, through the bot.

/status promises the X-card, the knock and lines are always there: a paused game
(the host's /pause) keeps them, from a command in the group or in private, and from
the X-card button under a panel drawn before the pause; every other step waits.
"""

from __future__ import annotations

import pytest

from tests.support.nsu_bot import ALICE, BO, CHIDI, TIMEOUT, private_panel
from tests.support.nsu_bot import press as nsu_press
from tests.support.stack import GROUP, Stack, labels, running_stack
from tests.tgbot.test_e2e_nsu_play import data_of, default_characters, say, start_table
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        for pid in (ALICE, BO, CHIDI):
            await running.api.start_bot(pid)
        yield running


async def group_notice(stack: Stack, words: str, since: int) -> str:
    found = await stack.api.wait_for_message(
        GROUP, lambda m: words in (m.get("text") or ""), timeout=TIMEOUT, since=since
    )
    return str(found["text"])


async def test_the_x_card_a_knock_and_lines_work_while_the_game_is_paused(stack: Stack) -> None:
    await start_table(stack, default_characters())
    panel = await say(stack, ALICE, "/adventure")
    assert "🛑 X-card" in labels(panel)
    assert "paused" in (await say(stack, ALICE, "/pause"))["text"].lower()
    assert "/resume" in (await say(stack, BO, "/adventure"))["text"]  # play waits

    mark = stack.api.mark()
    await stack.api.send_text(BO, BO, "/xcard")  # in private
    assert "Bo" not in await group_notice(stack, "X-card.", mark)
    done = await stack.api.wait_for_message(BO, timeout=TIMEOUT, since=mark)
    assert "without your name" in done["text"]

    mark = stack.api.mark()
    await stack.api.send_text(CHIDI, GROUP, "/knock")  # in the group
    assert "Chidi" not in await group_notice(stack, "Knock.", mark)

    mark = stack.api.mark()  # the X-card under a panel drawn before the pause
    pressed = await stack.api.press_button(
        CHIDI, GROUP, panel["message_id"], data_of(panel, "🛑 X-card")
    )
    assert "Nobody" in (await pressed.answered(TIMEOUT))["text"]
    await group_notice(stack, "X-card.", mark)

    mark = stack.api.mark()
    await stack.api.send_text(BO, BO, "/lines")
    lines = (await private_panel(stack, BO, mark))["message_id"]
    await nsu_press(stack, BO, BO, lines, "Veil")
    mark = stack.api.mark()
    await stack.api.reply_to(BO, BO, lines, "Spiders")
    posted = await group_notice(stack, "Spiders", mark)
    assert "veil" in posted and "Bo" not in posted
