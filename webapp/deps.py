"""Typed application keys and the dependencies of the web side."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from aiohttp import web

from core.campaigns import Campaigns
from core.campaigns.pictures import CardPictures
from core.campaigns.play import Play
from core.runtime.heavy import HeavyWork
from core.store.outbox import Planner
from core.store.request_keys import Pending
from core.store.unit import NO_HOOKS, Hooks, UnitOfWork
from webapp.sheets import SheetPage

TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"


@dataclass(frozen=True)
class WebDeps:
    """What the web side needs, built once in the composition root."""

    play: Play
    campaigns: Campaigns
    sheets: Mapping[str, SheetPage]
    bot_token: str
    initdata_max_age: int
    clock: Callable[[], float]
    # CPU-heavy work (the odds) off the event loop, one job at a time per user
    heavy: HeavyWork = field(kw_only=True)
    telegram_script: str = TELEGRAM_SCRIPT
    pictures: CardPictures = field(default_factory=CardPictures)
    # How a change's results become its messages (the bot's planner; None: no bot).
    planner: Planner | None = None
    # Where a fault test may stop a change (a no-op unless a test gives its own).
    hooks: Hooks = NO_HOOKS
    # Sends now what a request's unit of work wrote to the outbox: what a Mini App change
    # shows in the chats, as a press would (a redrawn panel, a roll posted in the chat).
    sent: Callable[[UnitOfWork], Awaitable[None]] | None = None
    # Whether the process takes updates yet (None: nothing to wait for); /healthz says
    # 503 until then, so a load balancer sends nothing to a worker still starting.
    ready: Callable[[], bool] | None = None
    # The bot's username once it is known ("" before, or with no bot): a shared game
    # system's link (t.me/<bot>?startgroup=sys_<token>) names it.
    bot_username: Callable[[], str] = field(default=lambda: "", kw_only=True)

    def unit(self, request: Pending | None = None) -> UnitOfWork:
        """A unit of work for one Mini App change (``request``: its idempotency key)."""
        return UnitOfWork(request=request, planner=self.planner, hooks=self.hooks)


@dataclass(frozen=True)
class Webhook:
    """Where Telegram posts updates, the secret it must send, and who takes them.

    ``take`` gets the raw body and returns True once the update is durable
    (handled, or kept as a dead letter), False when it is not yet.
    """

    path: str
    secret: str
    take: Callable[[bytes], Awaitable[bool]]


DEPS = web.AppKey("deps", WebDeps)
WEBHOOK = web.AppKey("webhook", Webhook)
UNIT = web.RequestKey("unit", UnitOfWork)  # the change a state-changing request makes


def unit_of(request: web.Request) -> UnitOfWork:
    """The unit of work of a state-changing request (opened with its key by
    :func:`webapp.request_keys.request_keys`; a fresh one for any other request)."""
    unit = request.get(UNIT)
    if unit is None:
        unit = request[UNIT] = request.app[DEPS].unit()
    return unit
