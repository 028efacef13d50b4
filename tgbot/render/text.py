"""Small helpers for Telegram HTML: every piece of user text goes through ``esc``."""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from core.rules.choice import Choice
from core.words.i18n import Lang, lang_for

MAX_MESSAGE = 4096


def esc(text: str) -> str:
    """Escape user text for Telegram's HTML parse mode."""
    return html.escape(text, quote=False)


def fit(text: str, limit: int = MAX_MESSAGE) -> str:
    """Cut plain text to Telegram's limit (only for text with no tags)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def or_list(items: Sequence[str], lang: Lang | None = None) -> str:
    """``a``, ``a or b``, ``a, b or c`` (in ``lang``; English when not given)."""
    if len(items) < 2:
        return "".join(items)
    lang = lang or lang_for(None)
    return lang.gettext("{some} or {last}", some=", ".join(items[:-1]), last=items[-1])


def now_line(
    choices: Iterable[Choice[Any]],
    name: Callable[[int], str],
    phrase: Callable[[Choice[Any]], str],
    side: Collection[Any] = (),
    lang: Lang | None = None,
) -> str:
    """The panel's last line: who acts now and what they choose between.

    Args:
        choices: the panel's legal choices (each says who may take it).
        name: a person's name in play, already escaped.
        phrase: what a choice does, in a few words.
        side: verbs open at any time (ending a scene...), left out while anything else is open.
        lang: the language of the panel (English when not given).

    Returns:
        "👉 Ana: roll or call it off · Bo or Cy: help", or "" when nobody acts.
    """
    listed = list(choices)
    main = [c for c in listed if c.verb not in side] or listed
    options: dict[int, dict[str, None]] = {}
    for choice in main:
        for person in sorted(choice.by):
            options.setdefault(person, {}).setdefault(phrase(choice), None)
    same: dict[tuple[str, ...], list[str]] = {}
    for person, said in options.items():
        same.setdefault(tuple(said), []).append(name(person))
    parts = [
        f"<b>{or_list(people, lang)}</b>: {or_list(list(said), lang)}"
        for said, people in same.items()
    ]
    return "👉 " + " · ".join(parts) if parts else ""
