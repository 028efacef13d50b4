"""The Test / Contest / Stress Relief state machine: ``apply(table, user, action, rng)``.

Turn order (who may act; anybody else gets :class:`NotYourTurn`, a wrong
moment gets :class:`NotAllowedNow`):

* Test: the Watchtower sets opposition dice -> the actor builds (adds traits,
  buys Useful Details, takes Aid), rolls, includes more dice, settles. Success
  needs a Result above the opposition.
* Contest: the actor builds, rolls, settles: that Result is the Action. The
  reactor builds (their last pool is reused), may Give In instead, rolls,
  settles. Beating the Action swaps roles; otherwise (ties included) the
  reactor Gives In or takes Stress, and the actor inflicts it (or declares
  them Stressed Out after winning by 5 or more). Plot Points a contestant
  spends on extras or included dice go to the other contestant.
* Interfering: after an Action is set, someone outside pays the Watchtower a
  Plot Point and rolls. Beating the Action stops the Contest; it resumes only
  if both contestants vote to go on, each paying the interferer a Plot Point,
  then all three roll and Stress follows from the standings.
* Relief: the friend rolls all their Stress; the reliever must beat it.
* Any time: the Watchtower activates a Lead's 1 (paying a Plot Point, the
  die joins Trouble); a player uses a Watchtower 1 to remove a Trouble die of
  the same size or smaller.

Invariants: a refused action raises before anything is built, so the old
table stands; a Lead's Plot Points never go below zero; the Watchtower's
supply is endless.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from core.rules.cortex import actions as a
from core.rules.cortex.dice import MAX_POOL, Die, result_of, roll_pool
from core.rules.cortex.pool import (
    Draft,
    Pick,
    PickKind,
    UsefulDetail,
    aid_dice,
    check_pick,
    draft_dice,
)
from core.rules.cortex.state import (
    Aid,
    AidKind,
    AidRoll,
    Complication,
    Conflict,
    Ending,
    Infliction,
    Kind,
    Phase,
    Roll,
    Standing,
    Table,
)
from core.rules.cortex.stress import (
    adjust_pool,
    end_of_episode,
    inflict,
    relieve,
    roll_stress,
    stress_opposition,
    stress_pool,
)
from core.rules.cortex.traits import MAX_NAME, Sheet, same_name
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.rng import Rng

STRESSED_OUT_MARGIN = 5
MAX_OPPOSITION = 12


@dataclass(frozen=True)
class Step:
    """The table after an action, and what happened."""

    table: Table
    events: tuple[a.Event, ...]


def apply(table: Table, user: int, action: a.Action, rng: Rng) -> Step:
    """Apply one action by ``user``.

    Raises:
        Malformed: the action can never be valid as written.
        NotYourTurn: someone else has to do this now.
        NotAllowedNow: not possible at this point of the game.
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise Malformed("That is not a Cortex action.")
    return handler(table, user, action, rng)


def acting_users(table: Table) -> frozenset[int]:
    """Users the conflict is waiting for (empty when no conflict is running)."""
    c = table.conflict
    if c is None or c.phase is Phase.DONE:
        return frozenset()
    if c.phase is Phase.OPPOSITION:
        who = table.watchtower if c.kind is Kind.TEST else table.controller(c.reactor)
        return frozenset({who})
    if c.phase is Phase.YIELDING:
        return frozenset({table.controller(c.reactor)})
    if c.phase is Phase.INFLICTING:
        return frozenset({table.controller(c.pending[0].inflicter)})
    if c.phase is Phase.STOPPED:
        return frozenset(
            table.controller(n) for n in c.contestants if not any(same_name(n, v) for v in c.votes)
        )
    return frozenset({table.controller(c.roller)})


# --- helpers ---------------------------------------------------------------


def _active(table: Table, *phases: Phase) -> Conflict:
    c = table.conflict
    if c is None or c.phase is Phase.DONE:
        raise NotAllowedNow("No roll is under way. Start a Test or a Contest first.")
    if phases and c.phase not in phases:
        raise NotAllowedNow("That can't be done at this point of the roll.")
    return c


