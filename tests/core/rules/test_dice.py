"""Dice notation: every example players bring from other dice bots, limits, refusals,
and properties: rolls stay within their exact bounds, odds match brute force."""

from __future__ import annotations

from collections import defaultdict

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.dice import MAX_DICE, MAX_TERMS, DiceExpression, dice_terms, parse, roll
from core.rules.dice_odds import STEP_BUDGET, estimate, odds
from core.rules.errors import Malformed
from core.rules.rng import ScriptedRng, SeededRng


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("2d6+3", "2d6 + 3"),
        ("4d6kh3", "4d6kh3"),
        ("4d6k3", "4d6kh3"),
        ("4d6 kh3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("d20 adv", "2d20kh1"),
        ("d20 advantage", "2d20kh1"),
        ("D20DIS", "2d20kl1"),
        ("1d20+5 adv", "2d20kh1 + 5"),
        ("1d20+5 dis", "2d20kl1 + 5"),
        ("1d20+5 преим", "2d20kh1 + 5"),
        ("1d20 + 5 помеха", "2d20kl1 + 5"),
        ("1d8 - 1d4 + 2", "1d8 - 1d4 + 2"),
        ("3d6dl1", "3d6dl1"),
        ("4d6dh1", "4d6dh1"),
        ("4d6p1", "4d6dl1"),
        ("d%", "1d100"),
        ("-d4", "-1d4"),
        ("  2d6  +  1d4 ", "2d6 + 1d4"),
        ("2d6 − 1", "2d6 - 1"),
        ("(1d8+3)*2", "(1d8 + 3) * 2"),
        ("2d6+1d4-1", "2d6 + 1d4 - 1"),
        ("((1d6+1)*2)/3", "((1d6 + 1) * 2) / 3"),
        ("(1d20+5, 1d20+3)kh1", "(1d20 + 5, 1d20 + 3)kh1"),
        ("2d6!", "2d6!"),
        ("2d6 !", "2d6!"),
        ("2d6!!", "2d6!!"),
        ("2d6!p", "2d6!p"),
        ("1d20e20", "1d20!"),
        ("2d6!>4", "2d6!>4"),
        ("1d20 r1", "1d20r1"),
        ("2d6r<3", "2d6r<3"),
        ("2d6rr1", "2d6r1"),
        ("2d6ro1", "2d6ro1"),
        ("2d6ra1", "2d6ra1"),
        ("2d6ra6", "2d6ra6"),
        ("3d6 >= 5", "3d6>=5"),
        ("10d10>=8f1", "10d10>=8f1"),
        ("6d6cs6", "6d6cs6"),
        ("5d10>7", "5d10>7"),
        ("5d10<3", "5d10<3"),
        ("4d6=6", "4d6=6"),
        ("4d6mi2", "4d6mi2"),
        ("4d6ma5", "4d6ma5"),
        ("4dF", "4dF"),
        ("4df+1", "4dF + 1"),
        ("6x4d6kh3", "6x4d6kh3"),
        ("4d6kh3 x6", "6x4d6kh3"),
        ("2d6[fire]+1d8[cold]", "2d6[fire] + 1d8[cold]"),
        ("2к6+1", "2d6 + 1"),
        ("3д6", "3d6"),
        ("2К6", "2d6"),
        ("1d20+5 adv >= 15", "2d20kh1 + 5 >= 15"),
    ],
)
def test_parses_the_notation_players_know(text: str, notation: str) -> None:
    expression = parse(text)
    assert expression.notation == notation
    assert parse(expression.notation) == expression


def test_a_note_is_only_text_that_cannot_be_notation() -> None:
    assert parse("d6 <i>sneaky</i> & bold").label == "<i>sneaky</i> & bold"
    expression = parse("d20adv + 5 sneak attack")
    assert (expression.notation, expression.label) == ("2d20kh1 + 5", "sneak attack")
    assert parse("2d6[fire] + 1d8[cold] огненный шар").label == "огненный шар"
    assert parse("1d20+5 adv to hit the goblin").label == "to hit the goblin"
    assert parse("d20 к бою").label == "к бою"
    assert parse("1d20 помеха от тумана").notation == "2d20kl1"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("6d6 o 3", "o"),
        ("2d6 | 3d6", "|"),
        ("2d6 * x", "x"),
        ("2d6 & 3", "&"),
        ("1d20 k", "k"),
        ("2d6 kh", "kh"),
        ("1d20 e", "e"),
        ("2d6 x", "x"),
        ("d20 2nd", "2nd"),
        ("2d6fire", "fire"),
        ("1d6)", ")"),
        ("2d6 +banana", "banana"),
    ],
)
def test_a_word_that_looks_like_notation_is_refused_by_name(text: str, named: str) -> None:
    with pytest.raises(Malformed) as caught:
        parse(text)
    assert caught.value.values.get("text") == named


