"""A small Cortex table: three Leads, one Feature, the Watchtower."""

from __future__ import annotations

import pytest

from core.rules.cortex.actions import Action
from core.rules.cortex.contest import Step, apply
from core.rules.cortex.dice import Die
from core.rules.cortex.pool import Pick, PickKind
from core.rules.cortex.state import Seat, Table
from core.rules.cortex.traits import (
    Asset,
    AssetKind,
    Limit,
    Relationship,
    Resource,
    ResourceKind,
    Role,
    Sheet,
    StressEntry,
    Value,
)
from core.rules.rng import ScriptedRng

WATCHTOWER, CLARK_USER, LOIS_USER, CHLOE_USER = 100, 1, 2, 3

CLARK = Sheet(
    name="Clark",
    values=(Value("Justice", Die.D10), Value("Love", Die.D8), Value("Truth", Die.D6)),
    relationships=(Relationship("Lois", Die.D8), Relationship("Chloe", Die.D6)),
    assets=(
        Asset("Farm Boy", Die.D8, AssetKind.DISTINCTION),
        Asset("Super Strength", Die.D12, AssetKind.ABILITY),
    ),
    resources=(Resource("Fortress", Die.D8, ResourceKind.LOCATION),),
    limits=(Limit("Kryptonite", Die.D10),),
    plot_points=2,
)
LOIS = Sheet(
    name="Lois",
    values=(Value("Truth", Die.D10), Value("Glory", Die.D6)),
    relationships=(Relationship("Clark", Die.D8),),
    assets=(Asset("Reporter", Die.D8),),
    plot_points=1,
)
CHLOE = Sheet(
    name="Chloe",
    values=(Value("Truth", Die.D8),),
    relationships=(Relationship("Clark", Die.D6),),
    assets=(Asset("Hacker", Die.D8),),
    plot_points=1,
)
LEX = Sheet(
    name="Lex",
    role=Role.FEATURE,
    values=(Value("Power", Die.D12),),
    relationships=(Relationship("Clark", Die.D8),),
    assets=(Asset("Billionaire", Die.D10),),
    limits=(Limit("Paranoid", Die.D8),),
    stress=(StressEntry("Angry", Die.D6),),
    plot_points=0,
)


def value(name: str, challenge: bool = False) -> Pick:
    return Pick(PickKind.VALUE, name, challenge)


def rel(name: str) -> Pick:
    return Pick(PickKind.RELATIONSHIP, name)


def asset(name: str) -> Pick:
    return Pick(PickKind.ASSET, name)


def make_table() -> Table:
    return Table(
        watchtower=WATCHTOWER,
        seats=(Seat(CLARK_USER, "Clark"), Seat(LOIS_USER, "Lois"), Seat(CHLOE_USER, "Chloe")),
        sheets=(CLARK, LOIS, CHLOE, LEX),
    )


@pytest.fixture
def table() -> Table:
    return make_table()


class Driver:
    """Applies actions with scripted faces and keeps the last table and events."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.events: tuple[object, ...] = ()

    def __call__(self, user: int, action: Action, *faces: int) -> Step:
        rng = ScriptedRng(faces)
        step = apply(self.table, user, action, rng)
        assert rng.remaining == 0, "unused scripted faces"
        assert Table.from_dict(step.table.to_dict()) == step.table
        self.table, self.events = step.table, step.events
        return step

    def sheet(self, name: str) -> Sheet:
        return self.table.sheet(name)


@pytest.fixture
def play(table: Table) -> Driver:
    return Driver(table)
