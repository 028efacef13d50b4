"""Messages the bot sends, edits, deletes and pins, chat actions, and its answers
to button presses.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from tgbot.sandbox.fake_api.files import _photo_size
from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.limits import (
    CHAT_ACTIONS,
    MAX_ALERTS_PER_USER,
    MAX_ANSWER_TEXT_LENGTH,
    MAX_CAPTION_LENGTH,
    MAX_MESSAGES_PER_CHAT,
    MAX_TEXT_LENGTH,
)
from tgbot.sandbox.fake_api.people import _without_reply
from tgbot.sandbox.fake_api.records import _ChatState
from tgbot.sandbox.fake_api.wire import Json, _Params, bad_request


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
        markup, client_markup = self.api.outgoing._sent_markup(params, state)
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
        extra: Json = {}
        if client_markup is not None:
            # what the readers' clients do with it (never part of the Message)
            extra["client_markup"] = client_markup
            extra["client_markup_for"] = self._selected(client_markup, message)
        self.api.feed.emit(
            "message",
            state.chat["id"],
            message=message,
            silent=params.boolean("disable_notification"),
            **extra,
        )
        return message

    def _selected(self, markup: Json, message: Json) -> list[int] | None:
        """Whose clients a ``selective`` markup acts on: the users the text @mentions and
        the sender of the message it replies to (None: everyone in the chat)."""
        if not markup.get("selective"):
            return None
        chosen: list[int] = []
        text = message.get("text") or message.get("caption") or ""
        entities = message.get("entities") or message.get("caption_entities") or []
        by_username = {p.username.lower(): p.id for p in self.api.players.values() if p.username}
        for entity in entities:
            if entity["type"] == "text_mention":
                chosen.append(int(entity["user"]["id"]))
            elif entity["type"] == "mention":
                units = text.encode("utf-16-le")
                start, stop = entity["offset"] + 1, entity["offset"] + entity["length"]
                name = units[2 * start : 2 * stop].decode("utf-16-le")
                if name.lower() in by_username:
                    chosen.append(by_username[name.lower()])
        replied = message.get("reply_to_message")
        if replied is not None and "from" in replied and not replied.get("forum_topic_created"):
            chosen.append(int(replied["from"]["id"]))
        return sorted(set(chosen) - {self.api.bot_id})

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
