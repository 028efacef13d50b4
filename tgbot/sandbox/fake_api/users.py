"""The players' side, what their Telegram clients send: messages typed and edited,
replies, buttons pressed, the bot started and blocked.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import secrets
import time

from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.limits import MAX_OPEN_QUERIES
from tgbot.sandbox.fake_api.people import (
    Player,
    _buttons,
    _player_text,
    _visible_message,
    _without_reply,
)
from tgbot.sandbox.fake_api.records import ButtonPress, _ChatState, _Query
from tgbot.sandbox.fake_api.text import detect_entities
from tgbot.sandbox.fake_api.wire import Json, SandboxError


class _Users(_Part):
    """The players' side: what they type, edit, press, start and block."""

    def player(self, user_id: int) -> Player:
        """Return a player by id; ``SandboxError`` when there is none."""
        player = self.api.players.get(user_id)
        if player is None:
            raise SandboxError(f"no player {user_id}")
        return player

    def set_language(self, user_id: int, language_code: str) -> None:
        """Change a player's Telegram language (what their app sends as ``language_code``)."""
        code = language_code.strip()
        if not re.fullmatch(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})?", code):
            raise SandboxError(f"not a language code: {language_code[:20]!r}")
        self.player(user_id).language_code = code
        self.api.feed.changed()

    def _player_chat(self, user_id: int, chat_id: int) -> tuple[Player, _ChatState]:
        player = self.player(user_id)
        state = self.api._chats.get(chat_id)
        if state is None or (self.api._is_private(state) and chat_id != user_id):
            raise SandboxError(f"player {user_id} cannot see chat {chat_id}")
        return player, state

    def button_at(self, user_id: int, chat_id: int, message_id: int, row: int, column: int) -> Json:
        """Return the inline button a player sees at (row, column) of a message."""
        _player, state = self._player_chat(user_id, chat_id)
        rows = (_visible_message(state, message_id).get("reply_markup") or {}).get(
            "inline_keyboard", []
        )
        if not 0 <= row < len(rows) or not 0 <= column < len(rows[row]):
            raise SandboxError(f"message {message_id} has no button at {row}, {column}")
        return dict(rows[row][column])

    async def send_text(
        self,
        user_id: int,
        chat_id: int,
        text: str,
        *,
        reply_to_message_id: int | None = None,
        thread_id: int | None = None,
    ) -> Json:
        """Post ``text`` as a player (in a forum group: in topic ``thread_id``, or the
        replied message's; General when neither); return the message the bot receives."""
        async with self.api._lock:
            player, state = self._player_chat(user_id, chat_id)
            text = _player_text(text)
            reply_to = None
            if reply_to_message_id is not None:
                target = _visible_message(state, reply_to_message_id)
                reply_to = _without_reply(target)
                if thread_id is None and target.get("is_topic_message"):
                    thread_id = target.get("message_thread_id")
            if thread_id is not None and self.api.forum._is_forum(state):
                topic = state.topics.get(thread_id)
                if topic is None:
                    raise SandboxError("no such topic")
                if topic.closed and player.id != self.api.members._owner_id():
                    raise SandboxError("the topic is closed")
            elif not self.api.forum._is_forum(state):
                thread_id = None
            return self._player_message(player, state, text, reply_to, thread_id)

    async def edit_text(self, user_id: int, chat_id: int, message_id: int, text: str) -> Json:
        """Edit a player's own message; the bot receives an ``edited_message`` update."""
        async with self.api._lock:
            player, state = self._player_chat(user_id, chat_id)
            message = _visible_message(state, message_id)
            if message["from"]["id"] != player.id:
                raise SandboxError("players can edit only their own messages")
            text = _player_text(text)
            entities = detect_entities(text, [])
            edited = {**message, "text": text, "edit_date": int(self.api.clock())}
            edited.pop("entities", None)
            if entities:
                edited["entities"] = entities
            self.api.messaging._store(state, edited)
            self.api.feed.cursor = self.api.feed.emit("edit", chat_id, message=edited)["seq"]
            if self._delivers(state, edited):
                self.api.delivery._push_update(edited_message=edited)
            return edited

    def _player_message(
        self,
        player: Player,
        state: _ChatState,
        text: str,
        reply_to: Json | None,
        thread: int | None = None,
    ) -> Json:
        if self.api._is_private(state) and not player.started:
            if player.blocked:
                self._push_my_chat_member(player, "kicked", "member")
            player.started = True
            player.blocked = False
            self.api.feed.emit("player", player.id, user_id=player.id, started=True)
        entities = detect_entities(text, [])
        message = self.api.messaging._new_message(
            state,
            player.user_dict(),
            thread=thread,
            text=text,
            entities=entities or None,
            reply_to_message=reply_to,
        )
        event = self.api.feed.emit("message", state.chat["id"], message=message)
        self.api.feed.cursor = event["seq"]
        if self._delivers(state, message):
            self.api.delivery._push_update(message=message)
        return message

    def _delivers(self, state: _ChatState, message: Json) -> bool:
        """Whether the bot receives a group message (privacy mode)."""
        if self.api._is_private(state) or not self.api.privacy_mode or self.api.bot_is_admin:
            return True
        text = message.get("text", "")
        commands = [e for e in message.get("entities", []) if e["type"] == "bot_command"]
        if commands and commands[0]["offset"] == 0:
            command = text[: commands[0]["length"]]
            return "@" not in command or command.lower().endswith(f"@{self.api.username.lower()}")
        replied = message.get("reply_to_message")
        if replied and replied["from"]["id"] == self.api.bot_id:
            return True
        return f"@{self.api.username.lower()}" in text.lower()

    async def reply_to(self, user_id: int, chat_id: int, message_id: int, text: str) -> Json:
        """Post ``text`` as a player's reply to a message."""
        return await self.send_text(user_id, chat_id, text, reply_to_message_id=message_id)

    async def start_bot(self, user_id: int, payload: str = "") -> Json:
        """Press Start (or follow ``t.me/<bot>?start=<payload>``) in the private chat."""
        if payload and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload):
            raise SandboxError("a start payload is up to 64 characters of A-Z a-z 0-9 _ -")
        return await self.send_text(user_id, user_id, f"/start {payload}".strip())

    async def block_bot(self, user_id: int) -> None:
        """Make a player block the bot: later messages to them fail with 403."""
        async with self.api._lock:
            player = self.player(user_id)
            if player.blocked:
                return
            if player.started:
                self._push_my_chat_member(player, "member", "kicked")
            player.blocked, player.started = True, False
            self.api.feed.emit("player", player.id, user_id=player.id, started=False)

    def _push_my_chat_member(self, player: Player, old: str, new: str) -> None:
        """Tell the bot that its status in a player's private chat changed."""

        def member(status: str) -> Json:
            found: Json = {"status": status, "user": self.api.bot_user()}
            if status == "kicked":
                found["until_date"] = 0
            return found

        self.api.delivery._push_update(
            my_chat_member={
                "chat": dict(self.api._chats[player.id].chat),
                "from": player.user_dict(),
                "date": int(self.api.clock()),
                "old_chat_member": member(old),
                "new_chat_member": member(new),
            }
        )

    async def press_button(
        self,
        user_id: int,
        chat_id: int,
        message_id: int,
        callback_data: str,
        *,
        as_seen: Json | None = None,
    ) -> ButtonPress:
        """Press a callback button as a player; return a handle for the bot's answer.

        Args:
            as_seen: the message as a phone that missed its later edits still shows it
                (an old button pressed late); by default, the message as it is now.
        """
        async with self.api._lock:
            player, state = self._player_chat(user_id, chat_id)
            message = _visible_message(state, message_id)
            if as_seen is not None and as_seen.get("message_id") == message_id:
                message = as_seen
            buttons = _buttons(message)
            if not any(b.get("callback_data") == callback_data for b in buttons):
                raise SandboxError(f"message {message_id} has no button with that data")
            query_id = self._new_query_id()
            answer = self._open_query(query_id, user_id, chat_id, message_id, callback_data)
            callback = self._callback(query_id, player, chat_id, message, callback_data)
            self.api.feed.cursor = self.api.feed.seq
            update = self.api.delivery._push_update(callback_query=callback) or {
                "callback_query": callback
            }
            return ButtonPress(query_id, update, answer)

    def _callback(
        self, query_id: str, player: Player, chat_id: int, message: Json, callback_data: str
    ) -> Json:
        """The ``callback_query`` of a press on ``message``."""
        callback = {
            "id": query_id,
            "from": player.user_dict(),
            "message": message,
            "chat_instance": self.chat_instance(chat_id),
            "data": callback_data,
        }
        if (message.get("via_bot") or {}).get("id") == self.api.bot_id:
            # a message sent via the bot: Telegram names it, not its chat
            del callback["message"]
            callback["inline_message_id"] = self.api.inline._inline_id(
                chat_id, message["message_id"]
            )
        return callback

    def _open_query(
        self, query_id: str, user_id: int, chat_id: int, message_id: int, callback_data: str
    ) -> asyncio.Future[Json]:
        """Keep a callback query open for the bot's answer (the oldest go past the limit)."""
        answer: asyncio.Future[Json] = asyncio.get_running_loop().create_future()
        self.api._queries[query_id] = _Query(
            query_id, user_id, chat_id, message_id, callback_data, time.monotonic(), answer
        )
        while len(self.api._queries) > MAX_OPEN_QUERIES:
            self.api._queries.popitem(last=False)
        return answer

    def _new_query_id(self) -> str:
        while True:
            query_id = str(secrets.randbits(62))
            if query_id not in self.api._queries:
                return query_id

    def chat_instance(self, chat_id: int) -> str:
        """Return the stable ``chat_instance`` Telegram gives a chat."""
        digest = hmac.new(self.api.token.encode(), str(chat_id).encode(), hashlib.sha256).digest()
        return str(int.from_bytes(digest[:8], "big", signed=True))
