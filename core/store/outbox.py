"""The outbox: what a change sends is part of the change.

A use case records its result on its unit of work (:meth:`core.store.unit.UnitOfWork.record`)
inside its transaction. The unit's *planner* (:data:`Planner`, the bot's, passed in with
the unit) turns the result into the Bot API calls it causes (:class:`Effect`: a message,
an edit, a private note); they are written to the ``outbox`` table in that same
transaction, so they commit or roll back with the change. After the commit the worker
that made them sends them (``tgbot.sender``); what it could not send (it was killed, the
connection went) is sent by the next delivery of the same update, or by any worker's
sweeper once the row's lease ran out.

A panel's message is written undrawn: a ``panel`` row names the panel and where its
message is, and its text is drawn only when it is sent, after the commit and outside
the campaign's lock: right after the commit from the view the change holds
(:attr:`Effect.view`, kept in memory, never written), sent late from the panel as it
stands then (the same drawing: a panel's message shows its state and the ``↩ Undo``
due, nothing of the change that made it). What a row says that the store keeps
nowhere else (a note in private, a retired panel read over the table before its
change) is drawn in the transaction, with the change.

Rows are written already claimed by their worker (a lease of :data:`LEASE` seconds),
so sending them right after the commit costs no extra statement; another worker
claims a row only with ``UPDATE ... WHERE claimed_until < now`` (one winner), on
SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable
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
    the message shows), ``portrait`` (a post in character under its speaker's portrait,
    named by game and player: its bytes are read when it is sent), ``private`` (a note
    to a player, held when they cannot be reached), ``direct`` (a note to a player that
    nobody holds: dropped when they cannot be reached), ``edit`` (a message's text and
    buttons: by ``chat_id`` and ``message_id``, or an inline message by
    ``inline_message_id``), ``panel`` (a panel's message, drawn when it is sent:
    ``panel``, its id; ``chat_id`` and ``message_id``, the message it edits, or
    ``topic``, to send it as a new message bound to the panel).

    ``view``: what a ``panel`` row is drawn from right after the commit (the panel's
    view as the change left it), in memory only.
    """

    kind: str
    payload: dict[str, Any]
    view: object = field(default=None, compare=False, repr=False)

    @property
    def target(self) -> str:
        """The message an edit (or a panel's redraw) rewrites, "chat:message" ("inline:id"
        for an inline message; "" for anything else)."""
        if self.kind not in ("edit", "panel"):
            return ""
        if "inline_message_id" in self.payload:
            return f"inline:{self.payload['inline_message_id']}"
        if self.payload.get("message_id") is None:
            return ""
        return f"{self.payload['chat_id']}:{self.payload['message_id']}"


@dataclass(frozen=True)
class Row:
    """A row written to the outbox; ``view``: its effect's (:attr:`Effect.view`), held by
    the worker that wrote it, None once read back from the store."""

    id: int
    kind: str
    payload: dict[str, Any]
    view: object = field(default=None, compare=False, repr=False)


Planner = Callable[[object, str], Awaitable[list[Effect]]]
"""How a change's result becomes the Bot API calls it causes: ``(result, how)``, where
``how`` is "post" for a panel just opened (sent as a new message), "" for a change.
The bot builds one with its dependencies and gives it to each unit of work."""

_INSERT = (
    "INSERT INTO outbox"
    " (update_id, kind, target, payload, claimed_until, claimed_by, sent, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)


def insert(update_id: int | None, effect: Effect, until: float) -> Statement:
    """The statement writing ``effect`` (of update ``update_id``) to the outbox, claimed
    by this worker until ``until`` (it returns the row's id)."""
    payload = dump_json(effect.payload)
    return _INSERT, (update_id, effect.kind, effect.target, payload, until, WORKER, False, now())


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
