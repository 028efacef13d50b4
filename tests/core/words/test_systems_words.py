"""The words of game systems as data: chances to one decimal, README's table."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from core.__main__ import main
from core.rules.systems import library_definition, odds
from core.words.i18n import lang_for
from core.words.systems_words import TABLE_END, TABLE_START, chance_text, odds_line, systems_table

README = Path(__file__).resolve().parents[3] / "README.md"


def test_a_chance_reads_to_one_decimal_in_each_language() -> None:
    assert chance_text(Fraction(5, 12), lang_for("en")) == "41.7%"
    assert chance_text(Fraction(5, 12), lang_for("ru")) == "41,7\xa0%"
    assert chance_text(Fraction(1, 36), lang_for("en")) == "2.8%"
    assert chance_text(Fraction(1, 16), lang_for("en")) == "6.3%"  # a half rounds up
    assert chance_text(Fraction(1, 1), lang_for("ru")) == "100,0\xa0%"


def test_the_odds_line_lists_what_can_happen_best_first() -> None:
    blades = odds(library_definition("blades"), {"pool": 2})
    assert odds_line(blades, lang_for("en")) == (
        "Critical success 2.8%, Full success 27.8%, Partial success 44.4%, Bad outcome 25.0%"
    )
    zero = odds(library_definition("blades"), {"pool": 0})
    assert "Критический" not in odds_line(zero, lang_for("ru"))  # it can't happen
    pbta = odds(library_definition("pbta"), {"stat": 2})
    assert odds_line(pbta, lang_for("ru")) == (
        "Сильный успех 41,7\xa0%, Частичный успех 41,7\xa0%, Провал 16,7\xa0%"
    )


def test_readmes_table_is_the_generated_one() -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(TABLE_START), text.index(TABLE_END) + len(TABLE_END)
    assert text[start:end] + "\n" == systems_table()


def test_the_command_line_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["systems-table"]) == 0
    assert capsys.readouterr().out == systems_table()
