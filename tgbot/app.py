"""The one place that wires the bot: features, error handling, commands."""

from __future__ import annotations

import contextlib
import importlib
import logging
from datetime import datetime, timedelta
from types import ModuleType

from telegram import Update
from telegram.error import BadRequest, Forbidden
from telegram.ext import (
    ApplicationBuilder,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ContextTypes,
    TypeHandler,
)

from core.campaigns.languages import live_languages
from core.rules.errors import Malformed
from core.rules.registry import Registry, default_registry
from core.rules.text import Unstorable, checked
from core.runtime.errors import AlreadyHandled, TryAgain
from core.store.housekeeping import run_once
from tgbot.away import welcome_back
from tgbot.callback import OUTDATED
from tgbot.context import BotDeps, StonetableApplication, StonetableContext
from tgbot.i18n import lang_of
from tgbot.menu import menu_digest, publish_defaults, show_every_game
from tgbot.panels import PanelRenderer, Renderers
from tgbot.processor import PerChatUpdateProcessor
from tgbot.ratelimit import ChatLimiter
from tgbot.render.errors import unexpected, user_message
from tgbot.request import AiohttpRequest
from tgbot.updates import CommandSpec

log = logging.getLogger(__name__)


def renderers(registry: Registry | None = None) -> Renderers:
    """Every panel renderer, by kind, from the features that have them."""
    found: dict[str, PanelRenderer] = {}
    for feature in features(registry):
        for renderer in getattr(feature, "RENDERERS", ()):
            found[renderer.kind] = renderer
    return found


# Features every game shares; each exports COMMANDS, handlers() and maybe RENDERERS.
COMMON_FEATURES: tuple[str, ...] = (
    "tgbot.features.start",
    "tgbot.features.roll",
    "tgbot.features.rolls",
    "tgbot.features.inline",
    "tgbot.features.say",
    "tgbot.features.saved",
    "tgbot.features.own_systems",
    "tgbot.features.sheet",
    "tgbot.features.campaign",
    "tgbot.features.panels",
    "tgbot.features.undo",
    "tgbot.features.turns",
    "tgbot.features.topics",
    "tgbot.features.story",
    "tgbot.features.nudge",
)


def feature_modules(registry: Registry | None = None) -> tuple[str, ...]:
    """The common features, then each game's, as its manifest names them
    (:attr:`core.rules.registry.GameSystem.feature_modules`). Adding a game adds no
    line here."""
    names = list(COMMON_FEATURES)
    for system in registry or default_registry():
        names += [name for name in system.feature_modules if name not in names]
    return tuple(names)


def features(registry: Registry | None = None) -> tuple[ModuleType, ...]:
    return tuple(importlib.import_module(name) for name in feature_modules(registry))


def build_application(
    *,
    token: str,
    api_url: str,
    deps: BotDeps,
    rate_limit: bool = True,
    connections: int = 256,
) -> StonetableApplication:
    """Build the PTB application for a Bot API server at ``api_url``.

    Bot API calls go through aiohttp's client (``connections`` at most at once);
    long polling has a connection of its own. There is no PTB Updater: updates
    come in through :mod:`tgbot.inbox` (webhook or polling), which acknowledges
    each only once it was handled.
    """
    builder = (
        ApplicationBuilder()
        .application_class(StonetableApplication, kwargs={"deps": deps})
        .token(token)
        .base_url(f"{api_url}/bot")
        .base_file_url(f"{api_url}/file/bot")
        .context_types(ContextTypes(context=StonetableContext))
        .concurrent_updates(PerChatUpdateProcessor(256))
        .request(AiohttpRequest(connection_pool_size=connections))
        .get_updates_request(AiohttpRequest(connection_pool_size=1, read_timeout=35))
        .updater(None)
    )
    if rate_limit:
        builder = builder.rate_limiter(ChatLimiter(max_retries=2))  # type: ignore[arg-type]
    application = builder.build()
    assert isinstance(application, StonetableApplication)
    application.command_specs = command_specs(deps.campaigns.registry)
    # a group of its own, before every feature's (within a group only the first handler
    # that takes an update runs: sharing one would hide that feature's handler)
    application.add_handler(TypeHandler(Update, refuse_unstorable), group=INPUT_CHECKS)
    # then, before the features too: a player back in a game after a while
    application.add_handler(TypeHandler(Update, welcome_back), group=RETURNS)
    for feature in features(deps.campaigns.registry):
        application.add_handlers(feature.handlers())
    # last: a button no feature takes (forged, or left by an older version of the bot)
    application.add_handler(CallbackQueryHandler(no_such_button))
    application.add_error_handler(on_error)
    return application


