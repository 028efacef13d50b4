"""The saved state's JSON: chats, files, players and settings as ``saved_state()``
writes them and ``restore_state`` reads them back."""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable

from tgbot.sandbox.fake_api.files import _StoredFile
from tgbot.sandbox.fake_api.limits import MAX_ALERTS_PER_USER
from tgbot.sandbox.fake_api.records import _ChatState, _Topic
from tgbot.sandbox.fake_api.wire import Json

SAVED_STATE_VERSION = 1


def _saved_chat(chat_id: int, state: _ChatState) -> Json:
    return {
        "id": chat_id,
        "messages": list(state.messages.values()),
        "next_message_id": state.next_message_id,
        "pinned": state.pinned,
        "topics": [
            {"thread_id": t.thread_id, "name": t.name, "closed": t.closed}
            for t in state.topics.values()
        ],
    }


def _saved_file(f: _StoredFile) -> Json:
    return {
        "file_id": f.file_id,
        "file_unique_id": f.file_unique_id,
        "file_path": f.file_path,
        "content_type": f.content_type,
        "width": f.width,
        "height": f.height,
        "source_url": f.source_url,
        "has_data": f.data is not None,
    }


def _restored_chat(
    chat: Json,
) -> tuple[OrderedDict[int, Json], int, int | None, dict[int, _Topic]]:
    """A saved chat's messages, next message id, pinned message and topics."""
    return (
        OrderedDict((int(m["message_id"]), dict(m)) for m in chat["messages"]),
        max(int(chat["next_message_id"]), 1),
        None if chat["pinned"] is None else int(chat["pinned"]),
        {
            int(t["thread_id"]): _Topic(
                int(t["thread_id"]), str(t["name"]), closed=bool(t["closed"])
            )
            for t in chat.get("topics", [])  # states saved before forums have none
        },
    )


def _restored_files(
    saved: list[Json], file_data: Callable[[Json], bytes | None]
) -> dict[str, _StoredFile]:
    """The saved photos whose bytes are still there (or that never had any)."""
    files = {}
    for meta in saved:
        data = file_data(meta) if meta["has_data"] else None
        if meta["has_data"] and data is None:
            continue
        files[str(meta["file_id"])] = _StoredFile(
            file_id=str(meta["file_id"]),
            file_unique_id=str(meta["file_unique_id"]),
            file_path=str(meta["file_path"]),
            data=data,
            content_type=str(meta["content_type"]),
            width=int(meta["width"]),
            height=int(meta["height"]),
            source_url=str(meta["source_url"]),
        )
    return files


def _restored_players(saved: Json) -> dict[int, tuple[bool, bool, str | None]]:
    """Each saved player's Start and Block state and language (older states have none)."""
    return {
        int(k): (
            bool(v["started"]),
            bool(v["blocked"]),
            language if isinstance(language := v.get("language_code"), str) else None,
        )
        for k, v in saved.items()
    }


def _restored_settings(
    saved: Json,
) -> tuple[
    dict[int, deque[Json]],
    dict[tuple[str, str], list[Json]],
    dict[int | None, Json],
    dict[tuple[str, str], str],
]:
    """The saved alerts, commands, menu buttons and descriptions."""
    alerts = {int(k): deque(v, maxlen=MAX_ALERTS_PER_USER) for k, v in saved["alerts"].items()}
    commands = {(str(scope), str(lang)): list(cmds) for scope, lang, cmds in saved["commands"]}
    menu_buttons = {
        None if chat_id is None else int(chat_id): dict(button)
        for chat_id, button in saved["menu_buttons"]
    }
    descriptions = {  # states saved before descriptions have none
        (str(kind), str(lang)): str(text) for kind, lang, text in saved.get("descriptions", [])
    }
    return alerts, commands, menu_buttons, descriptions
