"""The language to answer an update in: a private chat follows the user, a group its game."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType

from core.campaigns import CampaignView, PanelView
from core.campaigns.languages import chat_language
from core.runtime.errors import TryAgain
from core.words.i18n import Lang, lang_for
from tgbot.updates import topic_of


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


def lang_at(view: PanelView) -> Lang:
    """The language a panel's message is worded in: its group's game language, or in a
    private chat the language of the player it belongs to."""
    campaign = view.campaign
    if view.chat_tg_id == campaign.chat_tg_id:
        return lang_for(campaign.language)
    return voice(campaign, view.chat_tg_id)


def voice(campaign: CampaignView, player_id: int) -> Lang:
    """The language a member reads in private: their Telegram app's, as last seen
    (the game's language for someone not seated, e.g. a chat id of the group)."""
    if player_id == campaign.chat_tg_id:
        return lang_for(campaign.language)
    member = campaign.member(player_id)
    return lang_for(member.language if member is not None else None)


async def game_lang(chat_tg_id: int, topic: int = 0) -> Lang:
    """The language of the live game in a group's topic (English when none runs there)."""
    return lang_for(await chat_language(chat_tg_id, topic))
