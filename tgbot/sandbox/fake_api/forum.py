"""Forum topics: creating, editing, closing, reopening and deleting them, the
service messages they leave, and the thread a message goes to.
"""

from __future__ import annotations

from collections.abc import Iterable

from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.records import _ChatState, _Topic
from tgbot.sandbox.fake_api.wire import ApiError, Json, SandboxError, _Params, bad_request


class _Forum(_Part):
    """Forum topics: creating, closing, editing and deleting them, and a message's thread."""

    def _is_forum(self, state: _ChatState) -> bool:
        return bool(state.chat.get("is_forum"))

    def _thread(
        self, params: _Params, state: _ChatState, reply_to: Json | None, *, by_admin: bool
    ) -> int | None:
        """The topic a new message goes to: ``message_thread_id``, else the replied
        message's topic; refused as Telegram does for a missing or closed topic."""
        if not self._is_forum(state):
            return None
        thread: int | None = None
        if params.has("message_thread_id"):
            thread = params.integer("message_thread_id") or None
        elif reply_to is not None and reply_to.get("is_topic_message"):
            thread = reply_to.get("message_thread_id")
        if thread is None:
            return None
        topic = state.topics.get(thread)
        if topic is None:
            raise bad_request("message thread not found")
        if topic.closed and not by_admin:
            raise bad_request("TOPIC_CLOSED")
        return thread

    def _topic_param(self, params: _Params, state: _ChatState) -> _Topic:
        if not self._is_forum(state):
            raise bad_request("the chat is not a forum")
        if not params.has("message_thread_id"):
            raise bad_request("message thread id is empty")
        topic = state.topics.get(params.integer("message_thread_id"))
        if topic is None:
            raise bad_request("message thread not found")
        return topic

    def _check_manages_topics(self, state: _ChatState) -> None:
        if not self.api.bot_manages_topics:
            raise bad_request("not enough rights to manage topics in the chat")

    def _managed_topic(self, params: _Params) -> tuple[_ChatState, _Topic]:
        """The chat and topic a topic method names, once the bot may manage topics."""
        state = self.api._chat_param(params)
        topic = self._topic_param(params, state)
        self._check_manages_topics(state)
        return state, topic

    def _topic_service(
        self, state: _ChatState, sender: Json, topic: _Topic, **service: Json
    ) -> Json:
        """Post a topic's service message in it and tell the bot."""
        message = self.api.messaging._new_message(state, sender, thread=topic.thread_id, **service)
        self.api.feed.emit("message", state.chat["id"], message=message)
        self.api.delivery._push_update(message=message)
        return message

    def _open_topic(
        self, state: _ChatState, sender: Json, name: str, icon_color: int | None = None
    ) -> _Topic:
        name = name.strip()
        if not 1 <= len(name) <= 128:
            raise bad_request("TOPIC_TITLE_EMPTY" if not name else "TOPIC_TITLE_TOO_LONG")
        thread = state.next_message_id
        topic = _Topic(thread, name, icon_color or 0x6FB9F0)
        state.topics[thread] = topic
        created = {"name": name, "icon_color": topic.icon_color}
        message = self.api.messaging._new_message(state, sender, forum_topic_created=created)
        message["message_thread_id"] = thread
        message["is_topic_message"] = True
        self.api.feed.emit("message", state.chat["id"], message=message)
        self.api.delivery._push_update(message=message)
        return topic

    def _close_topic(self, state: _ChatState, sender: Json, topic: _Topic, closed: bool) -> None:
        if topic.closed == closed:
            raise bad_request("TOPIC_NOT_MODIFIED")
        topic.closed = closed
        key = "forum_topic_closed" if closed else "forum_topic_reopened"
        self._topic_service(state, sender, topic, **{key: {}})

    def _edit_topic(self, state: _ChatState, sender: Json, topic: _Topic, name: str) -> None:
        name = name.strip()
        if not 1 <= len(name) <= 128:
            raise bad_request("TOPIC_TITLE_EMPTY" if not name else "TOPIC_TITLE_TOO_LONG")
        if name == topic.name:
            raise bad_request("TOPIC_NOT_MODIFIED")
        topic.name = name
        self._topic_service(state, sender, topic, forum_topic_edited={"name": name})

    def _delete_topic(self, state: _ChatState, topic: _Topic) -> None:
        """A deleted topic takes its messages with it (Telegram sends no update)."""
        del state.topics[topic.thread_id]
        for message_id, message in list(state.messages.items()):
            if message.get("message_thread_id") == topic.thread_id:
                del state.messages[message_id]
        self.api.feed.emit("topic_deleted", state.chat["id"], thread_id=topic.thread_id)

    async def _api_createForumTopic(self, params: _Params) -> Json:
        state = self.api._chat_param(params)
        if not self._is_forum(state):
            raise bad_request("the chat is not a forum")
        self._check_manages_topics(state)
        color = params.integer("icon_color") if params.has("icon_color") else None
        return self._open_topic(
            state, self.api.bot_user(), params.text("name") or "", color
        ).as_json()

    async def _api_editForumTopic(self, params: _Params) -> bool:
        state, topic = self._managed_topic(params)
        self._edit_topic(state, self.api.bot_user(), topic, params.text("name") or topic.name)
        return True

    async def _api_closeForumTopic(self, params: _Params) -> bool:
        state, topic = self._managed_topic(params)
        self._close_topic(state, self.api.bot_user(), topic, True)
        return True

    async def _api_reopenForumTopic(self, params: _Params) -> bool:
        state, topic = self._managed_topic(params)
        self._close_topic(state, self.api.bot_user(), topic, False)
        return True

    async def _api_deleteForumTopic(self, params: _Params) -> bool:
        state, topic = self._managed_topic(params)
        self._delete_topic(state, topic)
        return True

    def add_forum(self, chat_id: int, title: str, topics: Iterable[str] = ()) -> dict[str, int]:
        """Add a forum supergroup with topics (opened by its first player, the owner);
        returns each topic's ``message_thread_id`` by name."""
        self.api._chats[chat_id] = _ChatState(
            {"id": chat_id, "title": title, "type": "supergroup", "is_forum": True}
        )
        owner = next(iter(self.api.players.values())).user_dict()
        state = self.api._chats[chat_id]
        return {name: self._open_topic(state, owner, name).thread_id for name in topics}

    async def player_topic(
        self, user_id: int, chat_id: int, action: str, thread_id: int = 0, name: str = ""
    ) -> int:
        """A player creates (``create``), renames (``edit``), closes, reopens or deletes
        a topic of a forum group; returns the topic's thread id."""
        async with self.api._lock:
            player, state = self.api.users._player_chat(user_id, chat_id)
            if not self._is_forum(state):
                raise SandboxError("that chat is not a forum")
            sender = player.user_dict()
            if action == "create":
                return self._open_topic(state, sender, name).thread_id
            topic = state.topics.get(thread_id)
            if topic is None:
                raise SandboxError("no such topic")
            try:
                if action == "edit":
                    self._edit_topic(state, sender, topic, name)
                elif action in ("close", "reopen"):
                    self._close_topic(state, sender, topic, action == "close")
                elif action == "delete":
                    self._delete_topic(state, topic)
                else:
                    raise SandboxError(f"unknown topic action {action!r}")
            except ApiError as error:
                raise SandboxError(error.description) from None
            return thread_id

    def topics(self, chat_id: int) -> list[Json]:
        """A forum group's topics, oldest first (with whether each is closed)."""
        return [
            {**t.as_json(), "is_closed": t.closed} for t in self.api._chat(chat_id).topics.values()
        ]
