"""Whom the table waits on: every kind of panel of every system answers, from its rules."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

import pytest

from core.rules.choice import Choice, Common
from core.rules.d20check.table import CharacterSheet
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.rules.table import Json, Role, Seat, Table
from core.rules.waiting import NOBODY, Waiting, awaited_at_table, free_play, waiting
from tests.core.rules.cortex.test_campaign_panel import CLARK, WATCHTOWER
from tests.core.rules.cortex.test_campaign_panel import Game as CortexGame
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    CARA,
    Harness,
    build_to_locations,
    build_world,
)
from tests.core.rules.nsu.test_downtime_panel import Driver, fresh
from tests.support.nsu_table import character, world
from tests.support.nsu_table import table as nsu_table
from tests.tgbot.test_render_threat import ANA, GM
from tests.tgbot.test_render_threat import table as threat_table

REGISTRY = default_registry()


class Verb(Enum):
    GO = "go"
    HELP = "help"
    CANCEL = "cancel"


Case = Callable[[], tuple[Table, Json, frozenset[int]]]


def _setup() -> tuple[Table, Json, frozenset[int]]:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)  # the first step: anyone proposes the tone
    return h.table(), panel.state, frozenset({ALICE, BOB, CARA})


def _cards() -> tuple[Table, Json, frozenset[int]]:
    h = Harness()
    build_to_locations(h)
    panel = h.open("nsu.cards", BOB)
    return h.table(), panel.state, frozenset({BOB})


def _character() -> tuple[Table, Json, frozenset[int]]:
    h = Harness()
    build_world(h)
    panel = h.open("nsu.character", CARA)
    return h.table(), panel.state, frozenset({CARA})


def _adventure() -> tuple[Table, Json, frozenset[int]]:
    t = nsu_table(world((1, 2)), {1: character("Ana"), 2: character("Bo")})
    rules = REGISTRY.find("nsu").panel("nsu.adventure")
    return t, rules.open(t, 1, "", SeededRng(1)).state, frozenset()  # free play


def _safety() -> tuple[Table, Json, frozenset[int]]:
    h = Harness()
    panel = h.open("nsu.safety", BOB, "line")
    return h.table(), panel.state, frozenset()  # added at will


def _roll() -> tuple[Table, Json, frozenset[int]]:
    t = nsu_table(world((1, 2, 3)), {p: character(n) for p, n in {1: "A", 2: "B", 3: "C"}.items()})
    rules = REGISTRY.find("nsu").panel("nsu.roll")
    return t, rules.open(t, 1, "", SeededRng(1)).state, frozenset({1})  # the roller says what


def _downtime() -> tuple[Table, Json, frozenset[int]]:
    d = Driver(fresh(), [2, 4, 1])
    return (
        d.table,
        d.state,
        REGISTRY.find("nsu").panel("nsu.downtime").waiting(d.table, d.state).awaited
        or frozenset({-1}),
    )


def _threat() -> tuple[Table, Json, frozenset[int]]:
    t = threat_table()
    state = REGISTRY.find("threat").panel("threat.roll").open(t, ANA, "", SeededRng(1)).state
    return t, state, frozenset({GM, ANA})  # the GM sets the threat, Ana rolls; Bo may help


def _conflict() -> tuple[Table, Json, frozenset[int]]:
    g = CortexGame()
    for line in ("value Justice d10", "relationship Lois d8", "asset Farm Boy d8"):
        g.edit(CLARK, "text", text=line)
    g.open(WATCHTOWER, "test Clark")
    return g.table, g.panel, frozenset({WATCHTOWER})  # the Watchtower sets the difficulty


def _d20_table() -> Table:
    seats = {
        1: Seat(1, "Ana", frozenset({Role.PLAYER}), CharacterSheet("Ana").to_dict()),
        2: Seat(2, "Gil", frozenset({Role.HOST, Role.GAME_MASTER})),
        3: Seat(3, "Bo", frozenset({Role.PLAYER}), CharacterSheet("Bo").to_dict()),
    }
    return Table(1, "d20", {"v": 1, "plot_points": {"lucky": 2, "unlucky": 2}}, seats)


def _check() -> tuple[Table, Json, frozenset[int]]:
    t = _d20_table()
    state = REGISTRY.find("d20").panel("d20.check").open(t, 1, "dc12", SeededRng(1)).state
    return t, state, frozenset({1})  # the roller sets up and rolls


def _rest() -> tuple[Table, Json, frozenset[int]]:
    t = _d20_table()
    state = REGISTRY.find("d20").panel("d20.rest").open(t, 2, "", SeededRng(1)).state
    return t, state, frozenset()  # over as it opens


def _dice_roll() -> tuple[Table, Json, frozenset[int]]:
    pbta = REGISTRY.find("pbta")
    seats = {1: Seat(1, "Ana", frozenset({Role.HOST, Role.PLAYER}))}
    t = Table(1, "pbta", pbta.campaign.new_state(), seats)
    state = pbta.panel("dice.roll").open(t, 1, "", SeededRng(1)).state
    return t, state, frozenset({1})  # a roll set up by taps waits on its roller


CASES: dict[str, Case] = {
    "nsu.setup": _setup,
    "nsu.cards": _cards,
    "nsu.character": _character,
    "nsu.adventure": _adventure,
    "nsu.safety": _safety,
    "nsu.roll": _roll,
    "nsu.downtime": _downtime,
    "threat.roll": _threat,
    "cortex.conflict": _conflict,
    "d20.check": _check,
    "d20.rest": _rest,
    "dice.roll": _dice_roll,
}
KINDS = [(system.key, kind) for system in REGISTRY for kind in system.panels]


@pytest.mark.parametrize(("system", "kind"), KINDS)
def test_every_kind_of_panel_says_whom_it_waits_on(system: str, kind: str) -> None:
    assert kind in CASES, f"{kind}: no case says whom it waits on"
    t, state, expected = CASES[kind]()
    rules = REGISTRY.find(system).panel(kind)
    found = rules.waiting(t, state)
    assert found == rules.waiting(t, rules.read(state))  # typed or stored, the same answer
    assert found.awaited <= frozenset(p for c in found.choices for p in c.by)
    assert found.awaited <= frozenset(t.seats)
    if expected != frozenset({-1}):
        assert found.awaited == expected, (kind, found)


def test_every_panel_kind_has_a_case_and_no_case_is_left_over() -> None:
    assert set(CASES) == {kind for _, kind in KINDS}


def test_a_downtime_waits_on_someone_while_it_is_under_way() -> None:
    t, state, _ = _downtime()
    assert REGISTRY.find("nsu").panel("nsu.downtime").waiting(t, state).awaited


def test_side_steps_are_left_out_while_anything_else_is_open() -> None:
    choices = [
        Choice(Verb.GO, by=frozenset({1})),
        Choice(Verb.HELP, by=frozenset({2, 3})),
        Choice(Verb.CANCEL, by=frozenset({1, 4})),
        Choice(Common.UNDO, by=frozenset({5})),
    ]
    found = waiting(choices, side={Verb.CANCEL}, optional={Verb.HELP})
    assert [c.verb for c in found.choices] == [Verb.GO, Verb.HELP]  # the line's choices
    assert found.awaited == {1}  # help is optional, undo and calling off never hold play


def test_only_side_steps_open_are_named_but_hold_up_nobody() -> None:
    choices = [Choice(Verb.CANCEL, by=frozenset({1}))]
    found = waiting(choices, side={Verb.CANCEL})
    assert found.choices == tuple(choices)
    assert found.awaited == frozenset()


def test_free_play_names_its_choices_and_waits_on_nobody() -> None:
    choices = [Choice(Verb.GO, by=frozenset({1, 2}))]
    assert free_play(choices).choices == tuple(choices)
    assert free_play(choices).awaited == frozenset()
    assert Waiting() == NOBODY


def test_the_table_waits_on_every_open_panel_and_the_turn_holder() -> None:
    a = Waiting((Choice(Verb.GO, by=frozenset({1})),))
    b = Waiting(
        (Choice(Verb.GO, by=frozenset({2})), Choice(Verb.HELP, by=frozenset({3}))),
        frozenset({Verb.HELP}),
    )
    assert awaited_at_table([a, b]) == {1, 2}
    assert awaited_at_table([a, b], turn_holder=4) == {1, 2, 4}
    assert awaited_at_table([], turn_holder=None) == frozenset()
