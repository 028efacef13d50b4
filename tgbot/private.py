"""Private messages that never get lost: held and delivered when the player comes back."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import Forbidden

from tgbot.context import StonetableContext
from tgbot.i18n import game_lang
from tgbot.render.text import esc
from tgbot.topics import send_game

INBOX = "inbox"


async def send_private(
    context: StonetableContext,
    user_id: int,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
    *,
    group_chat_id: int | None = None,
    group_topic: int = 0,
    name: str = "",
) -> bool:
    """Send an HTML message to a player's private chat.

    When Telegram refuses (the player never pressed Start, or blocked the bot), the
    message is held and the group is asked, without saying what it is, to open the
    private chat; it is delivered on the next Start.

    Returns:
        Whether it was delivered now.
    """
    try:
        await context.bot.send_message(
            user_id, text, parse_mode=ParseMode.HTML, reply_markup=markup
        )
    except Forbidden:
        await context.deps.play.hold_note(user_id, text, markup.to_dict() if markup else None)
        if group_chat_id is not None:
            link = f"https://t.me/{context.bot.username}?start={INBOX}"
            lang = await game_lang(group_chat_id, group_topic)
            label = lang.gettext("🔓 Open my messages")
            button = InlineKeyboardMarkup([[InlineKeyboardButton(label, url=link)]])
            if name:
                asked = lang.gettext(
                    "🔒 <b>{name}</b>, I have something private for you, but I can't write to "
                    "you. Open our chat and press <b>Start</b>.",
                    name=esc(name),
                )
            else:
                asked = lang.gettext(
                    "🔒 I have something private for you, but I can't write to you. "
                    "Open our chat and press <b>Start</b>."
                )
            await send_game(context.bot, group_chat_id, group_topic, asked, reply_markup=button)
        return False
    return True
