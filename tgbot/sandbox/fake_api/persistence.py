"""The sandbox's state: a snapshot for the page and plain JSON saved and restored
across a restart.
"""

from __future__ import annotations

from collections.abc import Callable

from tgbot.sandbox.fake_api.hub import _Part
from tgbot.sandbox.fake_api.saved import (
    SAVED_STATE_VERSION,
    _restored_chat,
    _restored_files,
    _restored_players,
    _restored_settings,
    _saved_chat,
    _saved_file,
)
from tgbot.sandbox.fake_api.themes import THEMES
from tgbot.sandbox.fake_api.wire import Json


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
