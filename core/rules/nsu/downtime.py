"""Downtime for No Stone Unturned: complications, free actions and downtime actions.

Drive it like this::

    state, events = begin_downtime(world, {alice: sheet_a, bob: sheet_b}, DowntimePlace.HOME, rng)
    allowed_actions(state)                      # {player: {DowntimeKind, ...}}
    state, events = apply(state, alice, RecoverHarm(((0, "Stiff wrist"),)), rng)
    state, events = apply(state, bob, SeekRecovery(healer=True), rng)
    state, events = apply(state, alice, EndDowntime(), rng)
    world, sheets = state.world, state.sheet_map()

Where an action needs an Action Roll (Scout), the roll is played with
:mod:`core.rules.nsu.action_roll` and its :class:`Outcome` is passed in here.

Invariants:

* Every Collateral Clock stays within 0..8; a clock at 0 makes no complication
  and a full clock (8) has come to pass without a roll (ruling 9).
* A player spends at most the downtime actions they have (one, plus one per
  extra unit of time), and each free action at most once per phase.
* Recovery points never pass 4 (ruling 11); the sheet keeps its own invariants.
* An Overcome character can only recover (Recover Harm, Seek Recovery) or
  upgrade skills until a harm is cleared.
* At most one Address Collateral plan is open at a time, and at most one
  introspection per player; while it is open, that player does nothing else.
* A mood whose last box is marked outside an Action Roll (a Reconnect's raise,
  or a level an introspection swap moves onto a shorter track) fills its track
  (ruling 23): the level goes back to 0 at once, then its player marks a
  sentiment (if one is written and not lost) and gives the mood a stronger
  name, before anything else. No level ever sits on a track's last box.
* A refused action raises and changes nothing (every value is immutable).
* :meth:`DowntimeState.to_dict` / :meth:`DowntimeState.from_dict` round-trip.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from core.rules.catalogue import N_
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu.action_roll import Outcome, RollState, Winner
from core.rules.nsu.codec import from_plain, to_plain
from core.rules.nsu.sheet import Aspect, Character, SentimentState
from core.rules.nsu.world import (
    CLOCK_SEGMENTS,
    CardId,
    PlayerId,
    Project,
    ResourceLevel,
    RewardLevel,
    World,
    WorldEvent,
    add_resource,
    clean_text,
    improve_resource,
    move_collateral,
    reachable_cards,
    record_scout,
    tick_collateral,
    untick_collateral,
    world_from_dict,
    world_to_dict,
)
from core.rules.rng import Rng, roll_die

RECONNECT_LOST_RAISE = 3
RECONNECT_AT_RISK_RAISE = 2
FORGE_SENTIMENT_RAISE = 4
HOME_RECOVERY_POINTS = 1


class DowntimePlace(Enum):
    """Home (rest easy: a recovery point each) or a safe camp elsewhere."""

    HOME = "home"
    CAMP = "camp"


# ------------------------------------------------------------------ complications


class Complication(Enum):
    """How the harm left at a location moves on while the explorers are away."""

    AREA_RECOVERS = "area_recovers"
    PROBLEM_INTENSIFIES = "problem_intensifies"
    SIDE_EFFECT = "side_effect"
    RELATIONS_WORSEN = "relations_worsen"
    PROBLEM_SPREADS = "problem_spreads"
    THOSE_AFFECTED_FLEE = "those_affected_flee"
    FULLY_COME_TO_PASS = "fully_come_to_pass"

    @property
    def prompt(self) -> str:
        """A short prompt for the table, in the product's words."""
        return _PROMPTS[self]


_PROMPTS: dict[Complication, str] = {
    Complication.AREA_RECOVERS: N_("The place gets a breather and begins to mend."),
    Complication.PROBLEM_INTENSIFIES: N_("The damage you left grows worse where it started."),
    Complication.SIDE_EFFECT: N_("Something nobody saw coming grows out of what you did."),
    Complication.RELATIONS_WORSEN: N_("Those touched by it think less of you and your home."),
    Complication.PROBLEM_SPREADS: N_("The trouble leaks out to somewhere else nearby."),
    Complication.THOSE_AFFECTED_FLEE: N_("The ones living with the harm pack up and leave."),
    Complication.FULLY_COME_TO_PASS: N_(
        "The clock is full: the harm has happened in full. Tell it."
    ),
}

# (lowest ticks, highest ticks) -> rows of (lowest d6 face, highest d6 face, options).
# Where a row offers two options, the table picks the one that fits the story.
COMPLICATION_TABLES: dict[
    tuple[int, int], tuple[tuple[int, int, tuple[Complication, ...]], ...]
] = {
    (1, 3): (
        (1, 1, (Complication.AREA_RECOVERS,)),
        (2, 3, (Complication.PROBLEM_INTENSIFIES, Complication.SIDE_EFFECT)),
        (4, 5, (Complication.RELATIONS_WORSEN,)),
        (6, 6, (Complication.PROBLEM_SPREADS,)),
    ),
    (4, 5): (
        (1, 3, (Complication.PROBLEM_INTENSIFIES, Complication.RELATIONS_WORSEN)),
        (4, 5, (Complication.PROBLEM_SPREADS,)),
        (6, 6, (Complication.THOSE_AFFECTED_FLEE,)),
    ),
    (6, 7): (
        (1, 3, (Complication.RELATIONS_WORSEN, Complication.PROBLEM_SPREADS)),
        (4, 5, (Complication.THOSE_AFFECTED_FLEE,)),
        (6, 6, (Complication.PROBLEM_INTENSIFIES,)),
    ),
}


def complication_options(ticks: int, face: int) -> tuple[Complication, ...]:
    """Read the table for ``ticks`` (1..7) at d6 ``face``.

    Raises:
        Malformed: ticks outside 1..7 or a face outside 1..6.
    """
    if not 1 <= face <= 6:
        raise Malformed("A complication roll is a d6.")
    for (low, high), rows in COMPLICATION_TABLES.items():
        if low <= ticks <= high:
            for first, last, options in rows:
                if first <= face <= last:
                    return options
    raise Malformed("Complication tables cover clocks with 1 to 7 ticks.")


@dataclass(frozen=True)
class ComplicationRoll:
    """A complication at one location.

    ``face`` is None when there was no roll: at 0 ticks (``options`` empty,
    nothing progresses) and at 8 (the harm has fully come to pass).
    """

    card_id: CardId
    ticks: int
    face: int | None
    options: tuple[Complication, ...]


def roll_complication(world: World, card_id: CardId, rng: Rng) -> ComplicationRoll:
    """Roll for complications at a location, using its clock's table (ruling 9)."""
    ticks = world.card(card_id).clock.ticks
    if ticks == 0:
        return ComplicationRoll(card_id, 0, None, ())
    if ticks == CLOCK_SEGMENTS:
        return ComplicationRoll(card_id, ticks, None, (Complication.FULLY_COME_TO_PASS,))
    face = roll_die(rng, 6)
    return ComplicationRoll(card_id, ticks, face, complication_options(ticks, face))


# ------------------------------------------------------------------------ actions


