"""The PostgreSQL engine: tortoise's asyncpg client without a reset query per release.

asyncpg's pool resets every connection it gets back with a round trip
(``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``). The
application sets no session state, listens to nothing and takes no advisory
locks or cursors on pooled connections (a worker's liveness lock has a connection
of its own, :mod:`core.store.liveness`), so that round trip only slows every
statement down. asyncpg
still rolls back a transaction left open on a released connection.
"""

from __future__ import annotations

from typing import Any

import asyncpg
from tortoise.backends.asyncpg.client import AsyncpgDBClient


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """Called on release after asyncpg's own clean-up (open transaction rolled back)."""


class AsyncpgClient(AsyncpgDBClient):
    async def create_pool(self, **kwargs: Any) -> asyncpg.Pool:
        return await asyncpg.create_pool(None, reset=_nothing_to_reset, **kwargs)


client_class = AsyncpgClient
