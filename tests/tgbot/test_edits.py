"""A panel's keyboard as JSON, and a reply: the same as PTB's own encoding."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, LoginUrl, Message, WebAppInfo
from telegram.constants import ParseMode
from telegram.request import BaseRequest, RequestData

from tgbot.edits import button_json, markup_json, reply_html

texts = st.text(min_size=1, max_size=40)
buttons = st.one_of(
    st.builds(
        lambda t, d: InlineKeyboardButton(t, callback_data=d),
        texts,
        st.text(min_size=1, max_size=64),
    ),
    st.builds(
        lambda t, u: InlineKeyboardButton(t, url=u),
        texts,
        st.sampled_from(["https://t.me/bot/app?startapp=abc", "https://example.org/<b>&"]),
    ),
    st.builds(
        lambda t: InlineKeyboardButton(t, web_app=WebAppInfo("https://example.org/app")), texts
    ),
    st.builds(
        lambda t: InlineKeyboardButton(t, login_url=LoginUrl("https://example.org/login")), texts
    ),
    st.builds(lambda t: InlineKeyboardButton(t, switch_inline_query="roll"), texts),
)


@given(buttons)
def test_a_button_is_encoded_as_ptb_encodes_it(button: InlineKeyboardButton) -> None:
    assert button_json(button) == button.to_dict()


@given(st.lists(st.lists(buttons, max_size=4), max_size=6))
def test_a_keyboard_is_encoded_as_ptb_encodes_it(rows: list[list[InlineKeyboardButton]]) -> None:
    markup = InlineKeyboardMarkup(rows)
    assert markup_json(markup) == markup.to_dict()


class Recording(BaseRequest):
    """Keeps each Bot API call's method and JSON body; answers with a sent message."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return None

    async def do_request(
        self, url: str, method: str, request_data: RequestData | None = None, **_: Any
    ) -> tuple[int, bytes]:
        body = json.loads(request_data.json_payload) if request_data is not None else {}
        self.calls.append((url.rsplit("/", 1)[1].lower(), body))
        sent = {"message_id": 9, "date": 0, "chat": {"id": 5, "type": "private"}, "text": "x"}
        return 200, json.dumps({"ok": True, "result": sent}).encode()


def incoming(chat_type: str, **more: Any) -> dict[str, Any]:
    return {
        "message_id": 41,
        "date": 0,
        "text": "/roll 2d6",
        "chat": {"id": -100 if chat_type != "private" else 5, "type": chat_type},
        "from": {"id": 5, "is_bot": False, "first_name": "Ann"},
        **more,
    }


@pytest.mark.parametrize(
    "message",
    [
        incoming("private"),
        incoming("group"),
        incoming("supergroup"),
        incoming("supergroup", message_thread_id=7, is_topic_message=True),
        incoming("supergroup", message_thread_id=7),  # a reply thread, not a topic
        incoming("private", business_connection_id="b1"),
        incoming("supergroup", direct_messages_topic={"topic_id": 3}),
    ],
)
async def test_a_reply_is_sent_as_ptb_sends_it(message: dict[str, Any]) -> None:
    request = Recording()
    bot = Bot("1:token", request=request)
    text = "🎲 <b>Ann</b> rolls <code>2d6</code>"
    await Message.de_json(message, bot).reply_text(text, parse_mode=ParseMode.HTML)
    await reply_html(Message.de_json(message, bot), text)
    (ptb_method, ptb_body), (method, body) = request.calls
    assert (method, body) == (ptb_method.lower(), ptb_body)
