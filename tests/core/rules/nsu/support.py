"""Shared builders for the NSU tests."""

from __future__ import annotations

from collections.abc import Iterable

from core.rules.nsu.action_roll import (
    Action,
    ChooseAspect,
    ChooseMood,
    ChooseRisk,
    Event,
    Participant,
    Risk,
    RollState,
    SetAspectEdge,
    StateOutcome,
    apply,
    start_roll,
)
from core.rules.nsu.settings import NsuSettings
from core.rules.nsu.sheet import (
    Aspect,
    Character,
    CharacterDraft,
    Die,
    assign_aspects,
    choose_name,
    describe,
    finish_creation,
    invent_sentiments,
    pick_moods,
    write_skills,
)
from core.rules.rng import Rng, ScriptedRng

ROLLER, HELPER, HELPER2, ARBITER, ARBITER2 = 1, 2, 3, 10, 11


def character(name: str = "Ash") -> Character:
    """Body d4, Mind d8, Heart d6; moods Curious d8 (0), Wary d6 (2), Angry d4 (4)."""
    d = CharacterDraft()
    d = choose_name(d, name)
    d = describe(d, "they/them", "Patched coat")
    d = pick_moods(d, "Curious", "Wary", "Angry")
    d = assign_aspects(d, body=Die.D4, mind=Die.D8, heart=Die.D6)
    d = invent_sentiments(d, "My sister", "The old compass", "Nothing is wasted")
    return finish_creation(write_skills(d, "Climbing", "Haggling", "Tinkering"))


def new_roll(
    sheet: Character | None = None,
    helpers: Iterable[Character] = (),
    settings: NsuSettings | None = None,
) -> RollState:
    allies = [Participant(HELPER + i, c) for i, c in enumerate(helpers)]
    return start_roll(
        Participant(ROLLER, sheet or character()),
        {ARBITER, ARBITER2},
        allies,
        settings or NsuSettings(),
    )


def play(
    state: RollState, actions: Iterable[Action], rng: Rng | None = None
) -> tuple[RollState, list[Event]]:
    """Apply actions in order, checking the stored form round-trips at each step."""
    rng = rng or ScriptedRng([])
    events: list[Event] = []
    for action in actions:
        state, new_events = apply(state, action, rng)
        assert RollState.from_dict(state.to_dict()) == state
        events += new_events
    return state, events


def to_prepare(
    state: RollState,
    aspect: Aspect = Aspect.MIND,
    risk: Risk = Risk.WORLD,
    line: int = 0,
    favouring: tuple[str, ...] = (),
    hindering: tuple[str, ...] = (),
    new_name: str | None = None,
) -> RollState:
    """Run the steps before the optional ones: outcome, stakes, mood, aspect edge."""
    state, _ = play(
        state,
        [
            StateOutcome(ROLLER, "Climb the rusted tower"),
            ChooseAspect(ARBITER, aspect),
            ChooseRisk(ARBITER2, risk),
            ChooseMood(ROLLER, line, new_name),
            SetAspectEdge(ARBITER, favouring, hindering),
        ],
    )
    return state
