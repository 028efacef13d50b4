"""Chats and their members as the bot asks about them: ``getChat``,
``getChatMember``, the administrators and the member count.
"""

from __future__ import annotations

from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.people import _administrator
from tgbot.sandbox.fake_api.records import _ChatState
from tgbot.sandbox.fake_api.wire import Json, _Params, bad_request


class _Members(_Part):
    """Chats and their members as the bot asks about them."""

    async def _api_getChat(self, params: _Params) -> Json:
        state = self.api._chat_param(params)
        info: Json = {
            **state.chat,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": True,
                "limited_gifts": True,
                "unique_gifts": True,
                "premium_subscription": True,
                "gifts_from_channels": True,
            },
        }
        if state.pinned is not None and state.pinned in state.messages:
            info["pinned_message"] = state.messages[state.pinned]
        if not self.api._is_private(state):
            info["permissions"] = {"can_send_messages": True, "can_pin_messages": False}
        return info

    def _member(self, state: _ChatState, user_id: int) -> Json:
        if user_id == self.api.bot_id:
            if self.api.bot_is_admin and not self.api._is_private(state):
                rights = _administrator(self.api.bot_user())
                rights["can_delete_messages"] = self.api.bot_deletes_messages
                return rights
            return {"status": "member", "user": self.api.bot_user()}
        player = self.api.players.get(user_id)
        if player is None:
            raise bad_request("user not found")
        if self.api._is_private(state) and state.chat["id"] != user_id:
            return {"status": "left", "user": player.user_dict()}
        if not self.api._is_private(state) and self._owner_id() == user_id:
            return {"status": "creator", "user": player.user_dict(), "is_anonymous": False}
        return {"status": "member", "user": player.user_dict()}

    def _owner_id(self) -> int | None:
        return next(iter(self.api.players), None)

    async def _api_getChatMember(self, params: _Params) -> Json:
        state = self.api._chat_param(params)
        return self._member(state, params.integer("user_id"))

    async def _api_getChatAdministrators(self, params: _Params) -> list[Json]:
        state = self.api._chat_param(params)
        if self.api._is_private(state):
            raise bad_request("there are no administrators in the private chat")
        members = [self._member(state, uid) for uid in (self._owner_id(), self.api.bot_id) if uid]
        return [m for m in members if m["status"] in ("creator", "administrator")]

    async def _api_getChatMemberCount(self, params: _Params) -> int:
        state = self.api._chat_param(params)
        return 2 if self.api._is_private(state) else len(self.api.players) + 1
