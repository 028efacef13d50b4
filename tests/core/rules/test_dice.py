"""Dice notation: parsing, limits, keeping dice and totals."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.dice import (
    MAX_DICE,
    Constant,
    DiceTerm,
    Keep,
    evaluate,
    kept_indexes,
    parse,
    roll,
)
from core.rules.errors import Malformed
from core.rules.rng import ScriptedRng, SeededRng


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("2d6+3", "2d6 + 3"),
        ("4d6kh3", "4d6kh3"),
        ("4d6k3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("d20 adv", "2d20kh1"),
        ("d20 advantage", "2d20kh1"),
        ("D20DIS", "2d20kl1"),
        ("1d8 - 1d4 + 2", "1d8 - 1d4 + 2"),
        ("3d6dl1", "3d6dl1"),
        ("4d6dh1", "4d6dh1"),
        ("d%", "1d100"),
        ("-d4", "-1d4"),
        ("  2d6  +  1d4 ", "2d6 + 1d4"),
        ("2d6 − 1", "2d6 - 1"),
    ],
)
def test_parses_standard_notation(text: str, notation: str) -> None:
    assert parse(text).notation == notation


def test_any_text_after_the_dice_is_a_label_unless_it_looks_like_arithmetic() -> None:
    assert parse("d6 <i>sneaky</i> & bold").label == "<i>sneaky</i> & bold"
    with pytest.raises(Malformed):
        parse("2d6 *2")


def test_trailing_words_become_the_label() -> None:
    expression = parse("d20adv + 5 sneak attack")
    assert expression.notation == "2d20kh1 + 5"
    assert expression.label == "sneak attack"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "banana",
        "2d",
        "d",
        "2d6+",
        "+",
        "2d6 3",
        "2d6 d8",
        "2d6++3",
        "5d6kh6",
        "5d6kh0",
        "3d6dl3",
        "2d20 adv",
        "4d6kh3 adv",
        "d1",
        "d0",
        "0d6",
        "1001d6",
        "d1001",
        "500d6 + 501d6",
        "<b>2d6</b>",
        "2d6 +banana",
        "99999999999999999999d6",
        "7",
        "1+2",
        "2d6" + "+1" * 30,
        "x" * 400,
    ],
)
def test_rejects_nonsense_and_huge_rolls_with_a_friendly_message(text: str) -> None:
    with pytest.raises(Malformed) as caught:
        parse(text)
    assert caught.value.message
    assert "Traceback" not in caught.value.message


def test_the_limit_is_exactly_a_thousand_dice_of_a_thousand_sides() -> None:
    assert parse("1000d1000").dice_count == MAX_DICE
    assert parse("500d6 + 500d8").dice_count == MAX_DICE


def test_keep_highest_keeps_the_highest_faces() -> None:
    result = roll(parse("4d6kh3"), ScriptedRng([2, 6, 1, 5]))
    assert [(f.value, f.kept) for f in result.terms[0].faces] == [
        (2, True),
        (6, True),
        (1, False),
        (5, True),
    ]
    assert result.total == 13


def test_advantage_keeps_the_higher_of_two_d20() -> None:
    assert roll(parse("d20 adv + 2"), ScriptedRng([4, 17])).total == 19
    assert roll(parse("d20 dis + 2"), ScriptedRng([4, 17])).total == 6


def test_ties_keep_the_earlier_die() -> None:
    faces = roll(parse("3d6kh1"), ScriptedRng([5, 5, 2])).terms[0].faces
    assert [f.kept for f in faces] == [True, False, False]


def test_subtracted_dice_count_against_the_total() -> None:
    assert roll(parse("1d8 - 1d4 + 2"), ScriptedRng([7, 3])).total == 6


def test_seeded_rolls_repeat_and_fair_rolls_stay_in_range() -> None:
    expression = parse("10d10 + 3")
    assert roll(expression, SeededRng(7)) == roll(expression, SeededRng(7))
    totals = {roll(parse("1d4"), SeededRng(seed)).total for seed in range(200)}
    assert totals == {1, 2, 3, 4}


@pytest.mark.parametrize(
    ("keep", "n"),
    [
        (Keep.HIGHEST, 2),
        (Keep.LOWEST, 2),
        (Keep.DROP_HIGHEST, 1),
        (Keep.DROP_LOWEST, 1),
        (Keep.ALL, 0),
    ],
)
def test_keep_rules_match_brute_force_sorting(keep: Keep, n: int) -> None:
    term = DiceTerm(count=3, sides=4, keep=keep, keep_n=n)
    for faces in itertools.product(range(1, 5), repeat=3):
        kept = sorted(faces[i] for i in kept_indexes(faces, term))
        ordered = sorted(faces)
        expected = {
            Keep.HIGHEST: ordered[-n:] if n else [],
            Keep.LOWEST: ordered[:n],
            Keep.DROP_HIGHEST: ordered[:-n] if n else ordered,
            Keep.DROP_LOWEST: ordered[n:],
            Keep.ALL: ordered,
        }[keep]
        assert kept == expected
        assert evaluate(parse(str(term)), (faces,)).total == sum(expected)


# --- Hypothesis: strategies that follow the grammar -------------------------

keeps = st.sampled_from(["", "kh", "kl", "dh", "dl", "k"])


@st.composite
def dice_terms(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 40))
    sides = draw(st.sampled_from([2, 4, 6, 8, 10, 12, 20, 100, 1000]))
    keep = draw(keeps)
    text = f"{draw(st.sampled_from(['', str(count)]))}d{sides}"
    count = int(text.split("d")[0] or 1)
    if keep in ("kh", "kl", "k"):
        text += f"{keep}{draw(st.integers(1, count))}"
    elif keep in ("dh", "dl") and count > 1:
        text += f"{keep}{draw(st.integers(1, count - 1))}"
    return text


@st.composite
def expressions(draw: st.DrawFn) -> str:
    terms = draw(
        st.lists(st.one_of(dice_terms(), st.integers(0, 999).map(str)), min_size=1, max_size=6)
    )
    if not any("d" in t for t in terms):
        terms.append(draw(dice_terms()))
    text = terms[0]
    for term in terms[1:]:
        text += draw(st.sampled_from(["+", "-", " + ", " - "])) + term
    return text


@given(expressions(), st.integers(0, 2**32))
def test_any_valid_roll_totals_between_its_minimum_and_maximum(text: str, seed: int) -> None:
    expression = parse(text)
    result = roll(expression, SeededRng(seed))
    assert expression.minimum <= result.total <= expression.maximum
    for term in result.terms:
        if isinstance(term.term, DiceTerm):
            assert len(term.faces) == term.term.count
            assert sum(f.kept for f in term.faces) == term.term.kept_count
            assert all(1 <= f.value <= term.term.sides for f in term.faces)
        else:
            assert isinstance(term.term, Constant)


@given(expressions())
def test_canonical_notation_parses_back_to_the_same_roll(text: str) -> None:
    expression = parse(text)
    assert parse(expression.notation) == expression


@given(st.text(max_size=80))
def test_arbitrary_text_parses_or_is_refused_politely(text: str) -> None:
    try:
        expression = parse(text)
    except Malformed as error:
        assert error.message
    else:
        assert 1 <= expression.dice_count <= MAX_DICE
