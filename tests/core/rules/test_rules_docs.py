"""docs/rules: readings of our own are labelled with their ruling, every named test
exists, and nothing points at files outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOCS = sorted((ROOT / "docs" / "rules").glob("*.md"))
TESTS = ROOT / "tests"

# The rulings each system's doc carries (all the project's numbered rulings).
RULINGS = {
    "nsu-characters-and-rolls.md": {1, 2, 3, 4, 5, 6, 7, 8, 11, 22},
    "nsu-world-and-downtime.md": {5, 7, 8, 9, 10, 11, 12, 13, 21, 23},
    "threat.md": {14, 15, 16},
    "cortex.md": {17, 18, 24},
    "d20.md": {19, 20, 25},
}


def defined_tests() -> set[str]:
    names: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        names |= set(re.findall(r"^(?:async )?def (test_\w+)\(", path.read_text(), re.MULTILINE))
    return names


def table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("|")]


def test_every_rules_doc_is_covered() -> None:
    assert {p.name for p in DOCS} == set(RULINGS)


def test_no_doc_points_at_files_outside_the_repository() -> None:
    for path in [*DOCS, *(ROOT / "docs").glob("*.md"), ROOT / "README.md"]:
        text = path.read_text()
        assert not re.search(r"/work/|shared/rules|\.\./shared|README numbers", text), path.name


def test_every_test_named_in_the_rules_docs_exists() -> None:
    defined = defined_tests()
    for path in DOCS:
        named = set(re.findall(r"\b(test_\w+)\b(?![.*]|\(\))", path.read_text()))
        files = {p.stem for p in TESTS.rglob("test_*.py")}
        missing = {n for n in named - defined - files if not n.endswith("_")}
        assert not missing, (path.name, sorted(missing))


def test_ruling26_every_ruling_is_labelled_in_its_systems_table() -> None:
    for path in DOCS:
        rows = "\n".join(table_rows(path.read_text()))
        for number in RULINGS[path.name]:
            labelled = re.search(rf"\*\*Ruling {number}\*\*|^\| {number}[.:] ", rows, re.MULTILINE)
            assert labelled, (path.name, number)


def test_ruling26_a_row_pinned_by_a_ruling_test_names_that_ruling() -> None:
    for path in DOCS:
        for row in table_rows(path.read_text()):
            rule = "|".join(row.split("|")[:-2])  # every cell but the tests
            for number in set(re.findall(r"`(?:\w+\.py::)?test_ruling(\d+)_", row)):
                assert re.search(rf"Ruling {number}\b|^\| {number}[.:]|ruling {number}\b", rule), (
                    path.name,
                    row[:80],
                )
