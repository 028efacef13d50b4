"""An in-memory stand-in for the Telegram Bot API, one group chat and a few players.

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
from tgbot.sandbox.fake_api.files import _photo_size, _StoredFile
from tgbot.sandbox.fake_api.forum import _Forum
from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.inline import _Inline
from tgbot.sandbox.fake_api.limits import (
    CHAT_ACTIONS,
    DEFAULT_ALLOWED_UPDATES,
    MAX_ALERTS_PER_USER,
    MAX_ANSWER_TEXT_LENGTH,
    MAX_CAPTION_LENGTH,
    MAX_MESSAGES_PER_CHAT,
    MAX_PENDING_UPDATES,
    MAX_TEXT_LENGTH,
)
from tgbot.sandbox.fake_api.members import _Members
from tgbot.sandbox.fake_api.menus import _Menus
from tgbot.sandbox.fake_api.mini_app import _MiniApp
from tgbot.sandbox.fake_api.outgoing import _Outgoing
from tgbot.sandbox.fake_api.people import Player, _without_reply, default_cast
from tgbot.sandbox.fake_api.records import _ChatState, _InlineQuery, _Query, _Webhook
from tgbot.sandbox.fake_api.saved import (
    SAVED_STATE_VERSION,
    _restored_chat,
    _restored_files,
    _restored_players,
    _restored_settings,
    _saved_chat,
    _saved_file,
)
from tgbot.sandbox.fake_api.storage import _Storage
from tgbot.sandbox.fake_api.themes import THEMES
from tgbot.sandbox.fake_api.users import _Users
from tgbot.sandbox.fake_api.wire import Json, Upload, _Params, bad_request


class _Persistence(_Part):
    """The sandbox's state, as a snapshot for the page and saved for a restart."""

    def snapshot(self, user_id: int | None = None) -> Json:
        """Return everything the page needs to draw itself."""
        chats = []
        for chat_id, state in self.api._chats.items():
            if self.api._is_private(state) and user_id is not None and chat_id != user_id:
                continue
            entry: Json = {
                "chat": state.chat,
                "messages": list(state.messages.values()),
                "pinned": state.pinned,
            }
            if self.api.forum._is_forum(state):
                entry["topics"] = self.api.forum.topics(chat_id)
            if user_id is not None:
                entry["commands"] = self.api.menus.visible_commands(user_id, chat_id)
                if self.api._is_private(state):
                    entry["menu_button"] = self.api.menus._effective_menu_button(chat_id)
                    entry["description"] = self.api.menus.description_for(user_id)
            chats.append(entry)
        return {
            "seq": self.api.feed.seq,
            "bot": self.api.bot_user(),
            "players": [
                {**p.user_dict(), "started": p.started, "blocked": p.blocked}
                for p in self.api.players.values()
            ],
            "chats": chats,
            "group_id": self.api.group_id,
            "webapp_url": self.api.webapp_url,
            "themes": THEMES,
        }

    def saved_state(self) -> Json:
        """Return what a restart keeps, as plain JSON (file bytes are not included).

        Chats with their messages and pins, the players' Start/Block state, updates
        the bot has not confirmed, the next update id, the change feed's sequence
        number, commands, menu buttons, alerts and the photos' metadata. Open
        callback queries are not kept: a restarted bot cannot answer them anyway.
        """
        return {
            "version": SAVED_STATE_VERSION,
            "token": self.api.token,
            "next_update_id": self.api._next_update_id,
            "seq": self.api.feed.seq,
            "players": {
                str(p.id): {
                    "started": p.started,
                    "blocked": p.blocked,
                    "language_code": p.language_code,
                }
                for p in self.api.players.values()
            },
            "chats": [_saved_chat(chat_id, state) for chat_id, state in self.api._chats.items()],
            "updates": list(self.api._updates),
            "files": [_saved_file(f) for f in self.api._files.values()],
            "alerts": {str(uid): list(alerts) for uid, alerts in self.api._alerts.items()},
            "commands": [[scope, lang, cmds] for (scope, lang), cmds in self.api._commands.items()],
            "menu_buttons": [
                [chat_id, button] for chat_id, button in self.api._menu_buttons.items()
            ],
            "descriptions": [
                [kind, lang, text] for (kind, lang), text in self.api._descriptions.items()
            ],
        }

    def restore_state(self, saved: Json, file_data: Callable[[Json], bytes | None]) -> None:
        """Take back what ``saved_state`` returned before a restart.

        Chats and players that this API does not have are skipped. Call before
        the bot connects.

        Args:
            saved: the JSON from ``saved_state``.
            file_data: returns a saved photo's bytes from its metadata (None: lost).

        Raises:
            ValueError: ``saved`` is not a saved state of this version.
        """
        if not isinstance(saved, dict) or saved.get("version") != SAVED_STATE_VERSION:
            raise ValueError("not a saved sandbox state of this version")
        # Read everything first, so a state that does not fit changes nothing.
        flags = _restored_players(saved["players"])
        chats = [
            (self.api._chats[int(chat["id"])], *_restored_chat(chat))
            for chat in saved["chats"]
            if int(chat["id"]) in self.api._chats
        ]
        updates = [dict(update) for update in saved["updates"]]
        next_update_id, seq = int(saved["next_update_id"]), int(saved["seq"])
        files = _restored_files(saved["files"], file_data)
        alerts, commands, menu_buttons, descriptions = _restored_settings(saved)
        self._restore_players(flags)
        for state, messages, next_message_id, pinned, topics in chats:
            state.messages, state.next_message_id, state.pinned = messages, next_message_id, pinned
            if topics:
                state.topics = topics
        self.api._updates.extend(updates)
        self.api.continue_update_ids(next_update_id)
        self.api.feed.seq = max(self.api.feed.seq, seq)
        self.api._files.update(files)
        self.api._alerts.update(alerts)
        self.api._commands.update(commands)
        self.api._menu_buttons.update(menu_buttons)
        self.api._descriptions.update(descriptions)

    def _restore_players(self, flags: dict[int, tuple[bool, bool, str | None]]) -> None:
        for user_id, (started, blocked, language) in flags.items():
            if (player := self.api.players.get(user_id)) is not None:
                player.started, player.blocked = started, blocked
                if language is not None:
                    player.language_code = language


