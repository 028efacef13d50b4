"""Taking updates in: acknowledged only once handled, or kept as a dead letter.

Invariant: Telegram learns that an update arrived (the webhook's 200, or a
getUpdates offset past it) only after the update is durable: its handlers have
finished, so their transactions committed (with the update-id claim that makes a
redelivered copy change nothing), or it was stored as a dead letter because it
can never be used. Until then Telegram keeps it and delivers it again.

Updates of one chat are handled in order, different chats concurrently
(:class:`tgbot.processor.PerChatUpdateProcessor`), in both modes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

from telegram import Update
from telegram.error import RetryAfter, TelegramError

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.text import cleaned
from core.store.dead_letters import fits_bigint, keep_dead_letter
from tgbot.context import StonetableApplication
from tgbot.processor import PerChatUpdateProcessor
from tgbot.render.errors import unexpected
from tgbot.sender import flush_update, send_pending

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 2 * 1024 * 1024  # a webhook body past this is kept as a dead letter
_LEADING_ID = re.compile(rb'\s*\{\s*"update_id"\s*:\s*(-?\d{1,19})\s*[,}]')


class Unusable(Exception):
    """An update the bot can never use, whatever it tries."""

    def __init__(self, reason: str, update_id: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.update_id = update_id


def parse_body(body: bytes) -> object:
    """The JSON value of a webhook body.

    Raises:
        Unusable: not JSON (or not UTF-8), or nested too deeply to read.
    """
    try:
        return json.loads(body)
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError
        raise Unusable(f"not JSON: {error}") from None
    except RecursionError:
        raise Unusable("JSON nested too deeply") from None


def read_update(data: object, application: StonetableApplication) -> Update:
    """Turn a decoded update into an :class:`Update`.

    Raises:
        Unusable: not an object, no 64-bit ``update_id``, a shape PTB cannot read, or
            a chat or user id no 64-bit column holds.
    """
    if not isinstance(data, dict):
        raise Unusable(f"not an update object but {type(data).__name__}")
    update_id = data.get("update_id")
    if not fits_bigint(update_id):
        raise Unusable("no update_id that is a 64-bit whole number")
    try:
        update = Update.de_json(names_cleaned(data), application.bot)
        owners = (update.effective_chat, update.effective_user)
    except Exception as error:  # any shape PTB cannot read, deep nesting included
        reason = f"not a Telegram update: {type(error).__name__}: {error}"
        raise Unusable(reason, update_id) from None
    for owner in owners:
        if owner is not None and not fits_bigint(owner.id):
            raise Unusable("a chat or user id that is not a 64-bit whole number", update_id)
    return update


# What Telegram tells about a person, a chat or a forum topic: kept cleaned of what no
# store can keep (core/rules/text.py), as nobody can type it again; typed text is refused
# whole (tgbot.app.refuse_unstorable).
NAME_FIELDS = frozenset({"first_name", "last_name", "username", "title", "name"})


def names_cleaned(value: Any) -> Any:
    """A decoded update, its names and titles without NUL or broken characters."""
    if isinstance(value, dict):
        return {
            key: cleaned(item)
            if key in NAME_FIELDS and isinstance(item, str)
            else names_cleaned(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [names_cleaned(item) for item in value]
    return value


@asynccontextmanager
async def turn(
    application: StonetableApplication, update: Update
) -> AsyncIterator[list[Exception]]:
    """``update``'s turn in its chat, for its handlers (``async with`` around
    ``application.process_update``), in order within the chat; yields the list collecting
    what they raise (the errors were already shown to the user by the error handler).

    Opens the update's unit of work (:class:`core.store.unit.UnitOfWork`, with the bot's
    planner and hooks), which its handlers' use cases receive (``context.unit``).
    On leaving, sends the outbox rows of this update still unsent (in its chat's turn):
    a redelivered copy (or one whose handler failed) sends what an earlier copy left,
    never nothing. A copy the rules refused (a wrong player's press, a stale button) looks
    for none: an earlier copy that was applied makes a later one "already handled", never
    refused. Its frame is not on the stack while the handlers run.
    """
    key = id(update)
    failures: list[Exception] = []
    application.failures[key] = failures
    processor = application.update_processor
    assert isinstance(processor, PerChatUpdateProcessor)
    try:
        async with processor.ordered(update):
            unit = application.units[key] = application.deps.unit(update)
            yield failures
            try:
                await send_pending(application, unit)
                if not all(isinstance(failure, Malformed | NotAllowedNow) for failure in failures):
                    await flush_update(application, update.update_id)
            except Exception as error:  # sent later: by a redelivery or the sweeper
                log.warning("Could not send an update's outbox rows now: %s", error)
    finally:
        del application.failures[key]
        application.units.pop(key, None)


class Inbox:
    """Handles updates before they are acknowledged; keeps the unusable ones."""

    def __init__(self, application: StonetableApplication, *, answer_within: float) -> None:
        self.application = application
        self.answer_within = answer_within
        self._running: set[asyncio.Task[bool]] = set()

    async def take_body(self, body: bytes) -> bool:
        """Handle one webhook body; True once it is durable, False if not within the bound.

        Past the bound the work goes on (it is not cancelled); the webhook answers
        503, Telegram delivers the update again, and the update-id claim makes the
        copy change nothing.
        """
        task = asyncio.create_task(self._take_body(body))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        done, _ = await asyncio.wait((task,), timeout=self.answer_within)  # never cancels it
        if task in done:
            return task.result()
        log.warning("An update is still being handled after %.1f s", self.answer_within)
        return False

    async def _take_body(self, body: bytes) -> bool:
        if len(body) > MAX_BODY_BYTES:
            found = _LEADING_ID.match(body)
            update_id = int(found.group(1)) if found else None
            return await self._dead_letter(body, "a body over 2 MiB", update_id)
        try:
            update = read_update(parse_body(body), self.application)
        except Unusable as error:
            return await self._dead_letter(body, error.reason, error.update_id)
        try:  # the handlers in the update's turn, in this frame (no layer of its own)
            async with turn(self.application, update) as errors:
                await self.application.process_update(update)
        except Exception as error:  # outside any handler: the update's shape, most likely
            errors = [error]
        return await self._settle(update, body, errors)

    async def take_polled(self, data: object) -> bool:
        """Handle one update from getUpdates; True once it is durable."""
        try:
            update = read_update(data, self.application)
        except Unusable as error:
            return await self._dead_letter(_dump(data), error.reason, error.update_id)
        try:  # the handlers in the update's turn, in this frame (no layer of its own)
            async with turn(self.application, update) as errors:
                await self.application.process_update(update)
        except Exception as error:  # outside any handler: the update's shape, most likely
            errors = [error]
        return await self._settle(update, data, errors)

    async def _settle(self, update: Update, source: object, errors: list[Exception]) -> bool:
        """Durable, or a dead letter if a handler failed; ``source``: its body or JSON."""
        failures = [error for error in errors if unexpected(error)]
        if not failures:
            return True
        first = failures[0]
        return await self._dead_letter(
            source if isinstance(source, bytes) else _dump(source),
            f"a handler failed: {type(first).__name__}: {first}",
            update.update_id,
        )

    async def replay(self, body: bytes) -> str | None:
        """Handle a dead letter's body again (an operator's replay); None when it went
        through, else why not. Safe to repeat: the update's claim makes a copy that was
        handled change nothing (and sends what its change left unsent). Keeps no new
        dead letter."""
        try:
            update = read_update(parse_body(body), self.application)
        except Unusable as error:
            return f"still unusable: {error.reason}"
        try:
            async with turn(self.application, update) as errors:
                await self.application.process_update(update)
        except Exception as error:
            errors = [error]
        failures = [error for error in errors if unexpected(error)]
        if failures:
            return f"a handler failed again: {type(failures[0]).__name__}: {failures[0]}"
        return None

    async def _dead_letter(self, body: bytes, reason: str, update_id: int | None) -> bool:
        log.warning("Dead letter (update %s): %s", update_id, reason)
        try:
            await keep_dead_letter(body, reason, update_id)
        except Exception:
            log.exception("Could not keep a dead letter; it will be delivered again")
            return False
        return True

    async def drain(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) for updates still being handled."""
        if self._running:
            await asyncio.wait(set(self._running), timeout=timeout)


def _dump(data: object) -> bytes:
    try:
        return json.dumps(data, ensure_ascii=False, default=repr).encode("utf-8", "replace")
    except (ValueError, RecursionError):
        return repr(data).encode("utf-8", "replace")


class Poller:
    """Long polling that moves the offset past an update only once it is durable.

    getUpdates(offset) confirms every update below ``offset``; the offset moves
    past a batch only after :meth:`Inbox.take_polled` finished with all of it, so
    a worker that dies with a batch in hand gets the same batch again on restart.
    """

    def __init__(self, inbox: Inbox, *, timeout: int = 10, limit: int = 100) -> None:
        self.inbox = inbox
        self.timeout = timeout
        self.limit = limit
        self.offset = 0
        self._task: asyncio.Task[None] | None = None
        self._taking = False
        self._stopping = False

    async def start(self) -> None:
        """Drop any webhook (Telegram refuses getUpdates while one is set) and start polling."""
        await self.inbox.application.bot.delete_webhook()
        self._task = asyncio.create_task(self._run(), name="stonetable-polling")

    async def _run(self) -> None:
        delay = 0.0
        while not self._stopping:
            try:
                batch = await self._fetch(self.timeout)
            except RetryAfter as error:
                wait = error.retry_after
                delay = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
                log.warning("getUpdates: asked to wait %.0f s", delay)
            except TelegramError as error:  # network errors, timeouts, 409 Conflict, 5xx
                delay = min(max(delay * 2, 0.5), 30.0)
                log.warning("getUpdates failed (%s); again in %.1f s", error, delay)
            else:
                delay = 0.0
            if delay:
                await asyncio.sleep(delay)
                continue
            self._taking = True  # from here on, stop() lets the batch finish
            try:
                await self._take(batch)
            except Exception:  # a fault of ours: the same batch comes again
                log.exception("Could not take a batch of updates")
                await asyncio.sleep(1.0)
            finally:
                self._taking = False

    async def _fetch(self, timeout: int, limit: int | None = None) -> list[Any]:
        bot = self.inbox.application.bot
        data = {
            "offset": self.offset,
            "timeout": timeout,
            "limit": limit or self.limit,
            "allowed_updates": Update.ALL_TYPES,
        }
        # The raw JSON, not bot.get_updates(): one update PTB cannot read must not
        # make the whole batch unreadable; it becomes a dead letter on its own.
        result = await bot._post("getUpdates", data, read_timeout=timeout + 10)
        return result if isinstance(result, list) else []

    async def _take(self, batch: list[Any]) -> None:
        if not batch:
            return
        durable = await asyncio.gather(*(self.inbox.take_polled(item) for item in batch))
        ids = [
            item["update_id"]
            for item in batch
            if isinstance(item, dict) and fits_bigint(item.get("update_id"))
        ]
        if not all(durable):
            await asyncio.sleep(1.0)  # the database is away: fetch the same batch again
            return
        if ids:
            self.offset = max(self.offset, max(ids) + 1)

    async def stop(self) -> None:
        """Finish the batch in hand, then confirm it with one last getUpdates."""
        self._stopping = True
        task = self._task
        if task is None:
            return
        if not self._taking:  # waiting for updates or for a retry: nothing in hand
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if self.offset:
            try:
                await self._fetch(0, limit=1)
            except TelegramError as error:
                log.warning("Could not confirm the last updates: %s", error)
