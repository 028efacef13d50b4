"""Sheets, settings, die ratings, the stress maths and saved state."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.cortex.dice import Die, RolledDie, kept_indexes
from core.rules.cortex.pool import Pick, PickKind, extras_cost
from core.rules.cortex.state import Seat, Table
from core.rules.cortex.stress import (
    adjust_pool,
    end_of_episode,
    recover,
    relieve,
    roll_stress,
    stepped_stress,
    stress_pool,
)
from core.rules.cortex.traits import (
    DEFAULT_STRESS_TYPES,
    CortexSettings,
    Role,
    Sheet,
    StressEntry,
    Value,
)
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.rng import ScriptedRng
from tests.core.rules.cortex.conftest import CLARK, make_table


def test_default_stress_types_follow_ruling_18() -> None:
    assert DEFAULT_STRESS_TYPES == ("Afraid", "Angry", "Exhausted", "Injured", "Insecure")
    assert CortexSettings().stress_type("injured") == "Injured"
    custom = CortexSettings(stress_types=("Hungry",))
    assert custom.stress_type("HUNGRY") == "Hungry"
    with pytest.raises(Malformed):
        custom.stress_type("Afraid")


def test_die_ladder_steps() -> None:
    assert Die.D4.stepped_back() is None and Die.D12.stepped_up() is None
    assert Die.D8.stepped_up() is Die.D10 and Die.D8.stepped_back() is Die.D6
    assert Die.parse("D10") is Die.D10
    for bad in ("d7", "x", True, 3.0, "d100"):
        with pytest.raises(Malformed):
            Die.parse(bad)


def test_a_rolled_die_shows_a_face_it_has() -> None:
    with pytest.raises(Malformed):
        RolledDie(Die.D4, 5, "x")


def test_sheet_validation() -> None:
    with pytest.raises(Malformed):
        Sheet(name=" ")
    with pytest.raises(Malformed):
        Sheet(name="A", plot_points=-1)
    with pytest.raises(Malformed):
        Sheet(name="A", values=(Value("Truth", Die.D6), Value("truth", Die.D8)))
    with pytest.raises(Malformed):
        Sheet(name="A", stress=(StressEntry("Angry", Die.D6), StressEntry("Angry", Die.D8)))


def test_a_lead_cannot_spend_plot_points_it_lacks() -> None:
    with pytest.raises(NotAllowedNow):
        CLARK.spend_plot_points(3)
    assert CLARK.spend_plot_points(2).plot_points == 0


def test_table_validation() -> None:
    table = make_table()
    with pytest.raises(Malformed):
        Table(watchtower=1, seats=(Seat(1, "Clark"),), sheets=(CLARK,))
    with pytest.raises(Malformed):
        Table(watchtower=9, seats=(), sheets=(CLARK,))  # a Lead with no player
    bad = table.sheet("Clark").with_stress("Hungry", Die.D6)
    with pytest.raises(Malformed):
        table.with_sheet(bad)


def test_growth_die_of_any_size_buys_a_special_effect() -> None:
    sheet = relieve(CLARK.with_stress("Afraid", Die.D8), "Afraid")
    sheet = sheet.spend_growth(Die.D8, "Heat vision")
    assert sheet.growth == () and sheet.special_effects == ("Heat vision",)
    with pytest.raises(NotAllowedNow):
        sheet.spend_growth(Die.D6, "Flight")


def test_extras_cost_one_per_trait_beyond_the_first_in_a_box() -> None:
    picks = [
        Pick(PickKind.VALUE, "a"),
        Pick(PickKind.VALUE, "b"),
        Pick(PickKind.ASSET, "c"),
        Pick(PickKind.OPPONENT_STRESS, "Angry"),
        Pick(PickKind.OPPONENT_LIMIT, "Weak"),
        Pick(PickKind.DETAIL, "d"),
        Pick(PickKind.DETAIL, "e"),
    ]
    assert extras_cost(picks) == 2


@pytest.mark.parametrize(
    ("current", "inflicted", "expected", "out"),
    [
        (None, Die.D6, Die.D6, False),
        (Die.D4, Die.D8, Die.D8, False),
        (Die.D8, Die.D8, Die.D10, False),
        (Die.D10, Die.D6, Die.D12, False),
        (Die.D12, Die.D4, Die.D12, True),
    ],
)
def test_stepping_up_stress(current: Die | None, inflicted: Die, expected: Die, out: bool) -> None:
    assert stepped_stress(current, inflicted) == (expected, out)


def test_stress_past_d12_is_stressed_out() -> None:
    from core.rules.cortex.stress import inflict

    sheet, change = inflict(CLARK.with_stress("Angry", Die.D12), "Angry", Die.D6)
    assert sheet.stressed_out and change.stressed_out


def test_stress_pool_skips_1s() -> None:
    rolled = (RolledDie(Die.D8, 1, "a"), RolledDie(Die.D6, 4, "b"))
    assert stress_pool(rolled) == (Die.D6,)


def test_stress_roll_ignores_1s() -> None:
    rolled, size = roll_stress((Die.D12, Die.D4), ScriptedRng([1, 2]))
    assert size is Die.D4 and len(rolled) == 2
    assert roll_stress((Die.D12,), ScriptedRng([1]))[1] is None


def test_adjust_pool() -> None:
    assert adjust_pool((Die.D6,), add=(Die.D8,), remove=(Die.D6,)) == (Die.D8,)
    with pytest.raises(NotAllowedNow):
        adjust_pool((Die.D6,), remove=(Die.D8,))


def test_recovery_from_assets_steps_back_without_growth() -> None:
    sheet = recover(CLARK.with_stress("Angry", Die.D6), "Angry")
    assert sheet.stress_of("Angry") is Die.D4 and sheet.growth == ()
    assert recover(sheet, "Angry").stress_of("Angry") is None


def test_end_of_episode_clears_d4_stress_and_challenges() -> None:
    sheet = CLARK.with_stress("Angry", Die.D4).with_value_challenged("Justice")
    after = end_of_episode(sheet)
    assert after.stress == () and not after.value("Justice").challenged
    assert after.growth == (Die.D10,)


def test_kept_indexes_prefer_high_faces_then_larger_dice() -> None:
    rolled = (RolledDie(Die.D6, 5, "a"), RolledDie(Die.D8, 5, "b"), RolledDie(Die.D4, 1, "c"))
    assert kept_indexes(rolled, 1) == (1,)
    assert kept_indexes(rolled, 5) == (0, 1)


def test_state_round_trips_through_json() -> None:
    table = make_table()
    again = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again == table


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(["Clark", "d8", "lead", "x"]),
    lambda x: (
        st.lists(x, max_size=3)
        | st.dictionaries(st.sampled_from(["name", "die", "role", "values", "type"]), x)
    ),
    max_leaves=8,
)


@settings(max_examples=60)
@given(st.sampled_from(["sheets", "seats", "conflict", "trouble", "settings"]), JUNK)
def test_damaged_state_is_refused_as_malformed(key: str, junk: object) -> None:
    data = make_table().to_dict()
    data[key] = junk
    try:
        Table.from_dict(data)
    except Malformed:
        return


def test_unknown_state_version_is_refused() -> None:
    with pytest.raises(Malformed):
        Table.from_dict({"version": 99})


def test_a_sheet_round_trips_and_validates_on_load() -> None:
    data = CLARK.to_dict()
    assert Sheet.from_dict(json.loads(json.dumps(data))) == CLARK
    for broken in (
        {**data, "plot_points": -1},
        {**data, "values": [{"name": "Truth", "die": 7}]},
        {**data, "name": ""},
        {k: v for k, v in data.items() if k != "name"},
    ):
        with pytest.raises(Malformed):
            Sheet.from_dict(broken)


def test_seating_leads_and_features() -> None:
    table = Table(watchtower=9)
    table = table.seat_lead(1, CLARK).add_feature(replace(CLARK, name="Lex", role=Role.FEATURE))
    assert table.controller("Clark") == 1 and table.controller("Lex") == 9
    with pytest.raises(NotAllowedNow):
        table.seat_lead(1, replace(CLARK, name="Other"))
    with pytest.raises(NotAllowedNow):
        table.seat_lead(9, replace(CLARK, name="Other"))
    with pytest.raises(NotAllowedNow):
        table.seat_lead(2, CLARK)
    with pytest.raises(Malformed):
        table.add_feature(replace(CLARK, name="Other"))


def test_only_the_owner_edits_a_sheet_and_not_mid_roll() -> None:
    from core.rules.cortex import actions as a
    from core.rules.cortex.contest import apply

    table = make_table()
    richer = replace(table.sheet("Clark"), plot_points=5)
    assert table.update_sheet(1, richer).sheet("Clark").plot_points == 5
    with pytest.raises(NotYourTurn):
        table.update_sheet(2, richer)
    with pytest.raises(NotAllowedNow):
        table.update_sheet(1, replace(richer, role=Role.FEATURE))
    busy = apply(table, 1, a.StartTest("Clark"), ScriptedRng([])).table
    with pytest.raises(NotAllowedNow):
        busy.update_sheet(1, richer)


@settings(max_examples=80)
@given(
    st.sampled_from(["values", "assets", "stress", "plot_points", "growth", "role", "name"]),
    JUNK,
)
def test_any_sheet_data_loads_valid_or_is_malformed(key: str, junk: object) -> None:
    data = CLARK.to_dict()
    data[key] = junk
    try:
        sheet = Sheet.from_dict(data)
    except Malformed:
        return
    assert sheet.plot_points >= 0 and sheet.name.strip()
    assert Sheet.from_dict(sheet.to_dict()) == sheet
