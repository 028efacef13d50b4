"""The legal choices of an Action Roll, step by step, for the edges to label.

:func:`~core.rules.nsu.action_roll.expected` says which kinds of action are open
and to whom; :func:`roll_choices` spells each out as the choices a panel offers:
each aspect, each mood line, each skill, each sentiment, each face of a pool
still to be picked, each mood die the roller may take, the skill's sign, and the
steps taken by replying with words (a desired outcome, a new mood or skill, a
stronger mood name). :func:`detail_choices` does the same for a settled roll's
open grants and the location's Collateral Clock.

The choices that decide the result carry it: a keep-a-die choice, a take-a-die
choice and a skill-sign choice say, as a :class:`Forecast`, who wins and by how
much once every other die is known, and the one that is best for the player who
rolls is ``advised``. Which die is better follows the reference sheet's matrix
(:func:`~core.rules.nsu.terms.winner_for`): with the World at risk the player wins
when the Mood die beats the Aspect die, so a lower aspect die and a higher mood
die are better; with the Character at risk it is the other way round.

Invariants: every choice names who may take it; a pool with advantage is picked
by its owner, one with disadvantage by the Arbiters (the choice's ``who`` is then
"", and no face is advised: the Arbiters pick); an advised choice's
:func:`player_score` is the highest of its group's; a forecast is given only when
nothing but later advised choices of the roller stands between the choice and
the result (no ally may still help, every other die is kept).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from core.rules.choice import Choice
from core.rules.nsu.action_roll import (
    ActionKind,
    Phase,
    Pool,
    PoolKind,
    RollState,
    expected,
)
from core.rules.nsu.terms import Aspect, Edge, ResultRow, Risk, Winner, winner_for
from core.rules.nsu.world import CLOCK_SEGMENTS, World


class RollPanel(Protocol):
    """What the choices read of the roll panel's stored state (its rules module reads its
    choices from here, so this module does not import it back)."""

    @property
    def roll(self) -> RollState: ...

    @property
    def card(self) -> str | None: ...

    @property
    def open_grants(self) -> tuple[int, ...]: ...

# the panel's own actions besides the roll's steps: a reply's words, skipping a detail,
# and the Collateral Clock
TEXT = "text"
SKIP = "skip"
TICK = "tick"
UNTICK = "untick"

OWN_DIE = "none"
"""The argument of "keep my own mood die"."""


def pools(state: RollState) -> tuple[Pool, ...]:
    """The roll's pools in the order the panel shows them: aspect, mood, helpers'."""
    own = tuple(p for p in (state.aspect_pool, state.mood_pool) if p is not None)
    return own + tuple(h.pool for h in state.helps)


def pool_argument(pool: Pool) -> str:
    """How a keep-die choice names its pool (``aspect``, ``mood`` or ``help.<player>``)."""
    return f"help.{pool.owner}" if pool.kind is PoolKind.HELP else pool.kind.value


@dataclass(frozen=True)
class Forecast:
    """What a choice leads to: who wins, by how much, and the results row.

    Attributes:
        winner: the side that wins (or a tie).
        difference: the difference of the final dice (0 or more).
        row: the results-table row it falls in.
        aspect_total: the aspect die with the skill added or taken away.
        mood: the mood die that counts (the roller's own or a helper's).
    """

    winner: Winner
    difference: int
    row: ResultRow
    aspect_total: int
    mood: int

    @property
    def score(self) -> int:
        """The difference as the player who rolls sees it: positive when they win."""
        if self.winner is Winner.PLAYER:
            return self.difference
        return -self.difference


def player_score(risk: Risk, aspect_total: int, mood: int) -> int:
    """How good a result is for the player who rolls: their winning margin, negative
    when the Arbiters win (the reference sheet's matrix, :func:`winner_for`)."""
    return aspect_total - mood if risk is Risk.CHARACTER else mood - aspect_total


def forecast(risk: Risk, aspect_total: int, mood: int) -> Forecast:
    """The result of these final dice."""
    difference = abs(aspect_total - mood)
    return Forecast(
        winner_for(risk, aspect_total, mood),
        difference,
        ResultRow.for_difference(difference),
        aspect_total,
        mood,
    )


def _modifier(state: RollState) -> int:
    return 0 if state.skill is None else state.sheet.skills[state.skill].modifier


def _shift(state: RollState, sign: int | None = None) -> int:
    """The skill's shift on the aspect die: as chosen, or the sign better for the player."""
    modifier = _modifier(state)
    if sign is None and state.skill_sign is not None and state.phase is not Phase.SKILL_SIGN:
        sign = state.skill_sign
    if sign is None:
        sign = 1 if state.risk is Risk.CHARACTER else -1
    return sign * modifier


def _best_mood(risk: Risk, aspect_total: int, faces: list[int]) -> int:
    return max(faces, key=lambda face: player_score(risk, aspect_total, face))


def _settled_with(state: RollState, pool: Pool | None, face: int) -> Forecast | None:
    """The result if ``pool`` keeps ``face`` and the roller then chooses as advised;
    None while an ally may still help or another die is still to be picked."""
    if state.risk is None or help_may_come(state):
        return None
    faces: dict[tuple[PoolKind, int], int] = {}
    for other in pools(state):
        key = (other.kind, other.owner)
        if pool is not None and key == (pool.kind, pool.owner):
            faces[key] = face
        elif other.face is None:
            return None
        else:
            faces[key] = other.face
    aspect = faces.get((PoolKind.ASPECT, state.roller))
    mood = faces.get((PoolKind.MOOD, state.roller))
    if aspect is None or mood is None:
        return None
    total = aspect + _shift(state)
    moods = [mood] + [faces[(PoolKind.HELP, h.helper)] for h in state.helps]
    if state.help_decided:
        used = state.helper_used
        moods = [mood if used is None else faces[(PoolKind.HELP, used)]]
    return forecast(state.risk, total, _best_mood(state.risk, total, moods))


def _face_score(state: RollState, pool: Pool, face: int) -> int:
    """How a face ranks for the player: a higher aspect face is better with the
    Character at risk, a higher mood (or help) face with the World at risk."""
    toward = 1 if state.risk is Risk.CHARACTER else -1
    return toward * face if pool.kind is PoolKind.ASPECT else -toward * face


def keep_choices(state: RollState) -> tuple[Choice[ActionKind], ...]:
    """One choice per face of every pool still to be picked, with who picks it.

    ``who`` is the picking character's name, or "" when the Arbiters pick;
    ``name`` is the pool's kind (``aspect``, ``mood`` or ``help``); ``die`` the face.
    A face picked by its owner (advantage) is ``advised`` when it is the better one
    for the player who rolls; ``consequence`` is its :class:`Forecast` where known.
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
        best = max(_face_score(state, pool, face) for face in pool.faces)
        found += [
            Choice(
                ActionKind.KEEP_DIE,
                f"{pool_argument(pool)}.{i + 1}",
                by=by,
                who=who,
                name=what,
                die=face,
                advised=pool.edge is Edge.ADVANTAGE and _face_score(state, pool, face) == best,
                consequence=_settled_with(state, pool, face),
            )
            for i, face in enumerate(pool.faces)
        ]
    return tuple(found)


def helper_die_choices(state: RollState) -> tuple[Choice[ActionKind], ...]:
    """The roller's choice between their own mood die and each helper's kept die.

    ``who`` is the character whose die it is; ``die`` its face (0 if not rolled).
    Each carries its :class:`Forecast` (with the skill's sign the better one, where
    the roller still chooses it); the better ones for the roller are ``advised``.
    """
    if not any(e.kind is ActionKind.TAKE_HELPER_DIE for e in expected(state)):
        return ()
    me = frozenset({state.roller})
    own = state.mood_pool.face if state.mood_pool is not None else None
    aspect = state.aspect_pool.face if state.aspect_pool is not None else None
    options = [(OWN_DIE, state.sheet.name, own or 0)]
    options += [
        (str(h.helper), state.character(h.helper).name, h.pool.face or 0) for h in state.helps
    ]
    results: list[Forecast | None] = []
    for _, _, face in options:
        if state.risk is None or aspect is None or not face:
            results.append(None)
        else:
            results.append(forecast(state.risk, aspect + _shift(state), face))
    known = [r.score for r in results if r is not None]
    best = max(known) if len(known) == len(results) else None
    return tuple(
        Choice(
            ActionKind.TAKE_HELPER_DIE,
            argument,
            by=me,
            who=who,
            die=face,
            advised=best is not None and result is not None and result.score == best,
            consequence=result,
        )
        for (argument, who, face), result in zip(options, results, strict=True)
    )


def skill_sign_choices(state: RollState) -> tuple[Choice[ActionKind], ...]:
    """Add the skill to the aspect die (``+``) or take it away (``-``); ``die`` is the
    modifier. Each carries its :class:`Forecast`; the better one is ``advised``."""
    if not any(e.kind is ActionKind.CHOOSE_SKILL_SIGN for e in expected(state)):
        return ()
    me = frozenset({state.roller})
    modifier = _modifier(state)
    aspect = state.aspect_pool.face if state.aspect_pool is not None else None
    mood = state.mood_pool.face if state.mood_pool is not None else None
    if state.helper_used is not None:
        used = state.help_by(state.helper_used)
        mood = None if used is None else used.pool.face
    results: list[Forecast | None] = [
        None
        if state.risk is None or aspect is None or mood is None
        else forecast(state.risk, aspect + _shift(state, sign), mood)
        for sign in (1, -1)
    ]
    scores = [r.score for r in results if r is not None]
    best = max(scores) if len(scores) == 2 else None
    return tuple(
        Choice(
            ActionKind.CHOOSE_SKILL_SIGN,
            argument,
            by=me,
            die=modifier,
            advised=best is not None and result is not None and result.score == best,
            consequence=result,
        )
        for argument, result in zip(("+", "-"), results, strict=True)
    )


def help_may_come(state: RollState) -> bool:
    """Whether an ally on screen may still help before the roller settles."""
    return any(e.kind is ActionKind.HELP for e in expected(state))


class AfterRoll(Enum):
    """What may be done once the roll is settled: add a granted detail, or skip it;
    tick or untick the location's Collateral Clock while details are still open."""

    ADD_DETAIL = TEXT
    SKIP_DETAIL = SKIP
    TICK_CLOCK = TICK
    UNTICK_CLOCK = UNTICK


def _moods(
    state: RollState, player: int, verb: ActionKind, owned: bool
) -> list[Choice[ActionKind]]:
    """One choice per written mood line of ``player`` (an open line is written by reply)."""
    sheet = state.character(player)
    me = frozenset({player})
    found = [
        Choice(
            verb,
            f"{player}.{i + 1}" if owned else str(i + 1),
            by=me,
            who=sheet.name,
            name=m.name,
            die=int(m.die),
            count=i + 1,
        )
        for i, m in enumerate(sheet.moods)
        if m.name is not None
    ]
    found.append(Choice(verb, by=me, who=sheet.name, by_reply=True))
    return found


def _sentiments(
    state: RollState, player: int, verb: ActionKind, owned: bool
) -> list[Choice[ActionKind]]:
    sheet = state.character(player)
    return [
        Choice(
            verb,
            f"{player}.{i + 1}" if owned else str(i + 1),
            by=frozenset({player}),
            who=sheet.name,
            name=sheet.sentiments[i].name or "",
            count=i + 1,
        )
        for i in sheet.usable_sentiments
    ]


def _spelled_out(
    state: RollState, kind: ActionKind, by: frozenset[int]
) -> list[Choice[ActionKind]]:
    """The choices of one open kind of action."""
    sheet = state.sheet
    if kind is ActionKind.CHOOSE_ASPECT:
        return [
            Choice(kind, a.value, by=by, name=a.value, die=int(sheet.aspect_die(a))) for a in Aspect
        ]
    if kind is ActionKind.CHOOSE_RISK:
        return [Choice(kind, r.value, by=by, name=r.value) for r in (Risk.WORLD, Risk.CHARACTER)]
    if kind is ActionKind.CHOOSE_MOOD:
        return _moods(state, state.roller, kind, owned=False)
    if kind is ActionKind.SET_ASPECT_EDGE:
        return [Choice(kind, by=by), Choice(kind, by=by, by_reply=True)]
    if kind is ActionKind.CHOOSE_SKILL:
        return [
            Choice(
                kind, str(i + 1), by=by, who=sheet.name, name=s.name, die=s.modifier, count=i + 1
            )
            for i, s in enumerate(sheet.skills)
        ]
    if kind is ActionKind.RISK_SENTIMENT:
        return _sentiments(state, state.roller, kind, owned=False)
    if kind is ActionKind.HELP:
        return [c for helper in sorted(by) for c in _moods(state, helper, kind, owned=True)]
    if kind is ActionKind.KEEP_DIE:
        return list(keep_choices(state))
    if kind is ActionKind.TAKE_HELPER_DIE:
        return list(helper_die_choices(state))
    if kind is ActionKind.CHOOSE_SKILL_SIGN:
        return list(skill_sign_choices(state))
    if kind is ActionKind.ENDANGER_SENTIMENT:
        return [c for owner in sorted(by) for c in _sentiments(state, owner, kind, owned=True)]
    if kind in _BY_REPLY:
        return [Choice(kind, by=by, by_reply=True)]
    return [Choice(kind, by=by)]


_BY_REPLY = frozenset({ActionKind.STATE_OUTCOME, ActionKind.CREATE_SKILL, ActionKind.RENAME_MOOD})


PANEL_BUTTONS = 8
"""How many dice and moods a roll panel offers as buttons at once (a phone's screen)."""


def roll_choices(state: RollState) -> tuple[Choice[ActionKind], ...]:
    """Every choice open now, with who may take it, in the order a panel shows them.

    When the allies' moods and the dice to take would not fit :data:`PANEL_BUTTONS`,
    the allies help by reply only (their mood buttons are left out)."""
    found: list[Choice[ActionKind]] = []
    for e in expected(state):
        found += _spelled_out(state, e.kind, e.players)
    pressed = [c for c in found if not c.by_reply]
    helps = sum(c.verb is ActionKind.HELP for c in pressed)
    dice = sum(c.verb in (ActionKind.KEEP_DIE, ActionKind.TAKE_HELPER_DIE) for c in pressed)
    if helps and helps + dice > PANEL_BUTTONS:
        found = [c for c in found if c.verb is not ActionKind.HELP or c.by_reply]
    return tuple(found)


def detail_choices(panel: RollPanel, world: World | None = None) -> tuple[Choice[AfterRoll], ...]:
    """Each open grant of a settled roll: its adders add it by reply or skip it. While
    any is open at a location of ``world``, any player may tick its Collateral Clock
    (unless full) or untick it (unless empty), ruling 8."""
    outcome = panel.roll.outcome
    if outcome is None:
        return ()
    found: list[Choice[AfterRoll]] = []
    for index in panel.open_grants:
        adders = frozenset(outcome.grants[index].adders)
        found.append(Choice(AfterRoll.ADD_DETAIL, by=adders, count=index + 1, by_reply=True))
        found.append(Choice(AfterRoll.SKIP_DETAIL, str(index), by=adders, count=index + 1))
    if panel.card is None or not panel.open_grants or world is None:
        return tuple(found)
    everyone = frozenset(world.players)
    ticks = world.card(panel.card).clock.ticks
    if ticks < CLOCK_SEGMENTS:
        found.append(Choice(AfterRoll.TICK_CLOCK, by=everyone, count=ticks))
    if ticks > 0:
        found.append(Choice(AfterRoll.UNTICK_CLOCK, by=everyone, count=ticks))
    return tuple(found)


def panel_choices(
    panel: RollPanel, world: World | None = None
) -> tuple[Choice[ActionKind] | Choice[AfterRoll], ...]:
    """Every choice of the roll panel: the roll's own steps, then its details."""
    return (*roll_choices(panel.roll), *detail_choices(panel, world))


# steps open at any time on a roll: left off while anything else is open
ROLL_SIDE = frozenset({ActionKind.CANCEL, AfterRoll.TICK_CLOCK, AfterRoll.UNTICK_CLOCK})
