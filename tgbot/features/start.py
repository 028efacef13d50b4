"""/start and /help, in private chats and groups."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.campaigns import JOIN_PREFIX
from tgbot.context import StonetableContext
from tgbot.features import campaign, sheet
from tgbot.features.common import CommandSpec, actor, command_args
from tgbot.private import deliver_held
from tgbot.render.text import esc

COMMANDS = [
    CommandSpec("start", "Say hello and open your sheet", group=False),
    CommandSpec("help", "What I can do"),
]

HELP = (
    "<b>Stonetable</b> runs tabletop roleplaying games right here in Telegram.\n\n"
    "🎲 <code>/roll 2d6+3</code> — roll dice. Also <code>4d6kh3</code> (keep highest 3), "
    "<code>2d20kl1</code> (keep lowest), <code>d20 adv</code> / <code>d20 dis</code>, "
    "several parts like <code>1d8+1d6+2</code>, and a note after the dice: "
    "<code>/roll d20+5 sneak attack</code>.\n"
    "📜 /sheet — open your character sheet in the Mini App.\n"
    "❓ /help — this message."
)


async def start(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    assert update.effective_message is not None
    if chat.kind == ChatType.PRIVATE:
        await context.deps.play.mark_started(player)
        delivered = await deliver_held(context, player.tg_id)
        payload = command_args(update).strip()
        if payload.startswith(JOIN_PREFIX):
            await campaign.announce_join(update, context, payload)
            return
        if delivered:
            return  # they came for their messages
    greeting = f"👋 Hello, <b>{esc(player.display_name)}</b>!\n\n{HELP}"
    markup = await sheet.markup_for(update, context)
    await update.effective_message.reply_text(
        greeting, parse_mode=ParseMode.HTML, reply_markup=markup
    )


async def help_command(update: Update, context: StonetableContext) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(HELP, parse_mode=ParseMode.HTML)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("start", start), CommandHandler("help", help_command)]
