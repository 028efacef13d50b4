"""Downtime: complications, downtime at home, free actions and every downtime action."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu import downtime as d
from core.rules.nsu import world as w
from core.rules.nsu.action_roll import Outcome, ResultRow, Winner
from core.rules.nsu.downtime import (
    Complication,
    DowntimeKind,
    DowntimePlace,
    DowntimeState,
)
from core.rules.nsu.sheet import (
    Aspect,
    Character,
    CharacterDraft,
    Die,
    SentimentState,
    assign_aspects,
    choose_name,
    describe,
    finish_creation,
    invent_sentiments,
    pick_moods,
    write_skills,
)
from core.rules.nsu.world import (
    CollateralClock,
    DangerLevel,
    LocationCard,
    MapGrid,
    Resource,
    ResourceLevel,
    RewardLevel,
    World,
)
from core.rules.rng import ScriptedRng, SeededRng
from tests.support.examples import thorough_examples

ALICE, BOB, CARA = 1, 2, 3


def make_sheet(name: str, body: Die = Die.D8, mind: Die = Die.D6, heart: Die = Die.D4) -> Character:
    draft = choose_name(CharacterDraft(), name)
    draft = describe(draft, "they/them", "patched coat")
    draft = pick_moods(draft, "Careful", "Curious", "Angry")
    draft = assign_aspects(draft, body, mind, heart)
    draft = invent_sentiments(draft, "Grandma's compass", "The river folk", "Fairness")
    draft = write_skills(draft, "Climbing", "Haggling", "Tinkering")
    return finish_creation(draft)


def card(
    cid: str, author: int, ticks: int = 0, revealed: bool = True, **kw: object
) -> LocationCard:
    base = LocationCard(
        id=cid,
        author_id=author,
        title=f"Place {cid}",
        description=f"Secret {cid}",
        collateral_target="the herd",
        danger_type="storms",
        treasure_type="seed vault",
        danger=DangerLevel.D2,
        reward=RewardLevel.R3,
        clock=CollateralClock(ticks),
        revealed=revealed,
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def make_world(current: str | None = "a", a_ticks: int = 3) -> World:
    cards = (
        card("a", ALICE, a_ticks),
        card("b", BOB, 5),
        card("c", CARA, 0, revealed=False),
        card("d", ALICE, 0, revealed=False),
    )
    return World(
        players=(ALICE, BOB, CARA),
        resources=(
            Resource("water", ResourceLevel.ABUNDANCE),
            Resource("seeds", ResourceLevel.SCARCITY),
            Resource("songs", ResourceLevel.SCARCITY),
            Resource("tools", ResourceLevel.SCARCITY),
            Resource("medicine", ResourceLevel.SCARCITY),
        ),
        cards=cards,
        grid=MapGrid((("a", "b"), ("c", None), (None, "d"))),
        current=current,
    )


def sheets() -> dict[int, Character]:
    return {ALICE: make_sheet("Ash"), BOB: make_sheet("Bee"), CARA: make_sheet("Cob")}


def start(
    place: DowntimePlace = DowntimePlace.CAMP,
    world: World | None = None,
    rolls: list[int] | None = None,
    chars: dict[int, Character] | None = None,
) -> DowntimeState:
    state, _ = d.begin_downtime(
        world or make_world(), chars or sheets(), place, ScriptedRng(rolls or [1])
    )
    return state


def do(state: DowntimeState, actor: int, action: d.DowntimeAction, *faces: int) -> DowntimeState:
    new, _ = d.apply(state, actor, action, ScriptedRng(faces))
    return new


def outcome(winner: Winner) -> Outcome:
    return Outcome(4, 0, 2, 2, winner, ResultRow.WIN, (), 0, None)


# ---------------------------------------------------------------- complications


@pytest.mark.parametrize(
    ("ticks", "face", "expected"),
    [
        (1, 1, (Complication.AREA_RECOVERS,)),
        (2, 2, (Complication.PROBLEM_INTENSIFIES, Complication.SIDE_EFFECT)),
        (3, 3, (Complication.PROBLEM_INTENSIFIES, Complication.SIDE_EFFECT)),
        (3, 4, (Complication.RELATIONS_WORSEN,)),
        (1, 6, (Complication.PROBLEM_SPREADS,)),
        (4, 1, (Complication.PROBLEM_INTENSIFIES, Complication.RELATIONS_WORSEN)),
        (5, 5, (Complication.PROBLEM_SPREADS,)),
        (4, 6, (Complication.THOSE_AFFECTED_FLEE,)),
        (6, 3, (Complication.RELATIONS_WORSEN, Complication.PROBLEM_SPREADS)),
        (7, 4, (Complication.THOSE_AFFECTED_FLEE,)),
        (7, 6, (Complication.PROBLEM_INTENSIFIES,)),
    ],
)
def test_complication_table_follows_the_clock(
    ticks: int, face: int, expected: tuple[Complication, ...]
) -> None:
    assert d.complication_options(ticks, face) == expected


def test_every_tick_count_from_one_to_seven_has_a_full_d6_table() -> None:
    for ticks in range(1, 8):
        for face in range(1, 7):
            assert d.complication_options(ticks, face)
    with pytest.raises(Malformed):
        d.complication_options(0, 1)
    with pytest.raises(Malformed):
        d.complication_options(8, 1)
    with pytest.raises(Malformed):
        d.complication_options(3, 7)


def test_every_complication_has_a_prompt_in_our_words() -> None:
    assert all(c.prompt for c in Complication)


def test_a_clean_clock_brings_no_complication_and_no_roll() -> None:
    world = make_world(a_ticks=0)
    rng = ScriptedRng([])
    roll = d.roll_complication(world, "a", rng)
    assert roll == d.ComplicationRoll("a", 0, None, ())


def test_a_full_clock_has_fully_come_to_pass_without_a_roll() -> None:
    world = make_world(a_ticks=8)
    roll = d.roll_complication(world, "a", ScriptedRng([]))
    assert roll.face is None and roll.options == (Complication.FULLY_COME_TO_PASS,)


def test_downtime_starts_with_complications_at_the_location_just_left() -> None:
    state, events = d.begin_downtime(make_world(), sheets(), DowntimePlace.CAMP, ScriptedRng([6]))
    expected = d.ComplicationRoll("a", 3, 6, (Complication.PROBLEM_SPREADS,))
    assert state.complications == (expected,)
    assert d.ComplicationRolled(expected) in events


def test_the_table_may_tick_the_clock_while_describing_a_complication() -> None:
    state = do(start(), BOB, d.TickCollateral("a"))
    assert state.world.card("a").clock.ticks == 4
    state = do(state, CARA, d.UntickCollateral("a", 2))
    assert state.world.card("a").clock.ticks == 2
    with pytest.raises(NotAllowedNow):
        do(state, CARA, d.UntickCollateral("a", 3))


# ------------------------------------------------------------ downtime at home


def test_everyone_gets_one_downtime_action_and_both_free_actions() -> None:
    chars = sheets()
    for pid, sheet in chars.items():
        for aspect in Aspect:
            sheet = sheet.mark_skill(0, aspect)
        chars[pid] = sheet.add_harm("Bruised")
    state = start(chars=chars)
    for pid in (ALICE, BOB, CARA):
        assert state.budget(pid).actions_left == 1
        kinds = d.allowed_actions(state)[pid]
        assert {DowntimeKind.RECOVER_HARM, DowntimeKind.UPGRADE_SKILLS} <= kinds


def test_a_free_action_that_would_do_nothing_is_not_offered() -> None:
    state = start()  # no harm to heal, no skill with all three boxes
    for pid in (ALICE, BOB, CARA):
        kinds = d.allowed_actions(state)[pid]
        assert not {DowntimeKind.RECOVER_HARM, DowntimeKind.UPGRADE_SKILLS} & kinds
    with pytest.raises(NotAllowedNow, match="no harm to heal"):
        do(state, BOB, d.RecoverHarm(((0, "Scar"),)))
    with pytest.raises(NotAllowedNow, match="all three aspect boxes"):
        do(state, BOB, d.UpgradeSkills())


def test_at_home_everyone_takes_a_recovery_point() -> None:
    state, events = d.begin_downtime(make_world(), sheets(), DowntimePlace.HOME, ScriptedRng([1]))
    assert all(s.recovery_points == 1 for _, s in state.sheets)
    assert d.RecoveryPointsTaken(ALICE, 1, 1) in events
    assert state.world.current is None  # the party is home


def test_a_camp_gives_no_recovery_point_and_stays_put() -> None:
    state = start(DowntimePlace.CAMP)
    assert all(s.recovery_points == 0 for _, s in state.sheets)
    assert state.world.current == "a"


def test_recovery_points_at_home_stop_at_four() -> None:
    chars = sheets()
    chars[ALICE] = replace(chars[ALICE], recovery_points=4)
    state = start(DowntimePlace.HOME, chars=chars)
    assert state.sheet(ALICE).recovery_points == 4


def test_more_time_gives_an_action_each_and_a_complication_per_unit() -> None:
    state, events = d.apply(start(), ALICE, d.SpendMoreTime(("a", "b")), ScriptedRng([1, 6]))
    assert all(b.actions_left == 3 for b in state.players)
    assert state.time_units == 2
    assert [c.card_id for c in state.complications] == ["a", "a", "b"]
    assert state.complications[-1].options == (Complication.THOSE_AFFECTED_FLEE,)
    assert d.TimeSpent(2, 2) in events


def test_extra_complications_only_at_revealed_locations() -> None:
    with pytest.raises(NotAllowedNow):
        d.apply(start(), ALICE, d.SpendMoreTime(("c",)), ScriptedRng([1]))
    with pytest.raises(Malformed):
        d.apply(start(), ALICE, d.SpendMoreTime(()), ScriptedRng([1]))


def test_beginning_downtime_needs_characters_from_the_table() -> None:
    with pytest.raises(Malformed):
        d.begin_downtime(make_world(), {}, DowntimePlace.HOME, ScriptedRng([1]))
    with pytest.raises(Malformed):
        d.begin_downtime(make_world(), {9: make_sheet("X")}, DowntimePlace.HOME, ScriptedRng([1]))


def test_a_player_without_a_character_still_votes_and_ticks_but_takes_no_actions() -> None:
    chars = {ALICE: make_sheet("Ash"), BOB: make_sheet("Bee")}
    state = start(chars=chars)
    assert DowntimeKind.SEEK_RECOVERY not in d.allowed_actions(state)[CARA]
    with pytest.raises(NotAllowedNow):
        do(state, CARA, d.SeekRecovery(), 3)
    state = do(state, CARA, d.TickCollateral("a"))


# -------------------------------------------------------------------- free actions


def hurt(sheet: Character, *harms: str, points: int = 0) -> Character:
    for h in harms:
        sheet = sheet.add_harm(h)
    return replace(sheet, recovery_points=points)


def test_recover_harm_costs_as_many_points_as_harms_held() -> None:
    chars = sheets()
    chars[ALICE] = hurt(chars[ALICE], "Broken wrist", "Embarrassed", points=4)
    state, events = d.apply(
        start(chars=chars),
        ALICE,
        d.RecoverHarm(((0, "Stiff wrist"), (0, "Bashful"))),
        ScriptedRng([]),
    )
    sheet = state.sheet(ALICE)
    assert sheet.harms == () and sheet.scars == ("Stiff wrist", "Bashful")
    assert sheet.recovery_points == 1  # 2 for the first (two harms), 1 for the second
    assert [e.cost for e in events if isinstance(e, d.HarmRecovered)] == [2, 1]


def test_recover_harm_is_refused_when_points_run_short_and_changes_nothing() -> None:
    chars = sheets()
    chars[ALICE] = hurt(chars[ALICE], "Cut", "Bruised", points=2)
    state = start(chars=chars)
    with pytest.raises(NotAllowedNow):
        d.apply(state, ALICE, d.RecoverHarm(((0, "Scar"), (0, "Scar 2"))), ScriptedRng([]))
    assert state.sheet(ALICE).harms == ("Cut", "Bruised")


def test_free_actions_only_once_per_downtime() -> None:
    chars = sheets()
    chars[ALICE] = hurt(chars[ALICE], "Cut", "Bruised", points=4)
    state = do(start(chars=chars), ALICE, d.RecoverHarm(((0, "Scar"),)))
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.RecoverHarm(((0, "Scar"),)))
    assert state.budget(ALICE).actions_left == 1  # free: no action spent


def test_upgrade_skills_raises_ready_skills_by_one() -> None:
    chars = sheets()
    sheet = chars[BOB]
    for aspect in Aspect:
        sheet = sheet.mark_skill(0, aspect)
    chars[BOB] = sheet
    state, events = d.apply(start(chars=chars), BOB, d.UpgradeSkills(), ScriptedRng([]))
    assert state.sheet(BOB).skills[0].modifier == 2
    assert state.sheet(BOB).skills[0].marked == frozenset()
    assert events == (d.SkillUpgraded(BOB, "Climbing", 2),)
    with pytest.raises(NotAllowedNow):
        do(state, BOB, d.UpgradeSkills())


def test_upgrade_needs_all_three_boxes() -> None:
    with pytest.raises(NotAllowedNow):
        do(start(), BOB, d.UpgradeSkills())
    with pytest.raises(NotAllowedNow):
        do(start(), BOB, d.UpgradeSkills((1,)))


# ------------------------------------------------------------- long-term project


def test_long_term_project_marks_the_difference_of_mood_and_aspect() -> None:
    # Careful is on a d8; Mind is a d6. Mood 7, aspect 2: five segments.
    action = d.WorkOnProject(mood=0, aspect=Aspect.MIND, new=d.NewProject("Learn carpentry", 6))
    state, events = d.apply(start(), ALICE, action, ScriptedRng([7, 2]))
    project = state.world.projects[0]
    assert (project.name, project.segments, project.filled) == ("Learn carpentry", 6, 5)
    assert d.ProjectProgressed("P1", 7, 2, 0, 5, 5, 6) in events
    assert state.budget(ALICE).actions_left == 0


def test_project_clocks_have_four_six_or_eight_segments() -> None:
    for size in (4, 6, 8):
        do(start(), ALICE, d.WorkOnProject(0, Aspect.MIND, new=d.NewProject("x", size)), 1, 1)
    with pytest.raises(Malformed):
        do(start(), ALICE, d.WorkOnProject(0, Aspect.MIND, new=d.NewProject("x", 5)), 1, 1)


def test_a_skill_widens_the_gap_and_marks_its_box() -> None:
    action = d.WorkOnProject(0, Aspect.BODY, new=d.NewProject("Dig a well", 8), skill=0)
    state, events = d.apply(start(), ALICE, action, ScriptedRng([5, 3]))
    assert d.ProjectProgressed("P1", 5, 3, -1, 3, 3, 8) in events
    assert Aspect.BODY in state.sheet(ALICE).skills[0].marked


def test_an_existing_project_fills_up_and_completes() -> None:
    state = do(start(), ALICE, d.WorkOnProject(0, Aspect.MIND, new=d.NewProject("Map", 4)), 3, 1)
    state = do(state, ALICE, d.SpendMoreTime(("a",)), 1)
    state, events = d.apply(
        state, ALICE, d.WorkOnProject(0, Aspect.MIND, project_id="P1"), ScriptedRng([8, 1])
    )
    assert state.world.project("P1").complete and state.world.project("P1").filled == 4
    assert d.ProjectCompleted("P1") in events


def test_a_finished_project_tied_to_a_resource_lifts_it_one_step() -> None:
    new = d.NewProject("Fix the pump", 4, resource="seeds", card_id="a")
    state = do(start(), ALICE, d.WorkOnProject(0, Aspect.MIND, new=new), 6, 1)
    assert state.world.resource("seeds").level is ResourceLevel.NEUTRAL


def test_an_r1_project_lifts_a_scarcity_to_neutral_at_most() -> None:
    world = make_world()
    world = world.with_card(replace(world.card("a"), reward=RewardLevel.R1))
    world, _ = w.improve_resource(world, "seeds")
    new = d.NewProject("Decode the tablets", 4, resource="seeds", card_id="a")
    state = do(start(world=world), ALICE, d.WorkOnProject(0, Aspect.MIND, new=new), 6, 1)
    assert state.world.resource("seeds").level is ResourceLevel.NEUTRAL


def test_project_needs_exactly_one_of_existing_or_new_and_a_written_mood() -> None:
    with pytest.raises(Malformed):
        do(start(), ALICE, d.WorkOnProject(0, Aspect.MIND), 1, 1)
    with pytest.raises(NotAllowedNow):
        do(start(), ALICE, d.WorkOnProject(1, Aspect.MIND, new=d.NewProject("x", 4)), 1, 1)


# ----------------------------------------------------------------- reconnect


def with_sentiment(state_: SentimentState) -> dict[int, Character]:
    chars = sheets()
    sheet = chars[ALICE]
    if state_ is not SentimentState.CONNECTED:
        sheet = sheet.endanger_sentiment(0)
    if state_ is SentimentState.LOST:
        sheet = sheet.endanger_sentiment(0)
    chars[ALICE] = sheet
    return chars


def test_reconnect_with_a_lost_sentiment_raises_mood_by_three_to_at_risk() -> None:
    state, events = d.apply(
        start(chars=with_sentiment(SentimentState.LOST)), ALICE, d.Reconnect(0, 2), ScriptedRng([])
    )
    assert state.sheet(ALICE).sentiment(0).state is SentimentState.AT_RISK
    assert state.sheet(ALICE).mood(2).level == 3
    assert events[0].mood_raised_by == 3  # type: ignore[union-attr]


def test_clearing_at_risk_raises_mood_by_two() -> None:
    state = do(start(chars=with_sentiment(SentimentState.AT_RISK)), ALICE, d.Reconnect(0, 0))
    assert state.sheet(ALICE).sentiment(0).state is SentimentState.CONNECTED
    assert state.sheet(ALICE).mood(0).level == 2


def test_forging_a_new_sentiment_raises_mood_by_four() -> None:
    state = do(
        start(chars=with_sentiment(SentimentState.LOST)), ALICE, d.Reconnect(0, 0, forge="My crew")
    )
    assert state.sheet(ALICE).sentiment(0).name == "My crew"
    assert state.sheet(ALICE).sentiment(0).state is SentimentState.CONNECTED
    assert state.sheet(ALICE).mood(0).level == 4


def test_reconnect_fixes_one_sentiment_per_action() -> None:
    state = do(start(chars=with_sentiment(SentimentState.LOST)), ALICE, d.Reconnect(0, 0))
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.Reconnect(0, 0))  # no action left


def test_a_connected_sentiment_needs_no_reconnecting() -> None:
    with pytest.raises(NotAllowedNow):
        do(start(), ALICE, d.Reconnect(0, 0))
    with pytest.raises(NotAllowedNow):
        do(start(), ALICE, d.Reconnect(0, 0, forge="New"))  # only over a lost line


def test_ruling23_a_reconnect_that_marks_the_last_box_fills_the_track() -> None:
    chars = with_sentiment(SentimentState.LOST)
    chars[ALICE] = chars[ALICE].raise_mood(4, 3)  # Angry on a d4: 5 boxes
    state, events = d.apply(start(chars=chars), ALICE, d.Reconnect(0, 4), ScriptedRng([]))
    assert events[0].mood_track_full  # type: ignore[union-attr]
    assert events[1] == d.MoodTrackFilled(ALICE, 4, "Angry", sentiment_to_mark=True)
    assert state.sheet(ALICE).mood(4).level == 0  # reset at once
    assert state.budget(ALICE).filled == d.FilledTrack(4, endanger=True)
    assert d.allowed_actions(state)[ALICE] >= {
        DowntimeKind.ENDANGER_SENTIMENT,
        DowntimeKind.RENAME_MOOD,
    }


# --------------------------------------------------------------- introspection


def moody() -> dict[int, Character]:
    chars = sheets()
    chars[ALICE] = chars[ALICE].raise_mood(0, 5).raise_mood(2, 2)
    return chars


def test_introspection_rolls_heart_and_clears_that_many_boxes() -> None:
    state, events = d.apply(start(chars=moody()), ALICE, d.Introspect(), ScriptedRng([4]))
    assert events == (d.IntrospectionRolled(ALICE, 4),)
    state = do(state, ALICE, d.ReduceMood(0, 3))
    state = do(state, ALICE, d.ReduceMood(2, 1))
    assert (state.sheet(ALICE).mood(0).level, state.sheet(ALICE).mood(2).level) == (2, 1)
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.ReduceMood(0, 1))  # all four used
    state = do(state, ALICE, d.FinishIntrospection())
    assert state.budget(ALICE).introspection is None


def test_introspection_cannot_clear_more_than_is_marked() -> None:
    state = do(start(chars=moody()), ALICE, d.Introspect(), 4)
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.ReduceMood(2, 3))


def test_introspection_may_swap_two_moods_with_their_levels() -> None:
    state = do(start(chars=moody()), ALICE, d.Introspect(), 1)
    state = do(state, ALICE, d.SwapMoods(0, 2))
    sheet = state.sheet(ALICE)
    assert (sheet.mood(0).name, sheet.mood(0).die, sheet.mood(0).level) == ("Curious", Die.D8, 2)
    assert (sheet.mood(2).name, sheet.mood(2).die, sheet.mood(2).level) == ("Careful", Die.D6, 5)
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.SwapMoods(0, 4))  # one swap


def test_introspection_may_replace_a_mood_at_level_zero() -> None:
    state = do(start(chars=moody()), ALICE, d.Introspect(), 1)
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.ReplaceMood(0, "Bold"))  # level 5
    state = do(state, ALICE, d.ReplaceMood(4, "Wistful"))
    assert state.sheet(ALICE).mood(4).name == "Wistful"
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.ReplaceMood(4, "Calm"))


def test_while_introspecting_nothing_else_and_downtime_cannot_end() -> None:
    state = do(start(chars=moody()), ALICE, d.Introspect(), 1)
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.RecoverHarm(((0, "x"),)))
    with pytest.raises(NotAllowedNow):
        do(state, BOB, d.EndDowntime())
    with pytest.raises(NotAllowedNow):
        do(start(), ALICE, d.ReduceMood(0, 1))


# --------------------------------------------------------------- collateral


def propose(state: DowntimeState, card: str = "b") -> DowntimeState:
    return do(state, ALICE, d.ProposePlan(card, "Rebuild the dam with the river folk"))


def test_address_collateral_gets_plus_one_per_supporter_minus_one_per_dissenter() -> None:
    state = propose(start())
    state = do(state, BOB, d.VoteOnPlan(True))
    state = do(state, CARA, d.VoteOnPlan(False))
    assert state.plan is not None and state.plan.modifier == 0
    with pytest.raises(NotAllowedNow):
        do(state, BOB, d.VoteOnPlan(True))


def test_the_proposer_does_not_vote_and_rolls_only_after_everyone_weighed_in() -> None:
    state = propose(start())
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.VoteOnPlan(True))
    state = do(state, BOB, d.VoteOnPlan(True))
    with pytest.raises(NotYourTurn):
        do(state, ALICE, d.RollForPlan(), 6)
    state = do(state, CARA, d.VoteOnPlan(True))
    with pytest.raises(NotYourTurn):
        do(state, BOB, d.RollForPlan(), 6)


def test_collateral_drops_by_mind_plus_modifiers_minus_the_level() -> None:
    # b has 5 ticks; Mind is a d6 rolling 6, two supporters: 8 - 5 = 3 ticks off.
    state = do(do(propose(start()), BOB, d.VoteOnPlan(True)), CARA, d.VoteOnPlan(True))
    state, events = d.apply(state, ALICE, d.RollForPlan(), ScriptedRng([6]))
    assert d.PlanDieRolled(ALICE, Aspect.MIND, 6, 8, 3) in events
    state, events = d.apply(state, ALICE, d.SettlePlan(), ScriptedRng([]))
    assert state.world.card("b").clock.ticks == 2
    assert events == (d.PlanSettled("b", 3, 5, 2),)
    assert state.plan is None


def test_a_negative_result_makes_things_worse() -> None:
    state = do(do(propose(start()), BOB, d.VoteOnPlan(False)), CARA, d.VoteOnPlan(False))
    state = do(state, ALICE, d.RollForPlan(), 2)  # 2 - 2 - 5 = -5
    state = do(state, ALICE, d.SettlePlan())
    assert state.world.card("b").clock.ticks == 8  # 5 + 5, stopped at 8


def test_an_extra_downtime_action_adds_another_die_to_the_total() -> None:
    state = do(do(propose(start()), BOB, d.VoteOnPlan(True)), CARA, d.VoteOnPlan(True))
    state = do(state, ALICE, d.RollForPlan(), 4)  # 6 - 5 = 1
    state, events = d.apply(state, BOB, d.AddDieToPlan(Aspect.HEART), ScriptedRng([4]))
    # Bob spent his action; total 10, result 5 >= level: settled at once, clock empty.
    assert state.budget(BOB).actions_left == 0
    assert state.world.card("b").clock.ticks == 0
    assert isinstance(events[-1], d.PlanSettled)


def test_adding_a_die_needs_a_rolled_plan_and_an_action_left() -> None:
    state = propose(start())
    with pytest.raises(NotAllowedNow):
        do(state, BOB, d.AddDieToPlan(Aspect.BODY), 3)
    state = do(do(state, BOB, d.VoteOnPlan(True)), CARA, d.VoteOnPlan(True))
    state = do(state, ALICE, d.RollForPlan(), 1)
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.AddDieToPlan(Aspect.BODY), 3)  # Alice's action went on the plan


def test_collateral_level_is_the_clock_when_rolled() -> None:
    state = do(do(propose(start()), BOB, d.VoteOnPlan(True)), CARA, d.VoteOnPlan(True))
    state = do(state, CARA, d.TickCollateral("b"))  # now 6
    state = do(state, ALICE, d.RollForPlan(), 6)  # 8 - 6 = 2
    assert state.plan is not None and state.plan.level == 6 and state.plan.result == 2


def test_the_plan_can_pivot_to_a_long_term_project() -> None:
    state = propose(start())
    state, events = d.apply(
        state, ALICE, d.PivotPlan("Win the river folk over", 6), ScriptedRng([])
    )
    assert state.plan is None and state.world.projects[0].segments == 6
    assert isinstance(events[0], d.PlanPivoted)
    assert state.budget(ALICE).actions_left == 0


def test_collateral_only_where_the_party_has_been_and_harm_was_done() -> None:
    with pytest.raises(NotAllowedNow):
        propose(start(), "c")  # face down
    with pytest.raises(NotAllowedNow):
        propose(start(world=make_world(a_ticks=0)), "a")  # nothing to undo


def test_one_plan_at_a_time_and_downtime_waits_for_it() -> None:
    state = propose(start())
    with pytest.raises(NotAllowedNow):
        do(state, BOB, d.ProposePlan("a", "Another plan"))
    with pytest.raises(NotAllowedNow):
        do(state, BOB, d.EndDowntime())


# -------------------------------------------------------------------- train


def test_train_skills_marks_the_rolled_number_of_skills() -> None:
    action = d.TrainSkills(Aspect.MIND, (2, 0, 1))
    state, events = d.apply(start(), BOB, action, ScriptedRng([2]))
    skills = state.sheet(BOB).skills
    assert [Aspect.MIND in s.marked for s in skills] == [True, False, True]
    assert events == (d.SkillsTrained(BOB, Aspect.MIND, 2, ("Tinkering", "Climbing")),)


def test_train_skills_needs_real_distinct_skills() -> None:
    with pytest.raises(Malformed):
        do(start(), BOB, d.TrainSkills(Aspect.MIND, ()), 2)
    with pytest.raises(Malformed):
        do(start(), BOB, d.TrainSkills(Aspect.MIND, (0, 0)), 2)
    with pytest.raises(Malformed):
        do(start(), BOB, d.TrainSkills(Aspect.MIND, (5,)), 2)


# ------------------------------------------------------------- seek recovery


def test_seek_recovery_rolls_body_for_recovery_points() -> None:
    state, events = d.apply(start(), CARA, d.SeekRecovery(), ScriptedRng([3]))
    assert state.sheet(CARA).recovery_points == 3
    assert events == (d.RecoverySought(CARA, (3,), 0, None, 0, 3, 3),)


def test_a_healer_rolls_body_twice_and_skills_and_a_helper_add() -> None:
    action = d.SeekRecovery(healer=True, skills=(0,), helper=BOB, helper_skills=(1,))
    state, events = d.apply(start(), CARA, action, ScriptedRng([1, 1, 1]))
    # 1 + 1 body, +1 skill, helper Heart 1 (d4) +1 skill = 5, capped at 4.
    assert events == (d.RecoverySought(CARA, (1, 1), 1, 1, 1, 5, 4),)
    assert state.sheet(CARA).recovery_points == 4
    assert state.budget(BOB).actions_left == 1  # helping costs the helper nothing


def test_seek_recovery_helper_is_someone_else() -> None:
    with pytest.raises(Malformed):
        do(start(), CARA, d.SeekRecovery(helper=CARA), 1, 1)
    with pytest.raises(Malformed):
        do(start(), CARA, d.SeekRecovery(helper_skills=(0,)), 1)


# -------------------------------------------------------------------- scout


def test_scout_wins_and_looks_privately() -> None:
    state, events = d.apply(start(), BOB, d.Scout("c", outcome(Winner.PLAYER)), ScriptedRng([]))
    assert events == (d.ScoutLooked(BOB, "c"),)
    card = state.world.card("c")
    assert not card.revealed
    assert w.visible_card(card, BOB).face_visible
    assert not w.visible_card(card, ALICE).face_visible


def test_scout_loses_and_chooses_to_press_on_or_turn_back() -> None:
    state, events = d.apply(start(), BOB, d.Scout("c", outcome(Winner.ARBITERS)), ScriptedRng([]))
    assert events == (d.ScoutTurnedBack(BOB, "c"),)
    assert BOB not in state.world.card("c").scouted_by
    assert state.budget(BOB).actions_left == 0
    state = do(start(), BOB, d.Scout("c", outcome(Winner.TIE), accept_details=True))
    assert BOB in state.world.card("c").scouted_by


def test_scout_only_face_down_cards_close_enough() -> None:
    with pytest.raises(NotAllowedNow):
        do(start(), BOB, d.Scout("a", outcome(Winner.PLAYER)))  # face up already
    with pytest.raises(NotAllowedNow):
        do(start(), BOB, d.Scout("d", outcome(Winner.PLAYER)))  # not next to a


def test_scouting_from_home_reaches_through_known_places() -> None:
    state = start(DowntimePlace.HOME)
    state = do(state, BOB, d.Scout("d", outcome(Winner.PLAYER)))  # home is off the map
    assert BOB in state.world.card("d").scouted_by


# ---------------------------------------------------------------- overcome


def test_an_overcome_character_must_recover_before_doing_anything_else() -> None:
    chars = sheets()
    chars[ALICE] = hurt(chars[ALICE], "a", "b", "c", "d", points=0)
    state = start(chars=chars)
    with pytest.raises(NotAllowedNow, match="Overcome"):
        do(state, ALICE, d.TrainSkills(Aspect.MIND, (0,)), 1)
    state = do(state, ALICE, d.SeekRecovery(healer=True), 8, 8)
    assert state.sheet(ALICE).recovery_points == 4
    state = do(state, ALICE, d.RecoverHarm(((0, "Limp"),)))
    assert not state.sheet(ALICE).overcome


# ------------------------------------------------------------- rewards home


def test_an_r4_reward_turns_a_scarcity_into_an_abundance() -> None:
    world = make_world()
    world = world.with_card(replace(world.card("a"), reward=RewardLevel.R4))
    state = do(start(world=world), ALICE, d.BringRewardHome("a", "tools"))
    assert state.world.resource("tools").level is ResourceLevel.ABUNDANCE
    with pytest.raises(NotAllowedNow):
        do(state, ALICE, d.BringRewardHome("a", "seeds"))


def test_an_r2_reward_needs_a_project_and_an_r3_can_make_a_new_abundance() -> None:
    world = make_world()
    world = world.with_card(replace(world.card("a"), reward=RewardLevel.R2))
    state, events = d.apply(
        start(world=world), ALICE, d.BringRewardHome("a", "seeds"), ScriptedRng([])
    )
    assert state.world.resource("seeds").level is ResourceLevel.SCARCITY
    assert events[0] == d.RewardBroughtHome("a", "seeds", 0, needs_project=True)
    state = do(start(), ALICE, d.BringRewardHome("b", "music"))  # b is R3
    assert state.world.resource("music").level is ResourceLevel.ABUNDANCE


# -------------------------------------------------------------- end, refusals


def test_ending_downtime_closes_everything() -> None:
    state = do(start(), BOB, d.EndDowntime())
    assert state.ended and d.allowed_actions(state) == {}
    with pytest.raises(NotAllowedNow):
        do(state, BOB, d.SeekRecovery(), 1)


def test_only_one_downtime_action_without_more_time() -> None:
    state = do(start(), CARA, d.SeekRecovery(), 1)
    with pytest.raises(NotAllowedNow, match="spend more time"):
        do(state, CARA, d.SeekRecovery(), 1)


def test_strangers_are_refused() -> None:
    with pytest.raises(NotAllowedNow):
        do(start(), 99, d.TickCollateral("a"))


# ------------------------------------------------------------- serialising


def test_downtime_round_trips_through_json() -> None:
    state = do(start(chars=moody()), CARA, d.SpendMoreTime(("a", "b")), 2, 3)
    state = do(state, BOB, d.WorkOnProject(0, Aspect.MIND, new=d.NewProject("Map", 8)), 5, 1)
    state = do(state, ALICE, d.Introspect(), 2)
    state = do(state, CARA, d.ProposePlan("b", "Replant"))
    state = do(state, BOB, d.VoteOnPlan(True))
    data = json.loads(json.dumps(state.to_dict()))
    assert DowntimeState.from_dict(data) == state


def test_bad_stored_downtime_is_malformed() -> None:
    with pytest.raises(Malformed):
        DowntimeState.from_dict({"version": 1})


# -------------------------------------------------------------- properties

PLAYERS = (ALICE, BOB, CARA, 99)


def downtime_actions() -> st.SearchStrategy[d.DowntimeAction]:
    idx = st.integers(-1, 6)
    cards = st.sampled_from(["a", "b", "c", "d", "zz"])
    aspects = st.sampled_from(list(Aspect))
    return st.one_of(
        st.builds(d.RecoverHarm, st.lists(st.tuples(idx, st.just("Scar")), max_size=2).map(tuple)),
        st.builds(d.UpgradeSkills, st.lists(idx, max_size=2).map(tuple)),
        st.builds(
            d.WorkOnProject,
            idx,
            aspects,
            st.none() | st.just("P1"),
            st.none() | st.builds(d.NewProject, st.just("Proj"), st.sampled_from([4, 5, 8])),
            st.none() | idx,
        ),
        st.builds(d.Reconnect, idx, idx, st.none() | st.just("New bond")),
        st.just(d.Introspect()),
        st.builds(d.ReduceMood, idx, st.integers(0, 4)),
        st.builds(d.SwapMoods, idx, idx),
        st.builds(d.ReplaceMood, idx, st.just("Calm")),
        st.just(d.FinishIntrospection()),
        st.builds(d.EndangerSentiment, idx),
        st.builds(d.RenameMood, st.sampled_from(["Furious", " ", "x" * 200])),
        st.builds(d.ProposePlan, cards, st.just("A plan")),
        st.builds(d.VoteOnPlan, st.booleans()),
        st.builds(d.PivotPlan, st.just("Pivot"), st.sampled_from([4, 6, 7])),
        st.just(d.RollForPlan()),
        st.builds(d.AddDieToPlan, aspects),
        st.just(d.SettlePlan()),
        st.builds(d.TrainSkills, aspects, st.lists(idx, max_size=3).map(tuple)),
        st.builds(d.SeekRecovery, st.booleans(), st.just(()), st.none() | st.sampled_from(PLAYERS)),
        st.builds(
            d.Scout,
            cards,
            st.sampled_from(list(Winner)).map(outcome),
            st.booleans(),
        ),
        st.builds(d.SpendMoreTime, st.lists(cards, max_size=2).map(tuple)),
        st.builds(d.TickCollateral, cards, st.integers(0, 3)),
        st.builds(d.UntickCollateral, cards, st.integers(0, 3)),
        st.builds(d.BringRewardHome, cards, st.sampled_from(["seeds", "gold"])),
        st.just(d.EndDowntime()),
    )


def check(state: DowntimeState) -> None:
    for c in state.world.cards:
        assert 0 <= c.clock.ticks <= 8
    for b in state.players:
        assert b.actions_left >= 0
    for _, sheet in state.sheets:
        assert 0 <= sheet.recovery_points <= 4
        assert not any(m.track_full for m in sheet.moods)  # ruling 23: never left full
    for b in state.players:
        if b.filled is not None:
            assert b.filled.endanger or b.filled.rename
    assert sum(r.level is ResourceLevel.ABUNDANCE for r in state.world.resources) >= 1
    for p in state.world.projects:
        assert 0 <= p.filled <= p.segments


MOVES = st.lists(st.tuples(st.sampled_from(PLAYERS), downtime_actions()), max_size=40)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(DowntimePlace)), MOVES, st.integers(0, 1000))
def test_no_sequence_of_downtime_actions_breaks_the_invariants(
    place: DowntimePlace, moves: list[tuple[int, d.DowntimeAction]], seed: int
) -> None:
    _play_and_check(place, moves, seed)


@pytest.mark.slow
@settings(max_examples=thorough_examples(600, 150), deadline=None)
@given(st.sampled_from(list(DowntimePlace)), MOVES, st.integers(0, 1000))
def test_many_more_downtime_sequences_keep_the_invariants(
    place: DowntimePlace, moves: list[tuple[int, d.DowntimeAction]], seed: int
) -> None:
    _play_and_check(place, moves, seed)


def _play_and_check(
    place: DowntimePlace, moves: list[tuple[int, d.DowntimeAction]], seed: int
) -> None:
    chars = moody()
    chars[BOB] = hurt(chars[BOB], "Cut", "Bruise", points=3)
    state, _ = d.begin_downtime(make_world(), chars, place, SeededRng(seed))
    rng = SeededRng(seed + 1)
    for actor, action in moves:
        before = state
        allowed = d.allowed_actions(state)
        try:
            state, _ = d.apply(state, actor, action, rng)
        except (Malformed, NotAllowedNow):
            assert state == before
            continue
        assert action.kind in allowed[actor]
        spent = (
            before.budget(actor).actions_left - state.budget(actor).actions_left
            if any(p == actor for p, _ in state.sheets)
            else 0
        )
        assert spent <= 1
        check(state)
    check(state)
    assert DowntimeState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_an_r3_reward_lifts_a_scarcity_to_neutral_at_once() -> None:
    state, events = d.apply(start(), ALICE, d.BringRewardHome("b", "medicine"), ScriptedRng([]))
    assert state.world.resource("medicine").level is ResourceLevel.NEUTRAL
    assert events[0] == d.RewardBroughtHome("b", "medicine", 1, needs_project=False)
