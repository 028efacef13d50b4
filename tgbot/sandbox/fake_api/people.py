"""The people in the chats: the simulated players, what their clients would send,
the messages and buttons they can see, and an administrator as ``getChatMember``
describes one."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tgbot.sandbox.fake_api.limits import MAX_TEXT_LENGTH
from tgbot.sandbox.fake_api.records import _ChatState
from tgbot.sandbox.fake_api.text import _TRIM
from tgbot.sandbox.fake_api.wire import Json, SandboxError


@dataclass
class Player:
    """A simulated Telegram user."""

    id: int
    first_name: str
    last_name: str = ""
    username: str = ""
    language_code: str = "en"
    started: bool = False
    blocked: bool = False

    @property
    def display_name(self) -> str:
        """First and last name, as clients show them."""
        return " ".join(part for part in (self.first_name, self.last_name) if part)

    def user_dict(self) -> Json:
        """Return the Bot API ``User`` object."""
        user: Json = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            user["last_name"] = self.last_name
        if self.username:
            user["username"] = self.username
        if self.language_code:
            user["language_code"] = self.language_code
        return user


def default_cast(*, started: bool | Iterable[int] = True) -> list[Player]:
    """Return four players with varied names; ``started`` is a flag or the ids that started.

    One name contains HTML and one a character outside the BMP, so escaping and
    UTF-16 offsets get exercised.
    """
    players = [
        Player(1001, "Alice", "Marsh", "alice_marsh"),
        Player(1002, "<b>Bo</b> & Co"),
        Player(1003, "Chidi", "Okafor", "chidi_o", language_code="de"),
        Player(1004, "Zoë", "🐉 Drake", "zoe_drake"),
    ]
    started_ids = (
        {p.id for p in players} if started is True else set() if started is False else set(started)
    )
    for player in players:
        player.started = player.id in started_ids
    return players


def _player_text(text: str) -> str:
    """Return the text a client would send, or raise when no client would send it."""
    text = text.strip(_TRIM)
    if not text:
        raise SandboxError("Telegram clients do not send empty messages")
    if len(text) > MAX_TEXT_LENGTH:
        raise SandboxError("message is too long")
    return text


def _without_reply(message: Json) -> Json:
    """A message as it appears inside another's ``reply_to_message``."""
    return {k: v for k, v in message.items() if k != "reply_to_message"}


def _visible_message(state: _ChatState, message_id: int) -> Json:
    """Return a message a player can see, or raise ``SandboxError``."""
    message = state.messages.get(message_id)
    if message is None:
        raise SandboxError(f"no message {message_id} in chat {state.chat['id']}")
    return message


def _buttons(message: Json) -> list[Json]:
    markup = message.get("reply_markup") or {}
    return [button for row in markup.get("inline_keyboard", []) for button in row]


def _administrator(user: Json) -> Json:
    rights = dict.fromkeys(
        (
            "can_manage_chat",
            "can_delete_messages",
            "can_manage_video_chats",
            "can_restrict_members",
            "can_change_info",
            "can_invite_users",
            "can_pin_messages",
            "can_post_stories",
            "can_edit_stories",
            "can_delete_stories",
        ),
        True,
    )
    return {
        "status": "administrator",
        "user": user,
        "can_be_edited": False,
        "is_anonymous": False,
        "can_promote_members": False,
        "can_manage_topics": False,
        **rights,
    }
