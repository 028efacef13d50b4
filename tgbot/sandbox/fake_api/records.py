"""The records the API keeps: a chat and its forum topics, the callback and inline
queries a player's client sent and their answers to come, the webhook."""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from tgbot.sandbox.fake_api.wire import Json


@dataclass
class _Query:
    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created: float
    answer: asyncio.Future[Json]


@dataclass
class _Asked:
    """A query a player's client sent the bot, and the bot's answer to come."""

    query_id: str
    update: Json | None
    answer: asyncio.Future[Json]

    async def answered(self, timeout: float = 5.0) -> Json:
        """Wait until the bot answers the query; return the answer's fields."""
        return await asyncio.wait_for(asyncio.shield(self.answer), timeout)


@dataclass
class ButtonPress(_Asked):
    """A pressed callback button; await ``answered()`` for answerCallbackQuery's result."""

    update: Json


@dataclass
class _InlineQuery:
    id: str
    user_id: int
    query: str
    created: float
    answer: asyncio.Future[Json]


@dataclass
class InlineAsk(_Asked):
    """An inline query typed by a player; await ``answered()`` for the bot's results
    (answerInlineQuery's fields).

    ``update`` is None when Telegram answered from its cache (the bot is not asked).
    """


@dataclass
class _Webhook:
    url: str
    secret_token: str
    max_connections: int
    last_error_date: int = 0
    last_error_message: str = ""


@dataclass
class _ChatState:
    chat: Json
    messages: OrderedDict[int, Json] = field(default_factory=OrderedDict)
    next_message_id: int = 1
    pinned: int | None = None
    sent_times: deque[float] = field(default_factory=deque)
    # a forum supergroup's topics by message_thread_id (General has none)
    topics: dict[int, _Topic] = field(default_factory=dict)


@dataclass
class _Topic:
    """One topic of a forum supergroup: its id is its creation message's id."""

    thread_id: int
    name: str
    icon_color: int = 0x6FB9F0
    closed: bool = False

    def as_json(self) -> Json:
        return {
            "message_thread_id": self.thread_id,
            "name": self.name,
            "icon_color": self.icon_color,
        }
