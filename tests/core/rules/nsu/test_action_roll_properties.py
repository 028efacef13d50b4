"""Property tests: no sequence of actions, by anyone, in any order, breaks the roll."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.rules.errors import StonetableError
from core.rules.nsu.action_roll import (
    Action,
    ActionKind,
    CancelRoll,
    ChooseAspect,
    ChooseMood,
    ChooseRisk,
    ChooseSkill,
    ChooseSkillSign,
    CreateSkill,
    DetailTarget,
    EffectKind,
    EndangerSentiment,
    Help,
    KeepDie,
    Participant,
    Phase,
    PoolKind,
    RenameMood,
    Risk,
    RiskSentiment,
    Roll,
    RollState,
    SetAspectEdge,
    StateOutcome,
    TakeHelperDie,
    TargetKind,
    add_granted_detail,
    apply,
    expected,
    start_roll,
)
from core.rules.nsu.details import MAX_HARMS, Detail, DetailKind, Polarity
from core.rules.nsu.settings import NsuSettings
from core.rules.nsu.sheet import Aspect, Character, Mood, SentimentState
from core.rules.rng import SeededRng

from .support import ARBITER, ARBITER2, HELPER, HELPER2, ROLLER, character

PLAYERS = (ROLLER, HELPER, HELPER2, ARBITER, ARBITER2, 99)
ORDER = {SentimentState.CONNECTED: 0, SentimentState.AT_RISK: 1, SentimentState.LOST: 2}


@st.composite
def sheets(draw: st.DrawFn, name: str, max_harms: int = 4) -> Character:
    sheet = character(name)
    moods = []
    for mood in sheet.moods:
        if mood.is_open and draw(st.booleans()):
            moods.append(mood)
            continue
        label = mood.name or f"Extra {len(moods)}"
        level = draw(st.integers(0, mood.die.boxes))
        moods.append(Mood(mood.die, label, level))
    sheet = dataclasses.replace(sheet, moods=tuple(moods))
    overloaded = draw(st.sampled_from([None, 0, 2, 4]))
    if overloaded is not None:
        sheet = sheet.set_overloaded(overloaded, True)
    for index in range(3):
        for _ in range(draw(st.integers(0, 2))):
            sheet = sheet.endanger_sentiment(index)
    for i in range(draw(st.integers(0, max_harms))):
        sheet = sheet.add_harm(f"Harm {i}")
    return sheet


@st.composite
def rolls(draw: st.DrawFn) -> RollState:
    roller = draw(sheets("Ash", max_harms=3))
    allies = [
        Participant(player, draw(sheets(f"Ally {player}")))
        for player in draw(st.sampled_from([(), (HELPER,), (HELPER, HELPER2)]))
    ]
    flags = draw(st.tuples(st.booleans(), st.booleans(), st.booleans()))
    return start_roll(Participant(ROLLER, roller), {ARBITER, ARBITER2}, allies, NsuSettings(*flags))


_SMALL = st.integers(-1, 6)
_NAME = st.sampled_from(["Giddy", "Curious", "Reckless", "  ", "Climbing"])
_PLAYER = st.sampled_from(PLAYERS)

# For each kind, a strategy of "actor -> action" with arbitrary (often invalid) content.
_BUILDERS: dict[ActionKind, st.SearchStrategy[Callable[[int], Action]]] = {
    ActionKind.STATE_OUTCOME: st.sampled_from(["Go", ""]).map(
        lambda t: lambda a: StateOutcome(a, t)
    ),
    ActionKind.CHOOSE_ASPECT: st.sampled_from(Aspect).map(lambda x: lambda a: ChooseAspect(a, x)),
    ActionKind.CHOOSE_RISK: st.sampled_from(Risk).map(lambda r: lambda a: ChooseRisk(a, r)),
    ActionKind.CHOOSE_MOOD: st.tuples(_SMALL, st.none() | _NAME).map(
        lambda t: lambda a: ChooseMood(a, *t)
    ),
    ActionKind.SET_ASPECT_EDGE: st.tuples(
        st.lists(st.sampled_from(["Rope", "Rain"]), max_size=2).map(tuple),
        st.lists(st.sampled_from(["Mud", "Dark"]), max_size=2).map(tuple),
    ).map(lambda t: lambda a: SetAspectEdge(a, *t)),
    ActionKind.CHOOSE_SKILL: _SMALL.map(lambda i: lambda a: ChooseSkill(a, i)),
    ActionKind.CREATE_SKILL: _NAME.map(lambda n: lambda a: CreateSkill(a, n)),
    ActionKind.RISK_SENTIMENT: st.integers(-1, 3).map(lambda i: lambda a: RiskSentiment(a, i)),
    ActionKind.ROLL: st.just(lambda a: Roll(a)),
    ActionKind.HELP: st.tuples(_SMALL, st.none() | _NAME).map(lambda t: lambda a: Help(a, *t)),
    ActionKind.KEEP_DIE: st.tuples(st.sampled_from(PoolKind), _PLAYER, st.integers(-1, 2)).map(
        lambda t: lambda a: KeepDie(a, *t)
    ),
    ActionKind.TAKE_HELPER_DIE: (st.none() | _PLAYER).map(lambda h: lambda a: TakeHelperDie(a, h)),
    ActionKind.CHOOSE_SKILL_SIGN: st.booleans().map(lambda b: lambda a: ChooseSkillSign(a, b)),
    ActionKind.RENAME_MOOD: st.tuples(_PLAYER, _NAME).map(lambda t: lambda a: RenameMood(a, *t)),
    ActionKind.CANCEL: st.just(lambda a: CancelRoll(a)),
    ActionKind.ENDANGER_SENTIMENT: st.integers(-1, 3).map(
        lambda i: lambda a: EndangerSentiment(a, i)
    ),
}


_DETAIL_ARGS = st.tuples(
    st.integers(-1, 2),
    st.builds(
        Detail,
        st.sampled_from(["Winded", "Lucky", "Mud"]),
        st.sampled_from(DetailKind),
        st.sampled_from(Polarity),
    ),
    st.one_of(
        st.builds(DetailTarget, st.just(TargetKind.CHARACTER), _PLAYER),
        st.builds(DetailTarget, st.sampled_from([TargetKind.NPC, TargetKind.SCENE])),
    ),
    st.booleans(),
)


def action_of(kind: ActionKind, actor: int, draw: st.DrawFn) -> Action:
    return draw(_BUILDERS[kind])(actor)


def check_invariants(before: RollState, after: RollState, start: RollState) -> None:
    assert RollState.from_dict(after.to_dict()) == after
    assert after.is_over == (expected(after) == ())
    if after.phase is Phase.CANCELLED:
        assert after.participants == start.participants
        return
    for p in after.participants:
        sheet = p.character
        assert all(0 <= m.level <= m.die.boxes for m in sheet.moods)
        assert sum(m.overloaded for m in sheet.moods) <= 1
        assert len(sheet.harms) <= MAX_HARMS
        new_harms = tuple(
            a.detail.name for a in after.added if a.harm and a.target.player == p.player
        )
        assert sheet.harms == start.character(p.player).harms + new_harms
        old = before.character(p.player).sentiments
        first = start.character(p.player).sentiments
        for a, b in zip(old, sheet.sentiments, strict=True):
            assert a.name == b.name and ORDER[b.state] >= ORDER[a.state]
        steps = sum(
            ORDER[b.state] - ORDER[a.state] for a, b in zip(first, sheet.sentiments, strict=True)
        )
        slipped = [
            e
            for e in after.effects
            if e.kind is EffectKind.SENTIMENT_SLIPPED and e.player == p.player
        ]
        assert steps == len(slipped)


def run_random_actions(start: RollState, seed: int, data: st.DataObject, steps: int) -> None:
    rng = SeededRng(seed)
    state = start
    for _ in range(steps):
        open_now = expected(state)
        if open_now and data.draw(st.booleans()):
            expectation = data.draw(st.sampled_from(open_now))
            kind = expectation.kind
            actor = data.draw(st.sampled_from(sorted(expectation.players)))
        else:
            kind = data.draw(st.sampled_from(ActionKind))
            actor = data.draw(_PLAYER)
        stored = hash(state)
        try:
            if state.outcome is not None and data.draw(st.booleans()):
                new_state, _ = add_granted_detail(state, actor, *data.draw(_DETAIL_ARGS))
            else:
                new_state, _ = apply(state, action_of(kind, actor, data.draw), rng)
        except StonetableError as error:
            assert error.message
            assert hash(state) == stored
            continue
        check_invariants(state, new_state, start)
        state = new_state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rolls(), st.integers(0, 2**32), st.data())
def test_no_sequence_of_actions_breaks_the_roll(
    start: RollState, seed: int, data: st.DataObject
) -> None:
    run_random_actions(start, seed, data, steps=30)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rolls(), st.integers(0, 2**32), st.data())
def test_no_long_sequence_of_actions_breaks_the_roll(
    start: RollState, seed: int, data: st.DataObject
) -> None:
    run_random_actions(start, seed, data, steps=60)


def sensible(state: RollState, draw: st.DrawFn) -> Action:
    """A plausible action among the open ones."""
    options = [e for e in expected(state) if e.kind is not ActionKind.CANCEL]
    expectation = draw(st.sampled_from(options))
    actor = draw(st.sampled_from(sorted(expectation.players)))
    sheet = state.character(actor) if actor not in state.arbiters else state.sheet
    kind = expectation.kind
    if kind in (ActionKind.CHOOSE_MOOD, ActionKind.HELP):
        line = draw(st.integers(0, 5))
        name = f"New {actor}" if sheet.moods[line].is_open else None
        return (ChooseMood if kind is ActionKind.CHOOSE_MOOD else Help)(actor, line, name)
    if kind is ActionKind.CHOOSE_SKILL:
        return ChooseSkill(actor, draw(st.integers(0, len(sheet.skills) - 1)))
    if kind in (ActionKind.RISK_SENTIMENT, ActionKind.ENDANGER_SENTIMENT):
        index = draw(st.sampled_from(sheet.usable_sentiments))
        return (RiskSentiment if kind is ActionKind.RISK_SENTIMENT else EndangerSentiment)(
            actor, index
        )
    if kind is ActionKind.KEEP_DIE:
        pools = [p for p in (state.aspect_pool, state.mood_pool) if p is not None]
        pools += [h.pool for h in state.helps]
        pool = draw(st.sampled_from([p for p in pools if p.kept is None]))
        return KeepDie(actor, pool.kind, pool.owner, draw(st.integers(0, 1)))
    if kind is ActionKind.TAKE_HELPER_DIE:
        return TakeHelperDie(actor, draw(st.sampled_from([None, *[h.helper for h in state.helps]])))
    if kind is ActionKind.RENAME_MOOD:
        owner = next(p.owner for p in state.pending if p.kind.value == "rename")
        return RenameMood(actor, owner, f"Intense {actor}")
    return action_of(kind, actor, draw)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rolls(), st.integers(0, 2**32), st.data())
def test_sensible_players_always_finish_the_roll(
    start: RollState, seed: int, data: st.DataObject
) -> None:
    rng = SeededRng(seed)
    state = start
    for _ in range(60):
        if state.phase is Phase.DONE:
            break
        try:
            state, _ = apply(state, sensible(state, data.draw), rng)
        except StonetableError:
            continue
    assert state.phase is Phase.DONE
    assert state.outcome is not None
    assert state.outcome.difference >= 0 and state.outcome.row == min(state.outcome.difference, 5)
