"""The world of a No Stone Unturned campaign: settlement, resources, map and cards.

A :class:`World` is an immutable value. Functions here take a world (and the
acting player where it matters) and return a new world plus a tuple of events;
queries return plain values. Nothing here renders text for a chat: the edges
turn events and views into words.

Invariants (checked by tests, kept by every function here):

* A Collateral Clock always holds 0..8 ticks. Any player may tick or untick it
  at any time (ruling 8); a tick past 8 or below 0 is refused, while rule-driven
  moves (Address Collateral) are clamped.
* Danger and Reward are each 1..4, rolled as 2d4 (first die Danger, second
  Reward), and are written on the back of the card: anyone may see them.
* The face of a card (title, description, collateral, danger type, treasure
  type, scene details and clock) is secret until the card is flipped, except to
  its author and to players who scouted it successfully (ruling 12). Use
  :func:`visible_card` / :func:`visible_map` for anything shown to a person.
* Resources: at the end of worldbuilding there are five, exactly one of them an
  abundance. Afterwards only the rules move them, one step at a time along
  scarcity -> neutral -> abundance (or back).
* The map is a grid with optional blank cells; two cards are neighbours when
  they share an edge, unless the table draws paths, in which case only paths
  connect cards (ruling 13).
* Groups: either the whole party is together (no groups) or the players are
  split into two non-empty groups that together hold every player. Arbiters are
  the players off screen; when nobody is off screen, everyone but the roller
  arbitrates (ruling 7).
* ``to_dict``/``from_dict`` round-trip every world through JSON-able values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from typing import Any

from core.rules.catalogue import N_
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.rng import Rng, roll_die

PlayerId = int
CardId = str
Cell = tuple[int, int]

CLOCK_SEGMENTS = 8
RESOURCE_COUNT = 5
MIN_PLAYERS = 2
MAX_PLAYERS = 5


# --------------------------------------------------------------------------- enums


class SafetyTool(Enum):
    """Safety tools a table can agree on before play."""

    X_CARD = "x_card"
    LINES_AND_VEILS = "lines_and_veils"
    KNOCKS = "knocks"


class ScopeQuestion(Enum):
    """The prompts for defining the scope of adventures (not a complete list)."""

    TIME_BETWEEN_ADVENTURES = "time_between_adventures"
    TRAVEL_TIME = "travel_time"
    SURROUNDINGS_DANGER = "surroundings_danger"
    FOOD_AND_SLEEP = "food_and_sleep"
    GEAR_CARRIED = "gear_carried"
    TECHNOLOGY = "technology"
    GETTING_AROUND = "getting_around"
    DAYS_AND_SEASONS = "days_and_seasons"
    CONTACT_WITH_HOME = "contact_with_home"

    @property
    def prompt(self) -> str:
        """A short question in the product's words."""
        return _SCOPE_PROMPTS[self]


_SCOPE_PROMPTS: dict[ScopeQuestion, str] = {
    ScopeQuestion.TIME_BETWEEN_ADVENTURES: N_("How long is the gap between adventures?"),
    ScopeQuestion.TRAVEL_TIME: N_("How long does a trip across the map take?"),
    ScopeQuestion.SURROUNDINGS_DANGER: N_("Are the lands around home risky or easy going?"),
    ScopeQuestion.FOOD_AND_SLEEP: N_("Do people eat and sleep? How often, and what?"),
    ScopeQuestion.GEAR_CARRIED: N_("What does everyone carry by default?"),
    ScopeQuestion.TECHNOLOGY: N_("What technology does the settlement have?"),
    ScopeQuestion.GETTING_AROUND: N_("How do people travel and talk at a distance?"),
    ScopeQuestion.DAYS_AND_SEASONS: N_("What are days, nights and seasons like?"),
    ScopeQuestion.CONTACT_WITH_HOME: N_("Can explorers keep in touch with home?"),
}


class ResourceLevel(IntEnum):
    """Where a resource stands at home. Moves one step at a time."""

    SCARCITY = 0
    NEUTRAL = 1
    ABUNDANCE = 2


class DangerLevel(IntEnum):
    """How perilous a location feels (the first d4)."""

    D1 = 1
    D2 = 2
    D3 = 3
    D4 = 4

    @property
    def label(self) -> str:
        return f"D{self.value}"

    @property
    def guide(self) -> str:
        """A one-line guide for the Arbiters, in the product's words."""
        return _DANGER_GUIDES[self]


