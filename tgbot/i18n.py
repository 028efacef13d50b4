"""The language to answer an update in: a private chat follows the user, a group its game."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType

from core.errors import TryAgain
from core.i18n import Lang, lang_for
from core.languages import chat_language
from tgbot.features.common import topic_of


def personal_lang(update: Update) -> Lang:
    """The sender's own language (their Telegram app's), English when unknown."""
    user = update.effective_user
    return lang_for(user.language_code if user is not None else None)


async def lang_of(update: Update) -> Lang:
    """A private chat speaks its user's language; a group its live game's, else the sender's."""
    chat = update.effective_chat
    if chat is None or chat.type == ChatType.PRIVATE:
        return personal_lang(update)
    try:
        code = await chat_language(chat.id, topic_of(update))
    except TryAgain:
        code = None  # the store is away: the sender's language will do for this answer
    return personal_lang(update) if code is None else lang_for(code)


async def game_lang(chat_tg_id: int, topic: int = 0) -> Lang:
    """The language of the live game in a group's topic (English when none runs there)."""
    return lang_for(await chat_language(chat_tg_id, topic))
