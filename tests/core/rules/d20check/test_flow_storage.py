"""Saving and loading a check: JSON-ready dicts that round-trip and refuse junk."""

from __future__ import annotations

import json

import pytest

from core.rules.d20check import ActionKind, CheckFlow, Opposition, PlotPointPool
from core.rules.errors import Malformed

from .helpers import ROLLER, rolled, then


def test_check_in_every_phase_round_trips_through_json() -> None:
    first = rolled([5], PlotPointPool(2, 2), target=Opposition(7))
    kept = then(first, ROLLER, ActionKind.KEEP)
    states = [CheckFlow.open(ROLLER, 2), first.check, kept.check]
    for check in states:
        assert CheckFlow.from_dict(json.loads(json.dumps(check.to_dict()))) == check


def test_check_from_another_version_is_malformed() -> None:
    data = CheckFlow.open(ROLLER, 2).to_dict()
    data["v"] = 99
    with pytest.raises(Malformed, match="version"):
        CheckFlow.from_dict(data)


def test_check_with_rolls_that_do_not_match_its_phase_is_malformed() -> None:
    data = rolled([5], PlotPointPool(2, 2)).check.to_dict()
    data["phase"] = "setup"
    with pytest.raises(Malformed):
        CheckFlow.from_dict(data)


def test_check_with_impossible_faces_is_malformed() -> None:
    data = rolled([5], PlotPointPool(2, 2)).check.to_dict()
    data["rolls"] = [{"setup": data["setup"], "d20s": [25], "die": None}]
    with pytest.raises(Malformed):
        CheckFlow.from_dict(data)


@pytest.mark.parametrize("junk", [{}, {"v": 1}, {"v": 1, "roller": "me"}])
def test_junk_is_malformed(junk: dict[str, object]) -> None:
    with pytest.raises(Malformed):
        CheckFlow.from_dict(junk)