_DANGER_GUIDES: dict[DangerLevel, str] = {
    DangerLevel.D1: N_("Care keeps you safe; locals and beasts are slow to turn on you."),
    DangerLevel.D2: N_("Real threats, but they warn you first; locals are wary yet kind."),
    DangerLevel.D3: N_("Threats can and will hurt you; peace here is fragile."),
    DangerLevel.D4: N_("Nearly everything is hostile; trust is hard won. Hand out harm freely."),
}


class RewardLevel(IntEnum):
    """How useful the treasure or knowledge of a location is (the second d4)."""

    R1 = 1
    R2 = 2
    R3 = 3
    R4 = 4

    @property
    def label(self) -> str:
        return f"R{self.value}"

    @property
    def guide(self) -> str:
        """A one-line guide to what the reward can do for home."""
        return _REWARD_GUIDES[self]

    @property
    def steps_on_return(self) -> int:
        """Resource steps the reward gives just by bringing it home."""
        return {1: 0, 2: 0, 3: 1, 4: 2}[self.value]

    @property
    def steps_with_projects(self) -> int:
        """Most resource steps it can give once long-term projects unlock it."""
        return {1: 1, 2: 2, 3: 2, 4: 2}[self.value]


_REWARD_GUIDES: dict[RewardLevel, str] = {
    RewardLevel.R1: N_("Hard to use: a long-term project can lift a scarcity to neutral, no more."),
    RewardLevel.R2: N_("One project lifts a scarcity to neutral; a second can reach abundance."),
    RewardLevel.R3: N_("Lifts a scarcity to neutral at once; a project can take it to abundance."),
    RewardLevel.R4: N_("Brought home whole, it turns a scarcity into an abundance."),
}


class Connection(Enum):
    """How cards on the map connect (ruling 13)."""

    GRID = "grid"
    PATHS = "paths"


# ---------------------------------------------------------------------- small values


@dataclass(frozen=True)
class Ban:
    """A story element the table has ruled out."""

    author_id: PlayerId
    text: str


@dataclass(frozen=True)
class Statement:
    """One fact about the settlement; ``builds_on`` points at an earlier one."""

    author_id: PlayerId
    text: str
    builds_on: int | None = None


@dataclass(frozen=True)
class ScopeAnswer:
    """An answer to a scope question, or a free note when ``question`` is None."""

    question: ScopeQuestion | None
    text: str
    author_id: PlayerId


@dataclass(frozen=True)
class Resource:
    """Something the settlement needs, and how much of it there is."""

    name: str
    level: ResourceLevel


@dataclass(frozen=True)
class CollateralClock:
    """An eight-segment clock of harm the explorers may cause at a location."""

    ticks: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.ticks <= CLOCK_SEGMENTS:
            raise Malformed("A Collateral Clock holds 0 to {limit} ticks.", limit=CLOCK_SEGMENTS)

    @property
    def full(self) -> bool:
        return self.ticks == CLOCK_SEGMENTS

    def tick(self, count: int = 1) -> CollateralClock:
        """Add ticks, as any player may.

        Raises:
            Malformed: ``count`` is not positive.
            NotAllowedNow: the clock would pass 8.
        """
        if count < 1:
            raise Malformed("Tick the clock by one or more.")
        if self.ticks + count > CLOCK_SEGMENTS:
            raise NotAllowedNow("That Collateral Clock is already full.")
        return CollateralClock(self.ticks + count)

    def untick(self, count: int = 1) -> CollateralClock:
        """Remove ticks, as any player may.

        Raises:
            Malformed: ``count`` is not positive.
            NotAllowedNow: the clock would go below 0.
        """
        if count < 1:
            raise Malformed("Untick the clock by one or more.")
        if self.ticks - count < 0:
            raise NotAllowedNow("That Collateral Clock has no ticks to take back.")
        return CollateralClock(self.ticks - count)

    def moved(self, delta: int) -> CollateralClock:
        """Move by ``delta`` (either sign), stopping at 0 and 8."""
        return CollateralClock(max(0, min(CLOCK_SEGMENTS, self.ticks + delta)))


@dataclass(frozen=True)
class LocationCard:
    """One location card: a secret face, and Danger/Reward on the back."""

    id: CardId
    author_id: PlayerId
    title: str
    description: str
    collateral_target: str
    danger_type: str
    treasure_type: str
    danger: DangerLevel | None = None
    reward: RewardLevel | None = None
    clock: CollateralClock = field(default_factory=CollateralClock)
    scene_details: tuple[str, ...] = ()
    revealed: bool = False
    scouted_by: frozenset[PlayerId] = frozenset()
    reward_claimed: bool = False

    @property
    def back(self) -> str:
        """What is written on the back, e.g. ``D2 R4`` (empty before the roll)."""
        if self.danger is None or self.reward is None:
            return ""
        return f"{self.danger.label} {self.reward.label}"


