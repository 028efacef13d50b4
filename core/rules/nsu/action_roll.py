"""The NSU Action Roll as an explicit, serialisable state machine.

Start with :func:`start_roll`, then feed actions to :func:`apply`, which
returns ``(new_state, events)``; :func:`expected` says who may act now and with
which kinds of action. The phases run in rulebook order:

1. ``DESIRED_OUTCOME`` - the roller says what they want.
2. ``STAKES`` - an Arbiter picks the Aspect and whether Character or World is at risk.
3. ``MOOD`` - the roller picks a mood (or writes a new one on an open line);
   its level goes up at once (ruling 1).
4. ``ASPECT_EDGE`` - the roller or an Arbiter lists details that favour or
   hinder; any of each kind counts once and both cancel (ruling 2).
5. ``PREPARE`` - optional skill (chosen or created) and optional sentiment
   risked for Mood Advantage, then the roller rolls.
6. ``AFTER_ROLL`` - allies may help (each raises and rolls a mood of their
   own); whoever picks keeps one die of each doubled pool (the owner with
   advantage, the Arbiters with disadvantage; ruling 3); the roller then takes
   one helper's die or keeps their own (ruling 4).
7. ``SKILL_SIGN`` - the roller adds or subtracts a non-zero skill (ruling 5).
8. ``MOOD_EFFECTS`` - the roll is settled; mood renames and endangered
   sentiments that need a choice are made here.
9. ``DONE`` - :attr:`RollState.outcome` and the sheets hold everything.

Before the dice are rolled the roller or an Arbiter may call the roll off
(``CANCELLED``; every sheet goes back). Once settled, the grants of the
results row are spent with :func:`add_granted_detail`, which never holds the
roll up.

The values live in :mod:`~core.rules.nsu.roll_actions` (what players send)
and :mod:`~core.rules.nsu.roll_state` (the state and events); this module is
the machine, and re-exports both so callers import from one place.

Invariants (every state reachable through :func:`apply`): every sheet keeps
its own invariants (levels on their tracks, at most four harms, at most one
overloaded mood); a sentiment only moves one box per rule that moves it; a
refused action raises and, since states are immutable, changes nothing; the
state round-trips through :meth:`RollState.to_dict` / :meth:`RollState.from_dict`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu.details import Detail, DetailKind, Polarity, clean_label, may_take_instead
from core.rules.nsu.roll_actions import (
    ACTION_TYPES,
    Action,
    ActionKind,
    CancelRoll,
    ChooseAspect,
    ChooseMood,
    ChooseRisk,
    ChooseSkill,
    ChooseSkillSign,
    CreateSkill,
    EndangerSentiment,
    Help,
    KeepDie,
    PlayerId,
    PoolKind,
    RenameMood,
    RiskSentiment,
    Roll,
    SetAspectEdge,
    StateOutcome,
    TakeHelperDie,
    action_from_dict,
    action_to_dict,
)
from core.rules.nsu.roll_state import (
    DEFAULT_SETTINGS,
    STATE_VERSION,
    AddedDetail,
    AspectEdgeSet,
    ChoiceNeeded,
    DetailAdded,
    DetailGrant,
    DetailTarget,
    DiceRolled,
    DieKept,
    Effect,
    EffectKind,
    Event,
    HelpAnswered,
    HelpRoll,
    MoodRaised,
    Outcome,
    OutcomeStated,
    Participant,
    Pending,
    PendingKind,
    Phase,
    Pool,
    RollCancelled,
    RollFinished,
    RollSettled,
    RollState,
    SentimentRisked,
    SheetChanged,
    SkillChosen,
    StakesSet,
    TargetKind,
    mood_edge_for,
)
from core.rules.nsu.settings import NsuSettings
from core.rules.nsu.sheet import SKILL_LINES, Character, Die, SentimentState
from core.rules.nsu.terms import (
    Edge,
    ResultRow,
    Risk,
    Side,
    Winner,
    combine_edges,
    winner_for,
)
from core.rules.rng import Rng, roll_die

MAX_OUTCOME_LENGTH = 500

__all__ = [
    "ACTION_TYPES",
    "DEFAULT_SETTINGS",
    "MAX_OUTCOME_LENGTH",
    "STATE_VERSION",
    "Action",
    "ActionKind",
    "AddedDetail",
    "AspectEdgeSet",
    "CancelRoll",
    "ChoiceNeeded",
    "ChooseAspect",
    "ChooseMood",
    "ChooseRisk",
    "ChooseSkill",
    "ChooseSkillSign",
    "CreateSkill",
    "DetailAdded",
    "DetailGrant",
    "DetailTarget",
    "DiceRolled",
    "DieKept",
    "Edge",
    "Effect",
    "EffectKind",
    "EndangerSentiment",
    "Event",
    "Expectation",
    "Help",
    "HelpAnswered",
    "HelpRoll",
    "KeepDie",
    "MoodRaised",
    "Outcome",
    "OutcomeStated",
    "Participant",
    "Pending",
    "PendingKind",
    "Phase",
    "PlayerId",
    "Pool",
    "PoolKind",
    "RenameMood",
    "ResultRow",
    "Risk",
    "RiskSentiment",
    "Roll",
    "RollCancelled",
    "RollFinished",
    "RollSettled",
    "RollState",
    "SentimentRisked",
    "SetAspectEdge",
    "SheetChanged",
    "Side",
    "SkillChosen",
    "StakesSet",
    "StateOutcome",
    "TakeHelperDie",
    "TargetKind",
    "Winner",
    "action_from_dict",
    "action_to_dict",
    "add_granted_detail",
    "apply",
    "check_grant",
    "choose_arbiters",
    "combine_edges",
    "expected",
    "mood_edge_for",
    "start_roll",
    "unused_grants",
    "who_may_act",
    "winner_for",
]


# -- who may act -----------------------------------------------------------------


@dataclass(frozen=True)
class Expectation:
    """An action kind that is open now, and the players who may send it."""

    kind: ActionKind
    players: frozenset[PlayerId]


def expected(state: RollState) -> tuple[Expectation, ...]:
    """The actions that may be applied now, and by whom. Empty when the roll is done."""
    me = frozenset({state.roller})
    arb = state.arbiters
    out: list[Expectation] = []
    phase = state.phase
    if phase is Phase.DESIRED_OUTCOME:
        out.append(Expectation(ActionKind.STATE_OUTCOME, me))
    elif phase is Phase.STAKES:
        if state.aspect is None:
            out.append(Expectation(ActionKind.CHOOSE_ASPECT, arb))
        if state.risk is None:
            out.append(Expectation(ActionKind.CHOOSE_RISK, arb))
    elif phase is Phase.MOOD:
        out.append(Expectation(ActionKind.CHOOSE_MOOD, me))
    elif phase is Phase.ASPECT_EDGE:
        out.append(Expectation(ActionKind.SET_ASPECT_EDGE, me | arb))
    elif phase is Phase.PREPARE:
        if state.skill is None:
            if state.sheet.skills:
                out.append(Expectation(ActionKind.CHOOSE_SKILL, me))
            if len(state.sheet.skills) < SKILL_LINES:
                out.append(Expectation(ActionKind.CREATE_SKILL, me))
        if state.risked_sentiment is None and state.sheet.usable_sentiments:
            out.append(Expectation(ActionKind.RISK_SENTIMENT, me))
        out.append(Expectation(ActionKind.ROLL, me))
    elif phase is Phase.AFTER_ROLL:
        helpers = frozenset(
            p.player
            for p in state.participants[1:]
            if state.help_by(p.player) is None and p.character.can_act
        )
        if helpers:
            out.append(Expectation(ActionKind.HELP, helpers))
        pickers = frozenset().union(*(_pickers(state, pool) for pool in _unkept(state)))
        if pickers:
            out.append(Expectation(ActionKind.KEEP_DIE, pickers))
        else:
            out.append(Expectation(ActionKind.TAKE_HELPER_DIE, me))
    elif phase is Phase.SKILL_SIGN:
        out.append(Expectation(ActionKind.CHOOSE_SKILL_SIGN, me))
    elif phase is Phase.MOOD_EFFECTS:
        renamers: set[PlayerId] = set()
        endangerers: set[PlayerId] = set()
        for p in state.pending:
            if p.kind is PendingKind.RENAME:
                renamers |= _renamers(state, p)
            else:
                endangerers.add(p.owner)
        if renamers:
            out.append(Expectation(ActionKind.RENAME_MOOD, frozenset(renamers)))
        if endangerers:
            out.append(Expectation(ActionKind.ENDANGER_SENTIMENT, frozenset(endangerers)))
    if phase in _CANCELLABLE:
        out.append(Expectation(ActionKind.CANCEL, me | arb))
    return tuple(out)


_CANCELLABLE = frozenset(
    {Phase.DESIRED_OUTCOME, Phase.STAKES, Phase.MOOD, Phase.ASPECT_EDGE, Phase.PREPARE}
)


def who_may_act(state: RollState) -> dict[PlayerId, frozenset[ActionKind]]:
    """The same as :func:`expected`, arranged by player."""
    by_player: dict[PlayerId, set[ActionKind]] = {}
    for expectation in expected(state):
        for player in expectation.players:
            by_player.setdefault(player, set()).add(expectation.kind)
    return {player: frozenset(kinds) for player, kinds in by_player.items()}


def _pools(state: RollState) -> list[Pool]:
    pools = [p for p in (state.aspect_pool, state.mood_pool) if p is not None]
    return pools + [h.pool for h in state.helps]


def _unkept(state: RollState) -> list[Pool]:
    return [p for p in _pools(state) if p.kept is None]


def _pickers(state: RollState, pool: Pool) -> frozenset[PlayerId]:
    """With advantage the pool's owner picks; with disadvantage the Arbiters do (ruling 3)."""
    if pool.edge is Edge.ADVANTAGE:
        return frozenset({pool.owner})
    if pool.edge is Edge.DISADVANTAGE:
        return state.arbiters
    return frozenset()


