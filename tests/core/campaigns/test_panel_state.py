"""Typed panel state: every panel's rules read its stored state into one frozen value.

For every panel kind of every registered game, a panel is opened and played one
step the way the bot does (the state goes through JSON between steps, as in the
database); both states must read into the class the rules declare (the return
type of ``read``), a frozen dataclass. A source guard keeps the edges honest: no
module under tgbot/ or webapp/ decodes panel state itself or indexes
``view.state``: they read the typed value the view carries.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from collections.abc import Callable
from pathlib import Path

import pytest

from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.table import Json, Outcome, Role, Seat, Table
from tests.core.rules.cortex import test_campaign_panel as cortex
from tests.core.rules.d20check import test_table as d20
from tests.core.rules.nsu import test_downtime_panel as downtime
from tests.core.rules.nsu import test_roll_panel as roll
from tests.core.rules.nsu.table_support import (
    ALICE,
    BOB,
    Harness,
    build_to_locations,
    build_world,
    make_character,
)
from tests.core.rules.threat import test_table as threat

ROOT = Path(__file__).resolve().parents[3]
REGISTRY = default_registry()
# each kind once (the library's games share theirs: the first, pbta, plays it here)
KINDS = list(
    {
        kind: (system.key, kind) for system in reversed(list(REGISTRY)) for kind in system.panels
    }.values()
)
OVER_AS_IT_OPENS = ("d20.rest",)  # one state; no press


def _json(state: Json) -> Json:
    return typing.cast(Json, json.loads(json.dumps(state)))


def nsu_setup() -> tuple[Json, Json]:
    h = Harness()
    panel = h.open("nsu.setup", ALICE)
    opened = panel.state
    return opened, h.act(panel, ALICE, "tool", "0").state


def nsu_cards() -> tuple[Json, Json]:
    h = Harness()
    build_to_locations(h)
    panel = h.open("nsu.cards", BOB)
    opened = panel.state
    return opened, h.act(panel, BOB, "text", "Glass Orchard").state


def nsu_character() -> tuple[Json, Json]:
    h = Harness()
    build_world(h)
    panel = h.open("nsu.character", BOB)
    opened = panel.state
    return opened, h.act(panel, BOB, "text", "Wren").state


def nsu_adventure() -> tuple[Json, Json]:
    h = Harness()
    build_world(h)
    for pid in h.players:
        make_character(h, pid)
    panel = h.open("nsu.adventure", ALICE)
    opened = panel.state
    return opened, h.act(panel, ALICE, "travel").state


def nsu_safety() -> tuple[Json, Json]:
    h = Harness()
    panel = h.open("nsu.safety", BOB)
    opened = panel.state
    return opened, h.act(panel, BOB, "kind", "veil").state


def nsu_roll() -> tuple[Json, Json]:
    d = roll.Driver(roll.fresh(), roll.ANA, "I cross the bridge")
    opened = d.state
    d.do(roll.CY, "choose_aspect", "body")  # an arbiter picks the aspect
    return opened, d.state


def nsu_downtime() -> tuple[Json, Json]:
    d = downtime.Driver(downtime.fresh(ana_harms=4), [4, 3, 5])
    opened = d.state
    d.do(downtime.ANA, "seek")
    return opened, d.state


def threat_roll() -> tuple[Json, Json]:
    t = threat.table()
    opened = threat.RULES.open(t, threat.GM, f"for={threat.ANA}", SeededRng(1)).state
    _, out = threat.press(t, _json(opened), threat.GM, "open_threat")
    return opened, out.state


def cortex_conflict() -> tuple[Json, Json]:
    game = cortex.game.__wrapped__()  # type: ignore[attr-defined]
    opened = game.open(cortex.CLARK, "test").state
    return opened, game.press(cortex.WATCHTOWER, "opp.add", "8").state


def d20_check() -> tuple[Json, Json]:
    run = d20.Run(d20.table())
    opened = run.outcome.state
    return opened, run.press(d20.ROLLER, "open", argument="ability").outcome.state


def d20_rest() -> tuple[Json, Json]:
    # A long rest is over as it opens: its one state is the played one.
    rest = d20.REST.open(d20.table(), d20.GM, "", ScriptedRng([15, 9, 20])).state
    return rest, rest


def dice_roll() -> tuple[Json, Json]:
    # a library game's roll set up with buttons: a step on its stat
    seats = {1: Seat(1, "Ana", frozenset({Role.HOST, Role.PLAYER}))}
    pbta = REGISTRY.find("pbta")
    table = Table(1, "pbta", pbta.campaign.new_state(), seats)
    rules = pbta.panel("dice.roll")
    opened = rules.open(table, 1, "", SeededRng(1)).state
    return opened, rules.act(table, _json(opened), 1, "set", "stat.1", SeededRng(1)).state


PLAYED: dict[str, Callable[[], tuple[Json, Json]]] = {
    "nsu.setup": nsu_setup,
    "nsu.cards": nsu_cards,
    "nsu.character": nsu_character,
    "nsu.adventure": nsu_adventure,
    "nsu.safety": nsu_safety,
    "nsu.roll": nsu_roll,
    "nsu.downtime": nsu_downtime,
    "threat.roll": threat_roll,
    "cortex.conflict": cortex_conflict,
    "d20.check": d20_check,
    "d20.rest": d20_rest,
    "dice.roll": dice_roll,
}


def test_every_panel_kind_has_a_scenario_here() -> None:
    assert sorted(PLAYED) == sorted(kind for _, kind in KINDS)


@pytest.mark.parametrize(("system", "kind"), KINDS, ids=[k for _, k in KINDS])
def test_each_panel_reads_its_opened_and_played_state_into_its_typed_class(
    system: str, kind: str
) -> None:
    rules = REGISTRY.find(system).panel(kind)
    declared = typing.get_type_hints(type(rules).read)["return"]
    assert dataclasses.is_dataclass(declared) and declared.__dataclass_params__.frozen, declared
    opened, played = PLAYED[kind]()
    assert _json(opened) != _json(played) or kind in OVER_AS_IT_OPENS  # the step changed it
    for state in (opened, played):
        model = rules.read(_json(state))
        assert type(model) is declared
        assert model == rules.read(_json(state))  # a value: read twice, equal


@pytest.mark.parametrize(("system", "kind"), KINDS, ids=[k for _, k in KINDS])
def test_the_rules_hand_back_the_new_state_as_it_reads(
    system: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press reads the panel's state once and hands the typed value to ``act``; the
    rules hand back the new state typed too (``Outcome.model``), which the view shows
    without reading the stored state again: it must be what reading it would give."""
    rules = REGISTRY.find(system).panel(kind)
    acted = type(rules).act
    handed: list[object] = []

    def act(self: object, table: Table, state: object, *args: object) -> Outcome:
        outcome = acted(self, table, state, *args)  # type: ignore[arg-type]
        handed.append(outcome.model)
        assert outcome.model is not None, "the rules handed back no typed state"
        assert outcome.model == rules.read(_json(outcome.state))
        typed = acted(self, table, rules.read(_json(state)), *args)  # type: ignore[arg-type]
        assert typed.state == outcome.state  # handed the typed value, the same step
        return outcome

    monkeypatch.setattr(type(rules), "act", act)
    PLAYED[kind]()
    assert handed or kind in OVER_AS_IT_OPENS  # a long rest takes no press


# -- the edges read the typed value -------------------------------------------------------

PANEL_STATES = "|".join(
    sorted(
        {
            typing.get_type_hints(type(rules).read)["return"].__name__
            for system in REGISTRY
            for rules in system.panels.values()
        }
    )
)
DECODES = re.compile(rf"\b({PANEL_STATES})\.from_dict\(")
INDEXES = re.compile(r"\bview\.state\b|\bpanel\.state\b")


def edge_modules() -> list[Path]:
    return sorted(
        p
        for top in ("tgbot", "webapp")
        for p in (ROOT / top).rglob("*.py")
        if "sandbox" not in p.parts
    )


@pytest.mark.parametrize("pattern", [DECODES, INDEXES], ids=["from_dict", "view.state"])
def test_no_edge_module_decodes_panel_state_itself(pattern: re.Pattern[str]) -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in edge_modules()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)


def test_the_guard_sees_what_it_guards_against() -> None:
    assert DECODES.search("panel = RollPanel.from_dict(view.state)")
    assert DECODES.search("DowntimePanelState.from_dict(x)")
    assert INDEXES.search('int(view.state.get("board", 0))')
    assert not INDEXES.search("view.campaign.state")
