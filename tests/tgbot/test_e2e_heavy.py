"""Heavy requests through the local Bot API server: exact odds and large rolls are worked
out in a worker process, and a player's next heavy request while one is worked out is
answered "one at a time", in their language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, IVAN = 3001, 3002  # Alice reads English, Ivan Russian


@pytest.fixture
async def stack(db: str) -> AsyncIterator[Stack]:
    players = [
        Player(ALICE, "Alice", "Marsh", "alice", language_code="en", started=True),
        Player(IVAN, "Иван", language_code="ru", started=True),
    ]
    async with running_stack(db, players=players, env={"HEAVY_WORKERS": "1"}) as running:
        yield running


async def say(stack: Stack, user: int, text: str, chat: int, timeout: float = 10) -> str:
    mark = stack.api.mark()
    await stack.api.send_text(user, chat, text)
    message: dict[str, Any] = await stack.api.wait_for_message(
        chat, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=timeout, since=mark
    )
    return str(message["text"])


async def first_odds(stack: Stack) -> None:
    """Odds once, so the worker process has started (it may take a while on a busy
    machine): the test's own waits are then for answers only."""
    assert "Минимум 2" in await say(stack, IVAN, "/odds 2d6", IVAN, timeout=60)


async def test_a_players_second_heavy_request_is_answered_one_at_a_time(stack: Stack) -> None:
    heavy = stack.runtime.heavy
    assert heavy is not None
    await first_odds(stack)
    async with heavy.turns.hold(ALICE):  # Alice's last heavy request is being worked out
        refused = await say(stack, ALICE, "/odds 4d6kh3", GROUP)
        assert refused.startswith("⏳ One at a time, please: I'm still working out your last")
        action_roll = await say(stack, ALICE, "/odds d6 d8 world adv", GROUP)
        assert action_roll.startswith("⏳ One at a time, please")
        other = await say(stack, IVAN, "/odds 4d6kh3", GROUP)  # Ivan is served meanwhile
        assert "4d6kh3" in other and "в среднем 12,24" in other
    async with heavy.turns.hold(IVAN):
        russian = await say(stack, IVAN, "/odds 2d6", IVAN)
        assert russian.startswith("⏳ По одному, пожалуйста: я ещё считаю ваш прошлый запрос")
        large = await say(stack, IVAN, "/roll 300d6!", GROUP)  # a large roll waits too
        assert large.startswith("⏳ По одному, пожалуйста")
        everyday = await say(stack, IVAN, "/roll 2d6", GROUP)  # an everyday roll does not
        assert "Итого" in everyday
    answered = await say(stack, ALICE, "/odds 4d6kh3", GROUP)
    assert "Lowest 3 · highest 18" in answered


async def test_a_large_roll_is_rolled_in_a_worker_process(stack: Stack) -> None:
    heavy = stack.runtime.heavy
    assert heavy is not None and heavy.pool.processes == 0
    rolled = await say(stack, ALICE, "/roll 300d6!", GROUP, timeout=60)
    assert "300d6!" in rolled and "Total" in rolled
    assert heavy.pool.processes == 1
