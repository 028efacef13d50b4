"""Forum topics: their names, and a game that waits while its topic is closed.

Telegram tells a topic's name and state only in service messages posted in it
(created, edited, closed, reopened). The names let deep links and the Mini App tell a
group's games apart; a closed topic pauses its game, and reopening it says so and goes
on.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import BaseHandler, MessageHandler, filters

from core.campaigns.topics import remember_topic
from core.words.i18n import N_
from tgbot.context import StonetableContext
from tgbot.i18n import game_lang
from tgbot.topics import send_game

COMMANDS: list = []  # type: ignore[type-arg]

REOPENED = N_("▶️ The topic is open again, and so is its game: play on where you left off.")

SERVICE = (
    filters.StatusUpdate.FORUM_TOPIC_CREATED
    | filters.StatusUpdate.FORUM_TOPIC_EDITED
    | filters.StatusUpdate.FORUM_TOPIC_CLOSED
    | filters.StatusUpdate.FORUM_TOPIC_REOPENED
)


async def topic_changed(update: Update, context: StonetableContext) -> None:
    message = update.effective_message
    if message is None or not message.is_topic_message or not message.message_thread_id:
        return
    chat, thread = message.chat_id, message.message_thread_id
    if message.forum_topic_created is not None:
        await remember_topic(chat, thread, name=message.forum_topic_created.name)
    elif message.forum_topic_edited is not None:
        if message.forum_topic_edited.name is not None:
            await remember_topic(chat, thread, name=message.forum_topic_edited.name)
    elif message.forum_topic_closed is not None:
        await remember_topic(chat, thread, closed=True)
        campaign = await context.deps.campaigns.topics.with_topic(
            chat, thread, paused=True, unit=context.unit
        )
        if campaign is not None:
            await context.deps.campaigns.events.publish(campaign)
    elif message.forum_topic_reopened is not None:
        await remember_topic(chat, thread, closed=False)
        campaign = await context.deps.campaigns.topics.with_topic(
            chat, thread, paused=False, unit=context.unit
        )
        if campaign is not None:
            await context.deps.campaigns.events.publish(campaign)
            lang = await game_lang(chat, thread)
            await send_game(context.bot, chat, thread, lang.gettext(REOPENED))


def handlers() -> dict[int, list[BaseHandler[Update, StonetableContext, None]]]:
    # a group of its own: a service message also reaches the game's handlers
    return {-1: [MessageHandler(SERVICE, topic_changed)]}
