"""/roll: standard dice notation in any chat."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ParseMode
from telegram.ext import BaseHandler, CommandHandler

from tgbot.context import StonetableContext
from tgbot.features.common import CommandSpec, actor, command_args
from tgbot.render.dice import render_roll

COMMANDS = [CommandSpec("roll", "Roll dice: /roll 2d6+3, 4d6kh3, d20 adv")]


async def roll(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    result = await context.deps.play.roll(chat, player, command_args(update) or "d20")
    assert update.effective_message is not None
    await update.effective_message.reply_text(
        render_roll(result, player.display_name), parse_mode=ParseMode.HTML
    )


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler(["roll", "r"], roll)]
