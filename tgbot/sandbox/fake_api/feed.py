"""The change feed: every visible change in the chats as one numbered event, which
the sandbox page and the tests read and wait on (Telegram's own clients see these
changes as they happen).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from tgbot.sandbox.fake_api.hub import Api, _Part
from tgbot.sandbox.fake_api.limits import MAX_EVENTS
from tgbot.sandbox.fake_api.wire import Json


class _Feed(_Part):
    """The change feed: every visible change as one event, numbered in order, and
    waiting for the next ones (the sandbox page and the tests read it)."""

    def __init__(self, api: Api) -> None:
        super().__init__(api)
        self.pulse = asyncio.Event()
        self.events: deque[Json] = deque(maxlen=MAX_EVENTS)
        self.seq = 0
        self.cursor = 0  # where ``wait_for_message`` goes on looking from

    def wake(self) -> None:
        """Wake everyone waiting for a change."""
        self.pulse.set()
        self.pulse = asyncio.Event()

    async def wait_change(self, timeout: float) -> None:
        """Wait for the next change or ``timeout`` seconds, whichever comes first."""
        pulse = self.pulse
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(pulse.wait(), max(timeout, 0))

    def emit(self, kind: str, chat_id: int | None = None, **data: Any) -> Json:
        """Append an event to the change feed."""
        self.seq += 1
        event: Json = {"seq": self.seq, "kind": kind, "chat_id": chat_id, **data}
        self.events.append(event)
        self.wake()
        self.changed()
        return event

    def changed(self) -> None:
        """Tell ``on_change`` (when set) that a restart should keep something new."""
        if self.api.on_change is not None:
            self.api.on_change()

    def oldest_seq(self) -> int:
        """Return the sequence number of the oldest event still in the change feed."""
        return self.events[0]["seq"] if self.events else self.seq + 1

    def mark(self) -> int:
        """Return the change feed's current sequence number."""
        return self.seq

    def events_since(self, seq: int) -> list[Json]:
        """Return the change feed's events after ``seq`` (oldest first)."""
        return [event for event in self.events if event["seq"] > seq]

    async def next_events(self, seq: int, timeout: float) -> list[Json]:
        """Wait up to ``timeout`` seconds for events after ``seq``; return them."""
        deadline = time.monotonic() + timeout
        while True:
            events = self.events_since(seq)
            if events or self.api.closed or time.monotonic() >= deadline:
                return events
            await self.wait_change(deadline - time.monotonic())

    async def wait_for_message(
        self,
        chat_id: int,
        predicate: Callable[[Json], bool] | None = None,
        timeout: float = 5.0,
        *,
        since: int | None = None,
    ) -> Json:
        """Wait for a new or edited message in a chat and return it.

        Looks at events after ``since`` (default: after the last player action or the
        last message this method returned), so a reply sent before the call counts.

        Args:
            chat_id: the chat to watch.
            predicate: which message to accept (default: any message from the bot).
            timeout: seconds to wait.
            since: a sequence number from ``mark()``.

        Raises:
            TimeoutError: no matching message arrived in time.
        """
        accept = predicate or (lambda message: message["from"]["id"] == self.api.bot_id)
        cursor = self.cursor if since is None else since
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events_since(cursor):
                cursor = event["seq"]
                message: Json = event.get("message") or {}
                if _is_message_in(event, chat_id) and accept(message):
                    self.cursor = max(self.cursor, event["seq"])
                    return message
            if time.monotonic() >= deadline:
                last = self.api.last_message(chat_id)
                raise TimeoutError(
                    f"no matching message in chat {chat_id} within {timeout}s; "
                    f"last: {last.get('text') if last else None!r}"
                )
            await self.wait_change(deadline - time.monotonic())


def _is_message_in(event: Json, chat_id: int) -> bool:
    return event["kind"] in ("message", "edit") and event["chat_id"] == chat_id
