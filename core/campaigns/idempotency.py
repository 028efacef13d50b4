"""Idempotency keys of Mini App changes, as the web side uses them.

How keys are kept with their change, and how a lost commit is resolved through
one: :mod:`core.store.request_keys`. Here the reads and writes the web side does
itself, each turning a database outage into :class:`~core.runtime.errors.TryAgain`.
"""

from __future__ import annotations

from core.store.repo import guarded
from core.store.request_keys import Kept, KeyReused, Pending, find
from core.store.request_keys import keep_answer as _keep_answer

__all__ = ["Kept", "KeyReused", "Pending", "keep_answer", "kept"]


async def kept(user_tg_id: int, key: str) -> Kept | None:
    """The key's row, if a change with it was committed."""
    async with guarded():
        return await find(user_tg_id, key)


async def keep_answer(pending: Pending, status: int, response: str) -> None:
    """Add the answer the first try got to its key's row (for retries to replay)."""
    async with guarded():
        await _keep_answer(pending, status, response)
