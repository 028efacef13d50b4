"""The library's games at the table: one generic game system per definition."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.dicesystem import (
    OWN,
    ROLL_PANEL,
    STAT_SET,
    SYSTEMS,
    Mistyped,
    RollAction,
    RolledPanel,
    choices,
    definition_of,
    needs_odds,
    player_stats,
    read_roll,
    remember_odds,
    system_odds,
)
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.systems import LIBRARY, library_definition, odds, parse_args
from core.rules.systems.library import library_text
from core.rules.table import Role, Seat, Table
from core.words.i18n import lang_for

ANA = 7


def table_of(key: str, state: object = None) -> Table:
    system = default_registry().find(key)
    seats = {ANA: Seat(ANA, "Ana", frozenset({Role.HOST, Role.PLAYER}))}
    return Table(1, key, state or system.campaign.new_state(), seats)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", LIBRARY)
def test_every_library_game_is_a_registered_system_that_keeps_its_definition(key: str) -> None:
    system = default_registry().find(key)
    definition = library_definition(key)
    assert system.name == definition.name.en and system.roll_panel == ROLL_PANEL
    state = system.campaign.new_state()
    assert state["system"] == {"key": key, "version": definition.version, "text": library_text(key)}
    assert definition_of(state) is definition  # the library's own, read once
    # its example rolls, and reads back as it fell
    opened = system.panel(ROLL_PANEL).open(table_of(key), ANA, definition.example, SeededRng(3))
    rolled = system.panel(ROLL_PANEL).read(opened.state)
    assert opened.closed == (not rolled.offers)  # open while a follow-up is offered
    assert rolled == opened.model and rolled.by == ANA
    assert rolled.outcome_key in {band.key for band in definition.outcomes}
    assert system.procedure(ROLL_PANEL, opened.state) == f"{ROLL_PANEL}:{ANA}"


def test_the_library_games_come_in_the_librarys_order_then_a_groups_own() -> None:
    assert tuple(s.key for s in SYSTEMS) == (*LIBRARY, OWN)


def test_a_pbta_roll_names_its_outcome_and_its_exact_chance() -> None:
    panel = default_registry().find("pbta").panel(ROLL_PANEL)
    opened = panel.open(table_of("pbta"), ANA, "+2", ScriptedRng([3, 5]))
    rolled = opened.model
    assert isinstance(rolled, RolledPanel)
    assert rolled.value == 10 and rolled.outcome.en == "Strong hit"
    assert rolled.chance == Fraction(15, 36)  # 15 of the 36 pairs reach 8 or more
    assert rolled.groups[0][2] == (((3,), True), ((5,), True))
    assert rolled.shows_value


def test_blades_reads_degrees_so_its_number_is_not_shown() -> None:
    opened = (
        default_registry()
        .find("blades")
        .panel(ROLL_PANEL)
        .open(table_of("blades"), ANA, "2", ScriptedRng([6, 6]))
    )
    rolled = opened.model
    assert isinstance(rolled, RolledPanel)
    assert rolled.outcome.en == "Critical success" and not rolled.shows_value
    assert rolled.chance == Fraction(1, 36)


def test_a_running_game_plays_the_rules_it_started_with() -> None:
    text = library_text("pbta").replace('en = "Strong hit"', 'en = "Great hit"', 1)
    state = {"v": 1, "system": {"key": "pbta", "version": 1, "text": text}}
    definition = definition_of(state)
    assert definition is not library_definition("pbta")
    panel = default_registry().find("pbta").panel(ROLL_PANEL)
    rolled = panel.open(table_of("pbta", state), ANA, "+2", ScriptedRng([3, 5])).model
    assert isinstance(rolled, RolledPanel) and rolled.outcome.en == "Great hit"


@pytest.mark.parametrize("state", [{}, {"system": {"key": "pbta"}}, {"system": "pbta"}])
def test_a_damaged_campaign_state_is_refused(state: dict[str, object]) -> None:
    with pytest.raises(Malformed):
        definition_of(state)


def test_a_damaged_roll_is_refused() -> None:
    with pytest.raises(Malformed):
        RolledPanel.from_dict({"by": 1, "system": {"en": "x"}})


def test_dice_notation_is_left_to_the_dice_and_a_mistyped_roll_gets_the_games_reason() -> None:
    pbta = library_definition("pbta")
    for dice in ("2d6", "d20 adv", "3d6+1"):
        with pytest.raises(Malformed) as error:
            read_roll(pbta, dice)
        assert not isinstance(error.value, Mistyped)
    for mistyped, reason in (
        ("+9", "out of range"),
        ("banana", "couldn't read"),
        ("dc5", "couldn't read"),
    ):
        with pytest.raises(Mistyped, match=reason):
            read_roll(pbta, mistyped)


@given(st.text(max_size=20))
def test_any_text_is_a_roll_in_range_or_refused_one_way_or_the_other(text: str) -> None:
    coc = library_definition("coc")
    try:
        inputs = read_roll(coc, text)
    except Malformed:
        return
    assert inputs == parse_args(coc, text)
    for key, value in inputs.items():
        assert coc.input(key).low <= value <= coc.input(key).high


def test_odds_go_to_the_heavy_pool_as_a_picklable_job() -> None:
    savage = library_definition("savage")
    inputs = parse_args(savage, savage.odds_example)
    job = pickle.loads(pickle.dumps((system_odds, savage, inputs)))
    assert job[1] == savage
    coc = library_definition("coc")
    assert system_odds(coc, {"skill": 45}) == odds(coc, {"skill": 45})


@pytest.mark.parametrize("key", LIBRARY)
def test_a_library_game_is_named_and_summed_up_in_the_readers_language(
    key: str,
) -> None:
    definition = library_definition(key)
    name = default_registry().find(key).name  # what /status, /endgame and the rest translate
    assert lang_for("ru").gettext(name) == definition.name.ru
    assert lang_for("en").gettext(name) == definition.name.en
    summary = default_registry().find(key).summary  # what a new game's message sums it up with
    assert lang_for("ru").gettext(summary) == definition.about.ru


def test_a_roll_set_up_with_buttons_steps_within_ranges_and_rolls_for_its_roller_only() -> None:
    coc = default_registry().find("coc")
    rules, table = coc.panel(ROLL_PANEL), table_of("coc")
    opened = rules.open(table, ANA, "  ", SeededRng(1))
    panel = opened.model
    assert isinstance(panel, RolledPanel) and not panel.rolled and not opened.closed
    offered = {(c.verb, c.argument) for c in choices(panel)}
    skill = library_definition("coc").input("skill")
    # a wide skill steps by one and by ten; the bonus die by one, both ways
    assert (RollAction.SET, f"skill.{skill.default + 10}") in offered
    assert (RollAction.SET, "bonus.1") in offered and (RollAction.SET, "bonus.-1") in offered
    assert all(c.by == frozenset({ANA}) for c in choices(panel))
    with pytest.raises(NotYourTurn):
        rules.act(table, opened.state, ANA + 1, "set", "bonus.1", SeededRng(1))
    with pytest.raises(NotAllowedNow):
        rules.act(table, opened.state, ANA, "set", "bonus.3", SeededRng(1))  # out of range
    stepped = rules.act(table, opened.state, ANA, "set", "bonus.1", SeededRng(1))
    rolled = rules.act(table, stepped.state, ANA, "roll", "", ScriptedRng([3, 7, 1]))
    assert rolled.closed and isinstance(rolled.model, RolledPanel)
    assert dict((k, v) for k, v, _, _ in rolled.model.inputs)["bonus"] == 1
    assert choices(rolled.model) == ()
    with pytest.raises(NotAllowedNow):
        rules.act(table, rolled.state, ANA, "roll", "", SeededRng(1))


@pytest.mark.parametrize("key", LIBRARY)
def test_every_input_of_every_game_can_be_stepped_to_both_ends(key: str) -> None:
    rules, table = default_registry().find(key).panel(ROLL_PANEL), table_of(key)
    panel = rules.open(table, ANA, "", SeededRng(1)).model
    assert isinstance(panel, RolledPanel)
    for field in library_definition(key).inputs:
        for end in (field.low, field.high):
            walked = panel
            while dict((k, v) for k, v, _, _ in walked.inputs)[field.key] != end:
                here = dict((k, v) for k, v, _, _ in walked.inputs)[field.key]
                toward = [
                    c
                    for c in choices(walked)
                    if c.name == field.key and (c.count > 0) == (end > here)
                ]
                best = max(toward, key=lambda c: abs(c.count))
                walked = rules.act(table, walked, ANA, "set", best.argument, SeededRng(1)).model


def test_dear_odds_are_worked_out_elsewhere_and_then_named_by_the_roll() -> None:
    savage = library_definition("savage")
    inputs = parse_args(savage, "d12 +6")
    assert needs_odds(savage, inputs)
    panel = default_registry().find("savage").panel(ROLL_PANEL)
    before = panel.open(table_of("savage"), ANA, "d12 +6", SeededRng(5)).model
    assert isinstance(before, RolledPanel) and before.chance is None
    worked_out = system_odds(savage, inputs)  # as the heavy pool does it
    remember_odds(savage, worked_out)
    assert not needs_odds(savage, inputs)
    after = panel.open(table_of("savage"), ANA, "d12 +6", SeededRng(5)).model
    assert isinstance(after, RolledPanel)
    assert after.chance == worked_out.chance(after.outcome_key)


def test_a_player_sets_their_own_stats_within_range_and_rolls_one_by_name() -> None:
    system = default_registry().find("pbta")
    table = table_of("pbta")
    edited = system.campaign.edit(table, ANA, STAT_SET, {"stat": "hard", "value": 3}, SeededRng(1))
    sheet = edited.sheets[ANA]
    assert sheet["stats"] == {"cool": 0, "hard": 3, "hot": 0, "sharp": 0, "weird": 0}
    seated = {ANA: Seat(ANA, "Ana", frozenset({Role.PLAYER}), sheet)}
    after = Table(1, "pbta", table.state, seated)
    assert player_stats(library_definition("pbta"), sheet)["hard"] == 3
    rolled = system.panel(ROLL_PANEL).open(after, ANA, "hard", ScriptedRng([1, 1]))
    assert rolled.model.inputs[0][:2] == ("stat", 3)  # type: ignore[attr-defined]
    assert rolled.model.value == 5 and rolled.model.outcome_key == "miss"  # type: ignore[attr-defined]
    assert rolled.model.chance == odds(library_definition("pbta"), {"stat": 3}).chance("miss")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("action", "payload", "error"),
    [
        (STAT_SET, {"stat": "hard", "value": 5}, Malformed),
        (STAT_SET, {"stat": "hard", "value": "2"}, Malformed),
        (STAT_SET, {"stat": "hard", "value": True}, Malformed),
        (STAT_SET, {"stat": "luck", "value": 1}, Malformed),
        ("stat.drop", {"stat": "hard"}, Malformed),
    ],
)
def test_a_stat_out_of_range_unknown_or_another_edit_is_refused(
    action: str, payload: dict[str, object], error: type[Exception]
) -> None:
    system = default_registry().find("pbta")
    with pytest.raises(error):
        system.campaign.edit(table_of("pbta"), ANA, action, payload, SeededRng(1))
    with pytest.raises(NotAllowedNow):  # not seated
        system.campaign.edit(
            table_of("pbta"), 99, STAT_SET, {"stat": "hard", "value": 1}, SeededRng(1)
        )


def test_a_stats_roll_names_the_stat_in_both_languages_even_at_its_default() -> None:
    system = default_registry().find("coc")
    rolled = system.panel(ROLL_PANEL).open(table_of("coc"), ANA, "library_use", SeededRng(2))
    assert isinstance(rolled.model, RolledPanel)
    [(key, value, words, _)] = rolled.model.inputs
    assert (key, value, words.en, words.ru) == ("skill", 20, "Library Use", "Работа в библиотеке")


BO = 8


def test_a_push_is_its_rollers_once_and_the_roll_stays_open_until_then() -> None:
    system = default_registry().find("yze")
    panel = system.panel(ROLL_PANEL)
    table = table_of("yze")
    opened = panel.open(table, ANA, "4", ScriptedRng([6, 3, 1, 2]))
    rolled = opened.model
    assert isinstance(rolled, RolledPanel) and not opened.closed
    assert [(c.verb, c.argument, c.by) for c in choices(rolled)] == [
        (RollAction.FOLLOW, "push", frozenset({ANA}))
    ]
    assert panel.waiting(table, rolled).awaited == frozenset()  # nobody has to push
    offer = rolled.offers[0]
    assert offer.label.en == "Push" and offer.odds is not None
    assert dict((w.en, c) for w, c in offer.odds) == {
        "Success, three or more sixes": Fraction(2, 27),  # 3 rerolled dice, 2+ sixes
        "Success, two sixes": Fraction(75, 216),
        "Success": Fraction(125, 216),
    }
    with pytest.raises(NotYourTurn):
        panel.act(table, rolled, BO, "follow", "push", ScriptedRng([]))
    pushed = panel.act(table, rolled, ANA, "follow", "push", ScriptedRng([6, 1, 5]))
    after = pushed.model
    assert isinstance(after, RolledPanel) and pushed.closed
    assert after.groups[0][2] == (((6,), True), ((6,), True), ((1,), True), ((5,), True))
    assert after.outcome.en == "Success, two sixes" and after.chance == Fraction(75, 216)
    assert [m.en for m in after.marks] == ["Pushed with a 1: take the cost"]
    assert [line.label for line in after.lines] == [None, offer.label]
    assert after.lines[0].outcome.en == "Success" and after.made == (("push", 1),)
    assert panel.read(pushed.state) == after  # it reads back as it fell
    with pytest.raises(NotAllowedNow):
        panel.act(table, after, ANA, "follow", "push", ScriptedRng([6, 6, 6]))


def test_a_benny_that_rolls_worse_leaves_the_better_roll_standing() -> None:
    system = default_registry().find("savage")
    panel = system.panel(ROLL_PANEL)
    table = table_of("savage")
    remember_odds(library_definition("savage"), odds(library_definition("savage"), {"trait": 8}))
    opened = panel.open(table, ANA, "d8", ScriptedRng([5, 2]))  # 5: a success
    rolled = opened.model
    assert isinstance(rolled, RolledPanel) and rolled.outcome.en == "Success"
    again = panel.act(table, rolled, ANA, "follow", "benny", ScriptedRng([2, 3]))
    after = again.model
    assert isinstance(after, RolledPanel) and not again.closed  # two Bennies more
    assert after.outcome.en == "Success" and after.value == rolled.value
    assert after.lines[-1].outcome.en == "Failure" and after.lines[-1].chance is None
    offer = rolled.offers[0]
    assert offer.odds is not None and after.chance == dict(offer.odds)[after.outcome]
    assert after.made == (("benny", 1),)


def test_a_roll_without_follow_ups_closes_at_once_and_takes_none() -> None:
    panel = default_registry().find("pbta").panel(ROLL_PANEL)
    opened = panel.open(table_of("pbta"), ANA, "+1", ScriptedRng([3, 5]))
    assert opened.closed and choices(opened.model) == ()  # type: ignore[arg-type]
    with pytest.raises(NotAllowedNow):
        panel.act(table_of("pbta"), opened.model, ANA, "follow", "push", ScriptedRng([]))  # type: ignore[arg-type]
