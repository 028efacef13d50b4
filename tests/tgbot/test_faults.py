"""Faults: Redis or PostgreSQL going away and coming back, seen from the chat."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.store.models import Campaign, RollRecord
from tests.support.counter_system import counter_registry
from tests.support.services import PostgresServer, RedisServer, running_postgres, start_redis
from tests.support.stack import GROUP, Stack, running_stack

pytestmark = [pytest.mark.e2e]


async def say(stack: Stack, text: str) -> str:
    await stack.api.send_text(stack.players[0], GROUP, text)
    return str((await stack.api.wait_for_message(GROUP, timeout=20))["text"])


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = start_redis(tmp_path)
    yield server
    if server.process.poll() is None:
        server.stop()


@pytest.mark.redis
@pytest.mark.db
async def test_redis_going_away_asks_to_try_again_and_service_comes_back(
    db: str, own_redis: RedisServer, tmp_path: Path
) -> None:
    env = {"REDIS_URL": own_redis.url}
    async with running_stack(db, registry=counter_registry(), env=env) as stack:
        own_redis.stop()
        reply = await say(stack, "/newgame counter")
        assert "Try again" in reply
        assert await Campaign.all().count() == 0
        restarted = start_redis(tmp_path, port=own_redis.port)
        try:
            assert "started a game" in await say(stack, "/newgame counter")
        finally:
            restarted.stop()


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    with running_postgres(durable=True) as server:
        yield server


@pytest.mark.db
@pytest.mark.postgres_only
async def test_postgres_going_away_asks_to_try_again_and_service_comes_back(
    own_postgres: PostgresServer,
) -> None:
    import asyncpg

    name = f"f_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(own_postgres.url())
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    async with running_stack(own_postgres.url(name)) as stack:
        assert "Total" in await say(stack, "/roll 2d6")
        own_postgres.stop()
        assert "Try again" in await say(stack, "/roll 2d6")
        own_postgres.start()
        for _ in range(20):  # players try again a moment later; the pool reconnects
            if "Total" in await say(stack, "/roll 2d6"):
                break
            await asyncio.sleep(0.5)
        else:
            pytest.fail("the bot did not recover after PostgreSQL came back")
        assert await RollRecord.all().count() == 2