INPUT_CHECKS = -100  # the handler group of the checks every update passes first
RETURNS = -50  # the handler group of a player's return to a game (tgbot.away)


def typed_texts(update: Update) -> list[str]:
    """What a player typed or chose in ``update`` (names are cleaned as they come in)."""
    message, query = update.effective_message, update.callback_query
    texts = [message.text, message.caption] if message is not None else []
    texts.append(query.data if query is not None and isinstance(query.data, str) else None)
    if update.inline_query is not None:
        texts.append(update.inline_query.query)
    if update.chosen_inline_result is not None:
        texts.append(update.chosen_inline_result.query)
    return [text for text in texts if text]


async def refuse_unstorable(update: Update, context: StonetableContext) -> None:
    """Before any feature: typed text the store cannot keep (a NUL, half a character) is
    refused as malformed, and no feature reads it (:func:`on_error` stops the update)."""
    for text in typed_texts(update):
        checked(text)


async def no_such_button(update: Update, context: StonetableContext) -> None:
    """Answer a button nothing else takes as out of date (never leave it spinning)."""
    raise Malformed(OUTDATED)


def command_specs(registry: Registry | None = None) -> list[CommandSpec]:
    """Every command of every feature, in feature order."""
    return [spec for feature in features(registry) for spec in feature.COMMANDS]


async def register_commands(application: StonetableApplication) -> None:
    """Publish the default menus: the common commands for private chats and for groups.

    A game's own commands join a group's menu while it runs there (``tgbot.menu``).
    When the commands changed since the last start, the chats with a live game get
    theirs again in the background.
    """
    await publish_defaults(application.bot, command_specs(application.deps.campaigns.registry))
    if application.job_queue is not None:

        async def job(_context: object) -> None:
            await refresh_game_menus(application)

        application.job_queue.run_once(job, when=5, name="game menus")


async def refresh_game_menus(application: StonetableApplication) -> bool:
    """Publish every live game's menus once per command set, by one worker.

    Returns whether this worker did it (another may have done it already).
    """
    campaigns = application.deps.campaigns
    specs = command_specs(campaigns.registry)

    async def claim(_now: datetime) -> None:
        return None

    name = f"menus:{menu_digest(specs)}"
    if not await run_once(name, timedelta(days=36500), campaigns.locks, campaigns.clock, claim):
        return False
    chats, players = await campaigns.live_games(), await campaigns.games_of_players()
    await show_every_game(application.bot, specs, chats, players, await live_languages())
    log.info("Published the menus of %d live games", len(chats))
    return True


async def on_error(update: object, context: StonetableContext) -> None:
    """Tell the user what went wrong in one short line; log what we did not expect."""
    error = context.error
    if isinstance(error, AlreadyHandled):
        log.info("Ignored a redelivered update %s", getattr(update, "update_id", "?"))
        if isinstance(update, Update) and update.callback_query is not None:
            with contextlib.suppress(BadRequest):
                await update.callback_query.answer()  # stop the button's spinner
        return
    if isinstance(error, BadRequest) and "not modified" in error.message.lower():
        return
    if isinstance(error, TryAgain):
        log.warning("A shared service was unavailable: %s", error.__cause__ or error)
    elif isinstance(error, Unstorable) or (
        isinstance(error, Malformed) and error.__cause__ is not None
    ):
        log.info("Refused bad input (not an outage): %s", error.__cause__ or error)
    elif error is not None and unexpected(error):
        log.error("Update %r failed", update, exc_info=error)
    if not isinstance(update, Update) or error is None:
        return
    text = user_message(error, await lang_of(update))
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(text[:200], show_alert=True)
        elif update.effective_message is not None:
            await update.effective_message.reply_text(text, do_quote=True)
    except (BadRequest, Forbidden):
        log.warning("Could not tell the user about an error", exc_info=True)
    if isinstance(error, Unstorable):  # refused whole: no other handler reads it
        raise ApplicationHandlerStop
