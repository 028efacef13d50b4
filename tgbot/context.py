"""Typed dependencies for handlers: a custom Application and CallbackContext."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from telegram.ext import Application, CallbackContext, ExtBot

from core.campaigns import Campaigns
from core.campaigns.play import Play
from core.runtime.heavy import HeavyWork
from core.runtime.settings import Settings

if TYPE_CHECKING:
    from tgbot.panels import Renderers
    from tgbot.updates import CommandSpec

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BotDeps:
    """Everything handlers need, built once in the composition root."""

    play: Play
    campaigns: Campaigns
    renderers: Renderers
    settings: Settings
    webapp_url: str | None
    heavy: HeavyWork  # CPU-heavy work (odds, the map picture) off the event loop


class StonetableApplication(Application[Any, Any, Any, Any, Any, Any]):
    """A PTB Application that carries :class:`BotDeps`."""

    def __init__(self, *, deps: BotDeps, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.deps = deps
        self.command_specs: list[CommandSpec] = []  # the menus' commands, set where it is wired
        self.failures: dict[int, list[Exception]] = {}  # by update, while it is handled (turn)

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
    """Callback context with typed access to the dependencies."""

    @property
    def deps(self) -> BotDeps:
        return cast(StonetableApplication, self.application).deps

    @property
    def stonetable(self) -> StonetableApplication:
        return cast(StonetableApplication, self.application)
