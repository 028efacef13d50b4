"""The Bot API's limits and the checks several methods share: lengths and counts,
the update types, chat actions and command scopes it knows, inline result ids,
commands, and the URLs a webhook or a Mini App button may have."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from tgbot.sandbox.fake_api.wire import Json, bad_request

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_ANSWER_TEXT_LENGTH = 200
MAX_DESCRIPTION = 512  # setMyDescription
MAX_SHORT_DESCRIPTION = 120  # setMyShortDescription
MAX_BUTTONS = 100
MAX_INPUT_FIELD_PLACEHOLDER = 64  # a forced reply's or reply keyboard's hint, 1-64 characters
MAX_PENDING_UPDATES = 1000
MAX_EVENTS = 2000
MAX_ALERTS_PER_USER = 100
MAX_OPEN_QUERIES = 500
MAX_MESSAGES_PER_CHAT = 5000
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_INLINE_QUERY = 256  # characters a client sends as an inline query
MAX_INLINE_RESULTS = 50
MAX_RESULT_ID_BYTES = 64
MAX_NEXT_OFFSET_BYTES = 64
MAX_OPEN_INLINE_QUERIES = 500
INLINE_QUERY_TIMEOUT = 10.0  # seconds Telegram waits for answerInlineQuery
DEFAULT_INLINE_CACHE = 300  # answerInlineQuery's cache_time when none is given
INLINE_RESULT_TYPES = frozenset(
    {
        "article",
        "photo",
        "gif",
        "mpeg4_gif",
        "video",
        "audio",
        "voice",
        "document",
        "location",
        "venue",
        "contact",
        "game",
        "sticker",
    }
)
_QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"


DEFAULT_ALLOWED_UPDATES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)
CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
COMMAND_SCOPES = frozenset(
    {
        "default",
        "all_private_chats",
        "all_group_chats",
        "all_chat_administrators",
        "chat",
        "chat_administrators",
        "chat_member",
    }
)


def _check_result_id(result_id: Any, seen: set[str]) -> None:
    """An inline result's id: 1-64 bytes, once per answer."""
    if not isinstance(result_id, str) or not 1 <= len(result_id.encode()) <= MAX_RESULT_ID_BYTES:
        raise bad_request("RESULT_ID_INVALID")
    if result_id in seen:
        raise bad_request("RESULT_ID_DUPLICATE")
    seen.add(result_id)


def _check_command(command: Any) -> Json:
    if not isinstance(command, dict):
        raise bad_request("can't parse BotCommand JSON object")
    name, description = command.get("command"), command.get("description")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]{1,32}", name):
        raise bad_request("BOT_COMMAND_INVALID")
    if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
        raise bad_request("command description must be non-empty")
    return {"command": name, "description": description}


def _is_local(host: str | None) -> bool:
    return host in ("127.0.0.1", "localhost", "::1")


def _is_webhook_url(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.hostname) and (
        parts.scheme == "https" or (parts.scheme == "http" and _is_local(parts.hostname))
    )


def _check_web_app_url(web_app: Any, where: str) -> None:
    """Telegram's rule: Mini App URLs are HTTPS (the sandbox also allows local HTTP)."""
    url = web_app.get("url") if isinstance(web_app, dict) else None
    if not isinstance(url, str) or not url:
        raise bad_request(f"can't parse {where}: web_app url is empty")
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return
    if parts.scheme == "http" and _is_local(parts.hostname):
        return
    raise bad_request(f"{where} Web App URL '{url}' is invalid: Only HTTPS links are allowed")
