"""Saved rolls inside /roll: names, expansion, nesting, loops (pure)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules import dice
from core.rules.errors import Malformed
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.saved import (
    BAD_NAME,
    LOOP,
    MAX_DEPTH,
    NOTATION_NAME,
    check_name,
    expand,
    key,
    renamed_in,
    uses,
)


def book(**saved: str) -> dict[str, str]:
    return {key(name): text for name, text in saved.items()}


@pytest.mark.parametrize("name", ["atk", "Атака", "fire_bolt", "dmg2", "ÜberHit", "помехи2"])
def test_names_in_any_language(name: str) -> None:
    assert check_name(f" {name} ") == name


@pytest.mark.parametrize(
    "name",
    [
        "d20",
        "4d6",
        "adv",
        "к6",
        "преим",
        "помеха",
        "12",
        "kh3",
        "x6",
        "dF",
        "d",
        "k",
        "dis",
        "secret",
        "тайно",
        "r1",
        "e20",
        "cs6",
        "d%",
    ],
)
def test_notation_names_are_refused(name: str) -> None:
    with pytest.raises(Malformed) as raised:
        check_name(name)
    assert raised.value.message_id in (NOTATION_NAME, BAD_NAME)


@pytest.mark.parametrize("name", ["two words", "a+b", "<b>x</b>", "_x", "", "a" * 33, "ß" * 20])
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(Malformed):
        check_name(name)


def test_a_saved_roll_used_alone_with_a_modifier_and_twice() -> None:
    saved = book(atk="1d20+5")
    assert expand("atk", saved).expression.notation == "(1d20 + 5)"
    assert expand("ATK+2", saved).expression.notation == "(1d20 + 5) + 2"
    assert expand("atk adv", saved).expression.notation == "(2d20kh1 + 5)"
    assert expand("2 atk", saved).expression.repeat == 2
    assert expand("3x atk", saved).expression.repeat == 3
    assert expand("atk", saved).used == ("atk",)


def test_the_typed_edge_replaces_the_saved_one() -> None:
    saved = book(atk="1d20+5 adv")
    assert expand("atk", saved).expression.notation == "(2d20kh1 + 5)"
    assert expand("atk dis", saved).expression.notation == "(2d20kl1 + 5)"
    assert expand("atk+2 dis", saved).expression.notation == "(2d20kl1 + 5) + 2"


def test_note_target_and_repeat_carry_over() -> None:
    saved = book(sneak="1d20+5 >= 15 sneak attack", stats="4d6kh3 x6")
    found = expand("sneak", saved).expression
    assert found.label == "sneak attack" and found.target == dice.Compare(">=", 15)
    assert expand("sneak quietly", saved).expression.label == "quietly"
    assert expand("stats", saved).expression.repeat == 6
    with pytest.raises(Malformed) as raised:
        expand("stats + 1d4 + stats", saved)
    assert "several times" in raised.value.message


def test_nested_saved_rolls() -> None:
    saved = book(dmg="1d8+3", crit="dmg*2", fire="2d6[fire]")
    assert expand("crit", saved).expression.notation == "((1d8 + 3) * 2)"
    assert expand("crit + fire", saved).used == ("crit", "fire")
    result = dice.roll(expand("crit", saved).expression, ScriptedRng([4]))
    assert result.total == 14


def test_names_in_a_note_or_annotation_are_left_alone() -> None:
    saved = book(fire="2d6")
    assert expand("1d20 fire", saved).expression.label == "fire"
    assert expand("1d8[fire]", saved).expression.notation == "1d8[fire]"


def test_a_loop_is_refused_naming_it() -> None:
    saved = book(a="b+1", b="c+1", c="a+1")
    with pytest.raises(Malformed) as raised:
        expand("a", saved)
    assert raised.value.message_id == LOOP
    assert raised.value.values["loop"] == "a → b → c → a"
    with pytest.raises(Malformed):
        expand("self", book(self="self"))


def test_depth_is_bounded() -> None:
    chain = {f"n{i}": f"n{i + 1}+1" for i in range(MAX_DEPTH + 2)}
    chain[f"n{MAX_DEPTH + 2}"] = "1d4"
    with pytest.raises(Malformed) as raised:
        expand("n0", chain)
    assert "deeply" in raised.value.message


def test_russian_names() -> None:
    saved = book(атака="1d20+5", урон="2к6+3")
    assert expand("атака помеха", saved).expression.notation == "(2d20kl1 + 5)"
    assert expand("урон+атака", saved).used == ("урон", "атака")


_names = st.sampled_from(["a", "b", "cc", "атк", "dmg", "Zz"])
_plain = st.sampled_from(
    ["1d20", "2d6+1", "d8", "3", "4d6kh3", "1d20+5 adv", "1d6 x2", "(1d4, 1d6)kh1"]
)
_piece = st.one_of(_plain, _names)


@st.composite
def _books(draw: st.DrawFn) -> tuple[dict[str, str], str]:
    saved = {}
    for name in draw(st.lists(_names, min_size=1, max_size=6, unique_by=key)):
        parts = draw(st.lists(_piece, min_size=1, max_size=3))
        ops = draw(st.lists(st.sampled_from(["+", "-", "*", ", "]), min_size=2, max_size=2))
        saved[key(name)] = parts[0] + "".join(
            f" {o} {p}" for o, p in zip(ops, parts[1:], strict=False)
        )
    typed = draw(st.lists(_piece, min_size=1, max_size=3))
    suffix = draw(st.sampled_from(["", " adv", " dis", " >= 10", " a note"]))
    return saved, " + ".join(typed) + suffix


def _loops(saved: dict[str, str], start: str) -> bool:
    seen: set[str] = set()

    def walk(name: str, path: tuple[str, ...]) -> bool:
        if name in path:
            return True
        if name in seen:
            return False
        seen.add(name)
        return any(walk(n, (*path, name)) for n in uses(saved[name], saved))

    return walk(start, ())


@settings(max_examples=150, deadline=None)
@given(_books(), st.integers(0, 2**32))
def test_random_saved_rolls_never_crash_and_loops_are_refused(
    drawn: tuple[dict[str, str], str], seed: int
) -> None:
    saved, typed = drawn
    looping = any(_loops(saved, n) for n in uses(typed, saved))
    try:
        found = expand(typed, saved)
    except Malformed:
        return  # refused: a loop always is, and so is what the notation can't read
    assert not looping, (saved, typed)
    dice.roll(found.expression, SeededRng(seed))


@settings(max_examples=100, deadline=None)
@given(st.lists(_names, min_size=1, max_size=5, unique_by=key), st.data())
def test_a_ring_of_saved_rolls_is_always_a_loop(names: list[str], data: st.DataObject) -> None:
    ring = [key(n) for n in names]
    saved = {n: f"1d4 + {ring[(i + 1) % len(ring)]}" for i, n in enumerate(ring)}
    start = data.draw(st.sampled_from(ring))
    with pytest.raises(Malformed) as raised:
        expand(f"{start} + 1", saved)
    assert raised.value.message_id == LOOP
    assert start in raised.value.values["loop"]


def test_renaming_rewrites_uses_and_leaves_notes() -> None:
    assert renamed_in("dmg*2 [dmg] dmg", "dmg", "damage") == "damage*2 [dmg] dmg"
    assert renamed_in("2 DMG", "dmg", "урон") == "2 урон"
    assert renamed_in("1d20 + dmg2 + xdmg", "dmg", "hit") == "1d20 + dmg2 + xdmg"


@settings(max_examples=150, deadline=None)
@given(_books(), st.data())
def test_a_rename_rewritten_everywhere_reads_the_same_rolls(
    drawn: tuple[dict[str, str], str], data: st.DataObject
) -> None:
    saved, typed = drawn
    old = data.draw(st.sampled_from(sorted(saved)))
    new = data.draw(st.sampled_from(["renamed", "Урон", "q_2"]))
    after = {
        (key(new) if name == old else name): renamed_in(text, old, new)
        for name, text in saved.items()
    }
    try:
        before = expand(typed, saved).expression
    except Malformed:
        return
    found = expand(renamed_in(typed, old, new), after).expression
    assert (found.node, found.repeat, found.target) == (before.node, before.repeat, before.target)
