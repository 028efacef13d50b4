"""/start and /help, in private chats and groups."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.campaigns import JOIN_PREFIX
from core.i18n import N_
from tgbot.app import features
from tgbot.context import StonetableContext
from tgbot.features import campaign, sheet
from tgbot.features.common import CommandSpec, actor, command_args
from tgbot.i18n import lang_of
from tgbot.private import deliver_held
from tgbot.render.help import general, help_text
from tgbot.render.text import esc

COMMANDS = [
    CommandSpec("start", N_("Say hello and open your sheet"), group=False),
    CommandSpec("help", N_("What I can do")),
]


async def start(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    assert update.effective_message is not None
    if chat.kind == ChatType.PRIVATE:
        await context.deps.play.mark_started(player)
        payload = command_args(update).strip()
        joining = payload.startswith(JOIN_PREFIX)  # then the join claims the update
        delivered = await deliver_held(
            context, player.tg_id, update_id=None if joining else update.update_id
        )
        if joining:
            await campaign.announce_join(update, context, payload)
            return
        if delivered:
            return  # they came for their messages
    lang = await lang_of(update)
    hello = lang.gettext("Hello, <b>{name}</b>!", name=esc(player.display_name))
    greeting = f"👋 {hello}\n\n{general(lang)}"
    markup = await sheet.markup_for(update, context)
    await update.effective_message.reply_text(
        greeting, parse_mode=ParseMode.HTML, reply_markup=markup
    )


async def help_command(update: Update, context: StonetableContext) -> None:
    chat, _ = actor(update)
    campaigns = context.deps.campaigns
    in_group = chat.kind != ChatType.PRIVATE
    view = await campaigns.current(chat.tg_id, chat.topic) if in_group else None
    lang = await lang_of(update)
    text = help_text(campaigns.registry, features(), view.system.key if view else None, lang)
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("start", start), CommandHandler("help", help_command)]
