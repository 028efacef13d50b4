"""Typed dependencies for handlers: a custom Application and CallbackContext."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from telegram import Update
from telegram.ext import Application, CallbackContext, ExtBot

from core.campaigns import Campaigns
from core.play import Play
from core.settings import Settings

if TYPE_CHECKING:
    from tgbot.features.common import CommandSpec
    from tgbot.panels import Renderers

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BotDeps:
    """Everything handlers need, built once in the composition root."""

    play: Play
    campaigns: Campaigns
    renderers: Renderers
    settings: Settings
    webapp_url: str | None


class StonetableApplication(Application[Any, Any, Any, Any, Any, Any]):
    """A PTB Application that carries :class:`BotDeps`."""

    def __init__(self, *, deps: BotDeps, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.deps = deps
        self.command_specs: list[CommandSpec] = []  # the menus' commands, set where it is wired
        self._failures: dict[int, list[Exception]] = {}

    async def handle(self, update: object) -> tuple[Exception, ...]:
        """Run ``update`` through the handlers, in its chat's order; return what they raised.

        Returns once every handler finished (so their transactions committed or
        rolled back) and what their changes wrote to the outbox was sent; the errors
        were already shown to the user by the error handler.
        """
        async with self.turn(update) as failures:
            await self.process_update(update)
        return tuple(failures)

    @asynccontextmanager
    async def turn(self, update: object) -> AsyncIterator[list[Exception]]:
        """``update``'s turn in its chat, for its handlers (``async with`` around
        :meth:`process_update`); yields the list collecting what they raise. On leaving,
        sends the outbox rows of this update still unsent (in its chat's turn): a
        redelivered copy (or one whose handler failed) sends what an earlier copy left,
        never nothing. Its frame is not on the stack while the handlers run.
        """
        from core import outbox
        from tgbot.outbox import CURRENT_UPDATE, REPLY, flush_update, send_pending
        from tgbot.processor import PerChatUpdateProcessor

        key = id(update)
        failures: list[Exception] = []
        self._failures[key] = failures
        update_id = getattr(update, "update_id", None)
        processor = self.update_processor
        assert isinstance(processor, PerChatUpdateProcessor)
        try:
            async with processor.ordered(update):
                outbox.begin(update_id if isinstance(update_id, int) else None)
                REPLY.set(None)
                if isinstance(update, Update):
                    CURRENT_UPDATE.set(update)
                yield failures
                try:
                    await send_pending(self)
                    if failures and isinstance(update_id, int):
                        await flush_update(self, update_id)
                except Exception as error:  # sent later: by a redelivery or the sweeper
                    log.warning("Could not send an update's outbox rows now: %s", error)
        finally:
            del self._failures[key]

    async def process_error(
        self,
        update: object | None,
        error: Exception,
        job: Any = None,
        coroutine: Any = None,
    ) -> bool:
        failures = self._failures.get(id(update))
        if failures is not None:
            failures.append(error)
        return await super().process_error(update, error, job, coroutine)


class StonetableContext(
    CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]
):
    """Callback context with typed access to the dependencies."""

    @property
    def deps(self) -> BotDeps:
        return cast(StonetableApplication, self.application).deps

    @property
    def stonetable(self) -> StonetableApplication:
        return cast(StonetableApplication, self.application)
