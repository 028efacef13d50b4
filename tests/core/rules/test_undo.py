"""Which step a player may take back: the shared rules and each system's hook."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.choice import Choice, Common
from core.rules.errors import NotAllowedNow
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng
from core.rules.undo import (
    NO_ONE,
    Refusal,
    StepTaken,
    TallyRng,
    check_undo,
    may_undo,
    refusal,
    undo_choice,
)

steps = st.builds(
    StepTaken,
    actor=st.integers(1, 4),
    label=st.sampled_from(["a choice before the roll", "a Collateral Clock tick"]),
    rolled=st.booleans(),
    final=st.booleans(),
    revealed=st.booleans(),
)


@given(st.lists(steps, max_size=8), st.integers(1, 4))
def test_only_the_author_of_the_latest_step_may_take_it_back_before_any_dice(
    history: list[StepTaken], actor: int
) -> None:
    allowed = may_undo(history, actor)
    latest = history[-1] if history else None
    expected = (
        latest is not None
        and latest.actor == actor
        and not latest.rolled
        and not latest.final
        and not latest.revealed
    )
    assert allowed is expected
    if allowed:
        assert check_undo(history, actor) is latest
    else:
        with pytest.raises(NotAllowedNow):
            check_undo(history, actor)


@given(st.lists(steps, max_size=6), st.integers(1, 4), st.integers(1, 4))
def test_a_step_by_someone_else_on_top_makes_mine_stand(
    history: list[StepTaken], me: int, other: int
) -> None:
    if me == other:
        other = me % 4 + 1
    mine = [*history, StepTaken(me, "mine"), StepTaken(other, "theirs")]
    assert refusal(mine, me) is Refusal.SOMEONE_ELSE


def test_the_reasons_read_as_the_table_would_say_them() -> None:
    assert refusal([], 1) is Refusal.NOTHING
    assert refusal([StepTaken(2, "x")], 1) is Refusal.NOTHING
    assert refusal([StepTaken(1, "x", rolled=True)], 1) is Refusal.ROLLED
    with pytest.raises(NotAllowedNow, match="rolled dice stand"):
        check_undo([StepTaken(1, "x", rolled=True)], 1)
    with pytest.raises(NotAllowedNow, match="Someone else acted"):
        check_undo([StepTaken(1, "x"), StepTaken(2, "y")], 1)


def test_a_tally_counts_every_draw_and_passes_the_faces_on() -> None:
    rng = TallyRng(ScriptedRng([3, 6]))
    assert not rng.rolled
    assert [rng.randint(1, 6), rng.randint(1, 6)] == [3, 6]
    assert rng.draws == 2 and rng.rolled


REGISTRY = default_registry()


@pytest.mark.parametrize("key", ["nsu", "threat", "cortex", "d20"])
def test_every_system_names_its_steps_and_lets_plain_choices_be_taken_back(key: str) -> None:
    undo = REGISTRY.find(key).undo
    for kind in REGISTRY.find(key).panels:
        step = undo.step(7, kind, "pick", rolled=False)
        if not (key == "nsu" and kind == "nsu.safety"):
            assert step.label.startswith("a") and kind not in step.label
            assert may_undo([step], 7)
        assert not may_undo([undo.step(7, kind, "roll", rolled=True)], 7)
    assert may_undo([undo.step(7, "", "clock.tick", rolled=False)], 7)


@pytest.mark.parametrize("action", ["safety.line", "safety.veil", "safety.x_card", "safety.knock"])
def test_a_safety_call_stands_and_names_no_one(action: str) -> None:
    undo = REGISTRY.find("nsu").undo
    step = undo.step(7, "", action, rolled=False)
    assert step.actor == NO_ONE and step.final
    assert refusal([step], 7) is Refusal.NOTHING  # the refusal says nothing of who made it
    assert undo.step(7, "nsu.safety", "x", rolled=False).actor == NO_ONE


def test_nsu_names_the_edits_people_make_most() -> None:
    undo = REGISTRY.find("nsu").undo
    assert undo.label("", "clock.tick") == "a Collateral Clock tick"
    assert undo.label("nsu.setup", "answer") == "a worldbuilding step"


@given(st.lists(steps, max_size=8))
def test_the_rules_offer_undo_as_a_choice_to_the_latest_author_alone(
    history: list[StepTaken],
) -> None:
    offered = undo_choice(history)
    authors = range(1, 5)
    if offered is None:
        assert not any(may_undo(history, a) for a in authors)
    else:
        assert offered == Choice(Common.UNDO, by=frozenset({history[-1].actor}))
        assert [a for a in authors if offered.open_to(a)] == [
            a for a in authors if may_undo(history, a)
        ]


@pytest.mark.parametrize("key", ["nsu", "threat", "cortex", "d20"])
def test_every_system_offers_undo_after_a_plain_choice_and_never_after_dice(key: str) -> None:
    undo = REGISTRY.find(key).undo
    mine = Choice(Common.UNDO, by=frozenset({7}))
    for kind in REGISTRY.find(key).panels:
        plain = undo.step(7, kind, "pick", rolled=False)
        assert undo_choice([plain]) == (None if plain.final else mine)
        assert undo_choice([plain, undo.step(7, kind, "roll", rolled=True)]) is None
        assert undo_choice([plain, undo.step(8, kind, "pick", rolled=False)]) != mine
    assert undo_choice([undo.step(7, "", "clock.tick", rolled=False)]) == mine
    assert undo_choice([]) is None


def test_no_one_is_offered_an_anonymous_safety_call_back() -> None:
    undo = REGISTRY.find("nsu").undo
    for action in ("safety.x_card", "safety.knock", "safety.line", "safety.veil"):
        assert undo_choice([undo.step(7, "", action, rolled=False)]) is None


@pytest.mark.parametrize("key", ["nsu", "threat", "cortex", "d20"])
def test_a_step_that_finishes_its_panel_stands_in_every_system(key: str) -> None:
    undo = REGISTRY.find(key).undo
    for kind in REGISTRY.find(key).panels:
        finished = undo.step(7, kind, "pick", rolled=False, finished=True)
        assert undo_choice([finished]) is None
        if finished.actor != NO_ONE:
            assert refusal([finished], 7) is Refusal.REVEALED


def test_nsu_marks_what_it_shows_someone_as_standing() -> None:
    from core.rules.nsu.downtime import ScoutLooked
    from core.rules.nsu.world import CardFlipped, CardScouted, ClockMoved, Travelled

    undo = REGISTRY.find("nsu").undo
    seen = (
        (Travelled("b"), CardFlipped("b", 2)),  # the table reads the card
        (CardScouted("c", 7),),  # a private look in the adventure
        (ScoutLooked(7, "c"),),  # a scout's look in downtime
    )
    for events in seen:
        step = undo.step(7, "nsu.adventure", "go", rolled=False, events=events)
        assert step.revealed and undo_choice([step]) is None
        with pytest.raises(NotAllowedNow, match="what was seen stands"):
            check_undo([step], 7)
    quiet = (Travelled("b"), ClockMoved("b", 7, 0, 1))  # to a card already face up
    assert undo_choice([undo.step(7, "nsu.adventure", "go", False, quiet)]) is not None
