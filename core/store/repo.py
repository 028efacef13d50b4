"""Reading and writing rows; database failures become :class:`~core.errors.TryAgain`."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tortoise.exceptions import DBConnectionError, IntegrityError, OperationalError
from tortoise.transactions import in_transaction

from core.errors import AlreadyHandled, CommitUnknown, TryAgain
from core.i18n import pick
from core.outbox import forget_after, mark, pause_point
from core.store.models import Chat, ChatKind, Player, ProcessedUpdate
from core.store.sql import fetch, now


async def update_done(update_id: int | None) -> bool:
    """Whether the Telegram update ``update_id`` was already committed (a redelivery)."""
    return update_id is not None and await ProcessedUpdate.exists(update_id=update_id)


CLAIM = (
    "INSERT INTO processed_update (update_id, created_at) VALUES (?, ?)"
    " ON CONFLICT (update_id) DO NOTHING RETURNING id"
)


async def claim_update(update_id: int | None) -> None:
    """Inside a transaction: mark Telegram update ``update_id`` handled when it commits.

    Raises:
        AlreadyHandled: a copy of this update was committed before.
    """
    if update_id is not None:
        # A copy claimed by a transaction still running waits for it, then finds the row.
        claimed = await fetch(CLAIM, (update_id, now()))
        if not claimed:
            raise AlreadyHandled()


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


@asynccontextmanager
async def committing(update_id: int | None) -> AsyncIterator[None]:
    """One transaction whose commit, when its connection fails, is resolved, not raised.

    When the change's body ran and the commit (or its answer) was lost, the update's
    claim tells the outcome: committed, and the caller goes on as if the commit had
    answered (the outbox rows are there to send); not committed, and
    :class:`~core.errors.TryAgain` (nothing changed). With no update id to look up:
    :class:`~core.errors.CommitUnknown`.
    """
    ran = False
    written = mark()
    try:
        async with in_transaction():
            yield
            await pause_point("before_commit")
            ran = True
    except BaseException as error:
        if not ran or not isinstance(error, Exception):
            forget_after(written)  # rolled back: the outbox rows it wrote are gone too
            raise
        log.warning("The commit of a change failed (%s); finding out whether it stood", error)
        if update_id is None:
            forget_after(written)
            raise CommitUnknown("The game store is unreachable. Try again in a moment.") from error
        if not await committed(update_id):
            forget_after(written)
            raise TryAgain("The game store is unreachable. Try again in a moment.") from error
        log.warning("The change of update %s was committed; going on", update_id)
    await pause_point("after_commit")


@asynccontextmanager
async def atomic(update_id: int | None = None) -> AsyncIterator[None]:
    """One transaction that also claims Telegram update ``update_id`` (None: no update),
    so a redelivered copy changes nothing.

    For writes that rewrite nothing they read (a roll's record, a held note); a
    change to shared state goes through :func:`core.store.unit.saving` instead.

    Raises:
        AlreadyHandled: this update's changes were committed before.
    """
    async with committing(update_id):
        await claim_update(update_id)
        yield


@asynccontextmanager
async def guarded() -> AsyncIterator[None]:
    """Turn a database outage into a friendly 'try again'."""
    try:
        yield
    except (DBConnectionError, OperationalError, ConnectionError, OSError) as error:
        raise TryAgain("The game store is unreachable. Try again in a moment.") from error


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
    values = {
        "first_name": first_name[:128],
        "last_name": last_name[:128],
        "username": username[:64],
    }
    if language_code is not None:
        values["language"] = pick(language_code)
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
