"""A definition is checked when read, and each mistake is named by its field."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.errors import Malformed
from core.rules.systems import definition as fmt
from core.rules.systems import reading
from core.rules.systems.definition import from_mapping, read_definition
from core.rules.systems.play import TOO_LARGE_DEFINITION, read_system
from tests.support.own_system import OUR_GAME

GOOD = OUR_GAME.replace("version = 1", "version = 2")


def good() -> dict[str, object]:
    import tomllib

    return tomllib.loads(GOOD)


def refused(data: dict[str, object]) -> Malformed:
    with pytest.raises(Malformed) as caught:
        read_system(json.dumps(data))
    return caught.value


def test_a_good_definition_reads_from_toml_and_from_json() -> None:
    toml = read_definition(GOOD)
    assert toml == read_definition(json.dumps(good()))
    assert (toml.key, toml.version, toml.name.ru) == ("mine", 2, "Наша игра")
    assert [b.key for b in toml.outcomes] == ["good", "bad"]


def test_an_explosion_on_every_face_is_refused() -> None:
    data = good()
    data["dice"] = {"roll": {"count": "2", "die": "d6!>0"}}
    error = refused(data)
    assert error.message_id == fmt.UNBOUNDED
    assert error.values["field"] == "dice.roll.die"


@pytest.mark.parametrize(
    ("bands", "message", "values"),
    [
        ([{"min": 8}, {"max": 8}], fmt.BANDS_OVERLAP, {"first": "good", "second": "bad"}),
        ([{"min": 9}, {"max": 7}], fmt.BANDS_GAP, {"first": "good", "second": "bad"}),
        ([{"min": 8, "max": 20}, {"max": 7}], fmt.BANDS_ORDER, {}),
        ([{"min": 8}, {"min": 0, "max": 7}], fmt.BANDS_ORDER, {}),
    ],
)
def test_bands_that_overlap_leave_a_gap_or_leave_numbers_out_are_refused(
    bands: list[dict[str, int]], message: str, values: dict[str, str]
) -> None:
    data = good()
    outcomes = data["outcomes"]
    assert isinstance(outcomes, list)
    for outcome, band in zip(outcomes, bands, strict=True):
        outcome.pop("min", None)
        outcome.pop("max", None)
        outcome.update(band)
    error = refused(data)
    assert error.message_id == message
    assert values.items() <= error.values.items()
    assert str(error.values["field"]).startswith("outcomes")


def test_a_range_out_of_bounds_and_a_default_outside_it_are_refused() -> None:
    data = good()
    data["inputs"][0]["max"] = fmt.MAX_INPUT_VALUE + 1  # type: ignore[index]
    error = refused(data)
    assert (error.message_id, error.values["field"]) == (fmt.RANGE_LIMIT, "inputs[0].max")
    data = good()
    data["inputs"][0]["default"] = 5  # type: ignore[index]
    error = refused(data)
    assert (error.message_id, error.values["field"]) == (fmt.DEFAULT_OUTSIDE, "inputs[0].default")
    data = good()
    data["inputs"][0]["min"] = 4  # type: ignore[index]
    assert refused(data).message_id == fmt.RANGE_ORDER


@pytest.mark.parametrize("label", ["<b>Good</b>", "Good &amp; fine", "a < b"])
def test_a_label_with_html_is_refused(label: str) -> None:
    data = good()
    data["outcomes"][0]["label"]["en"] = label  # type: ignore[index]
    error = refused(data)
    assert (error.message_id, error.values["field"]) == (fmt.LABEL_HTML, "outcomes[0].label.en")


def test_a_label_needs_every_language() -> None:
    data = good()
    del data["outcomes"][1]["label"]["ru"]  # type: ignore[index]
    error = refused(data)
    assert (error.message_id, error.values["field"]) == (fmt.NEEDS_LANGUAGE, "outcomes[1].label.ru")


def test_duplicate_keys_are_refused() -> None:
    data = good()
    data["outcomes"][1]["key"] = "good"  # type: ignore[index]
    assert refused(data).values == {"field": "outcomes", "name": "good"}
    data = good()
    data["inputs"] = [data["inputs"][0], data["inputs"][0]]  # type: ignore[index]
    assert refused(data).values == {"field": "inputs", "name": "mod"}
    data = good()
    data["let"] = {"mod": "1"}
    assert refused(data).values == {"field": "let", "name": "mod"}


def test_too_large_a_definition_is_refused_naming_the_limit() -> None:
    with pytest.raises(Malformed) as caught:
        read_definition(GOOD + "#" * fmt.MAX_DEFINITION)
    assert caught.value.values == {"limit": fmt.MAX_DEFINITION}
    data = good()
    outcome = data["outcomes"][0]  # type: ignore[index]
    many = [dict(outcome, key=f"o{i}") for i in range(fmt.MAX_OUTCOMES + 1)]
    data["outcomes"] = many
    assert refused(data).values == {"field": "outcomes", "limit": fmt.MAX_OUTCOMES}
    data = good()
    data["inputs"] = [dict(data["inputs"][0], key=f"i{i}") for i in range(fmt.MAX_INPUTS + 1)]  # type: ignore[index]
    assert refused(data).values == {"field": "inputs", "limit": fmt.MAX_INPUTS}


def test_a_definition_too_large_for_exact_odds_is_refused_saying_why() -> None:
    data = good()
    data["inputs"][0]["max"] = 400  # type: ignore[index]
    data["dice"] = {"roll": {"count": "max(mod, 1)", "die": "d20!"}}
    error = refused(data)
    assert error.message_id == TOO_LARGE_DEFINITION
    assert error.values["field"] == "inputs"
    assert "mod 400" in str(error.values["inputs"])


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("total(roll).__class__", reading.BAD_EXPRESSION),
        ("__import__('os')", reading.BAD_EXPRESSION),
        ("total(roll) ** 2", reading.BAD_EXPRESSION),
        ("[x for x in range(3)]", reading.BAD_EXPRESSION),
        ("total(roll) +", reading.BAD_EXPRESSION),
        ("stat + 1", reading.UNKNOWN_NAME),
        ("total(pool)", reading.UNKNOWN_GROUP),
        ("count(roll)", reading.BAD_COUNT),
        ("count(roll, 'many')", reading.BAD_COUNT),
        ("x" * (reading.MAX_EXPRESSION + 1), reading.LONG_EXPRESSION),
    ],
)
def test_a_reading_outside_the_language_is_refused_naming_the_field(
    value: str, message: str
) -> None:
    data = good()
    data["value"] = value
    error = refused(data)
    assert (error.message_id, error.values["field"]) == (message, "value")


@pytest.mark.parametrize(("depth", "kind"), [(0, "range"), (21, "range"), ("3", "type")])
def test_a_groups_explosion_depth_is_a_number_from_1_to_20(depth: object, kind: str) -> None:
    data = good()
    data["dice"] = {"roll": {"count": "2", "die": "d6!", "depth": depth}}
    error = refused(data)
    if kind == "range":
        assert error.values == {"field": "dice.roll.depth", "low": 1, "high": 20}
    else:
        assert error.values["field"] == "dice.roll.depth"


def test_listed_faces_must_match_the_die_and_a_die_must_be_one_term() -> None:
    data = good()
    data["dice"] = {"roll": {"count": "2", "die": "d6", "faces": [0, 1, 2]}}
    error = refused(data)
    assert (error.message_id, error.values["field"]) == (fmt.FACES_COUNT, "dice.roll.faces")
    for die in ("d6+1", "d6>=5", "d6!kh1", "d6 fire", "dq"):
        data = good()
        data["dice"] = {"roll": {"count": "2", "die": die}}
        error = refused(data)
        assert (error.message_id, error.values["field"]) == (fmt.BAD_DIE, "dice.roll.die"), die


def test_other_mistakes_name_their_field() -> None:
    data = good()
    data["colour"] = "red"
    assert refused(data).values == {"field": "colour"}
    data = good()
    data["key"] = "Mine!"
    assert refused(data).values["field"] == "key"
    data = good()
    data["version"] = 0
    assert refused(data).values["field"] == "version"
    data = good()
    del data["dice"]
    assert refused(data).values["field"] == "dice"
    data = good()
    data["outcomes"] = data["outcomes"][:1]  # type: ignore[index]
    assert refused(data).message_id == fmt.TOO_FEW_OUTCOMES
    data = good()
    data["inputs"][0]["words"] = {"en": {"3": 1}}  # type: ignore[index]
    assert refused(data).values["field"] == "inputs[0].words.en"
    with pytest.raises(Malformed) as caught:
        read_definition("key = ")
    assert caught.value.message_id == fmt.NOT_READABLE


def test_from_mapping_checks_the_same_as_reading_text() -> None:
    assert from_mapping(good()) == read_definition(GOOD)


def test_the_kind_a_field_needs_is_worded_in_the_readers_language() -> None:
    from core.rules.said import worded
    from core.words.i18n import lang_for

    data = good()
    data["version"] = "two"
    error = refused(data)
    assert (error.message_id, error.values["field"]) == (fmt.WRONG_TYPE, "version")
    ru = lang_for("ru")
    values = {k: worded(v, ru.gettext, ru.pgettext) for k, v in error.values.items()}
    assert ru.gettext(error.message_id, **values) == "«version»: ожидается целое число."


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=6), st.data())
def test_bands_are_read_only_when_they_cover_every_number_once(
    cuts: list[int], data: st.DataObject
) -> None:
    """Bands from the best down, each given a min and a max: read only when each band's
    min is one above the next band's max; then every number falls in exactly one."""
    lows: list[int | None] = [*sorted(set(cuts), reverse=True), None]
    highs: list[int | None] = [None]
    aligned = data.draw(st.booleans())  # each max one below the min above it, or drawn
    for index in range(1, len(lows)):
        above = lows[index - 1]
        assert above is not None
        low = lows[index]
        here = low if low is not None else above - 1
        highs.append(above - 1 if aligned else data.draw(st.integers(here - 2, above + 1)))
    bands: list[dict[str, object]] = []
    for index, (low, high) in enumerate(zip(lows, highs, strict=True)):
        band: dict[str, object] = {"key": f"b{index}", "label": {"en": "B", "ru": "Б"}}
        if low is not None:
            band["min"] = low
        if high is not None:
            band["max"] = high
        bands.append(band)
    pairs = list(zip(highs[1:], lows, strict=False))
    contiguous = all(
        high == above - 1 for high, above in pairs if above is not None and high is not None
    )
    ordered = all(
        low <= high
        for low, high in zip(lows, highs, strict=True)
        if low is not None and high is not None
    )
    contiguous = contiguous and ordered
    data_ = good()
    data_["outcomes"] = bands
    if not contiguous:
        with pytest.raises(Malformed) as caught:
            from_mapping(data_)
        assert str(caught.value.values["field"]).startswith("outcomes")
        return
    definition = from_mapping(data_)
    for number in range(-30, 31):
        assert sum(b.covers(number) for b in definition.outcomes) == 1


