"""The end of a Contest: Giving In, taking Stress, inflicting it, Stressed Out.

Invariants: only the reactor Gives In or takes Stress; inflictions are handled
in order, each by its inflicter; Stressed Out needs a win by
:data:`STRESSED_OUT_MARGIN` or more; the conflict ends when none are left.
"""

from __future__ import annotations

from dataclasses import replace

from core.rules.cortex import actions as a
from core.rules.cortex.dice import MAX_POOL, Die
from core.rules.cortex.state import Conflict, Ending, Infliction, Kind, Phase, Table
from core.rules.cortex.stress import adjust_pool, inflict, roll_stress
from core.rules.cortex.traits import same_name
from core.rules.cortex.turns import (
    STRESSED_OUT_MARGIN,
    Step,
    active,
    finish,
    require_controller,
)
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.rng import Rng


def give_in(table: Table, user: int, action: a.GiveIn, rng: Rng) -> Step:
    c = active(table, Phase.BUILDING, Phase.YIELDING)
    if c.kind is not Kind.CONTEST or c.queue or c.to_beat is None:
        raise NotAllowedNow("You can Give In when you are reacting in a Contest.")
    if c.phase is Phase.BUILDING and not same_name(c.roller, c.reactor):
        raise NotAllowedNow("You can Give In when you are reacting in a Contest.")
    require_controller(table, user, c.reactor)
    table, event = finish(table, c, Ending.GAVE_IN, c.actor, c.reactor)
    return Step(table, (event,))


def take_stress(table: Table, user: int, action: a.TakeStress, rng: Rng) -> Step:
    c = active(table, Phase.YIELDING)
    require_controller(table, user, c.reactor)
    infliction = Infliction(
        c.actor, c.reactor, c.stress_pool, may_stress_out=c.margin >= STRESSED_OUT_MARGIN
    )
    c = replace(c, phase=Phase.INFLICTING, pending=(infliction,), roller=c.actor)
    return Step(replace(table, conflict=c), ())


def _next_infliction(table: Table, c: Conflict, ending: Ending) -> tuple[Table, a.Event | None]:
    pending = c.pending[1:]
    if pending:
        c = replace(c, pending=pending, roller=pending[0].inflicter)
        return replace(table, conflict=c), None
    return finish(table, c, ending, c.actor, c.reactor)


def inflict_stress(table: Table, user: int, action: a.InflictStress, rng: Rng) -> Step:
    c = active(table, Phase.INFLICTING)
    todo = c.pending[0]
    require_controller(table, user, todo.inflicter)
    stress_type = table.settings.stress_type(action.stress_type)
    if len(action.add) > MAX_POOL:
        raise Malformed("That is too many dice to add.")
    add = tuple(Die.parse(d) for d in action.add)
    remove = tuple(Die.parse(d) for d in action.remove)
    pool = adjust_pool(todo.pool, add, remove)
    rolled, size = roll_stress(pool, rng)
    events: list[a.Event] = [a.StressRolled(todo.inflicter, rolled, size)]
    if size is not None:
        new, change = inflict(table.sheet(todo.target), stress_type, size)
        table = table.with_sheet(new)
        events.append(a.StressInflicted(todo.inflicter, change))
        if change.stressed_out:
            events.append(a.StressedOut(todo.target))
    table, ended = _next_infliction(table, c, Ending.STRESS)
    if ended is not None:
        events.append(ended)
    return Step(table, tuple(events))


def declare_stressed_out(table: Table, user: int, action: a.DeclareStressedOut, rng: Rng) -> Step:
    c = active(table, Phase.INFLICTING)
    todo = c.pending[0]
    require_controller(table, user, todo.inflicter)
    if not todo.may_stress_out:
        raise NotAllowedNow(
            "Stressed Out needs a win by {margin} or more.", margin=STRESSED_OUT_MARGIN
        )
    table = table.with_sheet(replace(table.sheet(todo.target), stressed_out=True))
    events: list[a.Event] = [a.StressedOut(todo.target)]
    table, ended = _next_infliction(table, c, Ending.STRESSED_OUT)
    if ended is not None:
        events.append(ended)
    return Step(table, tuple(events))
