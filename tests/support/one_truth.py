"""One truth on every screen: what a message with buttons shows is the current state.

:func:`stale_views` reads every message at the local Bot API server that still
carries panel buttons and compares it with a fresh render, from the database, of the
panel it shows, as Telegram would show that render (the sandbox's own HTML parser).
"""

from __future__ import annotations

import copy
from typing import Any

from core.rules.errors import NotAllowedNow
from tests.support.stack import Stack, campaigns
from tgbot.callback import PanelButton, decode
from tgbot.edits import markup_json
from tgbot.presenter import draw
from tgbot.sandbox.fake_api import parse_html

Json = dict[str, Any]


def _panel_buttons(message: Json) -> list[PanelButton]:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    found = []
    for row in rows:
        for button in row:
            data = button.get("callback_data") or ""
            if data.startswith("p1:"):
                decoded = decode(data)
                assert isinstance(decoded, PanelButton)
                found.append(decoded)
    return found


async def stale_views(stack: Stack) -> list[str]:
    """Every message with panel buttons that does not read as its panel does now.

    Returns:
        One line per such message (empty: every screen tells the truth).
    """
    application = stack.runtime.application
    assert application is not None
    renderers = application.deps.renderers
    problems: list[str] = []
    live: dict[tuple[int, str], int] = {}
    for chat_id in list(stack.api._chats):
        for message in stack.api.messages(chat_id):
            pressed = _panel_buttons(message)
            if not pressed:
                continue
            where = f"chat {chat_id} message {message['message_id']}"
            ids = {b.panel_id for b in pressed}
            if len(ids) != 1:
                problems.append(f"{where}: buttons of several panels {sorted(ids)}")
                continue
            try:
                view = await campaigns(stack).panel(ids.pop())
            except NotAllowedNow:
                problems.append(f"{where}: buttons of a panel that is gone")
                continue
            if view.closed:
                problems.append(f"{where}: buttons of a closed panel ({view.kind})")
                continue
            if view.chat_tg_id != chat_id or view.message_id != message["message_id"]:
                problems.append(f"{where}: buttons of {view.kind} shown elsewhere")
                continue
            # One live panel per procedure per chat (a roll is its roller's).
            procedure = view.campaign.system.procedure(view.kind, view.state)
            live[chat_id, procedure] = live.get((chat_id, procedure), 0) + 1
            text, markup = draw(renderers, view)  # as the presenter draws it
            plain, _ = parse_html(text)
            keyboard = markup_json(markup) if markup is not None else {}
            if plain.strip() != (message.get("text") or "").strip():
                problems.append(f"{where}: {view.kind} text is not the current state")
            elif keyboard.get("inline_keyboard", []) != (message.get("reply_markup") or {}).get(
                "inline_keyboard", []
            ):
                problems.append(f"{where}: {view.kind} buttons are not the current state")
    for (chat_id, kind), count in live.items():
        if count > 1:
            problems.append(f"chat {chat_id}: {count} live {kind} panels")
    return problems


RETIRED_MARKS = ("⏭ ", "⏹ ")  # the presenter's last line on a retired message


def _retired(text: str) -> bool:
    head, _, last = text.rpartition("\n\n")
    return bool(head) and last.startswith(RETIRED_MARKS)


class Retirements:
    """One truth for superseded and retired messages too.

    A message retired by a change (a newer panel of its procedure, a second command,
    the game's end) must read exactly as it did just before that change, plus one
    line saying where play went on, and never change again: no other procedure's
    state, and no old button brings it back to life.

    Call :meth:`check` after every move; it compares with what it saw after the last one.
    """

    def __init__(self) -> None:
        self._seen: dict[tuple[int, int], Json] = {}
        self._retired: dict[tuple[int, int], str] = {}
        self.was: dict[tuple[int, int], Json] = {}  # retired messages as they read before

    def late_presses(self) -> list[tuple[int, int, str, Json]]:
        """Old panel buttons of retired messages, as a phone that missed the retirement
        shows them: (chat, message, data, the message as seen)."""
        return [
            (chat, message_id, b.encode(), shown)
            for (chat, message_id), shown in sorted(self.was.items())
            for b in _panel_buttons(shown)
        ]

    def check(self, stack: Stack) -> list[str]:
        """What went wrong since the last call (empty: every retired message holds)."""
        problems: list[str] = []
        seen: dict[tuple[int, int], Json] = {}
        for chat_id in list(stack.api._chats):
            for message in stack.api.messages(chat_id):
                key = chat_id, message["message_id"]
                text = message.get("text") or ""
                seen[key] = copy.deepcopy(message)
                where = f"chat {chat_id} message {message['message_id']}"
                if key in self._retired:
                    if text != self._retired[key]:
                        problems.append(f"{where}: a retired message changed")
                    if _panel_buttons(message):
                        problems.append(f"{where}: a retired message has panel buttons again")
                    continue
                if not _retired(text):
                    continue
                self._retired[key] = text
                before = self._seen.get(key)
                if before is not None:
                    self.was[key] = before
                    if text.rpartition("\n\n")[0] != (before.get("text") or ""):
                        problems.append(f"{where}: retired, it no longer reads as it did")
                if (message.get("reply_markup") or {}).get("inline_keyboard"):
                    problems.append(f"{where}: retired, it keeps buttons")
        self._seen = seen
        return problems
