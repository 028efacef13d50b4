"""The unit of work: one change, from its lock to the messages it sends.

Every change (a command, a press, a reply to a panel, a Mini App edit, an inline
pick, a periodic job) opens one :class:`UnitOfWork` and hands it to its use case.
The unit holds everything about that change, and nothing about it lives anywhere
else: the Telegram update it handles (``update_id``; None from the Mini App or a
job), the Mini App request's idempotency key (``request``), how its results become
Bot API calls (``planner``, built once with the bot's dependencies and passed in),
where a fault test may stop it (``hooks``, a no-op unless a test gives its own), and
the outbox rows it wrote, to send once it committed.

A use case has one shape, whatever surface it came from::

    async with unit.saving(locks, f"campaign:{id}"):   # lock, fence, claim
        loaded = ...                                     # load
        outcome = rules.act(...)                         # rules -> events
        ...                                              # save (version checked)
        await unit.record(result)                        # what it sends, as rows
    # committed: the caller sends unit.to_send()         # messages

:meth:`UnitOfWork.saving` does, in this order:

1. turns a database or lock-service outage into :class:`~core.runtime.errors.TryAgain`;
2. takes the key's lock, which gives a lease with a fencing token;
3. opens one transaction whose first statement records the token in
   ``lock_fence``, unless a larger token is recorded there already: then a later
   holder came after this one's lease ran out, and this holder gets
   :class:`~core.runtime.errors.LockLost` (nothing saved; the player is told to try
   again). On PostgreSQL the statement also locks the key's row until the commit,
   so a later holder's transaction waits for this one before it reads anything;
   on SQLite the database's writer lock does the same;
4. claims the Telegram update being handled, so a redelivered copy raises
   :class:`~core.runtime.errors.AlreadyHandled`, and writes the Mini App request's
   idempotency key, so another try of an action already saved raises
   :class:`~core.store.request_keys.KeyReused` (the request answers what the first
   try did) before anything is read;
5. runs the body (load, apply a rule, save, :meth:`UnitOfWork.record` the result:
   its outbox rows are written in the same transaction, so they commit or roll back
   with the change);
6. before committing, refuses with ``LockLost`` if the lease has run out (counted
   from before the lock was asked for), so a holder that stalled past its lease
   commits nothing, even if no one else came;
7. commits (the request's key with the change). A commit whose answer was lost is
   resolved through the update's claim or the request's key
   (:meth:`UnitOfWork.committing`); from then on the change stands and is reported
   done: a lock that can no longer be released (its lease ran out after the commit)
   is logged, never raised.

:meth:`UnitOfWork.atomic` is the same transaction without a lock, for writes that
rewrite nothing they read (a roll's record, a held note); :meth:`UnitOfWork.committing`
the same without the update's claim.

Pause points (``hooks.pause(name)``, only while a Telegram update is handled):
``before_commit``, ``after_commit``; the sender adds ``after_send``, ``after_mark``
and ``between_secret``. The reminders' sender has points of its own (``reminder_*``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from tortoise.transactions import in_transaction

from core.runtime.errors import AlreadyHandled, CommitUnknown, LockLost, TryAgain
from core.runtime.locks import TOO_LONG, KeyedLock, Lease
from core.store import outbox, request_keys
from core.store.outbox import Effect, Planner, Row
from core.store.repo import CLAIM, committed, guarded
from core.store.sql import fetch, now

log = logging.getLogger(__name__)

_FENCE = (
    "INSERT INTO lock_fence (lock_key, token) VALUES (?, ?)"
    " ON CONFLICT (lock_key) DO UPDATE SET token = excluded.token"
    " WHERE lock_fence.token <= excluded.token RETURNING token"
)


class Hooks:
    """Where a fault test may stop a worker (the points the module names); the default
    does nothing. A test gives its own through the dependencies."""

    async def pause(self, name: str) -> None:
        """Reached point ``name`` while handling a Telegram update (or sending the due
        reminders: their sender's points)."""


NO_HOOKS = Hooks()

Step = Callable[[], Awaitable[None]]  # more of a change, run in its transaction


@dataclass
class UnitOfWork:
    """One change: the update or request it answers, how it plans its messages, and the
    outbox rows it wrote (see the module).

    ``rows``: written by this worker and claimed by it until ``until``; ``sent``: the ids
    already sent (or given up); ``recorded``: the results whose rows were written here.
    """

    update_id: int | None = None
    request: request_keys.Pending | None = None
    planner: Planner | None = None
    hooks: Hooks = NO_HOOKS
    rows: list[Row] = field(default_factory=list)
    sent: set[int] = field(default_factory=set)
    until: float = 0.0
    recorded: list[object] = field(default_factory=list)

    # -- the transaction ------------------------------------------------------------------

    @asynccontextmanager
    async def saving(
        self, locks: KeyedLock, key: str, then: Step | None = None
    ) -> AsyncIterator[Lease]:
        """Lock ``key``, then one fenced transaction claiming the update (see the module).

        ``then``: what follows every change under this key, in its transaction once the
        body ran (a campaign's wait restarting as its table moved on).

        Raises:
            TryAgain: the lock stayed busy, or the store is unreachable; nothing saved.
            LockLost: the lease ran out before the commit; nothing saved.
            AlreadyHandled: a copy of the update was committed before.
        """
        committed_now = False
        try:
            async with guarded(), locks.hold(key) as lease:
                async with self._transaction(lease, claim=True, then=then):
                    yield lease
                committed_now = True
        except LockLost:
            if not committed_now:
                raise
            log.warning("The lock of %s ran out after its change was saved; the change stands", key)

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[None]:
        """One transaction that also claims the update (none: no claim), so a redelivered
        copy changes nothing; no lock.

        Raises:
            AlreadyHandled: this update's changes were committed before.
        """
        async with self._transaction(None, claim=True):
            yield

    @asynccontextmanager
    async def committing(self) -> AsyncIterator[None]:
        """One transaction, with the request's key, whose lost commit is resolved, not raised
        (see :meth:`_lost_commit`); no lock, no claim.

        Raises:
            KeyReused: another try of the same Mini App action committed first.
        """
        async with self._transaction(None, claim=False):
            yield

    @asynccontextmanager
    async def _transaction(
        self, lease: Lease | None, *, claim: bool, then: Step | None = None
    ) -> AsyncIterator[None]:
        """The one transaction every change runs in: the fence (``lease``), the update's
        claim (``claim``), the request's key, the body, what follows it (``then``), the
        lease's check, the commit."""
        ran = False
        written = len(self.rows)
        claimed = claim and self.update_id is not None
        try:
            async with in_transaction():
                if lease is not None and not await fetch(_FENCE, (lease.key, lease.token)):
                    raise LockLost(TOO_LONG)  # a later holder of the key already committed
                if claimed and not await fetch(CLAIM, (self.update_id, now())):
                    raise AlreadyHandled()  # a copy of the update was committed before
                await request_keys.record(self.request)  # a reused key: KeyReused
                yield
                if then is not None:
                    await then()
                if lease is not None and lease.expired():
                    raise LockLost(TOO_LONG)
                await self.pause("before_commit")
                ran = True
        except BaseException as error:
            await self._lost_commit(error, ran, written, claimed)
        request_keys.settled(self.request)
        await self.pause("after_commit")

    async def _lost_commit(
        self, error: BaseException, ran: bool, written: int, claimed: bool
    ) -> None:
        """A transaction ended in ``error``: re-raised unless its body ``ran`` and the
        commit is found to have stood.

        When the commit (or its answer) was lost, the update's claim, or else the
        request's key, tells the outcome: committed, and the change goes on as if the
        commit had answered (its outbox rows are there to send); not committed, and
        :class:`~core.runtime.errors.TryAgain` (nothing changed). With neither to look
        up: :class:`~core.runtime.errors.CommitUnknown`. The rows written past
        ``written`` are forgotten when the change did not stand.
        """
        if not ran or not isinstance(error, Exception):
            del self.rows[written:]  # rolled back: the outbox rows it wrote are gone too
            raise error
        log.warning("The commit of a change failed (%s); finding out whether it stood", error)
        try:
            if claimed and self.update_id is not None:
                if not await committed(self.update_id):
                    raise TryAgain(
                        "The game store is unreachable. Try again in a moment."
                    ) from error
            elif self.request is not None:
                await request_keys.resolve(self.request, error)
            else:
                raise CommitUnknown(
                    "The game store is unreachable. Try again in a moment."
                ) from error
        except BaseException:
            del self.rows[written:]
            raise
        log.warning("The change was committed; going on")

    # -- what the change sends --------------------------------------------------------------

    async def plan(self, result: object, how: str = "") -> list[Effect]:
        """What ``result`` sends, drawn by the planner (none without one). A use case whose
        result is known before its transaction (a roll's dice) draws it so, outside the
        lock, and hands it to :meth:`record`."""
        return [] if self.planner is None else await self.planner(result, how)

    async def record(
        self, result: object, how: str = "", *, effects: list[Effect] | None = None
    ) -> None:
        """Inside the change's transaction: write what ``result`` sends to the outbox.

        ``how``: what the result is to the planner ("post": a panel just opened, to be
        sent as a new message; "": a change); ``effects``: what :meth:`plan` drew for it
        before the transaction (drawn here otherwise). Nothing when the unit has no
        planner (a use case run outside the bot). The rows are claimed by this worker, to
        be sent once the change committed.
        """
        if self.planner is None:
            return
        if effects is None:
            effects = await self.planner(result, how)
        self.recorded.append(result)
        if not effects:
            return
        self.until = time.time() + outbox.LEASE
        for effect in effects:
            found = await fetch(*outbox.insert(self.update_id, effect, self.until))
            self.rows.append(Row(int(found[0]["id"]), effect.kind, effect.payload, effect.view))

    def holds(self, result: object) -> bool:
        """Whether ``result``'s effects were written here (presenting it is sending them);
        also for the change a recorded result names as its ``changed`` (an undo's)."""
        return any(
            kept is result or getattr(kept, "changed", None) is result for kept in self.recorded
        )

    def unsent(self) -> list[Row]:
        return [row for row in self.rows if row.id not in self.sent]

    async def to_send(self) -> list[Row]:
        """The rows this change wrote and has not sent, taken to be sent now: whatever
        fails after this is the sweeper's (or a redelivery's)."""
        rows = self.unsent()
        if not rows:
            return []
        if time.time() > self.until - 1.0:  # slow: make sure no sweeper took them meanwhile
            held = set(await outbox.renew([row.id for row in rows]))
            self.sent.update(row.id for row in rows if row.id not in held)
            rows = [row for row in rows if row.id in held]
        self.sent.update(row.id for row in rows)
        return rows

    async def pause(self, name: str) -> None:
        """A fault test's pause point ``name`` (:class:`Hooks`), while an update is handled."""
        if self.update_id is not None:
            await self.hooks.pause(name)
