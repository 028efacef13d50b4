"""Rolling a system, reading what players type, and the odds' sums."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.systems import (
    LIBRARY,
    inputs_for,
    library_definition,
    odds,
    parse_args,
    parse_stat_roll,
    play,
    roll,
    stat_values,
)
from core.rules.systems.definition import Definition
from core.rules.systems.exact import Budget
from core.rules.systems.play import addends, read_system


def inputs_of(definition: Definition) -> st.SearchStrategy[dict[str, int]]:
    return st.fixed_dictionaries(
        {i.key: st.integers(i.low, i.high) for i in definition.inputs}
    )  # fmt: skip


@st.composite
def system_and_inputs(draw: st.DrawFn) -> tuple[Definition, dict[str, int]]:
    definition = library_definition(draw(st.sampled_from(LIBRARY)))
    return definition, draw(inputs_of(definition))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(system_and_inputs())
def test_every_systems_chances_sum_to_exactly_one(case: tuple[Definition, dict[str, int]]) -> None:
    definition, inputs = case
    result = odds(definition, inputs)
    assert sum(row.chance for row in result.outcomes) == Fraction(1)
    assert all(0 <= m.chance <= 1 for m in result.marks)
    assert result.steps <= play.estimate(definition, inputs)  # the bound holds


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(system_and_inputs(), st.integers(0, 2**32))
def test_a_seeded_roll_lands_on_an_outcome_that_can_happen(
    case: tuple[Definition, dict[str, int]], seed: int
) -> None:
    definition, inputs = case
    result = roll(definition, inputs, SeededRng(seed))
    chances = odds(definition, inputs)
    assert chances.chance(result.outcome.key) > 0
    by_mark = {m.mark.key: m.chance for m in chances.marks}
    assert all(by_mark[m.key] > 0 for m in result.marks)
    assert dict(result.inputs) == inputs


def test_a_roll_reads_its_dice() -> None:
    pbta = library_definition("pbta")
    result = roll(pbta, {"stat": 2}, ScriptedRng([6, 3]))
    assert (result.value, result.outcome.key) == (11, "strong")
    assert result.groups[0].dice == (((6,), True), ((3,), True))
    blades = library_definition("blades")
    zero = roll(blades, {"pool": 0}, ScriptedRng([6, 6]))
    assert zero.outcome.key == "full"  # a pool of none is never a critical
    two = roll(blades, {"pool": 2}, ScriptedRng([6, 6]))
    assert two.outcome.key == "critical"
    coc = library_definition("coc")
    # units 0, tens 00 and 30: with a bonus die, the lower result is 30, not 100
    bonus = roll(coc, {"skill": 40, "bonus": 1}, ScriptedRng([1, 1, 4]))
    assert (bonus.value, bonus.outcome.key) == (2, "regular")
    iron = roll(library_definition("ironsworn"), {"add": 2}, ScriptedRng([4, 7, 3]))
    assert iron.outcome.key == "weak" and [m.key for m in iron.marks] == []
    iron = roll(library_definition("ironsworn"), {"add": 2}, ScriptedRng([4, 7, 7]))
    assert iron.outcome.key == "miss" and [m.key for m in iron.marks] == ["match"]
    iron = roll(library_definition("ironsworn"), {"add": 4}, ScriptedRng([4, 7, 7]))
    assert iron.outcome.key == "strong" and [m.key for m in iron.marks] == ["match"]


def test_an_exploding_roll_shows_every_face_and_reads_their_sum() -> None:
    savage = library_definition("savage")
    result = roll(savage, {"trait": 4, "mod": 0, "wild": 1}, ScriptedRng([4, 4, 2, 3]))
    assert result.groups[0].dice == (((4, 4, 2), True),)
    assert (result.value, result.outcome.key) == (2, "raise")  # 10: a success and a raise


def test_a_roll_stops_exploding_where_its_group_says_and_keeps_again() -> None:
    l5r = library_definition("l5r")
    # 3k1: the first die rolls six 10s (the engine would go on), the others 7 and 9
    result = roll(l5r, {"roll": 3, "keep": 1, "tn": 40}, ScriptedRng([10] * 6 + [2, 7, 9]))
    assert result.groups[0].dice == (((10, 10, 10, 10), True), ((7,), False), ((9,), False))
    assert (result.value, result.outcome.key) == (0, "success")  # 40 against TN 40
    # 2k1: four 10s and a 3 would be 43; stopped at the fourth 10 it is 40, short of 41
    tied = roll(l5r, {"roll": 2, "keep": 1, "tn": 41}, ScriptedRng([10, 10, 10, 10, 3, 1]))
    assert tied.groups[0].dice == (((10, 10, 10, 10), True), ((1,), False))
    assert tied.outcome.key == "failure"


def test_past_ten_dice_rolled_they_turn_into_kept_dice_then_into_plus_two() -> None:
    l5r = library_definition("l5r")
    converted = roll(l5r, {"roll": 14, "keep": 3, "tn": 5}, SeededRng(7))
    assert converted.groups[0].notation == "10d10!!kh5"
    assert sum(kept for _, kept in converted.groups[0].dice) == 5
    capped = roll(l5r, {"roll": 30, "keep": 10, "tn": 5}, SeededRng(7))
    total = sum(sum(faces) for faces, _ in capped.groups[0].dice)
    assert capped.groups[0].notation == "10d10!!kh10"
    assert capped.value == total + 20 - 5  # ten kept dice past 10k10: +2 each


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("pbta", "+2", {"stat": 2}),
        ("pbta", "−1", {"stat": -1}),
        ("pbta", "", {"stat": 0}),
        ("blades", "2", {"pool": 2}),
        ("coc", "45", {"skill": 45, "bonus": 0}),
        ("coc", "45 bonus", {"skill": 45, "bonus": 1}),
        ("coc", "штраф2 30", {"skill": 30, "bonus": -2}),
        ("dnd5e", "+5 dc15 adv", {"mod": 5, "dc": 15, "edge": 1}),
        ("dnd5e", "dc 12 +3 ПОМЕХА", {"mod": 3, "dc": 12, "edge": -1}),
        ("dnd5e", "сл12", {"mod": 0, "dc": 12, "edge": 0}),
        ("yze", "4", {"pool": 4}),
        ("savage", "d8 +1 extra", {"trait": 8, "mod": 1, "wild": 0}),
        ("shadowrun", "8 t2", {"pool": 8, "threshold": 2}),
        ("cofd", "5 9again", {"pool": 5, "again": 9}),
    ],
)
def test_the_short_form_reads_numbers_prefixes_and_words(
    key: str, text: str, expected: dict[str, int]
) -> None:
    assert parse_args(library_definition(key), text) == expected


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("pbta", "+9", play.OUT_OF_RANGE),
        ("pbta", "+1 +2", play.TOO_MANY_NUMBERS),
        ("pbta", "sneak", play.UNKNOWN_WORD),
        ("dnd5e", "adv dis", play.GIVEN_TWICE),
        ("dnd5e", "dc", play.NEEDS_VALUE),
        ("dnd5e", "dc99", play.OUT_OF_RANGE),
    ],
)
def test_the_short_form_refuses_what_it_cant_take(key: str, text: str, message: str) -> None:
    with pytest.raises(Malformed) as caught:
        parse_args(library_definition(key), text)
    assert caught.value.message_id == message


def test_inputs_out_of_range_are_refused_before_rolling() -> None:
    with pytest.raises(Malformed):
        roll(library_definition("blades"), {"pool": 11}, SeededRng(1))
    with pytest.raises(Malformed):
        odds(library_definition("blades"), {"dice": 1})


def test_odds_past_a_smaller_budget_are_refused_before_the_work() -> None:
    savage = library_definition("savage")
    needed = play.estimate(savage, {"trait": 12})
    with pytest.raises(Malformed) as caught:
        odds(savage, {"trait": 12}, budget=needed - 1)
    assert caught.value.values == {"limit": needed - 1}
    budget = Budget(10)
    with pytest.raises(Malformed):
        budget.spend(11)


def test_a_refusal_says_what_the_game_takes_as_it_is_typed() -> None:
    with pytest.raises(Malformed) as caught:
        parse_args(library_definition("dnd5e"), "sneak")
    assert caught.value.values == {
        "text": "sneak",
        "takes": "-5..20, dc1..40/сл1..40, adv/dis/преим/помеха",
    }


def test_a_definition_and_its_odds_travel_to_another_process() -> None:
    """Exact odds run in worker processes: what they take and give is picklable."""
    import pickle

    coc = library_definition("coc")
    again = pickle.loads(pickle.dumps(coc))
    assert again == coc
    assert odds(again, {"skill": 45}) == pickle.loads(pickle.dumps(odds(coc, {"skill": 45})))
    result = roll(again, {"skill": 45}, SeededRng(3))
    assert pickle.loads(pickle.dumps(result)) == result


@pytest.mark.parametrize("key", [k for k in LIBRARY if library_definition(k).stats])
def test_a_library_stat_rolls_its_players_value_plus_what_follows_within_range(key: str) -> None:
    definition = library_definition(key)
    for stat in definition.stats:
        fed = definition.input(stat.feeds)
        assert fed.low <= stat.default <= fed.high and stat.name.en and stat.name.ru
        for value in (fed.low, stat.default, fed.high):
            rolled = parse_stat_roll(definition, stat.key, {stat.key: value})
            assert rolled == inputs_for(definition, {stat.feeds: value})
        # a bonus typed after it is added; past the range it is refused
        bonus = f"+{fed.high - fed.low}" if fed.positional else ""
        if bonus:
            with pytest.raises(Malformed):
                parse_stat_roll(definition, f"{stat.key} {bonus}", {stat.key: fed.high})
    assert parse_stat_roll(definition, definition.example, {}) is None


def test_a_players_stats_read_their_defaults_where_unset_or_no_longer_fitting() -> None:
    pbta = library_definition("pbta")
    kept = {"cool": 2, "hard": 9, "hot": True, "sharp": "1", "other": 1}
    assert stat_values(pbta, kept) == {"cool": 2, "hard": 0, "hot": 0, "sharp": 0, "weird": 0}
    assert parse_stat_roll(pbta, "Cool +1", {"cool": 2}) == {"stat": 3}
    assert parse_stat_roll(pbta, "хладнокровие", {"cool": -1}) == {"stat": -1}
    coc = library_definition("coc")
    assert parse_stat_roll(coc, "spot_hidden penalty", {}) == {"skill": 25, "bonus": -1}


@given(
    key=st.sampled_from([k for k in LIBRARY if library_definition(k).stats]),
    pick=st.integers(min_value=0, max_value=15),
    value=st.integers(min_value=-1000, max_value=1000),
    rest=st.text(alphabet="+-−0123456789 abdcefilnoprstuvw", max_size=12),
)
def test_any_words_after_a_stat_roll_within_range_or_are_refused(
    key: str, pick: int, value: int, rest: str
) -> None:
    definition = library_definition(key)
    stat = definition.stats[pick % len(definition.stats)]
    try:
        inputs = parse_stat_roll(definition, f"{stat.key} {rest}", {stat.key: value})
    except Malformed:
        return
    assert inputs is not None
    for field in definition.inputs:
        assert field.low <= inputs[field.key] <= field.high


@settings(max_examples=60, deadline=None)
@given(
    parts=st.lists(
        st.tuples(st.sampled_from(("+", "-")), st.sampled_from(("total(a)", "total(b)", "m", "3"))),
        min_size=1,
        max_size=5,
    ),
    seed=st.integers(0, 10_000),
    m=st.integers(-3, 3),
)
def test_a_sum_of_dice_inputs_and_numbers_adds_up_to_the_value(
    parts: list[tuple[str, str]], seed: int, m: int
) -> None:
    value = " ".join(f"{sign} {part}" for sign, part in parts)
    text = SUMS.replace("VALUE", value)
    definition = read_system(text)
    result = roll(definition, {"m": m}, SeededRng(seed))
    found = addends(definition, result)
    read = {p for _, p in parts}
    if {"total(a)", "total(b)"} <= read:  # every group with dice is summed
        faces = {g.key: [f for faces, _ in g.dice for f in faces] for g in result.groups}
        expected: list[int] = []
        for sign, part in parts:
            one = 1 if sign == "+" else -1
            if part.startswith("total"):
                expected += [one * f for f in faces[part[6]]]
            elif part == "m" and m:
                expected.append(one * m)
            elif part == "3":
                expected.append(one * 3)
        assert found == tuple(expected) and sum(expected) == result.value
    else:
        assert found is None  # a group rolled but not summed: the dice line stays


SUMS = """
key = "sums"
version = 1
source = "a test table"
value = "VALUE"
name = { en = "Sums", ru = "Суммы" }
about = { en = "Dice added up.", ru = "Сумма костей." }

[[inputs]]
key = "m"
name = { en = "modifier", ru = "модификатор" }
min = -3
max = 3

[dice.a]
count = "2"
die = "d6"

[dice.b]
count = "1"
die = "d4"

[[outcomes]]
key = "up"
min = 1
label = { en = "Up", ru = "Вверх" }

[[outcomes]]
key = "down"
max = 0
label = { en = "Down", ru = "Вниз" }
"""
