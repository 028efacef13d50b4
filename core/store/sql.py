"""Hand-written SQL for the hot paths, portable between SQLite and PostgreSQL.

Statements are written once with ``?`` placeholders; :func:`native` turns them
into ``$1, $2, ...`` for PostgreSQL (asyncpg). They run on the ORM's connection,
so inside ``in_transaction()`` they are part of that transaction. JSON columns
are text on SQLite and jsonb on PostgreSQL; both arrive as JSON text.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient

_native: dict[tuple[str, str], str] = {}

Statement = tuple[str, Sequence[Any]]  # a query and its values, for :func:`fetch`

Rows = list[dict[str, Any]]
T = TypeVar("T")
Work = Generator[Statement, Rows, T]
"""A step as statements: it yields each one and is sent its rows back, and returns what
it found. Its use case runs them through :func:`ran`, the one runner (the step's frame
is suspended, not a layer, while the database works)."""

# The same compact JSON the ORM writes, so rows look alike whoever wrote them.
dump_json = partial(json.dumps, separators=(",", ":"))


def native(dialect: str, query: str) -> str:
    """``query`` with the placeholders of ``dialect`` (``?`` or ``$n``)."""
    key = (dialect, query)
    found = _native.get(key)
    if found is None:
        if dialect == "postgres":
            parts = query.split("?")
            found = parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))
        else:
            found = query
        _native[key] = found
    return found


async def fetch(query: str, values: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Rows of a SELECT (or of ``INSERT``/``UPDATE ... RETURNING``) by column name (give
    each a unique one); any other statement too (no rows). The one runner of the press
    path: its steps build statements (:data:`Statement`), the use case runs them here."""
    connection: BaseDBAsyncClient = connections.get("default")
    sql = native(connection.capabilities.dialect, query)
    return await connection.execute_query_dict(sql, list(values))


async def ran(work: Work[T]) -> T:
    """Run a step's statements (:data:`Work`) in turn through :func:`fetch`; what it returns."""
    try:
        statement = next(work)
        while True:
            statement = work.send(await fetch(*statement))
    except StopIteration as done:
        found: T = done.value
        return found


async def execute(query: str, values: Sequence[Any] = ()) -> int:
    """Run an UPDATE or DELETE; the number of rows it changed."""
    connection: BaseDBAsyncClient = connections.get("default")
    sql = native(connection.capabilities.dialect, query)
    changed, _ = await connection.execute_query(sql, list(values))
    return int(changed)


def load_json(value: Any) -> Any:
    """A JSON column's value (text from the driver, or already decoded)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def now() -> datetime:
    return datetime.now(UTC)
