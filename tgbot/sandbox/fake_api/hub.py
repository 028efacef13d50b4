"""What each part of the Bot API stand-in sees of the whole: the shared state, the
plumbing and the other parts, as protocols.

The parts (``feed``, ``forum``, ``delivery`` ...) import this module, never each other
nor ``api``; ``FakeBotApi`` in ``api`` is the one class that has all of it. Each
protocol lists only what the parts use of one another.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, Protocol

import aiohttp

from tgbot.sandbox.fake_api.files import _StoredFile
from tgbot.sandbox.fake_api.people import Player
from tgbot.sandbox.fake_api.records import _ChatState, _InlineQuery, _Query, _Webhook
from tgbot.sandbox.fake_api.wire import Json, _Params


class FeedSide(Protocol):
    """What the parts use of the change feed."""

    seq: int
    cursor: int

    def wake(self) -> None: ...

    async def wait_change(self, timeout: float) -> None: ...

    def emit(self, kind: str, chat_id: int | None = None, **data: Any) -> Json: ...

    def changed(self) -> None: ...


class ForumSide(Protocol):
    """What the parts use of forum topics."""

    def _is_forum(self, state: _ChatState) -> bool: ...

    def _thread(
        self, params: _Params, state: _ChatState, reply_to: Json | None, *, by_admin: bool
    ) -> int | None: ...

    def topics(self, chat_id: int) -> list[Json]: ...


class DeliverySide(Protocol):
    """What the parts use of update delivery."""

    def _push_update(self, /, **payload: Json) -> Json | None: ...


class OutgoingSide(Protocol):
    """What the parts use of the checks on what the bot sends."""

    def _reply_markup(self, params: _Params, state: _ChatState) -> Json | None: ...

    def _sent_markup(
        self, params: _Params, state: _ChatState
    ) -> tuple[Json | None, Json | None]: ...

    def _reply_to(self, params: _Params, state: _ChatState) -> Json | None: ...

    def _format(
        self, params: _Params, key: str, entities_key: str, max_length: int, empty: str
    ) -> tuple[str, list[Json]]: ...

    def _check_can_write(self, state: _ChatState) -> None: ...

    def _check_flood(self, state: _ChatState) -> None: ...


class StorageSide(Protocol):
    """What the parts use of file storage."""

    def _photo_param(self, params: _Params) -> _StoredFile: ...

    def _store_file(
        self, data: bytes | None, content_type: str, source_url: str = ""
    ) -> _StoredFile: ...


class InlineSide(Protocol):
    """What the parts use of inline mode."""

    def _inline_id(self, chat_id: int, message_id: int) -> str: ...

    def _inline_message(self, inline_message_id: str) -> tuple[_ChatState, Json] | None: ...


class MenusSide(Protocol):
    """What the parts use of commands, menu buttons and descriptions."""

    def _effective_menu_button(self, chat_id: int | None) -> Json: ...

    def description_for(self, user_id: int, field: str = "description") -> str: ...

    def visible_commands(self, user_id: int, chat_id: int) -> list[Json]: ...


class MembersSide(Protocol):
    """What the parts use of chat members."""

    def _member(self, state: _ChatState, user_id: int) -> Json: ...

    def _owner_id(self) -> int | None: ...


class UsersSide(Protocol):
    """What the parts use of the players' side."""

    def player(self, user_id: int) -> Player: ...

    def _player_chat(self, user_id: int, chat_id: int) -> tuple[Player, _ChatState]: ...

    def _delivers(self, state: _ChatState, message: Json) -> bool: ...

    async def start_bot(self, user_id: int, payload: str = "") -> Json: ...

    def _new_query_id(self) -> str: ...

    def chat_instance(self, chat_id: int) -> str: ...


class MiniAppSide(Protocol):
    """What the parts use of Mini App launches."""

    def open_web_app(
        self,
        user_id: int,
        button_or_url: Json | str,
        *,
        from_chat_id: int,
        theme: str = "light",
    ) -> str: ...


class MessagingSide(Protocol):
    """What the parts use of messaging."""

    def _store(self, state: _ChatState, message: Json) -> Json: ...

    def _new_message(
        self, state: _ChatState, sender: Json, *, thread: int | None = None, **content: Any
    ) -> Json: ...


class Api(Protocol):
    """The Bot API stand-in as its parts see it (``FakeBotApi`` is the one there is)."""

    # the bot and its settings
    token: str
    bot_id: int
    username: str
    players: dict[int, Player]
    group_id: int
    webapp_url: str
    webapp_short_name: str
    bot_is_admin: bool
    bot_manages_topics: bool
    bot_deletes_messages: bool
    privacy_mode: bool
    inline_mode: bool
    inline_feedback: bool
    group_rate_limit: int | None
    callback_query_timeout: float
    webhook_retry_delays: tuple[float, ...]
    clock: Callable[[], float]
    on_change: Callable[[], None] | None

    # the shared state
    _lock: asyncio.Lock
    _closed: bool
    _chats: dict[int, _ChatState]
    _updates: deque[Json]
    _next_update_id: int
    _allowed_updates: frozenset[str]
    _poll_generation: int
    _poll_ended_by: str
    _webhook: _Webhook | None
    _webhook_task: asyncio.Task[None] | None
    _session: aiohttp.ClientSession | None
    _alerts: dict[int, deque[Json]]
    _queries: OrderedDict[str, _Query]
    _inline_queries: OrderedDict[str, _InlineQuery]
    _inline_cache: dict[tuple[str, int | None], tuple[float, Json]]
    _files: dict[str, _StoredFile]
    _commands: dict[tuple[str, str], list[Json]]
    _menu_buttons: dict[int | None, Json]
    _descriptions: dict[tuple[str, str], str]

    # the parts
    @property
    def feed(self) -> FeedSide: ...
    @property
    def forum(self) -> ForumSide: ...
    @property
    def delivery(self) -> DeliverySide: ...
    @property
    def outgoing(self) -> OutgoingSide: ...
    @property
    def storage(self) -> StorageSide: ...
    @property
    def inline(self) -> InlineSide: ...
    @property
    def menus(self) -> MenusSide: ...
    @property
    def members(self) -> MembersSide: ...
    @property
    def users(self) -> UsersSide: ...
    @property
    def mini_app(self) -> MiniAppSide: ...
    @property
    def messaging(self) -> MessagingSide: ...

    # the plumbing
    @property
    def closed(self) -> bool: ...

    def bot_user(self) -> Json: ...

    def _resolve_user(self, user_id: int) -> Json | None: ...

    def _chat(self, chat_id: int) -> _ChatState: ...

    def _chat_param(self, params: _Params, key: str = "chat_id") -> _ChatState: ...

    def _is_private(self, state: _ChatState) -> bool: ...

    def last_message(self, chat_id: int) -> Json | None: ...

    def continue_update_ids(self, at_least: int) -> None: ...


class _Part:
    """One cohesive part of the fake Bot API; the state stays on the API (but for the
    change feed's, which the feed keeps)."""

    def __init__(self, api: Api) -> None:
        self.api = api
