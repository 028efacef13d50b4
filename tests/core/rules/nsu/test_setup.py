"""Worldbuilding, step by step, with turns and refusals."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.nsu import setup as s
from core.rules.nsu import world as w
from core.rules.nsu.campaign import NsuCampaign
from core.rules.nsu.cards_page import page_choices
from core.rules.nsu.setup import (
    ActionKind,
    AgreeTone,
    AnswerScope,
    AuthorLocation,
    BanElement,
    ChooseAbundance,
    ChooseFirstSpeaker,
    DealMap,
    DeclareCardFull,
    FinishScope,
    MakeStatement,
    NameResource,
    PassBan,
    PassStatement,
    ProposeTone,
    RollDangerAndReward,
    SetupState,
    SetupStep,
)
from core.rules.nsu.world import ResourceLevel, SafetyTool, ScopeQuestion
from core.rules.rng import ScriptedRng, SeededRng
from tests.support.examples import thorough_examples

ALICE, BOB, CARA = 11, 22, 33
TOOLS = frozenset({SafetyTool.X_CARD, SafetyTool.LINES_AND_VEILS})


def act(state: SetupState, actor: int, action: s.SetupAction, rng: object = None) -> SetupState:
    new, _ = s.apply(state, actor, action, rng)  # type: ignore[arg-type]
    return new


def at_bans() -> SetupState:
    st_ = s.new_setup([ALICE, BOB, CARA])
    st_ = act(st_, ALICE, ProposeTone("hopeful, odd, cartoon logic", TOOLS))
    st_ = act(st_, BOB, AgreeTone())
    return act(st_, CARA, AgreeTone())


def at_settlement() -> SetupState:
    st_ = at_bans()
    st_ = act(st_, ALICE, BanElement("dragons"))
    st_ = act(st_, BOB, PassBan())
    return act(st_, CARA, BanElement("time travel"))


def at_scope() -> SetupState:
    st_ = at_settlement()
    st_ = act(st_, ALICE, MakeStatement("The roads form a grid"))
    st_ = act(st_, BOB, MakeStatement("The grid glows at night", builds_on=0))
    st_ = act(st_, CARA, PassStatement())
    return act(st_, ALICE, PassStatement())


def at_resources() -> SetupState:
    st_ = at_scope()
    st_ = act(st_, BOB, AnswerScope(ScopeQuestion.TRAVEL_TIME, "A day between cards"))
    return act(st_, CARA, FinishScope())


def at_abundance() -> SetupState:
    st_ = at_resources()
    for p, name in (
        (ALICE, "water"),
        (BOB, "seeds"),
        (CARA, "songs"),
        (ALICE, "tools"),
        (BOB, "light"),
    ):
        st_ = act(st_, p, NameResource(name))
    return st_


def location(n: int) -> AuthorLocation:
    return AuthorLocation(f"Place {n}", f"Secret {n}", f"Harm {n}", f"Danger {n}", f"Treasure {n}")


def at_locations() -> SetupState:
    return act(at_abundance(), CARA, ChooseAbundance("Water"))


def at_map() -> SetupState:
    st_ = at_locations()
    for n, p in enumerate((ALICE, BOB, CARA, CARA, BOB, ALICE), start=1):
        st_ = act(st_, p, location(n))
    return st_


def built() -> SetupState:
    st_ = act(at_map(), BOB, DealMap(3), SeededRng(7))
    return act(st_, ALICE, RollDangerAndReward(), SeededRng(8))


# ------------------------------------------------------------------------ start


def test_two_to_five_players_build_a_world() -> None:
    assert s.new_setup([1, 2]).step is SetupStep.TONE
    assert s.new_setup([1, 2, 3, 4, 5]).players == (1, 2, 3, 4, 5)
    with pytest.raises(Malformed):
        s.new_setup([1])
    with pytest.raises(Malformed):
        s.new_setup([1, 2, 3, 4, 5, 6])
    with pytest.raises(Malformed):
        s.new_setup([1, 1])


def test_steps_follow_the_worldbuilding_order() -> None:
    assert s.expected_step_order() == (
        SetupStep.TONE,
        SetupStep.BANS,
        SetupStep.SETTLEMENT,
        SetupStep.SCOPE,
        SetupStep.RESOURCES,
        SetupStep.ABUNDANCE,
        SetupStep.LOCATIONS,
        SetupStep.MAP,
        SetupStep.DANGER_AND_REWARD,
        SetupStep.DONE,
    )
    assert all(s.describe_step(step) for step in SetupStep)


def test_strangers_cannot_act() -> None:
    with pytest.raises(NotAllowedNow):
        s.apply(s.new_setup([ALICE, BOB]), 99, ProposeTone("x", TOOLS))


# ------------------------------------------------------------------------- tone


def test_tone_talk_needs_everyone_to_agree_on_tone_and_safety_tools() -> None:
    state = s.new_setup([ALICE, BOB, CARA])
    state, events = s.apply(state, ALICE, ProposeTone("weird like a cartoon", TOOLS))
    assert s.ToneProposed(ALICE, "weird like a cartoon", TOOLS) in events
    state = act(state, BOB, AgreeTone())
    assert state.step is SetupStep.TONE
    state, events = s.apply(state, CARA, AgreeTone())
    assert state.step is SetupStep.BANS and s.StepStarted(SetupStep.BANS) in events
    assert state.world.safety_tools == TOOLS and state.world.tone == "weird like a cartoon"


def test_a_new_tone_proposal_resets_agreement() -> None:
    state = act(s.new_setup([ALICE, BOB, CARA]), ALICE, ProposeTone("grim", TOOLS))
    state = act(state, BOB, AgreeTone())
    state = act(state, CARA, ProposeTone("grim but funny", TOOLS))
    assert state.agreed == {CARA}
    assert ActionKind.AGREE_TONE in s.allowed_actions(state)[BOB]


def test_tone_needs_a_safety_tool_and_words() -> None:
    state = s.new_setup([ALICE, BOB])
    with pytest.raises(Malformed):
        s.apply(state, ALICE, ProposeTone("grim", frozenset()))
    with pytest.raises(Malformed):
        s.apply(state, ALICE, ProposeTone("  ", TOOLS))


def test_cannot_agree_before_a_proposal_or_twice() -> None:
    state = s.new_setup([ALICE, BOB, CARA])
    with pytest.raises(NotAllowedNow):
        s.apply(state, BOB, AgreeTone())
    state = act(state, ALICE, ProposeTone("grim", TOOLS))
    with pytest.raises(NotAllowedNow):
        s.apply(state, ALICE, AgreeTone())


# ------------------------------------------------------------------------- bans


def test_each_player_bans_one_element_or_passes() -> None:
    state = at_bans()
    state = act(state, BOB, BanElement("magic"))
    with pytest.raises(NotYourTurn):
        s.apply(state, BOB, BanElement("robots"))
    state = act(state, ALICE, PassBan())
    state, events = s.apply(state, CARA, BanElement("dungeons"))
    assert [b.text for b in state.world.bans] == ["magic", "dungeons"]
    assert state.step is SetupStep.SETTLEMENT
    assert s.BanChosen(CARA, "dungeons") in events


def test_passing_on_a_ban_is_fine_for_everyone() -> None:
    state = at_bans()
    for p in (ALICE, BOB, CARA):
        state = act(state, p, PassBan())
    assert state.world.bans == () and state.step is SetupStep.SETTLEMENT


def test_the_same_ban_twice_is_refused() -> None:
    state = act(at_bans(), ALICE, BanElement("Dragons"))
    with pytest.raises(NotAllowedNow):
        s.apply(state, BOB, BanElement("dragons"))


# ------------------------------------------------------------------- settlement


def test_settlement_turns_go_round_the_table_from_the_first_player() -> None:
    state = at_settlement()
    assert state.speaker == ALICE
    state, events = s.apply(state, ALICE, MakeStatement("The wall is glass"))
    assert events[-1] == s.SpeakerUp(BOB)
    with pytest.raises(NotYourTurn):
        s.apply(state, CARA, MakeStatement("It hums"))


def test_the_table_can_choose_who_goes_first() -> None:
    state = act(at_settlement(), BOB, ChooseFirstSpeaker(CARA))
    assert state.speaker == CARA
    state = act(state, CARA, MakeStatement("Everyone keeps bees"))
    assert state.speaker == ALICE
    with pytest.raises(NotAllowedNow):
        s.apply(state, BOB, ChooseFirstSpeaker(BOB))


def test_a_statement_can_build_on_an_earlier_one() -> None:
    state = act(at_settlement(), ALICE, MakeStatement("The roads form a grid"))
    state = act(state, BOB, MakeStatement("Only at night", builds_on=0))
    assert state.world.settlement[1].builds_on == 0
    with pytest.raises(Malformed):
        s.apply(state, CARA, MakeStatement("x", builds_on=5))


def test_ruling21_two_players_passing_in_a_row_end_the_settlement() -> None:
    state = act(at_settlement(), ALICE, MakeStatement("Bees"))
    state = act(state, BOB, PassStatement())
    state, events = s.apply(state, CARA, PassStatement())
    assert state.step is SetupStep.SCOPE
    assert s.SettlementFinished(s.SettlementEnd.TWO_PASSES) in events


def test_ruling21_a_player_who_passed_may_speak_again_next_round() -> None:
    state = act(at_settlement(), ALICE, PassStatement())
    state = act(state, BOB, MakeStatement("Bees"))  # breaks the run of passes
    state = act(state, CARA, PassStatement())
    state = act(state, ALICE, MakeStatement("Honey is money"))  # passed last round
    assert state.step is SetupStep.SETTLEMENT
    assert [x.author_id for x in state.world.settlement] == [BOB, ALICE]


def test_a_full_card_ends_the_settlement() -> None:
    state = s.new_setup([ALICE, BOB], settlement_capacity=3)
    state = act(state, ALICE, ProposeTone("x", TOOLS))
    state = act(state, BOB, AgreeTone())
    state = act(act(state, ALICE, PassBan()), BOB, PassBan())
    for p, text in ((ALICE, "a"), (BOB, "b")):
        state = act(state, p, MakeStatement(text))
    state, events = s.apply(state, ALICE, MakeStatement("c"))
    assert state.step is SetupStep.SCOPE
    assert s.SettlementFinished(s.SettlementEnd.CARD_FULL) in events


def test_ruling21_any_player_may_say_the_card_is_full() -> None:
    state = act(at_settlement(), ALICE, MakeStatement("Bees"))
    with pytest.raises(NotAllowedNow):
        s.apply(at_settlement(), CARA, DeclareCardFull())  # an empty card isn't full
    state = act(state, CARA, DeclareCardFull())
    assert state.step is SetupStep.SCOPE


def test_ruling21_a_pass_then_a_statement_then_a_pass_is_not_two_in_a_row() -> None:
    state = act(at_settlement(), ALICE, PassStatement())
    state = act(state, BOB, MakeStatement("Bees"))
    state, events = s.apply(state, CARA, PassStatement())
    assert state.step is SetupStep.SETTLEMENT and state.passes_in_row == 1
    assert state.speaker == ALICE
    assert not any(isinstance(e, s.SettlementFinished) for e in events)


def test_ruling21_a_player_may_not_pass_twice_in_a_row_on_their_own() -> None:
    state = act(at_settlement(), ALICE, PassStatement())
    with pytest.raises(NotYourTurn):
        s.apply(state, ALICE, PassStatement())  # Bob speaks next: Alice's pass is one


SETTLEMENT_MOVES = st.lists(st.sampled_from(["say", "pass", "full"]), max_size=40)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5), st.integers(1, 12), SETTLEMENT_MOVES)
def test_ruling21_the_settlement_ends_at_the_first_two_passes_in_a_row_or_a_full_card(
    players: int, capacity: int, moves: list[str]
) -> None:
    seats = list(range(1, players + 1))
    state = s.new_setup(seats, settlement_capacity=capacity)
    state = act(state, 1, ProposeTone("x", TOOLS))
    for p in seats[1:]:
        state = act(state, p, AgreeTone())
    for p in seats:
        state = act(state, p, PassBan())
    assert state.step is SetupStep.SETTLEMENT
    said: list[str] = []
    last_pass = False
    turns = 0
    for number, move in enumerate(moves):
        if state.step is not SetupStep.SETTLEMENT:
            break
        speaker = state.speaker
        assert speaker == seats[turns % players]  # turns go round in seating order
        turns += move != "full"
        if move == "say":
            expected_end = len(said) + 1 >= capacity
            state, events = s.apply(state, speaker, MakeStatement(f"fact {number}"))
            said.append(f"fact {number}")
            last_pass = False
            reason = s.SettlementEnd.CARD_FULL
        elif move == "pass":
            expected_end = last_pass  # the previous player passed too
            state, events = s.apply(state, speaker, PassStatement())
            last_pass = True
            reason = s.SettlementEnd.TWO_PASSES
        else:
            anyone = seats[-1 - number % players]
            if not said:
                with pytest.raises(NotAllowedNow):
                    s.apply(state, anyone, DeclareCardFull())
                continue
            state, events = s.apply(state, anyone, DeclareCardFull())
            expected_end, reason = True, s.SettlementEnd.CARD_FULL
        finished = [e for e in events if isinstance(e, s.SettlementFinished)]
        assert bool(finished) == expected_end
        if finished:
            assert finished == [s.SettlementFinished(reason)]
            assert state.step is SetupStep.SCOPE
        else:
            # Whoever comes next may still make a statement, even after passing before.
            assert ActionKind.MAKE_STATEMENT in s.allowed_actions(state)[state.speaker]
    assert [x.text for x in state.world.settlement] == said


# ------------------------------------------------------------------------ scope


def test_scope_questions_and_free_notes_are_written_down() -> None:
    state = at_scope()
    state = act(state, ALICE, AnswerScope(ScopeQuestion.TRAVEL_TIME, "A day each"))
    state = act(state, BOB, AnswerScope(None, "Winters are deadly"))
    assert [a.question for a in state.world.scope] == [ScopeQuestion.TRAVEL_TIME, None]
    assert all(q.prompt for q in ScopeQuestion)
    state = act(state, CARA, FinishScope())
    assert state.step is SetupStep.RESOURCES


# -------------------------------------------------------------------- resources


def test_each_player_names_a_resource_then_the_table_fills_up_to_five() -> None:
    state = at_resources()
    state = act(state, ALICE, NameResource("water"))
    with pytest.raises(NotYourTurn):
        s.apply(state, ALICE, NameResource("seeds"))  # others name theirs first
    state = act(state, BOB, NameResource("seeds"))
    state = act(state, CARA, NameResource("songs"))
    state = act(state, CARA, NameResource("tools"))  # now anyone adds the rest
    state = act(state, CARA, NameResource("light"))
    assert len(state.world.resources) == 5 and state.step is SetupStep.ABUNDANCE


def test_five_players_name_all_five_resources() -> None:
    players = [1, 2, 3, 4, 5]
    state = s.new_setup(players)
    state = act(state, 1, ProposeTone("x", TOOLS))
    for p in players[1:]:
        state = act(state, p, AgreeTone())
    for p in players:
        state = act(state, p, PassBan())
    state = act(act(state, 1, PassStatement()), 2, PassStatement())
    state = act(state, 3, FinishScope())
    for p in players:
        state = act(state, p, NameResource(f"r{p}"))
    assert state.step is SetupStep.ABUNDANCE


def test_duplicate_resource_names_are_refused() -> None:
    state = act(at_resources(), ALICE, NameResource("Water"))
    with pytest.raises(NotAllowedNow):
        s.apply(state, BOB, NameResource("water "))


def test_one_abundance_and_the_rest_scarcities() -> None:
    state, events = s.apply(at_abundance(), CARA, ChooseAbundance("SEEDS"))
    levels = {r.name: r.level for r in state.world.resources}
    assert levels["seeds"] is ResourceLevel.ABUNDANCE
    assert sum(lv is ResourceLevel.ABUNDANCE for lv in levels.values()) == 1
    assert sum(lv is ResourceLevel.SCARCITY for lv in levels.values()) == 4
    assert s.AbundanceChosen(CARA, "seeds") in events


def test_abundance_must_be_one_of_the_resources() -> None:
    with pytest.raises(Malformed):
        s.apply(at_abundance(), CARA, ChooseAbundance("gold"))


# -------------------------------------------------------------------- locations


def test_each_player_writes_two_secret_locations() -> None:
    state = at_locations()
    state, events = s.apply(state, ALICE, location(1))
    assert events == (s.LocationAuthored(ALICE, "draft-1", 1),)
    assert "Secret" not in repr(events)  # events never carry the face
    state = act(state, ALICE, location(2))
    with pytest.raises(NotYourTurn):
        s.apply(state, ALICE, location(3))
    assert [c.title for c in s.my_locations(state, ALICE)] == ["Place 1", "Place 2"]
    card = state.world.cards[0]
    assert not w.visible_card(card, BOB).face_visible
    assert w.visible_card(card, ALICE).face_visible


def test_a_location_needs_every_part_written() -> None:
    with pytest.raises(Malformed):
        s.apply(at_locations(), ALICE, AuthorLocation("Cave", "", "bats", "dark", "gems"))


def test_locations_start_face_down_with_an_empty_clock() -> None:
    state = act(at_locations(), BOB, location(1))
    card = state.world.cards[0]
    assert not card.revealed and card.clock.ticks == 0 and card.scene_details == ()


# ---------------------------------------------------------------- map, D and R


def test_dealing_places_every_card_face_down_and_hides_who_wrote_what() -> None:
    state, events = s.apply(at_map(), BOB, DealMap(3, frozenset({(1, 1)})), SeededRng(3))
    grid = state.world.grid
    assert grid is not None and grid.cell_content((1, 1)) is None
    assert sorted(grid.card_ids()) == sorted(c.id for c in state.world.cards)
    assert [c.id for c in state.world.cards] == [f"L{i}" for i in range(1, 7)]
    assert not any(c.revealed for c in state.world.cards)
    assert isinstance(events[0], s.MapDealt) and state.step is SetupStep.DANGER_AND_REWARD


def test_dealing_can_place_home_on_the_map() -> None:
    state = act(at_map(), BOB, DealMap(3, home=(1, 1)), SeededRng(3))
    assert state.world.grid is not None and state.world.grid.home == (1, 1)
    assert set(w.reachable_cards(state.world)) <= set(state.world.grid.card_ids())


def test_dealing_needs_dice_and_a_sensible_width() -> None:
    with pytest.raises(Malformed):
        s.apply(at_map(), BOB, DealMap(3))
    with pytest.raises(Malformed):
        s.apply(at_map(), BOB, DealMap(0), SeededRng(1))


def test_danger_and_reward_are_rolled_for_every_card() -> None:
    state = act(at_map(), BOB, DealMap(3), SeededRng(3))
    faces = [1, 4, 2, 3, 3, 2, 4, 1, 1, 1, 2, 2]
    state, events = s.apply(state, CARA, RollDangerAndReward(), ScriptedRng(faces))
    assert [(int(c.danger or 0), int(c.reward or 0)) for c in state.world.cards] == [
        (1, 4),
        (2, 3),
        (3, 2),
        (4, 1),
        (1, 1),
        (2, 2),
    ]
    assert state.step is SetupStep.DONE and isinstance(events[-1], s.WorldReady)
    assert s.finished_world(state) is state.world


def test_the_world_is_not_ready_before_the_last_step() -> None:
    with pytest.raises(NotAllowedNow):
        s.finished_world(at_map())


def test_nothing_is_allowed_once_done() -> None:
    state = built()
    assert s.allowed_actions(state) == {}
    with pytest.raises(NotAllowedNow):
        s.apply(state, ALICE, FinishScope())


def test_actions_from_another_step_are_refused_with_a_reason() -> None:
    with pytest.raises(NotAllowedNow, match="banning"):
        s.apply(at_bans(), ALICE, NameResource("water"))


# ---------------------------------------------------------------- serialising


@pytest.mark.parametrize(
    "make",
    [at_bans, at_settlement, at_scope, at_resources, at_abundance, at_locations, at_map, built],
)
def test_state_round_trips_through_json(make: object) -> None:
    state = make()  # type: ignore[operator]
    data = json.loads(json.dumps(state.to_dict()))
    assert SetupState.from_dict(data) == state


def test_bad_stored_state_is_malformed() -> None:
    with pytest.raises(Malformed):
        SetupState.from_dict({"version": 1})
    with pytest.raises(Malformed):
        SetupState.from_dict({**built().to_dict(), "version": 9})


# -------------------------------------------------------------- properties

PLAYERS = (ALICE, BOB, CARA)


def actions_strategy() -> st.SearchStrategy[s.SetupAction]:
    text = st.sampled_from(["a", "b", "Water", "seeds", " ", "x" * 3])
    return st.one_of(
        st.builds(ProposeTone, text, st.frozensets(st.sampled_from(list(SafetyTool)))),
        st.just(AgreeTone()),
        st.builds(BanElement, text),
        st.just(PassBan()),
        st.builds(ChooseFirstSpeaker, st.sampled_from([*PLAYERS, 5])),
        st.builds(MakeStatement, text, st.none() | st.integers(-1, 3)),
        st.just(PassStatement()),
        st.just(DeclareCardFull()),
        st.builds(AnswerScope, st.none() | st.sampled_from(list(ScopeQuestion)), text),
        st.just(FinishScope()),
        st.builds(NameResource, text | st.sampled_from(["r1", "r2", "r3", "r4", "r5"])),
        st.builds(ChooseAbundance, text),
        st.builds(AuthorLocation, text, text, text, text, text),
        st.builds(DealMap, st.integers(0, 4)),
        st.just(RollDangerAndReward()),
    )


ACTIONS = actions_strategy()


def check_invariants(state: SetupState) -> None:
    if state.step is SetupStep.SETTLEMENT:
        assert state.speaker in state.players
    if _ORDER_INDEX[state.step] > _ORDER_INDEX[SetupStep.ABUNDANCE]:
        assert len(state.world.resources) == 5
        assert sum(r.level is ResourceLevel.ABUNDANCE for r in state.world.resources) == 1
    for p in state.players:
        assert sum(c.author_id == p for c in state.world.cards) <= 2
    assert all(0 <= c.clock.ticks <= 8 for c in state.world.cards)
    assert len(state.world.settlement) <= state.settlement_capacity


_ORDER_INDEX = {step: i for i, step in enumerate(SetupStep)}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([*PLAYERS, 99]), actions_strategy()), max_size=60))
def test_no_sequence_of_actions_breaks_the_invariants(
    moves: list[tuple[int, s.SetupAction]],
) -> None:
    state = s.new_setup(PLAYERS)
    rng = SeededRng(0)
    for actor, action in moves:
        before = state
        allowed = s.allowed_actions(state)
        try:
            state, _ = s.apply(state, actor, action, rng)
        except NotAllowedNow:
            assert state == before
            # Refused for turn/step reasons only when the action wasn't allowed to them,
            # or the content clashes with what is there (a duplicate).
            continue
        except Malformed:
            assert state == before
            continue
        # Accepted actions were on the allowed list for that actor.
        assert action.kind in allowed[actor]
        check_invariants(state)
        assert _ORDER_INDEX[state.step] >= _ORDER_INDEX[before.step]


def _drive_to_done(seed: int) -> SetupState:
    """Play worldbuilding with players choosing random allowed actions."""
    rng = SeededRng(seed)
    state = s.new_setup(PLAYERS, settlement_capacity=6)
    n = 0
    for _ in range(500):
        allowed = s.allowed_actions(state)
        if not allowed:
            break
        actor = sorted(allowed)[rng.randint(0, len(allowed) - 1)]
        kinds = sorted(allowed[actor], key=lambda k: k.value)
        kind = kinds[rng.randint(0, len(kinds) - 1)]
        n += 1
        action = _sample(kind, n, state)
        try:
            state, _ = s.apply(state, actor, action, rng)
        except NotAllowedNow:
            continue
        check_invariants(state)
    return state


def _sample(kind: ActionKind, n: int, state: SetupState) -> s.SetupAction:
    return {
        ActionKind.PROPOSE_TONE: ProposeTone("tone", TOOLS),
        ActionKind.AGREE_TONE: AgreeTone(),
        ActionKind.BAN: BanElement(f"ban {n}"),
        ActionKind.PASS_BAN: PassBan(),
        ActionKind.CHOOSE_FIRST_SPEAKER: ChooseFirstSpeaker(BOB),
        ActionKind.MAKE_STATEMENT: MakeStatement(f"fact {n}"),
        ActionKind.PASS_STATEMENT: PassStatement(),
        ActionKind.DECLARE_CARD_FULL: DeclareCardFull(),
        ActionKind.ANSWER_SCOPE: AnswerScope(None, "note"),
        ActionKind.FINISH_SCOPE: FinishScope(),
        ActionKind.NAME_RESOURCE: NameResource(f"res {n}"),
        ActionKind.CHOOSE_ABUNDANCE: ChooseAbundance(
            state.world.resources[n % len(state.world.resources)].name
            if state.world.resources
            else "x"
        ),
        ActionKind.AUTHOR_LOCATION: location(n),
        ActionKind.DEAL_MAP: DealMap(3),
        ActionKind.ROLL_DANGER_AND_REWARD: RollDangerAndReward(),
    }[kind]


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_players_taking_only_allowed_actions_can_reach_a_finished_world(seed: int) -> None:
    state = _drive_to_done(seed)
    if state.step is SetupStep.LOCATIONS:
        state = _finish_from_locations(state)
    assert state.step is SetupStep.DONE
    check_invariants(state)


def _finish_from_locations(state: SetupState) -> SetupState:
    n = 100
    while state.step is SetupStep.LOCATIONS:
        for p, kinds in s.allowed_actions(state).items():
            if ActionKind.AUTHOR_LOCATION in kinds:
                n += 1
                state = act(state, p, location(n))
                break
    state = act(state, ALICE, DealMap(4), SeededRng(1))
    state = act(state, ALICE, RollDangerAndReward(), SeededRng(2))
    assert state.step is SetupStep.DONE
    return state


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_allowed_and_random_actions_mixed_keep_turns_and_invariants(data: st.DataObject) -> None:
    _mixed_run(data)


@pytest.mark.slow
@settings(max_examples=thorough_examples(150, 50), deadline=None)
@given(st.data())
def test_many_more_mixed_runs_keep_turns_and_invariants(data: st.DataObject) -> None:
    _mixed_run(data)


def _mixed_run(data: st.DataObject) -> None:
    state = s.new_setup(PLAYERS, settlement_capacity=5)
    rng = SeededRng(data.draw(st.integers(0, 999)))
    for n in range(90):
        allowed = s.allowed_actions(state)
        if not allowed:
            break
        if data.draw(st.booleans()):
            actor = data.draw(st.sampled_from(sorted(allowed)))
            kind = data.draw(st.sampled_from(sorted(allowed[actor], key=lambda k: k.value)))
            action = _sample(kind, n, state)
        else:
            actor = data.draw(st.sampled_from([*PLAYERS, 99]))
            action = data.draw(ACTIONS)
        before = state
        try:
            state, _ = s.apply(state, actor, action, rng)
        except (NotAllowedNow, Malformed):
            assert state == before
            continue
        assert action.kind in allowed[actor]
        if action.kind in (ActionKind.MAKE_STATEMENT, ActionKind.PASS_STATEMENT):
            assert actor == before.speaker  # the settlement goes round in turn
        check_invariants(state)
    assert SetupState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_the_round_of_one_resource_each_ends_when_everyone_named_one() -> None:
    state = at_resources()
    assert not s.everyone_named_a_resource(state)
    state = act(state, ALICE, NameResource("water"))
    state = act(state, BOB, NameResource("seeds"))
    assert not s.everyone_named_a_resource(state)
    state = act(state, CARA, NameResource("songs"))
    assert s.everyone_named_a_resource(state)
    assert not s.everyone_named_a_resource(at_scope())


def test_only_players_with_a_card_left_to_write_may_author_one() -> None:
    assert not s.may_author(None, ALICE)
    assert not s.may_author(at_abundance(), ALICE)  # not the step for it
    state = at_locations()
    assert s.may_author(state, ALICE) and not s.may_author(state, 99)
    state = act(state, ALICE, location(1))
    assert s.may_author(state, ALICE)
    state = act(state, ALICE, location(2))
    assert not s.may_author(state, ALICE)  # both written
    with pytest.raises(StonetableError):
        s.apply(state, ALICE, location(3))
    assert s.may_author(state, BOB)


def test_the_card_pages_offer_what_the_setup_allows() -> None:
    state = act(at_locations(), ALICE, location(1))
    campaign = NsuCampaign().with_setup(state)
    alice, bob = page_choices(campaign, ALICE), page_choices(campaign, BOB)
    (card,) = state.world.cards
    assert alice.author and alice.revisable == alice.pictured == {card.id}
    assert bob.author and bob.revisable == bob.pictured == frozenset()  # not his card
    done = act(state, ALICE, location(2))
    assert not page_choices(NsuCampaign().with_setup(done), ALICE).author  # both written
    assert page_choices(NsuCampaign(), ALICE) == page_choices(NsuCampaign(), BOB)  # no setup
