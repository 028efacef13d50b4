"""Buttons on panels: one handler for every game's procedures."""

from __future__ import annotations

import asyncio

from telegram import Message, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest
from telegram.ext import BaseHandler, CallbackQueryHandler, MessageHandler, filters

from core.campaigns import PanelView
from core.errors import AlreadyHandled
from core.rules.errors import Malformed, NotAllowedNow
from tgbot.callback import PanelButton, decode
from tgbot.context import StonetableContext
from tgbot.edits import edit_text
from tgbot.features.common import player_of
from tgbot.i18n import game_lang
from tgbot.panels import Note, Refresh
from tgbot.private import send_private
from tgbot.render.undo import with_undo

COMMANDS: list = []  # type: ignore[type-arg]


async def post_panel(update: Update, context: StonetableContext, view: PanelView) -> Message:
    """Send a new panel message and remember it."""
    text, markup = context.deps.renderers[view.kind].render(view)
    if view.undo_by is not None:  # undo: the ↩ Undo button for the one who just acted
        markup = with_undo(view, markup, await game_lang(view.chat_tg_id))
    assert update.effective_message is not None
    message = await update.effective_message.reply_text(
        text, parse_mode=ParseMode.HTML, reply_markup=markup, do_quote=False
    )
    await context.deps.campaigns.bind_message(view.id, message.message_id)
    await follow_up(context, view)
    return message


async def show_panel(context: StonetableContext, view: PanelView) -> None:
    """Edit a panel's message to its current state."""
    if view.message_id is None:
        return
    text, markup = context.deps.renderers[view.kind].render(view)
    if view.undo_by is not None:  # undo: the ↩ Undo button for the one who just acted
        markup = with_undo(view, markup, await game_lang(view.chat_tg_id))
    try:
        await edit_text(context.bot, view.chat_tg_id, view.message_id, text, markup)
    except BadRequest as error:
        if "not modified" not in error.message.lower():
            raise


async def follow_up(context: StonetableContext, view: PanelView) -> None:
    """Send what a panel's change sends elsewhere, if its renderer says so.

    A note the bot cannot deliver now is held until the player presses Start.
    """
    follow_ups = getattr(context.deps.renderers[view.kind], "follow_ups", None)
    if follow_ups is None:
        return
    for item in follow_ups(view):
        if isinstance(item, Note):
            member = view.campaign.member(item.chat_id)
            await send_private(
                context,
                item.chat_id,
                item.text,
                item.markup,
                group_chat_id=view.campaign.chat_tg_id,
                name=member.name if member is not None else "",
            )
        elif isinstance(item, Refresh) and item.panel_id != view.id:
            await show_panel(context, await context.deps.campaigns.panel(item.panel_id))


async def refresh(context: StonetableContext, panel_id: int) -> None:
    """Edit a panel's message to what the database holds (no change if it shows that)."""
    try:
        view = await context.deps.campaigns.panel(panel_id)
    except NotAllowedNow:
        return
    await show_panel(context, view)


async def press(update: Update, context: StonetableContext) -> None:
    query = update.callback_query
    assert query is not None and update.effective_user is not None
    data = decode(query.data)
    if not isinstance(data, PanelButton):
        raise Malformed("That button is out of date.")
    campaigns = context.deps.campaigns
    try:
        view = await campaigns.act(
            data.panel_id,
            data.version,
            player_of(update.effective_user),
            data.action,
            data.argument,
            update_id=update.update_id,
        )
    except (NotAllowedNow, AlreadyHandled):
        # A stale or repeated press: make sure the message shows the stored state (a
        # worker may have saved a step and died before editing it), then say why.
        await refresh(context, data.panel_id)
        raise
    # The answer stops the button's spinner; the edit shows the new state. Neither
    # waits for the other, so a press costs one round trip to Telegram, not two.
    await asyncio.gather(query.answer(), show_panel(context, view))
    await follow_up(context, view)


TEXT_ACTION = "text"
MAX_TEXT = 1000


async def reply_to_panel(update: Update, context: StonetableContext) -> None:
    """A player's reply to a panel message is that panel's free-text action."""
    message = update.effective_message
    if message is None or message.reply_to_message is None or update.effective_user is None:
        return
    if (
        message.reply_to_message.from_user is None
        or message.reply_to_message.from_user.id != context.bot.id
    ):
        return
    campaigns = context.deps.campaigns
    view = await campaigns.panel_at(message.chat_id, message.reply_to_message.message_id)
    if view is None:
        return
    text = (message.text or "").strip()
    if not text:
        raise Malformed("Write your answer as text.")
    if len(text) > MAX_TEXT:
        raise Malformed(f"That's too long: keep it under {MAX_TEXT} characters.")
    view = await campaigns.act(
        view.id,
        view.version,
        player_of(update.effective_user),
        TEXT_ACTION,
        text,
        update_id=update.update_id,
    )
    await show_panel(context, view)
    await follow_up(context, view)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CallbackQueryHandler(press, pattern=r"^p1:"),
        MessageHandler(filters.REPLY & filters.TEXT & ~filters.COMMAND, reply_to_panel),
    ]
