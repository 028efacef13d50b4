"""Inline mode: ``@bot query`` typed by a player, the bot's answers and their cache,
the chosen result posted in a chat, and inline message ids.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import re
import time
from typing import Any

from tgbot.sandbox.fake_api.files import _photo_size
from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.limits import (
    _QUERY_TOO_OLD,
    DEFAULT_INLINE_CACHE,
    INLINE_QUERY_TIMEOUT,
    INLINE_RESULT_TYPES,
    MAX_CAPTION_LENGTH,
    MAX_INLINE_QUERY,
    MAX_INLINE_RESULTS,
    MAX_NEXT_OFFSET_BYTES,
    MAX_OPEN_INLINE_QUERIES,
    MAX_TEXT_LENGTH,
    _check_result_id,
    _check_web_app_url,
)
from tgbot.sandbox.fake_api.people import Player
from tgbot.sandbox.fake_api.records import InlineAsk, _ChatState, _InlineQuery
from tgbot.sandbox.fake_api.text import format_text
from tgbot.sandbox.fake_api.wire import Json, SandboxError, _Params, bad_request


class _Inline(_Part):
    """Inline mode: ``@bot query`` queries, the bot's answers, chosen results, inline ids."""

    def _inline_id(self, chat_id: int, message_id: int) -> str:
        """The ``inline_message_id`` of a message sent via the bot: opaque, signed."""
        body = f"{chat_id}:{message_id}".encode()
        tag = self._inline_id_tag(body)
        return base64.urlsafe_b64encode(tag + body).decode().rstrip("=")

    def _inline_message(self, inline_message_id: str) -> tuple[_ChatState, Json] | None:
        """The message an ``inline_message_id`` names, while it is there."""
        try:
            raw = base64.urlsafe_b64decode(inline_message_id + "=" * (-len(inline_message_id) % 4))
            tag, body = raw[:9], raw[9:]
            chat_text, message_text = body.decode().split(":")
            chat_id, message_id = int(chat_text), int(message_text)
        except (ValueError, UnicodeDecodeError):
            return None
        if not hmac.compare_digest(tag, self._inline_id_tag(body)):
            return None
        state = self.api._chats.get(chat_id)
        message = None if state is None else state.messages.get(message_id)
        if state is None or message is None:
            return None
        if (message.get("via_bot") or {}).get("id") != self.api.bot_id:
            return None
        return state, message

    def _inline_id_tag(self, body: bytes) -> bytes:
        return hmac.new(self.api.token.encode(), b"inline:" + body, hashlib.sha256).digest()[:9]

    async def _api_answerInlineQuery(self, params: _Params) -> bool:
        query = self.api._inline_queries.get(params.text("inline_query_id") or "")
        expired = query is None or (time.monotonic() - query.created > INLINE_QUERY_TIMEOUT)
        if query is None or expired or query.answer.done():
            raise bad_request(_QUERY_TOO_OLD)
        results = params.json("results")
        if not isinstance(results, list):
            raise bad_request("can't parse inline query results JSON object")
        if len(results) > MAX_INLINE_RESULTS:
            raise bad_request("RESULTS_TOO_MUCH")
        private = self.api._chats[query.user_id]
        seen: set[str] = set()
        checked = [self._inline_result(result, private, seen) for result in results]
        cache_time = params.integer("cache_time", DEFAULT_INLINE_CACHE)
        next_offset = params.text("next_offset") or ""
        if len(next_offset.encode()) > MAX_NEXT_OFFSET_BYTES:
            raise bad_request("NEXT_OFFSET_INVALID")
        answer: Json = {
            "query_id": query.id,
            "user_id": query.user_id,
            "query": query.query,
            "results": checked,
            "cache_time": max(cache_time, 0),
            "is_personal": params.boolean("is_personal"),
            "next_offset": next_offset,
            "button": self._results_button(params.json("button")),
        }
        query.answer.set_result(answer)
        if answer["cache_time"] > 0:
            key = (query.query, query.user_id if answer["is_personal"] else None)
            self.api._inline_cache[key] = (time.monotonic() + answer["cache_time"], answer)
        self.api.feed.emit("inline_answer", None, user_id=query.user_id, answer=answer)
        return True

    def _inline_result(self, result: Any, private: _ChatState, seen: set[str]) -> Json:
        """One InlineQueryResult, checked as Telegram checks it."""
        if not isinstance(result, dict):
            raise bad_request("can't parse inline query result")
        if result.get("type") not in INLINE_RESULT_TYPES:
            raise bad_request("RESULT_TYPE_INVALID")
        _check_result_id(result.get("id"), seen)
        checked = dict(result)
        if "reply_markup" in result:
            markup = _Params({"reply_markup": result["reply_markup"]}, {})
            checked["reply_markup"] = self.api.outgoing._reply_markup(markup, private)
        if result["type"] == "photo":
            return self._photo_result(result, checked)
        if result["type"] != "article":
            return checked  # the sandbox sends articles and photos; others are checked for ids
        title = result.get("title")
        if not isinstance(title, str):
            raise bad_request(
                'can\'t parse inline query result: Field "title" must be of type String'
            )
        if not title.strip():
            raise bad_request("RESULT_TITLE_EMPTY")
        content = result.get("input_message_content")
        if not isinstance(content, dict) or "message_text" not in content:
            raise bad_request("can't parse inline query result: input_message_content is wrong")
        text, entities = format_text(
            str(content["message_text"]),
            content.get("parse_mode"),
            content.get("entities"),
            resolve_user=self.api._resolve_user,
            max_length=MAX_TEXT_LENGTH,
            empty_error="MESSAGE_EMPTY",
        )
        checked["message"] = {"text": text, "entities": entities}  # as it would be posted
        return checked

    def _photo_result(self, result: Json, checked: Json) -> Json:
        """A photo result (InlineQueryResultCachedPhoto: a ``photo_file_id`` the bot
        sent before; InlineQueryResultPhoto: a ``photo_url`` with a ``thumbnail_url``),
        its caption checked as a sent photo's is."""
        if "input_message_content" in result:
            raise SandboxError("the sandbox posts a photo result as its photo only")
        file_id, url = result.get("photo_file_id"), result.get("photo_url")
        if isinstance(file_id, str):
            stored = self.api._files.get(file_id)
            if stored is None:
                raise bad_request("wrong file identifier/HTTP URL specified")
        elif isinstance(url, str) and url.startswith(("http://", "https://")):
            if not isinstance(result.get("thumbnail_url"), str):
                raise bad_request(
                    'can\'t parse inline query result: Field "thumbnail_url" must be of type String'
                )
            stored = self.api.storage._store_file(None, "image/jpeg", source_url=url)
        else:
            raise bad_request("PHOTO_INVALID")
        caption, entities = format_text(
            str(result.get("caption") or ""),
            result.get("parse_mode"),
            result.get("caption_entities"),
            resolve_user=self.api._resolve_user,
            max_length=MAX_CAPTION_LENGTH,
            empty_error="",
        )
        checked["message"] = {  # as it would be posted
            "photo": [_photo_size(stored)],
            "caption": caption,
            "caption_entities": entities,
        }
        return checked

    def _results_button(self, button: Any) -> Json | None:
        """answerInlineQuery's ``button`` (above the results), checked."""
        if button is None:
            return None
        if not isinstance(button, dict):
            raise bad_request("can't parse inline query results button")
        text = button.get("text")
        if not isinstance(text, str) or not text.strip():
            raise bad_request("BUTTON_TEXT_INVALID")
        if "web_app" in button:
            _check_web_app_url(button["web_app"], "inline query results button")
        else:
            start = button.get("start_parameter")
            if not isinstance(start, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", start):
                raise bad_request("START_PARAM_INVALID")
        return dict(button)

    async def inline_query(self, user_id: int, query: str, chat_id: int | None = None) -> InlineAsk:
        """Type ``@bot query`` as a player (in ``chat_id``; None: a chat without the bot).

        Telegram answers from its cache when the bot answered the same query (this
        player's, or anyone's when not ``is_personal``) within its ``cache_time``;
        the bot then gets no update.
        """
        async with self.api._lock:
            player = self.api.users.player(user_id)
            if not self.api.inline_mode:
                raise SandboxError("this bot has no inline mode (BotFather: /setinline)")
            query = query[:MAX_INLINE_QUERY]
            chat_type = "private"
            if chat_id is not None:
                _player, state = self.api.users._player_chat(user_id, chat_id)
                chat_type = "sender" if chat_id == user_id else str(state.chat["type"])
            future: asyncio.Future[Json] = asyncio.get_running_loop().create_future()
            query_id = self.api.users._new_query_id()
            self.api._inline_queries[query_id] = _InlineQuery(
                query_id, user_id, query, time.monotonic(), future
            )
            while len(self.api._inline_queries) > MAX_OPEN_INLINE_QUERIES:
                self.api._inline_queries.popitem(last=False)
            now = time.monotonic()
            for key in ((query, user_id), (query, None)):
                cached = self.api._inline_cache.get(key)
                if cached is not None and cached[0] > now:
                    future.set_result({**cached[1], "query_id": query_id, "cached": True})
                    return InlineAsk(query_id, None, future)
            update = self.api.delivery._push_update(
                inline_query={
                    "id": query_id,
                    "from": player.user_dict(),
                    "query": query,
                    "offset": "",
                    "chat_type": chat_type,
                }
            )
            return InlineAsk(query_id, update, future)

    async def choose_inline_result(
        self,
        user_id: int,
        query_id: str,
        result_id: str,
        chat_id: int,
        *,
        thread_id: int | None = None,
    ) -> Json:
        """Pick one of the results of an answered inline query: the player posts its
        message "via @bot" in ``chat_id``; with inline feedback on, the bot gets a
        ``chosen_inline_result`` (with an ``inline_message_id`` when the result has
        an inline keyboard, as Telegram gives one). Returns the posted message."""
        async with self.api._lock:
            player, state = self.api.users._player_chat(user_id, chat_id)
            query, result = self._answered_result(user_id, query_id, result_id)
            thread_id = self._posting_thread(player, state, thread_id)
            if self.api._is_private(state) and not player.started:
                raise SandboxError("start the bot first: a private chat with it is empty")
            content = {key: value or None for key, value in result["message"].items()}
            message = self.api.messaging._new_message(
                state,
                player.user_dict(),
                thread=thread_id,
                **content,
                reply_markup=result.get("reply_markup"),
                via_bot=self.api.bot_user(),
            )
            event = self.api.feed.emit("message", state.chat["id"], message=message)
            self.api.feed.cursor = event["seq"]
            if self.api.users._delivers(state, message):
                self.api.delivery._push_update(message=message)
            if self.api.inline_feedback:
                self._feed_back(player, query, result_id, message)
            return message

    async def press_results_button(self, user_id: int, query_id: str) -> Json:
        """Press the button above an answered inline query's results, as Telegram shows
        it: a ``start_parameter`` opens the player's private chat with the bot and sends
        ``/start <parameter>`` (Start pressed); a ``web_app`` opens the Mini App.
        Returns ``{"action": "start", "chat_id": ...}`` or ``{"action": "web_app", "url": ...}``.
        """
        query = self.api._inline_queries.get(query_id)
        if query is None or query.user_id != user_id or not query.answer.done():
            raise SandboxError("no answered inline query with that id for this player")
        button = query.answer.result().get("button")
        if not button:
            raise SandboxError("the bot's answer has no button above its results")
        if "web_app" in button:
            url = self.api.mini_app.open_web_app(user_id, button, from_chat_id=user_id)
            return {"action": "web_app", "url": url}
        await self.api.users.start_bot(user_id, str(button["start_parameter"]))
        return {"action": "start", "chat_id": user_id}

    def _feed_back(
        self, player: Player, query: _InlineQuery, result_id: str, message: Json
    ) -> None:
        """Tell the bot which result was chosen (with an inline message id for a keyboard)."""
        chosen: Json = {"result_id": result_id, "from": player.user_dict(), "query": query.query}
        if message.get("reply_markup"):
            chosen["inline_message_id"] = self._inline_id(
                message["chat"]["id"], message["message_id"]
            )
        self.api.delivery._push_update(chosen_inline_result=chosen)

    def _answered_result(
        self, user_id: int, query_id: str, result_id: str
    ) -> tuple[_InlineQuery, Json]:
        """The player's answered inline query and the article or photo result they picked."""
        query = self.api._inline_queries.get(query_id)
        if query is None or query.user_id != user_id or not query.answer.done():
            raise SandboxError("no answered inline query with that id for this player")
        answer = query.answer.result()
        result = next((r for r in answer["results"] if r["id"] == result_id), None)
        if result is None:
            raise SandboxError(f"the inline answer has no result {result_id!r}")
        if result["type"] not in ("article", "photo"):
            raise SandboxError("the sandbox posts article and photo results only")
        return query, result

    def _posting_thread(
        self, player: Player, state: _ChatState, thread_id: int | None
    ) -> int | None:
        """The forum topic a player posts in: an open one (the owner may use a closed one)."""
        if not self.api.forum._is_forum(state):
            return None
        if thread_id is not None:
            topic = state.topics.get(thread_id)
            if topic is None:
                raise SandboxError("no such topic")
            if topic.closed and player.id != self.api.members._owner_id():
                raise SandboxError("the topic is closed")
        return thread_id