class DowntimeKind(Enum):
    """Every kind of downtime action."""

    RECOVER_HARM = "recover_harm"  # free
    UPGRADE_SKILLS = "upgrade_skills"  # free
    WORK_ON_PROJECT = "work_on_project"
    RECONNECT = "reconnect"
    INTROSPECT = "introspect"
    REDUCE_MOOD = "reduce_mood"
    SWAP_MOODS = "swap_moods"
    REPLACE_MOOD = "replace_mood"
    FINISH_INTROSPECTION = "finish_introspection"
    ENDANGER_SENTIMENT = "endanger_sentiment"  # after a mood filled its track
    RENAME_MOOD = "rename_mood"  # after a mood filled its track
    PROPOSE_PLAN = "propose_plan"
    VOTE_ON_PLAN = "vote_on_plan"
    PIVOT_PLAN = "pivot_plan"
    ROLL_FOR_PLAN = "roll_for_plan"
    ADD_DIE_TO_PLAN = "add_die_to_plan"
    SETTLE_PLAN = "settle_plan"
    TRAIN_SKILLS = "train_skills"
    SEEK_RECOVERY = "seek_recovery"
    SCOUT = "scout"
    SPEND_MORE_TIME = "spend_more_time"
    TICK_COLLATERAL = "tick_collateral"
    UNTICK_COLLATERAL = "untick_collateral"
    BRING_REWARD_HOME = "bring_reward_home"
    END_DOWNTIME = "end_downtime"


# Actions that cost one downtime action.
COSTS_AN_ACTION = frozenset(
    {
        DowntimeKind.WORK_ON_PROJECT,
        DowntimeKind.RECONNECT,
        DowntimeKind.INTROSPECT,
        DowntimeKind.PROPOSE_PLAN,
        DowntimeKind.ADD_DIE_TO_PLAN,
        DowntimeKind.TRAIN_SKILLS,
        DowntimeKind.SEEK_RECOVERY,
        DowntimeKind.SCOUT,
    }
)
# What an Overcome character may still do.
WHILE_OVERCOME = frozenset(
    {DowntimeKind.RECOVER_HARM, DowntimeKind.SEEK_RECOVERY, DowntimeKind.UPGRADE_SKILLS}
)
# Things a player does, not their character: never blocked by Overcome.
TABLE_KINDS = frozenset(
    {
        DowntimeKind.VOTE_ON_PLAN,
        DowntimeKind.SETTLE_PLAN,
        DowntimeKind.PIVOT_PLAN,
        DowntimeKind.ROLL_FOR_PLAN,
        DowntimeKind.SPEND_MORE_TIME,
        DowntimeKind.TICK_COLLATERAL,
        DowntimeKind.UNTICK_COLLATERAL,
        DowntimeKind.BRING_REWARD_HOME,
        DowntimeKind.END_DOWNTIME,
    }
)
INTROSPECTION_KINDS = frozenset(
    {
        DowntimeKind.REDUCE_MOOD,
        DowntimeKind.SWAP_MOODS,
        DowntimeKind.REPLACE_MOOD,
        DowntimeKind.FINISH_INTROSPECTION,
    }
)
# The choices a filled mood track leaves (ruling 23).
FILLED_TRACK_KINDS = frozenset({DowntimeKind.ENDANGER_SENTIMENT, DowntimeKind.RENAME_MOOD})


@dataclass(frozen=True)
class RecoverHarm:
    """Free: turn harms into scars, each costing as many points as harms held.

    ``conversions`` are (harm line index, scar) pairs, applied in order; indices
    refer to the harm list as it stands when that conversion happens.
    """

    conversions: tuple[tuple[int, str], ...]
    kind = DowntimeKind.RECOVER_HARM


@dataclass(frozen=True)
class UpgradeSkills:
    """Free: raise each listed skill with all three boxes marked (all ready ones if empty)."""

    skills: tuple[int, ...] = ()
    kind = DowntimeKind.UPGRADE_SKILLS


@dataclass(frozen=True)
class NewProject:
    name: str
    segments: int
    resource: str | None = None
    card_id: CardId | None = None


@dataclass(frozen=True)
class WorkOnProject:
    """Advance a project (existing by id, or ``new``) by rolling a mood and an aspect.

    The skill, if any, is added or subtracted, whichever widens the gap, and
    its box for the aspect is marked (ruling 5).
    """

    mood: int
    aspect: Aspect
    project_id: str | None = None
    new: NewProject | None = None
    skill: int | None = None
    kind = DowntimeKind.WORK_ON_PROJECT


@dataclass(frozen=True)
class Reconnect:
    """Reconnect with a lost or at-risk sentiment, or ``forge`` a new one on a lost/blank line."""

    sentiment: int
    mood: int
    forge: str | None = None
    kind = DowntimeKind.RECONNECT


@dataclass(frozen=True)
class Introspect:
    """Roll the Heart die; then reduce moods, swap two, replace one, and finish."""

    kind = DowntimeKind.INTROSPECT


@dataclass(frozen=True)
class ReduceMood:
    mood: int
    amount: int
    kind = DowntimeKind.REDUCE_MOOD


@dataclass(frozen=True)
class SwapMoods:
    first: int
    second: int
    kind = DowntimeKind.SWAP_MOODS


@dataclass(frozen=True)
class ReplaceMood:
    mood: int
    name: str
    kind = DowntimeKind.REPLACE_MOOD


@dataclass(frozen=True)
class FinishIntrospection:
    kind = DowntimeKind.FINISH_INTROSPECTION


@dataclass(frozen=True)
class EndangerSentiment:
    """Mark the next box of a sentiment, after a mood filled its track (ruling 23)."""

    sentiment: int
    kind = DowntimeKind.ENDANGER_SENTIMENT


@dataclass(frozen=True)
class RenameMood:
    """Give the mood that filled its track a stronger name (ruling 23)."""

    name: str
    kind = DowntimeKind.RENAME_MOOD


@dataclass(frozen=True)
class ProposePlan:
    """Address Collateral: a plan to undo the harm at a location."""

    card_id: CardId
    plan: str
    kind = DowntimeKind.PROPOSE_PLAN


@dataclass(frozen=True)
class VoteOnPlan:
    """Another player says whether the plan is sound and affordable (+1) or not (-1)."""

    support: bool
    kind = DowntimeKind.VOTE_ON_PLAN


@dataclass(frozen=True)
class PivotPlan:
    """Instead of rolling, turn the plan into a long-term project."""

    name: str
    segments: int
    kind = DowntimeKind.PIVOT_PLAN


@dataclass(frozen=True)
class RollForPlan:
    kind = DowntimeKind.ROLL_FOR_PLAN


@dataclass(frozen=True)
class AddDieToPlan:
    """Spend a downtime action to add one of your aspect dice to the open plan."""

    aspect: Aspect
    kind = DowntimeKind.ADD_DIE_TO_PLAN


@dataclass(frozen=True)
class SettlePlan:
    kind = DowntimeKind.SETTLE_PLAN


@dataclass(frozen=True)
class TrainSkills:
    """Roll an aspect die; mark that aspect's box on that many of ``skills`` (in order)."""

    aspect: Aspect
    skills: tuple[int, ...]
    kind = DowntimeKind.TRAIN_SKILLS


