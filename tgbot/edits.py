"""Editing a panel's message: the hottest Bot API call, made without object round trips.

``Bot.edit_message_text`` turns the keyboard into a dict through PTB's generic
``to_dict`` and parses the edited message Telegram sends back into a ``Message``
that nobody reads: together about 1.3 ms of a button press's CPU. Here the keyboard
becomes JSON directly and the answer stays a plain dict. Errors are PTB's own
(``BadRequest``, ``RetryAfter``...), and the call goes through the bot's rate limiter.
"""

from __future__ import annotations

from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.constants import ChatType, ParseMode

# Bot API method names are case-insensitive; this spelling is not one of PTB's
# own method names, so ``do_api_request`` does not suggest using them instead.
EDIT_MESSAGE_TEXT = "editmessagetext"
EDIT_MESSAGE_CAPTION = "editmessagecaption"  # a message under a picture
SEND_MESSAGE = "sendmessage"


def button_json(button: InlineKeyboardButton) -> dict[str, Any]:
    """The button as the Bot API takes it (the same as ``button.to_dict()``)."""
    if isinstance(button.callback_data, str):
        return {"text": button.text, "callback_data": button.callback_data}
    if button.url is not None and len(button.to_dict()) == 2:
        return {"text": button.text, "url": button.url}
    return button.to_dict()


def markup_json(markup: InlineKeyboardMarkup) -> dict[str, Any]:
    """The keyboard as the Bot API takes it (the same as ``markup.to_dict()``)."""
    if not markup.inline_keyboard:
        return {}  # as PTB sends it
    return {"inline_keyboard": [[button_json(b) for b in row] for row in markup.inline_keyboard]}


async def edit_text(
    bot: Bot, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
) -> None:
    """Edit a message's HTML text and keyboard (``None``: no keyboard any more).

    Raises:
        telegram.error.TelegramError: as ``Bot.edit_message_text`` would.
    """
    fields: dict[str, Any] = {
        "chat_id": chat_id,
        "message_id": message_id,
        "text": text,
        "parse_mode": ParseMode.HTML.value,
    }
    if markup is not None:
        fields["reply_markup"] = markup_json(markup)
    await bot.do_api_request(EDIT_MESSAGE_TEXT, api_kwargs=fields)


async def reply_html(message: Message, text: str) -> None:
    """Answer ``message`` with HTML text as ``message.reply_text(text, parse_mode=HTML)``
    does (no ``Defaults`` are set): in its topic, quoting it outside private chats; the
    sent message is not parsed back.

    Raises:
        telegram.error.TelegramError: as ``Message.reply_text`` would.
    """
    fields: dict[str, Any] = {
        "chat_id": message.chat_id,
        "text": text,
        "parse_mode": ParseMode.HTML.value,
    }
    if message.chat.type != ChatType.PRIVATE:
        fields["reply_parameters"] = {"message_id": message.message_id}
    if message.is_topic_message and message.message_thread_id is not None:
        fields["message_thread_id"] = message.message_thread_id
    if message.business_connection_id is not None:
        fields["business_connection_id"] = message.business_connection_id
    if message.direct_messages_topic is not None:
        fields["direct_messages_topic_id"] = message.direct_messages_topic.topic_id
    await message.get_bot().do_api_request(SEND_MESSAGE, api_kwargs=fields)
