"""Details: hard, soft and scene details; NPC harm thresholds."""

from __future__ import annotations

import pytest

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu.details import (
    Detail,
    DetailKind,
    Npc,
    Polarity,
    SceneDetails,
    may_take_instead,
    needs_writing_down,
)


def test_detail_labels_are_short_and_trimmed() -> None:
    assert Detail("Stabbed").kind is DetailKind.HARD
    with pytest.raises(Malformed):
        Detail("")
    with pytest.raises(Malformed):
        Detail("x" * 61)
    with pytest.raises(Malformed):
        Detail(" padded ")


def test_details_are_positive_or_negative() -> None:
    assert Detail("Shiny and sharp", polarity=Polarity.POSITIVE).polarity is Polarity.POSITIVE
    assert Detail("Stabbed").polarity is Polarity.NEGATIVE


def test_hard_grant_may_be_taken_as_soft_or_scene() -> None:
    assert may_take_instead(DetailKind.HARD, DetailKind.SOFT)
    assert may_take_instead(DetailKind.HARD, DetailKind.SCENE)
    assert may_take_instead(DetailKind.HARD, DetailKind.HARD)


def test_scene_grant_cannot_become_hard() -> None:
    assert not may_take_instead(DetailKind.SCENE, DetailKind.HARD)
    assert not may_take_instead(DetailKind.SOFT, DetailKind.HARD)


def test_soft_details_are_not_written_down() -> None:
    assert not needs_writing_down(DetailKind.SOFT)
    assert needs_writing_down(DetailKind.HARD) and needs_writing_down(DetailKind.SCENE)


def test_scene_list_holds_scene_details_only() -> None:
    scene = SceneDetails().add(Detail("Uncooperative population", DetailKind.SCENE))
    assert len(scene.details) == 1
    with pytest.raises(Malformed):
        scene.add(Detail("Wanted"))
    assert scene.remove(0) == SceneDetails()


def test_ordinary_npc_takes_hard_details_without_harm_tracking() -> None:
    coach = Npc("The coach").add_detail(Detail("Persuaded"))
    assert coach.details == (Detail("Persuaded"),) and not coach.overcome
    with pytest.raises(NotAllowedNow):
        coach.add_harm("Bruised")
    with pytest.raises(Malformed):
        coach.add_detail(Detail("Rubble", DetailKind.SCENE))
    assert coach.remove_detail(0).details == ()


@pytest.mark.parametrize("threshold", [2, 3, 4])
def test_tough_npc_is_overcome_at_its_threshold(threshold: int) -> None:
    beast = Npc("Rust wyrm", harm_threshold=threshold)
    for i in range(threshold):
        assert not beast.overcome
        beast = beast.add_harm(f"Wound {i}")
    assert beast.overcome
    with pytest.raises(NotAllowedNow):
        beast.add_harm("One more")


@pytest.mark.parametrize("threshold", [0, 1, 5])
def test_npc_threshold_is_between_two_and_four(threshold: int) -> None:
    with pytest.raises(Malformed):
        Npc("Boss", harm_threshold=threshold)
    with pytest.raises(Malformed):
        Npc("Boss").set_threshold(threshold)


def test_threshold_can_be_declared_later_and_dropped() -> None:
    npc = Npc("Guard").set_threshold(2).add_harm("Winded")
    assert npc.set_threshold(3).harm_threshold == 3
    dropped = npc.set_threshold(None)
    assert dropped.harms == () and dropped.details == (Detail("Winded"),)
    with pytest.raises(NotAllowedNow):
        npc.add_harm("Cut").set_threshold(2).add_harm("x")
