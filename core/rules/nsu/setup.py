"""Worldbuilding for No Stone Unturned as an explicit, turn-aware state machine.

Drive it like this::

    state = new_setup([alice, bob, cara])
    allowed_actions(state)           # {player: {ActionKind, ...}} who may do what now
    state, events = apply(state, alice, ProposeTone("weird, hopeful", {SafetyTool.X_CARD}))
    ...
    world = finished_world(state)    # once state.step is SetupStep.DONE

The steps, in order: the tone talk (everyone agrees on a tone and safety
tools), bans (one each, or a pass), the settlement round (a statement or a pass
in seating order until two passes in a row or the card is full), the scope
questions, five resources, the abundance, two secret locations per player,
dealing the map face down, and rolling Danger and Reward for every card.

Invariants:

* :func:`apply` either returns a new state or raises; a refused action never
  changes anything (states are immutable).
* Refusals: :class:`Malformed` for input that can never be valid (empty text,
  an unknown option), :class:`NotYourTurn` when someone else must act first,
  :class:`NotAllowedNow` for anything else out of step.
* The settlement speaker is always a player; turns go round in seating order.
  A player who leaves (:func:`without_player`) is out of the turns at once.
* After the abundance step there are exactly five resources and one abundance.
* Each player authors exactly two cards. Events never carry a card's face.
  Dealing renumbers cards in map order, so ids say nothing about who wrote them.
* :meth:`SetupState.to_dict` / :meth:`SetupState.from_dict` round-trip through
  JSON-able values (the bot stores the state between messages).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from core.rules.catalogue import N_
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu.world import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RESOURCE_COUNT,
    Ban,
    CardId,
    Cell,
    DangerLevel,
    LocationCard,
    PlayerId,
    Resource,
    ResourceLevel,
    RewardLevel,
    SafetyTool,
    ScopeAnswer,
    ScopeQuestion,
    Statement,
    World,
    clean_text,
    deal_grid,
    roll_danger_and_reward,
    world_from_dict,
    world_to_dict,
)
from core.rules.rng import Rng

LOCATIONS_PER_PLAYER = 2
DEFAULT_SETTLEMENT_CAPACITY = 12
PASSES_TO_END_SETTLEMENT = 2
MAX_MAP_COLUMNS = 10


class SetupStep(Enum):
    """The worldbuilding steps, in order."""

    TONE = "tone"
    BANS = "bans"
    SETTLEMENT = "settlement"
    SCOPE = "scope"
    RESOURCES = "resources"
    ABUNDANCE = "abundance"
    LOCATIONS = "locations"
    MAP = "map"
    DANGER_AND_REWARD = "danger_and_reward"
    DONE = "done"


_ORDER = tuple(SetupStep)


class ActionKind(Enum):
    """Every kind of worldbuilding action."""

    PROPOSE_TONE = "propose_tone"
    AGREE_TONE = "agree_tone"
    BAN = "ban"
    PASS_BAN = "pass_ban"
    CHOOSE_FIRST_SPEAKER = "choose_first_speaker"
    MAKE_STATEMENT = "make_statement"
    PASS_STATEMENT = "pass_statement"
    DECLARE_CARD_FULL = "declare_card_full"
    ANSWER_SCOPE = "answer_scope"
    FINISH_SCOPE = "finish_scope"
    NAME_RESOURCE = "name_resource"
    CHOOSE_ABUNDANCE = "choose_abundance"
    AUTHOR_LOCATION = "author_location"
    REVISE_LOCATION = "revise_location"
    DEAL_MAP = "deal_map"
    ROLL_DANGER_AND_REWARD = "roll_danger_and_reward"


# ------------------------------------------------------------------------ actions


@dataclass(frozen=True)
class ProposeTone:
    """Write down the tone the table talked about and the safety tools chosen."""

    notes: str
    safety_tools: frozenset[SafetyTool]
    kind = ActionKind.PROPOSE_TONE


@dataclass(frozen=True)
class AgreeTone:
    kind = ActionKind.AGREE_TONE


@dataclass(frozen=True)
class BanElement:
    text: str
    kind = ActionKind.BAN


@dataclass(frozen=True)
class PassBan:
    kind = ActionKind.PASS_BAN


@dataclass(frozen=True)
class ChooseFirstSpeaker:
    player_id: PlayerId
    kind = ActionKind.CHOOSE_FIRST_SPEAKER


@dataclass(frozen=True)
class MakeStatement:
    """One fact about the settlement; ``builds_on`` is the index of an earlier one."""

    text: str
    builds_on: int | None = None
    kind = ActionKind.MAKE_STATEMENT


@dataclass(frozen=True)
class PassStatement:
    kind = ActionKind.PASS_STATEMENT


@dataclass(frozen=True)
class DeclareCardFull:
    kind = ActionKind.DECLARE_CARD_FULL


@dataclass(frozen=True)
class AnswerScope:
    """Answer a scope question, or add a free note with ``question=None``."""

    question: ScopeQuestion | None
    text: str
    kind = ActionKind.ANSWER_SCOPE


@dataclass(frozen=True)
class FinishScope:
    kind = ActionKind.FINISH_SCOPE


@dataclass(frozen=True)
class NameResource:
    name: str
    kind = ActionKind.NAME_RESOURCE


@dataclass(frozen=True)
class ChooseAbundance:
    name: str
    kind = ActionKind.CHOOSE_ABUNDANCE


@dataclass(frozen=True)
class AuthorLocation:
    title: str
    description: str
    collateral_target: str
    danger_type: str
    treasure_type: str
    kind = ActionKind.AUTHOR_LOCATION


@dataclass(frozen=True)
class ReviseLocation:
    """The author rewrites one of their saved cards (allowed until the map is dealt)."""

    card_id: CardId
    title: str
    description: str
    collateral_target: str
    danger_type: str
    treasure_type: str
    kind = ActionKind.REVISE_LOCATION


@dataclass(frozen=True)
class DealMap:
    """Shuffle the cards face down into ``columns`` columns.

    ``blanks`` are cells left empty; ``home``, if given, is a blank cell where
    the settlement sits (only cards next to it are reachable from home).
    """

    columns: int
    blanks: frozenset[Cell] = frozenset()
    home: Cell | None = None
    kind = ActionKind.DEAL_MAP


@dataclass(frozen=True)
class RollDangerAndReward:
    kind = ActionKind.ROLL_DANGER_AND_REWARD


SetupAction = (
    ProposeTone
    | AgreeTone
    | BanElement
    | PassBan
    | ChooseFirstSpeaker
    | MakeStatement
    | PassStatement
    | DeclareCardFull
    | AnswerScope
    | FinishScope
    | NameResource
    | ChooseAbundance
    | AuthorLocation
    | ReviseLocation
    | DealMap
    | RollDangerAndReward
)


# ------------------------------------------------------------------------- events


@dataclass(frozen=True)
class StepStarted:
    step: SetupStep


@dataclass(frozen=True)
class ToneProposed:
    by: PlayerId
    notes: str
    safety_tools: frozenset[SafetyTool]


@dataclass(frozen=True)
class ToneAgreed:
    by: PlayerId


@dataclass(frozen=True)
class BanChosen:
    by: PlayerId
    text: str | None  # None: passed


@dataclass(frozen=True)
class SpeakerUp:
    player_id: PlayerId


@dataclass(frozen=True)
class StatementMade:
    by: PlayerId
    index: int
    text: str
    builds_on: int | None


@dataclass(frozen=True)
class StatementPassed:
    by: PlayerId


class SettlementEnd(Enum):
    TWO_PASSES = "two_passes"
    CARD_FULL = "card_full"


@dataclass(frozen=True)
class SettlementFinished:
    reason: SettlementEnd


@dataclass(frozen=True)
class ScopeAnswered:
    by: PlayerId
    question: ScopeQuestion | None
    text: str


@dataclass(frozen=True)
class ResourceNamed:
    by: PlayerId
    name: str


@dataclass(frozen=True)
class AbundanceChosen:
    by: PlayerId
    name: str


@dataclass(frozen=True)
class LocationRevised:
    """Only that an author rewrote one of their cards: never its face."""

    author_id: PlayerId
    draft_id: str


@dataclass(frozen=True)
class LocationAuthored:
    """Only that a card was written: never its face."""

    author_id: PlayerId
    draft_id: str
    written: int  # how many this author has written now


@dataclass(frozen=True)
class MapDealt:
    rows: tuple[tuple[str | None, ...], ...]


@dataclass(frozen=True)
class DangerAndRewardRolled:
    card_id: str
    danger: DangerLevel
    reward: RewardLevel


@dataclass(frozen=True)
class WorldReady:
    pass


SetupEvent = (
    StepStarted
    | ToneProposed
    | ToneAgreed
    | BanChosen
    | SpeakerUp
    | StatementMade
    | StatementPassed
    | SettlementFinished
    | ScopeAnswered
    | ResourceNamed
    | AbundanceChosen
    | LocationAuthored
    | LocationRevised
    | MapDealt
    | DangerAndRewardRolled
    | WorldReady
)


# -------------------------------------------------------------------------- state


@dataclass(frozen=True)
class SetupState:
    """Worldbuilding so far. ``world`` fills up as the steps go by."""

    players: tuple[PlayerId, ...]
    step: SetupStep
    world: World
    tone_proposed: bool = False
    agreed: frozenset[PlayerId] = frozenset()
    done: frozenset[PlayerId] = frozenset()  # who had their ban / named a resource
    speaker: PlayerId | None = None
    first_speaker: PlayerId | None = None
    passes_in_row: int = 0
    settlement_capacity: int = DEFAULT_SETTLEMENT_CAPACITY
    drafts_written: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-able values (secret card faces included: store, never show)."""
        return {
            "version": 1,
            "players": list(self.players),
            "step": self.step.value,
            "world": world_to_dict(self.world),
            "tone_proposed": self.tone_proposed,
            "agreed": sorted(self.agreed),
            "done": sorted(self.done),
            "speaker": self.speaker,
            "first_speaker": self.first_speaker,
            "passes_in_row": self.passes_in_row,
            "settlement_capacity": self.settlement_capacity,
            "drafts_written": self.drafts_written,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SetupState:
        """Rebuild a state stored with :meth:`to_dict`.

        Raises:
            Malformed: the data is not a stored worldbuilding state.
        """
        try:
            if data["version"] != 1:
                raise Malformed("That saved worldbuilding is from an unknown version.")
            return cls(
                players=tuple(int(p) for p in data["players"]),
                step=SetupStep(data["step"]),
                world=world_from_dict(data["world"]),
                tone_proposed=bool(data["tone_proposed"]),
                agreed=frozenset(int(p) for p in data["agreed"]),
                done=frozenset(int(p) for p in data["done"]),
                speaker=None if data["speaker"] is None else int(data["speaker"]),
                first_speaker=None if data["first_speaker"] is None else int(data["first_speaker"]),
                passes_in_row=int(data["passes_in_row"]),
                settlement_capacity=int(data["settlement_capacity"]),
                drafts_written=int(data["drafts_written"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise Malformed("That saved worldbuilding could not be read.") from exc


def new_setup(
    players: Sequence[PlayerId], settlement_capacity: int = DEFAULT_SETTLEMENT_CAPACITY
) -> SetupState:
    """Start worldbuilding for 2-5 players in seating order.

    Raises:
        Malformed: the wrong number of players, a repeated player, or a
            settlement card with no room.
    """
    seats = tuple(players)
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise Malformed(
            "No Stone Unturned is for {low} to {high} players.", low=MIN_PLAYERS, high=MAX_PLAYERS
        )
    if len(set(seats)) != len(seats):
        raise Malformed("Each player can only take one seat.")
    if settlement_capacity < 1:
        raise Malformed("The settlement card needs room for at least one statement.")
    return SetupState(
        players=seats,
        step=SetupStep.TONE,
        world=World(players=seats),
        settlement_capacity=settlement_capacity,
    )


def finished_world(state: SetupState) -> World:
    """The world once every step is done.

    Raises:
        NotAllowedNow: worldbuilding is not finished.
    """
    if state.step is not SetupStep.DONE:
        raise NotAllowedNow("The world isn't finished yet.")
    return state.world


def my_locations(state: SetupState, player_id: PlayerId) -> tuple[LocationCard, ...]:
    """The cards this player wrote (theirs to see in full)."""
    return tuple(c for c in state.world.cards if c.author_id == player_id)


# ------------------------------------------------------------------ who acts now


def _settlement_actions(state: SetupState) -> dict[PlayerId, frozenset[ActionKind]]:
    """Before any statement, anyone picks who speaks first; the speaker states or passes;
    once something is said, anyone may call the card full."""
    out: dict[PlayerId, frozenset[ActionKind]] = {}
    fresh = not state.world.settlement and state.passes_in_row == 0
    for p in state.players:
        kinds = {ActionKind.DECLARE_CARD_FULL} if state.world.settlement else set()
        if fresh:
            kinds.add(ActionKind.CHOOSE_FIRST_SPEAKER)
        if p == state.speaker:
            kinds |= {ActionKind.MAKE_STATEMENT, ActionKind.PASS_STATEMENT}
        if kinds:
            out[p] = frozenset(kinds)
    return out


def allowed_actions(state: SetupState) -> dict[PlayerId, frozenset[ActionKind]]:
    """Who may act now and with which actions; players with nothing are left out."""
    everyone = state.players
    out: dict[PlayerId, frozenset[ActionKind]] = {}
    step = state.step
    if step is SetupStep.TONE:
        for p in everyone:
            kinds = {ActionKind.PROPOSE_TONE}
            if state.tone_proposed and p not in state.agreed:
                kinds.add(ActionKind.AGREE_TONE)
            out[p] = frozenset(kinds)
    elif step is SetupStep.BANS:
        for p in everyone:
            if p not in state.done:
                out[p] = frozenset({ActionKind.BAN, ActionKind.PASS_BAN})
    elif step is SetupStep.SETTLEMENT:
        out = _settlement_actions(state)
    elif step is SetupStep.SCOPE:
        for p in everyone:
            out[p] = frozenset({ActionKind.ANSWER_SCOPE, ActionKind.FINISH_SCOPE})
    elif step is SetupStep.RESOURCES:
        everyone_named = everyone_named_a_resource(state)
        for p in everyone:
            if everyone_named or p not in state.done:
                out[p] = frozenset({ActionKind.NAME_RESOURCE})
    elif step is SetupStep.ABUNDANCE:
        for p in everyone:
            out[p] = frozenset({ActionKind.CHOOSE_ABUNDANCE})
    elif step is SetupStep.LOCATIONS:
        for p in everyone:
            if _written_by(state, p) < LOCATIONS_PER_PLAYER:
                out[p] = frozenset({ActionKind.AUTHOR_LOCATION})
    elif step is SetupStep.MAP:
        for p in everyone:
            out[p] = frozenset({ActionKind.DEAL_MAP})
    elif step is SetupStep.DANGER_AND_REWARD:
        for p in everyone:
            out[p] = frozenset({ActionKind.ROLL_DANGER_AND_REWARD})
    return out


def may_author(state: SetupState | None, player_id: PlayerId) -> bool:
    """Whether ``player_id`` may write a location card now (the Mini App's form)."""
    if state is None:
        return False
    return ActionKind.AUTHOR_LOCATION in allowed_actions(state).get(player_id, frozenset())


REVISABLE_STEPS = frozenset({SetupStep.LOCATIONS, SetupStep.MAP})


def may_revise(state: SetupState | None, player_id: PlayerId, card_id: str | None = None) -> bool:
    """Whether ``player_id`` may rewrite their card ``card_id`` (or any of theirs) now.

    An author edits their own cards, and only theirs, until the map is dealt.
    """
    if state is None or state.step not in REVISABLE_STEPS:
        return False
    return any(
        c.author_id == player_id and (card_id is None or c.id == card_id) for c in state.world.cards
    )


def everyone_named_a_resource(state: SetupState) -> bool:
    """Whether the round of one resource each is over (then anyone names the rest)."""
    return state.step is SetupStep.RESOURCES and state.done >= set(state.players)


def _written_by(state: SetupState, player_id: PlayerId) -> int:
    return sum(1 for c in state.world.cards if c.author_id == player_id)


# Why an action doesn't fit now: what the table is busy with.
_BUSY_WITH: dict[SetupStep, str] = {
    SetupStep.TONE: N_("Not now: the table is busy with the tone talk."),
    SetupStep.BANS: N_("Not now: the table is busy with banning story elements."),
    SetupStep.SETTLEMENT: N_("Not now: the table is busy with drawing the settlement."),
    SetupStep.SCOPE: N_("Not now: the table is busy with the scope of adventures."),
    SetupStep.RESOURCES: N_("Not now: the table is busy with naming resources."),
    SetupStep.ABUNDANCE: N_("Not now: the table is busy with choosing the abundance."),
    SetupStep.LOCATIONS: N_("Not now: the table is busy with writing locations."),
    SetupStep.MAP: N_("Not now: the table is busy with dealing the map."),
    SetupStep.DANGER_AND_REWARD: N_("Not now: the table is busy with rolling Danger and Reward."),
    SetupStep.DONE: N_("Not now: the table is busy with nothing: the world is built."),
}
_STEP_NAMES: dict[SetupStep, str] = {
    SetupStep.TONE: N_("the tone talk"),
    SetupStep.BANS: N_("banning story elements"),
    SetupStep.SETTLEMENT: N_("drawing the settlement"),
    SetupStep.SCOPE: N_("the scope of adventures"),
    SetupStep.RESOURCES: N_("naming resources"),
    SetupStep.ABUNDANCE: N_("choosing the abundance"),
    SetupStep.LOCATIONS: N_("writing locations"),
    SetupStep.MAP: N_("dealing the map"),
    SetupStep.DANGER_AND_REWARD: N_("rolling Danger and Reward"),
    SetupStep.DONE: N_("nothing: the world is built"),
}


def _check_permission(state: SetupState, actor: PlayerId, kind: ActionKind) -> None:
    if actor not in state.players:
        raise NotAllowedNow("You're not building this world; ask to join the table first.")
    allowed = allowed_actions(state)
    if kind in allowed.get(actor, frozenset()):
        return
    if any(kind in kinds for kinds in allowed.values()):
        if state.step is SetupStep.SETTLEMENT and kind in (
            ActionKind.MAKE_STATEMENT,
            ActionKind.PASS_STATEMENT,
        ):
            raise NotYourTurn("It's another player's turn to add to the settlement.")
        raise NotYourTurn("You've done your part here; waiting for the others.")
    if state.step is SetupStep.TONE and kind is ActionKind.AGREE_TONE:
        if not state.tone_proposed:
            raise NotAllowedNow("Nobody has written down a tone to agree with yet.")
        raise NotAllowedNow("You've already agreed to this tone.")
    raise NotAllowedNow(_BUSY_WITH[state.step])


# --------------------------------------------------------------------------- apply

Result = tuple[SetupState, tuple[SetupEvent, ...]]


def apply(
    state: SetupState, actor: PlayerId, action: SetupAction, rng: Rng | None = None
) -> Result:
    """Apply one player's action.

    Args:
        state: the current worldbuilding.
        actor: the player acting.
        action: what they do.
        rng: needed for :class:`DealMap` and :class:`RollDangerAndReward`.

    Returns:
        The new state and what happened, in order.

    Raises:
        Malformed, NotAllowedNow, NotYourTurn: see the module docstring.
    """
    if isinstance(action, ReviseLocation):
        return _revise(state, actor, action)
    _check_permission(state, actor, action.kind)
    match action:
        case ProposeTone():
            return _propose_tone(state, actor, action)
        case AgreeTone():
            return _agree_tone(state, actor)
        case BanElement():
            text = clean_text(action.text, "Write what you want to ban, or pass.", 200)
            return _ban(state, actor, text)
        case PassBan():
            return _ban(state, actor, None)
        case ChooseFirstSpeaker():
            if action.player_id not in state.players:
                raise Malformed("Pick someone at the table to go first.")
            return replace(state, speaker=action.player_id, first_speaker=action.player_id), (
                SpeakerUp(action.player_id),
            )
        case MakeStatement():
            return _statement(state, actor, action)
        case PassStatement():
            return _pass_statement(state, actor)
        case DeclareCardFull():
            return _finish_settlement(state, SettlementEnd.CARD_FULL, ())
        case AnswerScope():
            text = clean_text(action.text, "Write an answer.")
            answer = ScopeAnswer(action.question, text, actor)
            world = replace(state.world, scope=(*state.world.scope, answer))
            return replace(state, world=world), (ScopeAnswered(actor, action.question, text),)
        case FinishScope():
            return _advance(state, ())
        case NameResource():
            return _name_resource(state, actor, action.name)
        case ChooseAbundance():
            return _choose_abundance(state, actor, action.name)
        case AuthorLocation():
            return _author(state, actor, action)
        case DealMap():
            return _deal(state, action, _need_rng(rng))
        case RollDangerAndReward():
            return _roll_all(state, _need_rng(rng))
    raise Malformed("That's not a worldbuilding action.")  # pragma: no cover


def _need_rng(rng: Rng | None) -> Rng:
    if rng is None:
        raise Malformed("This step needs dice.")
    return rng


def _advance(state: SetupState, events: tuple[SetupEvent, ...]) -> Result:
    """Move to the next step and set up its turn data."""
    nxt = _ORDER[_ORDER.index(state.step) + 1]
    state = replace(state, step=nxt, done=frozenset(), passes_in_row=0)
    out: list[SetupEvent] = [*events, StepStarted(nxt)]
    if nxt is SetupStep.SETTLEMENT:
        state = replace(state, speaker=state.players[0], first_speaker=state.players[0])
        out.append(SpeakerUp(state.players[0]))
    if nxt is SetupStep.DONE:
        out.append(WorldReady())
    return state, tuple(out)


def _propose_tone(state: SetupState, actor: PlayerId, action: ProposeTone) -> Result:
    notes = clean_text(action.notes, "Write a few words about the tone you agreed on.", 1000)
    tools = frozenset(action.safety_tools)
    if not tools or not all(isinstance(t, SafetyTool) for t in tools):
        raise Malformed("Choose at least one safety tool: X-Card, Lines and Veils or Knocks.")
    world = replace(state.world, tone=notes, safety_tools=tools)
    # A new proposal needs everyone's agreement again; the proposer agrees.
    state = replace(state, world=world, tone_proposed=True, agreed=frozenset({actor}))
    return _maybe_tone_done(state, (ToneProposed(actor, notes, tools), ToneAgreed(actor)))


def _agree_tone(state: SetupState, actor: PlayerId) -> Result:
    state = replace(state, agreed=state.agreed | {actor})
    return _maybe_tone_done(state, (ToneAgreed(actor),))


def _maybe_tone_done(state: SetupState, events: tuple[SetupEvent, ...]) -> Result:
    if state.agreed >= set(state.players):
        return _advance(replace(state, agreed=frozenset()), events)
    return state, events


def _ban(state: SetupState, actor: PlayerId, text: str | None) -> Result:
    world = state.world
    if text is not None:
        if any(b.text.casefold() == text.casefold() for b in world.bans):
            raise NotAllowedNow("That's already banned; ban something else or pass.")
        world = replace(world, bans=(*world.bans, Ban(actor, text)))
    state = replace(state, world=world, done=state.done | {actor})
    events: tuple[SetupEvent, ...] = (BanChosen(actor, text),)
    if state.done >= set(state.players):
        return _advance(state, events)
    return state, events


def _next_seat(state: SetupState, player: PlayerId) -> PlayerId:
    i = state.players.index(player)
    return state.players[(i + 1) % len(state.players)]


def _statement(state: SetupState, actor: PlayerId, action: MakeStatement) -> Result:
    text = clean_text(action.text, "Say one thing about the settlement, or pass.", 300)
    count = len(state.world.settlement)
    if action.builds_on is not None and not 0 <= action.builds_on < count:
        raise Malformed("That statement to build on doesn't exist.")
    index = count
    world = replace(
        state.world, settlement=(*state.world.settlement, Statement(actor, text, action.builds_on))
    )
    state = replace(state, world=world, passes_in_row=0)
    events: tuple[SetupEvent, ...] = (StatementMade(actor, index, text, action.builds_on),)
    if len(world.settlement) >= state.settlement_capacity:
        return _finish_settlement(state, SettlementEnd.CARD_FULL, events)
    nxt = _next_seat(state, actor)
    return replace(state, speaker=nxt), (*events, SpeakerUp(nxt))


def _pass_statement(state: SetupState, actor: PlayerId) -> Result:
    state = replace(state, passes_in_row=state.passes_in_row + 1)
    events: tuple[SetupEvent, ...] = (StatementPassed(actor),)
    if state.passes_in_row >= PASSES_TO_END_SETTLEMENT:
        return _finish_settlement(state, SettlementEnd.TWO_PASSES, events)
    nxt = _next_seat(state, actor)
    return replace(state, speaker=nxt), (*events, SpeakerUp(nxt))


def _finish_settlement(
    state: SetupState, reason: SettlementEnd, events: tuple[SetupEvent, ...]
) -> Result:
    state = replace(state, speaker=None)
    return _advance(state, (*events, SettlementFinished(reason)))


def _name_resource(state: SetupState, actor: PlayerId, name: str) -> Result:
    clean = clean_text(name, "Name a resource your community needs.", 80)
    if any(r.name.casefold() == clean.casefold() for r in state.world.resources):
        raise NotAllowedNow("{name} is already on the list; name another.", name=clean)
    resource = Resource(clean, ResourceLevel.SCARCITY)
    world = replace(state.world, resources=(*state.world.resources, resource))
    state = replace(state, world=world, done=state.done | {actor})
    events: tuple[SetupEvent, ...] = (ResourceNamed(actor, clean),)
    if len(world.resources) >= RESOURCE_COUNT:
        return _advance(state, events)
    return state, events


def _choose_abundance(state: SetupState, actor: PlayerId, name: str) -> Result:
    chosen = state.world.resource(name)
    resources = tuple(
        Resource(r.name, ResourceLevel.ABUNDANCE if r is chosen else ResourceLevel.SCARCITY)
        for r in state.world.resources
    )
    state = replace(state, world=replace(state.world, resources=resources))
    return _advance(state, (AbundanceChosen(actor, chosen.name),))


def _written_card(
    card_id: CardId, actor: PlayerId, action: AuthorLocation | ReviseLocation
) -> LocationCard:
    return LocationCard(
        id=card_id,
        author_id=actor,
        title=clean_text(action.title, "Give the location a title.", 80),
        description=clean_text(action.description, "Describe the location in a few lines.", 1000),
        collateral_target=clean_text(
            action.collateral_target, "Say what here could be harmed by the explorers.", 200
        ),
        danger_type=clean_text(action.danger_type, "Say what kind of danger lurks here.", 200),
        treasure_type=clean_text(
            action.treasure_type, "Say what treasure or knowledge is here.", 200
        ),
    )


def _author(state: SetupState, actor: PlayerId, action: AuthorLocation) -> Result:
    card = _written_card(f"draft-{state.drafts_written + 1}", actor, action)
    world = replace(state.world, cards=(*state.world.cards, card))
    state = replace(state, world=world, drafts_written=state.drafts_written + 1)
    events: tuple[SetupEvent, ...] = (LocationAuthored(actor, card.id, _written_by(state, actor)),)
    if all(_written_by(state, p) >= LOCATIONS_PER_PLAYER for p in state.players):
        return _advance(state, events)
    return state, events


def _revise(state: SetupState, actor: PlayerId, action: ReviseLocation) -> Result:
    """Rewrite a saved card: its author only, and only until the map is dealt."""
    if state.step not in REVISABLE_STEPS:
        raise NotAllowedNow("The map is dealt: the location cards can no longer be rewritten.")
    old = next((c for c in state.world.cards if c.id == action.card_id), None)
    if old is None:
        raise Malformed("There is no such location card.")
    if old.author_id != actor:
        raise NotYourTurn("Only its author may rewrite a location card.")
    card = _written_card(old.id, actor, action)
    cards = tuple(card if c.id == old.id else c for c in state.world.cards)
    world = replace(state.world, cards=cards)
    return replace(state, world=world), (LocationRevised(actor, old.id),)


def _deal(state: SetupState, action: DealMap, rng: Rng) -> Result:
    if not 1 <= action.columns <= MAX_MAP_COLUMNS:
        raise Malformed("The map can be 1 to {limit} cards wide.", limit=MAX_MAP_COLUMNS)
    blanks = set(action.blanks)
    if action.home is not None:
        blanks.add(action.home)
    grid = deal_grid((c.id for c in state.world.cards), action.columns, blanks, rng)
    if action.home is not None:
        grid = replace(grid, home=action.home)
    # Renumber in map order so that ids don't reveal who wrote what.
    new_ids = {old: f"L{i + 1}" for i, old in enumerate(grid.card_ids())}
    rows = tuple(tuple(None if c is None else new_ids[c] for c in row) for row in grid.rows)
    grid = replace(grid, rows=rows)
    by_old = {c.id: c for c in state.world.cards}
    cards = tuple(replace(by_old[old], id=new) for old, new in new_ids.items())
    world = replace(state.world, cards=cards, grid=grid)
    return _advance(replace(state, world=world), (MapDealt(rows),))


def _roll_all(state: SetupState, rng: Rng) -> Result:
    cards = []
    events: list[SetupEvent] = []
    for card in state.world.cards:
        danger, reward = roll_danger_and_reward(rng)
        cards.append(replace(card, danger=danger, reward=reward))
        events.append(DangerAndRewardRolled(card.id, danger, reward))
    world = replace(state.world, cards=tuple(cards))
    return _advance(replace(state, world=world), tuple(events))


def _done_if_nobody_waits(state: SetupState, events: tuple[SetupEvent, ...]) -> Result:
    """A step that waited only on someone who left is done."""
    players, step = state.players, state.step
    if step is SetupStep.TONE and state.tone_proposed and state.agreed >= set(players):
        return _advance(replace(state, agreed=frozenset()), events)
    if step is SetupStep.BANS and state.done >= set(players):
        return _advance(state, events)
    if step is SetupStep.LOCATIONS and all(
        _written_by(state, p) >= LOCATIONS_PER_PLAYER for p in players
    ):
        return _advance(state, events)
    return state, events


def without_player(state: SetupState, player_id: PlayerId) -> Result:
    """Worldbuilding after a player left the table: nobody waits on them.

    They leave the turn order and the party. What they already added stays: their
    bans, statements, answers, resources and the location cards they wrote (a card
    half the table has never read is still a place on the map). A step that was
    waiting only on them is done; a settlement turn that was theirs passes to the
    next seat, without counting as a pass. Nothing changes for someone not in it.
    """
    if player_id not in state.players:
        return state, ()
    players = tuple(p for p in state.players if p != player_id)
    world = replace(state.world, players=tuple(p for p in state.world.players if p != player_id))
    events: tuple[SetupEvent, ...] = ()
    speaker, first = state.speaker, state.first_speaker
    if speaker == player_id:
        speaker = _next_seat(state, player_id) if players else None
        if speaker is not None:
            events = (SpeakerUp(speaker),)
    if first == player_id:
        first = speaker
    state = replace(
        state,
        players=players,
        world=world,
        agreed=state.agreed - {player_id},
        done=state.done - {player_id},
        speaker=speaker,
        first_speaker=first,
    )
    if not players:
        return state, events
    return _done_if_nobody_waits(state, events)


def expected_step_order() -> tuple[SetupStep, ...]:
    """The steps in the order they happen."""
    return _ORDER


def describe_step(step: SetupStep) -> str:
    """A short label for a step, in the product's words."""
    return _STEP_NAMES[step]


__all__ = [
    "DEFAULT_SETTLEMENT_CAPACITY",
    "LOCATIONS_PER_PLAYER",
    "ActionKind",
    "SetupAction",
    "SetupEvent",
    "SetupState",
    "SetupStep",
    "allowed_actions",
    "apply",
    "describe_step",
    "everyone_named_a_resource",
    "expected_step_order",
    "finished_world",
    "may_author",
    "may_revise",
    "my_locations",
    "new_setup",
    "without_player",
]
