"""The roll panel state machine the bot drives."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import event as note_event
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.threat.dice import Result
from core.rules.threat.momentum import MomentumChange
from core.rules.threat.panel import (
    Action,
    ActionKind,
    Back,
    BurnMomentum,
    Cancel,
    ChooseApproach,
    Finished,
    HelperJoined,
    Join,
    KeepRoll,
    Leave,
    Menu,
    MomentumBurned,
    MomentumChanged,
    MomentumReason,
    OpenApproach,
    OpenThreat,
    Panel,
    Role,
    RollDice,
    Rolled,
    SetBonus,
    SetOutsideAssist,
    SetThreat,
    Stage,
    Step,
    open_from_notation,
    open_panel,
)
from core.rules.threat.panel import act as rules_act
from core.rules.threat.roll import Assist, Bonus, DieSource, NoRoll
from tests.support.examples import thorough_examples

GM, ROLLER, HELPER, OTHER = 1, 2, 3, 4
_LIST_OF: dict[type, tuple[Menu, Action]] = {
    SetThreat: (Menu.THREAT, OpenThreat()),
    ChooseApproach: (Menu.APPROACH, OpenApproach()),
}


def act(panel: Panel, actor: int, action: Action, rng: Any = None) -> Step:
    """``action`` as a press makes it: a threat or an approach through its list, opened first."""
    listed = _LIST_OF.get(type(action))
    if listed is not None and panel.menu is not listed[0]:
        panel = rules_act(panel, actor, listed[1]).panel
    return rules_act(panel, actor, action, rng)


def _ready(**kwargs: Any) -> Panel:
    panel = open_panel(GM, ROLLER, **kwargs)
    return act(panel, ROLLER, ChooseApproach("Prowess", 2)).panel


def test_panel_plain_roll_without_burn_finishes_at_once() -> None:
    panel = act(_ready(momentum=2), GM, SetThreat(1)).panel
    step = act(panel, ROLLER, RollDice(), ScriptedRng([3, 5, 7]))
    assert step.panel.stage is Stage.DONE
    rolled, finished = step.events
    assert isinstance(rolled, Rolled) and rolled.outcome.action_faces == (3, 5)
    assert finished == Finished(Result.BOTCHED, None, 2, ())


def test_panel_only_the_gm_sets_the_threat() -> None:
    panel = _ready()
    for player in (ROLLER, HELPER):
        with pytest.raises(NotYourTurn):
            act(panel, player, SetThreat(2))
    assert act(panel, GM, SetThreat(2)).panel.threat_level == 2
    assert act(act(panel, GM, SetThreat(2)).panel, GM, SetThreat(0)).panel.threat_level == 0


def test_panel_threat_out_of_range_is_malformed() -> None:
    with pytest.raises(Malformed):
        act(_ready(), GM, SetThreat(5))


def test_panel_only_the_roller_picks_approach_and_bonuses() -> None:
    panel = open_panel(GM, ROLLER)
    with pytest.raises(NotYourTurn):
        act(panel, GM, ChooseApproach("Prowess", 3))
    with pytest.raises(NotYourTurn):
        act(panel, HELPER, SetBonus(Bonus.EXPERTISE, True))
    panel = act(panel, ROLLER, SetBonus(Bonus.EXPERTISE, True)).panel
    panel = act(panel, ROLLER, SetBonus(Bonus.ABILITY, True)).panel
    assert panel.pool.bonus_dice == 2


def test_panel_working_together_is_not_a_claimable_bonus() -> None:
    with pytest.raises(Malformed):
        act(_ready(), ROLLER, SetBonus(Bonus.WORKING_TOGETHER, True))


def test_panel_roll_needs_an_approach() -> None:
    with pytest.raises(NotAllowedNow, match="approach"):
        act(open_panel(GM, ROLLER), ROLLER, RollDice(), ScriptedRng([]))


def test_panel_roll_needs_an_action_die() -> None:
    panel = act(open_panel(GM, ROLLER), ROLLER, ChooseApproach("Guile", 0)).panel
    assert ActionKind.ROLL not in panel.allowed(ROLLER)
    with pytest.raises(NotAllowedNow, match="action die"):
        act(panel, ROLLER, RollDice(), ScriptedRng([]))


def test_assist_helper_joins_rolls_one_die_and_shares_the_risk() -> None:
    panel = _ready()
    step = act(panel, HELPER, Join())
    assert step.events == (HelperJoined(HELPER),)
    step = act(step.panel, ROLLER, RollDice(), ScriptedRng([1, 2, 6]))
    outcome = step.panel.outcome
    assert outcome is not None and outcome.action_dice[2].helper == HELPER
    assert step.events[-1] == Finished(Result.GOOD, None, 2, (HELPER,))


def test_assist_helper_can_leave_before_the_roll() -> None:
    panel = act(_ready(), HELPER, Join()).panel
    with pytest.raises(NotYourTurn):
        act(panel, OTHER, Leave())
    assert act(panel, HELPER, Leave()).panel.assist is None


def test_ruling15_working_together_adds_one_die_only() -> None:
    panel = act(_ready(), HELPER, Join()).panel
    with pytest.raises(NotAllowedNow):
        act(panel, OTHER, Join())
    with pytest.raises(NotAllowedNow):
        act(panel, GM, SetOutsideAssist(True))
    outside = act(_ready(), GM, SetOutsideAssist(True)).panel
    with pytest.raises(NotAllowedNow):
        act(outside, HELPER, Join())


def test_outside_assistance_is_added_by_the_gm() -> None:
    with pytest.raises(NotYourTurn):
        act(_ready(), ROLLER, SetOutsideAssist(True))
    panel = act(_ready(), GM, SetOutsideAssist(True)).panel
    assert panel.assist == Assist(None)
    outcome = act(panel, ROLLER, RollDice(), ScriptedRng([1, 1, 4])).panel.outcome
    assert outcome is not None and outcome.action_dice[2].source is DieSource.OUTSIDE
    assert act(panel, GM, SetOutsideAssist(False)).panel.assist is None


def test_the_gm_and_roller_cannot_join_as_helpers() -> None:
    for player in (GM, ROLLER):
        with pytest.raises(NotYourTurn):
            act(_ready(), player, Join())


def test_ruling16_burn_offered_only_with_four_momentum() -> None:
    low = act(_ready(momentum=3), ROLLER, RollDice(), ScriptedRng([1, 2])).panel
    assert low.stage is Stage.DONE
    high = act(_ready(momentum=4), ROLLER, RollDice(), ScriptedRng([1, 2])).panel
    assert high.stage is Stage.ROLLED
    assert high.allowed(ROLLER) == {ActionKind.BURN, ActionKind.KEEP}
    for player in (GM, HELPER, OTHER):
        assert high.allowed(player) == frozenset()
        with pytest.raises(NotYourTurn):
            act(high, player, BurnMomentum())


def test_ruling16_burn_replaces_highest_then_cuts_then_resets() -> None:
    panel = act(_ready(momentum=5, threat_level=1), ROLLER, RollDice(), ScriptedRng([3, 1, 8]))
    rolled = panel.panel
    assert rolled.outcome is not None and rolled.outcome.result is Result.DIRE
    preview = rolled.burn_preview()
    assert preview is not None and preview.result is Result.BOTCHED
    step = act(rolled, ROLLER, BurnMomentum())
    assert step.panel.momentum == 2
    assert step.panel.outcome == preview
    assert step.events == (
        MomentumBurned(preview),
        MomentumChanged(MomentumChange(5, 2), MomentumReason.BURN),
        Finished(Result.BOTCHED, None, 2, ()),
    )


def test_keep_the_roll_without_burning() -> None:
    rolled = act(_ready(momentum=6), ROLLER, RollDice(), ScriptedRng([6, 1])).panel
    step = act(rolled, ROLLER, KeepRoll())
    assert step.panel.stage is Stage.DONE and step.panel.momentum == 6
    assert step.events == (Finished(Result.GOOD, None, 6, ()),)


def test_negative_threat_level_gains_momentum_before_the_roll() -> None:
    panel = act(_ready(momentum=2), GM, SetThreat(-2)).panel
    step = act(panel, ROLLER, RollDice(), ScriptedRng([2, 2]))
    assert step.events[0] == MomentumChanged(
        MomentumChange(2, 4), MomentumReason.FAVOURABLE_POSITION
    )
    assert step.panel.stage is Stage.ROLLED  # the gain makes the burn possible
    assert step.panel.outcome is not None and step.panel.outcome.threat_dice == ()


def test_harm_adds_threat_dice_on_the_panel() -> None:
    step = act(_ready(harm=2, threat_level=1), ROLLER, RollDice(), ScriptedRng([4, 4, 1, 1, 7]))
    outcome = step.panel.outcome
    assert outcome is not None and outcome.threat_dice == (1, 1, 7) and outcome.harm_dice == 2


def test_ruling15_impossible_settles_without_dice() -> None:
    panel = act(_ready(), GM, SetThreat(4)).panel
    step = act(panel, ROLLER, RollDice(), ScriptedRng([]))
    assert step.panel.no_roll is NoRoll.IMPOSSIBLE
    assert step.events == (Finished(None, NoRoll.IMPOSSIBLE, 2, ()),)


def test_ruling15_more_than_six_dice_settles_as_success() -> None:
    panel = open_from_notation(GM, ROLLER, "6d2t")
    panel = act(panel, ROLLER, SetBonus(Bonus.EXPERTISE, True)).panel
    step = act(panel, ROLLER, RollDice(), ScriptedRng([]))
    assert step.events == (Finished(None, NoRoll.SUCCESS, 2, ()),)


def test_panel_from_notation() -> None:
    panel = open_from_notation(GM, ROLLER, "3d2t", momentum=3, harm=1)
    assert (panel.pool.action_dice, panel.pool.threat_dice, panel.approach_name) == (3, 3, None)
    with pytest.raises(Malformed):
        open_from_notation(GM, ROLLER, "0d9t")
    with pytest.raises(Malformed):
        open_panel(GM, ROLLER, momentum=7)


def test_out_of_order_actions_are_refused() -> None:
    panel = _ready()
    with pytest.raises(NotAllowedNow):
        act(panel, ROLLER, BurnMomentum())
    with pytest.raises(NotAllowedNow):
        act(panel, ROLLER, KeepRoll())
    done = act(panel, ROLLER, RollDice(), ScriptedRng([1, 1])).panel
    moves: list[tuple[int, Action]] = [
        (ROLLER, RollDice()),
        (GM, SetThreat(1)),
        (HELPER, Join()),
        (ROLLER, BurnMomentum()),
        (GM, Cancel()),
    ]
    for player, action in moves:
        with pytest.raises(NotAllowedNow) as caught:
            act(done, player, action, ScriptedRng([1, 1]))
        assert not isinstance(caught.value, NotYourTurn)
        assert caught.value.message


def test_bystanders_are_refused_with_not_your_turn() -> None:
    panel = _ready()
    assert panel.allowed(OTHER) == {ActionKind.JOIN}
    for action in (SetThreat(1), ChooseApproach("x", 1), RollDice(), Cancel(), Leave()):
        with pytest.raises(NotYourTurn):
            act(panel, OTHER, action, ScriptedRng([1, 1]))


def test_cancel_by_gm_or_roller_before_the_roll() -> None:
    assert act(_ready(), GM, Cancel()).panel.stage is Stage.CANCELLED
    assert act(_ready(), ROLLER, Cancel()).panel.stage is Stage.CANCELLED
    with pytest.raises(NotYourTurn):
        act(_ready(), HELPER, Cancel())


def test_every_state_says_who_may_act() -> None:
    panel = _ready()
    assert panel.who_may() == {
        ActionKind.OPEN_THREAT: {Role.GM},
        ActionKind.OPEN_APPROACH: {Role.ROLLER},
        ActionKind.SET_BONUS: {Role.ROLLER},
        ActionKind.JOIN: {Role.BYSTANDER},
        ActionKind.LEAVE: {Role.HELPER},
        ActionKind.OUTSIDE_ASSIST: {Role.GM},
        ActionKind.ROLL: {Role.ROLLER},
        ActionKind.CANCEL: {Role.GM, Role.ROLLER},
    }
    rolled = act(_ready(momentum=4), ROLLER, RollDice(), ScriptedRng([1, 1])).panel
    assert rolled.who_may() == {ActionKind.BURN: {Role.ROLLER}, ActionKind.KEEP: {Role.ROLLER}}
    done = act(rolled, ROLLER, KeepRoll()).panel
    assert done.who_may() == {}


def test_a_gm_may_also_be_the_roller() -> None:
    panel = open_panel(GM, GM)
    assert panel.roles(GM) == {Role.GM, Role.ROLLER}
    panel = act(panel, GM, ChooseApproach("Prowess", 2)).panel
    panel = act(panel, GM, SetThreat(1)).panel
    assert act(panel, GM, RollDice(), ScriptedRng([1, 1, 1])).panel.stage is Stage.DONE


def _round_trip(panel: Panel) -> Panel:
    return Panel.from_dict(json.loads(json.dumps(panel.to_dict())))


def test_panel_round_trips_through_json_in_every_stage() -> None:
    setup = act(act(_ready(momentum=5, harm=1), HELPER, Join()).panel, GM, SetThreat(2)).panel
    rolled = act(setup, ROLLER, RollDice(), SeededRng(3)).panel
    burned = act(rolled, ROLLER, BurnMomentum()).panel
    cancelled = act(setup, GM, Cancel()).panel
    impossible = act(act(setup, GM, SetThreat(4)).panel, ROLLER, RollDice(), SeededRng(1)).panel
    for panel in (setup, rolled, burned, cancelled, impossible):
        assert _round_trip(panel) == panel


@pytest.mark.parametrize(
    "change",
    [
        {"v": 2},
        {"momentum": 9},
        {"stage": "rolled"},
        {"gm": "1"},
        {"assist": {"helper": 1}},
        {"outcome": {"action": [[9, "roller", None]], "threat": [], "harm_dice": 0, "burn": None}},
        {"approach": True},
    ],
)
def test_bad_panel_data_is_malformed(change: dict[str, Any]) -> None:
    data = _ready().to_dict() | change
    with pytest.raises(Malformed):
        Panel.from_dict(data)
    with pytest.raises(Malformed):
        Panel.from_dict({})


# Hypothesis: any sequence of actions by anyone keeps the panel valid.

PLAYERS = st.sampled_from([GM, ROLLER, ROLLER, ROLLER, HELPER, OTHER])
# Button presses, weighted towards reaching the later stages.
BUTTONS: st.SearchStrategy[Action] = st.sampled_from(
    [
        Join(),
        Leave(),
        *[RollDice()] * 4,
        *[BurnMomentum()] * 3,
        KeepRoll(),
        KeepRoll(),
        Cancel(),
        OpenThreat(),
        OpenApproach(),
        Back(),
    ]
)
SETTINGS: st.SearchStrategy[Action] = st.one_of(
    st.builds(SetThreat, st.integers(-4, 6)),
    st.builds(
        ChooseApproach, st.sampled_from(["Prowess", " Guile ", "", "x" * 30]), st.integers(-1, 7)
    ),
    st.builds(SetBonus, st.sampled_from(Bonus), st.booleans()),
    st.builds(SetOutsideAssist, st.booleans()),
)
ACTIONS: st.SearchStrategy[Action] = st.one_of(BUTTONS, SETTINGS)

_NEXT: dict[Stage, set[Stage]] = {
    Stage.SETUP: {Stage.SETUP, Stage.ROLLED, Stage.DONE, Stage.CANCELLED},
    Stage.ROLLED: {Stage.DONE},
    Stage.DONE: set(),
    Stage.CANCELLED: set(),
}


RUNS = {
    "momentum": st.integers(0, 6),
    "harm": st.integers(0, 9),
    "threat": st.integers(-2, 4),
    "dice": st.none() | st.integers(1, 6) | st.integers(0, 9),
    "seed": st.integers(0, 2**32),
    "moves": st.lists(st.tuples(PLAYERS, ACTIONS), min_size=12, max_size=40),
}


@settings(max_examples=50, deadline=None)
@given(**RUNS)
def test_no_action_sequence_breaks_the_panel(
    momentum: int, harm: int, threat: int, dice: int | None, seed: int, moves: list[Any]
) -> None:
    _check_run(momentum, harm, threat, dice, seed, moves)


@pytest.mark.slow
@settings(max_examples=thorough_examples(800, 200), deadline=None)
@given(**RUNS)
def test_no_action_sequence_breaks_the_panel_thoroughly(
    momentum: int, harm: int, threat: int, dice: int | None, seed: int, moves: list[Any]
) -> None:
    _check_run(momentum, harm, threat, dice, seed, moves)


def _check_run(
    momentum: int,
    harm: int,
    threat: int,
    dice: int | None,
    seed: int,
    moves: list[tuple[int, Action]],
) -> None:
    rng = SeededRng(seed)
    panel = open_panel(
        GM, ROLLER, momentum=momentum, harm=harm, threat_level=threat, action_dice=dice
    )
    for actor, action in moves:
        before = panel.to_dict()
        allowed = panel.allowed(actor)
        try:
            step = rules_act(panel, actor, action, rng)
        except NotYourTurn:
            assert action.kind not in allowed
            assert panel.to_dict() == before
            continue
        except NotAllowedNow:
            assert action.kind not in allowed
            assert panel.to_dict() == before
            continue
        except Malformed:
            assert action.kind in allowed  # refused for its arguments, not its timing
            assert panel.to_dict() == before
            continue
        except StonetableError:  # pragma: no cover
            raise
        assert action.kind in allowed
        new = step.panel
        assert new.stage in _NEXT[panel.stage]
        assert 0 <= new.momentum <= 6
        for event in step.events:
            if isinstance(event, MomentumChanged):
                assert event.change.before == panel.momentum or event.reason is MomentumReason.BURN
                assert 0 <= event.change.after <= 6
        finished = [e for e in step.events if isinstance(e, Finished)]
        assert bool(finished) == (new.stage is Stage.DONE)
        if finished:
            assert finished[0].momentum == new.momentum
        if new.stage is Stage.ROLLED:
            assert new.momentum >= 4 and new.allowed(ROLLER) == {ActionKind.BURN, ActionKind.KEEP}
        assert new.helper not in (GM, ROLLER) or new.helper is None
        assert _round_trip(new) == new
        panel = new
    burned = panel.outcome is not None and panel.outcome.burn is not None
    note_event(f"ended in {panel.stage.value}" + (" after a burn" if burned else ""))


# The threat keypad and the list of approaches: sub-steps with Back.


def test_the_threat_keypad_opens_picks_once_and_closes() -> None:
    panel = rules_act(_ready(), GM, OpenThreat()).panel
    assert panel.menu is Menu.THREAT
    assert panel.who_may() == {
        ActionKind.SET_THREAT: {Role.GM},
        ActionKind.BACK: {Role.GM, Role.ROLLER},
    }
    picked = rules_act(panel, GM, SetThreat(2)).panel
    assert picked.menu is None and picked.threat_level == 2
    with pytest.raises(NotAllowedNow, match="threat keypad was closed: tap Threat"):
        rules_act(picked, GM, SetThreat(3))  # a second press on the keypad just closed


def test_back_closes_a_list_without_changing_anything() -> None:
    ready = _ready()
    for opener, who in ((OpenThreat(), GM), (OpenApproach(), ROLLER)):
        opened = rules_act(ready, who, opener).panel
        for closer in (GM, ROLLER):
            assert rules_act(opened, closer, Back()).panel == ready
    with pytest.raises(NotAllowedNow, match="No list is open"):
        rules_act(ready, GM, Back())
    with pytest.raises(NotYourTurn):
        rules_act(rules_act(ready, GM, OpenThreat()).panel, HELPER, Back())


def test_while_a_list_is_open_the_main_buttons_wait() -> None:
    opened = rules_act(_ready(), ROLLER, OpenApproach()).panel
    for actor, action in (
        (ROLLER, RollDice()),
        (GM, OpenThreat()),
        (GM, Cancel()),
        (HELPER, Join()),
    ):
        with pytest.raises(
            NotAllowedNow, match="list of approaches is open: pick from it or tap Back"
        ):
            rules_act(opened, actor, action)
    assert rules_act(opened, ROLLER, ChooseApproach("Guile", 1)).panel.menu is None


def test_only_the_gm_opens_the_keypad_and_only_the_roller_the_approaches() -> None:
    ready = _ready()
    with pytest.raises(NotYourTurn, match="Only the GM"):
        rules_act(ready, ROLLER, OpenThreat())
    with pytest.raises(NotYourTurn, match="Only the player rolling"):
        rules_act(ready, GM, OpenApproach())


def test_an_open_list_round_trips_and_old_data_reads_as_closed() -> None:
    opened = rules_act(_ready(), GM, OpenThreat()).panel
    assert _round_trip(opened) == opened
    old = {k: v for k, v in _ready().to_dict().items() if k != "menu"}
    assert Panel.from_dict(old).menu is None
    with pytest.raises(Malformed):
        Panel.from_dict(_ready().to_dict() | {"menu": "dice"})
