"""While you were away: before any feature takes a player's command or press in a game's
group, a player back after a day or more gets what happened since, in private, in their
language (:mod:`core.views.away`). A player the bot may not write to gets nothing."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError

from core.runtime.errors import TryAgain
from core.views.away import Digest, returning
from core.words.i18n import Lang
from tgbot.context import StonetableContext
from tgbot.i18n import personal_lang
from tgbot.render.nsu import app_button
from tgbot.render.text import esc
from tgbot.updates import topic_of

log = logging.getLogger(__name__)


def acting(update: Update) -> bool:
    """A command or a press in a group: what counts as acting in its game."""
    chat = update.effective_chat
    if chat is None or chat.type == ChatType.PRIVATE or update.effective_user is None:
        return False
    if update.callback_query is not None:
        return True
    message = update.message
    return message is not None and (message.text or "").startswith("/")


def digest_text(digest: Digest, lang: Lang) -> str:
    """``👋 While you were away from …``, the newest lines and how many more (HTML)."""
    game = esc(lang.gettext(digest.campaign.system.name))
    lines = [
        "👋 "
        + lang.gettext(
            "While you were away from <b>{game}</b> in {chat}:",
            game=game,
            chat=esc(digest.campaign.chat_title),
        )
    ]
    lines += [f"• {esc(line.text_in(lang))}" for line in digest.lines]
    if digest.more:
        lines.append(
            lang.ngettext(
                "…and {num} more entry in the game's log (Mini App).",
                "…and {num} more entries in the game's log (Mini App).",
                digest.more,
            )
        )
    return "\n".join(lines)


async def welcome_back(update: Update, context: StonetableContext) -> None:
    """Keep the player's action; if it is a return, send them the digest in private."""
    if not acting(update):
        return
    assert update.effective_chat is not None and update.effective_user is not None
    user = update.effective_user
    try:
        digest = await returning(
            context.deps.campaigns,
            update.effective_chat.id,
            topic_of(update),
            user.id,
        )  # its own small transaction, before the change: not the change's unit of work
    except TryAgain:
        return  # the action itself will say so
    if digest is None:
        return
    lang = personal_lang(update)
    button = app_button(
        "📜 " + lang.gettext("Open the game"),
        private=True,
        webapp_url=context.deps.webapp_url,
        bot=context.bot.username,
        short_name=context.deps.settings.miniapp_short_name,
        token=digest.campaign.app_token,
    )
    try:
        await context.bot.send_message(
            user.id,
            digest_text(digest, lang),
            parse_mode=ParseMode.HTML,
            reply_markup=None if button is None else InlineKeyboardMarkup([[button]]),
        )
    except TelegramError as error:  # they never opened a private chat, or blocked the bot
        log.info("No digest for a returning player: %s", error)
