"""The letters a map abbreviates with, in the reader's language (``L3 · D2 R4`` → ``Л3 · О2 Н4``).

The rules name a dealt card ``L1``, ``L2``… and a card's back ``D1``-``D4`` (Danger) and
``R1``-``R4`` (Reward). Whoever shows them shows them with :func:`mark`: each letter
comes from the catalogue (the legends say what they mean), the number as it is.
Anything else (a card not dealt yet, player text) is shown as it is.
"""

from __future__ import annotations

import re

from core.words.i18n import Lang

_MARK = re.compile(r"^([LDR])(\d+|\?)$")


def _letters(lang: Lang) -> dict[str, str]:
    """Each map letter in ``lang`` (literal calls, so the catalogue finds them)."""
    return {
        "L": lang.pgettext("a map letter: Location", "L"),
        "D": lang.pgettext("a map letter: Danger", "D"),
        "R": lang.pgettext("a map letter: Reward", "R"),
    }


def mark(label: str | None, lang: Lang, missing: str = "?") -> str:
    """``L3`` / ``D2`` / ``R4`` as ``lang`` abbreviates it; ``None`` is ``missing``."""
    if label is None:
        return missing
    found = _MARK.match(label)
    if found is None:
        return label
    return _letters(lang)[found[1]] + found[2]


def back_marks(danger: str | None, reward: str | None, lang: Lang) -> str:
    """A card's back, ``D2 R4`` (``D? R?`` before Danger and Reward are rolled)."""
    return f"{mark(danger or 'D?', lang)} {mark(reward or 'R?', lang)}"


def marks(text: str, lang: Lang) -> str:
    """Every map label in ``text`` (``D2 R4``) in the reader's letters, the rest as it is."""
    return " ".join(mark(word, lang) for word in text.split(" "))
