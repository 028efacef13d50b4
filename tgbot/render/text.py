"""Small helpers for Telegram HTML: every piece of user text goes through ``esc``."""

from __future__ import annotations

import html

MAX_MESSAGE = 4096


def esc(text: str) -> str:
    """Escape user text for Telegram's HTML parse mode."""
    return html.escape(text, quote=False)


def fit(text: str, limit: int = MAX_MESSAGE) -> str:
    """Cut plain text to Telegram's limit (only for text with no tags)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
