"""A turn order for games played over days: who holds the turn, and passing it on.

The host sets an order of the game's players (``/turns Ana Bo Cy``) or rolls one: each
player rolls a d20 and adds their sheet's modifier where the game's sheet has one
(:attr:`core.rules.registry.GameSystem.turn_modifier`, 0 otherwise); the highest goes
first and a tie is rolled off among the tied (as often as it takes). ``/next`` passes
the turn to the next player, taken by the holder or the host. A player leaving drops
out of the order (the turn passes on if it was theirs); the game ending drops the order.

Setting an order or passing the turn may be taken back like any step (a
:class:`TurnStep` keeps the order before it); a rolled order stands, as rolled dice do
(:mod:`core.rules.undo`).

Invariants: an order holds two or more distinct players, all seated; the holder is one
of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.rules.catalogue import N_
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.rng import Rng
from core.rules.said import Joined, Said
from core.rules.table import Role, Seat, Table
from core.rules.undo import StepTaken

ORDER_DIE = 20
TOO_FEW = "A turn order needs at least two players in the game."
NOT_SEATED = "Everyone in a turn order must be a player in this game."
TWICE = "Name each player once in a turn order."
NO_ORDER = "This game has no turn order. The host sets one with /turns."
NOT_YOURS = "It's {name}'s turn: they or the host pass it on with /next."
ONLY_HOST = "Only the host sets the turn order."
SET_LABEL = N_("setting the turn order")
NEXT_LABEL = N_("passing the turn")
ROLL_LABEL = N_("rolling the turn order")
TURN_LINE = N_("🔁 Turn: {name} (then {rest})")


def no_modifier(seat: Seat) -> int:
    """A game whose sheet has no modifier for the turn order: everyone rolls a bare d20."""
    return 0


@dataclass(frozen=True)
class TurnOrder:
    """The players in turn order, and whose turn it is."""

    players: tuple[int, ...]
    holder: int

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise NotAllowedNow(TOO_FEW)
        if len(set(self.players)) != len(self.players):
            raise Malformed(TWICE)
        if self.holder not in self.players:
            raise Malformed(NOT_SEATED)

    def to_dict(self) -> dict[str, Any]:
        return {"v": 1, "players": list(self.players), "holder": self.holder}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnOrder:
        """Raises: Malformed: the stored order is damaged."""
        try:
            return cls(tuple(int(p) for p in data["players"]), int(data["holder"]))
        except (KeyError, TypeError, ValueError):
            raise Malformed("The turn order can't be read.") from None

    @property
    def after_holder(self) -> int:
        """Who holds the turn next."""
        return self.players[(self.players.index(self.holder) + 1) % len(self.players)]


@dataclass(frozen=True)
class OrderRoll:
    """One player's roll for the order: the die, their modifier, and tie roll-offs."""

    player: int
    die: int
    modifier: int
    roll_offs: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return self.die + self.modifier


@dataclass(frozen=True)
class TurnStep:
    """One change of the turn order, as undo sees it."""

    actor: int
    before: TurnOrder | None
    after: TurnOrder | None
    label: str
    rolled: bool = False
    rolls: tuple[OrderRoll, ...] = ()

    def taken(self) -> StepTaken:
        """The step as :mod:`core.rules.undo` weighs it (a rolled order stands)."""
        return StepTaken(self.actor, self.label, rolled=self.rolled)


def _host(table: Table, actor: int) -> None:
    if actor not in table.with_role(Role.HOST):
        raise NotYourTurn(ONLY_HOST)


def _players(table: Table) -> tuple[int, ...]:
    """Who may hold a turn: the game's players (a Game Master runs the world)."""
    return tuple(
        p for p, s in table.seats.items() if Role.PLAYER in s.roles or Role.HOST in s.roles
    )


def choosable(table: Table, actor: int) -> tuple[int, ...]:
    """Who the host may put in order (the game's players, as seated).

    Raises:
        NotYourTurn: not the host. NotAllowedNow: fewer than two players.
    """
    _host(table, actor)
    players = _players(table)
    if len(players) < 2:
        raise NotAllowedNow(TOO_FEW)
    return players


def set_order(
    table: Table, actor: int, players: Sequence[int], before: TurnOrder | None = None
) -> TurnStep:
    """The host sets the order; the first player holds the turn.

    Raises:
        NotYourTurn: not the host. NotAllowedNow: fewer than two players.
        Malformed: a player named twice, or someone not seated.
    """
    _host(table, actor)
    if any(p not in table.seats for p in players):
        raise Malformed(NOT_SEATED)
    if len(players) < 2:
        raise NotAllowedNow(TOO_FEW)
    order = TurnOrder(tuple(players), players[0])
    return TurnStep(actor, before, order, SET_LABEL)


