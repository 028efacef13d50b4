"""The PostgreSQL engine: no reset round trip per released connection, nothing left open."""

from __future__ import annotations

import pytest
from tortoise import connections

from core.store.db import tortoise_config
from core.store.pg import AsyncpgClient


def test_postgres_urls_use_our_engine_and_sqlite_urls_stay_as_they_are() -> None:
    config = tortoise_config("postgres://u:p@db.example:5433/stonetable")
    default = config["connections"]["default"]
    assert default["engine"] == "core.store.pg"
    assert default["credentials"]["host"] == "db.example"
    assert default["credentials"]["port"] == 5433
    assert default["credentials"]["database"] == "stonetable"
    sqlite = tortoise_config("sqlite:///tmp/x.sqlite3")["connections"]["default"]
    assert sqlite == "sqlite:///tmp/x.sqlite3?synchronous=NORMAL"


@pytest.mark.db
@pytest.mark.postgres_only
async def test_a_released_connection_skips_the_reset_query_but_not_the_rollback(
    db: str,
) -> None:
    client = connections.get("default")
    assert isinstance(client, AsyncpgClient)
    await client.execute_query("SELECT 1")  # the pool opens on first use
    pool = client._pool
    assert pool is not None
    async with pool.acquire() as connection:
        sent: list[str] = []
        connection.add_query_logger(lambda record: sent.append(record.query))
        pid = connection.get_server_pid()
        await connection.execute("BEGIN")
        await connection.execute(
            "INSERT INTO processed_update (update_id, created_at) VALUES (424242, now())"
        )
    # released with a transaction open: rolled back, and no other statement sent
    assert [q for q in sent if "pg_advisory_unlock_all" in q or "RESET ALL" in q] == []
    assert "ROLLBACK" in sent
    async with pool.acquire() as connection:
        assert connection.get_server_pid() == pid  # the same connection, reused
        assert not connection.is_in_transaction()
        found = await connection.fetchval(
            "SELECT count(*) FROM processed_update WHERE update_id = 424242"
        )
        assert found == 0
