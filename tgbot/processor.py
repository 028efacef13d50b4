"""Update processing: in order within a chat, concurrently across chats."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
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
        key = chat_key(update)
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
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
