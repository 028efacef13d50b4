"""State and events of the NSU Action Roll.

:class:`RollState` holds one roll: who rolls, who arbitrates, the sheets of the
roller and on-screen allies as they stand now (and as they stood at the
start), every choice made so far, the dice, and once settled the
:class:`Outcome`, the sheet :class:`Effect` list and any :class:`Pending`
choices. It is a frozen value that stores as versioned plain data.

Invariants checked on construction: the roller is the first participant, each
player appears once, at least one Arbiter, and no Arbiter rolls or helps; the
phase never claims a step whose choice is missing (the mood line holds a mood,
skill and sentiment indices exist, helpers and pending choices belong to
people in the roll), so damaged stored data is refused as ``Malformed``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from core.rules.errors import Malformed
from core.rules.nsu.codec import from_plain, to_plain
from core.rules.nsu.details import Detail, DetailKind, Polarity
from core.rules.nsu.roll_actions import PlayerId, PoolKind
from core.rules.nsu.settings import NsuSettings
from core.rules.nsu.sheet import Aspect, Character, Die
from core.rules.nsu.terms import Edge, ResultRow, Risk, Side, Winner, combine_edges

STATE_VERSION = 1
DEFAULT_SETTINGS = NsuSettings()


@dataclass(frozen=True)
class DetailGrant:
    """One detail a side may add after the roll.

    Attributes:
        side: the side the adder belongs to.
        by_ally: added by an ally of that side rather than the side itself.
        kind: HARD (may be taken as soft or scene instead) or SCENE.
        polarity: NEGATIVE only for row 1's cost, set on the winning side.
        adders: the players who may add it.
    """

    side: Side
    by_ally: bool
    kind: DetailKind
    adders: frozenset[PlayerId]
    polarity: Polarity | None = None


class Phase(enum.Enum):
    DESIRED_OUTCOME = "desired_outcome"
    STAKES = "stakes"
    MOOD = "mood"
    ASPECT_EDGE = "aspect_edge"
    PREPARE = "prepare"
    AFTER_ROLL = "after_roll"
    SKILL_SIGN = "skill_sign"
    MOOD_EFFECTS = "mood_effects"
    DONE = "done"
    CANCELLED = "cancelled"


# -- state ---------------------------------------------------------------------


_PHASE_ORDER = (
    Phase.DESIRED_OUTCOME,
    Phase.STAKES,
    Phase.MOOD,
    Phase.ASPECT_EDGE,
    Phase.PREPARE,
    Phase.AFTER_ROLL,
    Phase.SKILL_SIGN,
    Phase.MOOD_EFFECTS,
    Phase.DONE,
)


@dataclass(frozen=True)
class Participant:
    """A player and their character's sheet as it stands in this roll."""

    player: PlayerId
    character: Character


@dataclass(frozen=True)
class Pool:
    """One or two faces of a die; ``kept`` is the index kept, None until chosen."""

    kind: PoolKind
    owner: PlayerId
    die: Die
    edge: Edge
    faces: tuple[int, ...]
    kept: int | None = None

    def __post_init__(self) -> None:
        want = 1 if self.edge is Edge.NONE else 2
        if len(self.faces) != want or not all(1 <= f <= self.die for f in self.faces):
            raise Malformed("A pool's faces do not fit its die.")
        if self.kept is not None and not 0 <= self.kept < len(self.faces):
            raise Malformed("A pool kept a face it does not have.")

    @property
    def face(self) -> int | None:
        return None if self.kept is None else self.faces[self.kept]


@dataclass(frozen=True)
class HelpRoll:
    """An ally's help: the mood line they rolled, and the overloaded line they left."""

    helper: PlayerId
    line: int
    pool: Pool
    left_overload: int | None = None


class PendingKind(enum.Enum):
    RENAME = "rename"
    ENDANGER = "endanger"


@dataclass(frozen=True)
class Pending:
    """A choice left after settling: a rename (by the winning side) or an endangerment."""

    kind: PendingKind
    owner: PlayerId
    line: int | None = None


class EffectKind(enum.Enum):
    OVERLOADED = "overloaded"
    OVERLOAD_ENDED = "overload_ended"
    BOXES_CLEARED = "boxes_cleared"
    TRACK_FILLED = "track_filled"
    SENTIMENT_SLIPPED = "sentiment_slipped"
    SKILL_MARKED = "skill_marked"
    MOOD_RENAMED = "mood_renamed"


@dataclass(frozen=True)
class Effect:
    """A change to a sheet made by settling the roll."""

    kind: EffectKind
    player: PlayerId
    index: int
    note: str = ""


