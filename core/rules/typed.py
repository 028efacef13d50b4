"""Keywords players type, in any language a table speaks, read back as the rules' own words.

The rules read typed text in one grammar whose keywords are English (``harm:``,
``/trait value …``, ``/check strong adv dc15``, ``/downtime camp``). A table may
mix languages, so each keyword may also be typed in any language with a
catalogue: a :class:`Vocabulary` holds, for each English keyword, every form a
catalogue gives it (the edge builds it, :mod:`core.words.typed_words`). The functions
here rewrite a typed text's keywords into the English ones and leave everything
else (names, details, numbers) exactly as typed; a word that is no keyword stays
as it is, for the rules to refuse or to read as a name.

Matching ignores case and reads «ё» as «е».
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

DETAIL_KINDS = ("harm", "scene", "soft", "hard")
"""The words before a colon in an NSU detail reply (``harm: Scraped palms``)."""
DETAIL_PLACES = ("scene", "here")
"""The words after ``@`` that put a detail on the scene."""
TRAIT_BOXES = ("value", "relationship", "asset", "resource", "limit")
TRAIT_KINDS = ("distinction", "ability", "heritage", "extra", "location")
KINDS_OF_BOX = {"asset": ("distinction", "ability", "heritage"), "resource": ("extra", "location")}
"""The kinds a box holds: a kind word typed before the name is read only for its own box."""
TRAIT_VERBS = ("remove", "name")
CHECK_WORDS = ("weak", "average", "strong", "adv", "dis", "dc", "vs", "prof")
DOWNTIME_PLACES = ("home", "camp")
ASPECTS = ("body", "mind", "heart")
"""No Stone Unturned's Aspects, typed in a project (``1 mind #1``) or the roll's stakes."""
RISKS = ("world", "character")
INTROSPECTION_WORDS = ("swap", "replace")
"""Introspection's replies: ``swap 1 3``, ``replace 2 Calm``."""
CORTEX_REPLY_WORDS = ("detail", "aid")
"""The first word of a reply to a Cortex conflict panel (``detail Slick floor``)."""
ODDS_WORDS = ("world", "character", "adv", "dis", "madv", "mdis")
COMMAND_WORDS = ("help", "off")
"""A command's one-word argument: ``/check help`` (its help), ``/story off`` (withdraw)."""
NUDGE_WORDS = ("off", "mute", "unmute")
"""``/nudge``'s words that are no wait (:class:`core.rules.reminders.NudgeWord`)."""
NUDGE_UNITS = ("m", "h", "d")
"""``/nudge``'s units of a wait: ``30m``, ``12h``, ``2d``."""

KEYWORDS: tuple[str, ...] = tuple(
    dict.fromkeys(
        DETAIL_KINDS
        + DETAIL_PLACES
        + TRAIT_BOXES
        + TRAIT_KINDS
        + TRAIT_VERBS
        + CHECK_WORDS
        + DOWNTIME_PLACES
        + ODDS_WORDS
        + CORTEX_REPLY_WORDS
        + ASPECTS
        + INTROSPECTION_WORDS
        + COMMAND_WORDS
        + NUDGE_WORDS
        + NUDGE_UNITS
    )
)
"""Every English keyword a player may type; each has its forms in every catalogue."""


def fold(word: str) -> str:
    """A word as keywords are compared: case-folded, «ё» as «е»."""
    return word.casefold().replace("ё", "е")


@dataclass(frozen=True)
class Vocabulary:
    """Each English keyword's typed forms (the English word itself always among them)."""

    forms: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, forms: Mapping[str, Iterable[str]]) -> Vocabulary:
        """From each keyword's forms in any case; the keyword itself is added."""
        return cls(
            {
                key: frozenset({fold(key)} | {fold(f.strip()) for f in found if f.strip()})
                for key, found in forms.items()
            }
        )

    def meaning(self, word: str, among: Iterable[str]) -> str | None:
        """The keyword among ``among`` that ``word`` is a form of, or None."""
        typed = fold(word.strip())
        for key in among:
            if typed == fold(key) or typed in self.forms.get(key, frozenset()):
                return key
        return None


ENGLISH = Vocabulary()
"""Only the English keywords."""


def detail_text(text: str, words: Vocabulary) -> str:
    """``вред: Содранные ладони @ сцена`` -> ``harm: Содранные ладони @ scene``."""
    head, colon, rest = text.partition(":")
    if colon and "@" not in head:
        kind = words.meaning(head, DETAIL_KINDS)
        if kind is not None:
            text = f"{kind}: {rest.strip()}"
    name, at, where = text.rpartition("@")
    if at:
        place = words.meaning(where, DETAIL_PLACES)
        if place is not None:
            text = f"{name.rstrip()} @ {place}"
    return text


