"""The guarded save: the one way a use case changes shared state.

``async with saving(locks, "campaign:7", update_id):`` wraps a use case's load,
rule and save, and does, in this order:

1. turns a database or lock-service outage into :class:`~core.runtime.errors.TryAgain`;
2. takes the key's lock, which gives a lease with a fencing token;
3. opens one transaction whose first statement records the token in
   ``lock_fence``, unless a larger token is recorded there already: then a later
   holder came after this one's lease ran out, and this holder gets
   :class:`~core.runtime.errors.LockLost` (nothing saved; the player is told to try
   again). On PostgreSQL the statement also locks the key's row until the commit,
   so a later holder's transaction waits for this one before it reads anything;
   on SQLite the database's writer lock does the same;
4. claims the Telegram update being handled (``update_id``; None from the Mini
   App), so a redelivered copy raises :class:`~core.runtime.errors.AlreadyHandled`;
5. runs the body (load, apply a rule, save);
6. before committing, refuses with ``LockLost`` if the lease has run out (counted
   from before the lock was asked for), so a holder that stalled past its lease
   commits nothing, even if no one else came;
7. commits, with the Mini App request's idempotency key when there is one (a commit
   whose answer was lost is resolved through the update's claim or the request's key:
   :func:`core.store.repo.committing`); from then on the change stands and is
   reported done: a lock that can no longer be released (its lease ran out after the
   commit) is logged, never raised.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tortoise.transactions import in_transaction

from core.runtime.errors import AlreadyHandled, LockLost
from core.runtime.locks import TOO_LONG, KeyedLock, Lease
from core.store import request_keys
from core.store.outbox import mark, pause_point
from core.store.repo import CLAIM, guarded, lost_commit
from core.store.sql import fetch, now

log = logging.getLogger(__name__)

_FENCE = (
    "INSERT INTO lock_fence (lock_key, token) VALUES (?, ?)"
    " ON CONFLICT (lock_key) DO UPDATE SET token = excluded.token"
    " WHERE lock_fence.token <= excluded.token RETURNING token"
)


@asynccontextmanager
async def saving(locks: KeyedLock, key: str, update_id: int | None = None) -> AsyncIterator[Lease]:
    """Lock ``key``, then one fenced transaction claiming ``update_id`` (see the module).

    Raises:
        TryAgain: the lock stayed busy, or the store is unreachable; nothing saved.
        LockLost: the lease ran out before the commit; nothing saved.
        AlreadyHandled: a copy of the update was committed before.
    """
    committed = ran = False
    written, pending = mark(), request_keys.current()
    try:
        async with guarded(), locks.hold(key) as lease:
            # :func:`core.store.repo.committing`, here (not a layer of its own on every
            # change): its first statements the fence, then the update's claim
            try:
                async with in_transaction():
                    if not await fetch(_FENCE, (lease.key, lease.token)):
                        raise LockLost(TOO_LONG)  # a later holder of the key already committed
                    if update_id is not None and not await fetch(CLAIM, (update_id, now())):
                        raise AlreadyHandled()  # a copy of the update was committed before
                    yield lease
                    if lease.expired():
                        raise LockLost(TOO_LONG)
                    await request_keys.record(pending)
                    await pause_point("before_commit")
                    ran = True
            except BaseException as error:
                await lost_commit(error, ran, written, update_id, pending)
            request_keys.settled(pending)
            await pause_point("after_commit")
            committed = True
    except LockLost:
        if not committed:
            raise
        log.warning("The lock of %s ran out after its change was saved; the change stands", key)
