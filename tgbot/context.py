"""Typed dependencies for handlers: a custom Application and CallbackContext."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from telegram.ext import Application, CallbackContext, ExtBot

from core.campaigns import Campaigns
from core.play import Play
from core.settings import Settings

if TYPE_CHECKING:
    from tgbot.panels import Renderers


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


class StonetableContext(
    CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]
):
    """Callback context with typed access to the dependencies."""

    @property
    def deps(self) -> BotDeps:
        return cast(StonetableApplication, self.application).deps
