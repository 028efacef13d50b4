"""A group's own system at the table: the game keeps the text and version it started
with, is named as that text says, moves on only when asked, and its rolls leave the
roll history the system's words (version, outcome, chance) in every language."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.dicesystem import (
    OWN,
    OWN_SYSTEM,
    ROLL_PANEL,
    definition_of,
    moved_on,
    own_game,
    played,
)
from core.rules.dicesystem.table import history, status_lines
from core.rules.errors import Malformed
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng
from core.rules.table import Outcome, Role, Seat, Table
from core.words.i18n import lang_for
from core.words.systems_words import history_words
from tests.support.own_game import OUR_GAME

ANA = 7
HARDER = OUR_GAME.replace("min = 8", "min = 9").replace("max = 7", "max = 8")


def table_of(state: dict[str, object]) -> Table:
    seats = {ANA: Seat(ANA, "Ana", frozenset({Role.HOST, Role.PLAYER}))}
    return Table(1, OWN, state, seats)


def rolled(state: dict[str, object], typed: str, faces: list[int]) -> Outcome:
    return OWN_SYSTEM.panel(ROLL_PANEL).open(table_of(state), ANA, typed, ScriptedRng(faces))


def test_a_game_of_an_own_system_keeps_its_text_and_version() -> None:
    system = own_game("mine", OUR_GAME, 3)
    assert system.key == OWN and system.name == "Our game"
    state = system.campaign.new_state()
    assert state["system"] == {"key": "mine", "version": 3, "text": OUR_GAME, "own": True}
    assert played(state).own and played(state).version == 3
    assert definition_of(state).key == "mine"
    assert default_registry().find(OWN).roll_panel == ROLL_PANEL


def test_the_registry_entry_alone_starts_no_game() -> None:
    with pytest.raises(Malformed) as error:
        OWN_SYSTEM.campaign.new_state()
    assert "by its key" in error.value.message_id


def test_it_is_named_in_the_groups_language_as_its_text_says() -> None:
    state = own_game("mine", OUR_GAME, 1).campaign.new_state()
    english = OWN_SYSTEM.campaign.shown_system(OWN_SYSTEM, state, "en")
    russian = OWN_SYSTEM.campaign.shown_system(OWN_SYSTEM, state, "ru")
    assert (english.name, english.summary) == ("Our game", "2d6 plus a modifier.")
    assert (russian.name, russian.summary) == ("Наша игра", "2к6 плюс модификатор.")
    damaged = {"v": 1, "system": {"key": "mine", "version": 1, "text": "x", "own": True}}
    assert OWN_SYSTEM.campaign.shown_system(OWN_SYSTEM, damaged, "en") is OWN_SYSTEM
    with pytest.raises(Malformed):
        OWN_SYSTEM.campaign.check_state(damaged)


def test_moving_on_changes_the_rolls_that_follow_not_the_ones_made() -> None:
    first = own_game("mine", OUR_GAME, 1).campaign.new_state()
    before = rolled(first, "+1", [3, 4])  # 8: Good from 8 in version 1
    second = moved_on(first, HARDER, 2)
    assert played(second).version == 2 and played(second).own
    assert first["system"]["version"] == 1  # type: ignore[index]
    after = rolled(second, "+1", [3, 4])  # 8: Bad in version 2 (Good from 9)
    kept_before = history(table_of(first), before)[0].system
    kept_after = history(table_of(second), after)[0].system
    assert (kept_before["version"], kept_before["outcome"]["en"]) == (1, "Good")
    assert (kept_after["version"], kept_after["outcome"]["en"]) == (2, "Bad")
    assert status_lines(table_of(second)) == ("This group's own game system “mine”, version 2.",)


def test_a_roll_leaves_the_history_its_words_dice_and_chance() -> None:
    state = own_game("mine", OUR_GAME, 1).campaign.new_state()
    (kept,) = history(table_of(state), rolled(state, "-2", [6, 5]))
    assert (kept.by, kept.total, kept.notation) == (ANA, 9, "modifier -2")
    assert kept.faces == (((6, True), (5, True)),)
    assert Fraction(*kept.system["chance"]) == Fraction(6, 36)  # 2d6 of 10 or more
    english = history_words(kept.system, lang_for("en"))
    russian = history_words(kept.system, lang_for("ru"))
    assert english == ("Our game, version 1: modifier −2", "9 → Good (16.7%)")
    assert russian == ("Наша игра, версия 1: модификатор −2", "9 → Хорошо (16,7\xa0%)")


def test_a_roll_being_set_up_leaves_no_history() -> None:
    state = own_game("mine", OUR_GAME, 1).campaign.new_state()
    assert history(table_of(state), rolled(state, "", [])) == ()


def test_words_kept_damaged_still_read() -> None:
    assert history_words({"name": "odd", "inputs": [["x"]]}, lang_for("en")) == (
        ", version 0",
        "",
    )


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)
FIELDS = ("name", "version", "inputs", "value", "outcome", "marks", "chance")


@given(st.dictionaries(st.sampled_from(FIELDS), JSON), st.sampled_from(("en", "ru", "xx")))
def test_kept_words_of_any_shape_read_as_two_lines(system: dict[str, object], code: str) -> None:
    what, came = history_words(system, lang_for(code))
    assert isinstance(what, str) and isinstance(came, str)
