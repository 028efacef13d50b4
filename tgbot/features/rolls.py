"""/rolls: the last rolls made in this chat (or this forum topic), in one message."""

from __future__ import annotations

from telegram import Update
from telegram.ext import BaseHandler, CommandHandler

from core.i18n import N_
from core.roll_history import CHAT_ROLLS, rolls_in
from tgbot.context import StonetableContext
from tgbot.edits import reply_html
from tgbot.features.common import CommandSpec, actor
from tgbot.i18n import lang_of
from tgbot.render.rolls import render_rolls

COMMANDS = [CommandSpec("rolls", N_("The last ten rolls in this chat"))]


async def rolls(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    # in a private chat the reader saw their own secret rolls; in a group, only what all saw
    viewer = player.tg_id if chat.kind == "private" else None
    found = await rolls_in(chat.tg_id, chat.topic, viewer, limit=CHAT_ROLLS)
    assert update.effective_message is not None
    await reply_html(update.effective_message, render_rolls(found, await lang_of(update)))


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("rolls", rolls)]
