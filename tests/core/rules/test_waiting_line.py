"""The line that says whom the table waits on, and for how long."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from core.rules.said import worded
from core.rules.waiting import waited, waiting_line
from core.words.i18n import lang_for

T0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
EN, RU = lang_for("en"), lang_for("ru")
NAMES = {1: "Ana", 2: "Bo"}


def test_waiting_on_bo_for_2_h() -> None:
    line = waiting_line({2}, NAMES, T0, T0 + timedelta(hours=2, seconds=59))
    assert line == "⏳ Waiting on Bo for 2 h."
    assert line is not None and worded(line, RU.gettext) == "⏳ Ждём: Bo — уже 2 ч."


def test_several_and_untimed_and_nobody() -> None:
    assert waiting_line({2, 1}, NAMES, None, T0) == "⏳ Waiting on Ana, Bo."
    assert waiting_line(set(), NAMES, T0, T0) is None
    assert waiting_line({3}, NAMES, T0, T0) == "⏳ Waiting on 3 since just now."


def test_how_long_in_its_two_largest_units() -> None:
    assert waited(T0, T0 + timedelta(days=2, hours=3, minutes=4)) == "2 d 3 h"
    assert waited(T0, T0 + timedelta(hours=1, minutes=5)) == "1 h 5 min"
    assert waited(T0, T0 + timedelta(minutes=5)) == "5 min"
    assert waited(T0, T0 - timedelta(minutes=5)) == "0 min"  # a clock behind: never negative


@given(st.integers(0, 60 * 24 * 30))
def test_the_units_add_up_to_the_wait_to_the_minute_or_the_hour(minutes: int) -> None:
    said = str(waited(T0, T0 + timedelta(minutes=minutes)))
    units = {"d": 24 * 60, "h": 60, "min": 1}
    parts = said.split()
    total = sum(int(n) * units[u] for n, u in zip(parts[::2], parts[1::2], strict=True))
    assert 0 <= minutes - total < (60 if minutes >= 24 * 60 else 1)
    assert len(parts) <= 4
