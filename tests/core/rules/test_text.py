"""Text the store can keep: a NUL or half a character is found, refused, or cleaned away."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.text import Unstorable, check_all, checked, cleaned, storable

ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()))  # surrogates included


def keepable(text: str) -> bool:
    """The oracle: UTF-8 can hold it and PostgreSQL's text takes it (no NUL)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


@given(ANY_TEXT)
def test_storable_is_what_utf8_and_postgresql_keep(text: str) -> None:
    assert storable(text) == keepable(text)


@given(ANY_TEXT)
def test_checked_passes_what_is_storable_and_refuses_the_rest(text: str) -> None:
    if keepable(text):
        assert checked(text) == text
    else:
        with pytest.raises(Unstorable):
            checked(text)


@given(ANY_TEXT)
def test_cleaned_keeps_every_other_character_in_order(text: str) -> None:
    out = cleaned(text)
    assert keepable(out)
    assert out == "".join(ch for ch in text if keepable(ch))


def test_a_pair_of_surrogates_is_one_character_and_kept() -> None:
    smile = '"\\ud83d\\ude00"'
    assert storable(json.loads(smile)) and json.loads(smile) == "😀"
    assert not storable(json.loads('"\\ud800"'))


@given(
    st.recursive(
        ANY_TEXT | st.integers(), lambda inner: st.lists(inner) | st.dictionaries(ANY_TEXT, inner)
    )
)
def test_check_all_refuses_any_text_anywhere_in_json(value: object) -> None:
    def texts(found: object) -> list[str]:
        if isinstance(found, str):
            return [found]
        if isinstance(found, dict):
            return [t for k, v in found.items() for t in (*texts(k), *texts(v))]
        if isinstance(found, list):
            return [t for item in found for t in texts(item)]
        return []

    if all(keepable(t) for t in texts(value)):
        check_all(value)
    else:
        with pytest.raises(Unstorable):
            check_all(value)
