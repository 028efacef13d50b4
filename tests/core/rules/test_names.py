"""The naming rule and plural-correct counts (core.rules.names)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.rules.names import counted, in_play

words = st.text(st.characters(categories=("L",)), min_size=1, max_size=12)


def test_counts_agree_with_their_number() -> None:
    assert counted(1, "recovery point") == "1 recovery point"
    assert counted(2, "recovery point") == "2 recovery points"
    assert counted(0, "recovery point") == "0 recovery points"
    assert counted(1, "box", "boxes") == "1 box"
    assert counted(3, "box", "boxes") == "3 boxes"


@given(n=st.integers(-1000, 1000), one=words, many=words)
def test_only_one_takes_the_singular(n: int, one: str, many: str) -> None:
    text = counted(n, one, many)
    assert text == f"{n} {one if n == 1 else many}"


def test_characters_in_play_and_their_players_where_it_matters() -> None:
    assert in_play("Birch", "Alice") == "Birch"
    assert in_play("Birch", "Alice", introduce=True) == "Birch (Alice)"
    assert in_play(None, "Alice", introduce=True) == "Alice"  # no character: the player
    assert in_play("", "Alice") == "Alice"
    assert in_play("Alice", "Alice", introduce=True) == "Alice"  # never "Alice (Alice)"


@given(character=st.none() | words, player=words, introduce=st.booleans())
def test_a_name_in_play_always_holds_the_character_or_else_the_player(
    character: str | None, player: str, introduce: bool
) -> None:
    name = in_play(character, player, introduce=introduce)
    assert name.startswith(character or player)
    if not introduce:
        assert name == (character or player)
    if introduce and character and character != player:
        assert name == f"{character} ({player})"