@pytest.mark.parametrize(
    "text",
    [
        "", "   ", "banana", "2d", "d", "2d6+", "+", "2d6 3", "2d6 d8", "2d6++3",
        "5d6kh6", "5d6kh0", "3d6dl3", "2d20 adv", "4d6kh3 adv", "d20 adv dis", "d1", "d0",
        "0d6", "1001d6", "d1001", "500d6 + 501d6", "<b>2d6</b>", "99999999999999999999d6",
        "7 +", "1+2 >=", "2d6" + "+1" * MAX_TERMS, "x" * 1001, "1d6/(1d2-1)", "1d2!<3", "d6 r<7",
        "2d6!!!", "4d6mi7", "4d6mi5ma2", "10d10f1", "21x1d6", "(1d6", "(" * 11 + "1d6" + ")" * 11,
        "2d6!r1ra2", "3x2d6 x3", "1d20 >= 5 >= 6", "2d6 kh3", "100x10d6",
    ],
)  # fmt: skip
def test_rejects_nonsense_and_huge_rolls_with_a_friendly_message(text: str) -> None:
    with pytest.raises(Malformed) as caught:
        parse(text)
    assert caught.value.message


@pytest.mark.parametrize(
    "text",
    ["1d6*1000000*1000000*1000000", "-1d6*1000000*1000000*1000000", "1000d1000!*1000000*1000"],
)
def test_a_total_too_large_to_keep_is_refused_before_rolling(text: str) -> None:
    with pytest.raises(Malformed) as caught:
        parse(text)
    assert "too large" in caught.value.message


def test_a_large_total_within_the_limit_still_rolls() -> None:
    expression = parse("1d6*1000000*1000000")
    assert expression.maximum == 6 * 10**12


def test_the_limit_is_exactly_a_thousand_dice_of_a_thousand_sides() -> None:
    assert parse("1000d1000").dice_count == MAX_DICE
    assert parse("500d6 + 500d8").dice_count == MAX_DICE
    assert parse("10x100d6").dice_count == MAX_DICE
    assert parse("+".join(["1d6"] * MAX_TERMS)).dice_count == MAX_TERMS


def test_keep_highest_keeps_the_highest_faces() -> None:
    result = roll(parse("4d6 kh3"), ScriptedRng([2, 6, 1, 5]))
    (term,) = result.outcomes[0].parts
    assert [(d.total, d.kept) for d in term.rolled] == [(2, True), (6, True), (1, False), (5, True)]
    assert result.total == 13


def test_advantage_after_a_modifier_keeps_the_higher_d20() -> None:
    assert roll(parse("1d20+5 adv"), ScriptedRng([4, 17])).total == 22
    assert roll(parse("d20 dis + 2"), ScriptedRng([4, 17])).total == 6
    assert odds(parse("1d20+5 adv")).mean == pytest.approx(18.825)
    assert odds(parse("1d20+5")).mean == pytest.approx(15.5)


def test_the_misreads_are_gone() -> None:
    assert odds(parse("4d6 kh3")).maximum == 18
    assert roll(parse("1d20 r1"), ScriptedRng([1, 11])).total == 12  # the 11th face of 2..20
    assert roll(parse("2d6 !"), ScriptedRng([6, 6, 2, 3])).total == 17
    assert roll(parse("3d6 >= 5"), ScriptedRng([5, 6, 2])).total == 2
    assert roll(parse("2к6+1"), ScriptedRng([3, 4])).total == 8


def test_exploding_compounding_and_penetrating() -> None:
    exploded = roll(parse("1d6!"), ScriptedRng([6, 6, 3]))
    (term,) = exploded.outcomes[0].parts
    assert [f.value for f in term.rolled[0].faces] == [6, 6, 3] and exploded.total == 15
    assert roll(parse("1d6!!"), ScriptedRng([6, 2])).total == 8
    assert roll(parse("1d6!p"), ScriptedRng([6, 6, 3])).total == 6 + 5 + 2
    assert roll(parse("1d20e19"), ScriptedRng([19, 4])).total == 23


