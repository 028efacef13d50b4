"""The bot's commands, menu buttons and descriptions, per scope and language, and
what a player's client shows of them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.limits import (
    COMMAND_SCOPES,
    MAX_DESCRIPTION,
    MAX_SHORT_DESCRIPTION,
    _check_command,
    _check_web_app_url,
)
from tgbot.sandbox.fake_api.wire import Json, _Params, bad_request


class _Menus(_Part):
    """The bot's commands, menu buttons and descriptions, per scope and language."""

    def _scope_key(self, scope: Any) -> str:
        """The key of a BotCommandScope, checked as Telegram checks it."""
        scope = {"type": "default"} if scope is None else scope
        if not isinstance(scope, dict):
            raise bad_request("can't parse BotCommandScope JSON object")
        kind = scope.get("type")
        if kind not in COMMAND_SCOPES:
            raise bad_request("BOT_COMMAND_SCOPE_INVALID")
        key: Json = {"type": kind}
        if kind in ("chat", "chat_administrators", "chat_member"):
            chat_id = scope.get("chat_id")
            if isinstance(chat_id, bool) or not isinstance(chat_id, int | str):
                raise bad_request("can't parse BotCommandScope JSON object")
            if isinstance(chat_id, str) and not chat_id.lstrip("-").isdigit():
                raise bad_request("chat not found")
            state = self.api._chat(int(chat_id))
            if kind != "chat" and self.api._is_private(state):
                raise bad_request("BOT_COMMAND_SCOPE_INVALID")  # groups only
            key["chat_id"] = state.chat["id"]
            if kind == "chat_member":
                user_id = scope.get("user_id")
                if isinstance(user_id, bool) or not isinstance(user_id, int):
                    raise bad_request("can't parse BotCommandScope JSON object")
                self.api.members._member(state, user_id)  # an unknown user is refused
                key["user_id"] = user_id
        return json.dumps(key, sort_keys=True)

    def _menu_key(self, params: _Params) -> tuple[str, str]:
        """The scope and language a command menu call is about."""
        language = params.text("language_code") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise bad_request("LANGUAGE_CODE_INVALID")
        return self._scope_key(params.json("scope")), language

    async def _api_setMyCommands(self, params: _Params) -> bool:
        commands = params.json("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("can't parse commands JSON object")
        cleaned = [_check_command(command) for command in commands]
        key = self._menu_key(params)
        if cleaned:
            self.api._commands[key] = cleaned
        else:
            self.api._commands.pop(key, None)
        self.api.feed.emit("commands")
        return True

    async def _api_getMyCommands(self, params: _Params) -> list[Json]:
        """The commands set for exactly this scope and language (empty if none)."""
        return [dict(command) for command in self.api._commands.get(self._menu_key(params), [])]

    async def _api_deleteMyCommands(self, params: _Params) -> bool:
        """Forget this scope's commands: the next wider scope's menu shows instead."""
        self.api._commands.pop(self._menu_key(params), None)
        self.api.feed.emit("commands")
        return True

    async def _api_setChatMenuButton(self, params: _Params) -> bool:
        chat_id = None
        if params.has("chat_id"):
            state = self.api._chat_param(params)
            if not self.api._is_private(state):
                raise bad_request("chat not found")
            chat_id = state.chat["id"]
        button = params.json("menu_button") or {"type": "default"}
        if not isinstance(button, dict) or button.get("type") not in (
            "default",
            "commands",
            "web_app",
        ):
            raise bad_request("can't parse menu button JSON object")
        if button["type"] == "web_app":
            _check_web_app_url(button.get("web_app"), "menu button")
        self.api._menu_buttons[chat_id] = button
        self.api.feed.emit("menu_button", chat_id)
        return True

    def _describe(self, params: _Params, field: str, limit: int) -> bool:
        """setMyDescription / setMyShortDescription: 0-``limit`` characters, per language;
        an empty or missing text removes that language's (the default then shows)."""
        text = params.text(field) or ""
        if len(text) > limit:
            raise bad_request(f"BOT_{field.upper()}_TOO_LONG")
        language = params.text("language_code") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise bad_request("LANGUAGE_CODE_INVALID")
        if text:
            self.api._descriptions[(field, language)] = text
        else:
            self.api._descriptions.pop((field, language), None)
        self.api.feed.emit("description")
        return True

    def _described(self, params: _Params, field: str) -> Json:
        language = params.text("language_code") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise bad_request("LANGUAGE_CODE_INVALID")
        return {field: self.api._descriptions.get((field, language), "")}

    async def _api_setMyDescription(self, params: _Params) -> bool:
        return self._describe(params, "description", MAX_DESCRIPTION)

    async def _api_getMyDescription(self, params: _Params) -> Json:
        return self._described(params, "description")

    async def _api_setMyShortDescription(self, params: _Params) -> bool:
        return self._describe(params, "short_description", MAX_SHORT_DESCRIPTION)

    async def _api_getMyShortDescription(self, params: _Params) -> Json:
        return self._described(params, "short_description")

    def description_for(self, user_id: int, field: str = "description") -> str:
        """What a user reads about the bot: their language's text, else the default."""
        code = (self.api.users.player(user_id).language_code or "").split("-")[0].lower()
        return self.api._descriptions.get((field, code)) or self.api._descriptions.get(
            (field, ""), ""
        )

    async def _api_getChatMenuButton(self, params: _Params) -> Json:
        chat_id = self.api._chat_param(params).chat["id"] if params.has("chat_id") else None
        return dict(self._effective_menu_button(chat_id))

    def _effective_menu_button(self, chat_id: int | None) -> Json:
        button = self.api._menu_buttons.get(chat_id) if chat_id is not None else None
        if button is None or button.get("type") == "default":
            button = self.api._menu_buttons.get(None)
        if button is None or button.get("type") == "default":
            return {"type": "commands"}
        return button

    def menu_button(self, user_id: int) -> Json:
        """Return the menu button a player sees in the private chat with the bot."""
        self.api.users.player(user_id)
        return dict(self._effective_menu_button(user_id))

    def commands(
        self, scope: str | Mapping[str, Any] = "default", language_code: str = ""
    ) -> list[Json]:
        """Return the commands set for exactly this scope and language."""
        scope_dict = {"type": scope} if isinstance(scope, str) else dict(scope)
        return [
            dict(c)
            for c in self.api._commands.get((self._scope_key(scope_dict), language_code), [])
        ]

    def visible_commands(self, user_id: int, chat_id: int) -> list[Json]:
        """Return the command menu a player sees in a chat (Telegram's scope order)."""
        player, state = self.api.users._player_chat(user_id, chat_id)
        is_admin = self.api.members._member(state, user_id)["status"] in (
            "creator",
            "administrator",
        )
        if self.api._is_private(state):
            scopes = [{"type": "chat", "chat_id": chat_id}, {"type": "all_private_chats"}]
        else:
            scopes = [{"type": "chat_member", "chat_id": chat_id, "user_id": user_id}]
            if is_admin:
                scopes.append({"type": "chat_administrators", "chat_id": chat_id})
            scopes.append({"type": "chat", "chat_id": chat_id})
            if is_admin:
                scopes.append({"type": "all_chat_administrators"})
            scopes.append({"type": "all_group_chats"})
        scopes.append({"type": "default"})
        # Telegram matches a list set for the user's language ("ru" for "ru-RU"), else the default
        languages = dict.fromkeys((player.language_code, player.language_code.split("-")[0], ""))
        for scope in scopes:
            for language in languages:
                found = self.api._commands.get((self._scope_key(scope), language))
                if found:
                    return [dict(c) for c in found]
        return []
