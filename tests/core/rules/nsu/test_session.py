"""A whole first session, played through the rules library alone.

Mara, Tomas and Ines build a world, make characters, explore one location in
two groups, come home for downtime (Recover Harm, Scout, Address Collateral),
and head out again to the card Mara scouted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from core.rules.nsu import downtime as dt
from core.rules.nsu import setup as su
from core.rules.nsu import world as w
from core.rules.nsu.action_roll import (
    Action,
    ChooseAspect,
    ChooseMood,
    ChooseRisk,
    ChooseSkill,
    ChooseSkillSign,
    Help,
    Participant,
    ResultRow,
    Risk,
    Roll,
    RollState,
    SetAspectEdge,
    StateOutcome,
    TakeHelperDie,
    Winner,
    apply,
    start_roll,
)
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
from core.rules.rng import ScriptedRng, SeededRng

MARA, TOMAS, INES = 101, 102, 103
TABLE = (MARA, TOMAS, INES)


def build(state: su.SetupState, moves: Iterable[tuple[int, su.SetupAction]]) -> su.SetupState:
    for actor, action in moves:
        state, _ = su.apply(state, actor, action)
        assert su.SetupState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    return state


def character(
    name: str, body: Die, mind: Die, heart: Die, moods: tuple[str, str, str]
) -> Character:
    draft = choose_name(CharacterDraft(), name)
    draft = describe(draft, "she/her", "Dust goggles and a patched coat")
    draft = pick_moods(draft, *moods)
    draft = assign_aspects(draft, body, mind, heart)
    draft = invent_sentiments(draft, "The lighthouse", "My brother", "Nothing is wasted")
    draft = write_skills(draft, "Climbing", "Haggling", "Tinkering")
    return finish_creation(draft)


def roll(state: RollState, actions: Iterable[Action], faces: Iterable[int]) -> RollState:
    rng = ScriptedRng(faces)
    for action in actions:
        state, _ = apply(state, action, rng)
    assert state.is_done and rng.remaining == 0
    assert RollState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    return state


def test_a_first_session_from_an_empty_table_to_the_second_adventure() -> None:
    # ---------------------------------------------------------------- worldbuilding
    setup = su.new_setup(TABLE)
    setup = build(
        setup,
        [
            # The tone talk: weird and hopeful, X-Card and Lines and Veils.
            (
                MARA,
                su.ProposeTone(
                    "Weird and hopeful, rusted machines turned into gardens",
                    frozenset({w.SafetyTool.X_CARD, w.SafetyTool.LINES_AND_VEILS}),
                ),
            ),
            (TOMAS, su.AgreeTone()),
            (INES, su.AgreeTone()),
            # One ban each, or a pass.
            (MARA, su.BanElement("Dragons")),
            (TOMAS, su.PassBan()),
            (INES, su.BanElement("Time travel")),
            # The settlement, round the table until two pass in a row.
            (MARA, su.MakeStatement("The settlement is built inside a dry dam")),
            (TOMAS, su.MakeStatement("The dam wall is painted with old maps", builds_on=0)),
            (INES, su.MakeStatement("Everyone keeps bees")),
            (MARA, su.PassStatement()),
            (TOMAS, su.MakeStatement("Honey is traded for news")),
            (INES, su.PassStatement()),
            (MARA, su.PassStatement()),
        ],
    )
    assert setup.step is su.SetupStep.SCOPE
    assert len(setup.world.settlement) == 4

    setup = build(
        setup,
        [
            (TOMAS, su.AnswerScope(w.ScopeQuestion.TRAVEL_TIME, "Each card is a day's walk")),
            (INES, su.AnswerScope(w.ScopeQuestion.CONTACT_WITH_HOME, "Only by pigeon")),
            (MARA, su.FinishScope()),
            (MARA, su.NameResource("Clean water")),
            (TOMAS, su.NameResource("Seeds")),
            (INES, su.NameResource("Stories")),
            (MARA, su.NameResource("Tools")),
            (INES, su.NameResource("Medicine")),
            (TOMAS, su.ChooseAbundance("Stories")),
            (
                MARA,
                su.AuthorLocation(
                    "Drowned Mall",
                    "Escalators into black water",
                    "Eel nests",
                    "Currents",
                    "Old medicine stock",
                ),
            ),
            (
                TOMAS,
                su.AuthorLocation(
                    "Singing Pylons",
                    "Wind hums through the wires",
                    "Bird colony",
                    "Lightning",
                    "Working copper",
                ),
            ),
            (
                INES,
                su.AuthorLocation(
                    "Glass Orchard",
                    "Fruit trees under a cracked dome",
                    "The keepers' harvest",
                    "Wary keepers",
                    "Seed bank",
                ),
            ),
            (
                TOMAS,
                su.AuthorLocation(
                    "Fungus Barge",
                    "A ship stranded on a hill",
                    "The spore farmers",
                    "Spores",
                    "A radio",
                ),
            ),
            (
                INES,
                su.AuthorLocation(
                    "Quiet Library",
                    "Shelves that whisper",
                    "The silence",
                    "Sleepers",
                    "Lost stories",
                ),
            ),
            (
                MARA,
                su.AuthorLocation(
                    "Salt Flats", "White to the horizon", "Salt herders", "Thirst", "A water still"
                ),
            ),
        ],
    )
    assert setup.step is su.SetupStep.MAP
    assert [r.level for r in setup.world.resources].count(w.ResourceLevel.ABUNDANCE) == 1
    # Nobody sees another player's card before the map is dealt.
    for card in setup.world.cards:
        for viewer in TABLE:
            assert w.visible_card(card, viewer).face_visible == (viewer == card.author_id)

    setup, _ = su.apply(setup, INES, su.DealMap(3), SeededRng(2026))
    setup, events = su.apply(
        setup, MARA, su.RollDangerAndReward(), ScriptedRng([2, 3, 1, 4, 3, 2, 2, 2, 4, 1, 1, 3])
    )
    world = su.finished_world(setup)
    assert [c.back for c in world.cards] == ["D2 R3", "D1 R4", "D3 R2", "D2 R2", "D4 R1", "D1 R3"]
    assert not any(c.revealed for c in world.cards)

    # ------------------------------------------------------------------ characters
    sheets = {
        MARA: character("Wren", Die.D6, Die.D8, Die.D4, ("Careful", "Curious", "Angry")),
        TOMAS: character("Oskar", Die.D8, Die.D4, Die.D6, ("Patient", "Proud", "Scared")),
        INES: character("Juno", Die.D4, Die.D6, Die.D8, ("Gentle", "Restless", "Bitter")),
    }

    # -------------------------------------------------------------- the adventure
    # The table heads for the Singing Pylons, which Tomas wrote.
    pylons = next(c.id for c in world.cards if c.title == "Singing Pylons")
    assert pylons in w.reachable_cards(world)
    world, events = w.travel_to(world, pylons)
    assert w.CardFlipped(pylons, TOMAS) in events
    assert all(w.visible_card(world.card(pylons), p).face_visible for p in TABLE)

    # The party splits; Tomas's group arbitrates first, since he wrote the card.
    world, _ = w.split_party(world, {TOMAS}, {MARA, INES})
    assert w.on_screen(world) == {MARA, INES}
    assert w.arbiters(world, MARA) == {TOMAS}

    # Roll 1: Mara climbs a pylon without hurting the birds. The world is at risk.
    # Juno helps; Mara takes Juno's die and subtracts Climbing: 7 against 4.
    state = start_roll(
        Participant(MARA, sheets[MARA]),
        w.arbiters(world, MARA),
        [Participant(INES, sheets[INES])],
    )
    state = roll(
        state,
        [
            StateOutcome(MARA, "Reach the copper at the top without scaring the birds"),
            ChooseAspect(TOMAS, Aspect.BODY),
            ChooseRisk(TOMAS, Risk.WORLD),
            ChooseMood(MARA, 0),
            SetAspectEdge(TOMAS),
            ChooseSkill(MARA, 0),
            Roll(MARA),
            Help(INES, 0),
            TakeHelperDie(MARA, INES),
            ChooseSkillSign(MARA, add=False),
        ],
        [5, 2, 7],  # Body d6, Careful d8, Juno's Gentle d8
    )
    outcome = state.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.row) == (Winner.PLAYER, ResultRow.WIN_WITH_SCENE)
    sheets[MARA], sheets[INES] = state.character(MARA), state.character(INES)
    # Two details from a World-at-risk roll: the table takes the two suggested ticks.
    world, _ = w.tick_collateral(world, pylons, TOMAS, outcome.suggested_collateral_ticks)
    world, _ = w.add_scene_detail(world, pylons, "Birds scattered")
    assert world.card(pylons).clock.ticks == 2

    # Roll 2: Juno crosses a sagging wire. Her character is at risk, and she loses.
    state = start_roll(
        Participant(INES, sheets[INES]),
        w.arbiters(world, INES),
        [Participant(MARA, sheets[MARA])],
    )
    state = roll(
        state,
        [
            StateOutcome(INES, "Cross to the next pylon"),
            ChooseAspect(TOMAS, Aspect.MIND),
            ChooseRisk(TOMAS, Risk.CHARACTER),
            ChooseMood(INES, 4),
            SetAspectEdge(TOMAS),
            Roll(INES),
            TakeHelperDie(INES, None),
        ],
        [1, 4],  # Mind d6, Bitter d4
    )
    assert state.outcome is not None and state.outcome.winner is Winner.ARBITERS
    sheets[INES] = state.character(INES).add_harm("Sprained ankle")
    world, _ = w.add_scene_detail(world, pylons, "Snapped wire")
    world, _ = w.tick_collateral(world, pylons, MARA)  # any player may tick

    # A cliffhanger: focus switches to Oskar; Mara and Ines arbitrate.
    world, events = w.switch_focus(world)
    assert events == (w.FocusSwitched(frozenset({TOMAS}), frozenset({MARA, INES})),)

    # Roll 3: Oskar shoves a fallen pylon off the path; a big win.
    state = start_roll(Participant(TOMAS, sheets[TOMAS]), w.arbiters(world, TOMAS))
    state = roll(
        state,
        [
            StateOutcome(TOMAS, "Clear the road home"),
            ChooseAspect(MARA, Aspect.BODY),
            ChooseRisk(INES, Risk.CHARACTER),
            ChooseMood(TOMAS, 2),
            SetAspectEdge(MARA),
            ChooseSkill(TOMAS, 0),
            Roll(TOMAS),
            ChooseSkillSign(TOMAS, add=True),
        ],
        [8, 2],  # Body d8, Proud d6
    )
    assert state.outcome is not None and state.outcome.row is ResultRow.BIG_WIN
    sheets[TOMAS] = state.character(TOMAS)
    world, _ = w.regroup(world)

    # ---------------------------------------------------------------- downtime
    # Home they go. The Pylons' clock (3) rolls on the 1-3 table: a 4.
    down, events = dt.begin_downtime(world, sheets, dt.DowntimePlace.HOME, ScriptedRng([4]))
    assert down.complications == (
        dt.ComplicationRoll(pylons, 3, 4, (dt.Complication.RELATIONS_WORSEN,)),
    )
    assert all(s.recovery_points == 1 for _, s in down.sheets)
    assert down.world.current is None

    # Ines turns her harm into a scar with the point she got at home (free action).
    down, _ = dt.apply(down, INES, dt.RecoverHarm(((0, "Stiff ankle"),)), ScriptedRng([]))
    assert down.sheet(INES).harms == () and down.sheet(INES).scars == ("Stiff ankle",)

    # Mara scouts the Glass Orchard (Ines wrote it). The others arbitrate her roll.
    orchard = next(c.id for c in down.world.cards if c.title == "Glass Orchard")
    scout_roll = start_roll(Participant(MARA, down.sheet(MARA)), {TOMAS, INES})
    scout_roll = roll(
        scout_roll,
        [
            StateOutcome(MARA, "Find a way in without being seen"),
            ChooseAspect(INES, Aspect.MIND),
            ChooseRisk(TOMAS, Risk.CHARACTER),
            ChooseMood(MARA, 2),
            SetAspectEdge(INES),
            Roll(MARA),
        ],
        [6, 3],  # Mind d8, Curious d6
    )
    assert scout_roll.outcome is not None
    down = dt.take_roll_sheets(down, scout_roll)
    down, events = dt.apply(down, MARA, dt.Scout(orchard, scout_roll.outcome), ScriptedRng([]))
    assert events == (dt.ScoutLooked(MARA, orchard),)
    card = down.world.card(orchard)
    assert w.visible_card(card, MARA).face_visible  # she looked
    assert w.visible_card(card, INES).face_visible  # she wrote it
    assert not w.visible_card(card, TOMAS).face_visible  # still secret to Tomas
    assert w.visible_card(card, TOMAS).danger is not None  # but its back shows

    # Tomas addresses the collateral at the Pylons; both others back his plan (+2).
    down, _ = dt.apply(
        down,
        TOMAS,
        dt.ProposePlan(pylons, "Build nesting boxes away from the wires"),
        ScriptedRng([]),
    )
    down, _ = dt.apply(down, MARA, dt.VoteOnPlan(True), ScriptedRng([]))
    down, _ = dt.apply(down, INES, dt.VoteOnPlan(True), ScriptedRng([]))
    down, events = dt.apply(down, TOMAS, dt.RollForPlan(), ScriptedRng([3]))
    # Mind d4 shows 3: 3 + 2 - 3 = 2 ticks off; not enough, so Juno adds her Heart die.
    assert events == (dt.PlanDieRolled(TOMAS, Aspect.MIND, 3, 5, 2),)
    down, events = dt.apply(down, INES, dt.AddDieToPlan(Aspect.HEART), ScriptedRng([4]))
    assert isinstance(events[-1], dt.PlanSettled)
    assert down.world.card(pylons).clock.ticks == 0

    assert dt.DowntimeState.from_dict(json.loads(json.dumps(down.to_dict()))) == down
    down, events = dt.apply(down, MARA, dt.EndDowntime(), ScriptedRng([]))
    assert events == (dt.DowntimeEnded(),)
    world, sheets = down.world, down.sheet_map()

    # ------------------------------------------------------------ the next adventure
    world, events = w.travel_to(world, orchard)
    assert w.CardFlipped(orchard, INES) in events
    assert all(w.visible_card(world.card(orchard), p).face_visible for p in TABLE)
    assert sheets[MARA].mood(2).level == 1  # Curious was raised by the scouting roll
    assert sheets[INES].recovery_points == 0
    assert w.world_from_dict(json.loads(json.dumps(w.world_to_dict(world)))) == world
