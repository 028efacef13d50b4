"""Dead letters: any body is stored as text a database column takes, and an operator
lists them with ``python -m tgbot dead-letters``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.store.dead_letters import (
    MAX_BODY_CHARS,
    fits_bigint,
    keep_dead_letter,
    latest_dead_letters,
    readable_body,
)

ROOT = Path(__file__).resolve().parents[3]


@given(st.binary(max_size=2000))
def test_any_bytes_become_text_without_nul_and_within_the_limit(body: bytes) -> None:
    text = readable_body(body)
    assert "\x00" not in text and len(text) <= MAX_BODY_CHARS
    text.encode("utf-8")  # storable as UTF-8, whatever came in


@given(st.text(max_size=500).filter(lambda t: "\x00" not in t and "\\" not in t))
def test_a_utf8_body_is_kept_as_it_came(text: str) -> None:
    assert readable_body(text.encode()) == text


def test_bytes_that_are_not_utf8_are_written_as_escapes() -> None:
    assert readable_body(b'{"a": "\xff\x00"}') == '{"a": "\\xff\\x00"}'


def test_a_huge_body_is_cut() -> None:
    assert len(readable_body(b"x" * (MAX_BODY_CHARS * 3))) == MAX_BODY_CHARS


@pytest.mark.parametrize(
    ("value", "fits"),
    [
        (0, True),
        (2**63 - 1, True),
        (-(2**63), True),
        (2**63, False),
        (-(2**63) - 1, False),
        (True, False),
        (1.0, False),
        ("1", False),
        (None, False),
    ],
)
def test_only_whole_numbers_a_64_bit_column_holds_fit(value: object, fits: bool) -> None:
    assert fits_bigint(value) is fits


@pytest.mark.db
async def test_kept_letters_come_back_newest_first_with_an_id_only_when_it_fits(db: str) -> None:
    await keep_dead_letter(b"first", "not JSON", None)
    await keep_dead_letter(b'{"update_id": 5}', "r" * 1000, 5)
    await keep_dead_letter(b"{}", "odd id", 2**70)
    newest, middle, oldest = await latest_dead_letters()
    assert (newest.update_id, middle.update_id, oldest.update_id) == (None, 5, None)
    assert len(middle.reason) == 300 and oldest.body == "first"


@pytest.mark.db
async def test_the_operator_lists_them_on_the_command_line(db: str, tmp_path: Path) -> None:
    await keep_dead_letter(b'{"update_id": 7, "message": "x"}', "not a Telegram update", 7)
    env = {**os.environ, "DATABASE_URL": db, "BOT_TOKEN": "", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "tgbot", "dead-letters", "--limit", "5"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "update 7  not a Telegram update" in result.stdout
    assert '{"update_id": 7, "message": "x"}' in result.stdout