def with_stats(*stats: dict[str, object]) -> dict[str, object]:
    data = good()
    data["stats"] = list(stats)
    return data


def test_named_stats_feed_an_input_and_start_at_its_default_or_their_own() -> None:
    data = with_stats(
        {"key": "grit", "name": {"en": "Grit", "ru": "Стойкость"}, "input": "mod"},
        {"key": "wits", "name": {"en": "Wits", "ru": "Смекалка"}, "input": "mod", "default": 2},
    )
    definition = read_system(json.dumps(data))
    assert [(s.key, s.name.ru, s.feeds, s.default) for s in definition.stats] == [
        ("grit", "Стойкость", "mod", 0),
        ("wits", "Смекалка", "mod", 2),
    ]
    assert definition.stat("wits") is definition.stats[1] and definition.stat("mod") is None
    assert read_definition(GOOD).stats == ()  # stats are optional


def test_a_stat_feeding_an_unknown_input_is_refused_naming_the_inputs() -> None:
    error = refused(with_stats({"key": "grit", "name": {"en": "G", "ru": "С"}, "input": "pool"}))
    assert error.message_id == fmt.UNKNOWN_INPUT
    assert error.values == {"field": "stats[0].input", "name": "pool", "inputs": "mod"}


@pytest.mark.parametrize(
    ("stat", "message", "field"),
    [
        ({"key": "grit", "name": {"en": "G", "ru": "С"}, "input": "mod", "default": 4},
         fmt.DEFAULT_OUTSIDE, "stats[0].default"),
        ({"key": "grit", "name": {"en": "G"}, "input": "mod"},
         fmt.NEEDS_LANGUAGE, "stats[0].name.ru"),
        ({"key": "grit", "name": {"en": "G", "ru": "С"}}, fmt.MISSING, "stats[0].input"),
        ({"key": "Grit", "name": {"en": "G", "ru": "С"}, "input": "mod"},
         fmt.BAD_KEY, "stats[0].key"),
        ({"key": "grit", "name": {"en": "<b>G</b>", "ru": "С"}, "input": "mod"},
         fmt.LABEL_HTML, "stats[0].name.en"),
        ({"key": "grit", "name": {"en": "G", "ru": "С"}, "input": "mod", "max": 3},
         fmt.UNKNOWN_FIELD, "stats[0].max"),
    ],
)  # fmt: skip
def test_a_stat_out_of_its_inputs_range_or_misnamed_is_refused_naming_its_field(
    stat: dict[str, object], message: str, field: str
) -> None:
    error = refused(with_stats(stat))
    assert (error.message_id, error.values["field"]) == (message, field)


def test_a_stat_typed_as_an_inputs_word_or_twice_is_refused() -> None:
    data = with_stats({"key": "adv", "name": {"en": "A", "ru": "П"}, "input": "mod"})
    data["inputs"][0]["words"] = {"en": {"adv": 1}}  # type: ignore[index]
    error = refused(data)
    assert (error.message_id, error.values["name"]) == (fmt.STAT_CLASH, "adv")
    twice = {"key": "grit", "name": {"en": "G", "ru": "С"}, "input": "mod"}
    assert refused(with_stats(twice, twice)).message_id == fmt.STAT_CLASH
    many = [{**twice, "key": f"s{n}"} for n in range(fmt.MAX_STATS + 1)]
    assert refused(with_stats(*many)).message_id == fmt.TOO_MANY
