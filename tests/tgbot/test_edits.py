"""A panel's keyboard as JSON: the same as PTB's own encoding, for every kind of button."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, LoginUrl, WebAppInfo

from tgbot.edits import button_json, markup_json

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
