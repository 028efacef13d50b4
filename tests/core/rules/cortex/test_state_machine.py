"""Hypothesis drives the Cortex table with any action by anyone.

Invariants checked after every action: Plot Points never negative, every die
a valid rating, state survives a JSON round trip, and a refused action raises
one of the product's errors and leaves the table exactly as it was.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.cortex import actions as a
from core.rules.cortex.allowed import allowed_actions
from core.rules.cortex.contest import acting_users, apply
from core.rules.cortex.dice import Die
from core.rules.cortex.pool import Pick, PickKind
from core.rules.cortex.state import Phase, Table
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.rng import SeededRng
from tests.core.rules.cortex.conftest import WATCHTOWER, make_table

USERS = [1, 2, 3, WATCHTOWER, 555]
NAMES = ["Clark", "Lois", "Chloe", "Lex", "Nobody"]
TRAITS = ["Justice", "Love", "Truth", "Glory", "Power", "Lois", "Clark", "Chloe"]
TRAITS += ["Farm Boy", "Super Strength", "Reporter", "Hacker", "Billionaire"]
TRAITS += ["Angry", "Afraid", "Kryptonite", "Paranoid", "Open window", "x"]
DICE = st.sampled_from(list(Die))

picks = st.builds(
    lambda kind, name, challenge: Pick(kind, name, challenge and kind is PickKind.VALUE),
    st.sampled_from(list(PickKind)),
    st.sampled_from(TRAITS),
    st.booleans(),
)
names = st.sampled_from(NAMES)
stress_types = st.sampled_from(["Afraid", "Angry", "Insecure", "Hungry"])

actions: st.SearchStrategy[a.Action] = st.one_of(
    st.builds(a.StartTest, names),
    st.builds(a.StartContest, names, names),
    st.builds(a.StartRelief, names, names, stress_types),
    st.builds(a.SetOpposition, st.lists(DICE, max_size=4).map(tuple)),
    st.just(a.RollStressOpposition()),
    st.builds(a.AddToPool, picks),
    st.builds(a.AddToPool, picks),
    st.builds(a.AddToPool, picks),
    st.builds(a.RemoveFromPool, picks),
    st.builds(a.CreateDetail, st.sampled_from(["Open window", "Rain", ""]), st.none() | DICE),
    st.builds(a.OfferAid, names, st.lists(picks, max_size=3).map(tuple)),
    st.builds(a.UseResource, st.sampled_from(["Fortress", "x"]), st.booleans()),
    st.just(a.RollPool()),
    st.just(a.RollPool()),
    st.just(a.IncludeDie()),
    st.just(a.Settle()),
    st.just(a.Settle()),
    st.just(a.GiveIn()),
    st.just(a.TakeStress()),
    st.builds(
        a.InflictStress,
        stress_types,
        st.lists(DICE, max_size=2).map(tuple),
        st.lists(DICE, max_size=2).map(tuple),
    ),
    st.just(a.DeclareStressedOut()),
    st.builds(a.ActivateComplication, st.integers(-1, 3)),
    st.builds(a.CancelTrouble, st.integers(-1, 2), st.integers(-1, 2)),
    st.builds(a.Interfere, names),
    st.builds(a.Vote, names, st.booleans()),
    st.just(a.EndScene()),
)


def own_picks(table: Table, name: str) -> list[Pick]:
    sheet = table.find(name)
    if sheet is None:
        return [Pick(PickKind.VALUE, "x")]
    found = [Pick(PickKind.VALUE, v.name, c) for v in sheet.values for c in (False, True)]
    found += [Pick(PickKind.RELATIONSHIP, r.name) for r in sheet.relationships]
    found += [Pick(PickKind.ASSET, x.name) for x in sheet.assets]
    found += [Pick(PickKind.DETAIL, d.name) for d in table.details if d.owner == sheet.name]
    for other in table.sheets:
        found += [Pick(PickKind.OPPONENT_STRESS, e.type) for e in other.stress]
        found += [Pick(PickKind.OPPONENT_LIMIT, lim.name) for lim in other.limits]
    return found


def likely(table: Table) -> list[a.Action]:
    """Concrete actions that fit the moment, so runs get deep into the machine."""
    c = table.conflict
    everyone = [s.name for s in table.sheets]
    if c is None or c.phase is Phase.DONE:
        stressed = [(s.name, e.type) for s in table.sheets for e in s.stress]
        return [
            *(a.StartTest(n) for n in everyone),
            *(a.StartContest(x, y) for x in everyone for y in everyone if x != y),
            *(a.StartRelief(r, f, t) for r in everyone for f, t in stressed if r != f),
            a.ActivateComplication(0),
            a.CancelTrouble(0, 0),
        ]
    if c.phase is Phase.OPPOSITION:
        return [
            a.SetOpposition((Die.D8, Die.D6)),
            a.SetOpposition((Die.D12,)),
            a.SetOpposition((Die.D4, Die.D10, Die.D6)),
            a.RollStressOpposition(),
        ]
    if c.phase is Phase.BUILDING:
        return [
            *(a.AddToPool(p) for p in own_picks(table, c.roller)),
            *[a.RollPool()] * 6,
            a.CreateDetail("Rain"),
            a.CreateDetail("Crowd", Die.D8),
            a.CreateDetail("Crowd", Die.D6),
            *(a.OfferAid(h, (p,)) for h in everyone for p in own_picks(table, h)[:3]),
            a.UseResource("Fortress"),
            a.UseResource("Fortress", use_up=True),
            a.GiveIn(),
            *(a.Interfere(n) for n in everyone),
        ]
    if c.phase is Phase.PICKING:
        return [a.Settle(), a.Settle(), a.IncludeDie()]
    if c.phase is Phase.YIELDING:
        return [a.GiveIn(), a.TakeStress()]
    if c.phase is Phase.INFLICTING:
        return [a.InflictStress(t) for t in ("Angry", "Afraid")] + [a.DeclareStressedOut()]
    return [a.Vote(n, b) for n in c.contestants for b in (True, True, False)]


def plausible_user(table: Table, action: a.Action, default: int) -> int:
    """The user who would normally send ``action`` (to reach the deeper phases)."""
    name = ""
    if isinstance(action, a.OfferAid | a.Interfere):
        name = action.helper if isinstance(action, a.OfferAid) else action.interferer
    elif isinstance(action, a.Vote):
        name = action.character
    elif isinstance(action, a.StartTest | a.StartContest):
        name = action.actor
    elif isinstance(action, a.StartRelief):
        name = action.reliever
    elif isinstance(action, a.ActivateComplication):
        return table.watchtower
    elif isinstance(action, a.CancelTrouble):
        return table.seats[0].user
    return table.controller(name) if name else default


def dice_in(data: object) -> list[int]:
    found: list[int] = []
    if isinstance(data, dict):
        for key, item in data.items():
            if key == "die" and isinstance(item, int):
                found.append(item)
            elif key in ("trouble", "growth", "stress_pool", "pool", "dice") and isinstance(
                item, list
            ):
                found += [d for d in item if isinstance(d, int)]
                found += [x for d in item for x in dice_in(d)]
            else:
                found += dice_in(item)
    elif isinstance(data, list):
        for item in data:
            found += dice_in(item)
    return found


def check_invariants(table: Table) -> dict[str, object]:
    for sheet in table.sheets:
        assert sheet.plot_points >= 0
    data = table.to_dict()
    assert all(d in (4, 6, 8, 10, 12) for d in dice_in(data))
    assert Table.from_dict(json.loads(json.dumps(data))) == table
    c = table.conflict
    if c is not None and c.phase is not Phase.DONE:
        assert acting_users(table)
        for user in acting_users(table):
            assert allowed_actions(table, user) - {a.EndScene, a.EndEpisode}
    return data


REACHED: Counter[tuple[str, str]] = Counter()


def run(data: st.DataObject, steps: int) -> None:
    table = make_table()
    before = table.to_dict()
    for step in range(steps):
        waiting = sorted(acting_users(table))
        user = data.draw(st.sampled_from(waiting) if waiting else st.sampled_from(USERS))
        if data.draw(st.integers(0, 4)) == 0:
            user = data.draw(st.sampled_from(USERS))
        if data.draw(st.integers(0, 3)) == 0:
            action = data.draw(actions)
        else:
            options = likely(table)
            action = options[data.draw(st.integers(0, len(options) - 1))]
            if data.draw(st.integers(0, 5)) > 0:
                user = plausible_user(table, action, user)
        allowed = allowed_actions(table, user)
        try:
            result = apply(table, user, action, SeededRng(step))
        except (Malformed, NotAllowedNow, NotYourTurn) as exc:
            assert isinstance(exc, StonetableError) and exc.message
            assert table.to_dict() == before
            continue
        except Exception:
            print("failed:", user, action)
            raise
        assert type(action) in allowed, f"{type(action).__name__} accepted but not offered"
        table = result.table
        REACHED[(type(action).__name__, table.conflict.phase.value if table.conflict else "")] += 1
        before = check_invariants(table)


@given(st.data())
@settings(max_examples=12, deadline=None)
def test_no_action_by_anyone_breaks_the_table(data: st.DataObject) -> None:
    run(data, 40)


@pytest.mark.slow
@given(st.data())
@settings(max_examples=100, deadline=None)
def test_no_long_action_sequence_breaks_the_table(data: st.DataObject) -> None:
    run(data, 60)


def test_strangers_are_never_in_turn() -> None:
    table = make_table()
    step = apply(table, 1, a.StartContest("Clark", "Lois"), SeededRng(0))
    assert 555 not in acting_users(step.table)
    with pytest.raises(NotYourTurn):
        apply(step.table, 555, a.AddToPool(Pick(PickKind.VALUE, "Justice")), SeededRng(0))
    with pytest.raises(NotYourTurn):
        apply(step.table, 2, a.AddToPool(Pick(PickKind.VALUE, "Truth")), SeededRng(0))
