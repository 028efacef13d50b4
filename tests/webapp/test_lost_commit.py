"""A Mini App edit whose COMMIT answer is lost tells the truth, and its retry applies once.

Real PostgreSQL behind a TCP proxy that drops what comes back for one COMMIT (the
server committed) or drops the COMMIT itself (the server rolls back as the
connection goes). The edit is ``momentum.gain`` through ``POST /api/c/<t>/edit``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import asyncpg
import pytest

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.db import close_database, open_database
from core.store.models import Member
from core.store.request_keys import NOT_CONFIRMED, NOT_SAVED, Pending, _committed
from core.store.sql import now
from tests.support.bot_api import serve_app
from tests.support.heavy import small_heavy
from tests.support.mini_app import start_game
from tests.support.pg_proxy import CommitSwallower
from tests.support.services import PostgresServer
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

pytestmark = [pytest.mark.db, pytest.mark.postgres_only]

BOT_TOKEN = "123456:lost-commit"
GROUP = ChatRef(-100987, "supergroup", "The Table")
GM = PlayerRef(701, "Gwen")
BO = PlayerRef(702, "Bo")


@dataclass
class Stack:
    origin: str
    token: str
    proxy: CommitSwallower

    async def gain(self, key: str | None) -> tuple[int, dict[str, Any], dict[str, str]]:
        user = {"id": BO.tg_id, "first_name": BO.first_name}
        init = make_init_data(BOT_TOKEN, user, int(time.time()) - 5, start_param=self.token)
        headers = {"Authorization": f"tma {init}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        async with (
            aiohttp.ClientSession() as http,
            http.post(
                f"{self.origin}/api/c/{self.token}/edit",
                headers=headers,
                json={"action": "momentum.gain", "payload": {}},
            ) as response,
        ):
            return response.status, await response.json(), dict(response.headers)


@pytest.fixture
async def stack(postgres_server: PostgresServer, database_url: str) -> AsyncIterator[Stack]:
    name = database_url.rsplit("/", 1)[1]
    async with CommitSwallower(postgres_server.port) as proxy:
        await open_database(proxy.url(name))
        try:
            locks = InProcessKeyedLock()
            campaigns = Campaigns(default_registry(), SeededRng(1), locks)
            play = Play(SeededRng(1), locks, time.time)
            token = await start_game(campaigns, play, "threat", GROUP, GM, BO)
            deps = WebDeps(
                play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=small_heavy()
            )
            async with serve_app(create_app(deps)) as origin:
                yield Stack(origin, token, proxy)
        finally:
            await close_database()


async def momentum() -> int:
    return int((await Member.get(player__tg_id=BO.tg_id, active=True)).sheet["momentum"])


async def test_a_saved_edit_whose_commit_answer_was_lost_is_reported_done_and_applied_once(
    stack: Stack,
) -> None:
    assert await momentum() == 2
    stack.proxy.arm()
    status, body, headers = await stack.gain("press-0001")
    assert stack.proxy.count == 1  # the COMMIT's answer really was lost
    assert status == 200 and body["ok"] is True, body  # the truth: it was saved
    assert "Idempotent-Replayed" not in headers
    assert await momentum() == 3
    status, again, headers = await stack.gain("press-0001")  # the page retries anyway
    assert status == 200 and again == body and headers["Idempotent-Replayed"] == "true"
    assert await momentum() == 3  # not 4


async def test_an_edit_whose_commit_never_arrived_says_try_again_and_the_retry_applies_once(
    stack: Stack,
) -> None:
    stack.proxy.arm(forward_commit=False)
    status, body, headers = await stack.gain("press-0002")
    assert stack.proxy.count == 1
    assert (status, body) == (503, {"error": NOT_SAVED})  # the truth: not saved
    assert int(headers["Retry-After"]) > 0
    assert await momentum() == 2
    status, body, headers = await stack.gain("press-0002")  # the same action, again
    assert status == 200 and body["ok"] is True and "Idempotent-Replayed" not in headers
    assert await momentum() == 3
    status, _, headers = await stack.gain("press-0002")
    assert status == 200 and headers["Idempotent-Replayed"] == "true"
    assert await momentum() == 3


async def test_a_page_without_a_key_is_told_to_look_before_trying_again(stack: Stack) -> None:
    stack.proxy.arm()
    status, body, headers = await stack.gain(None)
    assert stack.proxy.count == 1
    assert (status, body) == (503, {"error": NOT_CONFIRMED})  # never a bare 500
    assert "Retry-After" in headers
    assert await momentum() == 3  # it was saved: the page is told to reload and look


@pytest.mark.parametrize("outcome", ["COMMIT", "ROLLBACK"])
async def test_the_question_waits_for_a_transaction_still_holding_the_key(
    db: str, outcome: str
) -> None:
    """The answer about a lost commit is the truth, even while that commit is still on
    its way: the question waits for the transaction that holds the key."""
    pending = Pending(BO.tg_id, "held-0001", "f" * 64)
    other = await asyncpg.connect(db)
    try:
        await other.execute("BEGIN")
        await other.execute(
            "INSERT INTO request_key (user_tg_id, idem_key, fingerprint, created_at)"
            " VALUES ($1, $2, $3, $4)",
            pending.user_tg_id,
            pending.key,
            pending.fingerprint,
            now(),
        )
        asked = asyncio.create_task(_committed(pending))
        await asyncio.sleep(0.5)
        assert not asked.done()  # it waits rather than guess
        await other.execute(outcome)
        assert await asyncio.wait_for(asked, 5) is (outcome == "COMMIT")
    finally:
        await other.close()
