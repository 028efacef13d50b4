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
from dataclasses import replace
from typing import Any

from core.rules.cortex import actions as a
from core.rules.cortex import aftermath, interference, scene
from core.rules.cortex.dice import MAX_POOL, Die, result_of, roll_pool
from core.rules.cortex.pool import (
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
    Kind,
    Phase,
    Roll,
    Table,
)
from core.rules.cortex.stress import (
    relieve,
    stress_opposition,
    stress_pool,
)
from core.rules.cortex.traits import MAX_NAME, Sheet, same_name, stress_term
from core.rules.cortex.turns import (
    Step,
    active,
    finish,
    opponent_of,
    pay,
    pay_for_roll,
    require_controller,
    require_ready,
    require_watchtower,
    start_building,
)
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.rng import Rng

MAX_OPPOSITION = 12


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
        raise NotYourTurn(
            "Only {name}'s player or the Watchtower can call that Test.", name=actor.name
        )
    require_ready(actor)
    c = Conflict(Kind.TEST, Phase.OPPOSITION, actor=actor.name, roller=actor.name)
    return Step(_fresh(table, c), (a.ConflictStarted(Kind.TEST, actor.name, ""),))


def _start_contest(table: Table, user: int, action: a.StartContest, rng: Rng) -> Step:
    _no_conflict(table)
    actor, reactor = table.sheet(action.actor), table.sheet(action.reactor)
    if same_name(actor.name, reactor.name):
        raise NotAllowedNow("A Contest needs two different characters.")
    require_controller(table, user, actor.name)
    require_ready(actor)
    require_ready(reactor)
    c = Conflict(
        Kind.CONTEST, Phase.BUILDING, actor=actor.name, roller=actor.name, reactor=reactor.name
    )
    return Step(_fresh(table, c), (a.ConflictStarted(Kind.CONTEST, actor.name, reactor.name),))


def _start_relief(table: Table, user: int, action: a.StartRelief, rng: Rng) -> Step:
    _no_conflict(table)
    reliever, friend = table.sheet(action.reliever), table.sheet(action.friend)
    if same_name(reliever.name, friend.name):
        raise NotAllowedNow("Only another character can relieve your Stress.")
    require_controller(table, user, reliever.name)
    require_ready(reliever)
    stress_type = table.settings.stress_type(action.stress_type)
    if friend.stress_of(stress_type) is None:
        raise NotAllowedNow(
            "{name} has no {stress} Stress.", name=friend.name, stress=stress_term(stress_type)
        )
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
    c = active(table, Phase.OPPOSITION)
    if c.kind is not Kind.TEST:
        raise NotAllowedNow("Opposition dice are for Tests.")
    require_watchtower(table, user)
    if not 1 <= len(action.dice) <= MAX_OPPOSITION:
        raise Malformed("Opposition takes 1 to {most} dice.", most=MAX_OPPOSITION)
    dice = tuple(Die.parse(d) for d in action.dice)
    rolled = roll_pool(((d, "opposition") for d in dice), rng)
    result = result_of(r.face for r in rolled)
    ones = tuple(Complication(a.WATCHTOWER, r.die) for r in rolled if r.is_dud)
    c = start_building(c, c.actor, to_beat=result, opposition=rolled)
    table = replace(table, conflict=c, watchtower_ones=table.watchtower_ones + ones)
    return Step(table, (a.OppositionRolled(rolled, result),))


def _roll_stress_opposition(
    table: Table, user: int, action: a.RollStressOpposition, rng: Rng
) -> Step:
    c = active(table, Phase.OPPOSITION)
    if c.kind is not Kind.RELIEF:
        raise NotAllowedNow("Only Stress Relief has the friend roll their Stress.")
    require_controller(table, user, c.reactor)
    dice = stress_opposition(table.sheet(c.reactor))
    rolled = roll_pool(((d, "stress") for d in dice), rng)
    result = result_of(r.face for r in rolled)
    c = start_building(c, c.actor, to_beat=result, opposition=rolled)
    return Step(replace(table, conflict=c), (a.OppositionRolled(rolled, result),))


# --- building --------------------------------------------------------------


def _builder(table: Table, user: int) -> Conflict:
    c = active(table, Phase.BUILDING)
    require_controller(table, user, c.roller)
    return c


