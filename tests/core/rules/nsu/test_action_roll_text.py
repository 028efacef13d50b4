"""Action Roll actions as button names and text arguments."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import Malformed
from core.rules.nsu.action_roll import (
    Action,
    CancelRoll,
    ChooseAspect,
    ChooseMood,
    ChooseRisk,
    ChooseSkill,
    ChooseSkillSign,
    CreateSkill,
    EndangerSentiment,
    Help,
    KeepDie,
    PoolKind,
    RenameMood,
    Risk,
    RiskSentiment,
    Roll,
    SetAspectEdge,
    StateOutcome,
    TakeHelperDie,
    apply,
)
from core.rules.nsu.roll_actions import ActionKind
from core.rules.nsu.roll_text import action_text, parse_action
from core.rules.nsu.sheet import Aspect
from core.rules.rng import ScriptedRng

from .support import ARBITER, HELPER, ROLLER, new_roll

WORD = st.text(alphabet="abcdefghij XYZ", min_size=1, max_size=12).map(
    lambda s: " ".join(s.split())
)
NAME = WORD.filter(bool)
ACTOR = st.sampled_from([ROLLER, HELPER, ARBITER])
LINE = st.integers(0, 5)

ACTIONS: st.SearchStrategy[Action] = st.one_of(
    st.builds(StateOutcome, ACTOR, NAME),
    st.builds(ChooseAspect, ACTOR, st.sampled_from(Aspect)),
    st.builds(ChooseRisk, ACTOR, st.sampled_from(Risk)),
    st.builds(ChooseMood, ACTOR, LINE, st.none() | NAME),
    st.builds(Help, ACTOR, LINE, st.none() | NAME),
    st.builds(
        SetAspectEdge,
        ACTOR,
        st.lists(NAME, max_size=3).map(tuple),
        st.lists(NAME, max_size=3).map(tuple),
    ),
    st.builds(ChooseSkill, ACTOR, LINE),
    st.builds(CreateSkill, ACTOR, NAME),
    st.builds(RiskSentiment, ACTOR, st.integers(0, 2)),
    st.builds(EndangerSentiment, ACTOR, st.integers(0, 2)),
    st.builds(Roll, ACTOR),
    st.builds(CancelRoll, ACTOR),
    st.builds(
        KeepDie,
        ACTOR,
        st.sampled_from([PoolKind.ASPECT, PoolKind.MOOD]),
        st.just(ROLLER),
        st.integers(0, 1),
    ),
    st.builds(KeepDie, ACTOR, st.just(PoolKind.HELP), ACTOR, st.integers(0, 1)),
    st.builds(TakeHelperDie, ACTOR, st.none() | ACTOR),
    st.builds(ChooseSkillSign, ACTOR, st.booleans()),
    st.builds(RenameMood, ACTOR, ACTOR, NAME),
)


@given(ACTIONS)
def test_every_action_reads_back_from_its_text(action: Action) -> None:
    assert parse_action(ROLLER, action.actor, *action_text(action)) == action


@given(st.sampled_from([k.value for k in ActionKind]), st.text(max_size=40))
def test_any_text_is_read_or_refused_as_malformed(name: str, argument: str) -> None:
    try:
        parse_action(ROLLER, ARBITER, name, argument)
    except Malformed as error:
        assert error.message


def test_numbers_count_from_one_like_the_sheet() -> None:
    assert parse_action(ROLLER, ROLLER, "choose_mood", "6 Giddy") == ChooseMood(ROLLER, 5, "Giddy")
    assert parse_action(ROLLER, ARBITER, "keep_die", "aspect 2") == KeepDie(
        ARBITER, PoolKind.ASPECT, ROLLER, 1
    )
    assert parse_action(ROLLER, ROLLER, "set_aspect_edge", "+Rope; -Rain; +Gloves") == (
        SetAspectEdge(ROLLER, ("Rope", "Gloves"), ("Rain",))
    )


@pytest.mark.parametrize(
    ("name", "argument"),
    [
        ("dance", ""),
        ("choose_mood", "0"),
        ("choose_mood", "7"),
        ("choose_aspect", "soul"),
        ("keep_die", "aspect 3"),
        ("keep_die", "elbow 1"),
        ("set_aspect_edge", "Rope"),
        ("choose_skill_sign", "maybe"),
        ("take_helper_die", "someone"),
        ("risk_sentiment", "٣"),
        ("state_outcome", "x" * 700),
    ],
)
def test_bad_text_is_malformed(name: str, argument: str) -> None:
    with pytest.raises(Malformed):
        parse_action(ROLLER, ROLLER, name, argument)


def test_parsed_actions_drive_a_roll() -> None:
    state = new_roll()
    steps = [
        (ROLLER, "state_outcome", "Cross the ravine"),
        (ARBITER, "choose_aspect", "Body"),
        (ARBITER, "choose_risk", "character"),
        (ROLLER, "choose_mood", "3"),
        (ARBITER, "set_aspect_edge", ""),
        (ROLLER, "roll", ""),
    ]
    rng = ScriptedRng([4, 2])
    for actor, name, argument in steps:
        state, _ = apply(state, parse_action(state.roller, actor, name, argument), rng)
    assert state.is_done and state.outcome is not None and state.outcome.difference == 2
