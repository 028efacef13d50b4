"""docs/rules/cortex.md names only tests that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]


def test_every_test_named_in_the_rules_doc_exists() -> None:
    doc = (ROOT / "docs" / "rules" / "cortex.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", doc))
    source = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("*.py"))
    assert named
    assert not {n for n in named if f"def {n}(" not in source}
