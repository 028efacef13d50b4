"""What the bot sends, checked as Telegram checks it: reply markup and its buttons,
replies, parse modes and lengths, who may write where, and the group flood limit.
"""

from __future__ import annotations

import math
import time
from typing import Any

from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.limits import (
    MAX_BUTTONS,
    MAX_CALLBACK_DATA_BYTES,
    MAX_INPUT_FIELD_PLACEHOLDER,
    _check_web_app_url,
)
from tgbot.sandbox.fake_api.records import _ChatState
from tgbot.sandbox.fake_api.text import _TEXT_BUTTONS_UNALLOWED, format_text, normalize_url
from tgbot.sandbox.fake_api.wire import ApiError, Json, _Params, bad_request

# The fields of the reply markups other than the inline keyboard, as Bot API 10.1 lists
# them: name -> (the JSON type, required).
_FORCE_REPLY: dict[str, tuple[type, bool]] = {
    "force_reply": (bool, True),
    "input_field_placeholder": (str, False),
    "selective": (bool, False),
}
_REPLY_KEYBOARD_REMOVE: dict[str, tuple[type, bool]] = {
    "remove_keyboard": (bool, True),
    "selective": (bool, False),
}
_REPLY_KEYBOARD: dict[str, tuple[type, bool]] = {
    "keyboard": (list, True),
    "is_persistent": (bool, False),
    "resize_keyboard": (bool, False),
    "one_time_keyboard": (bool, False),
    "input_field_placeholder": (str, False),
    "selective": (bool, False),
}
_KEYBOARD_BUTTON: dict[str, tuple[type, bool]] = {
    "text": (str, True),
    "icon_custom_emoji_id": (str, False),
    "style": (str, False),
    "request_users": (dict, False),
    "request_chat": (dict, False),
    "request_managed_bot": (dict, False),
    "request_contact": (bool, False),
    "request_location": (bool, False),
    "request_poll": (dict, False),
    "web_app": (dict, False),
}


def _check_fields(value: Json, fields: dict[str, tuple[type, bool]], name: str) -> None:
    """Check an object of type ``name`` has its required fields and each field its type."""
    for field, (kind, required) in fields.items():
        if field not in value:
            if required:
                raise bad_request(f'object "{name}" must have field "{field}"')
            continue
        if not isinstance(value[field], kind):
            raise bad_request(f'field "{field}" of the {name} must be of type {kind.__name__}')
    placeholder = value.get("input_field_placeholder")
    if placeholder is not None and not 1 <= len(placeholder) <= MAX_INPUT_FIELD_PLACEHOLDER:
        raise bad_request("input field placeholder must be 1-64 characters long")


