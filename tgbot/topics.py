"""Every message of a game goes to the game's topic, through here.

A forum group runs one game per topic: whatever the bot sends for a game (panels,
notices, private safety tools posted to the group, turn prompts, pictures, nudges)
carries the game's ``message_thread_id``. When Telegram refuses a post to a topic
(closed, deleted, or the bot may not write there) the group is told once, in General,
instead of the message vanishing; if even that fails it is logged.
"""

from __future__ import annotations

import logging
from html import escape
from typing import Any

from telegram import Bot, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden

from core.campaigns.languages import chat_language
from core.campaigns.topics import first_refusal, pause_with_topic, topic_name
from core.words.i18n import N_, lang_for
from tgbot.edits import SEND_MESSAGE

log = logging.getLogger(__name__)

# What Telegram answers when a topic cannot take the bot's post.
REFUSALS = (
    "topic_closed",
    "topic_deleted",
    "message thread not found",
    "not enough rights",
    "chat_write_forbidden",
    "have no rights to send",
)

CANNOT_POST = N_(
    "⚠️ I can't post in the topic <b>{name}</b> (it is closed, deleted, or I may not "
    "write there), so its game is paused. Reopen the topic or let me post there."
)


def thread(topic: int) -> int | None:
    """The ``message_thread_id`` to send with: None for General and plain groups."""
    return topic or None


def refused(error: BadRequest | Forbidden) -> bool:
    text = error.message.lower()
    return any(word in text for word in REFUSALS)


async def send_game(bot: Bot, chat_id: int, topic: int, text: str, **kwargs: Any) -> Message | None:
    """Send a game's message to its topic (HTML unless told otherwise).

    Returns:
        The message, or None when the topic refused it (the group was told once).
    """
    kwargs.setdefault("parse_mode", ParseMode.HTML)
    try:
        return await bot.send_message(chat_id, text, message_thread_id=thread(topic), **kwargs)
    except (BadRequest, Forbidden) as error:
        if not topic or not refused(error):
            raise
        await say_refused(bot, chat_id, topic)
        return None


async def send_game_id(
    bot: Bot, chat_id: int, topic: int, text: str, fields: dict[str, Any]
) -> int | None:
    """Send a game's HTML message to its topic as :func:`send_game` does, with the Bot
    API's own ``fields`` (``reply_markup``, ``reply_parameters`` as JSON), the answer not
    parsed into a ``Message``.

    Returns:
        The sent message's id, or None when the topic refused it (the group was told once).
    """
    api = {"chat_id": chat_id, "text": text, "parse_mode": ParseMode.HTML.value, **fields}
    if thread(topic) is not None:
        api["message_thread_id"] = thread(topic)
    try:
        sent = await bot.do_api_request(SEND_MESSAGE, api_kwargs=api)
    except (BadRequest, Forbidden) as error:
        if not topic or not refused(error):
            raise
        await say_refused(bot, chat_id, topic)
        return None
    return int(sent["message_id"])


async def send_game_photo(
    bot: Bot, chat_id: int, topic: int, photo: Any, **kwargs: Any
) -> Message | None:
    """Send a game's picture to its topic; None when the topic refused it."""
    try:
        return await bot.send_photo(chat_id, photo, message_thread_id=thread(topic), **kwargs)
    except (BadRequest, Forbidden) as error:
        if not topic or not refused(error):
            raise
        await say_refused(bot, chat_id, topic)
        return None


async def say_refused(bot: Bot, chat_id: int, topic: int) -> None:
    """Tell the group once, in General, that a topic does not take the bot's posts; its
    game waits (paused) until the topic is reopened."""
    await pause_with_topic(chat_id, topic, paused=True)
    if not await first_refusal(chat_id, topic):
        return
    name = await topic_name(chat_id, topic) or f"#{topic}"
    lang = lang_for(await chat_language(chat_id, topic))  # the game's language
    try:
        await bot.send_message(
            chat_id, lang.gettext(CANNOT_POST, name=escape(name)), parse_mode=ParseMode.HTML
        )
    except (BadRequest, Forbidden) as error:
        log.warning("cannot post in topic %s of chat %s, nor in General: %s", topic, chat_id, error)
