"""The Cortex table state: who plays whom, sheets, Trouble, the scene, the conflict.

Invariants (checked on construction, so also on loading saved state):
every seat holds a distinct user and names a Lead sheet; the Watchtower holds
no seat; every Lead has a seat; sheet names are unique; a conflict names only
characters on the table; open Complications and Useful Details belong to
characters on the table. Everything is frozen; changes make new values.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from core.rules.cortex import codec
from core.rules.cortex.dice import FREE_KEEP, Die, RolledDie, best_single, kept_indexes
from core.rules.cortex.pool import Draft, Pick, UsefulDetail
from core.rules.cortex.traits import CortexSettings, Role, Sheet, same_name
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn

STATE_VERSION = 1


class Kind(Enum):
    """The kinds of roll-off the table can run."""

    TEST = "test"
    CONTEST = "contest"
    RELIEF = "relief"


class Phase(Enum):
    """Where a conflict stands; each phase has one character (or the Watchtower) to act."""

    OPPOSITION = "opposition"  # Test: the Watchtower sets dice; Relief: the friend rolls Stress
    BUILDING = "building"  # the roller builds a pool, takes Aid, then rolls
    PICKING = "picking"  # the roller may pay to include more dice, then settles
    YIELDING = "yielding"  # the beaten reactor Gives In or takes Stress
    INFLICTING = "inflicting"  # a winner picks the Stress type (or Stressed Out)
    STOPPED = "stopped"  # an interferer stopped the Contest; contestants vote
    DONE = "done"


class AidKind(Enum):
    """Where Aid comes from."""

    LEAD = "lead"
    FEATURE = "feature"
    RESOURCE = "resource"


class Ending(Enum):
    """How a conflict ended."""

    SUCCESS = "success"
    FAILURE = "failure"
    GAVE_IN = "gave_in"
    STRESS = "stress"
    STRESSED_OUT = "stressed_out"
    RELIEVED = "relieved"
    NOT_RELIEVED = "not_relieved"
    STOPPED = "stopped"


@dataclass(frozen=True)
class Seat:
    """A player and their Lead."""

    user: int
    character: str


@dataclass(frozen=True)
class Complication:
    """A die that rolled 1, waiting to be activated."""

    owner: str
    die: Die


@dataclass(frozen=True)
class Aid:
    """One source of Aid for the next roll."""

    helper: str
    kind: AidKind
    picks: tuple[Pick, ...] = ()
    resource: str = ""
    use_up: bool = False


@dataclass(frozen=True)
class AidRoll:
    """One source of Aid after its separate roll, and what it adds to the Result."""

    aid: Aid
    dice: tuple[RolledDie, ...]

    @property
    def counted(self) -> int:
        """The highest non-1 die; both non-1 dice when a Resource is used up."""
        if self.aid.use_up:
            return sum(r.face for r in self.dice if not r.is_dud)
        best = best_single(self.dice)
        return 0 if best is None else best.face


@dataclass(frozen=True)
class Roll:
    """A rolled pool, its Aid, and how many pool dice the roller includes."""

    roller: str
    dice: tuple[RolledDie, ...]
    aid: tuple[AidRoll, ...] = ()
    keep: int = FREE_KEEP

    @property
    def included(self) -> tuple[int, ...]:
        return kept_indexes(self.dice, self.keep)

    @property
    def result(self) -> int:
        return sum(self.dice[i].face for i in self.included) + sum(a.counted for a in self.aid)

    @property
    def can_include_more(self) -> bool:
        return len(self.included) < sum(1 for r in self.dice if not r.is_dud)


@dataclass(frozen=True)
class PoolMemory:
    """The last pool a side rolled, to reuse when it reacts again."""

    character: str
    picks: tuple[Pick, ...]


@dataclass(frozen=True)
class Infliction:
    """Stress someone is about to inflict with the pool they rolled."""

    inflicter: str
    target: str
    pool: tuple[Die, ...]
    may_stress_out: bool = False


@dataclass(frozen=True)
class Standing:
    """A Result made in the three-way roll after an interference."""

    character: str
    result: int
    pool: tuple[Die, ...]


@dataclass(frozen=True)
class Conflict:
    """A Test, Contest or Stress Relief in progress (or just finished).

    ``actor`` sets the number to beat (``to_beat``); in a Contest ``reactor``
    answers; in Relief ``reactor`` is the stressed friend. ``roller`` is who
    builds and rolls now. ``queue`` lists who rolls next in a three-way roll.
    """

    kind: Kind
    phase: Phase
    actor: str
    roller: str
    reactor: str = ""
    draft: Draft = field(default_factory=Draft)
    aid: tuple[Aid, ...] = ()
    roll: Roll | None = None
    to_beat: int | None = None
    opposition: tuple[RolledDie, ...] = ()
    memory: tuple[PoolMemory, ...] = ()
    stress_pool: tuple[Die, ...] = ()
    margin: int = 0
    relief_type: str = ""
    interferer: str = ""
    votes: tuple[str, ...] = ()
    queue: tuple[str, ...] = ()
    standings: tuple[Standing, ...] = ()
    pending: tuple[Infliction, ...] = ()
    ending: Ending | None = None
    winner: str = ""

    def __post_init__(self) -> None:
        broken = (
            (self.phase is Phase.PICKING and self.roll is None)
            or (self.phase is Phase.INFLICTING and not self.pending)
            or (self.phase in (Phase.YIELDING, Phase.STOPPED) and self.to_beat is None)
            or (self.kind is not Kind.TEST and not self.reactor)
            or (self.kind is Kind.RELIEF and not self.relief_type)
            or (self.phase is Phase.STOPPED and not self.interferer)
            or (self.queue and self.phase is not Phase.DONE and self.interferer not in self.queue)
        )
        if broken:
            raise Malformed("Saved Cortex roll is inconsistent.")

    def names(self) -> tuple[str, ...]:
        named = (self.actor, self.roller, self.reactor, self.interferer)
        return tuple(n for n in named if n)

    def remembered(self, character: str) -> tuple[Pick, ...]:
        for item in self.memory:
            if same_name(item.character, character):
                return item.picks
        return ()

    def remember(self, character: str, picks: tuple[Pick, ...]) -> tuple[PoolMemory, ...]:
        kept = tuple(m for m in self.memory if not same_name(m.character, character))
        return (*kept, PoolMemory(character, picks))

    @property
    def contestants(self) -> tuple[str, ...]:
        return (self.actor, self.reactor) if self.kind is Kind.CONTEST else (self.actor,)


@dataclass(frozen=True)
class Table:
    """Everything the Cortex rules need to know about one game."""

    watchtower: int
    seats: tuple[Seat, ...] = ()
    sheets: tuple[Sheet, ...] = ()
    settings: CortexSettings = field(default_factory=CortexSettings)
    trouble: tuple[Die, ...] = ()
    details: tuple[UsefulDetail, ...] = ()
    complications: tuple[Complication, ...] = ()
    watchtower_ones: tuple[Complication, ...] = ()
    conflict: Conflict | None = None

    def __post_init__(self) -> None:
        names = [s.name.casefold() for s in self.sheets]
        if len(names) != len(set(names)):
            raise Malformed("Two characters share a name.")
        users = [s.user for s in self.seats]
        if len(users) != len(set(users)) or self.watchtower in users:
            raise Malformed("Each player plays one Lead, and the Watchtower plays none.")
        for seat in self.seats:
            if self.find(seat.character) is None or not self.sheet(seat.character).is_lead:
                raise Malformed("Seat for “{name}” names no Lead.", name=seat.character)
        for sheet in self.sheets:
            if sheet.is_lead and not any(same_name(s.character, sheet.name) for s in self.seats):
                raise Malformed("The Lead {name} has no player.", name=sheet.name)
            for entry in sheet.stress:
                self.settings.stress_type(entry.type)
        owners = [c.owner for c in (*self.complications, *self.watchtower_ones)]
        owners += [d.owner for d in self.details]
        if self.conflict is not None:
            owners += list(self.conflict.names())
        for owner in owners:
            if owner and self.find(owner) is None:
                raise Malformed("“{name}” is not at this table.", name=owner)

    def find(self, name: str) -> Sheet | None:
        for sheet in self.sheets:
            if same_name(sheet.name, name):
                return sheet
        return None

    def sheet(self, name: str) -> Sheet:
        """The character's sheet.

        Raises:
            NotAllowedNow: nobody of that name is at the table.
        """
        found = self.find(name)
        if found is None:
            raise NotAllowedNow("There is no {name} at this table.", name=name[:60])
        return found

    def controller(self, name: str) -> int:
        """The user who acts for a character: its player, or the Watchtower for Features."""
        sheet = self.sheet(name)
        if sheet.role is Role.FEATURE:
            return self.watchtower
        for seat in self.seats:
            if same_name(seat.character, sheet.name):
                return seat.user
        return self.watchtower

    def lead_of(self, user: int) -> str | None:
        for seat in self.seats:
            if seat.user == user:
                return seat.character
        return None

    def with_sheet(self, sheet: Sheet) -> Table:
        """A copy with one character's sheet replaced."""
        sheets = tuple(sheet if same_name(s.name, sheet.name) else s for s in self.sheets)
        return replace(self, sheets=sheets)

    def seat_lead(self, user: int, sheet: Sheet) -> Table:
        """A copy with a player joining with their Lead.

        Raises:
            NotAllowedNow: the user already plays, is the Watchtower, or the name is taken.
            Malformed: the sheet is not a Lead.
        """
        if sheet.role is not Role.LEAD:
            raise Malformed("A player's character is a Lead.")
        if user == self.watchtower or self.lead_of(user) is not None:
            raise NotAllowedNow("You already have a part at this table.")
        if self.find(sheet.name) is not None:
            raise NotAllowedNow("Someone called {name} is already here.", name=sheet.name)
        return replace(
            self, seats=(*self.seats, Seat(user, sheet.name)), sheets=(*self.sheets, sheet)
        )

    def add_feature(self, sheet: Sheet) -> Table:
        """A copy with one more Feature for the Watchtower.

        Raises:
            NotAllowedNow: the name is taken.
            Malformed: the sheet is not a Feature.
        """
        if sheet.role is not Role.FEATURE:
            raise Malformed("The Watchtower's characters are Features.")
        if self.find(sheet.name) is not None:
            raise NotAllowedNow("Someone called {name} is already here.", name=sheet.name)
        return replace(self, sheets=(*self.sheets, sheet))

    def update_sheet(self, user: int, sheet: Sheet) -> Table:
        """A copy with an edited sheet (from the Mini App), by its owner.

        Raises:
            NotYourTurn: only the player (or the Watchtower for Features) edits it.
            NotAllowedNow: unknown character, a changed role, or it is in a roll now.
        """
        current = self.sheet(sheet.name)
        if self.controller(current.name) != user:
            raise NotYourTurn("Only {name}'s player can change that sheet.", name=current.name)
        if sheet.role is not current.role:
            raise NotAllowedNow("A Lead stays a Lead and a Feature stays a Feature.")
        c = self.conflict
        busy = c is not None and c.phase is not Phase.DONE
        if busy and c is not None and any(same_name(n, current.name) for n in c.names()):
            raise NotAllowedNow(
                "{name} is in a roll; change the sheet afterwards.", name=current.name
            )
        return self.with_sheet(replace(sheet, name=current.name))

    def to_dict(self) -> dict[str, object]:
        """JSON-ready state (with a version number)."""
        data = codec.dump(self)
        assert isinstance(data, dict)
        return {"version": STATE_VERSION, **data}

    @classmethod
    def from_dict(cls, data: object) -> Table:
        """Rebuild saved state.

        Raises:
            Malformed: damaged or from an unknown version.
        """
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise Malformed("Saved Cortex state is from an unknown version.")
        body = {k: v for k, v in data.items() if k != "version"}
        return codec.load(cls, body)