@dataclass(frozen=True)
class Outcome:
    """The settled roll.

    Attributes:
        aspect_face: the kept Aspect die.
        skill_shift: what the skill added to it (negative when subtracted).
        mood_face: the mood die used (the roller's, or the taken helper's).
        difference: |aspect total - mood die|.
    """

    aspect_face: int
    skill_shift: int
    mood_face: int
    difference: int
    winner: Winner
    row: ResultRow
    grants: tuple[DetailGrant, ...]
    suggested_collateral_ticks: int
    helper_used: PlayerId | None

    @property
    def aspect_total(self) -> int:
        return self.aspect_face + self.skill_shift


class TargetKind(enum.Enum):
    """Where a granted detail goes."""

    CHARACTER = "character"  # a player character in this roll: written on their sheet
    NPC = "npc"  # a person or creature: the caller writes it on the Npc
    THING = "thing"  # an object or place property, kept by the caller
    SCENE = "scene"  # the location's scene list, kept by the caller


@dataclass(frozen=True)
class DetailTarget:
    """Who or what receives a detail: a player's character, or something named."""

    kind: TargetKind
    player: PlayerId | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if (self.kind is TargetKind.CHARACTER) != (self.player is not None):
            raise Malformed("A character target names its player; other targets do not.")


@dataclass(frozen=True)
class AddedDetail:
    """A granted detail that has been added, and where it went."""

    grant: int
    by: PlayerId
    detail: Detail
    target: DetailTarget
    harm: bool = False