def _renamers(state: RollState, pending: Pending) -> set[PlayerId]:
    assert state.outcome is not None
    winner = state.outcome.winner
    who: set[PlayerId] = set()
    if winner in (Winner.PLAYER, Winner.TIE):
        who.add(pending.owner)
    if winner in (Winner.ARBITERS, Winner.TIE):
        who |= state.arbiters
    return who


NOT_NOW = {  # a step out of turn, with what the roll waits for
    Phase.DESIRED_OUTCOME: "Not now. First the roller says what they hope to achieve.",
    Phase.STAKES: "Not now. The Arbiters are choosing the aspect and what is at risk.",
    Phase.MOOD: "Not now. The roller is choosing a mood.",
    Phase.ASPECT_EDGE: "Not now. The table is checking details for aspect advantage.",
    Phase.PREPARE: "Not now. The roller may pick a skill or risk a sentiment, then roll.",
    Phase.AFTER_ROLL: "Not now. The dice are out: help, keep dice, then the roller settles.",
    Phase.SKILL_SIGN: "Not now. The roller is deciding whether the skill adds or subtracts.",
    Phase.MOOD_EFFECTS: "Not now. The last choices about moods and sentiments are being made.",
    Phase.DONE: "Not now. This roll is finished.",
    Phase.CANCELLED: "Not now. This roll was called off.",
}

