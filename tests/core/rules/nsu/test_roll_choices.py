"""The dice steps' legal choices: each is accepted from whom it names, from no one else."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.rules.errors import StonetableError
from core.rules.nsu.action_roll import Phase, RollState, apply
from core.rules.nsu.roll_choices import helper_die_choices, keep_choices
from core.rules.nsu.roll_text import parse_action
from core.rules.rng import SeededRng

from .support import ARBITER, ARBITER2
from .test_action_roll_properties import PLAYERS, rolls, sensible


def _accepted(state: RollState, actor: int, verb: str, argument: str) -> bool:
    try:
        action = parse_action(state.roller, actor, verb, argument.replace(".", " "))
        apply(state, action, SeededRng(1))
    except StonetableError:
        return False
    return True


def _check(state: RollState) -> None:
    for choice in (*keep_choices(state), *helper_die_choices(state)):
        assert choice.by
        for actor in PLAYERS:
            accepted = _accepted(state, actor, choice.verb.value, choice.argument)
            assert accepted == (actor in choice.by), (choice, actor)
        if choice.by == {ARBITER, ARBITER2}:
            assert choice.who == ""  # the Arbiters pick; never "an ally of" anyone
        else:
            assert choice.who


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rolls(), st.integers(0, 2**32), st.data())
def test_every_dice_choice_is_legal_for_exactly_whom_it_names(
    start: RollState, seed: int, data: st.DataObject
) -> None:
    rng = SeededRng(seed)
    state = start
    for _ in range(60):
        _check(state)
        if state.phase is Phase.DONE:
            break
        try:
            state, _ = apply(state, sensible(state, data.draw), rng)
        except StonetableError:
            continue
    assert state.phase is Phase.DONE


def test_nobody_to_help_leaves_one_choice_the_own_die() -> None:
    from core.rules.nsu.action_roll import (
        ChooseAspect,
        ChooseMood,
        ChooseRisk,
        Participant,
        Roll,
        SetAspectEdge,
        StateOutcome,
        start_roll,
    )
    from core.rules.nsu.settings import NsuSettings
    from core.rules.nsu.sheet import Aspect
    from core.rules.nsu.terms import Risk

    from .support import ROLLER, character

    state = start_roll(Participant(ROLLER, character("Ash")), {ARBITER}, [], NsuSettings())
    rng = SeededRng(3)
    for action in (
        StateOutcome(ROLLER, "Climb"),
        ChooseAspect(ARBITER, Aspect.BODY),
        ChooseRisk(ARBITER, Risk.WORLD),
        ChooseMood(ROLLER, 0, None),
        SetAspectEdge(ROLLER, (), ()),
        Roll(ROLLER),
    ):
        state, _ = apply(state, action, rng)
    choices = helper_die_choices(state)
    assert [c.argument for c in choices] == ["none"]
    assert choices[0].by == {ROLLER}
