"""The legal choices of an Action Roll's dice steps, for the edges to label.

:func:`~core.rules.nsu.action_roll.expected` says which kinds of action are open
and to whom; this module spells out the choices inside the steps where the dice
are already on the table: which face of a pool to keep (and who picks it), and
whether the roller keeps their own mood die or takes a helper's.

Invariants: every choice names who may take it; a pool with advantage is picked
by its owner, one with disadvantage by the Arbiters (the choice's ``who`` is then
""); when the roll is better for the player the higher face is the better one
(:data:`HIGHER_IS_BETTER`).
"""

from __future__ import annotations

from enum import Enum

from core.rules.choice import Choice
from core.rules.nsu.action_roll import ActionKind, Pool, PoolKind, RollState, expected
from core.rules.nsu.roll_panel import RollPanel
from core.rules.nsu.terms import Edge

HIGHER_IS_BETTER = True
"""A higher kept face is always better for the player who rolls."""

OWN_DIE = "none"
"""The argument of "keep my own mood die"."""


def pools(state: RollState) -> tuple[Pool, ...]:
    """The roll's pools in the order the panel shows them: aspect, mood, helpers'."""
    own = tuple(p for p in (state.aspect_pool, state.mood_pool) if p is not None)
    return own + tuple(h.pool for h in state.helps)


def pool_argument(pool: Pool) -> str:
    """How a keep-die choice names its pool (``aspect``, ``mood`` or ``help.<player>``)."""
    return f"help.{pool.owner}" if pool.kind is PoolKind.HELP else pool.kind.value


def keep_choices(state: RollState) -> tuple[Choice[ActionKind], ...]:
    """One choice per face of every pool still to be picked, with who picks it.

    ``who`` is the picking character's name, or "" when the Arbiters pick;
    ``name`` is the pool's kind (``aspect``, ``mood`` or ``help``); ``die`` the face.
    """
    if not any(e.kind is ActionKind.KEEP_DIE for e in expected(state)):
        return ()
    found: list[Choice[ActionKind]] = []
    for pool in pools(state):
        if pool.kept is not None or pool.edge is Edge.NONE:
            continue
        if pool.edge is Edge.ADVANTAGE:
            by, who = frozenset({pool.owner}), state.character(pool.owner).name
        else:
            by, who = state.arbiters, ""
        what = "help" if pool.kind is PoolKind.HELP else pool.kind.value
        found += [
            Choice(
                ActionKind.KEEP_DIE,
                f"{pool_argument(pool)}.{i + 1}",
                by=by,
                who=who,
                name=what,
                die=face,
            )
            for i, face in enumerate(pool.faces)
        ]
    return tuple(found)


def helper_die_choices(state: RollState) -> tuple[Choice[ActionKind], ...]:
    """The roller's choice between their own mood die and each helper's kept die.

    ``who`` is the character whose die it is; ``die`` its face (0 if not rolled).
    """
    if not any(e.kind is ActionKind.TAKE_HELPER_DIE for e in expected(state)):
        return ()
    me = frozenset({state.roller})
    own = state.mood_pool.face if state.mood_pool is not None else None
    found = [
        Choice(
            ActionKind.TAKE_HELPER_DIE,
            OWN_DIE,
            by=me,
            who=state.sheet.name,
            die=own or 0,
        )
    ]
    found += [
        Choice(
            ActionKind.TAKE_HELPER_DIE,
            str(h.helper),
            by=me,
            who=state.character(h.helper).name,
            die=h.pool.face or 0,
        )
        for h in state.helps
    ]
    return tuple(found)


def help_may_come(state: RollState) -> bool:
    """Whether an ally on screen may still help before the roller settles."""
    return any(e.kind is ActionKind.HELP for e in expected(state))


class AfterRoll(Enum):
    """What may be done once the roll is settled: add a granted detail, or skip it."""

    ADD_DETAIL = "text"
    SKIP_DETAIL = "skip"


def roll_choices(state: RollState) -> tuple[Choice[ActionKind], ...]:
    """Every step open now, with who may take it (the dice steps spelled out per die)."""
    found: list[Choice[ActionKind]] = []
    for e in expected(state):
        if e.kind is ActionKind.KEEP_DIE:
            found += keep_choices(state)
        elif e.kind is ActionKind.TAKE_HELPER_DIE:
            found += helper_die_choices(state)
        else:
            found.append(Choice(e.kind, by=e.players))
    return tuple(found)


def detail_choices(panel: RollPanel) -> tuple[Choice[AfterRoll], ...]:
    """Each open grant of a settled roll: its adders add it by reply or skip it."""
    outcome = panel.roll.outcome
    if outcome is None:
        return ()
    found: list[Choice[AfterRoll]] = []
    for index in panel.open_grants:
        adders = frozenset(outcome.grants[index].adders)
        found.append(Choice(AfterRoll.ADD_DETAIL, by=adders, count=index + 1))
        found.append(Choice(AfterRoll.SKIP_DETAIL, str(index), by=adders, count=index + 1))
    return tuple(found)
