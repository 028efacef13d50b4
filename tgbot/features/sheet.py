"""Opening the Mini App: a web_app button in private chats, a t.me link in groups."""

from __future__ import annotations

from urllib.parse import urlencode

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update, WebAppInfo
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.words.i18n import N_, Lang
from tgbot.context import StonetableContext
from tgbot.i18n import lang_of
from tgbot.updates import CommandSpec, actor

COMMANDS = [CommandSpec("sheet", N_("Open your character sheet"))]
NOT_CONFIGURED = N_("The Mini App isn't set up on this bot yet (the host needs to set WEBAPP_URL).")
OPENS = N_("Your sheet opens inside Telegram:")


def sheet_button(
    *,
    chat_type: str,
    webapp_url: str | None,
    bot_username: str,
    short_name: str | None,
    token: str,
    lang: Lang,
) -> InlineKeyboardMarkup | None:
    """The right "Open sheet" button for a chat type, or None without a Mini App."""
    if webapp_url is None:
        return None
    label = "📜 " + lang.gettext("Open sheet")
    if chat_type == ChatType.PRIVATE:
        url = f"{webapp_url}?{urlencode({'startapp': token})}" if token else webapp_url
        button = InlineKeyboardButton(label, web_app=WebAppInfo(url=url))
    else:
        path = f"{bot_username}/{short_name}" if short_name else bot_username
        button = InlineKeyboardButton(
            label, url=f"https://t.me/{path}?{urlencode({'startapp': token})}"
        )
    return InlineKeyboardMarkup([[button]])


async def app_token_for(update: Update, context: StonetableContext) -> str:
    """The campaign the Mini App should open on: the group's live game, else the
    player's latest game (in private), else the chat's own page."""
    chat, player = actor(update)
    campaigns = context.deps.campaigns
    if chat.kind == ChatType.PRIVATE:
        mine = await campaigns.campaigns_of(player)
        return mine[0].app_token if mine else ""
    live = await campaigns.current(chat.tg_id, chat.topic)
    return live.app_token if live is not None else await context.deps.play.chat_app_token(chat)


async def markup_for(update: Update, context: StonetableContext) -> InlineKeyboardMarkup | None:
    chat, _ = actor(update)
    deps = context.deps
    token = await app_token_for(update, context)
    return sheet_button(
        chat_type=chat.kind,
        webapp_url=deps.webapp_url,
        bot_username=context.bot.username,
        short_name=deps.settings.miniapp_short_name,
        token=token,
        lang=await lang_of(update),
    )


async def sheet(update: Update, context: StonetableContext) -> None:
    markup = await markup_for(update, context)
    assert update.effective_message is not None
    lang = await lang_of(update)
    text = lang.gettext(OPENS if markup else NOT_CONFIGURED)
    await update.effective_message.reply_text(text, reply_markup=markup, parse_mode=ParseMode.HTML)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("sheet", sheet)]
