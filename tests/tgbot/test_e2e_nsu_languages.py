"""No Stone Unturned at a Russian table beside an English player, through the local Bot API server.

A Russian host's group: /newgame nsu, then /begin refused to players who are not
the host, in Russian for everyone there (an English player included); in private,
character creation refuses an overlong look in each player's own language.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.store.models import Campaign
from tests.support.nsu_bot import reply, reply_refused
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db, pytest.mark.backend_neutral]

OLGA, ALICE, IVAN = 1001, 1002, 1003  # Olga hosts; Alice reads English


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        Player(OLGA, "Ольга", language_code="ru", started=True),
        Player(ALICE, "Alice", "Marsh", language_code="en-GB", started=True),
        Player(IVAN, "Иван", language_code="ru-RU", started=True),
    ]
    async with running_stack(db, players=players) as running:
        yield running


async def say(stack: Stack, user: int, text: str, chat: int = GROUP) -> dict[str, Any]:
    await stack.api.send_text(user, chat, text)
    return await stack.api.wait_for_message(chat, timeout=10)


async def test_a_russian_nsu_table_is_refused_in_russian_and_an_english_player_in_english(
    stack: Stack,
) -> None:
    await say(stack, OLGA, "/newgame nsu")
    assert (await Campaign.get(live_chat_id=GROUP)).language == "ru"
    for user in (ALICE, IVAN):
        await say(stack, user, "/join")

    refused = await say(stack, IVAN, "/begin")
    assert refused["text"] == "✋ Создание мира начинает организатор, когда все присоединятся."
    refused = await say(stack, ALICE, "/begin")  # an English player, in the Russian group
    assert refused["text"] == "✋ Создание мира начинает организатор, когда все присоединятся."

    # Private character creation: each refusal in its own player's language
    refusals = {}
    for user, name in ((IVAN, "Вера"), (ALICE, "Wren")):
        panel = await say(stack, user, "/character", chat=user)
        await reply(stack, user, user, panel["message_id"], name)
        await reply(stack, user, user, panel["message_id"], "she/her")
        too_long = await reply_refused(stack, user, user, panel["message_id"], "о" * 600)
        refusals[user] = too_long["text"]
    assert refusals[IVAN] == "🤔 Облик — не длиннее 500 символов.", refusals
    assert refusals[ALICE] == "🤔 Keep the look under 500 characters.", refusals
