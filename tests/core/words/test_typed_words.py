"""Every keyword a player types has its form in every catalogue, and the tests' forms are its."""

from __future__ import annotations

from core.rules.typed import KEYWORDS, fold
from core.words.i18n import available, lang_for
from core.words.typed_words import typed_form, vocabulary
from tests.core.rules.test_typed import RU


def test_every_keyword_has_a_russian_form_of_its_own() -> None:
    ru = lang_for("ru")
    for key in KEYWORDS:
        form = typed_form(key, ru)
        assert form and fold(form) != fold(key), key
        assert vocabulary().meaning(form, KEYWORDS) == key


def test_the_vocabulary_holds_every_catalogue_and_english() -> None:
    words = vocabulary()
    for key in KEYWORDS:
        assert words.meaning(key, KEYWORDS) == key
        assert words.forms[key] == RU.forms[key], key
    assert "ru" in available()


def test_no_form_means_two_keywords_of_one_grammar() -> None:
    from core.rules import typed

    for group in (
        typed.DETAIL_KINDS,
        typed.DETAIL_PLACES,
        typed.TRAIT_BOXES + typed.TRAIT_VERBS,
        typed.TRAIT_KINDS,
        typed.CHECK_WORDS,
        typed.DOWNTIME_PLACES,
        typed.COMMAND_WORDS,
        typed.NUDGE_WORDS,
        typed.NUDGE_UNITS,
    ):
        seen: dict[str, str] = {}
        for key in group:
            for form in vocabulary().forms[key]:
                assert seen.setdefault(form, key) == key, (form, key, seen[form])
