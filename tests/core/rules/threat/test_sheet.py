"""The threat dice character sheet: approaches, Momentum, harm and notes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.threat.momentum import MomentumChange
from core.rules.threat.sheet import Approach, Sheet


def test_new_sheet_starts_with_two_momentum_and_no_harm() -> None:
    sheet = Sheet()
    assert (sheet.momentum, sheet.harm, sheet.approaches, sheet.notes) == (2, 0, (), "")


def test_approaches_are_added_updated_and_removed_by_name() -> None:
    sheet = Sheet().with_approach("Prowess", 3).with_approach(" Guile ", 1)
    assert sheet.approach("prowess") == Approach("Prowess", 3)
    sheet = sheet.with_approach("PROWESS", 4)
    assert [a.value for a in sheet.approaches] == [4, 1]
    assert sheet.approach("guile").name == "Guile"
    sheet = sheet.without_approach("Guile")
    with pytest.raises(Malformed):
        sheet.approach("Guile")


@pytest.mark.parametrize(
    ("name", "value"), [("", 1), ("   ", 1), ("x" * 25, 1), ("A", 7), ("A", -1)]
)
def test_bad_approach_is_malformed(name: str, value: int) -> None:
    with pytest.raises(Malformed):
        Sheet().with_approach(name, value)


def test_duplicate_or_too_many_approaches_are_malformed() -> None:
    with pytest.raises(Malformed):
        Sheet(approaches=(Approach("A", 1), Approach("a", 2)))
    with pytest.raises(Malformed):
        Sheet(approaches=tuple(Approach(f"A{i}", 1) for i in range(13)))


def test_sheet_limits_momentum_harm_and_notes() -> None:
    for bad in ({"momentum": 7}, {"momentum": -1}, {"harm": 10}, {"notes": "x" * 4001}):
        with pytest.raises(Malformed):
            Sheet(**bad)


def test_sheet_gain_and_lose_momentum() -> None:
    sheet, change = Sheet(momentum=5).gain_momentum(3)
    assert sheet.momentum == 6 and change == MomentumChange(5, 6)
    sheet, change = Sheet(momentum=1).lose_momentum()
    assert sheet.momentum == 0 and sheet.harm == 0


def test_ruling16_sheet_loss_below_zero_takes_one_harm_and_resets() -> None:
    sheet, change = Sheet(momentum=0, harm=1).lose_momentum(2)
    assert (sheet.momentum, sheet.harm, change.harm) == (2, 2, 1)


def test_sheet_momentum_instead_of_harm() -> None:
    sheet, _ = Sheet(momentum=3).lose_momentum_instead_of_harm()
    assert (sheet.momentum, sheet.harm) == (2, 0)
    with pytest.raises(NotAllowedNow):
        Sheet(momentum=0).lose_momentum_instead_of_harm()


def test_sheet_harm_stops_at_nine_and_zero() -> None:
    assert Sheet(harm=8).take_harm(5).harm == 9
    assert Sheet(harm=1).heal(3).harm == 0


def test_sheet_after_applies_a_roll_change() -> None:
    assert Sheet(momentum=5).after(MomentumChange(5, 2)).momentum == 2


def test_sheet_bad_amounts_are_malformed() -> None:
    with pytest.raises(Malformed):
        Sheet().gain_momentum(0)
    with pytest.raises(Malformed):
        Sheet().lose_momentum(-1)
    with pytest.raises(Malformed):
        Sheet().take_harm(-1)


sheets = st.builds(
    Sheet,
    approaches=st.lists(
        st.builds(
            Approach, st.sampled_from(["Prowess", "Guile", "Lore", "Grace"]), st.integers(0, 6)
        ),
        max_size=4,
        unique_by=lambda a: a.name,
    ).map(tuple),
    momentum=st.integers(0, 6),
    harm=st.integers(0, 9),
    notes=st.text(max_size=50),
)


@given(sheets)
def test_sheet_round_trips_through_json(sheet: Sheet) -> None:
    assert Sheet.from_dict(json.loads(json.dumps(sheet.to_dict()))) == sheet


@pytest.mark.parametrize(
    "change",
    [{"momentum": "2"}, {"harm": True}, {"approaches": [["A"]]}, {"notes": None}, {"harm": 12}],
)
def test_bad_sheet_data_is_malformed(change: dict[str, Any]) -> None:
    with pytest.raises(Malformed):
        Sheet.from_dict(Sheet().to_dict() | change)
    with pytest.raises(Malformed):
        Sheet.from_dict({})