def _add_to_pool(table: Table, user: int, action: a.AddToPool, rng: Rng) -> Step:
    c = _builder(table, user)
    own = table.sheet(c.roller)
    check_pick(c.draft, action.pick, own, opponent_of(table, c, c.roller), table.details)
    draft = replace(c.draft, picks=(*c.draft.picks, action.pick))
    return Step(replace(table, conflict=replace(c, draft=draft)), ())


def _remove_from_pool(table: Table, user: int, action: a.RemoveFromPool, rng: Rng) -> Step:
    c = _builder(table, user)
    if not c.draft.has(action.pick):
        raise NotAllowedNow("“{name}” is not in the pool.", name=action.pick.name)
    return Step(replace(table, conflict=replace(c, draft=c.draft.without(action.pick))), ())


def _create_detail(table: Table, user: int, action: a.CreateDetail, rng: Rng) -> Step:
    c = _builder(table, user)
    name = action.name.strip()
    if not name or len(name) > MAX_NAME:
        raise Malformed("Name the Useful Detail (up to 60 characters).")
    own = table.sheet(c.roller)
    if any(same_name(d.owner, own.name) and same_name(d.name, name) for d in table.details):
        raise NotAllowedNow(
            "“{name}” already exists this scene; add it to the pool for free.", name=name
        )
    pick = Pick(PickKind.DETAIL, name)
    if len(c.draft.picks) >= MAX_POOL:
        raise NotAllowedNow("That pool is as big as it gets.")
    trouble = table.trouble
    events: tuple[a.Event, ...]
    if own.is_lead:
        if action.from_trouble is not None:
            raise NotAllowedNow("Only the Watchtower can turn a Trouble die into a detail.")
        die = Die.D6
        table, events = pay(table, own.name, a.WATCHTOWER, 1, "useful detail")
    else:
        die = Die.D6 if action.from_trouble is None else Die.parse(action.from_trouble)
        if action.from_trouble is not None:
            if die not in trouble:
                raise NotAllowedNow("There is no {die} in Trouble.", die=die.label)
            rest = list(trouble)
            rest.remove(die)
            trouble = tuple(rest)
        opponent = opponent_of(table, c, own.name)
        events = ()
        if opponent is not None and opponent.is_lead:
            table, events = pay(table, a.WATCHTOWER, opponent.name, 1, "useful detail")
    detail = UsefulDetail(own.name, name, die)
    c = replace(c, draft=replace(c.draft, picks=(*c.draft.picks, pick)))
    table = replace(table, conflict=c, details=(*table.details, detail), trouble=trouble)
    created = a.DetailCreated(own.name, name, die, action.from_trouble is not None)
    return Step(table, (*events, created))


def _offer_aid(table: Table, user: int, action: a.OfferAid, rng: Rng) -> Step:
    c = active(table, Phase.BUILDING)
    helper = table.sheet(action.helper)
    require_controller(table, user, helper.name)
    if any(same_name(helper.name, n) for n in (*c.names(), *c.contestants)):
        raise NotAllowedNow("{name} is part of this roll and cannot give Aid.", name=helper.name)
    require_ready(helper)
    if any(same_name(x.helper, helper.name) and x.kind is not AidKind.RESOURCE for x in c.aid):
        raise NotAllowedNow("{name} is already giving Aid.", name=helper.name)
    aid_dice(action.picks, helper, table.details)
    kind = AidKind.LEAD if helper.is_lead else AidKind.FEATURE
    aid = Aid(helper.name, kind, picks=tuple(action.picks))
    return Step(replace(table, conflict=replace(c, aid=(*c.aid, aid))), ())


def _use_resource(table: Table, user: int, action: a.UseResource, rng: Rng) -> Step:
    c = _builder(table, user)
    own = table.sheet(c.roller)
    resource = own.resource(action.name)
    if resource.used_up:
        raise NotAllowedNow("{name} is used up.", name=resource.name)
    if any(x.kind is AidKind.RESOURCE and same_name(x.resource, resource.name) for x in c.aid):
        raise NotAllowedNow("{name} is already helping this roll.", name=resource.name)
    aid = Aid(own.name, AidKind.RESOURCE, resource=resource.name, use_up=action.use_up)
    return Step(replace(table, conflict=replace(c, aid=(*c.aid, aid))), ())


