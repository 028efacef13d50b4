"""A new language is a new catalogue and nothing else.

A Ukrainian catalogue is made from the template, as docs/i18n.md says, in a copy of
``locale/``; with no other change the product picks it for Ukrainian users, speaks
it with its own plural forms, offers it to /language, publishes menus for it and
lists it in the sandbox's language picker.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from core.words import i18n
from core.words.i18n import available, lang_for, pick
from tgbot.app import command_specs
from tgbot.menu import private_menu, variants
from tgbot.sandbox.words import language_name

CHOICE = "Which game shall we play?"
PLAYERS = ("{num} player", "{num} players")


def _clear() -> None:
    i18n.available.cache_clear()
    i18n._translations.cache_clear()


@pytest.fixture
def with_ukrainian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    with (locale / "messages.pot").open("rb") as source:
        template = read_po(source)
    catalog = Catalog(locale="uk", domain="messages")
    for message in template:
        if message.id:
            catalog.add(message.id, context=message.context)
    catalog[CHOICE].string = "У яку гру зіграємо?"
    menu = next(s.description for s in command_specs() if s.name == "help")
    catalog[menu].string = "Довідка"
    target = locale / "uk" / "LC_MESSAGES" / "messages.po"
    target.parent.mkdir(parents=True)
    with target.open("wb") as out:
        write_po(out, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    _clear()
    yield
    monkeypatch.undo()
    _clear()


def test_a_new_catalogue_is_all_a_new_language_needs(with_ukrainian: None) -> None:
    assert "uk" in available()
    assert pick("uk-UA") == "uk"
    uk = lang_for("uk")
    assert uk.gettext(CHOICE) == "У яку гру зіграємо?"
    assert uk.gettext("Not translated yet") == "Not translated yet"  # English until translated
    assert uk.number(12345.5) == "12\u00a0345,5"  # Babel writes numbers its way
    assert "uk" in [code for code, _ in variants()]  # menus are published for it
    help_entry = next(c for c in private_menu(command_specs(), lang=uk) if c.command == "help")
    assert help_entry.description == "Довідка"
    assert language_name("uk") == "Українська"  # the sandbox's picker names it


def test_without_the_catalogue_the_language_falls_back_to_english() -> None:
    assert "uk" not in available()
    assert pick("uk-UA") == "en"
