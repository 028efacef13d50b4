"""Languages: which catalogue a Telegram user gets, plural forms, numbers and dates."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import NotAllowedNow
from core.words.i18n import lang_for, pick

RU = lang_for("ru")
EN = lang_for("en")
XX = lang_for("xx")
DAYS = (
    "For {num} day after it ends, /resume brings it back here as it was.",
    "For {num} days after it ends, /resume brings it back here as it was.",
)


def russian_form(n: int) -> int:
    """Russian's three plural forms, as grammars state them: 1, 2-4, 5-20 (and 11-14)."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def test_telegram_language_codes_pick_a_catalogue() -> None:
    assert [pick(c) for c in ("ru", "ru-RU", "RU", "ru_UA")] == ["ru"] * 4
    assert [pick(c) for c in ("en", "en-GB", "de", "uk", "", None, "zz-top")] == ["en"] * 7


@given(st.integers(min_value=0, max_value=10**9))
def test_russian_plurals_follow_the_three_forms(n: int) -> None:
    forms = ["ещё {num} день", "ещё {num} дня", "ещё {num} дней"]
    said = RU.ngettext(*DAYS, n).split(" после")[0].replace("Ещё", "ещё")
    assert said == forms[russian_form(n)].format(num=RU.number(n))


@given(st.integers(min_value=0, max_value=10**6))
def test_english_plurals_have_two_forms(n: int) -> None:
    said = EN.ngettext(*DAYS, n).split(" after")[0]
    assert said == (f"For {EN.number(n)} day" if n == 1 else f"For {EN.number(n)} days")


def test_numbers_and_dates_are_written_as_each_language_writes_them() -> None:
    assert EN.number(12345) == "12,345"
    assert RU.number(12345) == "12\xa0345"
    assert EN.day(date(2026, 12, 23)) == "23 December 2026"
    assert RU.day(date(2026, 12, 23)) == "23 декабря 2026\u202fг."


def test_an_errors_message_is_an_id_translated_with_its_values_as_given() -> None:
    error = NotAllowedNow("Your last step ({label}) can't be taken back.", label="<Zoë>")
    assert error.message == "Your last step (<Zoë>) can't be taken back."
    assert (
        RU.gettext(error.message_id, **error.values) == "Ваш последний шаг (<Zoë>) отменить нельзя."
    )


def test_a_message_missing_from_a_catalogue_reads_as_written() -> None:
    assert RU.gettext("A sentence no catalogue has, {name}.", name="Bo") == (
        "A sentence no catalogue has, Bo."
    )


@given(st.text(max_size=60))
def test_the_pseudo_language_brackets_every_message_and_keeps_placeholders_and_tags(
    text: str,
) -> None:
    message = f"<b>{{name}}</b> {text} /join"
    said = XX.gettext(message)
    assert said.startswith("⟦") and said.endswith("⟧")
    assert "<b>{name}</b>" in said and "/join" in said


def test_a_language_is_named_by_its_code_or_its_name_in_any_catalogue() -> None:
    from core.words.i18n import language_named

    for word, code in [
        ("en", "en"), ("RU", "ru"), ("ru-RU", "ru"), ("english", "en"), ("Russian", "ru"),
        ("русский", "ru"), ("Русский", "ru"), ("английский", "en"), (" АНГЛИЙСКИЙ ", "en"),
    ]:  # fmt: skip
        assert language_named(word) == code, word
    for word in ("", "tlh", "klingon", "xx", "deutsch", "рус"):
        assert language_named(word) is None, word
