"""Threat dice notation (Core Rules: notation)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import Malformed
from core.rules.threat.notation import ThreatNotation, parse


@pytest.mark.parametrize(
    ("text", "dice", "level"),
    [
        ("3d2t", 3, 2),
        ("3d", 3, 0),
        ("3d0t", 3, 0),
        (" 3D2T ", 3, 2),
        ("3 d 2 t", 3, 2),
        ("4d-1t", 4, -1),
        ("4d+2t", 4, 2),
        ("3d4t", 3, 4),
        ("9d", 9, 0),
    ],
)
def test_notation_reads_action_dice_and_threat_level(text: str, dice: int, level: int) -> None:
    assert parse(text) == ThreatNotation(dice, level)


@pytest.mark.parametrize(
    "text", ["0d9t", "0d", "99d2t", "10d", "3d5t", "3d-3t", "", "d", "3t", "3d2", "2d6", "abc"]
)
def test_notation_out_of_limits_or_nonsense_is_malformed(text: str) -> None:
    with pytest.raises(Malformed):
        parse(text)


def test_notation_messages_are_friendly() -> None:
    with pytest.raises(Malformed, match="at least one action die"):
        parse("0d9t")
    with pytest.raises(Malformed, match="At most 9 action dice"):
        parse("99d2t")
    with pytest.raises(Malformed, match="can't read"):
        parse("fireball")


def test_notation_rejects_non_ascii_digits() -> None:
    with pytest.raises(Malformed):
        parse("٣d")


def test_notation_prints_canonically() -> None:
    assert str(parse("3 D 0 T")) == "3d"
    assert str(parse("3d+2t")) == "3d2t"
    assert str(parse("4d-1t")) == "4d-1t"


def test_notation_to_pool_adds_harm() -> None:
    pool = parse("3d2t").to_pool(harm=1)
    assert (pool.action_dice, pool.threat_dice) == (3, 3)


@st.composite
def notations(draw: st.DrawFn) -> str:
    space = st.sampled_from(["", " ", "  "])
    count = str(draw(st.integers(0, 120)))
    d = draw(st.sampled_from(["d", "D"]))
    text = draw(space) + count + draw(space) + d
    if draw(st.booleans()):
        sign = draw(st.sampled_from(["", "+", "-"]))
        text += draw(space) + sign + str(draw(st.integers(0, 12))) + draw(st.sampled_from("tT"))
    return text + draw(space)


@given(notations())
def test_grammar_notation_parses_or_is_malformed(text: str) -> None:
    try:
        notation = parse(text)
    except Malformed as exc:
        assert exc.message
    else:
        assert 1 <= notation.action_dice <= 9
        assert -2 <= notation.threat_level <= 4
        assert parse(str(notation)) == notation


@given(st.text(max_size=60))
def test_any_text_parses_or_is_malformed(text: str) -> None:
    try:
        notation = parse(text)
    except Malformed as exc:
        assert exc.message
    else:
        assert 1 <= notation.action_dice <= 9


@given(st.integers(1, 9), st.integers(-2, 4), st.sampled_from("dDкКдД"), st.sampled_from("tTтТ"))
def test_cyrillic_dice_letters_read_as_latin_ones(dice: int, level: int, d: str, t: str) -> None:
    assert parse(f"{dice}{d}{level}{t}") == parse(f"{dice}d{level}t") == ThreatNotation(dice, level)
    assert parse(f"{dice}{d}") == ThreatNotation(dice, 0)


def test_a_name_with_cyrillic_dice_letters_is_no_notation() -> None:
    with pytest.raises(Malformed):
        parse("Дерзко")
