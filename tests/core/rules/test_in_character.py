"""Posts in character: brackets of dice rolled where they stand, everything else kept as
typed, and refusals that roll nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules import dice
from core.rules.errors import Malformed
from core.rules.in_character import (
    EMPTY_NPC,
    EMPTY_SAY,
    MAX_ROLLS,
    NARRATOR,
    TOO_MANY_ROLLS,
    Rolled,
    Spoken,
    npc_speaker,
    read_post,
)
from core.rules.rng import ScriptedRng, SeededRng

BOOK = {"atk": "1d20+7", "dmg": "2d6+atk"}
DICE = ["1d20+5", "2d6", "4d6kh3", "d20 adv", "1d8+3 fire", "atk", "atk+2", "3d6>=5", "2x 1d6"]
NOT_DICE = ["OOC", "2 goblins", "", " ", "1000000 gold", "d", "the end", "<b>x</b>", "atk?"]
words = st.text(st.characters(exclude_characters="[]"), max_size=40)


def test_each_bracket_is_rolled_in_place() -> None:
    post = read_post("  I swing [1d20+5], and it bites for [1d8+3]!  ", {}, ScriptedRng([12, 3]))
    assert [type(p) for p in post.pieces] == [Spoken, Rolled, Spoken, Rolled, Spoken]
    assert post.plain() == "I swing [1d20+5 = 17], and it bites for [1d8+3 = 6]!"
    assert post.typed() == "I swing [1d20+5], and it bites for [1d8+3]!"


def test_a_saved_roll_is_read_with_the_players_book() -> None:
    post = read_post("[atk] then [dmg]", BOOK, ScriptedRng([10, 4, 5, 1]))
    assert post.plain() == "[atk = 17] then [dmg = 17]"  # 10 + 7; 4 + 5 + (1 + 7)
    assert [r.written for r in post.rolls] == ["atk", "dmg"]


def test_brackets_without_dice_stay_text() -> None:
    text = "[OOC] [2 goblins] [] [the end] [1000000 gold] [atk]"
    post = read_post(text, {}, ScriptedRng([]))
    assert post.pieces == (Spoken(text),) and post.rolls == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", EMPTY_SAY),
        ("   ", EMPTY_SAY),
        ("[5000d6]", dice.BIG_COUNT),
        ("[d20] [1d1000000]", dice.BIG_DIE),
        ("[1d6!>=1]", dice.EXPLODES_FOREVER),
        (" ".join(["[d6]"] * (MAX_ROLLS + 1)), TOO_MANY_ROLLS),
    ],
)
def test_refusals_roll_nothing(text: str, message: str) -> None:
    with pytest.raises(Malformed) as refused:
        read_post(text, {}, ScriptedRng([]))  # a die rolled would find the script empty
    assert refused.value.message_id == message


def test_a_saved_roll_that_loops_refuses_the_post() -> None:
    with pytest.raises(Malformed):
        read_post("[a]", {"a": "b+1", "b": "a+1"}, ScriptedRng([]))


def test_the_empty_npc_says_how_to_write_it() -> None:
    with pytest.raises(Malformed) as refused:
        read_post("", {}, ScriptedRng([]), EMPTY_NPC)
    assert refused.value.message_id == EMPTY_NPC


@given(
    st.lists(
        st.tuples(words, st.one_of(st.sampled_from(DICE), st.sampled_from(NOT_DICE))),
        max_size=6,
    ),
    words,
    st.integers(0, 2**32),
)
def test_the_text_outside_brackets_comes_back_unchanged(
    parts: list[tuple[str, str]], tail: str, seed: int
) -> None:
    text = "".join(f"{before}[{inside}]" for before, inside in parts) + tail
    if not text.strip():
        with pytest.raises(Malformed):
            read_post(text, BOOK, SeededRng(seed))
        return
    post = read_post(text, BOOK, SeededRng(seed))
    assert post.typed() == text.strip()
    rolled = [inside for _, inside in parts if inside in DICE]
    assert [r.written for r in post.rolls] == rolled
    # the dice are the rng's, in order: the same seed rolls the same totals again
    again = SeededRng(seed)
    for piece in post.rolls:
        expected = read_post(f"[{piece.written}]", BOOK, again).rolls[0]
        assert expected.result == piece.result


@given(st.text(max_size=80))
def test_any_text_reads_or_is_refused_cleanly(text: str) -> None:
    try:
        post = read_post(text, BOOK, SeededRng(1))
    except Malformed:
        return
    assert post.typed() == text.strip()
    assert all(p.text for p in post.pieces if isinstance(p, Spoken))


@pytest.mark.parametrize(
    ("text", "speaker", "words_"),
    [
        ("Gobbo: Halt [1d6]!", "Gobbo", "Halt [1d6]!"),
        ("  Old Mother Hubbard :  Well", "Old Mother Hubbard", "Well"),
        ("The door creaks open.", NARRATOR, "The door creaks open."),
        ("Gobbo:", NARRATOR, "Gobbo:"),
        ("[d20]: no name", NARRATOR, "[d20]: no name"),
        ("A very long sentence that is no name at all: more", NARRATOR,
         "A very long sentence that is no name at all: more"),
    ],
)  # fmt: skip
def test_npc_reads_the_speaker_before_a_colon(text: str, speaker: str, words_: str) -> None:
    assert npc_speaker(text) == (speaker, words_)