class _Outgoing(_Part):
    """What the bot sends, checked against Telegram's rules: markup, replies, formatting."""

    def _reply_markup(self, params: _Params, state: _ChatState) -> Json | None:
        """The inline keyboard a message carries (edits and inline results take no other)."""
        inline, client = self._sent_markup(params, state)
        if client is not None:
            raise bad_request("REPLY_MARKUP_INVALID")
        return inline

    def _sent_markup(self, params: _Params, state: _ChatState) -> tuple[Json | None, Json | None]:
        """A sent message's markup, checked: (the inline keyboard its ``Message`` carries,
        the reply keyboard, its removal or the forced reply its readers' clients show).

        Telegram's ``Message.reply_markup`` is only ever an inline keyboard: the other
        markups act on the readers' clients and are never echoed back to the bot.
        """
        markup = params.json("reply_markup")
        if markup is None:
            return None, None
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" in markup:
            return self._inline_keyboard(markup["inline_keyboard"], state), None
        if "force_reply" in markup:
            _check_fields(markup, _FORCE_REPLY, "ForceReply")
            if markup["force_reply"] is not True:
                raise bad_request("can't parse reply keyboard markup JSON object")
        elif "remove_keyboard" in markup:
            _check_fields(markup, _REPLY_KEYBOARD_REMOVE, "ReplyKeyboardRemove")
            if markup["remove_keyboard"] is not True:
                raise bad_request("can't parse reply keyboard markup JSON object")
        elif "keyboard" in markup:
            _check_fields(markup, _REPLY_KEYBOARD, "ReplyKeyboardMarkup")
            self._reply_keyboard(markup["keyboard"], state)
        else:
            raise bad_request("can't parse reply keyboard markup JSON object")
        return None, markup

    def _reply_keyboard(self, rows: Any, state: _ChatState) -> None:
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise bad_request(
                'field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays'
            )
        if not any(rows):
            raise bad_request("reply keyboard must not be empty")
        for row in rows:
            for button in row:
                text = button if isinstance(button, str) else None
                if isinstance(button, dict):
                    _check_fields(button, _KEYBOARD_BUTTON, "KeyboardButton")
                    text = button["text"]
                    if "web_app" in button:
                        if not self.api._is_private(state):
                            raise bad_request("BUTTON_TYPE_INVALID")
                        _check_web_app_url(button["web_app"], "keyboard button")
                if text is None:
                    raise bad_request("can't parse keyboard button JSON object")
                if not text.strip():
                    raise bad_request("BUTTON_TEXT_INVALID")

    def _inline_keyboard(self, rows: Any, state: _ChatState) -> Json | None:
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise bad_request(
                'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
            )
        if sum(len(row) for row in rows) > MAX_BUTTONS:
            raise bad_request("reply markup is too long")
        for row in rows:
            for button in row:
                self._check_button(button, state)
        rows = [row for row in rows if row]
        return {"inline_keyboard": rows} if rows else None

    def _check_button(self, button: Any, state: _ChatState) -> None:
        if not isinstance(button, dict) or not isinstance(button.get("text"), str):
            raise bad_request(_TEXT_BUTTONS_UNALLOWED)
        if not button["text"].strip():
            raise bad_request("BUTTON_TEXT_INVALID")
        if "callback_data" in button:
            data = button["callback_data"]
            if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA_BYTES:
                raise bad_request("BUTTON_DATA_INVALID")
        elif "url" in button:
            if normalize_url(str(button["url"])) is None:
                raise bad_request("BUTTON_URL_INVALID")
        elif "web_app" in button:
            if not self.api._is_private(state):
                raise bad_request("BUTTON_TYPE_INVALID")
            _check_web_app_url(button["web_app"], "inline keyboard button")
        elif not any(
            key in button
            for key in (
                "login_url",
                "switch_inline_query",
                "switch_inline_query_current_chat",
                "switch_inline_query_chosen_chat",
                "copy_text",
                "callback_game",
                "pay",
            )
        ):
            raise bad_request(_TEXT_BUTTONS_UNALLOWED)

    def _reply_to(self, params: _Params, state: _ChatState) -> Json | None:
        reply = params.json("reply_parameters")
        if reply is None and params.has("reply_to_message_id"):
            reply = {"message_id": params.integer("reply_to_message_id")}
        if reply is None:
            return None
        if not isinstance(reply, dict) or "message_id" not in reply:
            raise bad_request("can't parse reply parameters JSON object")
        target_state = self.api._chat(int(reply["chat_id"])) if "chat_id" in reply else state
        target = target_state.messages.get(int(reply["message_id"]))
        if target is None:
            if reply.get("allow_sending_without_reply") or params.boolean(
                "allow_sending_without_reply"
            ):
                return None
            raise bad_request("message to be replied not found")
        return {k: v for k, v in target.items() if k != "reply_to_message"}

    def _format(
        self, params: _Params, key: str, entities_key: str, max_length: int, empty: str
    ) -> tuple[str, list[Json]]:
        raw = params.text(key) or ""
        return format_text(
            raw,
            params.text("parse_mode"),
            params.json(entities_key),
            resolve_user=self.api._resolve_user,
            max_length=max_length,
            empty_error=empty,
        )

    def _check_can_write(self, state: _ChatState) -> None:
        if not self.api._is_private(state):
            return
        player = self.api.players[state.chat["id"]]
        if player.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        if not player.started:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")

    def _check_flood(self, state: _ChatState) -> None:
        if self.api.group_rate_limit is None or self.api._is_private(state):
            return
        now = time.monotonic()
        sent = state.sent_times
        while sent and now - sent[0] >= 60:
            sent.popleft()
        if len(sent) >= self.api.group_rate_limit:
            retry_after = max(1, math.ceil(60 - (now - sent[0])))
            raise ApiError(
                429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
            )
        sent.append(now)
