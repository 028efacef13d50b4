"""The sandbox: a local stand-in for Telegram with a page that plays the players.

``FakeBotApi`` speaks the part of the Bot API the bot uses; ``setup_sandbox`` mounts
it and its page into an aiohttp application. Nothing here runs at import time.
"""

from tgbot.sandbox.fake_api import (
    ApiError,
    ButtonPress,
    FakeBotApi,
    Player,
    SandboxError,
    default_cast,
    parse_html,
)
from tgbot.sandbox.web import create_sandbox_app, setup_sandbox

__all__ = [
    "ApiError",
    "ButtonPress",
    "FakeBotApi",
    "Player",
    "SandboxError",
    "create_sandbox_app",
    "default_cast",
    "parse_html",
    "setup_sandbox",
]
