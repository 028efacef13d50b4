"""How the bot introduces itself: its descriptions and the private chats' menu button.

Telegram shows the description in an empty chat before Start ("What can this bot
do?"), the short description on the bot's profile and in shared links, and the menu
button beside the message field. The bot sets them itself at start-up, in every
catalogue language (Telegram picks by the user's ``language_code``; the variant
without a code, in English, is for everyone else). The menu button opens the Mini
App; Telegram keeps one default button for all private chats, so the default is in
English and a player's own chat gets theirs, in their language, when they press Start.
"""

from __future__ import annotations

import logging

from telegram import Bot, MenuButtonWebApp, WebAppInfo
from telegram.error import TelegramError

from core.words.i18n import N_, Lang, lang_for
from tgbot.menu import variants

log = logging.getLogger(__name__)

MAX_DESCRIPTION = 512  # setMyDescription
MAX_SHORT_DESCRIPTION = 120  # setMyShortDescription
DESCRIPTION = N_(
    "I run tabletop roleplaying games in your group chat.\n\n"
    "🎲 Dice for everyone: /roll 2d6+3, 4d6kh3, d20 adv.\n"
    "🗺 Four games to play together: No Stone Unturned, threat dice, Cortex drama and "
    "d20 checks. Add me to a group and send /newgame.\n"
    "📜 Your sheet, the map and the campaign's log open in the Mini App.\n"
    "🔒 Secrets (a card's face, a scout's look, the X-card) come to you in private.\n\n"
    "Press Start to begin."
)
SHORT_DESCRIPTION = N_("Tabletop roleplaying games in your group chat: dice, sheets, a shared map.")
MENU_BUTTON = N_("Play")


def menu_button(webapp_url: str, lang: Lang) -> MenuButtonWebApp:
    """The private chat's button that opens the Mini App."""
    return MenuButtonWebApp("🎲 " + lang.gettext(MENU_BUTTON), WebAppInfo(url=webapp_url))


async def introduce(bot: Bot, webapp_url: str | None) -> None:
    """Set the descriptions in every language and the default menu button (best effort:
    a refusal is logged and the bot starts anyway)."""
    try:
        for code, lang in variants():
            await bot.set_my_description(lang.gettext(DESCRIPTION), language_code=code)
            await bot.set_my_short_description(lang.gettext(SHORT_DESCRIPTION), language_code=code)
        if webapp_url is not None:
            await bot.set_chat_menu_button(menu_button=menu_button(webapp_url, lang_for(None)))
    except TelegramError as error:
        log.warning("Could not set the bot's description or menu button: %s", error)


async def give_menu_button(bot: Bot, chat_id: int, webapp_url: str | None, lang: Lang) -> None:
    """A player's private chat gets the Mini App button in their own language."""
    if webapp_url is None:
        return
    try:
        await bot.set_chat_menu_button(chat_id, menu_button(webapp_url, lang))
    except TelegramError as error:
        log.warning("Could not set the menu button of chat %s: %s", chat_id, error)
