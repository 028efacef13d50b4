"""A ready-to-play NSU table for the play tests: a small world and three characters.

Built through the pure rules, so tests of the Action Roll and downtime panels
need not wait for worldbuilding. ``campaign_state`` and ``sheets`` are stored
JSON, as the campaign keeps them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from core.rules.nsu.campaign import NsuCampaign, Phase
from core.rules.nsu.sheet import (
    Character,
    CharacterDraft,
    Die,
    assign_aspects,
    choose_name,
    describe,
    finish_creation,
    invent_sentiments,
    pick_moods,
    write_skills,
)
from core.rules.nsu.world import (
    CollateralClock,
    DangerLevel,
    LocationCard,
    MapGrid,
    Resource,
    ResourceLevel,
    RewardLevel,
    World,
)
from core.rules.table import Role, Seat, Table


def character(name: str, moods: tuple[str, str, str] = ("Curious", "Wary", "Angry")) -> Character:
    """Body d4, Mind d8, Heart d6; moods on lines 1 (d8), 3 (d6), 5 (d4); skills at +1."""
    d = CharacterDraft()
    d = choose_name(d, name)
    d = describe(d, "they/them", "Patched coat")
    d = pick_moods(d, *moods)
    d = assign_aspects(d, body=Die.D4, mind=Die.D8, heart=Die.D6)
    d = invent_sentiments(d, "My sister", "The old compass", "Nothing is wasted")
    return finish_creation(write_skills(d, "Climbing", "Haggling", "Tinkering"))


def card(
    cid: str, author: int, title: str, *, revealed: bool = False, ticks: int = 0
) -> LocationCard:
    return LocationCard(
        id=cid,
        author_id=author,
        title=title,
        description=f"The secret face of {title}",
        collateral_target="the river folk",
        danger_type="beasts",
        treasure_type="old maps",
        danger=DangerLevel.D2,
        reward=RewardLevel.R3,
        clock=CollateralClock(ticks),
        revealed=revealed,
    )


def world(players: tuple[int, ...], *, current: str | None = "a", ticks: int = 2) -> World:
    """A 2x2 map: ``a`` (revealed, the party is here) ``b``, ``c`` face down, home beside ``a``."""
    a, b, c = players[0], players[1 % len(players)], players[2 % len(players)]
    cards = (
        card("a", a, "The <Drowned> Mill", revealed=True, ticks=ticks),
        card("b", b, "Glass Orchard"),
        card("c", c, "The Hollow Tower"),
    )
    resources = tuple(
        Resource(n, ResourceLevel.ABUNDANCE if i == 0 else ResourceLevel.SCARCITY)
        for i, n in enumerate(("water", "seeds", "songs", "tools", "medicine"))
    )
    grid = MapGrid((("a", "b"), (None, "c")), home=(1, 0))
    return World(players=players, resources=resources, cards=cards, grid=grid, current=current)


def campaign_state(w: World, phase: str = "adventure") -> dict[str, Any]:
    """The stored campaign, past worldbuilding, with ``w`` as its world."""
    return NsuCampaign(phase=Phase(phase), world=w).to_dict()


def sheet(c: Character) -> dict[str, Any]:
    return {"character": c.to_dict()}


def table(
    w: World,
    characters: dict[int, Character],
    names: dict[int, str] | None = None,
    phase: str = "adventure",
) -> Table:
    seats = {
        p: Seat(p, (names or {}).get(p, f"P{p}"), frozenset({Role.PLAYER}), sheet(c))
        for p, c in characters.items()
    }
    return Table(1, "nsu", campaign_state(w, phase), seats)


def split(w: World, on: set[int], off: set[int]) -> World:
    """The party split with ``on`` on screen."""
    return replace(w, groups=(frozenset(on), frozenset(off)), focus=0)
