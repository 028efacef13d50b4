"""A stand-in for the Telegram Bot API, in memory: one group chat, a few players and
their private chats, for the sandbox and the tests.

``api`` holds ``FakeBotApi``, the API itself, composed of parts that each stand in for
one side of Telegram, a module each: ``feed`` (the change feed), ``forum`` (topics),
``delivery`` (polling and the webhook), ``outgoing`` (what the bot sends, checked),
``messaging``, ``storage`` (files), ``inline``, ``menus``, ``members``, ``users`` (the
players), ``mini_app`` and ``persistence`` (the saved state). The parts see the API
through the protocol in ``hub``; the other modules hold what they share.
"""

from tgbot.sandbox.fake_api.api import FakeBotApi
from tgbot.sandbox.fake_api.files import image_size
from tgbot.sandbox.fake_api.people import Player, default_cast
from tgbot.sandbox.fake_api.records import ButtonPress, InlineAsk
from tgbot.sandbox.fake_api.text import (
    detect_entities,
    format_text,
    normalize_url,
    parse_html,
    trim_formatted,
    utf16_len,
)
from tgbot.sandbox.fake_api.themes import DARK_THEME, LIGHT_THEME, THEMES
from tgbot.sandbox.fake_api.wire import ApiError, Json, SandboxError, Upload, bad_request

__all__ = [
    "DARK_THEME",
    "LIGHT_THEME",
    "THEMES",
    "ApiError",
    "ButtonPress",
    "FakeBotApi",
    "InlineAsk",
    "Json",
    "Player",
    "SandboxError",
    "Upload",
    "bad_request",
    "default_cast",
    "detect_entities",
    "format_text",
    "image_size",
    "normalize_url",
    "parse_html",
    "trim_formatted",
    "utf16_len",
]
