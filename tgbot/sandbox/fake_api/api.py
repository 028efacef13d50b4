"""An in-memory stand-in for the Telegram Bot API, one group chat and a few players.

``FakeBotApi`` holds the state and the plumbing and is composed of parts, a module
each (``feed``, ``forum``, ``delivery`` ...), that see it through ``hub.Api``; the
methods the sandbox and the tests call on the parts are offered on it too.

Invariants:
    * All state lives in one ``FakeBotApi`` (the change feed's in its ``feed``) and
      changes only under its lock.
    * Messages are stored as Telegram sends them: plain text plus entities whose
      offsets and lengths count UTF-16 code units.
    * Every visible change (new, edited or deleted message, pin, callback answer,
      player starting the bot) appends one event to a bounded change feed with a
      strictly increasing sequence number.
    * Updates wait in a bounded queue until ``getUpdates`` confirms them with a
      higher offset or the webhook receiver answers 2xx.
    * Update ids only grow, also across a restart from ``saved_state()``.
    * After every change that a restart should keep, ``on_change`` is called (when
      set); ``saved_state()`` then returns plain JSON that ``restore_state`` reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

import aiohttp

from tgbot.sandbox.fake_api.delivery import _Delivery
from tgbot.sandbox.fake_api.feed import _Feed
from tgbot.sandbox.fake_api.files import _StoredFile
from tgbot.sandbox.fake_api.forum import _Forum
from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.inline import _Inline
from tgbot.sandbox.fake_api.limits import DEFAULT_ALLOWED_UPDATES, MAX_PENDING_UPDATES
from tgbot.sandbox.fake_api.members import _Members
from tgbot.sandbox.fake_api.menus import _Menus
from tgbot.sandbox.fake_api.messaging import _Messaging
from tgbot.sandbox.fake_api.mini_app import _MiniApp
from tgbot.sandbox.fake_api.outgoing import _Outgoing
from tgbot.sandbox.fake_api.people import Player, default_cast
from tgbot.sandbox.fake_api.persistence import _Persistence
from tgbot.sandbox.fake_api.records import _ChatState, _InlineQuery, _Query, _Webhook
from tgbot.sandbox.fake_api.storage import _Storage
from tgbot.sandbox.fake_api.users import _Users
from tgbot.sandbox.fake_api.wire import Json, Upload, _Params, bad_request

P = ParamSpec("P")
R = TypeVar("R")


class _Face(Generic[P, R]):
    """A method of one of the API's parts, offered on the API itself: the faces the
    sandbox and the tests call (``api.send_text`` is ``api.users.send_text``)."""

    def __init__(self, part: str, method: Callable[Concatenate[Any, P], R]) -> None:
        self.part = part
        self.name = method.__name__
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, api: None, owner: type[FakeBotApi]) -> _Face[P, R]: ...

    @overload
    def __get__(self, api: FakeBotApi, owner: type[FakeBotApi]) -> Callable[P, R]: ...

    def __get__(
        self, api: FakeBotApi | None, owner: type[FakeBotApi]
    ) -> _Face[P, R] | Callable[P, R]:
        if api is None:
            return self
        method: Callable[P, R] = getattr(getattr(api, self.part), self.name)
        return method


class FakeBotApi:
    """The Bot API, one group chat and the players' private chats, in memory.

    Each ``_api_<method>`` coroutine, here or on one of its parts, implements the Bot
    API method of that name (matched case-insensitively, as Telegram does).

    Args:
        token: the bot token the API accepts.
        bot_id: the bot's user id (defaults to the number before ``:`` in the token).
        username: the bot's username without ``@``.
        first_name: the bot's display name.
        players: the simulated users (default: ``default_cast()``).
        group_id: the group chat's id (a supergroup, so negative).
        group_title: the group chat's title.
        webapp_url: the main Mini App's URL.
        webapp_short_name: the short name of the Mini App behind ``t.me/<bot>/<name>``.
        bot_is_admin: whether the bot is an administrator of the group.
        bot_manages_topics: whether the bot may manage a forum's topics (create, close,
            ...); without it, it cannot post in a closed topic.
        bot_deletes_messages: whether the bot, as an administrator, has the right to
            delete others' messages (``can_delete_messages``); without it (or without
            being an administrator) deleting a player's group message fails with 400
            "message can't be deleted", as in Telegram.
        privacy_mode: when on and the bot is no admin, group updates are limited to
            commands, replies to the bot and mentions, as in Telegram.
        inline_mode: BotFather's /setinline: players may type ``@bot query`` in chats.
        inline_feedback: BotFather's /setinlinefeedback at 100%: a chosen inline result
            comes to the bot as a ``chosen_inline_result`` update (off: never).
        group_rate_limit: messages per minute per group before 429 (None: off).
        callback_query_timeout: seconds after which a query can no longer be answered.
        webhook_retry_delays: seconds to wait after failed webhook deliveries.
        clock: the wall clock, for message dates and initData's ``auth_date``.
    """

    def __init__(
        self,
        token: str = "123456:SANDBOX-token",
        *,
        bot_id: int | None = None,
        username: str = "stonetable_bot",
        first_name: str = "Stonetable",
        players: Iterable[Player] | None = None,
        group_id: int = -100123,
        group_title: str = "The Table",
        webapp_url: str = "http://127.0.0.1:8080/app",
        webapp_short_name: str = "",
        bot_is_admin: bool = True,
        bot_manages_topics: bool = True,
        bot_deletes_messages: bool = True,
        privacy_mode: bool = True,
        inline_mode: bool = True,
        inline_feedback: bool = True,
        group_rate_limit: int | None = None,
        callback_query_timeout: float = 15.0,
        webhook_retry_delays: tuple[float, ...] = (0.1, 0.3, 1.0, 3.0),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._identify(token, bot_id, username, first_name)
        cast = players if players is not None else default_cast()
        self.players: dict[int, Player] = {p.id: p for p in cast}
        self.group_id = group_id
        self.webapp_url = webapp_url
        self.webapp_short_name = webapp_short_name
        self.bot_is_admin = bot_is_admin
        # an administrator with can_manage_topics (may also post in closed topics)
        self.bot_manages_topics = bot_manages_topics
        self.bot_deletes_messages = bot_deletes_messages
        self.privacy_mode = privacy_mode
        self.inline_mode = inline_mode
        self.inline_feedback = inline_feedback
        self.group_rate_limit = group_rate_limit
        self.callback_query_timeout = callback_query_timeout
        self.webhook_retry_delays = webhook_retry_delays
        self.clock = clock
        self._start_empty(group_title)
        self._compose_parts()

    def _identify(self, token: str, bot_id: int | None, username: str, first_name: str) -> None:
        """The bot's token and user; its id defaults to the number before ``:`` in the token."""
        self.token = token
        prefix = token.split(":", 1)[0]
        self.bot_id = bot_id if bot_id is not None else int(prefix) if prefix.isdigit() else 1
        self.username = username
        self.first_name = first_name

    def _start_empty(self, group_title: str) -> None:
        """The group and private chats, empty; no updates, open queries, files, commands
        or descriptions yet."""
        self.on_change: Callable[[], None] | None = None
        self._lock = asyncio.Lock()
        self._closed = False
        self._chats: dict[int, _ChatState] = {}
        self._add_chats(group_title)
        self._updates: deque[Json] = deque(maxlen=MAX_PENDING_UPDATES)
        self._next_update_id = 1
        self._allowed_updates: frozenset[str] = DEFAULT_ALLOWED_UPDATES
        self._poll_generation = 0
        self._poll_ended_by = ""
        self._webhook: _Webhook | None = None
        self._webhook_task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None
        self._alerts: dict[int, deque[Json]] = {}
        self._queries: OrderedDict[str, _Query] = OrderedDict()
        self._inline_queries: OrderedDict[str, _InlineQuery] = OrderedDict()
        # (query, user id or None when shared) -> (expiry on the monotonic clock, answer)
        self._inline_cache: dict[tuple[str, int | None], tuple[float, Json]] = {}
        self._files: dict[str, _StoredFile] = {}
        self._commands: dict[tuple[str, str], list[Json]] = {}
        self._menu_buttons: dict[int | None, Json] = {}
        # ("description" | "short_description", language code or "") -> text
        self._descriptions: dict[tuple[str, str], str] = {}

    def _compose_parts(self) -> None:
        """The parts the API is made of; each ``_api_<method>`` is found on one of them."""
        self.feed = _Feed(self)
        self.forum = _Forum(self)
        self.delivery = _Delivery(self)
        self.outgoing = _Outgoing(self)
        self.storage = _Storage(self)
        self.inline = _Inline(self)
        self.menus = _Menus(self)
        self.members = _Members(self)
        self.users = _Users(self)
        self.mini_app = _MiniApp(self)
        self.persistence = _Persistence(self)
        self.messaging = _Messaging(self)
        parts = [self, *(v for v in vars(self).values() if isinstance(v, _Part))]
        self._methods: dict[str, Callable[[_Params], Awaitable[Any]]] = {
            name[len("_api_") :].lower(): getattr(part, name)
            for part in parts
            for name in dir(part)
            if name.startswith("_api_")
        }

    def _add_chats(self, group_title: str) -> None:
        group = {"id": self.group_id, "title": group_title, "type": "supergroup"}
        self._chats[self.group_id] = _ChatState(group)
        for player in self.players.values():
            chat: Json = {"id": player.id, "type": "private", "first_name": player.first_name}
            if player.last_name:
                chat["last_name"] = player.last_name
            if player.username:
                chat["username"] = player.username
            self._chats[player.id] = _ChatState(chat)

    # ------------------------------------------------------------------ plumbing

    def bot_user(self) -> Json:
        """The bot as a ``User`` inside messages."""
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.first_name,
            "username": self.username,
        }

    def _resolve_user(self, user_id: int) -> Json | None:
        player = self.players.get(user_id)
        if player is not None:
            return player.user_dict()
        return self.bot_user() if user_id == self.bot_id else None

    def _chat(self, chat_id: int) -> _ChatState:
        state = self._chats.get(chat_id)
        if state is None:
            raise bad_request("chat not found")
        return state

    def _chat_param(self, params: _Params, key: str = "chat_id") -> _ChatState:
        value = params.json(key)
        if value is None:
            raise bad_request(f"{key} is empty")
        if isinstance(value, str) and not value.lstrip("-").isdigit():
            raise bad_request("chat not found")
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise bad_request("chat not found")
        return self._chat(int(value))

    def _is_private(self, state: _ChatState) -> bool:
        return bool(state.chat["type"] == "private")

    # ------------------------------------------------------------------ dispatch

    async def call(
        self, method: str, params: Mapping[str, Any], files: Mapping[str, Upload] | None = None
    ) -> Any:
        """Run one Bot API method; return its result or raise ``ApiError``."""
        handler = self._methods.get(method.lower())
        if handler is None:
            raise bad_request("method not found")
        wrapped = _Params(params, files or {})
        if method.lower() == "getupdates":
            return await handler(wrapped)
        async with self._lock:
            return await handler(wrapped)

    # ------------------------------------------------------------------ bot identity

    async def _api_getMe(self, params: _Params) -> Json:
        return {
            **self.bot_user(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": self.inline_mode,
            "can_connect_to_business": False,
            "has_main_web_app": bool(self.webapp_url),
        }

    async def _api_logOut(self, params: _Params) -> bool:
        return True

    async def _api_close(self, params: _Params) -> bool:
        return True

    # ------------------------------------------------------------------ inspection

    def messages(self, chat_id: int) -> list[Json]:
        """Return the chat's current messages, oldest first."""
        return list(self._chat(chat_id).messages.values())

    def last_message(self, chat_id: int) -> Json | None:
        """Return the chat's newest message, or None."""
        messages = self._chat(chat_id).messages
        return next(reversed(messages.values()), None) if messages else None

    def alerts_for(self, user_id: int) -> list[Json]:
        """Return the callback answers with text shown to a player, oldest first."""
        return list(self._alerts.get(user_id, ()))

    def pending_updates(self) -> list[Json]:
        """Return updates not yet confirmed by the bot."""
        return list(self._updates)

    # ------------------------------------------------------------------ restart

    def continue_update_ids(self, at_least: int) -> None:
        """Make the next update id at least ``at_least`` (ids never go back)."""
        self._next_update_id = max(self._next_update_id, at_least)

    # ------------------------------------------------------------------ lifecycle

    async def aclose(self) -> None:
        """Stop webhook delivery and wake every waiter; the API answers nothing new."""
        self._closed = True
        self.feed.wake()
        if self._webhook_task is not None:
            self._webhook_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._webhook_task
        if self._session is not None:
            await self._session.close()
            self._session = None

    @property
    def closed(self) -> bool:
        """Whether ``aclose`` was called."""
        return self._closed

    # ------------------------------------------------------------------ its parts' faces

    # the change feed
    oldest_seq = _Face("feed", _Feed.oldest_seq)
    mark = _Face("feed", _Feed.mark)
    events_since = _Face("feed", _Feed.events_since)
    next_events = _Face("feed", _Feed.next_events)
    wait_for_message = _Face("feed", _Feed.wait_for_message)
    _wait_change = _Face("feed", _Feed.wait_change)
    # forum topics
    add_forum = _Face("forum", _Forum.add_forum)
    player_topic = _Face("forum", _Forum.player_topic)
    topics = _Face("forum", _Forum.topics)
    # updates, files, inline mode
    _push_update = _Face("delivery", _Delivery._push_update)
    file_by_id = _Face("storage", _Storage.file_by_id)
    _inline_id = _Face("inline", _Inline._inline_id)
    inline_query = _Face("inline", _Inline.inline_query)
    choose_inline_result = _Face("inline", _Inline.choose_inline_result)
    press_results_button = _Face("inline", _Inline.press_results_button)
    # commands, menu, description
    description_for = _Face("menus", _Menus.description_for)
    menu_button = _Face("menus", _Menus.menu_button)
    commands = _Face("menus", _Menus.commands)
    visible_commands = _Face("menus", _Menus.visible_commands)
    # the players
    player = _Face("users", _Users.player)
    send_text = _Face("users", _Users.send_text)
    reply_to = _Face("users", _Users.reply_to)
    start_bot = _Face("users", _Users.start_bot)
    block_bot = _Face("users", _Users.block_bot)
    press_button = _Face("users", _Users.press_button)
    # the Mini App, the page
    open_web_app = _Face("mini_app", _MiniApp.open_web_app)
    start_link_payload = _Face("mini_app", _MiniApp.start_link_payload)
    snapshot = _Face("persistence", _Persistence.snapshot)