@dataclass(frozen=True)
class SeekRecovery:
    """Roll Body (twice with a healer) plus skills; a helper adds Heart plus skills."""

    healer: bool = False
    skills: tuple[int, ...] = ()
    helper: PlayerId | None = None
    helper_skills: tuple[int, ...] = ()
    kind = DowntimeKind.SEEK_RECOVERY


@dataclass(frozen=True)
class Scout:
    """Scout a face-down card nearby, after an Action Roll played in action_roll.

    With a loss or a tie the player chooses: ``accept_details`` to press on and
    look, or turn back home without looking.
    """

    card_id: CardId
    outcome: Outcome
    accept_details: bool = False
    kind = DowntimeKind.SCOUT


@dataclass(frozen=True)
class SpendMoreTime:
    """Another unit of time per listed location: an extra action each, and a
    complication rolled at each listed (revealed) location."""

    locations: tuple[CardId, ...]
    kind = DowntimeKind.SPEND_MORE_TIME


@dataclass(frozen=True)
class TickCollateral:
    card_id: CardId
    count: int = 1
    kind = DowntimeKind.TICK_COLLATERAL


@dataclass(frozen=True)
class UntickCollateral:
    card_id: CardId
    count: int = 1
    kind = DowntimeKind.UNTICK_COLLATERAL


@dataclass(frozen=True)
class BringRewardHome:
    """Bring a location's reward home to help ``resource`` (new name: a new abundance, R3+)."""

    card_id: CardId
    resource: str
    kind = DowntimeKind.BRING_REWARD_HOME


@dataclass(frozen=True)
class EndDowntime:
    kind = DowntimeKind.END_DOWNTIME


DowntimeAction = (
    RecoverHarm
    | UpgradeSkills
    | WorkOnProject
    | Reconnect
    | Introspect
    | ReduceMood
    | SwapMoods
    | ReplaceMood
    | FinishIntrospection
    | EndangerSentiment
    | RenameMood
    | ProposePlan
    | VoteOnPlan
    | PivotPlan
    | RollForPlan
    | AddDieToPlan
    | SettlePlan
    | TrainSkills
    | SeekRecovery
    | Scout
    | SpendMoreTime
    | TickCollateral
    | UntickCollateral
    | BringRewardHome
    | EndDowntime
)


# ------------------------------------------------------------------------- events


@dataclass(frozen=True)
class ComplicationRolled:
    roll: ComplicationRoll


@dataclass(frozen=True)
class RecoveryPointsTaken:
    player_id: PlayerId
    gained: int
    total: int


@dataclass(frozen=True)
class TimeSpent:
    units: int
    actions_each: int


@dataclass(frozen=True)
class HarmRecovered:
    player_id: PlayerId
    harm: str
    scar: str
    cost: int


@dataclass(frozen=True)
class SkillUpgraded:
    player_id: PlayerId
    skill: str
    modifier: int


@dataclass(frozen=True)
class ProjectStarted:
    project: Project


@dataclass(frozen=True)
class ProjectProgressed:
    project_id: str
    mood_face: int
    aspect_face: int
    skill_shift: int
    marked: int
    filled: int
    segments: int


@dataclass(frozen=True)
class ProjectCompleted:
    project_id: str


@dataclass(frozen=True)
class SentimentReconnected:
    player_id: PlayerId
    sentiment: int
    state: SentimentState
    forged: bool
    mood: int
    mood_raised_by: int
    mood_track_full: bool


@dataclass(frozen=True)
class IntrospectionRolled:
    player_id: PlayerId
    heart_face: int


@dataclass(frozen=True)
class MoodReduced:
    player_id: PlayerId
    mood: int
    amount: int
    remaining: int


@dataclass(frozen=True)
class MoodsSwapped:
    player_id: PlayerId
    first: int
    second: int


@dataclass(frozen=True)
class MoodReplaced:
    player_id: PlayerId
    mood: int
    name: str


@dataclass(frozen=True)
class IntrospectionFinished:
    player_id: PlayerId
    unused: int


@dataclass(frozen=True)
class MoodTrackFilled:
    """A mood's last box was marked outside a roll; its level is back to 0 (ruling 23)."""

    player_id: PlayerId
    mood: int
    name: str
    sentiment_to_mark: bool


@dataclass(frozen=True)
class SentimentEndangered:
    player_id: PlayerId
    sentiment: int
    state: SentimentState


@dataclass(frozen=True)
class MoodRenamed:
    player_id: PlayerId
    mood: int
    old: str
    new: str


@dataclass(frozen=True)
class PlanProposed:
    player_id: PlayerId
    card_id: CardId
    plan: str


@dataclass(frozen=True)
class PlanVoted:
    player_id: PlayerId
    support: bool


@dataclass(frozen=True)
class PlanDieRolled:
    player_id: PlayerId
    aspect: Aspect
    face: int
    total: int
    result: int


@dataclass(frozen=True)
class PlanSettled:
    card_id: CardId
    result: int
    before: int
    after: int


@dataclass(frozen=True)
class PlanPivoted:
    project_id: str


@dataclass(frozen=True)
class SkillsTrained:
    player_id: PlayerId
    aspect: Aspect
    face: int
    skills: tuple[str, ...]


@dataclass(frozen=True)
class RecoverySought:
    player_id: PlayerId
    body_faces: tuple[int, ...]
    skill_bonus: int
    helper_face: int | None
    helper_bonus: int
    total: int
    gained: int


@dataclass(frozen=True)
class ScoutLooked:
    """Only the scout learns the face: render privately (see world.visible_card)."""

    player_id: PlayerId
    card_id: CardId


@dataclass(frozen=True)
class ScoutTurnedBack:
    player_id: PlayerId
    card_id: CardId


@dataclass(frozen=True)
class RewardBroughtHome:
    card_id: CardId
    resource: str
    steps: int
    needs_project: bool


@dataclass(frozen=True)
class DowntimeEnded:
    pass


DowntimeEvent = (
    ComplicationRolled
    | RecoveryPointsTaken
    | TimeSpent
    | HarmRecovered
    | SkillUpgraded
    | ProjectStarted
    | ProjectProgressed
    | ProjectCompleted
    | SentimentReconnected
    | IntrospectionRolled
    | MoodReduced
    | MoodsSwapped
    | MoodReplaced
    | IntrospectionFinished
    | MoodTrackFilled
    | SentimentEndangered
    | MoodRenamed
    | PlanProposed
    | PlanVoted
    | PlanDieRolled
    | PlanSettled
    | PlanPivoted
    | SkillsTrained
    | RecoverySought
    | ScoutLooked
    | ScoutTurnedBack
    | RewardBroughtHome
    | DowntimeEnded
    | WorldEvent
)


# -------------------------------------------------------------------------- state


@dataclass(frozen=True)
class Introspection:
    """An open introspection: boxes left to clear, and whether swap/replace are used."""

    remaining: int
    swapped: bool = False
    replaced: bool = False


@dataclass(frozen=True)
class FilledTrack:
    """The choices left after a mood filled its track outside a roll (ruling 23).

    Attributes:
        mood: the mood line (its level is already back to 0).
        endanger: a sentiment is still to be marked.
        rename: the mood still waits for its stronger name.
    """

    mood: int
    endanger: bool
    rename: bool = True


