"""What the webhook answers: 200 once handled, 503 when handling outlasts the bound.

A slow update is not cancelled: it finishes, and Telegram's redelivery of it
changes nothing. A shared service that is down is told to the user, who tries
again; the update is answered 200 so that Telegram does not do it again later.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from core.store.models import DeadLetter
from tests.support.services import start_redis
from tests.support.stack import GROUP, Stack, running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.db]

SECRET = "answer-secret"


async def post(stack: Stack, update: dict[str, Any]) -> int:
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{stack.origin}/telegram/webhook",
            data=json.dumps(update).encode(),
            headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
        ) as response,
    ):
        return response.status


async def said(stack: Stack, user: int, text: str) -> dict[str, Any]:
    """The update Telegram would post for ``text`` (not yet delivered)."""
    before = {u["update_id"] for u in stack.api.pending_updates()}
    await stack.api.send_text(user, GROUP, text)
    (update,) = [u for u in stack.api.pending_updates() if u["update_id"] not in before]
    return update


async def test_an_update_slower_than_the_bound_answers_503_finishes_and_is_applied_once(
    db: str,
) -> None:
    env = {"WEBHOOK_ANSWER_SECONDS": "0.5"}
    async with running_stack(db, webhook_secret=SECRET, env=env) as stack:
        locks = stack.runtime.locks
        assert locks is not None
        update = await said(stack, stack.players[0], "/newgame threat")
        async with locks.hold(f"chat:{GROUP}:0"):  # a slow moment: the game lock of the group
            assert await post(stack, update) == 503
            await asyncio.sleep(1.0)
        started = await stack.api.wait_for_message(
            GROUP, lambda m: "started a game" in m.get("text", ""), timeout=10
        )
        assert started
        assert await post(stack, update) == 200  # Telegram's redelivery changes nothing
        await asyncio.sleep(0.3)
        games = [m for m in stack.api.messages(GROUP) if "started a game" in m.get("text", "")]
        assert len(games) == 1
        assert await DeadLetter.all().count() == 0


async def test_a_shared_service_down_is_told_to_the_user_and_answered_200(
    db: str, tmp_path: Path
) -> None:
    redis = start_redis(tmp_path)
    env = {"REDIS_URL": redis.url, "LOCK_WAIT_SECONDS": "1"}
    try:
        async with running_stack(db, webhook_secret=SECRET, env=env) as stack:
            update = await said(stack, stack.players[0], "/newgame threat")
            redis.stop()
            assert await post(stack, update) == 200
            told = await stack.api.wait_for_message(GROUP, timeout=10)
            assert "try again" in told["text"].lower()
            assert await DeadLetter.all().count() == 0
    finally:
        if redis.process.poll() is None:
            redis.stop()


async def test_an_update_whose_handling_fails_unexpectedly_is_kept_and_answered_200(
    db: str,
) -> None:
    async with running_stack(db, webhook_secret=SECRET) as stack:
        update = await said(stack, stack.players[0], "/roll 1d6")
        update["message"]["text"] = 1234567  # a shape Telegram never sends: no handler copes
        assert await post(stack, update) == 200
        (letter,) = await DeadLetter.all()
        assert letter.update_id == update["update_id"]
        assert letter.reason.startswith("a handler failed")
        assert "1234567" in letter.body


@pytest.mark.parametrize("where", ["chat", "from"])
async def test_an_id_beyond_64_bits_is_kept_as_a_dead_letter_on_every_database(
    db: str, where: str
) -> None:
    async with running_stack(db, webhook_secret=SECRET) as stack:
        update = await said(stack, stack.players[0], "/roll 1d6")
        update["message"][where]["id"] = 2**70
        assert await post(stack, update) == 200
        (letter,) = await DeadLetter.all()
        assert "64-bit" in letter.reason and letter.update_id == update["update_id"]
        assert stack.api.messages(GROUP)[-1]["text"] == "/roll 1d6"  # nothing was answered


async def test_polling_keeps_an_unusable_update_as_a_dead_letter_and_moves_on(db: str) -> None:
    async with running_stack(db) as stack:  # no webhook: the worker polls
        stack.api._push_update(message="not a message")  # Telegram never sends this
        reply = await send_and_wait(stack, "/roll 1d6 after")
        assert "Total" in reply["text"]
        (letter,) = await DeadLetter.all()
        assert letter.reason.startswith("not a Telegram update")
        assert "not a message" in letter.body
        for _ in range(50):  # the offset moved past both: the server forgets them
            if not stack.api.pending_updates():
                break
            await asyncio.sleep(0.1)
        assert stack.api.pending_updates() == []


async def send_and_wait(stack: Stack, text: str) -> dict[str, Any]:
    await stack.api.send_text(stack.players[0], GROUP, text)
    return await stack.api.wait_for_message(
        GROUP, lambda m: "Total" in m.get("text", ""), timeout=10
    )
