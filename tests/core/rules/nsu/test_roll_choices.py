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


def test_nobody_to_help_settles_the_roll_with_the_own_die_unasked() -> None:
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
    # Keeping the own mood die is the one possible answer: it is not asked.
    assert helper_die_choices(state) == ()
    assert state.is_done and state.outcome is not None


def _rolled(risk_world: bool, edge: bool, faces: list[int], allies: int = 0) -> RollState:
    from core.rules.nsu.action_roll import (
        ChooseAspect,
        ChooseMood,
        ChooseRisk,
        Roll,
        SetAspectEdge,
        StateOutcome,
    )
    from core.rules.nsu.sheet import Aspect
    from core.rules.nsu.terms import Risk
    from core.rules.rng import ScriptedRng

    from .support import ROLLER, character, new_roll

    state = new_roll(character("Wren"), [character("Birch")] * allies)
    rng = ScriptedRng(faces)
    for action in (
        StateOutcome(ROLLER, "Cross the weir"),
        ChooseAspect(ARBITER, Aspect.MIND),
        ChooseRisk(ARBITER, Risk.WORLD if risk_world else Risk.CHARACTER),
        ChooseMood(ROLLER, 0, None),
        SetAspectEdge(ROLLER, ("Rope",) if edge else (), ()),
        Roll(ROLLER),
    ):
        state, _ = apply(state, action, rng)
    return state


def test_with_the_world_at_risk_the_lower_aspect_die_is_advised_and_its_result_told() -> None:
    from core.rules.nsu.roll_choices import Forecast
    from core.rules.nsu.terms import Winner

    state = _rolled(risk_world=True, edge=True, faces=[6, 2, 4])  # aspect 6|2, mood 4
    keeps = {c.die: c for c in keep_choices(state)}
    assert keeps[2].advised and not keeps[6].advised
    kept_low, kept_high = keeps[2].consequence, keeps[6].consequence
    assert isinstance(kept_low, Forecast) and isinstance(kept_high, Forecast)
    assert (kept_low.winner, kept_low.difference, kept_low.aspect_total) == (Winner.PLAYER, 2, 2)
    assert (kept_high.winner, kept_high.difference) == (Winner.ARBITERS, 2)


def test_with_the_character_at_risk_the_own_lower_mood_die_beats_a_helpers_eight() -> None:
    from core.rules.nsu.action_roll import Help
    from core.rules.nsu.roll_choices import OWN_DIE, Forecast
    from core.rules.nsu.terms import Winner
    from core.rules.rng import ScriptedRng

    from .support import HELPER

    state = _rolled(risk_world=False, edge=False, faces=[5, 3], allies=1)  # aspect 5, mood 3
    state, _ = apply(state, Help(HELPER, 0, None), ScriptedRng([8]))
    taking = {c.argument: c for c in helper_die_choices(state)}
    own, helpers = taking[OWN_DIE], taking[str(HELPER)]
    assert own.advised and not helpers.advised
    assert isinstance(own.consequence, Forecast) and isinstance(helpers.consequence, Forecast)
    assert (own.consequence.winner, own.consequence.difference) == (Winner.PLAYER, 2)
    assert (helpers.consequence.winner, helpers.consequence.difference) == (Winner.ARBITERS, 3)
