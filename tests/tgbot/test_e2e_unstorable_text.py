"""Text no store can keep, through the local Bot API server, on SQLite and PostgreSQL alike:
a typed message with a NUL or half a character is refused with a clear line (never "the
game store is unreachable"); a sender whose name holds one still rolls, their name kept
cleaned; a valid roll of the longest notation is kept whole."""

from __future__ import annotations

from typing import Any

import pytest

from core.rules.text import UNSTORABLE
from core.store.models import Player, RollRecord
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player as TelegramUser

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ADA, BO = 3001, 3002


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        TelegramUser(ADA, "A\x00da", "Love\x00lace", language_code="en", started=True),
        TelegramUser(BO, "Bo", language_code="en", started=True),
    ]
    async with running_stack(db, players=players) as running:
        yield running


async def say(stack: Stack, user: int, text: str) -> dict[str, Any]:
    await stack.api.send_text(user, GROUP, text)
    return await stack.api.wait_for_message(
        GROUP, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=10
    )


async def test_a_sender_named_with_a_nul_rolls_and_is_kept_cleaned(stack: Stack) -> None:
    reply = await say(stack, ADA, "/roll 1d6")
    assert "Ada Lovelace rolls" in reply["text"], reply["text"]
    player = await Player.get(tg_id=ADA)
    assert (player.first_name, player.last_name) == ("Ada", "Lovelace")


@pytest.mark.parametrize("typed", ["/roll 1d6 fire\x00", "/newgame thr\x00eat", "/roll 2d6\x00"])
async def test_typed_text_the_store_cannot_keep_is_refused_clearly(
    stack: Stack, typed: str
) -> None:
    reply = await say(stack, BO, typed)
    assert UNSTORABLE in reply["text"], reply["text"]
    assert "unreachable" not in reply["text"]
    assert not await RollRecord.exists()
    assert len(stack.api.messages(GROUP)) == 2  # what Bo typed, and the one refusal


async def test_a_valid_roll_of_the_longest_notation_is_kept_whole(stack: Stack) -> None:
    typed = "+".join(["10d6"] * 100)  # the most terms and dice a roll may have
    reply = await say(stack, BO, f"/roll {typed}")
    assert "Bo rolls" in reply["text"], reply["text"][:300]
    (record,) = await RollRecord.all()
    assert record.notation == " + ".join(["10d6"] * 100)  # 697 characters, all kept