NOT_YOURS = {  # a step open to others, with what the roll waits for
    Phase.DESIRED_OUTCOME: (
        "That's for someone else. First the roller says what they hope to achieve."
    ),
    Phase.STAKES: (
        "That's for someone else. The Arbiters are choosing the aspect and what is at risk."
    ),
    Phase.MOOD: "That's for someone else. The roller is choosing a mood.",
    Phase.ASPECT_EDGE: (
        "That's for someone else. The table is checking details for aspect advantage."
    ),
    Phase.PREPARE: (
        "That's for someone else. The roller may pick a skill or risk a sentiment, then roll."
    ),
    Phase.AFTER_ROLL: (
        "That's for someone else. The dice are out: help, keep dice, then the roller settles."
    ),
    Phase.SKILL_SIGN: (
        "That's for someone else. The roller is deciding whether the skill adds or subtracts."
    ),
    Phase.MOOD_EFFECTS: (
        "That's for someone else. The last choices about moods and sentiments are being made."
    ),
    Phase.DONE: "That's for someone else. This roll is finished.",
    Phase.CANCELLED: "That's for someone else. This roll was called off.",
}


# -- starting ----------------------------------------------------------------------


def choose_arbiters(
    players: Iterable[PlayerId], on_screen: Iterable[PlayerId], roller: PlayerId
) -> frozenset[PlayerId]:
    """Arbiters are the players off screen; if nobody is, everyone but the roller (ruling 7)."""
    everyone = frozenset(players)
    if roller not in everyone:
        raise Malformed("The roller has to be one of the players.")
    off_screen = everyone - frozenset(on_screen)
    arbiters = off_screen - {roller}
    return arbiters or everyone - {roller}


def start_roll(
    roller: Participant,
    arbiters: Iterable[PlayerId],
    allies: Iterable[Participant] = (),
    settings: NsuSettings = DEFAULT_SETTINGS,
) -> RollState:
    """Begin an Action Roll.

    Args:
        roller: the acting player and their sheet.
        arbiters: the players acting as Arbiters (see :func:`choose_arbiters`).
        allies: on-screen players whose characters may help.

    Raises:
        Malformed: nobody arbitrates, or a player is listed twice.
        NotAllowedNow: the roller's character is Overcome.
    """
    if not roller.character.can_act:
        raise NotAllowedNow(
            "{name} is Overcome and cannot act until a harm is recovered: "
            "in downtime (/downtime home), with Recover Harm.",
            name=roller.character.name,
        )
    participants = (roller, *allies)
    return RollState(
        roller=roller.player,
        arbiters=frozenset(arbiters),
        participants=participants,
        initial=participants,
        settings=settings,
    )


# -- applying --------------------------------------------------------------------

Handler = Callable[[RollState, Any, Rng], tuple[RollState, list[Event]]]
_HANDLERS: dict[type[Action], Handler] = {}
A = TypeVar("A", bound=Action)


