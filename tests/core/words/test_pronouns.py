"""A character's gender is read from the pronouns their player wrote, in either language."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.words.pronouns import Gender, gender_of


@pytest.mark.parametrize(
    ("pronouns", "gender"),
    [
        ("she/her", Gender.SHE),
        ("She", Gender.SHE),
        ("она", Gender.SHE),
        ("Она/её", Gender.SHE),
        (" ей ", Gender.SHE),
        ("she/they", Gender.SHE),
        ("he/him", Gender.HE),
        ("он", Gender.HE),
        ("Он, его", Gender.HE),
        ("they/them", None),
        ("они", None),
        ("оно", None),
        ("xe/xem", None),
        ("they/she", None),  # the first one written decides
        ("", None),
        (None, None),
        ("—", None),
        ("shelly", None),  # a whole word, not a start
    ],
)
def test_the_first_pronoun_written_decides(pronouns: str | None, gender: Gender | None) -> None:
    assert gender_of(pronouns) is gender


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_any_text_reads_as_she_he_or_neither(text: str) -> None:
    gender = gender_of(text)
    assert gender is None or gender_of(f"{gender.value}/{text}") is gender
