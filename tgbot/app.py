"""The one place that wires the bot: features, error handling, commands."""

from __future__ import annotations

import contextlib
import importlib
import logging
from types import ModuleType

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.error import BadRequest, Forbidden
from telegram.ext import AIORateLimiter, ApplicationBuilder, ContextTypes, TypeHandler

from core.errors import AlreadyHandled, TryAgain
from core.rules.errors import StonetableError
from core.store.repo import current_update
from tgbot.context import BotDeps, StonetableApplication, StonetableContext
from tgbot.panels import PanelRenderer, Renderers
from tgbot.processor import PerChatUpdateProcessor
from tgbot.render.errors import user_message
from tgbot.request import AiohttpRequest

log = logging.getLogger(__name__)


def renderers() -> Renderers:
    """Every panel renderer, by kind, from the features that have them."""
    found: dict[str, PanelRenderer] = {}
    for feature in features():
        for renderer in getattr(feature, "RENDERERS", ()):
            found[renderer.kind] = renderer
    return found


# Feature modules, one line each; each exports COMMANDS, handlers() and maybe RENDERERS.
FEATURE_MODULES: tuple[str, ...] = (
    "tgbot.features.start",
    "tgbot.features.roll",
    "tgbot.features.sheet",
    "tgbot.features.campaign",
    "tgbot.features.panels",
    "tgbot.features.nsu",
    "tgbot.features.nsu_play",
    "tgbot.features.threat",
    "tgbot.features.cortex",
    "tgbot.features.d20",
)


def features() -> tuple[ModuleType, ...]:
    return tuple(importlib.import_module(name) for name in FEATURE_MODULES)


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
        builder = builder.rate_limiter(AIORateLimiter(max_retries=2))  # type: ignore[arg-type]
    application = builder.build()
    assert isinstance(application, StonetableApplication)
    application.add_handler(TypeHandler(Update, remember_update), group=-1)
    for feature in features():
        application.add_handlers(feature.handlers())
    application.add_error_handler(on_error)
    return application


async def register_commands(application: StonetableApplication) -> None:
    """Publish the command menu for private chats and for groups."""
    specs = [spec for feature in features() for spec in feature.COMMANDS]
    private = [BotCommand(s.name, s.description) for s in specs if s.private]
    group = [BotCommand(s.name, s.description) for s in specs if s.group]
    await application.bot.set_my_commands(private, scope=BotCommandScopeAllPrivateChats())
    await application.bot.set_my_commands(group, scope=BotCommandScopeAllGroupChats())


async def remember_update(update: Update, context: StonetableContext) -> None:
    """Let the use cases claim this update, so a redelivered copy changes nothing."""
    current_update.set(update.update_id)


def unexpected(error: Exception) -> bool:
    """Whether a handler's error is a fault, not something the user was simply told."""
    if isinstance(error, BadRequest) and "not modified" in error.message.lower():
        return False
    return not isinstance(error, StonetableError)


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
    elif error is not None and unexpected(error):
        log.error("Update %r failed", update, exc_info=error)
    if not isinstance(update, Update) or error is None:
        return
    text = user_message(error)
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(text[:200], show_alert=True)
        elif update.effective_message is not None:
            await update.effective_message.reply_text(text, do_quote=True)
    except (BadRequest, Forbidden):
        log.warning("Could not tell the user about an error", exc_info=True)
