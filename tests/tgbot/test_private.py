"""Private messages to a player the bot cannot reach are held, never lost."""

from __future__ import annotations

import pytest

from tests.support.stack import GROUP, Stack, running_stack
from tgbot.context import StonetableContext
from tgbot.private import INBOX, send_private

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db) as running:
        yield running


def context_of(stack: Stack) -> StonetableContext:
    application = stack.runtime.application
    assert application is not None
    return StonetableContext(application)  # type: ignore[arg-type]


async def test_a_blocked_player_is_asked_to_come_back_and_then_gets_the_message(
    stack: Stack,
) -> None:
    bo = stack.api.players[stack.players[1]]
    await stack.api.block_bot(bo.id)
    secret = "🗺 The <b>Drowned Chapel</b>: a bell rings under the water."
    delivered = await send_private(
        context_of(stack), bo.id, secret, group_chat_id=GROUP, name=bo.first_name
    )
    assert delivered is False
    nudge = await stack.api.wait_for_message(GROUP, timeout=10)
    assert "something private" in nudge["text"] and bo.first_name in nudge["text"]
    assert "Drowned" not in nudge["text"]
    link = nudge["reply_markup"]["inline_keyboard"][0][0]["url"]
    assert stack.api.start_link_payload(link) == INBOX
    assert not any("Drowned" in m.get("text", "") for m in stack.api.messages(bo.id))

    await stack.api.start_bot(bo.id, INBOX)
    held = await stack.api.wait_for_message(bo.id, timeout=10)
    assert held["text"] == "🗺 The Drowned Chapel: a bell rings under the water."
    assert [e["type"] for e in held["entities"]] == ["bold"]

    await stack.api.start_bot(bo.id)  # nothing held any more: the usual greeting
    assert "Hello" in (await stack.api.wait_for_message(bo.id, timeout=10))["text"]


async def test_a_reachable_player_gets_it_at_once(stack: Stack) -> None:
    ana = stack.players[0]
    assert await send_private(context_of(stack), ana, "Just for you", group_chat_id=GROUP)
    assert (await stack.api.wait_for_message(ana, timeout=10))["text"] == "Just for you"