class _Messaging(_Part):
    """Messages the bot sends, edits, deletes and pins, and its answers to button presses."""

    def _store(self, state: _ChatState, message: Json) -> Json:
        state.messages[message["message_id"]] = message
        while len(state.messages) > MAX_MESSAGES_PER_CHAT:
            state.messages.popitem(last=False)
        return message

    def _new_message(
        self, state: _ChatState, sender: Json, *, thread: int | None = None, **content: Any
    ) -> Json:
        message_id = state.next_message_id
        state.next_message_id += 1
        message: Json = {
            "message_id": message_id,
            "from": sender,
            "chat": dict(state.chat),
            "date": int(self.api.clock()),
        }
        if thread is not None:
            # in a topic: the thread, and (unless it replies to something else) a reply
            # to the topic's creation message, as Telegram sends them
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
            if content.get("reply_to_message") is None:
                opening = state.messages.get(thread)
                if opening is not None:
                    content["reply_to_message"] = _without_reply(opening)
        message.update({k: v for k, v in content.items() if v is not None})
        return self._store(state, message)

    def _message(self, state: _ChatState, message_id: int, missing: str) -> Json:
        message = state.messages.get(message_id)
        if message is None:
            raise bad_request(missing)
        return message

    async def _api_sendMessage(self, params: _Params) -> Json:
        state = self.api._chat_param(params)
        self.api.outgoing._check_can_write(state)
        text, entities = self.api.outgoing._format(
            params, "text", "entities", MAX_TEXT_LENGTH, "message text is empty"
        )
        return self._send(
            params,
            state,
            text=text,
            entities=entities or None,
            link_preview_options=params.json("link_preview_options"),
        )

    async def _api_sendPhoto(self, params: _Params) -> Json:
        state = self.api._chat_param(params)
        self.api.outgoing._check_can_write(state)
        stored = self.api.storage._photo_param(params)
        caption, entities = self.api.outgoing._format(
            params, "caption", "caption_entities", MAX_CAPTION_LENGTH, ""
        )
        return self._send(
            params,
            state,
            photo=[_photo_size(stored)],
            caption=caption or None,
            caption_entities=entities or None,
        )

    def _send(self, params: _Params, state: _ChatState, **content: Any) -> Json:
        """Post the bot's message with ``content``: its markup, reply and topic checked,
        then the flood limit; the change feed tells of it."""
        markup = self.api.outgoing._reply_markup(params, state)
        reply_to = self.api.outgoing._reply_to(params, state)
        thread = self.api.forum._thread(
            params, state, reply_to, by_admin=self.api.bot_manages_topics
        )
        self.api.outgoing._check_flood(state)
        message = self._new_message(
            state,
            self.api.bot_user(),
            thread=thread,
            **content,
            reply_markup=markup,
            reply_to_message=reply_to,
        )
        self.api.feed.emit(
            "message",
            state.chat["id"],
            message=message,
            silent=params.boolean("disable_notification"),
        )
        return message

    async def _api_sendChatAction(self, params: _Params) -> bool:
        state = self.api._chat_param(params)
        self.api.outgoing._check_can_write(state)
        action = params.text("action") or ""
        if action not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        self.api.feed.emit("chat_action", state.chat["id"], action=action)
        return True

    def _own_message(self, params: _Params, missing: str) -> tuple[_ChatState, Json, bool]:
        """The message an edit names: by chat and message id (the bot's own), or by
        ``inline_message_id`` (a message sent via the bot); and whether it was inline."""
        if params.has("inline_message_id"):
            found = self.api.inline._inline_message(params.text("inline_message_id") or "")
            if found is None:
                raise bad_request("MESSAGE_ID_INVALID")
            return found[0], found[1], True
        state = self.api._chat_param(params)
        message = self._message(state, params.integer("message_id"), missing)
        if message["from"]["id"] != self.api.bot_id:
            raise bad_request("message can't be edited")
        return state, message, False

    def _apply_edit(self, state: _ChatState, message: Json, changes: Json) -> Json:
        unchanged = all(message.get(key) == value for key, value in changes.items())
        if unchanged:
            raise bad_request(
                "message is not modified: specified new message content and reply markup "
                "are exactly the same as a current content and reply markup of the message"
            )
        edited = {**message, "edit_date": int(self.api.clock())}
        for key, value in changes.items():
            if value is None:
                edited.pop(key, None)
            else:
                edited[key] = value
        self._store(state, edited)
        self.api.feed.emit("edit", state.chat["id"], message=edited)
        return edited

    async def _api_editMessageText(self, params: _Params) -> Json | bool:
        return self._edit_words(params, "text", "text", MAX_TEXT_LENGTH, "message text is empty")

    async def _api_editMessageCaption(self, params: _Params) -> Json | bool:
        return self._edit_words(params, "photo", "caption", MAX_CAPTION_LENGTH, "")

    def _edit_words(
        self, params: _Params, holder: str, key: str, max_length: int, empty: str
    ) -> Json | bool:
        """Edit the ``key`` (text or caption) of a message with a ``holder`` field, its
        entities and its markup; True for an inline message, else the edited one."""
        state, message, inline = self._own_message(params, "message to edit not found")
        if holder not in message:
            raise bad_request(f"there is no {key} in the message to edit")
        entities_key = "entities" if key == "text" else f"{key}_entities"
        words, entities = self.api.outgoing._format(params, key, entities_key, max_length, empty)
        changes = {
            key: words or None,
            entities_key: entities or None,
            "reply_markup": self.api.outgoing._reply_markup(params, state),
        }
        edited = self._apply_edit(state, message, changes)
        return True if inline else edited

    async def _api_editMessageReplyMarkup(self, params: _Params) -> Json | bool:
        state, message, inline = self._own_message(params, "message to edit not found")
        markup = self.api.outgoing._reply_markup(params, state)
        edited = self._apply_edit(state, message, {"reply_markup": markup})
        return True if inline else edited

    async def _api_deleteMessage(self, params: _Params) -> bool:
        state = self.api._chat_param(params)
        message_id = params.integer("message_id")
        message = self._message(state, message_id, "message to delete not found")
        own = message["from"]["id"] == self.api.bot_id
        may = self.api.bot_is_admin and self.api.bot_deletes_messages
        if not own and not self.api._is_private(state) and not may:
            raise bad_request("message can't be deleted")
        del state.messages[message_id]
        if state.pinned == message_id:
            state.pinned = None
        self.api.feed.emit("delete", state.chat["id"], message_id=message_id)
        return True

    async def _api_pinChatMessage(self, params: _Params) -> bool:
        state = self.api._chat_param(params)
        if not self.api._is_private(state) and not self.api.bot_is_admin:
            raise bad_request("not enough rights to manage pinned messages in the chat")
        message_id = params.integer("message_id")
        self._message(state, message_id, "message to pin not found")
        state.pinned = message_id
        self.api.feed.emit("pin", state.chat["id"], message_id=message_id)
        return True

    async def _api_unpinChatMessage(self, params: _Params) -> bool:
        state = self.api._chat_param(params)
        state.pinned = None
        self.api.feed.emit("pin", state.chat["id"], message_id=None)
        return True

    async def _api_answerCallbackQuery(self, params: _Params) -> bool:
        query = self.api._queries.get(params.text("callback_query_id") or "")
        expired = query is None or (
            time.monotonic() - query.created > self.api.callback_query_timeout
        )
        if query is None or expired or query.answer.done():
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.text("text") or ""
        if len(text) > MAX_ANSWER_TEXT_LENGTH:
            raise bad_request("MESSAGE_TOO_LONG")
        answer = {
            "query_id": query.id,
            "user_id": query.user_id,
            "chat_id": query.chat_id,
            "message_id": query.message_id,
            "text": text,
            "show_alert": params.boolean("show_alert"),
            "url": params.text("url") or "",
        }
        query.answer.set_result(answer)
        if text:
            alerts = self.api._alerts.setdefault(query.user_id, deque(maxlen=MAX_ALERTS_PER_USER))
            alerts.append(answer)
        self.api.feed.emit("alert", query.chat_id, user_id=query.user_id, alert=answer)
        return True


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
