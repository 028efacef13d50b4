"""Which kinds of action each person may take now: the buttons the bot shows.

Invariant (tested with Hypothesis): whenever :func:`core.rules.cortex.contest.apply`
accepts an action from a user, its type is in ``allowed_actions(table, user)``.
The converse need not hold: an allowed kind can still be refused for its
arguments (an unknown trait, too few Plot Points).
"""

from __future__ import annotations

from core.rules.cortex import actions as a
from core.rules.cortex.state import Conflict, Kind, Phase, Table
from core.rules.cortex.traits import same_name

ActionKind = type[a.Action]

_ANY_TIME_WATCHTOWER: frozenset[ActionKind] = frozenset({a.EndScene, a.EndEpisode})
_BUILD: frozenset[ActionKind] = frozenset(
    {a.AddToPool, a.RemoveFromPool, a.CreateDetail, a.UseResource, a.RollPool}
)


def _outsiders(table: Table, c: Conflict) -> list[str]:
    inside = (*c.names(), *c.contestants)
    return [
        s.name
        for s in table.sheets
        if not s.stressed_out and not any(same_name(s.name, n) for n in inside)
    ]


def _usable_trouble(table: Table) -> bool:
    return any(d <= one.die for one in table.watchtower_ones for d in table.trouble)


def allowed_actions(table: Table, user: int) -> frozenset[ActionKind]:
    """The kinds of action ``user`` may try now."""
    kinds: set[ActionKind] = set()
    is_watchtower = user == table.watchtower
    if is_watchtower:
        kinds |= _ANY_TIME_WATCHTOWER
        if table.complications:
            kinds.add(a.ActivateComplication)
    if table.lead_of(user) is not None and _usable_trouble(table):
        kinds.add(a.CancelTrouble)
    c = table.conflict
    if c is None or c.phase is Phase.DONE:
        if is_watchtower or table.lead_of(user) is not None:
            kinds |= {a.StartTest, a.StartContest, a.StartRelief}
        return frozenset(kinds)
    controls = [n for n in (s.name for s in table.sheets) if table.controller(n) == user]

    def runs(name: str) -> bool:
        return any(same_name(name, n) for n in controls)

    if c.phase is Phase.OPPOSITION:
        if c.kind is Kind.TEST and is_watchtower:
            kinds.add(a.SetOpposition)
        if c.kind is Kind.RELIEF and runs(c.reactor):
            kinds.add(a.RollStressOpposition)
    elif c.phase is Phase.BUILDING:
        if runs(c.roller):
            kinds |= _BUILD
        reacting = c.kind is Kind.CONTEST and c.to_beat is not None and not c.queue
        if reacting and same_name(c.roller, c.reactor) and runs(c.reactor):
            kinds.add(a.GiveIn)
        outsiders = [n for n in _outsiders(table, c) if runs(n)]
        if outsiders:
            kinds.add(a.OfferAid)
            fresh = c.draft.picks == c.draft.carried and not c.aid
            if reacting and not c.interferer and same_name(c.roller, c.reactor) and fresh:
                kinds.add(a.Interfere)
    elif c.phase is Phase.PICKING:
        if runs(c.roller):
            kinds.add(a.Settle)
            roller = table.sheet(c.roller)
            affords = not roller.is_lead or roller.plot_points >= 1  # it costs a Plot Point
            if c.roll is not None and c.roll.can_include_more and affords:
                kinds.add(a.IncludeDie)
    elif c.phase is Phase.YIELDING:
        if runs(c.reactor):
            kinds |= {a.GiveIn, a.TakeStress}
    elif c.phase is Phase.INFLICTING:
        todo = c.pending[0]
        if runs(todo.inflicter):
            kinds.add(a.InflictStress)
            if todo.may_stress_out:
                kinds.add(a.DeclareStressedOut)
    elif c.phase is Phase.STOPPED:
        waiting = [n for n in c.contestants if not any(same_name(n, v) for v in c.votes)]
        if any(runs(n) for n in waiting):
            kinds.add(a.Vote)
    return frozenset(kinds)
