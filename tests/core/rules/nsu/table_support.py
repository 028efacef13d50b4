"""A tiny in-memory table for driving NSU panels the way core.campaigns does."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from core.rules.nsu import SYSTEM
from core.rules.rng import Rng, SeededRng
from core.rules.table import Json, Outcome, Role, Seat, Table

ALICE, BOB, CARA = 101, 102, 103
NAMES = {ALICE: "Alice", BOB: "Bob", CARA: "Cara"}


@dataclass
class Panel:
    kind: str
    state: Json
    closed: bool = False
    events: tuple[object, ...] = ()


@dataclass
class Harness:
    players: tuple[int, ...] = (ALICE, BOB, CARA)
    rng: Rng = field(default_factory=lambda: SeededRng(7))
    state: Json = field(default_factory=dict)
    sheets: dict[int, Json] = field(default_factory=dict)

    def __post_init__(self) -> None:
        rules = SYSTEM.campaign
        self.state = rules.new_state()
        for pid in self.players:
            self.sheets[pid] = {}
            state, sheet = rules.seated(self.table(), pid)
            self.state, self.sheets[pid] = state, sheet

    def table(self) -> Table:
        seats = {
            pid: Seat(
                pid,
                NAMES.get(pid, str(pid)),
                frozenset({Role.HOST, Role.PLAYER} if i == 0 else {Role.PLAYER}),
                self.sheets[pid],
            )
            for i, pid in enumerate(self.sheets)
        }
        return Table(1, "nsu", self.state, seats)

    def settle(self, outcome: Outcome) -> None:
        # Everything stored must survive JSON, as in the database.
        if outcome.campaign_state is not None:
            self.state = json.loads(json.dumps(outcome.campaign_state))
        for pid, sheet in outcome.sheets.items():
            self.sheets[pid] = json.loads(json.dumps(sheet))

    def open(self, kind: str, actor: int, argument: str = "") -> Panel:
        outcome = SYSTEM.panel(kind).open(self.table(), actor, argument, self.rng)
        self.settle(outcome)
        state = json.loads(json.dumps(outcome.state))
        return Panel(kind, state, outcome.closed, outcome.events)

    def act(self, panel: Panel, actor: int, action: str, argument: str = "") -> Panel:
        rules = SYSTEM.panel(panel.kind)
        outcome = rules.act(self.table(), panel.state, actor, action, argument, self.rng)
        self.settle(outcome)
        panel.state = json.loads(json.dumps(outcome.state))
        panel.closed = outcome.closed
        panel.events = outcome.events
        return panel

    def edit(self, actor: int, action: str, payload: dict[str, Any]) -> Outcome:
        outcome = SYSTEM.campaign.edit(self.table(), actor, action, payload, self.rng)
        self.settle(outcome)
        return outcome


CARD_TEXTS = {
    ALICE: [("Glass Orchard", "Trees of blown glass.", "the bees", "shards", "seeds")],
    BOB: [("Drowned Mall", "Escalators into water.", "the eels", "currents", "tins")],
    CARA: [("Signal Tower", "It still hums.", "the birds", "static", "a radio")],
}


def card_fields(pid: int, n: int) -> tuple[str, str, str, str, str]:
    title, description, target, danger, treasure = CARD_TEXTS[pid][0]
    return (f"{title} {n}", description, target, danger, treasure)


def build_world(h: Harness) -> Panel:
    """Drive worldbuilding through the panels to the end; returns the closed setup panel."""
    panel = build_to_locations(h)
    write_locations(h)
    h.act(panel, h.players[1], "deal", "3")
    h.act(panel, h.players[2], "roll")
    return panel


def write_locations(h: Harness) -> None:
    """Every player writes their two locations in the private panel."""
    for pid in h.players:
        for n in (1, 2):
            cards = h.open("nsu.cards", pid)
            for value in card_fields(pid, n):
                h.act(cards, pid, "text", value)


def build_to_locations(h: Harness) -> Panel:
    """Drive worldbuilding through the panels up to writing locations; returns the panel."""
    a, b, c = h.players
    panel = h.open("nsu.setup", a)
    h.act(panel, a, "text", "Weird and hopeful")
    h.act(panel, b, "agree")
    h.act(panel, c, "agree")
    h.act(panel, a, "text", "No dragons")
    h.act(panel, b, "pass")
    h.act(panel, c, "text", "No time travel")
    h.act(panel, a, "text", "The walls are made of old buses")
    h.act(panel, b, "text", "A bell rings at noon")
    h.act(panel, c, "pass")
    h.act(panel, a, "pass")
    h.act(panel, a, "text", "A week between trips")
    h.act(panel, b, "scope")
    for pid, name in zip(
        (a, b, c, a, b), ("Water", "Salt", "Music", "Light", "Trust"), strict=True
    ):
        h.act(panel, pid, "text", name)
    h.act(panel, c, "abundance", "2")
    return panel


def make_character(h: Harness, pid: int, board: str = "") -> Panel:
    panel = h.open("nsu.character", pid, board)
    h.act(panel, pid, "text", f"Wren {pid}")
    h.act(panel, pid, "text", "she/her")
    h.act(panel, pid, "text", "Tall, in a coat of maps")
    h.act(panel, pid, "text", "Curious, Wary, Angry")
    h.act(panel, pid, "aspects", "0")
    h.act(panel, pid, "text", "My compass\n-\nThe bell")
    h.act(panel, pid, "text", "Climbing, Talking, Fixing")
    h.act(panel, pid, "text", "Heard of glass trees")
    h.act(panel, pid, "text", "Heard of more glass")
    h.act(panel, pid, "finish")
    return panel
