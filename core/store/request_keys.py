"""Idempotency keys of Mini App changes: a retried request applies once.

The page makes one key per user action and sends it with every try
(``Idempotency-Key``). The web side reads it into a :class:`Pending` and opens the
request's unit of work with it (:class:`core.store.unit.UnitOfWork`, its ``request``);
the change's transaction writes the key's row first (right after its lock's fence), so
the key is stored exactly when the change is. The answer is added to the row once it
is sent (:func:`keep_answer`). A retry with the same key finds the row there: its
insert writes nothing (:class:`KeyReused`, on PostgreSQL once the first try's
transaction ended), its transaction rolls back before reading anything, and it gets
the first try's answer back (:func:`find`); nothing runs twice.

A commit whose answer never came back (the connection to the database broke at
COMMIT) is resolved through the key: :func:`resolve` asks the database on a
fresh connection whether the key's row exists. The question is an insert of the
same key, rolled back at once: on PostgreSQL it waits for a transaction that still
holds the row, so it learns the outcome, not a guess. The row is there: the change
stands and the request goes on as if the commit had answered. It is not: nothing
was saved, and the player is told to try again (with the same key, which is safe).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime

from tortoise.transactions import in_transaction

from core.runtime.errors import TryAgain
from core.store.sql import execute, fetch, now
from core.words.i18n import N_

log = logging.getLogger(__name__)

# How long to wait for the truth about a commit whose answer was lost.
PROBE_SECONDS = 5.0

NOT_CONFIRMED = N_(
    "The game store did not confirm your change. Reload the page to see whether it was saved."
)
NOT_SAVED = N_("Your change was not saved: the connection to the game store broke. Try again.")


@dataclass
class Pending:
    """The state-changing Mini App request being handled; ``key`` None: an old page sent none."""

    user_tg_id: int
    key: str | None
    fingerprint: str
    recorded: bool = False  # its change committed (the key's row with it)


class KeyReused(Exception):
    """The key's row was written meanwhile by another try of the same action."""


class CommitUnknown(TryAgain):
    """The database never answered a COMMIT, and there is no key to ask it with."""

    def __init__(self) -> None:
        super().__init__(NOT_CONFIRMED)


@dataclass(frozen=True)
class Kept:
    """A key's row: what the first try sent (``status`` None: not kept, but it was done)."""

    fingerprint: str
    status: int | None
    response: str | None
    created_at: datetime


_INSERT = (
    "INSERT INTO request_key (user_tg_id, idem_key, fingerprint, created_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (user_tg_id, idem_key) DO NOTHING RETURNING id"
)


async def _insert(pending: Pending) -> bool:
    return bool(await fetch(_INSERT, (pending.user_tg_id, pending.key, pending.fingerprint, now())))


class _Probed(Exception):
    """Rolls the probe's transaction back, carrying what it found."""


async def _committed(pending: Pending) -> bool:
    """Whether the key's row was committed (waits for a transaction still holding it)."""
    try:
        async with in_transaction():
            raise _Probed(await _insert(pending))
    except _Probed as probed:
        return not probed.args[0]


async def record(pending: Pending | None) -> None:
    """First in the change's transaction (after the fence): write the request's key.

    Raises:
        KeyReused: another try of the same action committed first; nothing saved here.
    """
    keyed = pending is not None and pending.key is not None and not pending.recorded
    if keyed and pending is not None and not await _insert(pending):
        raise KeyReused()


async def resolve(pending: Pending | None, error: Exception) -> None:
    """A commit's answer was lost: return when the change is known saved (through its key).

    Raises:
        TryAgain: the change is known not to be saved, or (no key) not known to be.
    """
    if pending is None or pending.key is None or pending.recorded:
        raise CommitUnknown() from error
    log.warning("A commit's answer was lost; asking the database through its key")
    try:
        done = await asyncio.wait_for(_committed(pending), PROBE_SECONDS)
    except Exception as probe_error:
        raise TryAgain() from probe_error
    if not done:
        raise TryAgain(NOT_SAVED) from error


def settled(pending: Pending | None) -> None:
    """The change committed: its key is stored with it."""
    if pending is not None:
        pending.recorded = True


async def find(user_tg_id: int, key: str) -> Kept | None:
    """The key's row, if a change with it was committed."""
    rows = await fetch(
        "SELECT fingerprint, status, response, created_at FROM request_key"
        " WHERE user_tg_id = ? AND idem_key = ?",
        (user_tg_id, key),
    )
    if not rows:
        return None
    row = rows[0]
    created = row["created_at"]
    if isinstance(created, str):
        created = datetime.fromisoformat(created)
    return Kept(str(row["fingerprint"]), row["status"], row["response"], created)


async def keep_answer(pending: Pending, status: int, response: str) -> None:
    """Add the answer the first try got to its key's row (for retries to replay)."""
    await execute(
        "UPDATE request_key SET status = ?, response = ? WHERE user_tg_id = ? AND idem_key = ?",
        (status, response, pending.user_tg_id, pending.key),
    )


async def forget_before(moment: datetime) -> int:
    """Delete keys made before ``moment`` (housekeeping); how many went."""
    return await execute("DELETE FROM request_key WHERE created_at < ?", (moment,))
