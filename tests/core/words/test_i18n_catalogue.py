"""The catalogues are complete: every message the code marks, in every language, every plural.

Also run by ``make check-messages``. When this fails after a change of words, run
``make messages`` and translate what it marks empty or fuzzy.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from core.words.i18n import DEFAULT, LOCALE_DIR, available

ROOT = LOCALE_DIR.parent
PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)[sd]")
TAG = re.compile(r"</?\w+[^>]*>")


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def template() -> Catalog:
    return read(LOCALE_DIR / "messages.pot")


def ids(catalog: Catalog) -> set[object]:
    return {m.id for m in catalog if m.id}


def translations() -> list[str]:
    return [code for code in available() if code != DEFAULT]


def test_there_is_a_russian_catalogue() -> None:
    assert "ru" in available()


def test_the_template_holds_every_message_the_code_marks(tmp_path: Path) -> None:
    """Extracting again finds nothing new: ``make messages`` was run after the last change."""
    out = tmp_path / "messages.pot"
    CommandLineInterface().run(
        [
            "pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "-k", "N_",
            "-k", "ngettext:1,2", "-k", "pgettext:1c,2", "--no-location", "--omit-header",
            "-o", str(out), str(ROOT),
        ]
    )  # fmt: skip
    assert ids(read(out)) == ids(template())


@pytest.mark.parametrize("code", translations())
def test_every_message_is_translated_with_every_plural_form(code: str) -> None:
    catalog = read(LOCALE_DIR / code / "LC_MESSAGES" / "messages.po", locale=code)
    assert ids(template()) <= ids(catalog), "run `make messages`"
    plurals = catalog.num_plurals
    for message in catalog:
        if not message.id:
            continue
        where = f"{code}: {message.id!r}"
        assert not message.fuzzy, f"fuzzy: {where}"
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.pluralizable:
            assert len(forms) == plurals, f"{plurals} plural forms wanted: {where}"
        assert all(forms), f"untranslated: {where}"


@pytest.mark.parametrize("code", translations())
def test_translations_keep_the_placeholders_and_tags(code: str) -> None:
    """A lost {name} would drop a player's name; a lost </b> would break the message."""
    catalog = read(LOCALE_DIR / code / "LC_MESSAGES" / "messages.po", locale=code)
    for message in catalog:
        if not message.id:
            continue
        source = " ".join(message.id) if isinstance(message.id, tuple) else message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            wanted = set(PLACEHOLDER.findall(source))
            if message.pluralizable:  # a form may say the number in words instead
                wanted.discard("{num}")
            assert set(PLACEHOLDER.findall(form)) - {"{num}"} == wanted - {"{num}"}, message.id
            first = message.id[0] if isinstance(message.id, tuple) else message.id
            assert sorted(TAG.findall(form)) == sorted(TAG.findall(first)), message.id


def test_the_russian_catalogue_has_russian_plural_rules() -> None:
    catalog = read(LOCALE_DIR / "ru" / "LC_MESSAGES" / "messages.po", locale="ru")
    assert catalog.num_plurals == 3