def _must_be(table: Table, user: int, character: str) -> None:
    if table.controller(character) != user:
        raise NotYourTurn(f"It's up to {character} now.")


def _must_be_watchtower(table: Table, user: int) -> None:
    if user != table.watchtower:
        raise NotYourTurn("Only the Watchtower can do that.")


def _ready(sheet: Sheet) -> None:
    if sheet.stressed_out:
        raise NotAllowedNow(f"{sheet.name} is Stressed Out for the rest of the scene.")


def _opponent(table: Table, c: Conflict, character: str) -> Sheet | None:
    """The other contestant in a Contest (none for an interferer, a Test or Relief)."""
    if c.kind is not Kind.CONTEST:
        return None
    if same_name(character, c.actor):
        return table.sheet(c.reactor)
    if same_name(character, c.reactor):
        return table.sheet(c.actor)
    return None


def _pay(
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


def _pay_for_roll(
    table: Table, c: Conflict, roller: str, amount: int, reason: str
) -> tuple[Table, tuple[a.Event, ...]]:
    """A roller pays; in a Contest the other contestant gets the Plot Points."""
    sheet = table.sheet(roller)
    opponent = _opponent(table, c, roller)
    payee = opponent.name if opponent is not None and opponent.is_lead else a.WATCHTOWER
    payer = sheet.name if sheet.is_lead else a.WATCHTOWER
    if not payer and not payee:
        return table, ()
    return _pay(table, payer, payee, amount, reason)


def _start_building(c: Conflict, roller: str, **changes: Any) -> Conflict:
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


def _finish(
    table: Table, c: Conflict, ending: Ending, winner: str, loser: str
) -> tuple[Table, a.Event]:
    done = replace(c, phase=Phase.DONE, ending=ending, winner=winner, pending=(), queue=())
    event = a.ConflictEnded(c.kind, ending, winner, loser, c.margin)
    return replace(table, conflict=done), event


# --- starting --------------------------------------------------------------


def _no_conflict(table: Table) -> None:
    if table.conflict is not None and table.conflict.phase is not Phase.DONE:
        raise NotAllowedNow("Finish the current roll first.")


def _fresh(table: Table, conflict: Conflict) -> Table:
    return replace(table, conflict=conflict, complications=(), watchtower_ones=())


def _start_test(table: Table, user: int, action: a.StartTest, rng: Rng) -> Step:
    _no_conflict(table)
    actor = table.sheet(action.actor)
    if user not in (table.watchtower, table.controller(actor.name)):
        raise NotYourTurn(f"Only {actor.name}'s player or the Watchtower can call that Test.")
    _ready(actor)
    c = Conflict(Kind.TEST, Phase.OPPOSITION, actor=actor.name, roller=actor.name)
    return Step(_fresh(table, c), (a.ConflictStarted(Kind.TEST, actor.name, ""),))


def _start_contest(table: Table, user: int, action: a.StartContest, rng: Rng) -> Step:
    _no_conflict(table)
    actor, reactor = table.sheet(action.actor), table.sheet(action.reactor)
    if same_name(actor.name, reactor.name):
        raise NotAllowedNow("A Contest needs two different characters.")
    _must_be(table, user, actor.name)
    _ready(actor)
    _ready(reactor)
    c = Conflict(
        Kind.CONTEST, Phase.BUILDING, actor=actor.name, roller=actor.name, reactor=reactor.name
    )
    return Step(_fresh(table, c), (a.ConflictStarted(Kind.CONTEST, actor.name, reactor.name),))


def _start_relief(table: Table, user: int, action: a.StartRelief, rng: Rng) -> Step:
    _no_conflict(table)
    reliever, friend = table.sheet(action.reliever), table.sheet(action.friend)
    if same_name(reliever.name, friend.name):
        raise NotAllowedNow("Only another character can relieve your Stress.")
    _must_be(table, user, reliever.name)
    _ready(reliever)
    stress_type = table.settings.stress_type(action.stress_type)
    if friend.stress_of(stress_type) is None:
        raise NotAllowedNow(f"{friend.name} has no {stress_type} Stress.")
    c = Conflict(
        Kind.RELIEF,
        Phase.OPPOSITION,
        actor=reliever.name,
        roller=reliever.name,
        reactor=friend.name,
        relief_type=stress_type,
    )
    return Step(_fresh(table, c), (a.ConflictStarted(Kind.RELIEF, reliever.name, friend.name),))


# --- opposition ------------------------------------------------------------


def _set_opposition(table: Table, user: int, action: a.SetOpposition, rng: Rng) -> Step:
    c = _active(table, Phase.OPPOSITION)
    if c.kind is not Kind.TEST:
        raise NotAllowedNow("Opposition dice are for Tests.")
    _must_be_watchtower(table, user)
    if not 1 <= len(action.dice) <= MAX_OPPOSITION:
        raise Malformed(f"Opposition takes 1 to {MAX_OPPOSITION} dice.")
    dice = tuple(Die.parse(d) for d in action.dice)
    rolled = roll_pool(((d, "opposition") for d in dice), rng)
    result = result_of(r.face for r in rolled)
    ones = tuple(Complication(a.WATCHTOWER, r.die) for r in rolled if r.is_dud)
    c = _start_building(c, c.actor, to_beat=result, opposition=rolled)
    table = replace(table, conflict=c, watchtower_ones=table.watchtower_ones + ones)
    return Step(table, (a.OppositionRolled(rolled, result),))


def _roll_stress_opposition(
    table: Table, user: int, action: a.RollStressOpposition, rng: Rng
) -> Step:
    c = _active(table, Phase.OPPOSITION)
    if c.kind is not Kind.RELIEF:
        raise NotAllowedNow("Only Stress Relief has the friend roll their Stress.")
    _must_be(table, user, c.reactor)
    dice = stress_opposition(table.sheet(c.reactor))
    rolled = roll_pool(((d, "stress") for d in dice), rng)
    result = result_of(r.face for r in rolled)
    c = _start_building(c, c.actor, to_beat=result, opposition=rolled)
    return Step(replace(table, conflict=c), (a.OppositionRolled(rolled, result),))


# --- building --------------------------------------------------------------


def _builder(table: Table, user: int) -> Conflict:
    c = _active(table, Phase.BUILDING)
    _must_be(table, user, c.roller)
    return c


def _add_to_pool(table: Table, user: int, action: a.AddToPool, rng: Rng) -> Step:
    c = _builder(table, user)
    own = table.sheet(c.roller)
    check_pick(c.draft, action.pick, own, _opponent(table, c, c.roller), table.details)
    draft = replace(c.draft, picks=(*c.draft.picks, action.pick))
    return Step(replace(table, conflict=replace(c, draft=draft)), ())


def _remove_from_pool(table: Table, user: int, action: a.RemoveFromPool, rng: Rng) -> Step:
    c = _builder(table, user)
    if not c.draft.has(action.pick):
        raise NotAllowedNow(f"“{action.pick.name}” is not in the pool.")
    return Step(replace(table, conflict=replace(c, draft=c.draft.without(action.pick))), ())


def _create_detail(table: Table, user: int, action: a.CreateDetail, rng: Rng) -> Step:
    c = _builder(table, user)
    name = action.name.strip()
    if not name or len(name) > MAX_NAME:
        raise Malformed("Name the Useful Detail (up to 60 characters).")
    own = table.sheet(c.roller)
    if any(same_name(d.owner, own.name) and same_name(d.name, name) for d in table.details):
        raise NotAllowedNow(f"“{name}” already exists this scene; add it to the pool for free.")
    pick = Pick(PickKind.DETAIL, name)
    if len(c.draft.picks) >= MAX_POOL:
        raise NotAllowedNow("That pool is as big as it gets.")
    trouble = table.trouble
    events: tuple[a.Event, ...]
    if own.is_lead:
        if action.from_trouble is not None:
            raise NotAllowedNow("Only the Watchtower can turn a Trouble die into a detail.")
        die = Die.D6
        table, events = _pay(table, own.name, a.WATCHTOWER, 1, "useful detail")
    else:
        die = Die.D6 if action.from_trouble is None else Die.parse(action.from_trouble)
        if action.from_trouble is not None:
            if die not in trouble:
                raise NotAllowedNow(f"There is no {die.label} in Trouble.")
            rest = list(trouble)
            rest.remove(die)
            trouble = tuple(rest)
        opponent = _opponent(table, c, own.name)
        events = ()
        if opponent is not None and opponent.is_lead:
            table, events = _pay(table, a.WATCHTOWER, opponent.name, 1, "useful detail")
    detail = UsefulDetail(own.name, name, die)
    c = replace(c, draft=replace(c.draft, picks=(*c.draft.picks, pick)))
    table = replace(table, conflict=c, details=(*table.details, detail), trouble=trouble)
    created = a.DetailCreated(own.name, name, die, action.from_trouble is not None)
    return Step(table, (*events, created))


def _offer_aid(table: Table, user: int, action: a.OfferAid, rng: Rng) -> Step:
    c = _active(table, Phase.BUILDING)
    helper = table.sheet(action.helper)
    _must_be(table, user, helper.name)
    if any(same_name(helper.name, n) for n in (*c.names(), *c.contestants)):
        raise NotAllowedNow(f"{helper.name} is part of this roll and cannot give Aid.")
    _ready(helper)
    if any(same_name(x.helper, helper.name) and x.kind is not AidKind.RESOURCE for x in c.aid):
        raise NotAllowedNow(f"{helper.name} is already giving Aid.")
    aid_dice(action.picks, helper, table.details)
    kind = AidKind.LEAD if helper.is_lead else AidKind.FEATURE
    aid = Aid(helper.name, kind, picks=tuple(action.picks))
    return Step(replace(table, conflict=replace(c, aid=(*c.aid, aid))), ())


def _use_resource(table: Table, user: int, action: a.UseResource, rng: Rng) -> Step:
    c = _builder(table, user)
    own = table.sheet(c.roller)
    resource = own.resource(action.name)
    if resource.used_up:
        raise NotAllowedNow(f"{resource.name} is used up.")
    if any(x.kind is AidKind.RESOURCE and same_name(x.resource, resource.name) for x in c.aid):
        raise NotAllowedNow(f"{resource.name} is already helping this roll.")
    aid = Aid(own.name, AidKind.RESOURCE, resource=resource.name, use_up=action.use_up)
    return Step(replace(table, conflict=replace(c, aid=(*c.aid, aid))), ())


def _roll_pool(table: Table, user: int, action: a.RollPool, rng: Rng) -> Step:
    c = _builder(table, user)
    own = table.sheet(c.roller)
    opponent = _opponent(table, c, own.name)
    dice = draft_dice(c.draft, own, opponent, table.details)
    if not dice:
        raise NotAllowedNow("Put at least one trait in the pool first.")
    for pick in c.draft.new_challenges():
        if own.value(pick.name).challenged:
            raise NotAllowedNow(f"{own.name} has already challenged “{pick.name}”.")
    resources = [x for x in c.aid if x.kind is AidKind.RESOURCE]
    for x in resources:
        if own.resource(x.resource).used_up:
            raise NotAllowedNow(f"{x.resource} is used up.")
    events: list[a.Event] = []
    table, paid = _pay_for_roll(table, c, own.name, c.draft.cost(), "extra traits")
    events += paid
    for pick in c.draft.new_challenges():
        sheet = table.sheet(own.name)
        table = table.with_sheet(sheet.with_value_challenged(pick.name))
        events.append(a.ValueChallenged(own.name, pick.name, sheet.value(pick.name).die))
    rolled = roll_pool(dice, rng)
    aid_rolls: list[AidRoll] = []
    for x in c.aid:
        if x.kind is AidKind.RESOURCE:
            die = own.resource(x.resource).die
            aid_rolls.append(AidRoll(x, roll_pool(((die, x.resource), (die, x.resource)), rng)))
            if x.use_up:
                table = table.with_sheet(table.sheet(own.name).with_resource_used_up(x.resource))
        else:
            helper_dice = aid_dice(x.picks, table.sheet(x.helper), table.details)
            aid_rolls.append(AidRoll(x, roll_pool(helper_dice, rng)))
    roll = Roll(own.name, rolled, tuple(aid_rolls))
    ones = tuple(Complication(own.name, r.die) for r in rolled if r.is_dud)
    if own.is_lead:
        table = replace(table, complications=table.complications + ones)
    else:
        table = replace(table, watchtower_ones=table.watchtower_ones + ones)
    c = replace(c, phase=Phase.PICKING, roll=roll, memory=c.remember(own.name, c.draft.picks))
    table = replace(table, conflict=c)
    events.append(a.PoolRolled(roll, roll.result, tuple(x.die for x in ones)))
    return Step(table, tuple(events))


# --- picking and settling -------------------------------------------------


def _include_die(table: Table, user: int, action: a.IncludeDie, rng: Rng) -> Step:
    c = _active(table, Phase.PICKING)
    _must_be(table, user, c.roller)
    assert c.roll is not None
    if not c.roll.can_include_more:
        raise NotAllowedNow("Every die that didn't roll 1 is already in the Result.")
    table, events = _pay_for_roll(table, c, c.roller, 1, "include a die")
    roll = replace(c.roll, keep=c.roll.keep + 1)
    table = replace(table, conflict=replace(c, roll=roll))
    return Step(table, (*events, a.DieIncluded(c.roller, roll.result)))


def _settle(table: Table, user: int, action: a.Settle, rng: Rng) -> Step:
    c = _active(table, Phase.PICKING)
    _must_be(table, user, c.roller)
    assert c.roll is not None
    result = c.roll.result
    pool = stress_pool(c.roll.dice)
    if c.queue:
        return _settle_three_way(table, c, result, pool)
    if same_name(c.roller, c.interferer) and c.kind is Kind.CONTEST:
        return _settle_interference(table, c, result)
    if c.kind is Kind.TEST:
        assert c.to_beat is not None
        won = result > c.to_beat
        c = replace(c, margin=result - c.to_beat)
        ending = Ending.SUCCESS if won else Ending.FAILURE
        table, event = _finish(table, c, ending, c.actor if won else "", "" if won else c.actor)
        return Step(table, (event,))
    if c.kind is Kind.RELIEF:
        assert c.to_beat is not None
        relieved = result > c.to_beat
        c = replace(c, margin=result - c.to_beat)
        if relieved:
            friend = table.sheet(c.reactor)
            growth = friend.stress_of(c.relief_type)
            assert growth is not None
            table = table.with_sheet(relieve(friend, c.relief_type))
            table, event = _finish(table, c, Ending.RELIEVED, c.actor, "")
            return Step(table, (a.Relieved(friend.name, c.relief_type, growth), event))
        table, event = _finish(table, c, Ending.NOT_RELIEVED, "", c.actor)
        return Step(table, (event,))
    # Contest
    if c.to_beat is None:
        c = _start_building(c, c.reactor, to_beat=result, stress_pool=pool)
        return Step(replace(table, conflict=c), (a.ActionSet(c.actor, result, False),))
    action_to_beat = c.to_beat
    if result > action_to_beat:
        new_actor, new_reactor = c.reactor, c.actor
        c = replace(c, actor=new_actor, reactor=new_reactor)
        c = _start_building(c, new_reactor, to_beat=result, stress_pool=pool)
        return Step(replace(table, conflict=c), (a.ActionSet(new_actor, result, True),))
    margin = action_to_beat - result
    c = replace(c, phase=Phase.YIELDING, margin=margin, roll=None)
    return Step(replace(table, conflict=c), (a.ActorWon(c.actor, c.reactor, margin),))


def _settle_interference(table: Table, c: Conflict, result: int) -> Step:
    assert c.to_beat is not None
    stopped = result > c.to_beat
    event = a.InterferenceRolled(c.interferer, result, stopped)
    if stopped:
        c = replace(c, phase=Phase.STOPPED, roll=None, votes=())
    else:
        c = _start_building(c, c.reactor)
    return Step(replace(table, conflict=c), (event,))


def _settle_three_way(table: Table, c: Conflict, result: int, pool: tuple[Die, ...]) -> Step:
    standings = (*c.standings, Standing(c.roller, result, pool))
    queue = c.queue[1:]
    if queue:
        c = _start_building(c, queue[0], queue=queue, standings=standings)
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


# --- the end of a Contest --------------------------------------------------


def _give_in(table: Table, user: int, action: a.GiveIn, rng: Rng) -> Step:
    c = _active(table, Phase.BUILDING, Phase.YIELDING)
    if c.kind is not Kind.CONTEST or c.queue or c.to_beat is None:
        raise NotAllowedNow("You can Give In when you are reacting in a Contest.")
    if c.phase is Phase.BUILDING and not same_name(c.roller, c.reactor):
        raise NotAllowedNow("You can Give In when you are reacting in a Contest.")
    _must_be(table, user, c.reactor)
    table, event = _finish(table, c, Ending.GAVE_IN, c.actor, c.reactor)
    return Step(table, (event,))


def _take_stress(table: Table, user: int, action: a.TakeStress, rng: Rng) -> Step:
    c = _active(table, Phase.YIELDING)
    _must_be(table, user, c.reactor)
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
    return _finish(table, c, ending, c.actor, c.reactor)


def _inflict_stress(table: Table, user: int, action: a.InflictStress, rng: Rng) -> Step:
    c = _active(table, Phase.INFLICTING)
    todo = c.pending[0]
    _must_be(table, user, todo.inflicter)
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


def _declare_stressed_out(table: Table, user: int, action: a.DeclareStressedOut, rng: Rng) -> Step:
    c = _active(table, Phase.INFLICTING)
    todo = c.pending[0]
    _must_be(table, user, todo.inflicter)
    if not todo.may_stress_out:
        raise NotAllowedNow(f"Stressed Out needs a win by {STRESSED_OUT_MARGIN} or more.")
    table = table.with_sheet(replace(table.sheet(todo.target), stressed_out=True))
    events: list[a.Event] = [a.StressedOut(todo.target)]
    table, ended = _next_infliction(table, c, Ending.STRESSED_OUT)
    if ended is not None:
        events.append(ended)
    return Step(table, tuple(events))


# --- interfering -----------------------------------------------------------


def _interfere(table: Table, user: int, action: a.Interfere, rng: Rng) -> Step:
    c = _active(table, Phase.BUILDING)
    if c.kind is not Kind.CONTEST or c.to_beat is None or c.queue:
        raise NotAllowedNow("You can interfere once a Contest has an Action to beat.")
    if c.interferer:
        raise NotAllowedNow("Someone has already interfered in this Contest.")
    if not same_name(c.roller, c.reactor) or c.draft.picks != c.draft.carried or c.aid:
        raise NotAllowedNow("Interfere right after a roll, before the answer is built.")
    meddler = table.sheet(action.interferer)
    _must_be(table, user, meddler.name)
    if any(same_name(meddler.name, n) for n in c.contestants):
        raise NotAllowedNow("Contestants cannot interfere in their own Contest.")
    _ready(meddler)
    payer = meddler.name if meddler.is_lead else a.WATCHTOWER
    table, events = _pay(table, payer, a.WATCHTOWER, 1, "interfere")
    c = _start_building(c, meddler.name, interferer=meddler.name)
    return Step(replace(table, conflict=c), events)


def _vote(table: Table, user: int, action: a.Vote, rng: Rng) -> Step:
    c = _active(table, Phase.STOPPED)
    voter = table.sheet(action.character)
    if not any(same_name(voter.name, n) for n in c.contestants):
        raise NotAllowedNow("Only the contestants decide whether to go on.")
    _must_be(table, user, voter.name)
    if any(same_name(voter.name, v) for v in c.votes):
        raise NotAllowedNow(f"{voter.name} has already decided.")
    if not action.keep_going:
        table, event = _finish(table, c, Ending.STOPPED, "", "")
        return Step(table, (event,))
    if voter.is_lead and voter.plot_points < 1:
        raise NotAllowedNow(f"{voter.name} needs a Plot Point for the interferer to go on.")
    votes = (*c.votes, voter.name)
    if len(votes) < len(c.contestants):
        return Step(replace(table, conflict=replace(c, votes=votes)), ())
    events: list[a.Event] = []
    for name in c.contestants:
        payer = name if table.sheet(name).is_lead else a.WATCHTOWER
        payee = c.interferer if table.sheet(c.interferer).is_lead else a.WATCHTOWER
        if payer or payee:
            table, paid = _pay(table, payer, payee, 1, "keep going")
            events += paid
    order = (c.actor, c.reactor, c.interferer)
    c = _start_building(c, order[0], votes=votes, queue=order, standings=())
    events.append(a.ContestResumed(order))
    return Step(replace(table, conflict=c), tuple(events))


# --- Complications and Trouble ---------------------------------------------


def _activate(table: Table, user: int, action: a.ActivateComplication, rng: Rng) -> Step:
    _must_be_watchtower(table, user)
    if not 0 <= action.index < len(table.complications):
        raise NotAllowedNow("There is no such Complication to activate.")
    item = table.complications[action.index]
    rest = table.complications[: action.index] + table.complications[action.index + 1 :]
    table, events = _pay(table, a.WATCHTOWER, item.owner, 1, "complication")
    table = replace(table, complications=rest, trouble=(*table.trouble, item.die))
    return Step(table, (*events, a.ComplicationActivated(item.owner, item.die)))


def _cancel_trouble(table: Table, user: int, action: a.CancelTrouble, rng: Rng) -> Step:
    player = table.lead_of(user)
    if player is None:
        raise NotYourTurn("Only players can use the Watchtower's 1s.")
    if not 0 <= action.one < len(table.watchtower_ones):
        raise NotAllowedNow("There is no such Watchtower 1 to use.")
    if not 0 <= action.trouble < len(table.trouble):
        raise NotAllowedNow("There is no such die in Trouble.")
    one, die = table.watchtower_ones[action.one], table.trouble[action.trouble]
    if die > one.die:
        raise NotAllowedNow(f"A {one.die.label} can only remove a {one.die.label} or smaller.")
    ones = table.watchtower_ones[: action.one] + table.watchtower_ones[action.one + 1 :]
    trouble = table.trouble[: action.trouble] + table.trouble[action.trouble + 1 :]
    table = replace(table, watchtower_ones=ones, trouble=trouble)
    return Step(table, (a.TroubleCancelled(player, one.die, die),))


# --- scenes and episodes -------------------------------------------------


def _end_scene(table: Table, user: int, action: a.EndScene | a.EndEpisode, rng: Rng) -> Step:
    _must_be_watchtower(table, user)
    episode = isinstance(action, a.EndEpisode)
    sheets = tuple(
        end_of_episode(s) if episode else replace(s, stressed_out=False) for s in table.sheets
    )
    table = replace(
        table, sheets=sheets, details=(), complications=(), watchtower_ones=(), conflict=None
    )
    return Step(table, (a.SceneEnded(episode),))


_Handler = Callable[[Table, int, Any, Rng], Step]
_HANDLERS: dict[type, _Handler] = {
    a.StartTest: _start_test,
    a.StartContest: _start_contest,
    a.StartRelief: _start_relief,
    a.SetOpposition: _set_opposition,
    a.RollStressOpposition: _roll_stress_opposition,
    a.AddToPool: _add_to_pool,
    a.RemoveFromPool: _remove_from_pool,
    a.CreateDetail: _create_detail,
    a.OfferAid: _offer_aid,
    a.UseResource: _use_resource,
    a.RollPool: _roll_pool,
    a.IncludeDie: _include_die,
    a.Settle: _settle,
    a.GiveIn: _give_in,
    a.TakeStress: _take_stress,
    a.InflictStress: _inflict_stress,
    a.DeclareStressedOut: _declare_stressed_out,
    a.ActivateComplication: _activate,
    a.CancelTrouble: _cancel_trouble,
    a.Interfere: _interfere,
    a.Vote: _vote,
    a.EndScene: _end_scene,
    a.EndEpisode: _end_scene,
}
