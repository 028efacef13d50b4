"""Database lifecycle: configuration, migrating on start, and shutdown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tortoise import Tortoise, connections
from tortoise.backends.base.config_generator import expand_db_url
from tortoise.migrations.api import migrate

from core.store import liveness
from core.store.outbox import WORKER

MODELS = ["core.store.models"]


def _tuned(database_url: str) -> str:
    """SQLite in WAL mode with normal syncing: safe across crashes, much faster commits."""
    if database_url.startswith("sqlite://") and "synchronous=" not in database_url:
        joiner = "&" if "?" in database_url else "?"
        return f"{database_url}{joiner}synchronous=NORMAL"
    return database_url


def _connection(database_url: str) -> str | dict[str, Any]:
    """SQLite by URL; PostgreSQL through our engine (no reset query per pool release)."""
    if database_url.startswith("postgres://"):
        config = expand_db_url(database_url)
        config["engine"] = "core.store.pg"
        return config
    return _tuned(database_url)


def tortoise_config(database_url: str) -> dict[str, Any]:
    """The tortoise configuration for one database URL."""
    return {
        "connections": {"default": _connection(database_url)},
        "apps": {
            "models": {
                "models": MODELS,
                "default_connection": "default",
                "migrations": "migrations",
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


def _ensure_sqlite_folder(database_url: str) -> None:
    if database_url.startswith("sqlite://"):
        path = database_url.removeprefix("sqlite://").split("?", 1)[0]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)


async def migrate_database(database_url: str) -> None:
    """Apply every pending migration, then close the connections it opened."""
    _ensure_sqlite_folder(database_url)
    await migrate(config=tortoise_config(database_url))
    await connections.close_all()


async def open_database(database_url: str, *, apply_migrations: bool = True) -> None:
    """Migrate (optionally) and initialise the ORM for the application."""
    if apply_migrations:
        await migrate_database(database_url)
    _ensure_sqlite_folder(database_url)
    await Tortoise.init(config=tortoise_config(database_url))
    await liveness.hold(database_url, WORKER)  # PostgreSQL: this worker is alive


async def close_database() -> None:
    await liveness.let_go()
    liveness.forget()
    await connections.close_all()
