"""docs/rules/threat.md names real tests and the exact rule-of-thumb figures."""

from __future__ import annotations

import re
from pathlib import Path

from core.rules.threat.dice import Result
from core.rules.threat.odds import notation_odds

ROOT = Path(__file__).resolve().parents[4]
DOC = ROOT / "docs" / "rules" / "threat.md"
TESTS = Path(__file__).resolve().parent


def test_every_test_named_in_the_docs_exists() -> None:
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", DOC.read_text()))
    defined = set()
    for path in TESTS.glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.MULTILINE))
    missing = {n for n in named if n not in defined and not n.endswith("_")}
    missing -= {p.stem for p in TESTS.glob("test_*.py")}
    assert not missing


def test_docs_show_the_exact_figures() -> None:
    text = DOC.read_text()
    for notation in ("2d2t", "3d3t", "3d1t", "4d2t"):
        chance = notation_odds(notation).at_least(Result.MESSY)
        assert f"| {notation} | {chance.numerator}/{chance.denominator} |" in text
