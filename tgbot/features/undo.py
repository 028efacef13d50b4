"""Taking a step back: ``/undo`` in the chat and the ``↩ Undo`` button on a panel."""

from __future__ import annotations

import asyncio

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.campaigns.undo import TookBack, Undos
from core.rules.errors import NotAllowedNow
from core.words.i18n import N_
from tgbot.buttons.undo import UndoButton
from tgbot.callback import decode_as, pattern
from tgbot.context import StonetableContext
from tgbot.i18n import game_lang, lang_of
from tgbot.outbox import reply_with, sent_with
from tgbot.presenter import settle
from tgbot.render.undo import took_back_text
from tgbot.updates import CommandSpec, actor, player_of

COMMANDS = [CommandSpec("undo", N_("Take back your last step (not rolled dice)"), private=False)]


IN_PRIVATE = N_("Send /undo in your game's group, or press ↩ Undo on the panel you just used.")


async def undo(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    if chat.kind == ChatType.PRIVATE:
        raise NotAllowedNow(IN_PRIVATE)
    undos = Undos(context.deps.campaigns)
    lang = await lang_of(update)

    async def draw(back: object) -> str:
        assert isinstance(back, TookBack)
        return took_back_text(back, lang)

    reply_with(context, draw)  # written with the undo, sent after its commit with the redraws
    back = await undos.undo_in_chat(chat.tg_id, player, topic=chat.topic, unit=context.unit)
    await _redraw(context, back)


async def press_undo(update: Update, context: StonetableContext) -> None:
    query = update.callback_query
    assert query is not None and update.effective_user is not None
    pressed = decode_as(query.data, UndoButton)
    undos = Undos(context.deps.campaigns)
    back = await undos.undo_panel(
        pressed.panel_id,
        pressed.version,
        player_of(update.effective_user),
        unit=context.unit,
    )
    answer = took_back_text(
        back, await game_lang(back.campaign.chat_tg_id, back.campaign.topic_id), html=False
    )
    await asyncio.gather(query.answer(answer), _redraw(context, back))


async def _redraw(context: StonetableContext, back: TookBack) -> None:
    """Every open view the undo touched, through the one presenter (the rows the undo
    wrote to the outbox)."""
    if not await sent_with(context, back):
        await settle(context, back.changed)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CommandHandler("undo", undo),
        CallbackQueryHandler(press_undo, pattern=pattern(UndoButton)),
    ]