PROJECT_SIZES = (4, 6, 8)


@dataclass(frozen=True)
class Project:
    """A long-term project clock of 4, 6 or 8 segments.

    ``resource`` is what finishing it improves at home, if anything; ``card_id``
    is the location whose reward it unlocks (its Reward Level caps the gain).
    """

    id: str
    owner_id: PlayerId
    name: str
    segments: int
    filled: int = 0
    resource: str | None = None
    card_id: CardId | None = None

    def __post_init__(self) -> None:
        if self.segments not in PROJECT_SIZES:
            raise Malformed("A long-term project clock has 4, 6 or 8 segments.")
        if not 0 <= self.filled <= self.segments:
            raise Malformed("A project clock cannot be filled past its segments.")

    @property
    def complete(self) -> bool:
        return self.filled == self.segments


@dataclass(frozen=True)
class MapGrid:
    """The map: rows of cells, each a card id or blank (None)."""

    rows: tuple[tuple[CardId | None, ...], ...]
    connection: Connection = Connection.GRID
    paths: frozenset[frozenset[CardId]] = frozenset()
    home: Cell | None = None

    def __post_init__(self) -> None:
        widths = {len(row) for row in self.rows}
        if len(widths) > 1:
            raise Malformed("Every row of the map must be the same width.")
        placed = [c for row in self.rows for c in row if c is not None]
        if len(placed) != len(set(placed)):
            raise Malformed("A card can sit on the map only once.")
        if self.home is not None and self.cell_content(self.home) is not None:
            raise Malformed("Home must sit on a blank cell.")

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def cell_content(self, cell: Cell) -> CardId | None:
        r, c = cell
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise Malformed("That cell is off the map.")
        return self.rows[r][c]

    def cell_of(self, card_id: CardId) -> Cell:
        for r, row in enumerate(self.rows):
            for c, content in enumerate(row):
                if content == card_id:
                    return (r, c)
        raise Malformed("That card is not on the map.")

    def card_ids(self) -> tuple[CardId, ...]:
        """Card ids in reading order (row by row)."""
        return tuple(c for row in self.rows for c in row if c is not None)

    def cells_around(self, cell: Cell) -> tuple[Cell, ...]:
        r, c = cell
        out = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.height and 0 <= cc < self.width:
                out.append((rr, cc))
        return tuple(out)

    def neighbours(self, card_id: CardId) -> tuple[CardId, ...]:
        """Cards connected to ``card_id``: shared edges, or drawn paths."""
        if self.connection is Connection.PATHS:
            self.cell_of(card_id)
            found = {other for p in self.paths if card_id in p for other in p if other != card_id}
            return tuple(c for c in self.card_ids() if c in found)
        out = []
        for cell in self.cells_around(self.cell_of(card_id)):
            content = self.cell_content(cell)
            if content is not None:
                out.append(content)
        return tuple(out)

    def home_neighbours(self) -> tuple[CardId, ...]:
        """Cards next to home; every card when home is not placed on the map."""
        if self.home is None:
            return self.card_ids()
        out = []
        for cell in self.cells_around(self.home):
            content = self.cell_content(cell)
            if content is not None:
                out.append(content)
        return tuple(out)


def deal_grid(
    card_ids: Iterable[CardId], columns: int, blanks: Iterable[Cell], rng: Rng
) -> MapGrid:
    """Shuffle cards face down into a grid of ``columns``, skipping ``blanks``.

    Rows are added until every card has a cell; leftover cells stay blank.

    Raises:
        Malformed: fewer than one column, or a blank outside the grid.
    """
    cards = list(card_ids)
    blank_set = set(blanks)
    if columns < 1:
        raise Malformed("The map needs at least one column.")
    if any(c < 0 or c >= columns or r < 0 for r, c in blank_set):
        raise Malformed("A blank cell is outside the map.")
    # Fisher-Yates with the injected RNG.
    for i in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, i)
        cards[i], cards[j] = cards[j], cards[i]
    rows: list[tuple[CardId | None, ...]] = []
    queue = list(cards)
    r = 0
    max_blank_row = max((b[0] for b in blank_set), default=-1)
    while queue or r <= max_blank_row:
        row: list[CardId | None] = []
        for c in range(columns):
            if (r, c) in blank_set or not queue:
                row.append(None)
            else:
                row.append(queue.pop(0))
        rows.append(tuple(row))
        r += 1
        if r > 100:
            raise Malformed("That map shape cannot hold the cards.")
    return MapGrid(rows=tuple(rows))


