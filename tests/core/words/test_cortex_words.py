"""A Cortex table's default Stress types in each language, and typed back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.cortex.traits import DEFAULT_STRESS_TYPES, STRESS_TYPE_CONTEXT, same_name
from core.words.cortex_words import _words, stress_name, stress_typed
from core.words.i18n import Lang, lang_for

EN, RU, XX = lang_for("en"), lang_for("ru"), lang_for("xx")
LANGS = pytest.mark.parametrize("lang", [EN, RU, XX], ids=["en", "ru", "xx"])


@LANGS
def test_every_default_stress_type_has_a_name_in_each_language(lang: Lang) -> None:
    assert tuple(_words(lang)) == DEFAULT_STRESS_TYPES
    shown = [stress_name(t, lang) for t in DEFAULT_STRESS_TYPES]
    assert all(shown) and len({s.casefold() for s in shown}) == len(shown)


def test_english_reads_the_stored_words_and_russian_its_own() -> None:
    assert [stress_name(t, EN) for t in DEFAULT_STRESS_TYPES] == list(DEFAULT_STRESS_TYPES)
    assert [stress_name(t, RU) for t in DEFAULT_STRESS_TYPES] == [
        "Страх",
        "Гнев",
        "Усталость",
        "Травма",
        "Неуверенность",
    ]
    assert stress_name("Angry", XX) == "⟦Àñgrÿ⟧"
    for t in DEFAULT_STRESS_TYPES:  # the rules' refusals name them under the same context
        assert RU.pgettext(STRESS_TYPE_CONTEXT, t) == stress_name(t, RU)


@LANGS
def test_a_type_the_watchtower_wrote_stays_as_written(lang: Lang) -> None:
    for own in ("Hungry", "afraid", "Страх", "Angry ", ""):
        assert stress_name(own, lang) == own


@LANGS
@given(pick=st.sampled_from(DEFAULT_STRESS_TYPES), upper=st.lists(st.booleans(), max_size=20))
def test_a_default_typed_in_the_readers_language_reads_as_the_stored_type(
    lang: Lang, pick: str, upper: list[bool]
) -> None:
    shown = stress_name(pick, lang)
    cases = upper + [False] * len(shown)
    typed = "".join(c.upper() if up else c.lower() for c, up in zip(shown, cases, strict=False))
    assert stress_typed(f" {typed} ", DEFAULT_STRESS_TYPES, lang) == pick
    assert stress_typed(pick.lower(), DEFAULT_STRESS_TYPES, lang) == pick  # stored words too


@LANGS
@given(text=st.text(max_size=30))
def test_anything_else_is_left_as_typed_for_the_rules(lang: Lang, text: str) -> None:
    meant = stress_typed(text, DEFAULT_STRESS_TYPES, lang)
    known = [t for t in DEFAULT_STRESS_TYPES if same_name(t, text)]
    known += [t for t in DEFAULT_STRESS_TYPES if same_name(stress_name(t, lang), text)]
    if known:
        assert meant == known[0]
    else:
        assert meant == text


def test_a_tables_own_types_come_first_and_a_dropped_default_is_not_read() -> None:
    assert stress_typed("страх", ("Страх", "Afraid"), RU) == "Страх"  # the table's own "Страх"
    assert stress_typed("Страх", ("Hungry", "Angry"), RU) == "Страх"  # Afraid is gone: refused
    assert stress_typed("Гнев", ("Hungry", "Angry"), RU) == "Angry"
    assert stress_typed("Гнев", ("Hungry", "Angry"), EN) == "Гнев"  # English reads English
