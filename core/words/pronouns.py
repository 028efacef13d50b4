"""A character's grammatical gender, read from the pronouns their player wrote.

No Stone Unturned sheets keep pronouns as the player typed them (``she/her``,
``он``, ``они``, ``xe/xem``). A sentence whose grammar needs a gender (Russian
«готова» / «готов», English "she" / "he") asks :func:`gender_of`; anything but a
plain she or he (they, it, a neopronoun, nothing) is None, and the sentence takes
its neutral wording («персонаж готов», "they").
"""

from __future__ import annotations

import re
from enum import Enum


class Gender(Enum):
    """The two genders a sentence may agree with."""

    SHE = "she"
    HE = "he"


_FORMS = {
    Gender.SHE: frozenset({"she", "her", "hers", "она", "её", "ее", "ей", "неё", "нее"}),
    Gender.HE: frozenset({"he", "him", "his", "он", "его", "ему", "него"}),
}
_WORD = re.compile(r"[^\W\d_]+")


def gender_of(pronouns: str | None) -> Gender | None:
    """The gender of the first pronoun written (``she/they`` -> SHE), or None when it is
    neither she nor he (``they/she``, ``оно``, ``xe``, empty)."""
    found = _WORD.search(pronouns or "")
    if found is None:
        return None
    first = found.group(0).casefold()
    return next((gender for gender, forms in _FORMS.items() if first in forms), None)
