"""The SQL statements of one Mini App edit, as the database saw them.

The whole application runs in this process (the bot, the Mini App and the outbox, as
in a worker) against the local Bot API server: a threat-dice game with a roll panel
open in its group, and a player gaining Momentum on their sheet in the Mini App, with
an idempotency key, as the page sends it. The group's panel shows the change too (a
row in the outbox, sent after the commit). One edit first (the process's first
reads), then the edit counted: every statement the database ran while the request
was handled, from its own log (:mod:`tests.support.statements`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

from core.campaigns import Campaigns
from core.store.db import close_database, open_database
from tests.support.mini_app import init_for
from tests.support.services import running_postgres
from tests.support.stack import GROUP, running_stack
from tests.support.statements import Seen, logging_statements, statements_run
from tgbot.sandbox.fake_api import default_cast

ALICE, BO = 1001, 1002
MOST = 13  # statements (see tests/webapp/test_edit_statements.py for what they are)
FULL_READ = "c.state AS c_state"  # the campaign read with its state and members
# the outbox's sweeper looks for unsent rows on its own clock, whatever else runs
SWEEP = "SELECT id FROM outbox WHERE sent = "


def of_the_edit(seen: Seen) -> list[str]:
    """The statements the edit ran: no transaction control, no sweep."""
    return [s for s in seen.work if not s.startswith(SWEEP)]


async def edit_statements(database_url: str, server: Any = None, database: str = "") -> list[str]:
    """Every statement one Mini App edit ran (see the module); ``server`` and
    ``database`` on PostgreSQL (:func:`tests.support.statements.statements_run`)."""
    async with running_stack(database_url, players=default_cast()) as stack:
        for user, text in ((ALICE, "/newgame threat"), (BO, "/join"), (BO, "/roll 3d2t")):
            await stack.api.send_text(user, GROUP, text)
            await stack.api.wait_for_message(GROUP, timeout=10)
        assert stack.runtime.application is not None
        campaigns: Campaigns = stack.runtime.application.deps.campaigns
        token = (await campaigns.require_current(GROUP)).app_token
        headers = {"Authorization": f"tma {init_for(stack, BO, token)}"}
        async with aiohttp.ClientSession() as http:

            async def gain(key: str) -> None:
                async with http.post(
                    f"{stack.origin}/api/c/{token}/edit",
                    headers={**headers, "Idempotency-Key": key},
                    json={"action": "momentum.gain", "payload": {}},
                ) as response:
                    assert response.status == 200, await response.text()

            await gain("first-edit")
            async with statements_run(server, database) as seen:
                await gain("counted-edit")  # its messages are sent before it answers
    return of_the_edit(seen)


async def bench_edits(
    workdir: Path, figure: Callable[[str, str, str, str, bool | None], Any], db: str = "sqlite"
) -> list[Any]:
    """The statements of one Mini App edit on SQLite or PostgreSQL, as a figure."""
    if db == "sqlite":
        url = f"sqlite://{workdir / 'edits.sqlite3'}"
        await open_database(url, apply_migrations=True)
        try:
            seen = await edit_statements(url)
        finally:
            await close_database()
    else:
        with running_postgres() as pg:
            conn = await asyncpg.connect(pg.url())
            await conn.execute('CREATE DATABASE "bench_edits"')
            await conn.close()
            url = pg.url("bench_edits")
            await open_database(url, apply_migrations=True)
            try:
                async with logging_statements(pg):
                    seen = await edit_statements(url, pg, "bench_edits")
            finally:
                await close_database()
    reads = sum(FULL_READ in s for s in seen)
    label = {"sqlite": "SQLite", "postgres": "PostgreSQL"}[db]
    return [
        figure(
            "Mini App",
            f"{label}: statements of one sheet edit (its campaign read)",
            f"{len(seen)} ({reads}x)",
            f"<= {MOST} (1x)",
            len(seen) <= MOST and reads == 1,
        )
    ]
