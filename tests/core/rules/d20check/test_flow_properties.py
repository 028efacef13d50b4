"""Hypothesis: no sequence of actions by anyone breaks the check's invariants.

The table is the roller, another player and the Game Master; a stranger
(someone outside the table) presses buttons too.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from core.rules.d20check import (
    AbilityStrength,
    ActionKind,
    CharacterSheet,
    CheckFlow,
    CheckSetup,
    Difficulty,
    Opposition,
    Phase,
    PlotPointPool,
    Target,
)
from core.rules.d20check.events import PlotPointSpent
from core.rules.d20check.plot_points import PlotPointKind
from core.rules.d20check.wounds import MAX_STRAIN, MAX_WOUNDS
from core.rules.errors import NotAllowedNow, NotYourTurn
from tests.support.examples import thorough_examples

from .helpers import GM, OTHER, ROLLER

STRANGER = 99
PEOPLE = st.sampled_from([ROLLER, GM, OTHER, STRANGER])
SETUPS = st.builds(
    CheckSetup,
    ability=st.sampled_from(AbilityStrength),
    proficiency=st.integers(0, 6),
    advantages=st.integers(0, 6),
    disadvantages=st.integers(0, 6),
)
TARGETS: st.SearchStrategy[Target] = st.one_of(
    st.builds(Difficulty, st.integers(0, 30)), st.builds(Opposition, st.integers(-5, 30))
)


class DrawnRng:
    """Dice faces drawn by Hypothesis, so failures shrink to simple faces."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.draws = 0

    def randint(self, low: int, high: int) -> int:
        self.draws += 1
        return self.data.draw(st.integers(low, high))