def _check_nothing_spent_twice(c: Conflict, own: Sheet) -> None:
    """A value is challenged only once, and a used-up resource cannot help."""
    for pick in c.draft.new_challenges():
        if own.value(pick.name).challenged:
            raise NotAllowedNow(
                "{name} has already challenged “{value}”.", name=own.name, value=pick.name
            )
    for x in c.aid:
        if x.kind is AidKind.RESOURCE and own.resource(x.resource).used_up:
            raise NotAllowedNow("{name} is used up.", name=x.resource)


def _roll_pool(table: Table, user: int, action: a.RollPool, rng: Rng) -> Step:
    c = _builder(table, user)
    own = table.sheet(c.roller)
    opponent = opponent_of(table, c, own.name)
    dice = draft_dice(c.draft, own, opponent, table.details)
    if not dice:
        raise NotAllowedNow("Put at least one trait in the pool first.")
    _check_nothing_spent_twice(c, own)
    events: list[a.Event] = []
    table, paid = pay_for_roll(table, c, own.name, c.draft.cost(), "extra traits")
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
    c = active(table, Phase.PICKING)
    require_controller(table, user, c.roller)
    assert c.roll is not None
    if not c.roll.can_include_more:
        raise NotAllowedNow("Every die that didn't roll 1 is already in the Result.")
    table, events = pay_for_roll(table, c, c.roller, 1, "include a die")
    roll = replace(c.roll, keep=c.roll.keep + 1)
    table = replace(table, conflict=replace(c, roll=roll))
    return Step(table, (*events, a.DieIncluded(c.roller, roll.result)))


def _settle_relief(table: Table, c: Conflict, result: int) -> Step:
    """Beating the friend's stress relieves it; else it stays."""
    assert c.to_beat is not None
    relieved = result > c.to_beat
    c = replace(c, margin=result - c.to_beat)
    if relieved:
        friend = table.sheet(c.reactor)
        growth = friend.stress_of(c.relief_type)
        assert growth is not None
        table = table.with_sheet(relieve(friend, c.relief_type))
        table, event = finish(table, c, Ending.RELIEVED, c.actor, "")
        return Step(table, (a.Relieved(friend.name, c.relief_type, growth), event))
    table, event = finish(table, c, Ending.NOT_RELIEVED, "", c.actor)
    return Step(table, (event,))


def _settle(table: Table, user: int, action: a.Settle, rng: Rng) -> Step:
    c = active(table, Phase.PICKING)
    require_controller(table, user, c.roller)
    assert c.roll is not None
    result = c.roll.result
    pool = stress_pool(c.roll.dice)
    if c.queue:
        return interference.settle_three_way(table, c, result, pool)
    if same_name(c.roller, c.interferer) and c.kind is Kind.CONTEST:
        return interference.settle_interference(table, c, result)
    if c.kind is Kind.TEST:
        assert c.to_beat is not None
        won = result > c.to_beat
        c = replace(c, margin=result - c.to_beat)
        ending = Ending.SUCCESS if won else Ending.FAILURE
        table, event = finish(table, c, ending, c.actor if won else "", "" if won else c.actor)
        return Step(table, (event,))
    if c.kind is Kind.RELIEF:
        return _settle_relief(table, c, result)
    # Contest
    if c.to_beat is None:
        c = start_building(c, c.reactor, to_beat=result, stress_pool=pool)
        return Step(replace(table, conflict=c), (a.ActionSet(c.actor, result, False),))
    action_to_beat = c.to_beat
    if result > action_to_beat:
        new_actor, new_reactor = c.reactor, c.actor
        c = replace(c, actor=new_actor, reactor=new_reactor)
        c = start_building(c, new_reactor, to_beat=result, stress_pool=pool)
        return Step(replace(table, conflict=c), (a.ActionSet(new_actor, result, True),))
    margin = action_to_beat - result
    c = replace(c, phase=Phase.YIELDING, margin=margin, roll=None)
    return Step(replace(table, conflict=c), (a.ActorWon(c.actor, c.reactor, margin),))


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
    a.GiveIn: aftermath.give_in,
    a.TakeStress: aftermath.take_stress,
    a.InflictStress: aftermath.inflict_stress,
    a.DeclareStressedOut: aftermath.declare_stressed_out,
    a.ActivateComplication: scene.activate_complication,
    a.CancelTrouble: scene.cancel_trouble,
    a.Interfere: interference.interfere,
    a.Vote: interference.vote,
    a.EndScene: scene.end_scene,
    a.EndEpisode: scene.end_scene,
}
