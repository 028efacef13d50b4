"""Text the store can keep as it came: no NUL character and no broken one.

PostgreSQL refuses a NUL (``\\u0000``) in any text, and a lone UTF-16 surrogate
(``\\ud800``: half of a character, which no valid UTF-8 holds) cannot be written at all;
SQLite would keep both. So every text that comes in is looked at where it enters, the
same on both stores: what a player typed (a note, a field, a path of the Mini App) is
refused as malformed with :data:`UNSTORABLE`; what Telegram tells about a person or a
chat (a name, a title), which nobody can retype, is kept :func:`cleaned` of them.
"""

from __future__ import annotations

import re

from core.rules.errors import Malformed

UNSTORABLE = (
    "That text has a character that can't be kept (a null character or half of one)."
    " Please type it again without it."
)

TOO_LONG = "That text is too long to keep. Please make it shorter."


class Unstorable(Malformed):
    """A text holds a NUL or a broken character: refused whole, as typed."""

    def __init__(self) -> None:
        super().__init__(UNSTORABLE)


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # a valid pair is one character in Python


def storable(text: str) -> bool:
    """Whether ``text`` can be kept as it is."""
    return _UNSTORABLE.search(text) is None


def checked(text: str) -> str:
    """``text``, when it can be kept as it is.

    Raises:
        Unstorable: it holds a NUL or a broken character.
    """
    if not storable(text):
        raise Unstorable()
    return text


def check_all(value: object) -> None:
    """Look at every text in ``value`` (decoded JSON: keys, items, values).

    Raises:
        Unstorable: one holds a NUL or a broken character.
    """
    if isinstance(value, str):
        checked(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_all(key)
            check_all(item)
    elif isinstance(value, list | tuple):
        for item in value:
            check_all(item)


def cleaned(text: str) -> str:
    """``text`` without its NUL and broken characters (a name Telegram tells)."""
    return _UNSTORABLE.sub("", text)
