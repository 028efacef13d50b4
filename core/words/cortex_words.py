"""A Cortex table's default Stress types in a reader's language, and back.

The rules keep a campaign's Stress types as the table's own words; a new
campaign starts with :data:`~core.rules.cortex.traits.DEFAULT_STRESS_TYPES`
(English game data). Whoever shows a Stress type shows a default one in the
reader's language and a renamed one exactly as the Watchtower wrote it
(:func:`stress_name`); whoever reads one a player typed maps a default's name in
the reader's language back to the stored type before the rules see it
(:func:`stress_typed`).
"""

from __future__ import annotations

from collections.abc import Iterable

from core.rules.cortex.traits import DEFAULT_STRESS_TYPES, same_name
from core.words.i18n import Lang


def _words(lang: Lang) -> dict[str, str]:
    """Each default Stress type's name in ``lang``, by the stored type.

    The names carry a context: d20's wound bands share some of these English words.
    """
    return {
        "Afraid": lang.pgettext("a Cortex Stress type", "Afraid"),
        "Angry": lang.pgettext("a Cortex Stress type", "Angry"),
        "Exhausted": lang.pgettext("a Cortex Stress type", "Exhausted"),
        "Injured": lang.pgettext("a Cortex Stress type", "Injured"),
        "Insecure": lang.pgettext("a Cortex Stress type", "Insecure"),
    }


def stress_name(name: str, lang: Lang) -> str:
    """A Stress type as ``lang`` reads it: a default one translated, any other as written."""
    if name not in DEFAULT_STRESS_TYPES:
        return name
    return _words(lang).get(name, name)


def stress_typed(text: str, types: Iterable[str], lang: Lang) -> str:
    """The stored Stress type a player meant by ``text``, typed in ``lang``.

    One of the table's types (any case) or a default type's name in ``lang`` (any
    case, while the table still has that type) reads as the stored type; the
    table's own spelling comes first. Anything else is returned as typed, for the
    rules to refuse.
    """
    kept = tuple(types)
    for own in kept:
        if same_name(own, text):
            return own
    words = _words(lang)
    for stored in kept:
        if stored in words and same_name(words[stored], text):
            return stored
    return text