@dataclass(frozen=True)
class RollState:
    """Everything about one Action Roll. Build with :func:`start_roll`."""

    roller: PlayerId
    arbiters: frozenset[PlayerId]
    participants: tuple[Participant, ...]
    initial: tuple[Participant, ...] = ()
    settings: NsuSettings = DEFAULT_SETTINGS
    phase: Phase = Phase.DESIRED_OUTCOME
    desired_outcome: str | None = None
    aspect: Aspect | None = None
    risk: Risk | None = None
    mood_line: int | None = None
    left_overload: int | None = None
    favouring: tuple[str, ...] = ()
    hindering: tuple[str, ...] = ()
    aspect_edge: Edge | None = None
    skill: int | None = None
    skill_created: bool = False
    risked_sentiment: int | None = None
    aspect_pool: Pool | None = None
    mood_pool: Pool | None = None
    helps: tuple[HelpRoll, ...] = ()
    helper_used: PlayerId | None = None
    help_decided: bool = False
    skill_sign: int | None = None
    outcome: Outcome | None = None
    effects: tuple[Effect, ...] = ()
    pending: tuple[Pending, ...] = ()
    added: tuple[AddedDetail, ...] = ()

    def __post_init__(self) -> None:
        players = [p.player for p in self.participants]
        if len(players) != len(set(players)) or not players or players[0] != self.roller:
            raise Malformed("The roller comes first, and each player appears once.")
        if not self.arbiters:
            raise Malformed("An Action Roll needs at least one Arbiter.")
        if self.arbiters & set(players):
            raise Malformed("Arbiters do not roll or help in the same Action Roll.")
        if self.initial and [p.player for p in self.initial] != players:
            raise Malformed("The starting sheets belong to the same players.")
        self._check_progress()

    def _check_progress(self) -> None:
        """What each phase needs must be present (guards stored data against damage)."""
        reached = _PHASE_ORDER.index(
            self.phase if self.phase is not Phase.CANCELLED else Phase.DESIRED_OUTCOME
        )
        needs = [
            (Phase.STAKES, self.desired_outcome is not None),
            (Phase.MOOD, self.aspect is not None and self.risk is not None),
            (Phase.ASPECT_EDGE, self.mood_line is not None),
            (Phase.PREPARE, self.aspect_edge is not None),
            (Phase.AFTER_ROLL, self.aspect_pool is not None and self.mood_pool is not None),
            (Phase.SKILL_SIGN, self.help_decided),
            (Phase.MOOD_EFFECTS, self.outcome is not None),
        ]
        for phase, present in needs:
            if reached >= _PHASE_ORDER.index(phase) and not present:
                raise Malformed("This stored roll is missing a step it claims to have passed.")
        sheet = self.participants[0].character
        if self.mood_line is not None and sheet.mood(self.mood_line).is_open:
            raise Malformed("The roll's mood line is empty.")
        if self.skill is not None:
            sheet.skill(self.skill)
        if self.risked_sentiment is not None:
            sheet.sentiment(self.risked_sentiment)
        allies = {p.player for p in self.participants[1:]}
        if any(h.helper not in allies for h in self.helps):
            raise Malformed("Only an ally on screen can help.")
        everyone = allies | {self.roller}
        if any(p.owner not in everyone for p in self.pending):
            raise Malformed("A pending choice belongs to someone outside the roll.")

    # -- reading -------------------------------------------------------------

    @property
    def allies(self) -> frozenset[PlayerId]:
        """Players whose characters may help (everyone on screen but the roller)."""
        return frozenset(p.player for p in self.participants[1:])

    def character(self, player: PlayerId) -> Character:
        for p in self.participants:
            if p.player == player:
                return p.character
        raise Malformed("That player has no character in this roll.")

    @property
    def sheet(self) -> Character:
        """The roller's sheet."""
        return self.participants[0].character

    @property
    def mood_edge(self) -> Edge:
        """Mood edge from a risked sentiment and from overload (ruling 2).

        Once the mood die is rolled, the edge it was rolled with: an overload
        the roll itself causes (or ends) does not change it afterwards.
        """
        if self.mood_pool is not None:
            return self.mood_pool.edge
        if self.mood_line is None:
            return Edge.NONE
        return mood_edge_for(self.sheet, self.mood_line, self.risked_sentiment is not None)

    @property
    def is_done(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def is_over(self) -> bool:
        """Finished or cancelled: nothing more can be applied."""
        return self.phase in (Phase.DONE, Phase.CANCELLED)

    def changed_sheets(self) -> tuple[Participant, ...]:
        """The participants whose sheet differs from the start of the roll: persist these."""
        before = {p.player: p.character for p in self.initial}
        return tuple(p for p in self.participants if before.get(p.player) != p.character)

    def help_by(self, helper: PlayerId) -> HelpRoll | None:
        for h in self.helps:
            if h.helper == helper:
                return h
        return None

    # -- storage ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready, versioned copy of the state."""
        return {"version": STATE_VERSION, "roll": to_plain(self)}

    @classmethod
    def from_dict(cls, data: object) -> RollState:
        """Read back :meth:`to_dict` output.

        Raises:
            Malformed: unknown version or damaged data.
        """
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise Malformed("This stored roll comes from an unknown version.")
        return from_plain(cls, data.get("roll"))


def mood_edge_for(sheet: Character, line: int, sentiment_risked: bool) -> Edge:
    overloaded = sheet.overloaded_mood
    advantage = sentiment_risked or overloaded == line
    disadvantage = overloaded is not None and overloaded != line
    return combine_edges(advantage, disadvantage)


# -- events --------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """Base of everything :func:`apply` reports."""


@dataclass(frozen=True)
class OutcomeStated(Event):
    text: str


@dataclass(frozen=True)
class StakesSet(Event):
    aspect: Aspect | None
    risk: Risk | None


@dataclass(frozen=True)
class MoodRaised(Event):
    player: PlayerId
    line: int
    name: str
    level: int
    written_now: bool
    track_full: bool


@dataclass(frozen=True)
class AspectEdgeSet(Event):
    edge: Edge


@dataclass(frozen=True)
class SkillChosen(Event):
    index: int
    name: str
    modifier: int
    created: bool


@dataclass(frozen=True)
class SentimentRisked(Event):
    index: int
    name: str


@dataclass(frozen=True)
class DiceRolled(Event):
    pool: Pool


@dataclass(frozen=True)
class DieKept(Event):
    pool: PoolKind
    owner: PlayerId
    face: int


@dataclass(frozen=True)
class HelpAnswered(Event):
    """The roller took ``taken``'s die (relationship grows) and refused the others (strained)."""

    taken: PlayerId | None
    refused: tuple[PlayerId, ...]


@dataclass(frozen=True)
class RollSettled(Event):
    """The dice are settled; ``roller`` rolled them (the event names its actor, so a
    line about it never depends on finding the roll again in a panel's state)."""

    outcome: Outcome
    roller: PlayerId | None = None


@dataclass(frozen=True)
class SheetChanged(Event):
    effect: Effect


@dataclass(frozen=True)
class ChoiceNeeded(Event):
    pending: Pending


@dataclass(frozen=True)
class RollFinished(Event):
    pass


@dataclass(frozen=True)
class RollCancelled(Event):
    by: PlayerId


@dataclass(frozen=True)
class DetailAdded(Event):
    """A granted detail was added; ``collateral_tick`` proposes a tick (ruling 8)."""

    added: AddedDetail
    collateral_tick: bool
    overcome: bool = False
