"""One truth on every screen: what a message with buttons shows is the current state.

:func:`stale_views` reads every message at the local Bot API server that still
carries panel buttons and compares it with a fresh render, from the database, of the
panel it shows, as Telegram would show that render (the sandbox's own HTML parser).
"""

from __future__ import annotations

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
