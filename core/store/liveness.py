"""Which workers are alive, on PostgreSQL, so a dead one's work is taken over at once.

Each worker holds, for as long as it runs, a session advisory lock named by its id
(:data:`core.store.outbox.WORKER`) on a connection of its own. When its process dies,
the kernel closes that connection, PostgreSQL ends the session and the lock goes with
it: another worker that finds rows still leased to it (``claimed_by``) sees in
``pg_locks`` that nobody holds its lock and takes the rows over without waiting the
lease out. A worker that is merely slow still holds its lock, so only its lease
decides. SQLite serves one machine: there the lease alone decides.
"""

from __future__ import annotations

import logging
from typing import Any

from tortoise.backends.base.config_generator import expand_db_url

from core.store.sql import fetch

log = logging.getLogger(__name__)

NAMESPACE = 0x5354  # the advisory locks' first key: "ST"
_HELD: dict[str, Any] = {}  # the connection that holds this worker's lock, and its database

_ALIVE = (
    "SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND classid = ? AND objsubid = 2"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


def key_of(holder: str) -> int:
    """The advisory lock's second key for a worker id (its first 8 hex digits)."""
    return int(holder[:8], 16) & 0x7FFFFFFF


async def hold(database_url: str, worker: str) -> None:
    """Hold ``worker``'s lock on a connection of its own (PostgreSQL; nothing on SQLite)."""
    if _HELD.get("url") == database_url and watching():
        return
    await let_go()
    if not database_url.startswith("postgres://"):
        forget()
        return
    import asyncpg

    credentials = expand_db_url(database_url)["credentials"]
    connection = await asyncpg.connect(
        host=credentials["host"],
        port=credentials["port"],
        user=credentials["user"],
        password=credentials.get("password"),
        database=credentials["database"],
    )
    await connection.execute("SELECT pg_advisory_lock($1, $2)", NAMESPACE, key_of(worker))
    _HELD.update(conn=connection, url=database_url, worker=worker)


async def keep() -> None:
    """Hold the lock again when its connection was lost (the database restarted): called
    by every sweep. Until then the others may take over this worker's rows early."""
    url, worker = _HELD.get("url"), _HELD.get("worker")
    if url is not None and worker is not None and not watching():
        try:
            await hold(url, worker)
        except Exception as error:  # the database still away: next sweep
            log.warning("Could not hold this worker's lock again: %s", error)


async def let_go() -> None:
    """Close the connection (the lock ends with it); :func:`keep` holds it again."""
    connection = _HELD.pop("conn", None)
    if connection is not None:
        await connection.close()


def forget() -> None:
    """This worker stops (:func:`keep` holds nothing again)."""
    _HELD.clear()


def watching() -> bool:
    """Whether this worker takes part (it holds its own lock: PostgreSQL)."""
    connection = _HELD.get("conn")
    return connection is not None and not connection.is_closed()


async def dead(holders: set[str]) -> set[str]:
    """Those of ``holders`` (worker ids, or ids that start with one) whose lock nobody
    holds: their workers are gone. Empty when this worker does not take part."""
    if not holders or not watching():
        return set()
    alive = {int(row["objid"]) for row in await fetch(_ALIVE, (NAMESPACE,))}
    return {holder for holder in holders if key_of(holder) not in alive}
