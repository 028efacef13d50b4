"""The Russian catalogue keeps its style guide (docs/i18n.md, "Russian style guide") where a
pattern can tell: a name never declines, one form of a percentage, Russian examples, one
word and one capital for each game term."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from core.words.i18n import lang_for

PO = Path(__file__).resolve().parents[3] / "locale" / "ru" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)[sd]")
NAMES = "name|who|place|helper|trait|mood|player|actor|reactor|roller|target|title|skill|label"
"""Placeholders that hold a name someone wrote (or a game's word for a thing)."""
PREPOSITIONS = (
    "в|во|с|со|о|об|обо|на|для|у|из|от|к|ко|по|про|под|над|до|за|при|без|между|перед|через"
    "|против|среди|вместо|около|после|возле"
)


def russian() -> Iterator[tuple[str, str]]:
    """Each Russian form with its message id (player-typed keywords left out)."""
    with PO.open("rb") as file:
        catalogue = read_po(file, locale="ru")
    for message in catalogue:
        if not message.id or message.context == "a keyword players type":
            continue
        first = message.id[0] if isinstance(message.id, tuple) else message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            yield first, form or ""


def offenders(pattern: str, *, drop_placeholders: bool = False) -> list[str]:
    found = re.compile(pattern)
    return [
        form
        for _, form in russian()
        if found.search(PLACEHOLDER.sub("", form) if drop_placeholders else form)
    ]


def test_a_name_after_a_preposition_has_a_noun_before_it() -> None:
    """«в «{place}»» would decline a name nobody can decline: «в локации «{place}»»."""
    bare = rf"(?i)(?<![\w-])(?:{PREPOSITIONS})\s+(?:«\{{\w+\}}»|\{{(?:{NAMES})\}})"
    assert offenders(bare) == []


def test_a_quoted_name_is_in_yolochki() -> None:
    """Player text quoted in a sentence stands in «», never in "" or “”."""
    assert offenders(r"[\"“”„]\{\w+\}[\"“”]") == []


def test_a_percentage_has_one_form() -> None:
    """«54 %»: a space before the sign, in messages and from the number formatter alike."""
    assert offenders(r"(?:\d|\}|\)s)%(?!\()") == []
    lang = lang_for("ru")
    assert lang.percent(0.684) == "68,4\u00a0%"
    assert lang.percent(0.65, digits=0) == "65\u00a0%"
    assert lang.percent(0.00001) == "<0,1\u00a0%"
    assert lang_for("en").percent(0.684) == "68.4%"


@pytest.mark.parametrize("word", ["adv", "dis", "madv", "mdis"])
def test_russian_examples_say_preim_not_adv(word: str) -> None:
    """Examples a Russian player reads are typed in Russian: «d20 преим», «сл15»."""
    assert offenders(rf"(?<![\w-]){word}(?![\w-])", drop_placeholders=True) == []


def test_russian_examples_use_russian_names() -> None:
    """/help and the refusals use one set of Russian names (Лекс, Лоис, Кларк)."""
    latin = r"(?<![\w-])(?:Lex|Lois|Clark|Lana|Truth|Power|Billionaire)(?![\w-])"
    assert offenders(latin) == []


def test_at_risk_is_pod_ugrozoy() -> None:
    """One term for what is at risk: «под угрозой», as the panels say."""
    assert offenders(r"(?i)в опасности") == []


def test_an_aspect_keeps_its_capital() -> None:
    """A game term of the rules keeps its capital: Аспект, Настрой (never «выберите аспект»)."""
    assert offenders(r"(?<![\w-])(?:аспект\w*|настро(?:й|я|ю|ем|е|и|ев|ям|ями|ях)(?![\w-]))") == []


def test_the_host_is_the_organiser() -> None:
    """The player who started the game is «организатор»; the game master «мастер»."""
    assert offenders(r"(?i)(?<![\w-])ведущ\w*") == []


def test_a_game_is_an_igra() -> None:
    """«Кампания» is the code's word: players read «игра» («история игры»)."""
    assert offenders(r"(?i)кампани") == []


def test_a_name_after_its_noun_is_quoted() -> None:
    """«Бросок «атака» сохранён», «локация «Мост»»: a name a noun introduces stands in «»."""
    noun = r"брос\w*|локаци\w+|навык\w*|черт\w+|мест\w+|карточк\w+|ресурс\w*|отношени\w+"
    name = r"\{(?:name|old|new|place|skill|trait|title|detail)\}|%\((?:name|place|skill|title)\)s"
    assert offenders(rf"(?i)(?<![\w-])(?:{noun})\s+(?:<b>)?(?:{name})") == []
