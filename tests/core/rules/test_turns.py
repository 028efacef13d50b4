"""Turn order rules: set, roll with ties rolled off, pass on, drop a leaver, undo."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.table import Role, Seat, Table
from core.rules.turns import TurnOrder, next_turn, roll_order, set_order, without
from core.rules.undo import check_undo

HOST, ANA, BO, CY, GM = 1, 2, 3, 4, 9


def table(*players: int, gm: bool = False) -> Table:
    seats = {HOST: Seat(HOST, "Hal", frozenset({Role.HOST, Role.PLAYER}))}
    seats |= {p: Seat(p, f"P{p}", frozenset({Role.PLAYER})) for p in players}
    if gm:
        seats[GM] = Seat(GM, "Gm", frozenset({Role.GAME_MASTER}))
    return Table(1, "d20", {}, seats)


def test_the_host_sets_an_order_and_the_first_holds_the_turn() -> None:
    step = set_order(table(ANA, BO), HOST, [BO, HOST, ANA])
    assert step.after == TurnOrder((BO, HOST, ANA), BO)
    assert step.before is None and not step.rolled


def test_an_order_of_one_player_is_refused() -> None:
    with pytest.raises(NotAllowedNow):
        set_order(table(ANA), HOST, [ANA])
    with pytest.raises(NotAllowedNow):
        roll_order(Table(1, "d20", {}, {HOST: table().seats[HOST]}), HOST, SeededRng(1))


def test_only_the_host_sets_an_order_of_seated_players_each_once() -> None:
    with pytest.raises(NotYourTurn):
        set_order(table(ANA, BO), ANA, [ANA, BO])
    with pytest.raises(Malformed):
        set_order(table(ANA, BO), HOST, [ANA, 77])
    with pytest.raises(Malformed):
        set_order(table(ANA, BO), HOST, [ANA, ANA])


def test_next_by_the_holder_or_the_host_and_nobody_else() -> None:
    t = table(ANA, BO)
    order = TurnOrder((ANA, BO, HOST), ANA)
    assert next_turn(t, ANA, order).after == TurnOrder((ANA, BO, HOST), BO)
    assert next_turn(t, HOST, order).after == TurnOrder((ANA, BO, HOST), BO)
    last = TurnOrder((ANA, BO, HOST), HOST)
    assert next_turn(t, HOST, last).after == TurnOrder((ANA, BO, HOST), ANA)  # round again
    with pytest.raises(NotYourTurn) as refused:
        next_turn(t, BO, order)
    assert refused.value.message == "It's P2's turn: they or the host pass it on with /next."
    with pytest.raises(NotAllowedNow):
        next_turn(t, ANA, None)


def test_a_leaver_drops_out_and_their_turn_passes_on() -> None:
    order = TurnOrder((ANA, BO, CY), BO)
    assert without(order, BO) == TurnOrder((ANA, CY), CY)
    assert without(order, ANA) == TurnOrder((BO, CY), BO)
    assert without(order, 77) == order
    assert without(TurnOrder((ANA, BO), ANA), BO) is None  # one left: no order
    assert without(None, ANA) is None


def test_a_roll_orders_highest_first_and_rolls_off_ties() -> None:
    # HOST 12, ANA 15, BO 12, CY 3; then the tie: HOST 4, BO 4 (tied again), HOST 2, BO 19
    step = roll_order(table(ANA, BO, CY), HOST, ScriptedRng([12, 15, 12, 3, 4, 4, 2, 19]))
    assert step.after == TurnOrder((ANA, BO, HOST, CY), ANA)
    assert step.rolled
    offs = {r.player: r.roll_offs for r in step.rolls}
    assert offs == {ANA: (), BO: (4, 19), HOST: (4, 2), CY: ()}


def test_a_roll_adds_each_players_modifier_and_leaves_out_the_game_master() -> None:
    step = roll_order(
        table(ANA, gm=True), HOST, ScriptedRng([10, 8]), modifier=lambda s: 5 * (s.player_id == ANA)
    )
    assert step.after == TurnOrder((ANA, HOST), ANA)  # 8 + 5 beats 10
    assert [r.total for r in step.rolls] == [13, 10]


def test_every_system_names_its_turn_modifier() -> None:
    seat = Seat(ANA, "Ana", frozenset({Role.PLAYER}))
    for system in default_registry():
        assert system.turn_modifier(seat) == 0  # none of the four sheets has one


@given(st.integers(2, 8), st.integers(0, 10**6))
def test_a_rolled_order_holds_every_player_once_ranked_by_total(n: int, seed: int) -> None:
    t = table(*range(10, 10 + n - 1))
    step = roll_order(t, HOST, SeededRng(seed))
    assert step.after is not None
    assert sorted(step.after.players) == sorted(t.seats)
    totals = [r.total for r in step.rolls]
    assert totals == sorted(totals, reverse=True)
    for a, b in zip(step.rolls, step.rolls[1:], strict=False):
        if a.total == b.total:  # ties told apart by the roll-offs, highest first
            assert a.roll_offs > b.roll_offs or a.roll_offs[: len(b.roll_offs)] != b.roll_offs


def test_setting_or_passing_may_be_taken_back_but_a_rolled_order_stands() -> None:
    t = table(ANA, BO)
    set_step = set_order(t, HOST, [ANA, BO])
    assert check_undo([set_step.taken()], HOST).actor == HOST
    passed = next_turn(t, ANA, set_step.after)
    assert passed.before == set_step.after  # what undo puts back
    assert check_undo([set_step.taken(), passed.taken()], ANA).actor == ANA
    rolled = roll_order(t, HOST, SeededRng(3))
    with pytest.raises(NotAllowedNow):
        check_undo([rolled.taken()], HOST)


def test_the_turn_line_names_the_holder_then_the_rest_in_order() -> None:
    from core.rules.said import worded
    from core.rules.turns import TurnOrder, turn_line

    names = {1: "Ana", 2: "Bo", 3: "Cy"}
    assert turn_line(None, names) is None
    line = turn_line(TurnOrder((1, 2, 3), 2), names)
    assert line == "🔁 Turn: Bo (then Cy, Ana)"
    assert line is not None and worded(line, lambda m, **v: m.format(**v)) == line