@dataclass(frozen=True)
class PlayerDowntime:
    """One player's budget in this downtime phase."""

    player_id: PlayerId
    actions_left: int = 1
    recovered_harm: bool = False
    upgraded_skills: bool = False
    introspection: Introspection | None = None
    filled: FilledTrack | None = None


@dataclass(frozen=True)
class PlanDie:
    player_id: PlayerId
    aspect: Aspect
    face: int


@dataclass(frozen=True)
class CollateralPlan:
    """An open Address Collateral attempt."""

    proposer: PlayerId
    card_id: CardId
    plan: str
    votes: tuple[tuple[PlayerId, bool], ...] = ()
    dice: tuple[PlanDie, ...] = ()
    level: int | None = None  # the clock's ticks when first rolled (ruling 10)

    @property
    def modifier(self) -> int:
        return sum(1 if support else -1 for _, support in self.votes)

    @property
    def total(self) -> int:
        return sum(d.face for d in self.dice) + self.modifier

    @property
    def result(self) -> int:
        """Ticks removed (negative: added): total minus the Collateral Level."""
        return self.total - (self.level or 0)

    def voted(self, player_id: PlayerId) -> bool:
        return any(p == player_id for p, _ in self.votes)


@dataclass(frozen=True)
class DowntimeState:
    """A downtime phase: the world, the sheets, and who has what left."""

    world: World
    sheets: tuple[tuple[PlayerId, Character], ...]
    place: DowntimePlace
    players: tuple[PlayerDowntime, ...]
    complications: tuple[ComplicationRoll, ...] = ()
    time_units: int = 0
    plan: CollateralPlan | None = None
    ended: bool = False

    def sheet(self, player_id: PlayerId) -> Character:
        for pid, sheet in self.sheets:
            if pid == player_id:
                return sheet
        raise NotAllowedNow("You have no character in this downtime.")

    def sheet_map(self) -> dict[PlayerId, Character]:
        return dict(self.sheets)

    def budget(self, player_id: PlayerId) -> PlayerDowntime:
        for entry in self.players:
            if entry.player_id == player_id:
                return entry
        raise NotAllowedNow("You have no character in this downtime.")

    def _with_sheet(self, player_id: PlayerId, sheet: Character) -> DowntimeState:
        sheets = tuple((p, sheet if p == player_id else s) for p, s in self.sheets)
        return replace(self, sheets=sheets)

    def _with_budget(self, entry: PlayerDowntime) -> DowntimeState:
        players = tuple(entry if e.player_id == entry.player_id else e for e in self.players)
        return replace(self, players=players)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able values (card faces included: store, never show)."""
        return {
            "version": 1,
            "world": world_to_dict(self.world),
            "sheets": [[p, s.to_dict()] for p, s in self.sheets],
            "place": self.place.value,
            "players": to_plain(self.players),
            "complications": to_plain(self.complications),
            "time_units": self.time_units,
            "plan": to_plain(self.plan),
            "ended": self.ended,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DowntimeState:
        """Rebuild a state stored with :meth:`to_dict`.

        Raises:
            Malformed: the data is not a stored downtime.
        """
        try:
            if data["version"] != 1:
                raise Malformed("That saved downtime is from an unknown version.")
            return cls(
                world=world_from_dict(data["world"]),
                sheets=tuple((int(p), Character.from_dict(s)) for p, s in data["sheets"]),
                place=DowntimePlace(data["place"]),
                players=from_plain(tuple[PlayerDowntime, ...], data["players"]),
                complications=from_plain(
                    tuple[ComplicationRoll, ...],
                    data["complications"],
                ),
                time_units=int(data["time_units"]),
                plan=from_plain(CollateralPlan | None, data["plan"]),  # type: ignore[arg-type]
                ended=bool(data["ended"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise Malformed("That saved downtime could not be read.") from exc


Result = tuple[DowntimeState, tuple[DowntimeEvent, ...]]


def begin_downtime(
    world: World,
    sheets: Mapping[PlayerId, Character],
    place: DowntimePlace,
    rng: Rng,
) -> Result:
    """Start downtime after leaving ``world.current``.

    Rolls complications for the location just left (if the party was at one).
    At home the party returns to the settlement and every character takes a
    recovery point. Everyone gets one downtime action.

    Raises:
        Malformed: a sheet belongs to someone not at the table, or no sheets.
    """
    if not sheets:
        raise Malformed("Downtime needs at least one character.")
    if any(p not in world.players for p in sheets):
        raise Malformed("Every character in downtime must belong to a player at the table.")
    events: list[DowntimeEvent] = []
    complications: tuple[ComplicationRoll, ...] = ()
    if world.current is not None:
        roll = roll_complication(world, world.current, rng)
        complications = (roll,)
        events.append(ComplicationRolled(roll))
    if place is DowntimePlace.HOME:
        world = replace(world, current=None, groups=(), focus=0)
    ordered = tuple((p, sheets[p]) for p in world.players if p in sheets)
    state = DowntimeState(
        world=world,
        sheets=ordered,
        place=place,
        players=tuple(PlayerDowntime(p) for p, _ in ordered),
        complications=complications,
    )
    if place is DowntimePlace.HOME:
        for pid, sheet in ordered:
            new = sheet.add_recovery_points(HOME_RECOVERY_POINTS)
            state = state._with_sheet(pid, new)
            events.append(
                RecoveryPointsTaken(
                    pid, new.recovery_points - sheet.recovery_points, new.recovery_points
                )
            )
    return state, tuple(events)


def take_roll_sheets(state: DowntimeState, roll: RollState) -> DowntimeState:
    """Copy the sheets changed by a finished Action Roll (a Scout's) into downtime.

    Raises:
        NotAllowedNow: the roll is not finished.
        Malformed: someone in the roll has no character in this downtime.
    """
    if not roll.is_done:
        raise NotAllowedNow("Finish the Action Roll first.")
    for participant in roll.participants:
        if not any(p == participant.player for p, _ in state.sheets):
            raise Malformed("Someone in that roll has no character in this downtime.")
        state = state._with_sheet(participant.player, participant.character)
    return state


# ------------------------------------------------------------------ who acts now


def clearable_moods(state: DowntimeState, player: PlayerId) -> tuple[int, ...]:
    """The mood lines ``player`` may clear a box of now, while introspecting."""
    if player not in dict(state.sheets):
        return ()
    budget = state.budget(player)
    if budget.introspection is None or budget.introspection.remaining <= 0:
        return ()
    moods = state.sheet(player).moods
    return tuple(i for i, m in enumerate(moods) if m.name is not None and m.level > 0)


def allowed_actions(state: DowntimeState) -> dict[PlayerId, frozenset[DowntimeKind]]:
    """Who may do what now; players with nothing to do are left out."""
    if state.ended:
        return {}
    out: dict[PlayerId, frozenset[DowntimeKind]] = {}
    plan = state.plan
    for pid in state.world.players:
        kinds: set[DowntimeKind] = {
            DowntimeKind.TICK_COLLATERAL,
            DowntimeKind.UNTICK_COLLATERAL,
            DowntimeKind.SPEND_MORE_TIME,
            DowntimeKind.BRING_REWARD_HOME,
        }
        if plan is not None:
            if plan.level is None and pid != plan.proposer and not plan.voted(pid):
                kinds.add(DowntimeKind.VOTE_ON_PLAN)
            if pid == plan.proposer:
                if plan.level is None:
                    kinds.add(DowntimeKind.PIVOT_PLAN)
                    if _all_voted(state, plan):
                        kinds.add(DowntimeKind.ROLL_FOR_PLAN)
                else:
                    kinds.add(DowntimeKind.SETTLE_PLAN)
        if plan is None and not any(b.introspection or b.filled for b in state.players):
            kinds.add(DowntimeKind.END_DOWNTIME)
        if any(p == pid for p, _ in state.sheets):
            kinds |= _character_kinds(state, pid)
        out[pid] = frozenset(kinds)
    return out


def _all_voted(state: DowntimeState, plan: CollateralPlan) -> bool:
    return all(plan.voted(p) for p in state.world.players if p != plan.proposer)


def _character_kinds(state: DowntimeState, pid: PlayerId) -> set[DowntimeKind]:
    budget = state.budget(pid)
    sheet = state.sheet(pid)
    if budget.filled is not None:
        filled = budget.filled
        return {
            kind
            for kind, left in (
                (DowntimeKind.ENDANGER_SENTIMENT, filled.endanger),
                (DowntimeKind.RENAME_MOOD, filled.rename),
            )
            if left
        }
    if budget.introspection is not None:
        kinds = {DowntimeKind.REDUCE_MOOD, DowntimeKind.FINISH_INTROSPECTION}
        if not budget.introspection.swapped:
            kinds.add(DowntimeKind.SWAP_MOODS)
        if not budget.introspection.replaced:
            kinds.add(DowntimeKind.REPLACE_MOOD)
        return kinds
    kinds = set()
    if not budget.recovered_harm and sheet.harms:
        kinds.add(DowntimeKind.RECOVER_HARM)
    if not budget.upgraded_skills and any(s.ready_to_upgrade for s in sheet.skills):
        kinds.add(DowntimeKind.UPGRADE_SKILLS)
    if budget.actions_left > 0:
        paid = set(COSTS_AN_ACTION)
        if state.plan is not None:
            paid.discard(DowntimeKind.PROPOSE_PLAN)
            if state.plan.level is None:
                paid.discard(DowntimeKind.ADD_DIE_TO_PLAN)
        else:
            paid.discard(DowntimeKind.ADD_DIE_TO_PLAN)
        if sheet.overcome:
            paid &= WHILE_OVERCOME
        kinds |= paid
    return kinds


def _check_permission(state: DowntimeState, actor: PlayerId, kind: DowntimeKind) -> None:
    if state.ended:
        raise NotAllowedNow("Downtime is over; head out on the next adventure.")
    if actor not in state.world.players:
        raise NotAllowedNow("You're not playing at this table.")
    allowed = allowed_actions(state).get(actor, frozenset())
    if kind in allowed:
        return
    has_sheet = any(p == actor for p, _ in state.sheets)
    plan = state.plan
    if kind in TABLE_KINDS:
        if kind is DowntimeKind.END_DOWNTIME:
            raise NotAllowedNow(
                "Finish the open plan, introspection or full mood track before ending downtime."
            )
        if plan is None:
            raise NotAllowedNow("Nobody has proposed a plan to address collateral.")
        if kind is DowntimeKind.VOTE_ON_PLAN:
            if actor == plan.proposer:
                raise NotAllowedNow("The others judge your plan; you don't vote on it.")
            raise NotAllowedNow("Your vote is already in, or the dice are already rolling.")
        if actor != plan.proposer:
            raise NotYourTurn("Only the player who proposed the plan can do that.")
        if kind is DowntimeKind.ROLL_FOR_PLAN and plan.level is None:
            raise NotYourTurn("Wait until every other player has weighed in on the plan.")
        raise NotAllowedNow("The plan is past that point.")
    if not has_sheet:
        raise NotAllowedNow("You have no character in this downtime.")
    budget = state.budget(actor)
    if budget.filled is not None:
        if kind is DowntimeKind.ENDANGER_SENTIMENT:
            raise NotAllowedNow("No sentiment is left to mark.")
        if kind is DowntimeKind.RENAME_MOOD:
            raise NotAllowedNow("The mood already has its new name.")
        raise NotAllowedNow(
            "A mood filled its track: mark a sentiment and give the mood a stronger name first."
        )
    if kind in FILLED_TRACK_KINDS:
        raise NotAllowedNow("No mood of yours has filled its track.")
    if budget.introspection is not None:
        raise NotAllowedNow("Finish your introspection first.")
    if kind in INTROSPECTION_KINDS:
        raise NotAllowedNow("Start an introspection first.")
    if kind is DowntimeKind.RECOVER_HARM and budget.recovered_harm:
        raise NotAllowedNow("You've already recovered harm this downtime.")
    if kind is DowntimeKind.RECOVER_HARM:
        raise NotAllowedNow("There is no harm to heal.")
    if kind is DowntimeKind.UPGRADE_SKILLS and budget.upgraded_skills:
        raise NotAllowedNow("You've already upgraded skills this downtime.")
    if kind is DowntimeKind.UPGRADE_SKILLS:
        raise NotAllowedNow("No skill has all three aspect boxes marked yet.")
    if budget.actions_left <= 0:
        raise NotAllowedNow("You've used your downtime actions; spend more time to get another.")
    if state.sheet(actor).overcome and kind not in WHILE_OVERCOME:
        raise NotAllowedNow(
            "{name} is Overcome: recover a harm before doing anything else.",
            name=state.sheet(actor).name,
        )
    if kind is DowntimeKind.PROPOSE_PLAN:
        raise NotAllowedNow("Another plan is already on the table; settle it first.")
    if kind is DowntimeKind.ADD_DIE_TO_PLAN:
        raise NotAllowedNow("There's no rolled plan to add a die to.")
    raise NotAllowedNow("That's not possible right now.")  # pragma: no cover


# --------------------------------------------------------------------------- apply


def apply(state: DowntimeState, actor: PlayerId, action: DowntimeAction, rng: Rng) -> Result:
    """Apply one player's downtime action.

    Raises:
        Malformed, NotAllowedNow, NotYourTurn: see the module docstring.
    """
    _check_permission(state, actor, action.kind)
    match action:
        case RecoverHarm():
            return _recover_harm(state, actor, action)
        case UpgradeSkills():
            return _upgrade_skills(state, actor, action)
        case WorkOnProject():
            return _work_on_project(state, actor, action, rng)
        case Reconnect():
            return _reconnect(state, actor, action)
        case Introspect():
            return _introspect(state, actor, rng)
        case ReduceMood():
            return _reduce_mood(state, actor, action)
        case SwapMoods():
            return _swap_moods(state, actor, action)
        case ReplaceMood():
            return _replace_mood(state, actor, action)
        case EndangerSentiment():
            return _endanger_sentiment(state, actor, action)
        case RenameMood():
            return _rename_mood(state, actor, action)
        case FinishIntrospection():
            budget = state.budget(actor)
            assert budget.introspection is not None
            unused = budget.introspection.remaining
            state = state._with_budget(replace(budget, introspection=None))
            return state, (IntrospectionFinished(actor, unused),)
        case ProposePlan():
            return _propose_plan(state, actor, action)
        case VoteOnPlan():
            assert state.plan is not None
            plan = replace(state.plan, votes=(*state.plan.votes, (actor, action.support)))
            return replace(state, plan=plan), (PlanVoted(actor, action.support),)
        case PivotPlan():
            return _pivot_plan(state, actor, action)
        case RollForPlan():
            return _roll_for_plan(state, actor, rng)
        case AddDieToPlan():
            return _add_die_to_plan(state, actor, action, rng)
        case SettlePlan():
            return _settle_plan(state, ())
        case TrainSkills():
            return _train(state, actor, action, rng)
        case SeekRecovery():
            return _seek_recovery(state, actor, action, rng)
        case Scout():
            return _scout(state, actor, action)
        case SpendMoreTime():
            return _spend_more_time(state, action, rng)
        case TickCollateral():
            world, wevents = tick_collateral(state.world, action.card_id, actor, action.count)
            return replace(state, world=world), wevents
        case UntickCollateral():
            world, wevents = untick_collateral(state.world, action.card_id, actor, action.count)
            return replace(state, world=world), wevents
        case BringRewardHome():
            return _bring_reward_home(state, action)
        case EndDowntime():
            return replace(state, ended=True), (DowntimeEnded(),)
    raise Malformed("That's not a downtime action.")  # pragma: no cover


def _spend(state: DowntimeState, actor: PlayerId) -> DowntimeState:
    budget = state.budget(actor)
    return state._with_budget(replace(budget, actions_left=budget.actions_left - 1))


# -- free actions


def _recover_harm(state: DowntimeState, actor: PlayerId, action: RecoverHarm) -> Result:
    if not action.conversions:
        raise Malformed("Pick at least one harm to turn into a scar.")
    sheet = state.sheet(actor)
    events: list[DowntimeEvent] = []
    for index, scar in action.conversions:
        if not 0 <= index < len(sheet.harms):
            raise Malformed("There is no such harm on the sheet.")
        harm, cost = sheet.harms[index], sheet.recovery_cost
        sheet = sheet.recover_harm(index, scar)
        events.append(HarmRecovered(actor, harm, sheet.scars[-1], cost))
    state = state._with_sheet(actor, sheet)
    state = state._with_budget(replace(state.budget(actor), recovered_harm=True))
    return state, tuple(events)


def _upgrade_skills(state: DowntimeState, actor: PlayerId, action: UpgradeSkills) -> Result:
    sheet = state.sheet(actor)
    indices = action.skills or tuple(
        i for i, skill in enumerate(sheet.skills) if skill.ready_to_upgrade
    )
    if not indices:
        raise NotAllowedNow("No skill has all three aspect boxes marked yet.")
    if len(set(indices)) != len(indices):
        raise Malformed("List each skill once.")
    events: list[DowntimeEvent] = []
    for index in indices:
        sheet = sheet.upgrade_skill(index)
        skill = sheet.skill(index)
        events.append(SkillUpgraded(actor, skill.name, skill.modifier))
    state = state._with_sheet(actor, sheet)
    state = state._with_budget(replace(state.budget(actor), upgraded_skills=True))
    return state, tuple(events)


# -- long-term projects


def _new_project(
    world: World,
    owner: PlayerId,
    name: str,
    segments: int,
    resource: str | None,
    card_id: CardId | None,
) -> Project:
    if resource is not None:
        resource = world.resource(resource).name
    if card_id is not None:
        world.card(card_id)
    return Project(
        id=f"P{len(world.projects) + 1}",
        owner_id=owner,
        name=clean_text(name, "Name the project.", 120),
        segments=segments,
        resource=resource,
        card_id=card_id,
    )


def _work_on_project(
    state: DowntimeState, actor: PlayerId, action: WorkOnProject, rng: Rng
) -> Result:
    if (action.project_id is None) == (action.new is None):
        raise Malformed("Work on an existing project or start a new one, not both.")
    sheet = state.sheet(actor)
    mood = sheet.mood(action.mood)
    if mood.is_open:
        raise NotAllowedNow("Pick a mood that is written on your sheet.")
    skill = None if action.skill is None else sheet.skill(action.skill)
    world = state.world
    events: list[DowntimeEvent] = []
    if action.new is not None:
        new = action.new
        project = _new_project(world, actor, new.name, new.segments, new.resource, new.card_id)
        world = replace(world, projects=(*world.projects, project))
        events.append(ProjectStarted(project))
    else:
        assert action.project_id is not None
        project = world.project(action.project_id)
        if project.complete:
            raise NotAllowedNow("That project is already finished.")
    mood_face = roll_die(rng, mood.die.value)
    aspect_face = roll_die(rng, sheet.aspect_die(action.aspect).value)
    shift = 0
    if skill is not None and skill.modifier:
        up = abs(aspect_face + skill.modifier - mood_face)
        down = abs(aspect_face - skill.modifier - mood_face)
        shift = skill.modifier if up >= down else -skill.modifier
    if action.skill is not None:
        sheet = sheet.mark_skill(action.skill, action.aspect)
    marked = abs(aspect_face + shift - mood_face)
    filled = min(project.segments, project.filled + marked)
    progressed = replace(project, filled=filled)
    world = replace(
        world, projects=tuple(progressed if p.id == project.id else p for p in world.projects)
    )
    events.append(
        ProjectProgressed(
            project.id, mood_face, aspect_face, shift, marked, filled, project.segments
        )
    )
    if progressed.complete:
        events.append(ProjectCompleted(project.id))
        world, more = _complete_project(world, progressed)
        events.extend(more)
    state = _spend(replace(state, world=world)._with_sheet(actor, sheet), actor)
    return state, tuple(events)


def _complete_project(world: World, project: Project) -> tuple[World, tuple[WorldEvent, ...]]:
    """A finished project with a resource lifts it one step (an R1 reward: to neutral at most)."""
    if project.resource is None:
        return world, ()
    resource = world.resource(project.resource)
    if project.card_id is not None:
        reward = world.card(project.card_id).reward
        if reward is RewardLevel.R1 and resource.level >= ResourceLevel.NEUTRAL:
            return world, ()
    if resource.level is ResourceLevel.ABUNDANCE:
        return world, ()
    return improve_resource(world, resource.name)


# -- sentiments and moods


def _reconnect(state: DowntimeState, actor: PlayerId, action: Reconnect) -> Result:
    sheet = state.sheet(actor)
    sentiment = sheet.sentiment(action.sentiment)
    if action.forge is not None:
        sheet = sheet.forge_sentiment(action.sentiment, action.forge)
        raise_by, forged = FORGE_SENTIMENT_RAISE, True
    elif sentiment.name is None:
        raise NotAllowedNow("That line is blank: forge a new sentiment on it instead.")
    elif sentiment.state is SentimentState.LOST:
        sheet = sheet.restore_sentiment(action.sentiment)
        raise_by, forged = RECONNECT_LOST_RAISE, False
    elif sentiment.state is SentimentState.AT_RISK:
        sheet = sheet.restore_sentiment(action.sentiment)
        raise_by, forged = RECONNECT_AT_RISK_RAISE, False
    else:
        raise NotAllowedNow("You're still connected to {sentiment}.", sentiment=sentiment.name)
    sheet = sheet.raise_mood(action.mood, raise_by)
    full = sheet.mood(action.mood).track_full
    event = SentimentReconnected(
        actor,
        action.sentiment,
        sheet.sentiment(action.sentiment).state,
        forged,
        action.mood,
        raise_by,
        full,
    )
    state = _spend(state._with_sheet(actor, sheet), actor)
    if full:
        return _fill_track(state, actor, action.mood, (event,))
    return state, (event,)


def _fill_track(
    state: DowntimeState, actor: PlayerId, line: int, events: tuple[DowntimeEvent, ...]
) -> Result:
    """The last box of a mood is marked outside a roll: ruling 1's effects (ruling 23).

    The level goes back to 0 now; marking a sentiment and the new name wait for
    the player (:class:`EndangerSentiment`, :class:`RenameMood`).
    """
    sheet = state.sheet(actor).clear_mood(line)
    endanger = bool(sheet.usable_sentiments)
    budget = replace(state.budget(actor), filled=FilledTrack(line, endanger))
    state = state._with_sheet(actor, sheet)._with_budget(budget)
    filled = MoodTrackFilled(actor, line, sheet.mood(line).name or "", endanger)
    return state, (*events, filled)


def _after_filled_choice(
    state: DowntimeState, actor: PlayerId, filled: FilledTrack
) -> DowntimeState:
    budget = state.budget(actor)
    left = filled if filled.endanger or filled.rename else None
    return state._with_budget(replace(budget, filled=left))


def _endanger_sentiment(state: DowntimeState, actor: PlayerId, action: EndangerSentiment) -> Result:
    filled = state.budget(actor).filled
    assert filled is not None
    sheet = state.sheet(actor).endanger_sentiment(action.sentiment)
    state = state._with_sheet(actor, sheet)
    state = _after_filled_choice(state, actor, replace(filled, endanger=False))
    now = sheet.sentiment(action.sentiment).state
    return state, (SentimentEndangered(actor, action.sentiment, now),)


def _rename_mood(state: DowntimeState, actor: PlayerId, action: RenameMood) -> Result:
    filled = state.budget(actor).filled
    assert filled is not None
    sheet = state.sheet(actor)
    old = sheet.mood(filled.mood).name or ""
    sheet = sheet.rename_mood(filled.mood, action.name)
    state = state._with_sheet(actor, sheet)
    state = _after_filled_choice(state, actor, replace(filled, rename=False))
    return state, (MoodRenamed(actor, filled.mood, old, sheet.mood(filled.mood).name or ""),)


def _introspect(state: DowntimeState, actor: PlayerId, rng: Rng) -> Result:
    sheet = state.sheet(actor)
    face = roll_die(rng, sheet.aspect_die(Aspect.HEART).value)
    state = _spend(state, actor)
    budget = state.budget(actor)
    state = state._with_budget(replace(budget, introspection=Introspection(face)))
    return state, (IntrospectionRolled(actor, face),)


def _reduce_mood(state: DowntimeState, actor: PlayerId, action: ReduceMood) -> Result:
    budget = state.budget(actor)
    assert budget.introspection is not None
    sheet = state.sheet(actor)
    mood = sheet.mood(action.mood)
    if action.amount < 1:
        raise Malformed("Clear one box or more.")
    if action.amount > budget.introspection.remaining:
        left = budget.introspection.remaining
        if left == 1:
            raise NotAllowedNow("Only 1 box left to clear.")
        raise NotAllowedNow("Only {num} boxes left to clear.", num=left)
    if action.amount > mood.level:
        if mood.level == 1:
            raise NotAllowedNow("That mood only has 1 box marked.")
        raise NotAllowedNow("That mood only has {num} boxes marked.", num=mood.level)
    sheet = sheet.lower_mood(action.mood, action.amount)
    left = budget.introspection.remaining - action.amount
    state = state._with_sheet(actor, sheet)._with_budget(
        replace(budget, introspection=replace(budget.introspection, remaining=left))
    )
    return state, (MoodReduced(actor, action.mood, action.amount, left),)


def _swap_moods(state: DowntimeState, actor: PlayerId, action: SwapMoods) -> Result:
    budget = state.budget(actor)
    assert budget.introspection is not None
    sheet = state.sheet(actor)
    if action.first == action.second:
        raise Malformed("Swap two different mood lines.")
    first, second = sheet.mood(action.first), sheet.mood(action.second)
    if first.is_open and second.is_open:
        raise NotAllowedNow("Both lines are open: there's nothing to swap.")
    # A level that reaches the last box of its new, shorter track fills it (ruling 23).
    filled = [
        line
        for line, level, track in (
            (action.first, second.level, first.die),
            (action.second, first.level, second.die),
        )
        if level and level >= track.boxes
    ]
    sheet = sheet.swap_moods(action.first, action.second)
    state = state._with_sheet(actor, sheet)._with_budget(
        replace(budget, introspection=replace(budget.introspection, swapped=True))
    )
    events: tuple[DowntimeEvent, ...] = (MoodsSwapped(actor, action.first, action.second),)
    if filled:
        return _fill_track(state, actor, filled[0], events)
    return state, events


def _replace_mood(state: DowntimeState, actor: PlayerId, action: ReplaceMood) -> Result:
    budget = state.budget(actor)
    assert budget.introspection is not None
    sheet = state.sheet(actor)
    if sheet.mood(action.mood).is_open:
        raise NotAllowedNow("That line is open; write a new mood in play instead.")
    sheet = sheet.replace_mood(action.mood, action.name)
    state = state._with_sheet(actor, sheet)._with_budget(
        replace(budget, introspection=replace(budget.introspection, replaced=True))
    )
    return state, (MoodReplaced(actor, action.mood, sheet.mood(action.mood).name or ""),)


# -- address collateral


def _propose_plan(state: DowntimeState, actor: PlayerId, action: ProposePlan) -> Result:
    card = state.world.card(action.card_id)
    text = clean_text(action.plan, "Describe how you'll undo the damage.", 1000)
    if not card.revealed:
        raise NotAllowedNow("You can only address collateral where the party has been.")
    if card.clock.ticks == 0:
        raise NotAllowedNow("That location's Collateral Clock is empty: nothing to undo.")
    plan = CollateralPlan(actor, action.card_id, text)
    state = _spend(replace(state, plan=plan), actor)
    return state, (PlanProposed(actor, action.card_id, text),)


def _pivot_plan(state: DowntimeState, actor: PlayerId, action: PivotPlan) -> Result:
    assert state.plan is not None
    project = _new_project(state.world, actor, action.name, action.segments, None, None)
    world = replace(state.world, projects=(*state.world.projects, project))
    return replace(state, world=world, plan=None), (
        PlanPivoted(project.id),
        ProjectStarted(project),
    )


def _roll_for_plan(state: DowntimeState, actor: PlayerId, rng: Rng) -> Result:
    plan = state.plan
    assert plan is not None
    sheet = state.sheet(actor)
    face = roll_die(rng, sheet.aspect_die(Aspect.MIND).value)
    level = state.world.card(plan.card_id).clock.ticks
    plan = replace(plan, level=level, dice=(PlanDie(actor, Aspect.MIND, face),))
    event = PlanDieRolled(actor, Aspect.MIND, face, plan.total, plan.result)
    state = replace(state, plan=plan)
    if plan.result >= level:
        return _settle_plan(state, (event,))
    return state, (event,)


def _add_die_to_plan(
    state: DowntimeState, actor: PlayerId, action: AddDieToPlan, rng: Rng
) -> Result:
    plan = state.plan
    assert plan is not None and plan.level is not None
    level = plan.level
    face = roll_die(rng, state.sheet(actor).aspect_die(action.aspect).value)
    plan = replace(plan, dice=(*plan.dice, PlanDie(actor, action.aspect, face)))
    event = PlanDieRolled(actor, action.aspect, face, plan.total, plan.result)
    state = _spend(replace(state, plan=plan), actor)
    if plan.result >= level:
        return _settle_plan(state, (event,))
    return state, (event,)


def _settle_plan(state: DowntimeState, events: tuple[DowntimeEvent, ...]) -> Result:
    plan = state.plan
    assert plan is not None
    before = state.world.card(plan.card_id).clock.ticks
    world, _ = move_collateral(state.world, plan.card_id, -plan.result)
    after = world.card(plan.card_id).clock.ticks
    return replace(state, world=world, plan=None), (
        *events,
        PlanSettled(plan.card_id, plan.result, before, after),
    )


# -- train, recover, scout


def _train(state: DowntimeState, actor: PlayerId, action: TrainSkills, rng: Rng) -> Result:
    sheet = state.sheet(actor)
    if not action.skills:
        raise Malformed("List the skills you train, most wanted first.")
    if len(set(action.skills)) != len(action.skills):
        raise Malformed("List each skill once.")
    for index in action.skills:
        sheet.skill(index)
    face = roll_die(rng, sheet.aspect_die(action.aspect).value)
    trained = action.skills[:face]
    for index in trained:
        sheet = sheet.mark_skill(index, action.aspect)
    names = tuple(sheet.skill(i).name for i in trained)
    state = _spend(state._with_sheet(actor, sheet), actor)
    return state, (SkillsTrained(actor, action.aspect, face, names),)


def _seek_recovery(state: DowntimeState, actor: PlayerId, action: SeekRecovery, rng: Rng) -> Result:
    sheet = state.sheet(actor)
    skill_bonus = _skill_bonus(sheet, action.skills)
    helper_sheet: Character | None = None
    if action.helper is not None:
        if action.helper == actor:
            raise Malformed("A helper is someone else.")
        helper_sheet = state.sheet(action.helper)
        helper_bonus = _skill_bonus(helper_sheet, action.helper_skills)
    elif action.helper_skills:
        raise Malformed("Helper skills need a helper.")
    else:
        helper_bonus = 0
    body = sheet.aspect_die(Aspect.BODY).value
    faces = tuple(roll_die(rng, body) for _ in range(2 if action.healer else 1))
    helper_face = None
    if helper_sheet is not None:
        helper_face = roll_die(rng, helper_sheet.aspect_die(Aspect.HEART).value)
    total = sum(faces) + skill_bonus + (helper_face or 0) + helper_bonus
    new = sheet.add_recovery_points(max(0, total))
    event = RecoverySought(
        actor,
        faces,
        skill_bonus,
        helper_face,
        helper_bonus,
        total,
        new.recovery_points - sheet.recovery_points,
    )
    return _spend(state._with_sheet(actor, new), actor), (event,)


def _skill_bonus(sheet: Character, indices: tuple[int, ...]) -> int:
    if len(set(indices)) != len(indices):
        raise Malformed("List each skill once.")
    return sum(sheet.skill(i).modifier for i in indices)


def scout_succeeds(outcome: Outcome, accept_details: bool) -> bool:
    """A win lets the scout look; a loss or tie too, if they accept the details."""
    return outcome.winner is Winner.PLAYER or accept_details


def _scout(state: DowntimeState, actor: PlayerId, action: Scout) -> Result:
    world = state.world
    card = world.card(action.card_id)
    if card.revealed:
        raise NotAllowedNow("That location is already face up.")
    if action.card_id not in reachable_cards(world):
        raise NotAllowedNow("That card is too far to scout from here.")
    if not scout_succeeds(action.outcome, action.accept_details):
        return _spend(state, actor), (ScoutTurnedBack(actor, action.card_id),)
    if actor in card.scouted_by or actor == card.author_id:
        world = world  # they already know the face; the look changes nothing
    else:
        world, _ = record_scout(world, action.card_id, actor)
    return _spend(replace(state, world=world), actor), (ScoutLooked(actor, action.card_id),)


# -- time, rewards


def _spend_more_time(state: DowntimeState, action: SpendMoreTime, rng: Rng) -> Result:
    if not action.locations:
        raise Malformed("Pick a revealed location for each extra unit of time.")
    for card_id in action.locations:
        if not state.world.card(card_id).revealed:
            raise NotAllowedNow("Extra complications are rolled at revealed locations only.")
    units = len(action.locations)
    events: list[DowntimeEvent] = [TimeSpent(units, units)]
    rolls = []
    for card_id in action.locations:
        roll = roll_complication(state.world, card_id, rng)
        rolls.append(roll)
        events.append(ComplicationRolled(roll))
    players = tuple(replace(b, actions_left=b.actions_left + units) for b in state.players)
    state = replace(
        state,
        players=players,
        time_units=state.time_units + units,
        complications=(*state.complications, *rolls),
    )
    return state, tuple(events)


def _bring_reward_home(state: DowntimeState, action: BringRewardHome) -> Result:
    world = state.world
    card = world.card(action.card_id)
    if not card.revealed or card.reward is None:
        raise NotAllowedNow("Only a reward from a visited location can be brought home.")
    if card.reward_claimed:
        raise NotAllowedNow("That location's reward is already home.")
    name = clean_text(action.resource, "Say which resource the reward helps.", 80)
    known = any(r.name.casefold() == name.casefold() for r in world.resources)
    steps = card.reward.steps_on_return
    events: list[DowntimeEvent] = []
    if not known:
        if card.reward < RewardLevel.R3:
            raise NotAllowedNow("Only an R3 or R4 reward can create a new abundance.")
        world, more = add_resource(world, name, ResourceLevel.ABUNDANCE)
        events.extend(more)
    elif steps:
        resource = world.resource(name)
        room = ResourceLevel.ABUNDANCE - resource.level
        if room:
            world, more = improve_resource(world, resource.name, min(steps, room))
            events.extend(more)
    world = world.with_card(replace(card, reward_claimed=True))
    events.insert(0, RewardBroughtHome(card.id, name, steps, needs_project=steps == 0))
    return replace(state, world=world), tuple(events)


__all__ = [
    "COMPLICATION_TABLES",
    "Complication",
    "ComplicationRoll",
    "DowntimeAction",
    "DowntimeEvent",
    "DowntimeKind",
    "DowntimePlace",
    "DowntimeState",
    "allowed_actions",
    "apply",
    "begin_downtime",
    "complication_options",
    "roll_complication",
    "scout_succeeds",
    "take_roll_sheets",
]