def roll_danger_and_reward(rng: Rng) -> tuple[DangerLevel, RewardLevel]:
    """Roll 2d4: the first die is Danger, the second Reward."""
    danger = DangerLevel(roll_die(rng, 4))
    reward = RewardLevel(roll_die(rng, 4))
    return danger, reward


# -------------------------------------------------------------------------- events


@dataclass(frozen=True)
class CardFlipped:
    card_id: CardId
    author_id: PlayerId


@dataclass(frozen=True)
class Travelled:
    card_id: CardId | None  # None: home


@dataclass(frozen=True)
class ClockMoved:
    card_id: CardId
    by: PlayerId | None
    before: int
    after: int


@dataclass(frozen=True)
class SceneDetailAdded:
    card_id: CardId
    detail: str


@dataclass(frozen=True)
class PartySplit:
    groups: tuple[frozenset[PlayerId], ...]
    on_screen: frozenset[PlayerId]


@dataclass(frozen=True)
class FocusSwitched:
    on_screen: frozenset[PlayerId]
    arbiters: frozenset[PlayerId]


@dataclass(frozen=True)
class PartyRegrouped:
    players: tuple[PlayerId, ...]


@dataclass(frozen=True)
class CardScouted:
    card_id: CardId
    player_id: PlayerId


@dataclass(frozen=True)
class ResourceMoved:
    name: str
    before: ResourceLevel | None
    after: ResourceLevel


@dataclass(frozen=True)
class PathDrawn:
    a: CardId
    b: CardId
    drawn: bool  # False when erased


WorldEvent = (
    CardFlipped
    | Travelled
    | ClockMoved
    | SceneDetailAdded
    | PartySplit
    | FocusSwitched
    | PartyRegrouped
    | CardScouted
    | ResourceMoved
    | PathDrawn
)


# --------------------------------------------------------------------------- world


@dataclass(frozen=True)
class World:
    """Everything the table built, and where the party is now."""

    players: tuple[PlayerId, ...]
    tone: str = ""
    safety_tools: frozenset[SafetyTool] = frozenset()
    bans: tuple[Ban, ...] = ()
    settlement: tuple[Statement, ...] = ()
    scope: tuple[ScopeAnswer, ...] = ()
    resources: tuple[Resource, ...] = ()
    cards: tuple[LocationCard, ...] = ()
    grid: MapGrid | None = None
    current: CardId | None = None  # None: at home
    groups: tuple[frozenset[PlayerId], ...] = ()  # () = party together
    focus: int = 0
    projects: tuple[Project, ...] = ()

    def card(self, card_id: CardId) -> LocationCard:
        """The card with this id.

        Raises:
            Malformed: no such card.
        """
        for card in self.cards:
            if card.id == card_id:
                return card
        raise Malformed("There is no such location card.")

    def with_card(self, card: LocationCard) -> World:
        return replace(self, cards=tuple(card if c.id == card.id else c for c in self.cards))

    def require_player(self, player_id: PlayerId) -> None:
        if player_id not in self.players:
            raise NotAllowedNow("You are not playing at this table.")

    def project(self, project_id: str) -> Project:
        """The project with this id.

        Raises:
            Malformed: no such project.
        """
        for project in self.projects:
            if project.id == project_id:
                return project
        raise Malformed("There is no such long-term project.")

    def resource(self, name: str) -> Resource:
        key = name.strip().casefold()
        for res in self.resources:
            if res.name.casefold() == key:
                return res
        raise Malformed("The settlement has no resource by that name.")


# ------------------------------------------------------------------ resources


def abundances(world: World) -> tuple[Resource, ...]:
    return tuple(r for r in world.resources if r.level is ResourceLevel.ABUNDANCE)


