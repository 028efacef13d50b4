"""The SQL statements a piece of work runs, as the database itself saw them.

On SQLite, the trace callback of the one connection the ORM holds (every statement
the engine runs on it, as run, including ``BEGIN`` and ``COMMIT``). On PostgreSQL,
the server's own log: the server is set to ``log_statement = 'all'``
(:func:`logging_statements`), and the lines it wrote for the database while the work
ran are read back from its log file.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tortoise import connections

TRANSACTION = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "START TRANSACTION")


@dataclass
class Seen:
    """The statements seen, in order; ``work`` leaves out transaction control."""

    all: list[str] = field(default_factory=list)

    @property
    def work(self) -> list[str]:
        return [s for s in self.all if not s.lstrip().upper().startswith(TRANSACTION)]


@asynccontextmanager
async def logging_statements(server: Any) -> AsyncIterator[None]:
    """Have a PostgreSQL server log every statement, each line marked with its database
    (a reload: sessions already open log too); as it was after."""
    import asyncpg

    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute("ALTER SYSTEM SET log_statement = 'all'")
        await conn.execute("ALTER SYSTEM SET log_line_prefix = '[%d] '")
        await conn.execute("SELECT pg_reload_conf()")
        await asyncio.sleep(0.5)  # every backend takes the new settings at its next command
        yield
    finally:
        await conn.execute("ALTER SYSTEM RESET log_statement")
        await conn.execute("ALTER SYSTEM RESET log_line_prefix")
        await conn.execute("SELECT pg_reload_conf()")
        await conn.close()


@asynccontextmanager
async def statements_run(server: Any = None, database: str = "") -> AsyncIterator[Seen]:
    """The statements run on the ORM's database inside the block (on PostgreSQL:
    ``server``, inside :func:`logging_statements`, and the ``database``'s name)."""
    seen = Seen()
    client: Any = connections.get("default")
    if client.capabilities.dialect == "sqlite":
        connection = client._connection  # the aiosqlite connection the ORM holds
        await connection.set_trace_callback(seen.all.append)
        try:
            yield seen
        finally:
            await connection.set_trace_callback(None)
        return
    log = Path(server.directory) / "log"
    start = log.stat().st_size
    yield seen
    await asyncio.sleep(0.3)  # the server's logger writes its lines on its own time
    with log.open("rb") as lines:
        lines.seek(start)
        text = lines.read().decode(errors="replace")
    prefix = f"[{database}] "
    entries: list[str] = []
    for line in text.splitlines():
        if line.startswith("\t") and entries:  # a statement's next line
            entries[-1] += "\n" + line[1:]
        else:
            entries.append(line)
    for entry in entries:
        if not entry.startswith(prefix):
            continue
        entry = entry.removeprefix(prefix)
        if entry.startswith("LOG:  statement: "):
            seen.all.append(entry.removeprefix("LOG:  statement: "))
        elif entry.startswith("LOG:  execute "):  # asyncpg's extended protocol
            seen.all.append(entry.partition(": ")[2].partition(": ")[2])
