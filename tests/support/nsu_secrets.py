"""Random NSU campaigns with a marker in every secret, built through the pure rules.

A :class:`Plan` (drawn by :func:`plans`) says how far the campaign got:
locations being written, the map dealt, the adventure (cards flipped by
travelling, clocks ticked, cards scouted, scene details), an Action Roll open,
or downtime. :func:`build` plays it through the rules and returns the stored
campaign state and every member's sheet. Each secret text is a unique marker
``zq<what><n>x`` (letters and digits only, so HTML escaping leaves it as is),
which the secrecy tests search for in what members are shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st

from core.rules.nsu.campaign import NsuCampaign, Phase
from core.rules.nsu.downtime import DowntimePlace, begin_downtime
from core.rules.nsu.roll_panel import ROLL_PANEL
from core.rules.nsu.setup import (
    LOCATIONS_PER_PLAYER,
    AuthorLocation,
    DealMap,
    RollDangerAndReward,
    SetupState,
    SetupStep,
    apply,
    finished_world,
)
from core.rules.nsu.sheet import (
    CharacterDraft,
    choose_name,
    consider_rumours,
    describe,
    pick_moods,
)
from core.rules.nsu.world import (
    CLOCK_SEGMENTS,
    World,
    add_scene_detail,
    reachable_cards,
    record_scout,
    tick_collateral,
    travel_to,
)
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.rules.table import Json, Role, Seat, Table
from tests.support.nsu_table import character

MARKER = re.compile(r"zq[a-z]+\d+x")
STAGES = ("locations", "dealt", "adventure", "roll", "downtime")
FIRST_PLAYER = 5001
PUBLIC_WISH = "zqpublicwish1x"  # an Action Roll's desired outcome: said in the group
FACE_FIELDS = ("title", "description", "collateral_target", "danger_type", "treasure_type")


@dataclass(frozen=True)
class Plan:
    """How far a random campaign got, and who did what on the way."""

    players: int  # 2 to 4 members, ids FIRST_PLAYER...
    stage: str
    drafts: frozenset[int]  # seat numbers still making a character (others have one)
    written: tuple[int, ...]  # locations each wrote, while writing them
    columns: int
    travels: tuple[int, ...]  # each picks among the reachable cards
    ticks: tuple[tuple[int, int], ...]  # (card number, ticks by someone)
    scouts: tuple[tuple[int, int], ...]  # (card number, seat number)
    seed: int

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(FIRST_PLAYER + i for i in range(self.players))


@st.composite
def plans(draw: st.DrawFn, stage: str | None = None) -> Plan:
    """Random plans, at ``stage`` or any."""
    players = draw(st.integers(2, 4))
    stage = stage or draw(st.sampled_from(STAGES))
    drafts = draw(st.frozensets(st.integers(0, players - 1), max_size=players - 1))
    cards = players * LOCATIONS_PER_PLAYER
    return Plan(
        players=players,
        stage=stage,
        drafts=drafts,
        written=tuple(draw(st.integers(0, LOCATIONS_PER_PLAYER)) for _ in range(players)),
        columns=draw(st.integers(1, 4)),
        travels=tuple(draw(st.lists(st.integers(0, 7), max_size=3))),
        ticks=tuple(
            draw(st.lists(st.tuples(st.integers(0, cards - 1), st.integers(1, 3)), max_size=4))
        ),
        scouts=tuple(
            draw(
                st.lists(
                    st.tuples(st.integers(0, cards - 1), st.integers(0, players - 1)), max_size=4
                )
            )
        ),
        seed=draw(st.integers(0, 2**16)),
    )


@dataclass(frozen=True)
class Built:
    """A campaign to store: its state, the members' sheets, an open roll's panel state."""

    state: dict[str, Any]
    sheets: dict[int, dict[str, Any]]
    roll: Json | None
    names: dict[int, str]

    def table(self) -> Table:
        seats = {
            p: Seat(p, self.names[p], frozenset({Role.PLAYER}), sheet)
            for p, sheet in self.sheets.items()
        }
        return Table(1, "nsu", self.state, seats)


def _location(author: int, n: int) -> AuthorLocation:
    """A location whose every face field is a marker naming the field and its author."""
    tag = f"{author}{n}"
    return AuthorLocation(
        title=f"zqtitle{tag}x",
        description=f"zqdescription{tag}x",
        collateral_target=f"zqcollateral{tag}x",
        danger_type=f"zqdanger{tag}x",
        treasure_type=f"zqtreasure{tag}x",
    )


def _sheet(plan: Plan, seat: int, player: int) -> dict[str, Any]:
    name = f"Hero{seat}"
    if seat in plan.drafts:
        draft = choose_name(CharacterDraft(), name)
        draft = describe(draft, f"zqpronouns{player}x", f"zqlook{player}x")
        draft = pick_moods(draft, f"zqmooda{player}x", f"zqmoodb{player}x", f"zqmoodc{player}x")
        draft = consider_rumours(draft, f"zqdraftrumour{player}x")
        return {"draft": draft.to_dict()}
    made = character(name).add_rumour(f"zqrumour{player}x")
    return {"character": made.to_dict()}


def _write(plan: Plan, setup: SetupState, rng: SeededRng, *, all_of_them: bool) -> SetupState:
    for seat, player in enumerate(plan.ids):
        count = LOCATIONS_PER_PLAYER if all_of_them else plan.written[seat]
        for n in range(count):
            if setup.step is not SetupStep.LOCATIONS:
                break
            setup, _ = apply(setup, player, _location(player, n), rng)
    return setup


def _adventure(plan: Plan, world: World) -> World:
    for pick in plan.travels:
        options = reachable_cards(world)
        if options:
            world, _ = travel_to(world, options[pick % len(options)])
    for number, count in plan.ticks:
        card = world.cards[number % len(world.cards)]
        count = min(count, CLOCK_SEGMENTS - card.clock.ticks)
        if count:
            world, _ = tick_collateral(world, card.id, world.players[0], count)
    for number, seat in plan.scouts:
        card = world.cards[number % len(world.cards)]
        if not card.revealed:
            world, _ = record_scout(world, card.id, plan.ids[seat])
    if world.current is not None:
        world, _ = add_scene_detail(world, world.current, f"zqscene{len(world.cards)}x")
    return world


def build(plan: Plan) -> Built:
    """Play ``plan`` through the rules."""
    rng = SeededRng(plan.seed)
    ids = plan.ids
    names = {p: f"Player{seat}" for seat, p in enumerate(ids)}
    sheets = {p: _sheet(plan, seat, p) for seat, p in enumerate(ids)}
    setup = SetupState(players=ids, step=SetupStep.LOCATIONS, world=World(players=ids))
    setup = _write(plan, setup, rng, all_of_them=plan.stage != "locations")
    if plan.stage == "locations":
        state = NsuCampaign(phase=Phase.SETUP, setup=setup).to_dict()
        return Built(state, sheets, None, names)
    setup, _ = apply(setup, ids[0], DealMap(plan.columns), rng)
    if plan.stage == "dealt":
        return Built(NsuCampaign(phase=Phase.SETUP, setup=setup).to_dict(), sheets, None, names)
    setup, _ = apply(setup, ids[0], RollDangerAndReward(), rng)
    world = _adventure(plan, finished_world(setup))
    if plan.stage == "downtime":
        characters = {
            p: character(f"Hero{seat}").add_rumour(f"zqrumour{p}x")
            for seat, p in enumerate(ids)
            if seat not in plan.drafts
        }
        downtime, _ = begin_downtime(world, characters, DowntimePlace.CAMP, rng)
        state = NsuCampaign(phase=Phase.DOWNTIME, world=world, downtime=downtime).to_dict()
        return Built(state, sheets, None, names)
    state = NsuCampaign(phase=Phase.ADVENTURE, world=world).to_dict()
    built = Built(state, sheets, None, names)
    if plan.stage == "roll":
        roller = next(p for seat, p in enumerate(ids) if seat not in plan.drafts)
        rules = default_registry().find("nsu").panel(ROLL_PANEL)
        opened = rules.open(built.table(), roller, f"I climb the {PUBLIC_WISH} tower", rng)
        built = replace(built, roll=opened.state)
    return built


def markers(data: Any) -> set[str]:
    """Every marker in some text or JSON-ready data."""
    text = data if isinstance(data, str) else repr(data)
    return set(MARKER.findall(text))