def improve_resource(
    world: World, name: str, steps: int = 1
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Move a resource towards abundance by ``steps`` (a reward or a project).

    Raises:
        Malformed: unknown resource or non-positive steps.
        NotAllowedNow: it is already an abundance.
    """
    return _move_resource(world, name, steps)


def worsen_resource(
    world: World, name: str, steps: int = 1
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Move a resource towards scarcity by ``steps`` (collateral at home).

    Raises:
        Malformed: unknown resource or non-positive steps.
        NotAllowedNow: it is already a scarcity.
    """
    return _move_resource(world, name, -steps if steps > 0 else 0)


def _move_resource(world: World, name: str, delta: int) -> tuple[World, tuple[WorldEvent, ...]]:
    if delta == 0:
        raise Malformed("Move a resource by one step or more.")
    res = world.resource(name)
    target = max(ResourceLevel.SCARCITY, min(ResourceLevel.ABUNDANCE, res.level + delta))
    if target == res.level:
        if delta > 0:
            raise NotAllowedNow("{name} is already an abundance.", name=res.name)
        raise NotAllowedNow("{name} is already a scarcity.", name=res.name)
    new = Resource(res.name, ResourceLevel(target))
    world = replace(world, resources=tuple(new if r is res else r for r in world.resources))
    return world, (ResourceMoved(res.name, res.level, new.level),)


def add_resource(
    world: World, name: str, level: ResourceLevel = ResourceLevel.ABUNDANCE
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Add a new resource, e.g. a new abundance from an R3 reward.

    Raises:
        Malformed: empty name.
        NotAllowedNow: the name is already on the list.
    """
    clean = clean_text(name, "Name the resource.")
    if any(r.name.casefold() == clean.casefold() for r in world.resources):
        raise NotAllowedNow("{name} is already on the resource list.", name=clean)
    world = replace(world, resources=(*world.resources, Resource(clean, level)))
    return world, (ResourceMoved(clean, None, level),)


# ----------------------------------------------------------------- clocks, details


def tick_collateral(
    world: World, card_id: CardId, by: PlayerId, count: int = 1
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Tick a card's Collateral Clock; any player may, at any time (ruling 8)."""
    world.require_player(by)
    card = world.card(card_id)
    clock = card.clock.tick(count)
    return world.with_card(replace(card, clock=clock)), (
        ClockMoved(card_id, by, card.clock.ticks, clock.ticks),
    )


def untick_collateral(
    world: World, card_id: CardId, by: PlayerId, count: int = 1
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Take ticks back off a card's Collateral Clock; any player may (ruling 8)."""
    world.require_player(by)
    card = world.card(card_id)
    clock = card.clock.untick(count)
    return world.with_card(replace(card, clock=clock)), (
        ClockMoved(card_id, by, card.clock.ticks, clock.ticks),
    )


def move_collateral(
    world: World, card_id: CardId, delta: int
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Move a clock by a rule-driven amount, clamped to 0..8 (no actor)."""
    card = world.card(card_id)
    clock = card.clock.moved(delta)
    if clock == card.clock:
        return world, ()
    return world.with_card(replace(card, clock=clock)), (
        ClockMoved(card_id, None, card.clock.ticks, clock.ticks),
    )


def add_scene_detail(
    world: World, card_id: CardId, detail: str
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Record a scene detail on a revealed location.

    Raises:
        Malformed: empty detail.
        NotAllowedNow: the card is still face down.
    """
    text = clean_text(detail, "Write the scene detail.")
    card = world.card(card_id)
    if not card.revealed:
        raise NotAllowedNow("That location has not been revealed yet.")
    new = replace(card, scene_details=(*card.scene_details, text))
    return world.with_card(new), (SceneDetailAdded(card_id, text),)


# ---------------------------------------------------------------------- the map


def _grid(world: World) -> MapGrid:
    if world.grid is None:
        raise NotAllowedNow("The map has not been dealt yet.")
    return world.grid


def neighbours(world: World, card_id: CardId) -> tuple[CardId, ...]:
    """Cards next to ``card_id`` on the map (ruling 13)."""
    world.card(card_id)
    return _grid(world).neighbours(card_id)


def reachable_cards(world: World) -> tuple[CardId, ...]:
    """Cards the party can head to next from where it is.

    From a card: its neighbours, plus anything reached by passing through
    revealed (known) locations. From home: the cards next to home (every card
    when home is not placed on the map), and onwards through revealed cards.
    The current card itself is not included.
    """
    grid = _grid(world)
    start = grid.home_neighbours() if world.current is None else grid.neighbours(world.current)
    revealed = {c.id for c in world.cards if c.revealed}
    seen: set[CardId] = set()
    frontier = list(start)
    if world.current is not None:
        seen.add(world.current)
    reachable: set[CardId] = set()
    while frontier:
        cid = frontier.pop()
        if cid in reachable or cid == world.current:
            continue
        reachable.add(cid)
        if cid in revealed and cid not in seen:
            seen.add(cid)
            frontier.extend(grid.neighbours(cid))
    return tuple(c for c in grid.card_ids() if c in reachable)


def travel_to(world: World, card_id: CardId) -> tuple[World, tuple[WorldEvent, ...]]:
    """Head to a reachable card; a face-down card is flipped on arrival.

    A split party meets up to leave (the rules: "your characters will meet up ...
    and likely leave the area"): it travels together, and says so
    (:class:`PartyRegrouped` first).

    Raises:
        NotAllowedNow: the card is not reachable from here, or already here.
    """
    card = world.card(card_id)
    if card_id == world.current:
        raise NotAllowedNow("The party is already there.")
    if card_id not in reachable_cards(world):
        raise NotAllowedNow("That location is too far from here; go through a closer one.")
    events: list[WorldEvent] = [*_meeting_up(world), Travelled(card_id)]
    if not card.revealed:
        world = world.with_card(replace(card, revealed=True))
        events.append(CardFlipped(card_id, card.author_id))
    return replace(world, current=card_id, groups=(), focus=0), tuple(events)


def _meeting_up(world: World) -> tuple[WorldEvent, ...]:
    """A split party regroups before it leaves: said, never silent."""
    return (PartyRegrouped(world.players),) if world.groups else ()


def return_home(world: World) -> tuple[World, tuple[WorldEvent, ...]]:
    """The party goes back to the settlement and regroups (said, as for travel)."""
    if world.current is None:
        raise NotAllowedNow("The party is already at home.")
    events = (*_meeting_up(world), Travelled(None))
    return replace(world, current=None, groups=(), focus=0), events


def draw_path(
    world: World, a: CardId, b: CardId, drawn: bool = True
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Draw (or erase) a path between two cards; the map then uses paths only.

    Raises:
        Malformed: the same card twice, or an unknown card.
    """
    grid = _grid(world)
    if a == b:
        raise Malformed("A path joins two different cards.")
    grid.cell_of(a)
    grid.cell_of(b)
    key = frozenset((a, b))
    paths = grid.paths | {key} if drawn else grid.paths - {key}
    new_grid = replace(grid, paths=paths, connection=Connection.PATHS)
    return replace(world, grid=new_grid), (PathDrawn(a, b, drawn),)


def record_scout(
    world: World, card_id: CardId, player_id: PlayerId
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Let a player who scouted successfully see the card's face from now on."""
    world.require_player(player_id)
    card = world.card(card_id)
    if card.revealed:
        raise NotAllowedNow("That location is already face up for everyone.")
    new = replace(card, scouted_by=card.scouted_by | {player_id})
    return world.with_card(new), (CardScouted(card_id, player_id),)


# ------------------------------------------------------------- groups, Arbiters


def on_screen(world: World) -> frozenset[PlayerId]:
    """Players whose characters are on screen now."""
    if not world.groups:
        return frozenset(world.players)
    return world.groups[world.focus]


def arbiters(world: World, roller: PlayerId | None = None) -> frozenset[PlayerId]:
    """Who arbitrates now (ruling 7).

    Players off screen arbitrate. When nobody is off screen, every player but
    the ``roller`` does (with no roller given: everyone).
    """
    off = frozenset(world.players) - on_screen(world)
    if off:
        return off
    return frozenset(p for p in world.players if p != roller)


def split_party(
    world: World, group_a: Iterable[PlayerId], group_b: Iterable[PlayerId]
) -> tuple[World, tuple[WorldEvent, ...]]:
    """Split the party into two groups and put one on screen.

    The group holding the current card's author arbitrates first, so the
    other group starts on screen; ``group_a`` goes first otherwise.

    Raises:
        Malformed: groups empty, overlapping, or not covering every player.
    """
    a, b = frozenset(group_a), frozenset(group_b)
    if not a or not b:
        raise Malformed("Each group needs at least one character.")
    if a & b:
        raise Malformed("A character can only be in one group.")
    if a | b != frozenset(world.players):
        raise Malformed("Every character must be in one of the two groups.")
    groups = (a, b)
    focus = 0
    if world.current is not None and world.card(world.current).author_id in a:
        focus = 1
    world = replace(world, groups=groups, focus=focus)
    return world, (PartySplit(groups, groups[focus]),)


def switch_focus(world: World) -> tuple[World, tuple[WorldEvent, ...]]:
    """Put the other group on screen; the rest become the Arbiters.

    Raises:
        NotAllowedNow: the party is together.
    """
    if not world.groups:
        raise NotAllowedNow("The party is together; split up before switching focus.")
    world = replace(world, focus=1 - world.focus)
    return world, (FocusSwitched(on_screen(world), arbiters(world)),)


def regroup(world: World) -> tuple[World, tuple[WorldEvent, ...]]:
    """The characters meet up again."""
    if not world.groups:
        raise NotAllowedNow("The party is already together.")
    return replace(world, groups=(), focus=0), (PartyRegrouped(world.players),)


# ------------------------------------------------------------------- secrecy


@dataclass(frozen=True)
class CardView:
    """What one person may see of a card. Face fields are None when secret."""

    id: CardId
    danger: DangerLevel | None
    reward: RewardLevel | None
    revealed: bool
    face_visible: bool
    title: str | None = None
    description: str | None = None
    collateral_target: str | None = None
    danger_type: str | None = None
    treasure_type: str | None = None
    author_id: PlayerId | None = None
    clock_ticks: int | None = None
    scene_details: tuple[str, ...] | None = None


def can_see_face(card: LocationCard, viewer_id: PlayerId | None) -> bool:
    """True when ``viewer_id`` may read the card's face (ruling 12)."""
    if card.revealed:
        return True
    if viewer_id is None:
        return False
    return viewer_id == card.author_id or viewer_id in card.scouted_by


def may_picture(card: LocationCard, viewer_id: PlayerId | None) -> bool:
    """True when ``viewer_id`` may give the card a picture: only its author may."""
    return viewer_id is not None and viewer_id == card.author_id


def visible_card(card: LocationCard, viewer_id: PlayerId | None) -> CardView:
    """The part of ``card`` that ``viewer_id`` may see; None means a bystander.

    The back (Danger and Reward) is always visible. The face, clock, scene
    details and author stay hidden until the card is flipped, unless the viewer
    wrote it or scouted it. Who scouted a card is never shown.
    """
    if not can_see_face(card, viewer_id):
        return CardView(card.id, card.danger, card.reward, revealed=False, face_visible=False)
    return CardView(
        id=card.id,
        danger=card.danger,
        reward=card.reward,
        revealed=card.revealed,
        face_visible=True,
        title=card.title,
        description=card.description,
        collateral_target=card.collateral_target,
        danger_type=card.danger_type,
        treasure_type=card.treasure_type,
        author_id=card.author_id,
        clock_ticks=card.clock.ticks,
        scene_details=card.scene_details,
    )


HIDDEN_FACE = "(face down)"
HIDDEN_AUTHOR: PlayerId = 0  # no Telegram user has id 0


def card_seen_by(card: LocationCard, viewer_id: PlayerId, *, dealt: bool) -> LocationCard:
    """``card`` as ``viewer_id`` may keep it (ruling 12).

    A face they may not read loses its face, its scene details and its Collateral
    Clock; once the map is dealt it loses its author too (before, the drafts are
    not on the map and say only how many each player wrote). Who else scouted a
    card is never kept: only the viewer's own look.
    """
    scouted = card.scouted_by & {viewer_id}
    if can_see_face(card, viewer_id):
        return card if scouted == card.scouted_by else replace(card, scouted_by=scouted)
    return replace(
        card,
        author_id=HIDDEN_AUTHOR if dealt else card.author_id,
        title=HIDDEN_FACE,
        description=HIDDEN_FACE,
        collateral_target=HIDDEN_FACE,
        danger_type=HIDDEN_FACE,
        treasure_type=HIDDEN_FACE,
        clock=CollateralClock(),
        scene_details=(),
        scouted_by=frozenset(),
    )


def world_seen_by(world: World, viewer_id: PlayerId) -> World:
    """The world with every secret ``viewer_id`` may not read left out (ruling 12).

    For every copy a viewer is shown or keeps (a page, an export): the backs and
    the map stay; each card they neither wrote, scouted nor saw flipped keeps
    nothing of its face (see :func:`card_seen_by`).
    """
    dealt = world.grid is not None
    cards = tuple(card_seen_by(card, viewer_id, dealt=dealt) for card in world.cards)
    return replace(world, cards=cards)


@dataclass(frozen=True)
class MapView:
    """The map as one person may see it."""

    rows: tuple[tuple[CardView | None, ...], ...]
    current: CardId | None
    reachable: tuple[CardId, ...]
    home: Cell | None


def visible_map(world: World, viewer_id: PlayerId | None) -> MapView:
    """The whole map through :func:`visible_card` for one viewer."""
    grid = _grid(world)
    rows = tuple(
        tuple(None if cid is None else visible_card(world.card(cid), viewer_id) for cid in row)
        for row in grid.rows
    )
    return MapView(rows, world.current, reachable_cards(world), grid.home)


# ----------------------------------------------------------------- serialising


def world_to_dict(world: World) -> dict[str, Any]:
    """A JSON-able dict of the whole world (secrets included: store it safely)."""
    return {
        "players": list(world.players),
        "tone": world.tone,
        "safety_tools": sorted(t.value for t in world.safety_tools),
        "bans": [{"author_id": b.author_id, "text": b.text} for b in world.bans],
        "settlement": [
            {"author_id": s.author_id, "text": s.text, "builds_on": s.builds_on}
            for s in world.settlement
        ],
        "scope": [
            {
                "question": None if a.question is None else a.question.value,
                "text": a.text,
                "author_id": a.author_id,
            }
            for a in world.scope
        ],
        "resources": [{"name": r.name, "level": r.level.name.lower()} for r in world.resources],
        "cards": [card_to_dict(c) for c in world.cards],
        "grid": None if world.grid is None else _grid_to_dict(world.grid),
        "current": world.current,
        "groups": [sorted(g) for g in world.groups],
        "focus": world.focus,
        "projects": [
            {
                "id": p.id,
                "owner_id": p.owner_id,
                "name": p.name,
                "segments": p.segments,
                "filled": p.filled,
                "resource": p.resource,
                "card_id": p.card_id,
            }
            for p in world.projects
        ],
    }


def _project_from_dict(p: Mapping[str, Any]) -> Project:
    return Project(
        id=str(p["id"]),
        owner_id=int(p["owner_id"]),
        name=str(p["name"]),
        segments=int(p["segments"]),
        filled=int(p["filled"]),
        resource=p["resource"],
        card_id=p["card_id"],
    )


def world_from_dict(data: Mapping[str, Any]) -> World:
    """Rebuild a world from :func:`world_to_dict` output.

    Raises:
        Malformed: the data is not a stored world.
    """
    try:
        return World(
            players=tuple(int(p) for p in data["players"]),
            tone=str(data["tone"]),
            safety_tools=frozenset(SafetyTool(t) for t in data["safety_tools"]),
            bans=tuple(Ban(int(b["author_id"]), str(b["text"])) for b in data["bans"]),
            settlement=tuple(
                Statement(int(s["author_id"]), str(s["text"]), s["builds_on"])
                for s in data["settlement"]
            ),
            scope=tuple(
                ScopeAnswer(
                    None if a["question"] is None else ScopeQuestion(a["question"]),
                    str(a["text"]),
                    int(a["author_id"]),
                )
                for a in data["scope"]
            ),
            resources=tuple(
                Resource(str(r["name"]), ResourceLevel[str(r["level"]).upper()])
                for r in data["resources"]
            ),
            cards=tuple(card_from_dict(c) for c in data["cards"]),
            grid=None if data["grid"] is None else _grid_from_dict(data["grid"]),
            current=data["current"],
            groups=tuple(frozenset(int(p) for p in g) for g in data["groups"]),
            focus=int(data["focus"]),
            projects=tuple(_project_from_dict(p) for p in data.get("projects", ())),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise Malformed("That saved world could not be read.") from exc


def card_to_dict(card: LocationCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "author_id": card.author_id,
        "title": card.title,
        "description": card.description,
        "collateral_target": card.collateral_target,
        "danger_type": card.danger_type,
        "treasure_type": card.treasure_type,
        "danger": None if card.danger is None else int(card.danger),
        "reward": None if card.reward is None else int(card.reward),
        "clock": card.clock.ticks,
        "scene_details": list(card.scene_details),
        "revealed": card.revealed,
        "scouted_by": sorted(card.scouted_by),
        "reward_claimed": card.reward_claimed,
    }


def card_from_dict(data: Mapping[str, Any]) -> LocationCard:
    return LocationCard(
        id=str(data["id"]),
        author_id=int(data["author_id"]),
        title=str(data["title"]),
        description=str(data["description"]),
        collateral_target=str(data["collateral_target"]),
        danger_type=str(data["danger_type"]),
        treasure_type=str(data["treasure_type"]),
        danger=None if data["danger"] is None else DangerLevel(int(data["danger"])),
        reward=None if data["reward"] is None else RewardLevel(int(data["reward"])),
        clock=CollateralClock(int(data["clock"])),
        scene_details=tuple(str(d) for d in data["scene_details"]),
        revealed=bool(data["revealed"]),
        scouted_by=frozenset(int(p) for p in data["scouted_by"]),
        reward_claimed=bool(data.get("reward_claimed", False)),
    )


def _grid_to_dict(grid: MapGrid) -> dict[str, Any]:
    return {
        "rows": [list(row) for row in grid.rows],
        "connection": grid.connection.value,
        "paths": sorted(sorted(p) for p in grid.paths),
        "home": None if grid.home is None else list(grid.home),
    }


def _grid_from_dict(data: Mapping[str, Any]) -> MapGrid:
    home = data["home"]
    return MapGrid(
        rows=tuple(tuple(c for c in row) for row in data["rows"]),
        connection=Connection(data["connection"]),
        paths=frozenset(frozenset(p) for p in data["paths"]),
        home=None if home is None else (int(home[0]), int(home[1])),
    )


def clean_text(text: str, empty_message: str, limit: int = 500) -> str:
    """Strip text; refuse empty or very long text."""
    if not isinstance(text, str):
        raise Malformed(empty_message)
    out = text.strip()
    if not out:
        raise Malformed(empty_message)
    if len(out) > limit:
        raise Malformed("Please keep it under {limit} characters.", limit=limit)
    return out