def _handles(
    cls: type[A],
) -> Callable[
    [Callable[[RollState, A, Rng], tuple[RollState, list[Event]]]],
    Callable[[RollState, A, Rng], tuple[RollState, list[Event]]],
]:
    def register(
        fn: Callable[[RollState, A, Rng], tuple[RollState, list[Event]]],
    ) -> Callable[[RollState, A, Rng], tuple[RollState, list[Event]]]:
        _HANDLERS[cls] = fn
        return fn

    return register


def apply(state: RollState, action: Action, rng: Rng) -> tuple[RollState, tuple[Event, ...]]:
    """Apply one action; return the new state and what happened.

    Raises:
        NotAllowedNow: that kind of action is not open at this point.
        NotYourTurn: it is open, but for other players.
        Malformed: the action's content can never be valid (a missing line, say).
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise Malformed("That is not a step of an Action Roll.")
    open_now = {e.kind: e.players for e in expected(state)}
    if action.kind not in open_now:
        raise NotAllowedNow(NOT_NOW[state.phase])
    if action.actor not in open_now[action.kind]:
        raise NotYourTurn(NOT_YOURS[state.phase])
    new_state, events = handler(state, action, rng)
    forced = _forced_step(new_state)
    while forced is not None:  # a step with one possible answer is not asked
        new_state, more = _HANDLERS[type(forced)](new_state, forced, rng)
        events += more
        forced = _forced_step(new_state)
    return new_state, tuple(events)


def _forced_step(state: RollState) -> Action | None:
    """The one possible action now, if the step has a single answer; else None.

    The roller keeping their own mood die when nobody helped and nobody can is
    such a step (two equal dice are already kept as they are rolled).
    """
    if state.phase is not Phase.AFTER_ROLL:
        return None
    kinds = {e.kind for e in expected(state)} - {ActionKind.CANCEL}
    if kinds == {ActionKind.TAKE_HELPER_DIE} and not state.helps:
        return TakeHelperDie(state.roller, None)
    return None


def _with_character(state: RollState, player: PlayerId, character: Character) -> RollState:
    participants = tuple(
        Participant(p.player, character) if p.player == player else p for p in state.participants
    )
    return replace(state, participants=participants)


@_handles(StateOutcome)
def _state_outcome(
    state: RollState, action: StateOutcome, rng: Rng
) -> tuple[RollState, list[Event]]:
    text = " ".join(action.text.split())
    if not text:
        raise Malformed("Say in a few words what your character is trying to do.")
    if len(text) > MAX_OUTCOME_LENGTH:
        raise Malformed(
            "Keep the desired outcome under {limit} characters.", limit=MAX_OUTCOME_LENGTH
        )
    return replace(state, desired_outcome=text, phase=Phase.STAKES), [OutcomeStated(text)]


def _after_stakes(state: RollState) -> RollState:
    if state.aspect is not None and state.risk is not None:
        return replace(state, phase=Phase.MOOD)
    return state


@_handles(ChooseAspect)
def _choose_aspect(
    state: RollState, action: ChooseAspect, rng: Rng
) -> tuple[RollState, list[Event]]:
    new = _after_stakes(replace(state, aspect=action.aspect))
    return new, [StakesSet(action.aspect, None)]


@_handles(ChooseRisk)
def _choose_risk(state: RollState, action: ChooseRisk, rng: Rng) -> tuple[RollState, list[Event]]:
    new = _after_stakes(replace(state, risk=action.risk))
    return new, [StakesSet(None, action.risk)]


def _pick_mood(
    sheet: Character, player: PlayerId, line: int, new_name: str | None
) -> tuple[Character, MoodRaised]:
    """Pick (or write) a mood and mark its next box (ruling 1)."""
    mood = sheet.mood(line)
    written = False
    if mood.is_open:
        if new_name is None:
            raise Malformed("That mood line is open: name the new mood to write on it.")
        sheet = sheet.write_mood(line, new_name)
        written = True
    elif new_name is not None and clean_label(new_name, "A mood") != mood.name:
        raise NotAllowedNow("Line {line} already holds {mood}.", line=line + 1, mood=str(mood.name))
    sheet = sheet.raise_mood(line, 1)
    raised = sheet.moods[line]
    assert raised.name is not None
    event = MoodRaised(player, line, raised.name, raised.level, written, raised.track_full)
    return sheet, event


@_handles(ChooseMood)
def _choose_mood(state: RollState, action: ChooseMood, rng: Rng) -> tuple[RollState, list[Event]]:
    sheet, event = _pick_mood(state.sheet, state.roller, action.line, action.new_name)
    overloaded = state.sheet.overloaded_mood
    left = overloaded if overloaded is not None and overloaded != action.line else None
    new = _with_character(state, state.roller, sheet)
    return replace(new, mood_line=action.line, left_overload=left, phase=Phase.ASPECT_EDGE), [event]


@_handles(SetAspectEdge)
def _set_aspect_edge(
    state: RollState, action: SetAspectEdge, rng: Rng
) -> tuple[RollState, list[Event]]:
    favouring = tuple(clean_label(d) for d in action.favouring)
    hindering = tuple(clean_label(d) for d in action.hindering)
    edge = combine_edges(bool(favouring), bool(hindering))
    new = replace(
        state, favouring=favouring, hindering=hindering, aspect_edge=edge, phase=Phase.PREPARE
    )
    return new, [AspectEdgeSet(edge)]


@_handles(ChooseSkill)
def _choose_skill(state: RollState, action: ChooseSkill, rng: Rng) -> tuple[RollState, list[Event]]:
    skill = state.sheet.skill(action.index)
    return replace(state, skill=action.index), [
        SkillChosen(action.index, skill.name, skill.modifier, False)
    ]


@_handles(CreateSkill)
def _create_skill(state: RollState, action: CreateSkill, rng: Rng) -> tuple[RollState, list[Event]]:
    sheet = state.sheet.add_skill(action.name)
    index = len(sheet.skills) - 1
    new = replace(_with_character(state, state.roller, sheet), skill=index, skill_created=True)
    skill = sheet.skills[index]
    return new, [SkillChosen(index, skill.name, skill.modifier, True)]


@_handles(RiskSentiment)
def _risk_sentiment(
    state: RollState, action: RiskSentiment, rng: Rng
) -> tuple[RollState, list[Event]]:
    sentiment = state.sheet.sentiment(action.index)
    if not sentiment.usable or sentiment.name is None:
        raise NotAllowedNow("Only a written sentiment that is not lost can be risked.")
    return replace(state, risked_sentiment=action.index), [
        SentimentRisked(action.index, sentiment.name)
    ]


def _roll_pool(rng: Rng, kind: PoolKind, owner: PlayerId, die: Die, edge: Edge) -> Pool:
    count = 1 if edge is Edge.NONE else 2
    faces = tuple(roll_die(rng, int(die)) for _ in range(count))
    kept = 0 if count == 1 or faces[0] == faces[1] else None
    return Pool(kind, owner, die, edge, faces, kept)


@_handles(Roll)
def _roll(state: RollState, action: Roll, rng: Rng) -> tuple[RollState, list[Event]]:
    assert state.aspect is not None and state.mood_line is not None
    assert state.aspect_edge is not None
    sheet = state.sheet
    aspect_pool = _roll_pool(
        rng, PoolKind.ASPECT, state.roller, sheet.aspect_die(state.aspect), state.aspect_edge
    )
    mood_pool = _roll_pool(
        rng, PoolKind.MOOD, state.roller, sheet.mood(state.mood_line).die, state.mood_edge
    )
    new = replace(state, aspect_pool=aspect_pool, mood_pool=mood_pool, phase=Phase.AFTER_ROLL)
    return new, [DiceRolled(aspect_pool), DiceRolled(mood_pool)]


@_handles(Help)
def _help(state: RollState, action: Help, rng: Rng) -> tuple[RollState, list[Event]]:
    helper_sheet = state.character(action.actor)
    edge = mood_edge_for(helper_sheet, action.line, False)
    overloaded = helper_sheet.overloaded_mood
    left = overloaded if overloaded is not None and overloaded != action.line else None
    sheet, raised = _pick_mood(helper_sheet, action.actor, action.line, action.new_name)
    pool = _roll_pool(rng, PoolKind.HELP, action.actor, sheet.mood(action.line).die, edge)
    new = _with_character(state, action.actor, sheet)
    new = replace(new, helps=(*new.helps, HelpRoll(action.actor, action.line, pool, left)))
    return new, [raised, DiceRolled(pool)]


@_handles(KeepDie)
def _keep_die(state: RollState, action: KeepDie, rng: Rng) -> tuple[RollState, list[Event]]:
    if action.index not in (0, 1):
        raise Malformed("Keep die 1 or die 2.")
    if action.pool is PoolKind.ASPECT:
        pool = state.aspect_pool
    elif action.pool is PoolKind.MOOD:
        pool = state.mood_pool
    else:
        help_roll = state.help_by(action.owner)
        pool = None if help_roll is None else help_roll.pool
    if pool is None or pool.owner != action.owner:
        raise Malformed("There is no such pool of dice in this roll.")
    if pool.kept is not None:
        raise NotAllowedNow("That die has already been chosen.")
    if action.actor not in _pickers(state, pool):
        raise NotYourTurn(
            "With advantage whoever rolled picks; with disadvantage the Arbiters pick."
        )
    kept = replace(pool, kept=action.index)
    if action.pool is PoolKind.ASPECT:
        new = replace(state, aspect_pool=kept)
    elif action.pool is PoolKind.MOOD:
        new = replace(state, mood_pool=kept)
    else:
        helps = tuple(replace(h, pool=kept) if h.helper == action.owner else h for h in state.helps)
        new = replace(state, helps=helps)
    return new, [DieKept(action.pool, action.owner, kept.faces[action.index])]


@_handles(TakeHelperDie)
def _take_helper_die(
    state: RollState, action: TakeHelperDie, rng: Rng
) -> tuple[RollState, list[Event]]:
    if action.helper is not None and state.help_by(action.helper) is None:
        raise Malformed("That player has not rolled to help.")
    refused = tuple(h.helper for h in state.helps if h.helper != action.helper)
    events: list[Event] = [HelpAnswered(action.helper, refused)]
    new = replace(state, helper_used=action.helper, help_decided=True)
    skill = None if new.skill is None else new.sheet.skills[new.skill]
    if skill is not None and skill.modifier:
        return replace(new, phase=Phase.SKILL_SIGN), events
    new, more = _settle(replace(new, skill_sign=1))
    return new, events + more


@_handles(ChooseSkillSign)
def _choose_skill_sign(
    state: RollState, action: ChooseSkillSign, rng: Rng
) -> tuple[RollState, list[Event]]:
    new, events = _settle(replace(state, skill_sign=1 if action.add else -1))
    return new, events


# -- settling ---------------------------------------------------------------------


def _grants(state: RollState, winner: Winner, row: ResultRow) -> tuple[DetailGrant, ...]:
    player = frozenset({state.roller})
    arbiters = state.arbiters
    hard = DetailKind.HARD
    if winner is Winner.TIE:
        return (
            DetailGrant(Side.PLAYER, False, hard, player),
            DetailGrant(Side.ARBITERS, False, hard, arbiters),
        )
    side = Side.PLAYER if winner is Winner.PLAYER else Side.ARBITERS
    own = player if side is Side.PLAYER else arbiters
    # The Arbiters never add a detail for the player's side: with no ally on
    # screen, the ally's share of rows 1 and 4 is not added (ruling 22).
    ally = state.allies if side is Side.PLAYER else arbiters
    first = DetailGrant(side, False, hard, own)
    if row is ResultRow.WIN_WITH_COST:
        return (first, DetailGrant(side, True, hard, ally, Polarity.NEGATIVE)) if ally else (first,)
    if row is ResultRow.WIN_WITH_SCENE:
        return first, DetailGrant(side, False, DetailKind.SCENE, own)
    if row is ResultRow.WIN_WITH_ALLY:
        return (first, DetailGrant(side, True, hard, ally)) if ally else (first,)
    if row is ResultRow.BIG_WIN:
        return first, first
    return (first,)


def _mood_effects(
    sheet: Character,
    player: PlayerId,
    line: int,
    own_face: int,
    left_overload: int | None,
    winner: Winner,
) -> tuple[Character, list[Effect], list[Pending]]:
    """Overload, leaving an overloaded mood, and a filled track, for one character."""
    effects: list[Effect] = []
    pending: list[Pending] = []
    won = winner in (Winner.PLAYER, Winner.TIE)
    lost = winner in (Winner.ARBITERS, Winner.TIE)
    if left_overload is not None:
        sheet = sheet.set_overloaded(left_overload, False)
        effects.append(Effect(EffectKind.OVERLOAD_ENDED, player, left_overload))
        if won:
            sheet = sheet.clear_mood(left_overload)
            effects.append(Effect(EffectKind.BOXES_CLEARED, player, left_overload))
        if lost:
            pending.append(Pending(PendingKind.ENDANGER, player))
    mood = sheet.moods[line]
    if mood.past_threshold and own_face < mood.level and not mood.overloaded:
        sheet = sheet.set_overloaded(line, True)
        effects.append(Effect(EffectKind.OVERLOADED, player, line))
    if mood.track_full:
        sheet = sheet.clear_mood(line)
        effects.append(Effect(EffectKind.TRACK_FILLED, player, line))
        pending.append(Pending(PendingKind.ENDANGER, player))
        pending.append(Pending(PendingKind.RENAME, player, line))
    return sheet, effects, pending


def _settle(state: RollState) -> tuple[RollState, list[Event]]:
    assert state.aspect_pool is not None and state.mood_pool is not None
    assert state.risk is not None and state.aspect is not None and state.mood_line is not None
    aspect_face = state.aspect_pool.face
    own_mood_face = state.mood_pool.face
    assert aspect_face is not None and own_mood_face is not None
    mood_face = own_mood_face
    if state.helper_used is not None:
        used = state.help_by(state.helper_used)
        assert used is not None and used.pool.face is not None
        mood_face = used.pool.face
    sheet = state.sheet
    modifier = 0 if state.skill is None else sheet.skills[state.skill].modifier
    shift = modifier * (state.skill_sign or 1)
    aspect_total = aspect_face + shift
    difference = abs(aspect_total - mood_face)
    winner = winner_for(state.risk, aspect_total, mood_face)
    row = ResultRow.for_difference(difference)
    grants = _grants(state, winner, row)
    ticks = (
        len(grants) if state.risk is Risk.WORLD and state.settings.suggest_collateral_ticks else 0
    )
    outcome = Outcome(
        aspect_face, shift, mood_face, difference, winner, row, grants, ticks, state.helper_used
    )
    events: list[Event] = [RollSettled(outcome, state.roller)]
    effects: list[Effect] = []
    pending: list[Pending] = []

    # The roller's sentiment risked for Mood Advantage (ruling 6).
    if state.risked_sentiment is not None:
        slips = winner is Winner.ARBITERS
        slips |= winner is Winner.TIE and state.settings.sentiment_moves_on_tie
        # Row 1 endangers it only when an ally really adds the negative detail (ruling 22).
        ally_cost = any(g.polarity is Polarity.NEGATIVE for g in grants)
        slips |= ally_cost and state.settings.sentiment_moves_on_row_one
        if slips and sheet.sentiments[state.risked_sentiment].usable:
            sheet = sheet.endanger_sentiment(state.risked_sentiment)
            state_now = sheet.sentiments[state.risked_sentiment].state
            effects.append(
                Effect(
                    EffectKind.SENTIMENT_SLIPPED,
                    state.roller,
                    state.risked_sentiment,
                    state_now.value,
                )
            )

    # A used skill marks the box of the aspect rolled (ruling 5).
    if state.skill is not None:
        sheet = sheet.mark_skill(state.skill, state.aspect)
        effects.append(
            Effect(EffectKind.SKILL_MARKED, state.roller, state.skill, state.aspect.value)
        )

    sheet, more_effects, more_pending = _mood_effects(
        sheet, state.roller, state.mood_line, own_mood_face, state.left_overload, winner
    )
    effects += more_effects
    pending += more_pending
    new = _with_character(state, state.roller, sheet)

    # Helpers check their own mood effects, on the player's side of the result.
    for help_roll in state.helps:
        face = help_roll.pool.face
        assert face is not None
        helper_sheet, more_effects, more_pending = _mood_effects(
            new.character(help_roll.helper),
            help_roll.helper,
            help_roll.line,
            face,
            help_roll.left_overload,
            winner,
        )
        new = _with_character(new, help_roll.helper, helper_sheet)
        effects += more_effects
        pending += more_pending

    events += [SheetChanged(e) for e in effects]
    new = replace(new, outcome=outcome, effects=tuple(effects), pending=tuple(pending))
    new = _drop_moot_pending(new)
    events += [ChoiceNeeded(p) for p in new.pending]
    return _finish_if_clear(new, events)


def _drop_moot_pending(state: RollState) -> RollState:
    """An endangerment with no written, unlost sentiment left has nothing to mark."""
    keep = tuple(
        p
        for p in state.pending
        if p.kind is PendingKind.RENAME or state.character(p.owner).usable_sentiments
    )
    return replace(state, pending=keep)


def _finish_if_clear(state: RollState, events: list[Event]) -> tuple[RollState, list[Event]]:
    if state.pending:
        return replace(state, phase=Phase.MOOD_EFFECTS), events
    return replace(state, phase=Phase.DONE), [*events, RollFinished()]


def _without(pending: tuple[Pending, ...], item: Pending) -> tuple[Pending, ...]:
    index = pending.index(item)
    return pending[:index] + pending[index + 1 :]


@_handles(RenameMood)
def _rename_mood(state: RollState, action: RenameMood, rng: Rng) -> tuple[RollState, list[Event]]:
    item = next(
        (p for p in state.pending if p.kind is PendingKind.RENAME and p.owner == action.owner),
        None,
    )
    if item is None or item.line is None:
        raise NotAllowedNow("That character has no mood waiting for a new name.")
    if action.actor not in _renamers(state, item):
        raise NotYourTurn("The winning side renames the mood.")
    sheet = state.character(action.owner)
    old = sheet.moods[item.line].name
    sheet = sheet.rename_mood(item.line, action.new_name)
    effect = Effect(
        EffectKind.MOOD_RENAMED, action.owner, item.line, f"{old} -> {sheet.moods[item.line].name}"
    )
    new = _with_character(state, action.owner, sheet)
    new = replace(new, pending=_without(new.pending, item), effects=(*new.effects, effect))
    return _finish_if_clear(new, [SheetChanged(effect)])


@_handles(EndangerSentiment)
def _endanger(
    state: RollState, action: EndangerSentiment, rng: Rng
) -> tuple[RollState, list[Event]]:
    item = next(
        (p for p in state.pending if p.kind is PendingKind.ENDANGER and p.owner == action.actor),
        None,
    )
    if item is None:
        raise NotYourTurn("You have no sentiment to mark right now.")
    sheet = state.character(action.actor).endanger_sentiment(action.index)
    slipped: SentimentState = sheet.sentiments[action.index].state
    effect = Effect(EffectKind.SENTIMENT_SLIPPED, action.actor, action.index, slipped.value)
    new = _with_character(state, action.actor, sheet)
    new = replace(new, pending=_without(new.pending, item), effects=(*new.effects, effect))
    new = _drop_moot_pending(new)
    return _finish_if_clear(new, [SheetChanged(effect)])


@_handles(CancelRoll)
def _cancel(state: RollState, action: CancelRoll, rng: Rng) -> tuple[RollState, list[Event]]:
    """Call the roll off: every sheet goes back to how it was at the start."""
    participants = state.initial or state.participants
    sheet = participants[0].character
    # A skill or mood written during the roll goes with the sheets: forget the choice of it.
    skill = state.skill if state.skill is not None and state.skill < len(sheet.skills) else None
    line = state.mood_line
    mood_line = line if line is not None and not sheet.mood(line).is_open else None
    new = replace(
        state,
        participants=participants,
        phase=Phase.CANCELLED,
        skill=skill,
        skill_created=state.skill_created and skill is not None,
        mood_line=mood_line,
    )
    return new, [RollCancelled(action.actor)]


def check_grant(grant: DetailGrant, actor: PlayerId, detail: Detail) -> None:
    """Check that ``actor`` may use ``grant`` to add ``detail``.

    A hard grant may be taken as a soft or scene detail; the row-1 cost must be negative.

    Raises:
        NotYourTurn: ``actor`` is not among the grant's adders.
        Malformed: the detail's kind or polarity does not fit the grant.
    """
    if actor not in grant.adders:
        raise NotYourTurn("That detail is for someone else to add.")
    if not may_take_instead(grant.kind, detail.kind):
        raise Malformed("A scene detail grant cannot become a hard detail.")
    if grant.polarity is not None and detail.polarity is not grant.polarity:
        raise Malformed("This detail has to work against the winning side.")


def unused_grants(state: RollState) -> tuple[int, ...]:
    """Indices into ``state.outcome.grants`` not yet used."""
    if state.outcome is None:
        return ()
    used = {a.grant for a in state.added}
    return tuple(i for i in range(len(state.outcome.grants)) if i not in used)


def add_granted_detail(
    state: RollState,
    actor: PlayerId,
    grant: int,
    detail: Detail,
    target: DetailTarget,
    harm: bool = False,
) -> tuple[RollState, tuple[Event, ...]]:
    """Use one of the roll's grants to add a detail.

    A hard detail on a character in this roll is written on their sheet, on a
    harm line when ``harm`` is set (the fourth harm makes them Overcome). Soft
    details are only noted; scene, NPC and thing details are recorded here for
    the caller to write where they belong. On a World-at-risk roll each added
    detail proposes one Collateral Clock tick (ruling 8). This does not hold up
    the roll: grants may be used after it is done.

    Raises:
        NotAllowedNow: the roll is not settled yet, or the grant is used.
        NotYourTurn: the grant is for someone else.
        Malformed: the grant does not exist, or the detail does not fit it or its target.
    """
    if state.outcome is None or state.phase is Phase.CANCELLED:
        raise NotAllowedNow("Details are added once the roll is settled.")
    if not 0 <= grant < len(state.outcome.grants):
        raise Malformed("This roll has no such detail to add.")
    if grant not in unused_grants(state):
        raise NotAllowedNow("That detail has already been added.")
    check_grant(state.outcome.grants[grant], actor, detail)
    if detail.kind is DetailKind.SCENE and target.kind is not TargetKind.SCENE:
        raise Malformed("A scene detail goes on the scene, not on someone.")
    if detail.kind is not DetailKind.SCENE and target.kind is TargetKind.SCENE:
        raise Malformed("Only scene details go on the scene list.")
    if harm and (
        detail.kind is not DetailKind.HARD
        or detail.polarity is not Polarity.NEGATIVE
        or target.kind not in (TargetKind.CHARACTER, TargetKind.NPC)
    ):
        raise Malformed("Only a hard, negative detail on a character or NPC can be harm.")
    new = state
    overcome = False
    if target.kind is TargetKind.CHARACTER and detail.kind is DetailKind.HARD:
        assert target.player is not None
        sheet = state.character(target.player)
        sheet = sheet.add_harm(detail.name) if harm else sheet.add_detail(detail)
        overcome = sheet.overcome
        new = _with_character(state, target.player, sheet)
    elif target.kind is TargetKind.CHARACTER:
        state.character(target.player if target.player is not None else -1)
    record = AddedDetail(grant, actor, detail, target, harm)
    new = replace(new, added=(*new.added, record))
    tick = state.risk is Risk.WORLD and state.settings.suggest_collateral_ticks
    return new, (DetailAdded(record, tick, overcome),)
