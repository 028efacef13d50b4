"""Buttons on panels: one handler for every game's procedures."""

from __future__ import annotations

import asyncio

from telegram import Message, Update
from telegram.ext import BaseHandler, CallbackQueryHandler, MessageHandler, filters

from core.campaigns import PanelView
from core.rules.errors import Malformed
from core.words.i18n import N_
from tgbot.callback import PanelButton, decode
from tgbot.context import StonetableContext
from tgbot.features.own_systems import draft_reply
from tgbot.i18n import lang_of
from tgbot.presenter import in_outbox, post, present, settle, show
from tgbot.sender import send_pending
from tgbot.updates import player_of, replied

COMMANDS: list = []  # type: ignore[type-arg]


async def post_panel(update: Update, context: StonetableContext, view: PanelView) -> Message | None:
    """Send a new panel message as a reply to the command, and remember it."""
    assert update.effective_message is not None
    message = update.effective_message
    return await post(context, message.chat_id, view, reply_to=message)


async def press(update: Update, context: StonetableContext) -> None:
    query = update.callback_query
    assert query is not None and update.effective_user is not None
    data = decode(query.data)
    if not isinstance(data, PanelButton):
        raise Malformed(N_("That button is out of date."))
    campaigns = context.deps.campaigns
    # A stale or repeated press raises: the error handler says why (a repeated one says
    # nothing). Its message is left as it reads: what a press saved is always shown, by
    # the outbox written with it (sent by the press, a redelivered copy or the sweeper).
    view = await campaigns.act(
        data.panel_id,
        data.version,
        player_of(update.effective_user),
        data.action,
        data.argument,
        unit=context.unit,
    )
    # The answer stops the button's spinner; the outbox's edit (written with the
    # change) shows the new state. Neither waits for the other, so a press costs one
    # round trip to Telegram, not two.
    if in_outbox(context, view):
        await asyncio.gather(query.answer(), send_pending(context.stonetable, context.unit))
        return
    await asyncio.gather(query.answer(), show(context, view))
    await settle(context, view)


TEXT_ACTION = "text"
MAX_TEXT = 1000


async def reply_to_panel(update: Update, context: StonetableContext) -> None:
    """A player's reply to a panel message is that panel's free-text action."""
    message = update.effective_message
    answered = replied(message)
    if message is None or answered is None or update.effective_user is None:
        return
    if answered.from_user is None or answered.from_user.id != context.bot.id:
        return
    campaigns = context.deps.campaigns
    view = await campaigns.panel_at(message.chat_id, answered.message_id)
    if view is None:  # no panel's: maybe a question of a game system being written
        await draft_reply(update, context)
        return
    if not getattr(context.deps.renderers[view.kind], "takes_replies", True):
        return  # a panel that reads no words: a reply to it is table talk
    text = (message.text or "").strip()
    if not text:
        raise Malformed(N_("Write your answer as text."))
    if len(text) > MAX_TEXT:
        raise Malformed(N_("That's too long: keep it under {most} characters."), most=MAX_TEXT)
    read = getattr(context.deps.renderers[view.kind], "read_reply", None)
    if read is not None:  # words a game names in the reader's language, as its rules name them
        text = read(view, text, await lang_of(update))
    view = await campaigns.act(
        view.id,
        view.version,
        player_of(update.effective_user),
        TEXT_ACTION,
        text,
        unit=context.unit,
    )
    await present(context, view)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CallbackQueryHandler(press, pattern=r"^p1:"),
        MessageHandler(filters.REPLY & filters.TEXT & ~filters.COMMAND, reply_to_panel),
    ]
