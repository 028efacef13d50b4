"""Ruling 24: in a Test the Watchtower's roll sets the difficulty and the Lead reacts:
the Lead must beat it, and a tie fails (as a Reactor's tie does in a Contest)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.cortex import actions as a
from core.rules.cortex.contest import acting_users
from core.rules.cortex.dice import Die
from core.rules.cortex.state import Ending, Phase
from core.rules.errors import NotAllowedNow, NotYourTurn
from tests.core.rules.cortex.conftest import (
    CLARK_USER,
    WATCHTOWER,
    Driver,
    asset,
    make_table,
    value,
)
from tests.core.rules.cortex.test_contest import refused

D8 = st.integers(1, 8)
D10 = st.integers(1, 10)


def best_two(faces: list[int]) -> int:
    """An independent Result: the two highest faces that are not 1."""
    return sum(sorted((f for f in faces if f != 1), reverse=True)[:2])


def test_ruling24_the_watchtower_rolls_before_the_lead_builds(play: Driver) -> None:
    play(CLARK_USER, a.StartTest("Clark"))
    assert acting_users(play.table) == {WATCHTOWER}
    refused(play, CLARK_USER, a.AddToPool(value("Justice")), NotAllowedNow)
    refused(play, CLARK_USER, a.RollPool(), NotAllowedNow)
    refused(play, CLARK_USER, a.SetOpposition((Die.D8,)), NotYourTurn)
    play(WATCHTOWER, a.SetOpposition((Die.D8, Die.D6)), 7, 5)
    assert play.events == (a.OppositionRolled(play.events[0].dice, 12),)  # type: ignore[attr-defined]
    conflict = play.table.conflict
    assert conflict is not None and conflict.to_beat == 12 and conflict.phase is Phase.BUILDING
    assert acting_users(play.table) == {CLARK_USER}  # the Lead reacts to the number


def test_ruling24_a_tie_with_the_watchtower_fails(play: Driver) -> None:
    play(CLARK_USER, a.StartTest("Clark"))
    play(WATCHTOWER, a.SetOpposition((Die.D8, Die.D8)), 6, 3)
    play(CLARK_USER, a.AddToPool(value("Justice")))
    play(CLARK_USER, a.AddToPool(asset("Farm Boy")))
    play(CLARK_USER, a.RollPool(), 5, 4)
    play(CLARK_USER, a.Settle())
    conflict = play.table.conflict
    assert conflict is not None and conflict.ending is Ending.FAILURE and conflict.margin == 0


@settings(max_examples=150, deadline=None)
@given(st.lists(D8, min_size=1, max_size=3), D10, D8)
def test_ruling24_the_lead_succeeds_exactly_when_beating_the_watchtowers_roll(
    opposition: list[int], justice: int, farm_boy: int
) -> None:
    play = Driver(make_table())
    play(CLARK_USER, a.StartTest("Clark"))
    play(WATCHTOWER, a.SetOpposition(tuple(Die.D8 for _ in opposition)), *opposition)
    play(CLARK_USER, a.AddToPool(value("Justice")))
    play(CLARK_USER, a.AddToPool(asset("Farm Boy")))
    play(CLARK_USER, a.RollPool(), justice, farm_boy)
    play(CLARK_USER, a.Settle())
    conflict = play.table.conflict
    assert conflict is not None
    to_beat, result = best_two(opposition), best_two([justice, farm_boy])
    assert conflict.to_beat == to_beat
    expected = Ending.SUCCESS if result > to_beat else Ending.FAILURE
    assert conflict.ending is expected
