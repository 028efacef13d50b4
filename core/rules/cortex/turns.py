"""Shared moves of the Cortex state machine: whose turn, paying, phase changes.

Invariants: helpers raise before building anything, so a refused action never
changes the table; Plot Points move only through :func:`pay`, which refuses a
Lead who cannot pay; ``""`` stands for the Watchtower's endless supply.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from core.rules.cortex import actions as a
from core.rules.cortex.pool import Draft
from core.rules.cortex.state import Conflict, Ending, Kind, Phase, Table
from core.rules.cortex.traits import Sheet, same_name
from core.rules.errors import NotAllowedNow, NotYourTurn

STRESSED_OUT_MARGIN = 5


@dataclass(frozen=True)
class Step:
    """The table after an action, and what happened."""

    table: Table
    events: tuple[a.Event, ...]


def active(table: Table, *phases: Phase) -> Conflict:
    c = table.conflict
    if c is None or c.phase is Phase.DONE:
        raise NotAllowedNow("No roll is under way. Start a Test or a Contest first.")
    if phases and c.phase not in phases:
        raise NotAllowedNow("That can't be done at this point of the roll.")
    return c


def require_controller(table: Table, user: int, character: str) -> None:
    if table.controller(character) != user:
        raise NotYourTurn("It's up to {name} now.", name=character)


def require_watchtower(table: Table, user: int) -> None:
    if user != table.watchtower:
        raise NotYourTurn("Only the Watchtower can do that.")


def require_ready(sheet: Sheet) -> None:
    if sheet.stressed_out:
        raise NotAllowedNow("{name} is Stressed Out for the rest of the scene.", name=sheet.name)


def opponent_of(table: Table, c: Conflict, character: str) -> Sheet | None:
    """The other contestant in a Contest (none for an interferer, a Test or Relief)."""
    if c.kind is not Kind.CONTEST:
        return None
    if same_name(character, c.actor):
        return table.sheet(c.reactor)
    if same_name(character, c.reactor):
        return table.sheet(c.actor)
    return None


def pay(
    table: Table, payer: str, payee: str, amount: int, reason: str
) -> tuple[Table, tuple[a.Event, ...]]:
    """Move Plot Points; ``""`` is the Watchtower's endless supply."""
    if amount <= 0:
        return table, ()
    if payer:
        table = table.with_sheet(table.sheet(payer).spend_plot_points(amount))
    if payee:
        table = table.with_sheet(table.sheet(payee).gain_plot_points(amount))
    return table, (a.PlotPointsPaid(payer, payee, amount, reason),)


def pay_for_roll(
    table: Table, c: Conflict, roller: str, amount: int, reason: str
) -> tuple[Table, tuple[a.Event, ...]]:
    """A roller pays; in a Contest the other contestant gets the Plot Points."""
    sheet = table.sheet(roller)
    opponent = opponent_of(table, c, roller)
    payee = opponent.name if opponent is not None and opponent.is_lead else a.WATCHTOWER
    payer = sheet.name if sheet.is_lead else a.WATCHTOWER
    if not payer and not payee:
        return table, ()
    return pay(table, payer, payee, amount, reason)


def start_building(c: Conflict, roller: str, **changes: Any) -> Conflict:
    carried = c.remembered(roller)
    return replace(
        c,
        phase=Phase.BUILDING,
        roller=roller,
        draft=Draft(carried, carried),
        aid=(),
        roll=None,
        **changes,
    )


def finish(
    table: Table, c: Conflict, ending: Ending, winner: str, loser: str
) -> tuple[Table, a.Event]:
    done = replace(c, phase=Phase.DONE, ending=ending, winner=winner, pending=(), queue=())
    event = a.ConflictEnded(c.kind, ending, winner, loser, c.margin)
    return replace(table, conflict=done), event