def test_rerolls() -> None:
    # r: one draw among the faces that don't match (3, 4, 5, 6 here: the 3rd is 5)
    assert roll(parse("1d6r<3"), ScriptedRng([1, 3])).total == 5
    assert roll(parse("1d6ro<3"), ScriptedRng([1, 2])).total == 2
    assert roll(parse("1d6ra6"), ScriptedRng([6, 4])).total == 10
    assert roll(parse("1d6r1"), ScriptedRng([1, 1])).total == 2  # never a 1, however long


def test_successes_failures_and_clamps() -> None:
    assert roll(parse("5d10>=8f1"), ScriptedRng([8, 1, 10, 3, 1])).total == 0
    assert roll(parse("4d6mi3"), ScriptedRng([1, 2, 5, 6])).total == 17
    assert roll(parse("4d6ma2"), ScriptedRng([1, 2, 5, 6])).total == 7
    assert roll(parse("4dF"), ScriptedRng([1, 2, 3, 3])).total == 1


def test_sets_repeats_division_and_targets() -> None:
    assert roll(parse("(1d20+5, 1d20+3)kh1"), ScriptedRng([10, 14])).total == 17
    result = roll(parse("6x4d6kh3"), SeededRng(3))
    assert len(result.outcomes) == 6
    assert all(3 <= o.total <= 18 for o in result.outcomes)
    assert roll(parse("1d6/2"), ScriptedRng([5])).total == 2  # rounds down
    assert roll(parse("-1d6/2"), ScriptedRng([5])).total == -3  # down, towards the lower number
    result = roll(parse("1d20+5 adv >= 15"), ScriptedRng([3, 9]))
    assert result.outcomes[0].reached is False
    assert odds(parse("1d20+5 adv >= 15")).target_chance == pytest.approx(0.7975)


def test_seeded_rolls_repeat_and_fair_rolls_stay_in_range() -> None:
    expression = parse("10d10 + 3")
    assert roll(expression, SeededRng(7)) == roll(expression, SeededRng(7))
    assert {roll(parse("1d4"), SeededRng(seed)).total for seed in range(200)} == {1, 2, 3, 4}


def test_odds_agree_with_icepool_on_classic_rolls() -> None:
    cases = {
        "3d6": 3 @ icepool.d6,
        "4d6kh3": icepool.d6.pool(4).highest(3).sum(),
        "2d20kl1 + 3": icepool.d20.pool(2).lowest(1).sum() + 3,
        "2d8 - 1d4": 2 @ icepool.d8 - icepool.d4,
    }
    for text, die in cases.items():
        ours = dict(odds(parse(text)).distribution)
        for outcome, probability in zip(die.outcomes(), die.probabilities(), strict=True):
            assert ours[outcome] == pytest.approx(float(probability))


def test_too_large_for_exact_odds_says_so() -> None:
    with pytest.raises(Malformed) as caught:
        odds(parse("1000d1000kh1"))
    assert "too large" in caught.value.message


# --- brute force: walk every sequence of die faces the roller could ask for -----------


