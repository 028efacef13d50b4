"""Shared fixtures: real servers, a fresh database per test, and the CI skip guard.

The suite runs once per database backend: SQLite by default, PostgreSQL with
STONETABLE_TEST_DB=postgres (``make test`` runs the ``db`` tests both ways, but for
the ``browser`` and ``backend_neutral`` ones, which run once).
Every test still gets a database of its own; the migrations run once per pass,
into a template that each ``db`` test's database is copied from.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.support.services import (
    IN_CI,
    PostgresServer,
    RedisServer,
    running_postgres,
    start_redis,
)

BACKEND = os.environ.get("STONETABLE_TEST_DB", "sqlite")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that talk to PostgreSQL through the ORM run in the PostgreSQL pass only.

    The ORM keeps one backend per process, so they are deselected (not skipped) in
    the SQLite pass; ``make test`` runs both passes.
    """
    if BACKEND == "postgres":
        return
    keep = [item for item in items if item.get_closest_marker("postgres_only") is None]
    dropped = [item for item in items if item.get_closest_marker("postgres_only") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """In CI nothing may be skipped: a skip becomes a failure."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"Skipped in CI, which is not allowed: {report.longrepr}"


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = start_redis(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    with running_postgres() as server:
        yield server


async def _create_pg_database(server: PostgresServer, template: str | None = None) -> str:
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:16]}"
    like = f' TEMPLATE "{template}"' if template else ""
    conn = await asyncpg.connect(server.url("postgres"))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"{like}')
    finally:
        await conn.close()
    return name


async def _drop_pg_database(server: PostgresServer, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server.url("postgres"))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def _on_own_loop(work: Coroutine[None, None, object]) -> None:
    """Run ``work`` to the end on an event loop of its own (the test's loop is running)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, work).result()


async def _create_template(server: PostgresServer, name: str) -> None:
    import asyncpg

    from core.store.db import migrate_database

    conn = await asyncpg.connect(server.url("postgres"))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    await migrate_database(server.url(name))


@pytest.fixture(scope="session")
def postgres_template(postgres_server: PostgresServer) -> str:
    """The name of a PostgreSQL database migrated once for the whole run, left closed:
    nothing ever writes to it; ``CREATE DATABASE ... TEMPLATE`` copies it."""
    name = f"template_{uuid.uuid4().hex[:16]}"
    _on_own_loop(_create_template(postgres_server, name))
    return name


@pytest.fixture(scope="session")
def migrated_template(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """A database migrated once for the whole pass on the backend under test (a SQLite
    file, or a PostgreSQL database name), left closed: nothing ever writes to it."""
    from core.store.db import migrate_database

    if BACKEND == "postgres":
        return str(request.getfixturevalue("postgres_template"))
    path = tmp_path_factory.mktemp("template") / "stonetable.sqlite3"
    _on_own_loop(migrate_database(f"sqlite://{path}"))
    assert not path.with_name(path.name + "-wal").exists()  # all of it is in the one file
    return str(path)


@pytest.fixture
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A database of this test's own on the backend under test: empty (not yet migrated),
    or, when the test uses ``db``, a copy of the migrated template (which ``db`` would
    reach anyway before the test starts: its migrations then find nothing to do)."""
    template = (
        request.getfixturevalue("migrated_template") if "db" in request.fixturenames else None
    )
    if BACKEND == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        name = await _create_pg_database(server, template)
        yield server.url(name)
        await _drop_pg_database(server, name)
    else:
        path = tmp_path / "stonetable.sqlite3"
        if template:
            shutil.copyfile(template, path)
        yield f"sqlite://{path}"


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[str]:
    """A migrated database with the ORM initialised for the test."""
    from core.store.db import close_database, open_database

    await open_database(database_url)
    yield database_url
    await close_database()
