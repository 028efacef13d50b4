"""The d20 table adapter: campaign seats and pool, check panel, long rest, edits.

Player 1 rolls, 2 is the Game Master (and host), 3 is another player. One
scripted face is one average roll against difficulty 10: 15 succeeds, 5 fails.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from core.rules.d20check import SYSTEM, AbilityStrength, ActionKind, CharacterSheet
from core.rules.d20check.check import Natural
from core.rules.d20check.events import GameMasterPicksEffect, PlotPointSpent, PlotPointTurned
from core.rules.d20check.plot_points import PlotPointKind
from core.rules.d20check.table import (
    EDITS,
    MENU_OF,
    CheckPanelState,
    D20Campaign,
    PoolCounts,
    SetupMenu,
    SetupVerb,
    page_choices,
    parse_check,
    parse_rest,
    pool_counts,
)
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.table import Json, Outcome, Role, Seat, Table

ROLLER, GM, OTHER, STRANGER = 1, 2, 3, 4
CAMPAIGN = D20Campaign()
CHECK = SYSTEM.panel("d20.check")
REST = SYSTEM.panel("d20.rest")


def sheet(name: str = "Ana", **fields: Any) -> Json:
    return CharacterSheet(name, **fields).to_dict()


def table(
    lucky: int = 3,
    unlucky: int = 0,
    sheets: Mapping[int, Json] | None = None,
    locked: bool = False,
) -> Table:
    sheets = dict(sheets or {})
    seats = {
        ROLLER: Seat(ROLLER, "Ana", frozenset({Role.PLAYER}), sheets.get(ROLLER, sheet("Ana"))),
        GM: Seat(GM, "Gil", frozenset({Role.HOST, Role.GAME_MASTER}), {}),
        OTHER: Seat(OTHER, "Bo", frozenset({Role.PLAYER}), sheets.get(OTHER, sheet("Bo"))),
    }
    state = {"v": 1, "plot_points": {"lucky": lucky, "unlucky": unlucky}, "sheets_locked": locked}
    return Table(1, "d20", state, seats)


def after(t: Table, outcome: Outcome) -> Table:
    """The table once an outcome is saved, as core.campaigns does it."""
    seats = dict(t.seats)
    for player_id, data in outcome.sheets.items():
        old = seats[player_id]
        seats[player_id] = Seat(old.player_id, old.name, old.roles, data)
    state = outcome.campaign_state if outcome.campaign_state is not None else t.state
    return Table(t.campaign_id, t.system, state, seats)


class Run:
    """A check panel driven like the bot drives it."""

    def __init__(self, t: Table, roller: int = ROLLER, argument: str = "") -> None:
        self.table = t
        self.outcome = CHECK.open(t, roller, argument, ScriptedRng([]))

    def press(self, actor: int, action: str, faces: Iterable[int] = (), argument: str = "") -> Run:
        outcome = CHECK.act(
            self.table, self.outcome.state, actor, action, argument, ScriptedRng(faces)
        )
        self.table = after(self.table, outcome)
        self.outcome = outcome
        return self

    @property
    def pool(self) -> PoolCounts:
        return pool_counts(self.table.state)

    def allowed(self, actor: int) -> set[str]:
        check = CheckPanelState.from_dict(self.outcome.state).check
        return {a.value for a in check.allowed_actions(actor, self.pool.playable())}


# -- the pool follows the table (ruling 20, joins and leaves) ---------------------------


def seat_all(ids: list[int]) -> Table:
    t = Table(1, "d20", CAMPAIGN.new_state(), {})
    for index, player_id in enumerate(ids):
        roles = frozenset({Role.GAME_MASTER}) if index == 0 else frozenset({Role.PLAYER})
        seats = {**t.seats, player_id: Seat(player_id, f"P{player_id}", roles, {})}
        t = Table(1, "d20", t.state, seats)
        state, new_sheet = CAMPAIGN.seated(t, player_id)
        seat = seats[player_id]
        t = Table(
            1, "d20", state, {**seats, player_id: Seat(player_id, seat.name, roles, new_sheet)}
        )
    return t


def test_the_pool_is_one_lucky_point_per_person_including_the_gm() -> None:
    t = seat_all([GM, ROLLER, OTHER])
    assert pool_counts(t.state) == PoolCounts(3, 0)
    assert t.seats[GM].sheet == {}
    assert CharacterSheet.from_dict(t.seats[ROLLER].sheet).name == f"P{ROLLER}"


def test_a_joiner_adds_a_lucky_point() -> None:
    t = seat_all([GM, ROLLER])
    t = Table(1, "d20", {**t.state, "plot_points": {"lucky": 0, "unlucky": 2}}, t.seats)
    seats = {**t.seats, OTHER: Seat(OTHER, "Bo", frozenset({Role.PLAYER}), {})}
    state, _ = CAMPAIGN.seated(Table(1, "d20", t.state, seats), OTHER)
    assert pool_counts(state) == PoolCounts(1, 2)


def test_a_leaver_takes_an_unlucky_point_first() -> None:
    t = table(lucky=2, unlucky=1)
    seats = {k: v for k, v in t.seats.items() if k != OTHER}
    state = CAMPAIGN.left(Table(1, "d20", t.state, seats), OTHER)
    assert pool_counts(state) == PoolCounts(2, 0)


def test_a_leaver_takes_a_lucky_point_when_none_is_unlucky() -> None:
    t = table(lucky=3, unlucky=0)
    seats = {k: v for k, v in t.seats.items() if k != OTHER}
    assert pool_counts(CAMPAIGN.left(Table(1, "d20", t.state, seats), OTHER)) == PoolCounts(2, 0)


def test_a_returning_player_keeps_their_sheet_and_is_counted_once() -> None:
    t = table(lucky=1, unlucky=2, sheets={OTHER: sheet("Bo", wounds=5)})
    state, kept = CAMPAIGN.seated(t, OTHER)
    assert pool_counts(state) == PoolCounts(1, 2)
    assert kept["wounds"] == 5


def test_the_pool_stops_at_fifty() -> None:
    assert PoolCounts(49, 0).resized(60) == PoolCounts(50, 0)


def test_a_gm_alone_has_no_pool_to_check_with() -> None:
    t = seat_all([GM])
    assert pool_counts(t.state) == PoolCounts(1, 0)
    with pytest.raises(NotAllowedNow, match="at least one player"):
        CHECK.open(t, GM, "", ScriptedRng([]))


# -- reading /check ------------------------------------------------------------


def test_check_arguments_read_strength_proficiency_circumstances_and_target() -> None:
    request = parse_check("strong +2 adv adv dis dc 15", None)
    assert request.setup.ability is AbilityStrength.STRONG
    assert (request.setup.proficiency, request.setup.advantages, request.setup.disadvantages) == (
        2,
        2,
        1,
    )
    assert request.target.value == 15  # type: ignore[union-attr]
    assert parse_check("vs14 adv3", None).target.result == 14  # type: ignore[union-attr]


def test_check_arguments_take_names_from_the_sheet() -> None:
    ana = CharacterSheet.from_dict(sheet("Ana")).with_ability("Quick Hands", AbilityStrength.WEAK)
    ana = ana.with_proficiency("Sleight of Hand", 3)
    request = parse_check("quick hands sleight of hand dc12", ana)
    assert request.setup.ability is AbilityStrength.WEAK and request.setup.proficiency == 3
    assert request.label == "Quick Hands + Sleight of Hand"


@pytest.mark.parametrize("text", ["banana", "dc", "dc100", "+21", "adv21"])
def test_bad_check_arguments_are_malformed(text: str) -> None:
    with pytest.raises(Malformed):
        parse_check(text, None)


def test_rest_arguments_read_difficulty_and_skill() -> None:
    recovery = parse_rest("dc12 Iron Will")
    assert (recovery.difficulty, recovery.skill) == (12, "Iron Will")
    assert parse_rest("").skill == "Fortitude"


# -- set-up buttons ------------------------------------------------------------


def test_the_roller_sets_up_with_buttons_and_others_are_refused() -> None:
    run = Run(table())
    run.press(ROLLER, "open", argument="ability").press(ROLLER, "ability", argument="strong")
    run.press(ROLLER, "open", argument="mods").press(ROLLER, "prof", argument="2")
    run.press(ROLLER, "adv", argument="1").press(ROLLER, "dis", argument="3")
    run.press(ROLLER, "back").press(ROLLER, "open", argument="target")
    run.press(ROLLER, "target", argument="14")
    check = CheckPanelState.from_dict(run.outcome.state).check
    assert check.setup.ability is AbilityStrength.STRONG
    assert (check.setup.proficiency, check.setup.advantages, check.setup.disadvantages) == (2, 1, 3)
    assert check.target.value == 14  # type: ignore[union-attr]
    for actor in (GM, OTHER):
        with pytest.raises(NotYourTurn):
            run.press(actor, "prof", argument="3")


@pytest.mark.parametrize(
    ("action", "argument", "error"),
    [
        ("prof", "21", NotAllowedNow),
        ("adv", "-1", NotAllowedNow),
        ("ability", "mighty", Malformed),
        ("target", "x", Malformed),
        ("explode", "", Malformed),
        ("set_up", "", Malformed),
    ],
)
def test_bad_set_up_buttons_change_nothing(action: str, argument: str, error: type) -> None:
    run = Run(table())
    if action in MENU_OF:
        run.press(ROLLER, "open", argument=MENU_OF[action].value)
    before = run.outcome.state
    with pytest.raises(error):
        run.press(ROLLER, action, argument=argument)
    assert run.outcome.state == before


# -- set-up groups: sub-steps with Back -----------------------------------------------


def _panel(run: Run) -> CheckPanelState:
    return CheckPanelState.from_dict(run.outcome.state)


def test_a_set_up_group_opens_shows_its_options_and_back() -> None:
    run = Run(table())
    main = _panel(run).choices(run.pool.playable())
    assert [(c.verb, c.argument) for c in main] == [
        (SetupVerb.OPEN, "ability"),
        (SetupVerb.OPEN, "mods"),
        (SetupVerb.OPEN, "target"),
        (ActionKind.ROLL, ""),
    ]
    run.press(ROLLER, "open", argument="mods")
    shown = _panel(run).choices(run.pool.playable())
    assert _panel(run).menu is SetupMenu.MODIFIERS and len(shown) <= 8
    assert shown[-1].verb is SetupVerb.BACK and ActionKind.ROLL not in {c.verb for c in shown}
    assert [c.argument for c in shown if c.verb is SetupVerb.PROFICIENCY] == ["1"]
    run.press(ROLLER, "prof", argument="1")
    assert _panel(run).menu is SetupMenu.MODIFIERS  # a stepper stays open for the next tap
    run.press(ROLLER, "back")
    assert _panel(run).menu is None and _panel(run).check.setup.proficiency == 1


def test_picking_an_ability_closes_its_list_and_a_stale_pick_is_refused() -> None:
    run = Run(table()).press(ROLLER, "open", argument="ability")
    stale = run.outcome.state
    run.press(ROLLER, "ability", argument="weak")
    assert _panel(run).menu is None
    with pytest.raises(NotAllowedNow, match="ability list was closed: tap Ability"):
        CHECK.act(run.table, run.outcome.state, ROLLER, "ability", "strong", ScriptedRng([]))
    assert CheckPanelState.from_dict(stale).menu is SetupMenu.ABILITY


def test_while_a_group_is_open_the_roll_waits_and_back_needs_an_open_group() -> None:
    run = Run(table())
    with pytest.raises(NotAllowedNow, match="No list is open"):
        run.press(ROLLER, "back")
    run.press(ROLLER, "open", argument="target")
    with pytest.raises(NotAllowedNow, match="difficulty list is open: pick from it or tap Back"):
        run.press(ROLLER, "roll", faces=[10])
    with pytest.raises(NotAllowedNow, match="is open"):
        run.press(ROLLER, "open", argument="ability")
    with pytest.raises(Malformed):
        Run(table()).press(ROLLER, "open", argument="luck")
    for actor in (GM, OTHER):
        with pytest.raises(NotYourTurn):
            run.press(actor, "back")


def test_an_open_group_round_trips_and_only_during_set_up() -> None:
    run = Run(table()).press(ROLLER, "open", argument="mods")
    state = dict(run.outcome.state)
    assert CheckPanelState.from_dict(state) == _panel(run)
    old = {k: v for k, v in state.items() if k != "menu"}
    assert CheckPanelState.from_dict(old).menu is None
    with pytest.raises(Malformed):
        CheckPanelState.from_dict(state | {"menu": "dice"})
    rolled = Run(table()).press(ROLLER, "roll", faces=[10]).outcome.state
    with pytest.raises(Malformed):
        CheckPanelState.from_dict(dict(rolled) | {"menu": "mods"})


@pytest.mark.parametrize("seed", range(6))
def test_every_choice_shown_is_accepted_by_exactly_the_people_it_names(seed: int) -> None:
    rnd = random.Random(seed)
    run = Run(table(lucky=2, unlucky=2))
    people = (ROLLER, GM, OTHER)
    for _ in range(150):
        if run.outcome.closed:
            break
        choices = _panel(run).choices(run.pool.playable())
        assert choices
        for choice in choices:
            for person in people:
                accepted = _accepts(run, person, choice.verb.value, choice.argument)
                assert accepted == (person in choice.by), (choice, person)
        choice = rnd.choice(choices)
        actor, rng = rnd.choice(sorted(choice.by)), SeededRng(rnd.randrange(999))
        run.outcome = CHECK.act(
            run.table, run.outcome.state, actor, choice.verb.value, choice.argument, rng
        )
        run.table = after(run.table, run.outcome)
    assert run.outcome.closed


def _accepts(run: Run, actor: int, action: str, argument: str) -> bool:
    try:
        CHECK.act(run.table, run.outcome.state, actor, action, argument, SeededRng(1))
    except StonetableError:
        return False
    return True


# -- every plot point permission case, through the adapter --------------------------------


def test_roller_retries_a_failure_with_a_lucky_point() -> None:
    run = Run(table(lucky=3)).press(ROLLER, "roll", [5])
    assert run.allowed(ROLLER) == {"retry", "keep"}
    assert run.allowed(OTHER) == set() and run.allowed(GM) == set()
    run.press(ROLLER, "retry", [15])
    assert run.pool == PoolCounts(2, 1)
    # A success with an unlucky point in the pool: any player may reroll it (ruling 25).
    assert run.allowed(ROLLER) == {"reroll", "keep"} and run.allowed(OTHER) == {"reroll"}
    run.press(ROLLER, "keep")
    assert run.outcome.closed
    state = CheckPanelState.from_dict(run.outcome.state)
    assert state.check.result is not None and state.check.result.succeeded
    assert PlotPointSpent(ROLLER, PlotPointKind.LUCKY) in state.log


def test_another_player_may_not_retry_the_rollers_failure() -> None:
    run = Run(table()).press(ROLLER, "roll", [5])
    before = run.outcome.state
    with pytest.raises(NotYourTurn):
        run.press(OTHER, "retry", [15])
    assert run.outcome.state == before and run.pool == PoolCounts(3, 0)


def test_the_gm_may_not_retry_a_players_failure() -> None:
    run = Run(table()).press(ROLLER, "roll", [5])
    with pytest.raises(NotYourTurn):
        run.press(GM, "retry", [15])


def test_someone_outside_the_check_is_refused() -> None:
    run = Run(table()).press(ROLLER, "roll", [5])
    with pytest.raises(NotYourTurn):
        run.press(STRANGER, "keep")


def test_roller_rerolls_a_success_with_an_unlucky_point() -> None:
    run = Run(table(lucky=2, unlucky=1)).press(ROLLER, "roll", [15])
    assert run.allowed(ROLLER) == {"reroll", "keep"}
    run.press(ROLLER, "reroll", [5])
    assert run.pool == PoolCounts(3, 0)
    assert run.allowed(ROLLER) == {"retry", "keep"}  # a failure now, and lucky points left
    run.press(ROLLER, "keep")
    assert run.outcome.closed


def test_ruling25_another_player_rerolls_the_rollers_success() -> None:
    run = Run(table(lucky=2, unlucky=1)).press(ROLLER, "roll", [15])
    assert run.allowed(OTHER) == {"reroll"} and run.allowed(STRANGER) == set()
    run.press(OTHER, "reroll", [5])
    assert run.pool == PoolCounts(3, 0)
    state = CheckPanelState.from_dict(run.outcome.state)
    assert PlotPointSpent(OTHER, PlotPointKind.UNLUCKY) in state.log
    assert state.check.result is not None and not state.check.result.succeeded


def test_no_lucky_point_means_no_retry_and_the_gm_decides_next() -> None:
    run = Run(table(lucky=0, unlucky=3)).press(ROLLER, "roll", [5])
    assert run.allowed(ROLLER) == set()
    assert run.allowed(GM) == {"force_reroll", "keep"}
    with pytest.raises(NotAllowedNow, match="no lucky plot point"):
        run.press(ROLLER, "retry", [15])


def test_no_unlucky_point_means_a_success_simply_stands() -> None:
    run = Run(table(lucky=3, unlucky=0)).press(ROLLER, "roll", [15])
    assert run.outcome.closed
    with pytest.raises(NotAllowedNow):
        run.press(ROLLER, "reroll", [5])


def test_the_gm_forces_a_reroll_after_the_player_keeps() -> None:
    run = Run(table(lucky=2, unlucky=1)).press(ROLLER, "roll", [15])
    with pytest.raises(NotAllowedNow):
        run.press(GM, "force_reroll", [5])  # the player is still deciding
    run.press(ROLLER, "keep")
    assert run.allowed(GM) == {"force_reroll", "keep"}
    with pytest.raises(NotYourTurn):
        run.press(ROLLER, "force_reroll", [5])
    with pytest.raises(NotYourTurn):
        run.press(OTHER, "force_reroll", [5])
    run.press(GM, "force_reroll", [5])
    assert run.pool == PoolCounts(3, 0) and run.outcome.closed
    with pytest.raises(NotAllowedNow):
        run.press(ROLLER, "retry", [15])  # nothing after a forced reroll


def test_the_gm_may_let_the_result_stand() -> None:
    run = Run(table(lucky=2, unlucky=1)).press(ROLLER, "roll", [15]).press(ROLLER, "keep")
    with pytest.raises(NotYourTurn):
        run.press(ROLLER, "keep")  # the GM decides now
    run.press(GM, "keep")
    assert run.outcome.closed and run.pool == PoolCounts(2, 1)


def test_the_gm_may_not_force_a_reroll_after_the_player_spent() -> None:
    run = Run(table(lucky=2, unlucky=1)).press(ROLLER, "roll", [5]).press(ROLLER, "retry", [5])
    assert run.allowed(ROLLER) == {"retry", "keep"}  # one lucky point left (ruling 25)
    run.press(ROLLER, "keep")
    assert run.outcome.closed
    with pytest.raises(NotAllowedNow):
        run.press(GM, "force_reroll", [15])


def test_the_gm_rerolls_their_own_check_and_players_may_not_spend_on_it() -> None:
    run = Run(table(lucky=2, unlucky=1), roller=GM).press(GM, "roll", [15])
    assert run.allowed(GM) == {"gm_reroll", "keep"}
    for action in ("retry", "reroll", "force_reroll"):
        with pytest.raises(NotAllowedNow):
            run.press(ROLLER, action, [5])
    with pytest.raises(NotAllowedNow):
        run.press(GM, "force_reroll", [5])
    run.press(GM, "gm_reroll", [1])
    assert run.outcome.closed
    assert run.pool == PoolCounts(3, 0)  # spent unlucky turned lucky; GM's natural 1 turns none


def test_a_natural_1_takes_the_lucky_point_the_retry_needed() -> None:
    run = Run(table(lucky=1, unlucky=1)).press(ROLLER, "roll", [1])
    assert run.pool == PoolCounts(0, 2)
    assert run.allowed(ROLLER) == set()
    log = CheckPanelState.from_dict(run.outcome.state).log
    assert PlotPointTurned(Natural.ONE, PlotPointKind.UNLUCKY) in log
    assert {"e": "turned", "natural": 1, "now": "unlucky"} in run.outcome.state["log"]


def test_a_natural_20_with_no_unlucky_point_lets_the_gm_pick() -> None:
    run = Run(table(lucky=3)).press(ROLLER, "roll", [20])
    log = CheckPanelState.from_dict(run.outcome.state).log
    assert GameMasterPicksEffect(Natural.TWENTY) in log
    assert {"e": "gm_picks", "natural": 20} in run.outcome.state["log"]
    assert run.outcome.campaign_state is None


def test_nobody_acts_on_a_finished_check() -> None:
    run = Run(table(lucky=3)).press(ROLLER, "roll", [15])
    for actor in (ROLLER, GM):
        with pytest.raises(NotAllowedNow):
            run.press(actor, "keep")


# -- strain and wounds ------------------------------------------------------------


def test_an_injured_roller_gains_strain_when_the_check_fails() -> None:
    t = table(lucky=0, unlucky=3, sheets={ROLLER: sheet("Ana", wounds=6, strain=3)})
    run = Run(t).press(ROLLER, "roll", [5]).press(GM, "keep")
    assert run.outcome.closed
    saved = run.outcome.sheets[ROLLER]
    assert (saved["strain"], saved["wounds"]) == (0, 7)  # the fourth strain became a wound


def test_a_successful_injured_check_saves_no_sheet() -> None:
    t = table(lucky=3, sheets={ROLLER: sheet("Ana", wounds=6)})
    run = Run(t).press(ROLLER, "roll", [15])
    assert run.outcome.closed and run.outcome.sheets == {}


# -- the long rest ----------------------------------------------------------------


def test_a_long_rest_clears_strain_and_rolls_per_wound() -> None:
    t = table(
        lucky=2,
        unlucky=1,
        sheets={
            ROLLER: sheet("Ana", wounds=2, strain=2),
            OTHER: CharacterSheet("Bo", wounds=1).with_proficiency("Fortitude", 2).to_dict(),
        },
    )
    outcome = REST.open(t, GM, "", ScriptedRng([15, 9, 20]))
    assert outcome.closed
    assert (outcome.sheets[ROLLER]["strain"], outcome.sheets[ROLLER]["wounds"]) == (0, 1)
    assert outcome.sheets[OTHER]["wounds"] == 0
    assert pool_counts(outcome.campaign_state or {}) == PoolCounts(3, 0)  # Bo's natural 20
    rested = {r["player"]: r for r in outcome.state["rested"]}
    assert [c["success"] for c in rested[ROLLER]["checks"]] == [True, False]
    assert rested[OTHER]["checks"][0]["total"] == 22
    assert GM not in outcome.sheets


def test_only_the_gm_calls_a_long_rest() -> None:
    with pytest.raises(NotYourTurn):
        REST.open(table(), ROLLER, "", ScriptedRng([]))


def test_a_finished_rest_has_no_buttons() -> None:
    with pytest.raises(NotAllowedNow):
        REST.act(table(), {}, GM, "keep", "", ScriptedRng([]))


# -- Mini App edits -----------------------------------------------------------------


def test_a_player_edits_their_own_abilities_and_proficiencies() -> None:
    t = table()
    outcome = CAMPAIGN.edit(
        t, ROLLER, "ability.set", {"name": "Might", "strength": "strong"}, SeededRng(0)
    )
    t = after(t, outcome)
    t = after(
        t,
        CAMPAIGN.edit(
            t, ROLLER, "proficiency.set", {"name": "Athletics", "bonus": 3}, SeededRng(0)
        ),
    )
    t = after(t, CAMPAIGN.edit(t, ROLLER, "rename", {"name": "Ana the Bold"}, SeededRng(0)))
    ana = CharacterSheet.from_dict(t.seats[ROLLER].sheet)
    assert ana.ability_strength("might") is AbilityStrength.STRONG
    assert ana.proficiency_bonus("Athletics") == 3 and ana.name == "Ana the Bold"
    t = after(t, CAMPAIGN.edit(t, ROLLER, "ability.remove", {"name": "Might"}, SeededRng(0)))
    t = after(
        t, CAMPAIGN.edit(t, ROLLER, "proficiency.remove", {"name": "Athletics"}, SeededRng(0))
    )
    assert CharacterSheet.from_dict(t.seats[ROLLER].sheet).abilities == ()


def test_a_player_may_not_edit_someone_elses_sheet() -> None:
    with pytest.raises(NotYourTurn):
        CAMPAIGN.edit(
            table(),
            ROLLER,
            "ability.set",
            {"player": OTHER, "name": "Might", "strength": "weak"},
            SeededRng(0),
        )


def test_locked_sheets_are_the_gms_to_change() -> None:
    t = after(table(), CAMPAIGN.edit(table(), GM, "sheets.lock", {"locked": True}, SeededRng(0)))
    with pytest.raises(NotAllowedNow, match="locked"):
        CAMPAIGN.edit(t, ROLLER, "proficiency.set", {"name": "Lore", "bonus": 1}, SeededRng(0))
    outcome = CAMPAIGN.edit(
        t, GM, "proficiency.set", {"player": ROLLER, "name": "Lore", "bonus": 1}, SeededRng(0)
    )
    assert outcome.sheets[ROLLER]["proficiencies"] == [{"name": "Lore", "bonus": 1}]
    with pytest.raises(NotYourTurn):
        CAMPAIGN.edit(t, ROLLER, "sheets.lock", {"locked": False}, SeededRng(0))


def test_only_the_gm_adds_and_heals_harm() -> None:
    t = table()
    with pytest.raises(NotYourTurn):
        CAMPAIGN.edit(t, ROLLER, "harm.add", {"strain": 1}, SeededRng(0))
    t = after(
        t,
        CAMPAIGN.edit(
            t, GM, "harm.add", {"player": ROLLER, "strain": 5, "wounds": 4}, SeededRng(0)
        ),
    )
    assert (t.seats[ROLLER].sheet["strain"], t.seats[ROLLER].sheet["wounds"]) == (1, 5)
    t = after(
        t,
        CAMPAIGN.edit(
            t, GM, "harm.heal", {"player": str(ROLLER), "strain": 1, "wounds": 2}, SeededRng(0)
        ),
    )
    assert (t.seats[ROLLER].sheet["strain"], t.seats[ROLLER].sheet["wounds"]) == (0, 3)


@pytest.mark.parametrize(
    ("actor", "action", "payload", "error"),
    [
        (ROLLER, "pool.flip", {}, Malformed),
        (ROLLER, "ability.set", {"name": "Might", "strength": "huge"}, Malformed),
        (ROLLER, "proficiency.set", {"name": "Lore", "bonus": 21}, Malformed),
        (ROLLER, "rename", {"name": "x" * 41}, Malformed),
        (GM, "ability.set", {"name": "Might", "strength": "weak"}, NotAllowedNow),
        (GM, "harm.add", {"player": STRANGER, "strain": 1}, NotAllowedNow),
        (GM, "harm.add", {"player": True}, Malformed),
        (GM, "sheets.lock", {"locked": "yes"}, Malformed),
    ],
)
def test_bad_edits_are_refused(actor: int, action: str, payload: Json, error: type) -> None:
    with pytest.raises(error):
        CAMPAIGN.edit(table(), actor, action, payload, SeededRng(0))


# -- the Game Master calls for a check ---------------------------------------------


def test_the_gm_calls_for_a_players_check_and_the_player_rolls() -> None:
    t = table(
        sheets={ROLLER: CharacterSheet("Ana").with_ability("Wits", AbilityStrength.WEAK).to_dict()}
    )
    outcome = CHECK.open(t, GM, f"for={ROLLER} wits dc14", ScriptedRng([]))
    check = CheckPanelState.from_dict(outcome.state).check
    assert check.roller == ROLLER and check.game_master == GM
    assert check.setup.ability is AbilityStrength.WEAK and check.target.value == 14  # type: ignore[union-attr]
    with pytest.raises(NotYourTurn):
        CHECK.act(t, outcome.state, GM, "roll", "", ScriptedRng([5]))


@pytest.mark.parametrize(
    ("actor", "argument", "error"),
    [
        (GM, f"for={STRANGER}", NotAllowedNow),
        (GM, "for=ana", Malformed),
    ],
)
def test_the_gm_calls_only_for_a_seated_players_check(
    actor: int, argument: str, error: type
) -> None:
    with pytest.raises(error):
        CHECK.open(table(), actor, argument, ScriptedRng([]))


def test_a_player_calling_for_anyone_makes_their_own_check() -> None:
    for named in (ROLLER, OTHER, GM):
        outcome = CHECK.open(table(), ROLLER, f"for={named} dc12", ScriptedRng([]))
        assert CheckPanelState.from_dict(outcome.state).check.roller == ROLLER


EDIT_PAYLOADS: dict[str, Json] = {
    "rename": {"name": "Cid"},
    "ability.set": {"name": "Might", "strength": AbilityStrength.STRONG.value},
    "ability.remove": {"name": "Might"},
    "proficiency.set": {"name": "Lore", "bonus": 1},
    "proficiency.remove": {"name": "Lore"},
    "harm.add": {"strain": 1},
    "harm.heal": {"strain": 1},
}


@pytest.mark.parametrize("locked", [False, True])
@pytest.mark.parametrize("viewer", [ROLLER, GM, OTHER, STRANGER])
def test_the_sheet_page_offers_exactly_the_edits_the_rules_accept(
    viewer: int, locked: bool
) -> None:
    t = table(locked=locked)
    page = page_choices(t, viewer)
    assert page.runs_table is (viewer == GM)
    assert set(page.sheets) == {ROLLER, OTHER}  # the Game Master has no sheet
    assert page.table_edits == ({"sheets.lock"} if viewer == GM else set())
    for player in (ROLLER, OTHER):
        for action, payload in EDIT_PAYLOADS.items():
            try:
                CAMPAIGN.edit(t, viewer, action, {**payload, "player": player}, SeededRng(0))
                accepted = True
            except (NotYourTurn, NotAllowedNow):
                accepted = False
            assert (action in page.sheet(player).edits) is accepted, (viewer, player, action)
    assert set(EDIT_PAYLOADS) | {"sheets.lock"} == set(EDITS)
