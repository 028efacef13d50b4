"""A library game's heavy odds are worked out in a worker process, as other heavy odds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE = 3201


@pytest.fixture
async def stack(db: str) -> AsyncIterator[Stack]:
    players = [Player(ALICE, "Alice", "Marsh", "alice", language_code="en", started=True)]
    async with running_stack(db, players=players, env={"HEAVY_WORKERS": "1"}) as running:
        yield running


async def say(stack: Stack, text: str, timeout: float = 10) -> str:
    mark = stack.api.mark()
    await stack.api.send_text(ALICE, GROUP, text)
    message: dict[str, Any] = await stack.api.wait_for_message(
        GROUP, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=timeout, since=mark
    )
    return str(message["text"])


async def test_savage_worlds_odds_are_worked_out_in_a_worker_process(stack: Stack) -> None:
    heavy = stack.runtime.heavy
    assert heavy is not None and heavy.pool.processes == 0
    await say(stack, "/newgame savage")
    answer = await say(stack, "/odds d8 +1", timeout=60)
    assert answer.startswith("📊 Savage Worlds, trait die 8, modifier +1\n4.9% — Success with 3+")
    assert heavy.pool.processes == 1  # the odds went to the pool


async def test_a_dear_roll_names_its_chance_worked_out_in_a_worker_process(stack: Stack) -> None:
    heavy = stack.runtime.heavy
    assert heavy is not None
    await say(stack, "/newgame savage")
    rolled = await say(stack, "/roll d8 +1", timeout=60)
    assert rolled.startswith("🎲 Alice Marsh — Savage Worlds, trait die 8, modifier +1\n")
    # the outcome's exact chance, though too dear to work out here (a Benny's line may follow)
    assert rolled.split("\n")[1].endswith("%)")
    assert heavy.pool.processes == 1
