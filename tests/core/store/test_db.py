"""Database configuration: SQLite tuned for WAL, PostgreSQL pooled without a reset
round trip, and pooled connections still handed back clean."""

from __future__ import annotations

import pytest
from tortoise import connections
from tortoise.transactions import in_transaction

from core.store.db import tortoise_config
from core.store.models import Player


def test_sqlite_syncs_normally_and_postgresql_uses_the_pool_without_reset() -> None:
    sqlite = tortoise_config("sqlite:///tmp/x.sqlite3")["connections"]["default"]
    assert sqlite == "sqlite:///tmp/x.sqlite3?synchronous=NORMAL"
    postgres = tortoise_config("postgres://app:pw@db:5432/stonetable")["connections"]["default"]
    assert postgres["engine"] == "core.store.pg"
    credentials = postgres["credentials"]
    assert (credentials["host"], credentials["database"], credentials["user"]) == (
        "db",
        "stonetable",
        "app",
    )


@pytest.mark.db
async def test_a_failed_transaction_leaves_nothing_behind(db: str) -> None:
    with pytest.raises(RuntimeError):
        async with in_transaction():
            await Player.create(tg_id=77, first_name="Gone")
            raise RuntimeError
    for _ in range(3):  # whichever pooled connection answers
        assert not await Player.exists(tg_id=77)


@pytest.mark.db
@pytest.mark.postgres_only
async def test_a_connection_returned_mid_transaction_is_rolled_back(db: str) -> None:
    client = connections.get("default")
    async with client.acquire_connection() as connection:
        await connection.execute("BEGIN")
        await connection.execute(
            "INSERT INTO player (tg_id, first_name, last_name, username, started_private,"
            " created_at, updated_at) VALUES (78, 'Half', '', '', false, now(), now())"
        )
    async with client.acquire_connection() as connection:
        assert not await connection.fetchval("SELECT count(*) FROM player WHERE tg_id = 78")
        assert not connection.is_in_transaction()
        assert await connection.fetchval("SELECT txid_current_if_assigned()") is None
    assert not await Player.exists(tg_id=78)