def trait_text(text: str, words: Vocabulary) -> str:
    """``ценность Справедливость d8`` -> ``value Справедливость d8`` (``/trait``'s grammar).

    An Asset's or a Resource's kind is read after the die or right after the box
    (``актив способность Молот d6`` -> ``asset ability Молот d6``).
    """
    tokens = text.split()
    if not tokens:
        return text
    out = list(tokens)
    verb = words.meaning(out[0], TRAIT_VERBS)
    if verb is not None:
        out[0] = verb
    first_box = 1 if verb == "remove" else 0 if verb is None else None
    if first_box is not None and len(out) > first_box:
        box = words.meaning(out[first_box], TRAIT_BOXES) or _plural(out[first_box], words)
        if box is not None:
            out[first_box] = box
        if verb is None and box is not None and len(out) > 3 and _DIE.match(out[-2]):
            kind = words.meaning(out[-1], TRAIT_KINDS)
            if kind is not None:
                out[-1] = kind
        if verb is None and box is not None and len(out) > 3 and _DIE.match(out[-1]):
            kind = words.meaning(out[1], KINDS_OF_BOX.get(box, ()))  # «актив способность …»
            if kind is not None:
                out[1] = kind
    if verb is None:
        out = [_latin_die(t) for t in out]
    return " ".join(out)


def _latin_die(token: str) -> str:
    """``д8`` (a die typed with a Cyrillic letter) -> ``d8``; anything else as typed."""
    return "d" + token[1:] if _DIE.match(token) and token[:1] in "дДкК" else token


def _plural(word: str, words: Vocabulary) -> str | None:
    """An English box in the plural (``values``) reads as the box."""
    return words.meaning(word[:-1], TRAIT_BOXES) if word.lower().endswith("s") else None


_DIE = re.compile(r"^[dDдДкК]?\d{1,2}$")
_NUMBERED = re.compile(r"^(?P<word>[^\d+\-]+?)(?P<digits>\d{0,3})$")


def check_text(text: str, words: Vocabulary) -> str:
    """``сильная +2 преим сл15`` -> ``strong +2 adv dc15`` (``/check``'s grammar)."""
    out: list[str] = []
    for token in text.replace(",", " ").split():
        found = _NUMBERED.match(token)
        key = words.meaning(found["word"], CHECK_WORDS) if found else None
        out.append(token if key is None or found is None else key + found["digits"])
    return " ".join(out)


def downtime_text(text: str, words: Vocabulary) -> str:
    """``лагерь`` -> ``camp`` (``/downtime``'s place)."""
    return words.meaning(text, DOWNTIME_PLACES) or text.strip()


def odds_query_text(text: str, words: Vocabulary) -> str:
    """``d6 d8 мир преим +1`` -> ``d6 d8 world adv +1`` (``/odds``'s grammar)."""
    return " ".join(words.meaning(t, ODDS_WORDS) or t for t in text.replace(",", " ").split())


def cortex_reply_text(text: str, words: Vocabulary) -> str:
    """``деталь Скользкий пол`` -> ``detail Скользкий пол`` (a reply to a Cortex conflict)."""
    word, _, rest = text.strip().partition(" ")
    key = words.meaning(word, CORTEX_REPLY_WORDS) if rest.strip() else None
    return f"{key} {rest.strip()}" if key is not None else text


_PROJECT = re.compile(r"^\s*(?P<mood>\d+)\s+(?P<aspect>\S+)\s+(?P<rest>(?:#\d+|\d+\s+\S).*)$", re.S)
_INTROSPECTION = re.compile(r"^\s*(?P<word>\S+)\s+(?P<rest>\d+\s+\S.*)$", re.S)


def downtime_reply_text(text: str, words: Vocabulary) -> str:
    """A downtime reply's keywords: ``1 разум #1`` -> ``1 mind #1`` (a long-term project),
    ``поменять 1 3`` -> ``swap 1 3`` (introspection). Only text of those exact shapes
    changes; a plan or a rumour stays as written."""
    if found := _PROJECT.match(text):
        aspect = words.meaning(found["aspect"], ASPECTS)
        if aspect is not None:
            return f"{found['mood']} {aspect} {found['rest']}"
    if found := _INTROSPECTION.match(text):
        word = words.meaning(found["word"], INTROSPECTION_WORDS)
        if word is not None:
            return f"{word} {found['rest']}"
    return text


def stakes_text(text: str, words: Vocabulary) -> str:
    """The roll's stakes typed as words: ``разум, мир`` -> ``mind world``; text with any
    other word stays as written."""
    tokens = text.replace(",", " ").split()
    meant = [words.meaning(t, ASPECTS + RISKS) for t in tokens]
    if not tokens or None in meant:
        return text
    return " ".join(m for m in meant if m is not None)


def command_word(text: str, words: Vocabulary) -> str | None:
    """A command's whole argument as one of :data:`COMMAND_WORDS` (``справка`` -> ``help``),
    or None when it is anything else."""
    return words.meaning(text, COMMAND_WORDS) if len(text.split()) == 1 else None


def contest_text(text: str, words: Vocabulary) -> str:
    """``Лекс против Кларк`` -> ``Лекс vs Кларк`` (``/contest``'s two names)."""
    tokens = text.split()
    return " ".join("vs" if words.meaning(t, ("vs",)) else t for t in tokens)


_WAIT = re.compile(r"^(?P<number>\d{1,6})\s*(?P<unit>[^\d\s]+)$")


def nudge_text(text: str, words: Vocabulary) -> str:
    """``12ч`` -> ``12h``, ``тихо`` -> ``mute`` (``/nudge``'s grammar)."""
    typed = " ".join(text.split())
    word = words.meaning(typed, NUDGE_WORDS)
    if word is not None:
        return word
    found = _WAIT.match(typed)
    unit = words.meaning(found["unit"], NUDGE_UNITS) if found else None
    return typed if unit is None or found is None else found["number"] + unit
