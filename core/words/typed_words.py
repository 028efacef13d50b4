"""The keywords players type, in every catalogue's words, for the rules' grammar.

Each English keyword of :data:`core.rules.typed.KEYWORDS` has its typed forms in
every catalogue, under the context ``a keyword players type``; a translation may
give several forms separated by ``|`` (``ценность|ценности``), the first being the
one shown in examples. A table mixes languages, so the vocabulary holds every
catalogue's forms at once, and English always works.
"""

from __future__ import annotations

from functools import cache

from core.rules.typed import KEYWORDS, Vocabulary
from core.words.i18n import Lang, available, lang_for

CONTEXT = "a keyword players type"


def dice_examples(lang: Lang) -> str:
    """The dice a refusal shows as examples (``core.rules.dice.EXAMPLES``), as ``lang``'s
    players type them (Russian: ``2к6+3``, ``к20 преим``); a literal call, so the
    catalogue finds it."""
    return lang.pgettext("examples of dice players type", "2d6+3, 4d6kh3, 2d20kl1, d20 adv")


def _forms(lang: Lang) -> dict[str, str]:
    """Each keyword's forms in ``lang`` (literal calls, so the catalogue finds them)."""
    forms = {
        "harm": lang.pgettext("a keyword players type", "harm"),
        "scene": lang.pgettext("a keyword players type", "scene"),
        "soft": lang.pgettext("a keyword players type", "soft"),
        "hard": lang.pgettext("a keyword players type", "hard"),
        "here": lang.pgettext("a keyword players type", "here"),
        "value": lang.pgettext("a keyword players type", "value"),
        "relationship": lang.pgettext("a keyword players type", "relationship"),
        "asset": lang.pgettext("a keyword players type", "asset"),
        "resource": lang.pgettext("a keyword players type", "resource"),
        "limit": lang.pgettext("a keyword players type", "limit"),
        "distinction": lang.pgettext("a keyword players type", "distinction"),
        "ability": lang.pgettext("a keyword players type", "ability"),
        "heritage": lang.pgettext("a keyword players type", "heritage"),
        "extra": lang.pgettext("a keyword players type", "extra"),
        "location": lang.pgettext("a keyword players type", "location"),
        "remove": lang.pgettext("a keyword players type", "remove"),
        "name": lang.pgettext("a keyword players type", "name"),
        "weak": lang.pgettext("a keyword players type", "weak"),
        "average": lang.pgettext("a keyword players type", "average"),
        "strong": lang.pgettext("a keyword players type", "strong"),
        "adv": lang.pgettext("a keyword players type", "adv"),
        "dis": lang.pgettext("a keyword players type", "dis"),
        "dc": lang.pgettext("a keyword players type", "dc"),
        "vs": lang.pgettext("a keyword players type", "vs"),
        "prof": lang.pgettext("a keyword players type", "prof"),
        "home": lang.pgettext("a keyword players type", "home"),
        "camp": lang.pgettext("a keyword players type", "camp"),
        "world": lang.pgettext("a keyword players type", "world"),
        "character": lang.pgettext("a keyword players type", "character"),
        "madv": lang.pgettext("a keyword players type", "madv"),
        "mdis": lang.pgettext("a keyword players type", "mdis"),
        "detail": lang.pgettext("a keyword players type", "detail"),
        "aid": lang.pgettext("a keyword players type", "aid"),
        "body": lang.pgettext("a keyword players type", "body"),
        "mind": lang.pgettext("a keyword players type", "mind"),
        "heart": lang.pgettext("a keyword players type", "heart"),
        "swap": lang.pgettext("a keyword players type", "swap"),
        "replace": lang.pgettext("a keyword players type", "replace"),
        "help": lang.pgettext("a keyword players type", "help"),
        "off": lang.pgettext("a keyword players type", "off"),
        "mute": lang.pgettext("a keyword players type", "mute"),
        "unmute": lang.pgettext("a keyword players type", "unmute"),
        "m": lang.pgettext("a keyword players type", "m"),
        "h": lang.pgettext("a keyword players type", "h"),
        "d": lang.pgettext("a keyword players type", "d"),
    }
    assert set(forms) == set(KEYWORDS)
    return forms


def typed_form(keyword: str, lang: Lang) -> str:
    """The form of ``keyword`` shown to a reader of ``lang`` (its first form)."""
    return _forms(lang)[keyword].split("|")[0].strip()


@cache
def vocabulary() -> Vocabulary:
    """Every catalogue's forms of every keyword, plus the English ones the rules read."""
    found: dict[str, set[str]] = {key: {key} for key in KEYWORDS}
    for code in available():
        for key, forms in _forms(lang_for(code)).items():
            found[key].update(forms.split("|"))
    # the English grammar's own spellings
    found["remove"].add("drop")
    found["average"].add("avg")
    found["scene"].add("the scene")
    found["character"].add("char")
    found["adv"].update(("aadv", "aspect-adv"))
    found["dis"].update(("disadv", "adis", "aspect-dis"))
    found["madv"].add("mood-adv")
    found["mdis"].add("mood-dis")
    found["off"].update(("stop", "withdraw"))
    found["m"].update(("min", "mins", "minutes"))
    found["h"].update(("hr", "hrs", "hours"))
    found["d"].update(("day", "days"))
    return Vocabulary.of(found)