class CheckMachine(RuleBasedStateMachine):
    check: CheckFlow
    pool: PlotPointPool
    sheet: CharacterSheet
    size: int
    spent: int

    @initialize(
        size=st.integers(2, 7),
        lucky_share=st.integers(0, 7),
        wounds=st.integers(0, MAX_WOUNDS),
        strain=st.integers(0, MAX_STRAIN),
        gm_check=st.booleans(),
        goal=TARGETS,
    )
    def start(
        self, size: int, lucky_share: int, wounds: int, strain: int, gm_check: bool, goal: Target
    ) -> None:
        lucky = min(lucky_share, size)
        self.size = size
        self.pool = PlotPointPool(lucky, size - lucky)
        self.sheet = CharacterSheet("Ana", strain=strain, wounds=wounds)
        self.open(gm_check, goal)

    def open(self, gm_check: bool, goal: Target) -> None:
        roller = GM if gm_check else ROLLER
        self.check = CheckFlow.open(roller, GM, goal, players=(ROLLER, OTHER, GM))
        self.spent = 0

    @rule(actor=PEOPLE, setup=SETUPS, goal=st.none() | TARGETS)
    def set_up(self, actor: int, setup: CheckSetup, goal: Target | None) -> None:
        allowed = ActionKind.SET_UP in self.check.allowed_actions(actor, self.pool)
        before = self.check
        try:
            self.check = self.check.set_up(actor, setup, goal)
        except NotAllowedNow as refusal:
            assert not allowed
            someone_else = actor not in (before.roller, before.game_master) or (
                not before.is_over and actor != before.roller
            )
            assert isinstance(refusal, NotYourTurn) == someone_else
            assert self.check is before
        else:
            assert allowed

    @rule(actor=PEOPLE, action=st.sampled_from(ActionKind), data=st.data())
    def act(self, actor: int, action: ActionKind, data: st.DataObject) -> None:
        if action is ActionKind.SET_UP:
            return
        allowed = action in self.check.allowed_actions(actor, self.pool)
        rng = DrawnRng(data)
        before = (self.check, self.pool, self.sheet)
        try:
            step = self.check.act(actor, action, pool=self.pool, rng=rng, sheet=self.sheet)
        except NotAllowedNow as refusal:
            assert not allowed, refusal.message
            assert refusal.message
            assert rng.draws == 0
            assert (self.check, self.pool, self.sheet) == before
            if actor not in (self.check.roller, self.check.game_master, *self.check.players):
                assert isinstance(refusal, NotYourTurn)
        else:
            assert allowed
            assert step.sheet is not None
            self.check, self.pool, self.sheet = step.check, step.pool, step.sheet
            self.spent += sum(isinstance(e, PlotPointSpent) for e in step.events)

    @rule(data=st.data())
    def press_a_shown_button(self, data: st.DataObject) -> None:
        """Drive the check forward the way the bot would: only shown buttons."""
        shown = sorted(
            (
                (actor, action)
                for actor, actions in self.check.who_may_act(self.pool).items()
                for action in actions
                if action is not ActionKind.SET_UP
            ),
            key=lambda pair: (pair[0], pair[1].value),
        )
        if shown:
            actor, action = data.draw(st.sampled_from(shown))
            self.act(actor, action, data)

    @rule(lucky=st.integers(0, 7))
    def other_checks_change_the_pool(self, lucky: int) -> None:
        lucky = min(lucky, self.size)
        self.pool = PlotPointPool(lucky, self.size - lucky)

    @rule(gm_check=st.booleans(), goal=TARGETS)
    def next_check(self, gm_check: bool, goal: Target) -> None:
        if self.check.is_over:
            self.open(gm_check, goal)

    @invariant()
    def pool_size_is_constant(self) -> None:
        assert self.pool.size == self.size

    @invariant()
    def strain_and_wounds_stay_in_bounds(self) -> None:
        assert 0 <= self.sheet.strain <= MAX_STRAIN
        assert 0 <= self.sheet.wounds <= MAX_WOUNDS

    @invariant()
    def rolls_match_the_phase(self) -> None:
        check = self.check
        assert (check.phase is Phase.SETUP) == (not check.rolls)
        if check.rolls:
            assert len(check.rolls) == 1 + self.spent  # every point spent buys one roll

    @invariant()
    def gm_never_forces_after_the_player_spent(self) -> None:
        assert not (self.check.roller_spent is not None and self.check.gm_spent)

    @invariant()
    def only_the_table_ever_acts(self) -> None:
        check = self.check
        people = check.who_may_act(self.pool)
        assert set(people) <= {check.roller, check.game_master, *check.players}
        assert STRANGER not in people
        assert all(people.values())
        assert (people == {}) == check.is_over
        for person, actions in people.items():
            if person not in (check.roller, check.game_master):
                assert actions == {ActionKind.REROLL}  # others only reroll a success

    @invariant()
    def ruling25_a_spend_is_offered_whenever_the_pool_has_the_point(self) -> None:
        check, pool = self.check, self.pool
        result = check.result
        people = check.who_may_act(pool)
        if result is None:
            return
        if check.phase is Phase.ROLLER_DECIDES:
            if not result.succeeded:
                assert (ActionKind.RETRY in people[check.roller]) == pool.has(PlotPointKind.LUCKY)
            else:
                offered = pool.has(PlotPointKind.UNLUCKY)
                for person in (check.roller, *check.players):
                    assert (ActionKind.REROLL in people.get(person, frozenset())) == offered
        if check.phase is Phase.GM_DECIDES:
            gm = people[check.game_master]
            if check.is_gm_check:
                assert (ActionKind.GM_REROLL in gm) == pool.has(PlotPointKind.UNLUCKY)
            else:
                may_force = pool.has(PlotPointKind.UNLUCKY) and check.roller_spent is None
                assert (ActionKind.FORCE_REROLL in gm) == may_force

    @invariant()
    def state_round_trips_through_json(self) -> None:
        data = json.loads(json.dumps(self.check.to_dict()))
        assert CheckFlow.from_dict(data) == self.check
        assert PlotPointPool.from_dict(json.loads(json.dumps(self.pool.to_dict()))) == self.pool
        sheet = json.loads(json.dumps(self.sheet.to_dict()))
        assert CharacterSheet.from_dict(sheet) == self.sheet


CheckMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestCheckMachine = CheckMachine.TestCase


class LongCheckMachine(CheckMachine):
    """The same machine, many more and longer runs."""


LongCheckMachine.TestCase.settings = settings(
    max_examples=thorough_examples(600, 150),
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestLongCheckMachine = pytest.mark.slow(LongCheckMachine.TestCase)