class Walker:
    """An Rng that answers ``prefix`` first, then the lowest value, noting every call."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.calls: list[tuple[int, int]] = []

    def randint(self, low: int, high: int) -> int:
        index = len(self.calls)
        self.calls.append((low, high))
        return self.prefix[index] if index < len(self.prefix) else low


def brute_force(expression: DiceExpression) -> dict[int, float]:
    """Every path of ``roll`` with its chance (each randint call branches)."""
    found: dict[int, float] = defaultdict(float)
    pending: list[list[int]] = [[]]
    while pending:
        prefix = pending.pop()
        walker = Walker(prefix)
        total = roll(expression, walker).total
        calls = walker.calls
        chance = 1.0
        for low, high in calls:
            chance /= high - low + 1
        found[total] += chance
        for index in range(len(prefix), len(calls)):
            low, high = calls[index]
            base = prefix + [low] * (index - len(prefix))
            pending.extend([*base, v] for v in range(low + 1, high + 1))
    return found


small_dice = st.builds(
    lambda count, sides, mod: f"{count}d{sides}{mod}",
    st.integers(1, 2),
    st.sampled_from(["3", "4", "F"]),
    st.sampled_from(
        ["", "kh1", "kl1", "dl1", "ro<2", "mi2", "ma3", ">=3", ">=3f1", "ra1", "=2",
         "ra<2kh1", "ro1>=2", "r", "r<3kh1", "cs3cf1", "<>2", "!kh1", "!pkl1", "!dl1"]
    ),
)  # fmt: skip


def _valid(text: str) -> DiceExpression | None:
    try:
        return parse(text)
    except Malformed:
        return None


@st.composite
def small_expressions(draw: st.DrawFn) -> str:
    parts = draw(
        st.lists(st.one_of(small_dice, st.integers(1, 3).map(str)), min_size=1, max_size=2)
    )
    text = parts[0]
    for part in parts[1:]:
        text += draw(st.sampled_from(["+", "-", "*"])) + part
    if draw(st.booleans()):
        text = f"({text}, 1d3)kh1"
    return text + draw(st.sampled_from(["+1d2", "", "-1"]))


@settings(max_examples=80, deadline=None)
@given(small_expressions())
def test_odds_match_brute_force_on_small_rolls(text: str) -> None:
    expression = _valid(text)
    if expression is None or estimate(expression) > STEP_BUDGET:
        return  # refused as too large for exact odds (a test below says so)
    # the walk follows every explosion of every die: with more than two exploding dice
    # its paths multiply past what a test can walk
    if sum(d.count for d in dice_terms(expression.node) if d.explode) <= 2:
        _agree(expression)


def _agree(expression: DiceExpression) -> None:
    exact = dict(odds(expression).distribution)
    walked = brute_force(expression)
    assert set(exact) == {v for v, p in walked.items() if p > 1e-300}
    for value, chance in walked.items():
        assert exact.get(value, 0.0) == pytest.approx(chance, abs=1e-12)


@pytest.mark.parametrize(
    "text",
    ["1d3!", "1d3!!", "1d3!p", "2d2!", "1d4!=1", "2d2!kh1", "2d3! >=3f1", "1dF!", "1d4ra4+1d2",
     "2d2!!=4", "1d2r1", "1d3!p>=3", "1d4!<2mi2",
     # d20: keep and drop pick among every die rolled, the ones explosions added too
     "2d3!kh1", "3d2!kl2", "2d3!dl1", "2d3!dh1", "2d3!pkh1", "2d3ra3kh1", "2d3!kh1>=3",
     # rpg-dice-roller: r rerolls until the face doesn't match
     "2d4r<3kh1", "1d3rr<3", "1d3r"],
)  # fmt: skip
def test_explosions_match_brute_force(text: str) -> None:
    _agree(parse(text))


big_dice = st.builds(
    lambda count, sides, mod: f"{count}d{sides}{mod}",
    st.integers(1, 30),
    st.sampled_from(["2", "4", "6", "10", "20", "100", "F", "%"]),
    st.sampled_from(
        ["", "kh2", "kl1", "dh1", "dl1", "k1", "r1", "rr<2", "ro1", "ra1", "mi2", "ma3", "!",
         "!!", "!p", "e>5", ">=5", ">4f1", "cs6", "<2", " kh1", " !", " r1", "!kh2", "cs>5cf1",
         " r", "min2", " >= 15", "<>3"]
    ),
)  # fmt: skip


@st.composite
def expressions(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(big_dice, st.integers(0, 99).map(str)), min_size=1, max_size=6))
    text = parts[0]
    for part in parts[1:]:
        text += draw(st.sampled_from(["+", "-", " + ", " - ", "*"])) + part
    wrap = draw(st.sampled_from(["{}", "({})*2", "({}, 1d20)kh1", "3x{}", "{} x2", "({})[fire]"]))
    return wrap.format(text) + draw(st.sampled_from(["", " adv", " >= 10", " note", "+1d20 dis"]))


@settings(max_examples=200, deadline=None)
@given(expressions(), st.integers(0, 2**32))
def test_any_valid_roll_totals_between_its_minimum_and_maximum(text: str, seed: int) -> None:
    expression = _valid(text)
    if expression is None:
        return
    result = roll(expression, SeededRng(seed))
    for outcome in result.outcomes:
        assert expression.minimum <= outcome.total <= expression.maximum
    if expression.target is None:  # "2d6 >= 9" reads as successes; a target follows other parts
        assert parse(expression.notation).node == expression.node


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_arbitrary_text_parses_or_is_refused_politely(text: str) -> None:
    try:
        expression = parse(text)
    except Malformed as error:
        assert error.message
    else:
        assert 0 <= expression.dice_count <= MAX_DICE


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789dDкд%F+-*/()[],!<>=khlprsoaeimcfx adv", max_size=40))
def test_notation_like_text_parses_or_is_refused_politely(text: str) -> None:
    try:
        expression = parse(text)
    except Malformed as error:
        assert error.message
    else:
        roll(expression, SeededRng(1))
