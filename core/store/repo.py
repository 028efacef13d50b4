"""Reading and writing rows; database failures become :class:`~core.runtime.errors.TryAgain`."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tortoise.exceptions import DBConnectionError, IntegrityError, OperationalError
from tortoise.transactions import in_transaction

from core.rules.errors import Malformed
from core.rules.text import TOO_LONG, Unstorable
from core.runtime.errors import CommitUnknown, TryAgain
from core.store.models import Chat, ChatKind, Player, ProcessedUpdate
from core.store.sql import fetch, now
from core.words.i18n import pick


async def update_done(update_id: int | None) -> bool:
    """Whether the Telegram update ``update_id`` was already committed (a redelivery)."""
    return update_id is not None and await ProcessedUpdate.exists(update_id=update_id)


CLAIM = (
    "INSERT INTO processed_update (update_id, created_at) VALUES (?, ?)"
    " ON CONFLICT (update_id) DO NOTHING RETURNING id"
)


log = logging.getLogger(__name__)
RESOLVE_SECONDS = 5.0  # how long a lost commit's outcome is looked for


async def committed(update_id: int) -> bool:
    """Whether update ``update_id``'s claim committed, asked on a fresh connection.

    Raises:
        CommitUnknown: the store did not answer within :data:`RESOLVE_SECONDS`.
    """
    deadline = time.monotonic() + RESOLVE_SECONDS
    while True:
        try:
            return await update_done(update_id)
        except (DBConnectionError, OperationalError, ConnectionError, OSError):
            if time.monotonic() > deadline:
                raise CommitUnknown(
                    "The game store is unreachable. Try again in a moment."
                ) from None
            await asyncio.sleep(0.2)


def refused_value(error: BaseException) -> Malformed | None:
    """The bad input a store's error means, None when it is not about a value (an outage).

    PostgreSQL refuses a value with a data exception (SQLSTATE class 22: a text longer
    than its column, a NUL); its driver refuses a text it cannot encode (half a
    character) before sending it. The edges check what comes in (core/rules/text.py):
    this is for what slipped past them, still bad input, never "unreachable".
    """
    for found in (error, error.__cause__, *(error.args[:1] if error.args else ())):
        sqlstate = getattr(found, "sqlstate", None)
        if isinstance(sqlstate, str) and sqlstate.startswith("22"):
            return Malformed(TOO_LONG) if sqlstate == "22001" else Unstorable()
        if isinstance(found, UnicodeError) or "invalid input for query argument" in str(found):
            return Unstorable()
    return None


@asynccontextmanager
async def guarded() -> AsyncIterator[None]:
    """Turn a database outage into a friendly 'try again', and a value the store refused
    into a malformed input (:func:`refused_value`)."""
    try:
        yield
    except (DBConnectionError, OperationalError, ConnectionError, OSError, ValueError) as error:
        refused = refused_value(error)
        if refused is not None:
            log.info("The store refused a value: %s", error)
            raise refused from error
        if isinstance(error, ValueError):
            raise
        raise TryAgain("The game store is unreachable. Try again in a moment.") from error


def _player_values(
    first_name: str, last_name: str, username: str, language_code: str | None
) -> dict[str, str]:
    values = {
        "first_name": first_name[:128],
        "last_name": last_name[:128],
        "username": username[:64],
    }
    if language_code is not None:
        values["language"] = pick(language_code)
    return values


async def upsert_player(
    tg_id: int,
    first_name: str,
    last_name: str = "",
    username: str = "",
    language_code: str | None = None,
) -> Player:
    """Create or refresh a player row (safe when two updates race).

    ``language_code`` is what their Telegram app says (None: not told, keep what we know).
    """
    values = _player_values(first_name, last_name, username, language_code)
    player = await Player.get_or_none(tg_id=tg_id)
    if player is None:
        try:
            async with in_transaction():  # a savepoint: a lost race rolls back only this
                return await Player.create(tg_id=tg_id, **values)  # type: ignore[arg-type]
        except IntegrityError:
            player = await Player.get(tg_id=tg_id)
    if any(getattr(player, k) != v for k, v in values.items()):
        await Player.filter(id=player.id).update(**values)
        for key, value in values.items():
            setattr(player, key, value)
    return player


_PLAYER = "SELECT id, first_name, last_name, username, language FROM player WHERE tg_id = ?"
_CHAT = "SELECT id, kind, title FROM chat WHERE tg_id = ?"


async def player_id(
    tg_id: int,
    first_name: str,
    last_name: str = "",
    username: str = "",
    language_code: str | None = None,
) -> int:
    """The row id of a player, created or refreshed as :func:`upsert_player` does it;
    one statement when the row is there and up to date (nearly every update), two
    otherwise."""
    values = _player_values(first_name, last_name, username, language_code)
    rows = await fetch(_PLAYER, (tg_id,))
    if rows and all(rows[0][k] == v for k, v in values.items()):
        return int(rows[0]["id"])
    return await _upserted_player(tg_id, values)


async def _upserted_player(tg_id: int, values: dict[str, str]) -> int:
    """One statement: the player's row created, or refreshed with ``values`` (a language
    not told keeps the one known); its id. Safe when two updates race."""
    names = list(values)
    moment = now()
    rows = await fetch(
        f"INSERT INTO player (tg_id, {', '.join(names)}, started_private, created_at,"
        f" updated_at) VALUES ({', '.join('?' * (len(names) + 4))})"
        f" ON CONFLICT (tg_id) DO UPDATE SET "
        + ", ".join(f"{name} = excluded.{name}" for name in [*names, "updated_at"])
        + " RETURNING id",
        (tg_id, *values.values(), False, moment, moment),
    )
    return int(rows[0]["id"])


async def chat_id(tg_id: int, kind: str, title: str = "") -> int:
    """The row id of a chat, created or refreshed as :func:`upsert_chat` does it;
    one statement when the row is there and up to date (nearly every update), two
    otherwise."""
    chat_kind = ChatKind(kind)
    rows = await fetch(_CHAT, (tg_id,))
    if rows and rows[0]["kind"] == chat_kind.value and rows[0]["title"] == title[:255]:
        return int(rows[0]["id"])
    values = (tg_id, chat_kind.value, title[:255], secrets.token_urlsafe(16), now())
    found = await fetch(_UPSERT_CHAT, values)
    return int(found[0]["id"])


# a new chat gets an unguessable Mini App token; a known one keeps its own
_UPSERT_CHAT = (
    "INSERT INTO chat (tg_id, kind, title, app_token, created_at) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (tg_id) DO UPDATE SET kind = excluded.kind, title = excluded.title"
    " RETURNING id"
)


async def upsert_chat(tg_id: int, kind: str, title: str = "") -> Chat:
    """Create or refresh a chat row, giving it an unguessable Mini App token."""
    chat_kind = ChatKind(kind)
    chat = await Chat.get_or_none(tg_id=tg_id)
    if chat is None:
        try:
            async with in_transaction():
                return await Chat.create(
                    tg_id=tg_id,
                    kind=chat_kind,
                    title=title[:255],
                    app_token=secrets.token_urlsafe(16),
                )
        except IntegrityError:
            chat = await Chat.get(tg_id=tg_id)
    if chat.title != title[:255] or chat.kind != chat_kind:
        await Chat.filter(id=chat.id).update(title=title[:255], kind=chat_kind)
        chat.title, chat.kind = title[:255], chat_kind
    return chat
