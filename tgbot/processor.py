"""Update processing: in order within a chat, concurrently across chats."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor


def chat_key(update: object) -> int:
    """The ordering key of an update: its chat, else its user, else itself."""
    if isinstance(update, Update):
        try:
            chat, user = update.effective_chat, update.effective_user
            owner = chat if chat is not None else user
        except Exception:  # a malformed update: it is refused later, on its own
            owner = None
        key = getattr(owner, "id", None)
        return key if isinstance(key, int) else update.update_id
    return id(update)


class PerChatUpdateProcessor(BaseUpdateProcessor):
    """Holds one asyncio lock per chat while its updates are handled."""

    def __init__(self, max_concurrent_updates: int = 256) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        async with self._chat_turn(update):
            await coroutine

    @asynccontextmanager
    async def ordered(self, update: object) -> AsyncIterator[None]:
        """Hold ``update``'s turn in its chat, as one of the concurrent updates: the inbox's
        way in (the handlers then run in its own frame, not in one of the processor's)."""
        async with self._semaphore, self._chat_turn(update):
            yield

    @asynccontextmanager
    async def _chat_turn(self, update: object) -> AsyncIterator[None]:
        key = chat_key(update)
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[key] -= 1
            if self._users[key] == 0:
                del self._users[key], self._locks[key]

    @property
    def active_chats(self) -> int:
        return len(self._locks)

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None
