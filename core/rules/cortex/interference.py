"""Interfering in a Contest: the outsider's roll, the vote, the three-way roll.

Invariants: one interference per Contest, only once an Action stands and before
the answer is built; the interferer pays the Watchtower one Plot Point; going
on needs both contestants' yes and costs each a Plot Point to the interferer;
after the three-way roll the better contestant (the actor on a tie) stresses
the other, and each contestant who beat the interferer stresses them.
"""

from __future__ import annotations

from dataclasses import replace

from core.rules.cortex import actions as a
from core.rules.cortex.dice import Die
from core.rules.cortex.state import Conflict, Ending, Infliction, Kind, Phase, Standing, Table
from core.rules.cortex.traits import same_name
from core.rules.cortex.turns import (
    Step,
    active,
    finish,
    pay,
    require_controller,
    require_ready,
    start_building,
)
from core.rules.errors import NotAllowedNow
from core.rules.rng import Rng


def settle_interference(table: Table, c: Conflict, result: int) -> Step:
    assert c.to_beat is not None
    stopped = result > c.to_beat
    event = a.InterferenceRolled(c.interferer, result, stopped)
    if stopped:
        c = replace(c, phase=Phase.STOPPED, roll=None, votes=())
    else:
        c = start_building(c, c.reactor)
    return Step(replace(table, conflict=c), (event,))


def settle_three_way(table: Table, c: Conflict, result: int, pool: tuple[Die, ...]) -> Step:
    standings = (*c.standings, Standing(c.roller, result, pool))
    queue = c.queue[1:]
    if queue:
        c = start_building(c, queue[0], queue=queue, standings=standings)
        return Step(replace(table, conflict=c), ())
    by_name = {s.character: s for s in standings}
    first, second, meddler = by_name[c.actor], by_name[c.reactor], by_name[c.interferer]
    winner, loser = (first, second) if first.result >= second.result else (second, first)
    pending = [Infliction(winner.character, loser.character, winner.pool)]
    pending += [
        Infliction(s.character, meddler.character, s.pool)
        for s in (first, second)
        if s.result > meddler.result
    ]
    c = replace(
        c,
        phase=Phase.INFLICTING,
        roll=None,
        queue=(),
        standings=standings,
        pending=tuple(pending),
        roller=pending[0].inflicter,
        actor=winner.character,
        reactor=loser.character,
        margin=winner.result - loser.result,
    )
    return Step(
        replace(table, conflict=c), (a.ActorWon(winner.character, loser.character, c.margin),)
    )


def interfere(table: Table, user: int, action: a.Interfere, rng: Rng) -> Step:
    c = active(table, Phase.BUILDING)
    if c.kind is not Kind.CONTEST or c.to_beat is None or c.queue:
        raise NotAllowedNow("You can interfere once a Contest has an Action to beat.")
    if c.interferer:
        raise NotAllowedNow("Someone has already interfered in this Contest.")
    if not same_name(c.roller, c.reactor) or c.draft.picks != c.draft.carried or c.aid:
        raise NotAllowedNow("Interfere right after a roll, before the answer is built.")
    meddler = table.sheet(action.interferer)
    require_controller(table, user, meddler.name)
    if any(same_name(meddler.name, n) for n in c.contestants):
        raise NotAllowedNow("Contestants cannot interfere in their own Contest.")
    require_ready(meddler)
    payer = meddler.name if meddler.is_lead else a.WATCHTOWER
    table, events = pay(table, payer, a.WATCHTOWER, 1, "interfere")
    c = start_building(c, meddler.name, interferer=meddler.name)
    return Step(replace(table, conflict=c), events)


def vote(table: Table, user: int, action: a.Vote, rng: Rng) -> Step:
    c = active(table, Phase.STOPPED)
    voter = table.sheet(action.character)
    if not any(same_name(voter.name, n) for n in c.contestants):
        raise NotAllowedNow("Only the contestants decide whether to go on.")
    require_controller(table, user, voter.name)
    if any(same_name(voter.name, v) for v in c.votes):
        raise NotAllowedNow("{name} has already decided.", name=voter.name)
    if not action.keep_going:
        table, event = finish(table, c, Ending.STOPPED, "", "")
        return Step(table, (event,))
    if voter.is_lead and voter.plot_points < 1:
        raise NotAllowedNow(
            "{name} needs a Plot Point for the interferer to go on.", name=voter.name
        )
    votes = (*c.votes, voter.name)
    if len(votes) < len(c.contestants):
        return Step(replace(table, conflict=replace(c, votes=votes)), ())
    events: list[a.Event] = []
    for name in c.contestants:
        payer = name if table.sheet(name).is_lead else a.WATCHTOWER
        payee = c.interferer if table.sheet(c.interferer).is_lead else a.WATCHTOWER
        if payer or payee:
            table, paid = pay(table, payer, payee, 1, "keep going")
            events += paid
    order = (c.actor, c.reactor, c.interferer)
    c = start_building(c, order[0], votes=votes, queue=order, standings=())
    events.append(a.ContestResumed(order))
    return Step(replace(table, conflict=c), tuple(events))
