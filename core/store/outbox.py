"""The outbox: what a change sends is part of the change.

A use case calls :func:`record` with its result inside its transaction. The edge that
runs it (the bot) has registered a *planner* that turns a result into the Bot API
calls it causes (:class:`Effect`: a message, an edit, a private note); they are
written to the ``outbox`` table in that same transaction, so they commit or roll
back with the change. After the commit the worker that made them sends them
(``tgbot.outbox``); what it could not send (it was killed, the connection went) is
sent by the next delivery of the same update, or by any worker's sweeper once the
row's lease ran out.

Rows are written already claimed by their worker (a lease of :data:`LEASE` seconds),
so sending them right after the commit costs no extra statement; another worker
claims a row only with ``UPDATE ... WHERE claimed_until < now`` (one winner), on
SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from core.store import liveness
from core.store.sql import Statement, dump_json, execute, fetch, load_json, now

log = logging.getLogger(__name__)

LEASE = 5.0  # seconds a worker holds the rows it is sending
WORKER = secrets.token_hex(8)  # this process, as it claims rows


@dataclass(frozen=True)
class Effect:
    """One Bot API call a change causes.

    ``kind``: ``send`` (a game message to a chat and topic; ``bind`` names the panel
    the message shows), ``private`` (a note to a player, held when they cannot be
    reached), ``edit`` (a message's text and buttons).
    """

    kind: str
    payload: dict[str, Any]

    @property
    def target(self) -> str:
        """An edit's message, "chat:message" ("" for anything else)."""
        if self.kind != "edit":
            return ""
        return f"{self.payload['chat_id']}:{self.payload['message_id']}"


@dataclass(frozen=True)
class Row:
    id: int
    kind: str
    payload: dict[str, Any]


@dataclass
class Pending:
    """The outbox rows the current update or request wrote, to send after the commit.

    ``rows``: written by this worker and claimed by it until ``until``; ``sent``: the ids
    already sent (or given up).
    """

    update_id: int | None = None
    rows: list[Row] = field(default_factory=list)
    sent: set[int] = field(default_factory=set)
    until: float = 0.0
    recorded: list[object] = field(default_factory=list)  # the results recorded

    def holds(self, result: object) -> bool:
        """Whether ``result``'s effects were written here (its presenting is sending them);
        also for the change a recorded result names as its ``changed`` (an undo's)."""
        return any(
            kept is result or getattr(kept, "changed", None) is result for kept in self.recorded
        )

    def unsent(self) -> list[Row]:
        return [row for row in self.rows if row.id not in self.sent]


Planner = Callable[..., Awaitable[list[Effect]]]  # (result, how[, drawn: list])
Drawing = tuple[Callable[..., Any], tuple[Any, ...]]  # a function and its arguments
_planner: Planner | None = None
_pending: ContextVar[Pending | None] = ContextVar("outbox_pending", default=None)


def set_planner(planner: Planner | None) -> None:
    """Register how results become effects (the bot does, once); None: record nothing."""
    global _planner
    _planner = planner


def begin(update_id: int | None = None) -> Pending:
    """Start collecting the rows written for one update (or one Mini App request)."""
    pending = Pending(update_id)
    _pending.set(pending)
    return pending


def current() -> Pending | None:
    return _pending.get()


def end() -> None:
    """Stop collecting (a Mini App request was answered; the next one begins afresh)."""
    _pending.set(None)


_INSERT = (
    "INSERT INTO outbox"
    " (update_id, kind, target, payload, claimed_until, claimed_by, sent, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)


async def record(result: object, how: str = "") -> None:
    """Inside a use case's transaction: write the effects of ``result`` to the outbox.

    ``how``: what the result is to its planner ("post": a panel just opened, to be
    sent as a new message; "": a change). Nothing when no planner is registered (a use
    case run outside the bot). The hot path (a press) runs the same steps itself:
    :func:`planner`, :func:`statements`, :func:`kept`.
    """
    plan = _planner
    if plan is None:
        return
    for effect, statement in statements(result, await plan(result, how)):
        kept(effect, await fetch(*statement))


def planner() -> Planner | None:
    """How results become effects (None: record nothing)."""
    return _planner


def drawings(result: object) -> list[Drawing]:
    """What the planner draws for ``result`` (a press's edit, then each other view it
    redraws: a renderer and its arguments), for the use case to call itself and hand to
    the planner as ``drawn``, in that order, so no drawing is a layer of its own; empty
    when there is nothing to draw so."""
    find = getattr(_planner, "drawings", None)
    return [] if find is None else list(find(result))


def statements(result: object, effects: list[Effect]) -> list[tuple[Effect, Statement]]:
    """The rows that write ``effects`` (``result``'s) to the outbox, claimed by this
    worker: each effect with its statement, for :func:`kept` to remember once run."""
    pending = _pending.get()
    if pending is None:  # a Mini App request, or a caller that did not begin()
        pending = begin()
    pending.recorded.append(result)
    if not effects:
        return []
    pending.until = time.time() + LEASE
    at = now()
    head = (pending.update_id,)
    lease = (pending.until, WORKER, False, at)
    return [
        (effect, (_INSERT, (*head, effect.kind, effect.target, dump_json(effect.payload), *lease)))
        for effect in effects
    ]


def kept(effect: Effect, rows: list[dict[str, Any]]) -> None:
    """An effect's row was written (``rows``: what its statement returned)."""
    pending = _pending.get()
    assert pending is not None
    pending.rows.append(Row(int(rows[0]["id"]), effect.kind, effect.payload))


def mark() -> int:
    """How many rows the current update wrote so far (see :func:`forget_after`)."""
    pending = _pending.get()
    return len(pending.rows) if pending is not None else 0


def forget_after(count: int) -> None:
    """A transaction rolled back: the rows it wrote (past ``count``) do not exist."""
    pending = _pending.get()
    if pending is not None:
        del pending.rows[count:]


def _rows(found: list[dict[str, Any]]) -> list[Row]:
    return [Row(int(r["id"]), r["kind"], load_json(r["payload"])) for r in found]


async def renew(ids: list[int]) -> list[int]:
    """Extend this worker's lease on rows it wrote; the ids it still holds unsent."""
    if not ids:
        return []
    moment = time.time()
    marks = ", ".join("?" for _ in ids)
    await execute(
        f"UPDATE outbox SET claimed_until = ? WHERE id IN ({marks})"
        " AND sent = ? AND claimed_by = ? AND claimed_until > ?",
        (moment + LEASE, *ids, False, WORKER, moment),
    )
    found = await fetch(
        f"SELECT id FROM outbox WHERE id IN ({marks}) AND sent = ? AND claimed_by = ?"
        " AND claimed_until > ?",
        (*ids, False, WORKER, moment + LEASE / 2),
    )
    return [int(r["id"]) for r in found]


async def superseded(row: Row, target: str) -> bool:
    """Whether a newer edit of the same message was written after ``row``."""
    if not target:
        return False
    found = await fetch(
        "SELECT id FROM outbox WHERE target = ? AND id > ? LIMIT 1", (target, row.id)
    )
    return bool(found)


async def claim(
    update_id: int | None = None, *, limit: int = 50, take_over: bool = False
) -> list[Row]:
    """Claim unsent rows whose lease ran out: those of ``update_id``, else any (oldest first).

    ``take_over``: also those still leased to a worker that is dead (PostgreSQL,
    :mod:`core.store.liveness`; one more query, so not on every update's path).
    """
    moment = time.time()
    where = "sent = ? AND claimed_until < ?"
    values: tuple[Any, ...] = (False, moment)
    gone = await _dead_holders(update_id, moment) if take_over else set()
    if gone:
        marks = ", ".join("?" for _ in gone)
        where = f"sent = ? AND (claimed_until < ? OR substr(claimed_by, 1, 8) IN ({marks}))"
        values += tuple(sorted(gone))
    if update_id is not None:
        where += " AND update_id = ?"
        values += (update_id,)
    waiting = await fetch(f"SELECT id FROM outbox WHERE {where} ORDER BY id LIMIT {limit}", values)
    if not waiting:
        return []
    token = f"{WORKER[:8]}{secrets.token_hex(4)}"  # this claim, not only this worker
    ids = [int(r["id"]) for r in waiting]
    marks = ", ".join("?" for _ in ids)
    await execute(
        f"UPDATE outbox SET claimed_until = ?, claimed_by = ? WHERE id IN ({marks}) AND {where}",
        (moment + LEASE, token, *ids, *values),
    )
    found = await fetch(
        f"SELECT id, kind, payload FROM outbox WHERE id IN ({marks}) AND claimed_by = ?"
        " AND sent = ? ORDER BY id",
        (*ids, token, False),
    )
    return _rows(found)


async def _dead_holders(update_id: int | None, moment: float) -> set[str]:
    """The workers (ids' first 8 digits) still leasing unsent rows that are dead."""
    if not liveness.watching():
        return set()
    where = "sent = ? AND claimed_until >= ?"
    values: tuple[Any, ...] = (False, moment)
    if update_id is not None:
        where, values = where + " AND update_id = ?", (*values, update_id)
    found = await fetch(
        f"SELECT DISTINCT substr(claimed_by, 1, 8) AS holder FROM outbox WHERE {where}", values
    )
    return await liveness.dead({str(r["holder"]) for r in found} - {WORKER[:8]})


async def held_by_others(update_id: int) -> float:
    """Seconds until the last lease on ``update_id``'s unsent rows runs out (0: none held)."""
    found = await fetch(
        "SELECT MAX(claimed_until) AS until FROM outbox WHERE update_id = ? AND sent = ?",
        (update_id, False),
    )
    until = found[0]["until"] if found else None
    return max(0.0, float(until) - time.time()) if until is not None else 0.0


async def done(ids: list[int]) -> None:
    """Mark rows sent (or given up: a permanent refusal)."""
    if ids:
        marks = ", ".join("?" for _ in ids)
        await execute(f"UPDATE outbox SET sent = ? WHERE id IN ({marks})", (True, *ids))


async def release(ids: list[int]) -> None:
    """Give rows back (a passing fault): any worker may send them now."""
    if ids:
        marks = ", ".join("?" for _ in ids)
        await execute(
            f"UPDATE outbox SET claimed_until = ? WHERE id IN ({marks}) AND sent = ?",
            (0.0, *ids, False),
        )


# -- test-only pause points --------------------------------------------------------------------

_PAUSE_AT = os.environ.get("STONETABLE_PAUSE_AT", "")
_PAUSE_FILE = os.environ.get("STONETABLE_PAUSE_FILE", "")
_PAUSE_CONTROL = os.environ.get("STONETABLE_PAUSE_CONTROL", "")


def _pause_at() -> str:
    if not _PAUSE_CONTROL:
        return _PAUSE_AT
    try:  # the point the test chose for the next update
        with open(_PAUSE_CONTROL, encoding="utf-8") as control:
            return control.read().strip()
    except FileNotFoundError:
        return ""


async def pause_point(name: str) -> None:
    """Where a fault test may stop a worker: with ``STONETABLE_PAUSE_AT=<name>`` (or that
    name in the file ``STONETABLE_PAUSE_CONTROL`` names, read at each point) the worker
    writes ``STONETABLE_PAUSE_FILE`` and waits there (to be killed), while it handles a
    Telegram update (not in a periodic job's save). Nothing otherwise."""
    if (_PAUSE_AT or _PAUSE_CONTROL) and name == _pause_at():
        pending = _pending.get()
        if pending is None or pending.update_id is None:
            return
        if _PAUSE_FILE:
            with open(_PAUSE_FILE, "w", encoding="utf-8") as marker:
                marker.write(name)
        await asyncio.sleep(3600)
