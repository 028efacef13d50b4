"""Typed dependencies for handlers: a custom Application and CallbackContext."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from telegram import Update
from telegram.ext import Application, CallbackContext, ExtBot

from core.campaigns import Campaigns
from core.campaigns.play import Play
from core.runtime.heavy import HeavyWork
from core.runtime.settings import Settings
from core.store.outbox import Planner as ChangePlanner
from core.store.outbox import Row
from core.store.unit import NO_HOOKS, Hooks, UnitOfWork

if TYPE_CHECKING:
    from tgbot.panels import Renderers
    from tgbot.updates import CommandSpec

log = logging.getLogger(__name__)


class Planner(Protocol):
    """The bot's planner (:class:`tgbot.outbox.Planner`) as the dependencies hold it: one
    per change, answering its update (None: a change no update asked), and what draws a
    panel's row as it is sent."""

    def answering(self, update: Update | None) -> ChangePlanner: ...

    async def drawn(self, row: Row) -> Row | None: ...


@dataclass(frozen=True)
class BotDeps:
    """Everything handlers need, built once in the composition root."""

    play: Play
    campaigns: Campaigns
    renderers: Renderers
    settings: Settings
    webapp_url: str | None
    heavy: HeavyWork  # CPU-heavy work (odds, the map picture) off the event loop
    # how a change's results become its messages, drawn by the bot's renderers
    planner: Planner = field(kw_only=True)
    hooks: Hooks = NO_HOOKS  # where a fault test may stop a change (a no-op by default)

    def unit(self, update: object | None = None) -> UnitOfWork:
        """A unit of work for one change: answering ``update`` (a Telegram update, claimed
        with the change and answered by its messages), or none (a job's change)."""
        update_id = update.update_id if isinstance(update, Update) else None
        answering = update if isinstance(update, Update) else None
        return UnitOfWork(update_id, planner=self.planner.answering(answering), hooks=self.hooks)


class StonetableApplication(Application[Any, Any, Any, Any, Any, Any]):
    """A PTB Application that carries :class:`BotDeps`."""

    def __init__(self, *, deps: BotDeps, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.deps = deps
        self.command_specs: list[CommandSpec] = []  # the menus' commands, set where it is wired
        self.failures: dict[int, list[Exception]] = {}  # by update, while it is handled (turn)
        self.units: dict[int, UnitOfWork] = {}  # by update, while it is handled (turn)

    def unit_for(self, update: object | None) -> UnitOfWork:
        """The unit of work of ``update`` in hand (:func:`tgbot.inbox.turn` opened it),
        else a fresh one for it."""
        found = self.units.get(id(update)) if update is not None else None
        return found if found is not None else self.deps.unit(update)

    async def process_error(
        self,
        update: object | None,
        error: Exception,
        job: Any = None,
        coroutine: Any = None,
    ) -> bool:
        failures = self.failures.get(id(update))
        if failures is not None:
            failures.append(error)
        return await super().process_error(update, error, job, coroutine)


class StonetableContext(
    CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]
):
    """Callback context with typed access to the dependencies and the change's unit of work."""

    _update: object | None = None
    _unit: UnitOfWork | None = None

    @classmethod
    def from_update(
        cls,
        update: object,
        application: Application[Any, Any, Any, Any, Any, Any],
    ) -> StonetableContext:
        context = super().from_update(update, application)
        context._update = update
        return context

    @property
    def unit(self) -> UnitOfWork:
        """The unit of work of the change this handler makes: what it sends is written to
        it, and sent once it committed."""
        if self._unit is None:
            self._unit = self.stonetable.unit_for(self._update)
        return self._unit

    @property
    def deps(self) -> BotDeps:
        return cast(StonetableApplication, self.application).deps

    @property
    def stonetable(self) -> StonetableApplication:
        return cast(StonetableApplication, self.application)