def roll_order(
    table: Table,
    actor: int,
    rng: Rng,
    modifier: Callable[[Seat], int] = no_modifier,
    before: TurnOrder | None = None,
) -> TurnStep:
    """The host rolls the order of every player: d20 + modifier, highest first; the tied
    roll off (a d20 each, again while still tied).

    Raises:
        NotYourTurn: not the host. NotAllowedNow: fewer than two players.
    """
    _host(table, actor)
    players = _players(table)
    if len(players) < 2:
        raise NotAllowedNow(TOO_FEW)
    rolls = {p: OrderRoll(p, rng.randint(1, ORDER_DIE), modifier(table.seats[p])) for p in players}
    ranked = _ranked(list(players), rolls, rng)
    order = TurnOrder(tuple(ranked), ranked[0])
    return TurnStep(
        actor, before, order, ROLL_LABEL, rolled=True, rolls=tuple(rolls[p] for p in ranked)
    )


def _ranked(players: list[int], rolls: dict[int, OrderRoll], rng: Rng) -> list[int]:
    """Highest total first; each group of tied players rolled off (``rolls`` records it)."""
    by_total: dict[int, list[int]] = {}
    for p in players:
        by_total.setdefault(rolls[p].total, []).append(p)
    ranked: list[int] = []
    for key in sorted(by_total, reverse=True):
        tied = by_total[key]
        if len(tied) == 1:
            ranked += tied
            continue
        for p in tied:
            r = rolls[p]
            rolls[p] = OrderRoll(
                r.player, r.die, r.modifier, (*r.roll_offs, rng.randint(1, ORDER_DIE))
            )
        ranked += _ranked_off(tied, rolls, rng)
    return ranked


def _roll_off(tied: list[int], rolls: dict[int, OrderRoll], rng: Rng) -> None:
    """Each of the ``tied`` rolls one more d20, kept with their roll."""
    for p in tied:
        r = rolls[p]
        rolls[p] = OrderRoll(p, r.die, r.modifier, (*r.roll_offs, rng.randint(1, ORDER_DIE)))


def _ranked_off(tied: list[int], rolls: dict[int, OrderRoll], rng: Rng) -> list[int]:
    groups: dict[int, list[int]] = {}
    for p in tied:
        groups.setdefault(rolls[p].roll_offs[-1], []).append(p)
    ranked: list[int] = []
    for face in sorted(groups, reverse=True):
        group = groups[face]
        if len(group) == 1:
            ranked += group
            continue
        for p in group:
            r = rolls[p]
            rolls[p] = OrderRoll(
                r.player, r.die, r.modifier, (*r.roll_offs, rng.randint(1, ORDER_DIE))
            )
        ranked += _ranked_off(group, rolls, rng)
    return ranked


def next_turn(table: Table, actor: int, order: TurnOrder | None) -> TurnStep:
    """Pass the turn on: by the holder, or by the host.

    Raises:
        NotAllowedNow: the game has no turn order. NotYourTurn: someone else's turn.
    """
    if order is None:
        raise NotAllowedNow(NO_ORDER)
    if actor != order.holder and actor not in table.with_role(Role.HOST):
        seat = table.seat(order.holder)
        raise NotYourTurn(NOT_YOURS, name=seat.name if seat else str(order.holder))
    after = TurnOrder(order.players, order.after_holder)
    return TurnStep(actor, order, after, NEXT_LABEL)


def without(order: TurnOrder | None, player: int) -> TurnOrder | None:
    """The order once ``player`` left the game: the turn passes on if it was theirs; with
    fewer than two players left, there is no order."""
    if order is None or player not in order.players:
        return order
    rest = tuple(p for p in order.players if p != player)
    if len(rest) < 2:
        return None
    holder = order.after_holder if order.holder == player else order.holder
    return TurnOrder(rest, holder)


def turn_line(order: TurnOrder | None, names: Mapping[int, str]) -> Said | None:
    """``🔁 Turn: Bo (then Cy, Ana)`` (/status, the Mini App home), or None without an
    order."""
    if order is None:
        return None
    at = order.players.index(order.holder)
    rest = order.players[at + 1 :] + order.players[:at]
    return Said(
        TURN_LINE,
        name=names.get(order.holder, str(order.holder)),
        rest=Joined(", ", [names.get(p, str(p)) for p in rest]),
    )
