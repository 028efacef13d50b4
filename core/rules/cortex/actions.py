"""What people can do at a Cortex table, and what the rules report back.

Actions are requests; :func:`core.rules.cortex.contest.apply` checks who sent
them and when. Events are plain data for the edges to render. Invariant: all
are frozen; no action or event holds framework objects or formatted text.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.rules.cortex.dice import Die, RolledDie
from core.rules.cortex.pool import Pick
from core.rules.cortex.state import Ending, Kind, Roll
from core.rules.cortex.stress import StressChange

# --- actions ---------------------------------------------------------------


@dataclass(frozen=True)
class StartTest:
    """A Lead (or Feature) tries something against the Watchtower's opposition."""

    actor: str


@dataclass(frozen=True)
class StartContest:
    """Two characters oppose each other; ``actor`` rolls first."""

    actor: str
    reactor: str


@dataclass(frozen=True)
class StartRelief:
    """``reliever`` tries to relieve one Stress of ``friend``."""

    reliever: str
    friend: str
    stress_type: str


@dataclass(frozen=True)
class SetOpposition:
    """The Watchtower rolls these dice as a Test's opposition."""

    dice: tuple[Die, ...]


@dataclass(frozen=True)
class RollStressOpposition:
    """The stressed friend rolls all their Stress against the relief."""


@dataclass(frozen=True)
class AddToPool:
    pick: Pick


@dataclass(frozen=True)
class RemoveFromPool:
    pick: Pick


@dataclass(frozen=True)
class CreateDetail:
    """Buy a Useful Detail (a d6, or for a Feature optionally a die from Trouble)."""

    name: str
    from_trouble: Die | None = None


@dataclass(frozen=True)
class OfferAid:
    """A Lead or Feature outside the conflict aids the roller with their own traits."""

    helper: str
    picks: tuple[Pick, ...]


@dataclass(frozen=True)
class UseResource:
    """The roller's Resource aids; ``use_up`` counts both its dice and spends it."""

    name: str
    use_up: bool = False


@dataclass(frozen=True)
class RollPool:
    """Pay for the extras and roll the pool and every Aid."""


@dataclass(frozen=True)
class IncludeDie:
    """Pay a Plot Point to include the next best die in the Result."""


@dataclass(frozen=True)
class Settle:
    """Lock the Result in."""


@dataclass(frozen=True)
class GiveIn:
    """The reacting side gives in: no Stress, the other side gets its way."""


@dataclass(frozen=True)
class TakeStress:
    """The beaten reactor does not give in."""


@dataclass(frozen=True)
class InflictStress:
    """Roll the stress pool (with Asset fiddling) and inflict that type of Stress."""

    stress_type: str
    add: tuple[Die, ...] = ()
    remove: tuple[Die, ...] = ()


@dataclass(frozen=True)
class DeclareStressedOut:
    """After winning by 5 or more: the reactor is Stressed Out."""


@dataclass(frozen=True)
class ActivateComplication:
    """The Watchtower pays a Plot Point and moves a Lead's 1 into Trouble."""

    index: int


@dataclass(frozen=True)
class CancelTrouble:
    """A player uses a Watchtower 1 to remove a Trouble die no larger than it."""

    one: int
    trouble: int


@dataclass(frozen=True)
class Interfere:
    """Someone outside a Contest pays the Watchtower a Plot Point and rolls."""

    interferer: str


@dataclass(frozen=True)
class Vote:
    """A contestant says whether to start a stopped Contest again."""

    character: str
    keep_going: bool


@dataclass(frozen=True)
class EndScene:
    """Useful Details, open 1s, Stressed Out and any conflict end with the scene."""


@dataclass(frozen=True)
class EndEpisode:
    """The scene ends, all Stress steps back, challenged Values are ready again."""


Action = (
    StartTest
    | StartContest
    | StartRelief
    | SetOpposition
    | RollStressOpposition
    | AddToPool
    | RemoveFromPool
    | CreateDetail
    | OfferAid
    | UseResource
    | RollPool
    | IncludeDie
    | Settle
    | GiveIn
    | TakeStress
    | InflictStress
    | DeclareStressedOut
    | ActivateComplication
    | CancelTrouble
    | Interfere
    | Vote
    | EndScene
    | EndEpisode
)

# --- events ----------------------------------------------------------------

WATCHTOWER = ""  # payer/payee name used for the Watchtower's endless supply


@dataclass(frozen=True)
class ConflictStarted:
    kind: Kind
    actor: str
    reactor: str


@dataclass(frozen=True)
class OppositionRolled:
    dice: tuple[RolledDie, ...]
    result: int


@dataclass(frozen=True)
class PlotPointsPaid:
    """``payer`` gave ``amount`` Plot Points to ``payee`` (``WATCHTOWER`` for the supply)."""

    payer: str
    payee: str
    amount: int
    reason: str


@dataclass(frozen=True)
class DetailCreated:
    owner: str
    name: str
    die: Die
    from_trouble: bool


@dataclass(frozen=True)
class ValueChallenged:
    character: str
    value: str
    die: Die


@dataclass(frozen=True)
class PoolRolled:
    roll: Roll
    result: int
    complications: tuple[Die, ...]


@dataclass(frozen=True)
class DieIncluded:
    roller: str
    result: int


@dataclass(frozen=True)
class ActionSet:
    """``actor``'s Result is now the Action to beat."""

    actor: str
    result: int
    swapped: bool


@dataclass(frozen=True)
class ConflictEnded:
    kind: Kind
    ending: Ending
    winner: str
    loser: str
    margin: int


@dataclass(frozen=True)
class ActorWon:
    actor: str
    reactor: str
    margin: int


@dataclass(frozen=True)
class StressRolled:
    inflicter: str
    dice: tuple[RolledDie, ...]
    size: Die | None


@dataclass(frozen=True)
class StressInflicted:
    inflicter: str
    change: StressChange


@dataclass(frozen=True)
class StressedOut:
    character: str


@dataclass(frozen=True)
class Relieved:
    friend: str
    stress_type: str
    growth: Die


@dataclass(frozen=True)
class ComplicationActivated:
    owner: str
    die: Die


@dataclass(frozen=True)
class TroubleCancelled:
    by: str
    one: Die
    removed: Die


@dataclass(frozen=True)
class InterferenceRolled:
    interferer: str
    result: int
    stopped: bool


@dataclass(frozen=True)
class ContestResumed:
    order: tuple[str, ...]


@dataclass(frozen=True)
class SceneEnded:
    episode: bool


Event = (
    ConflictStarted
    | OppositionRolled
    | PlotPointsPaid
    | DetailCreated
    | ValueChallenged
    | PoolRolled
    | DieIncluded
    | ActionSet
    | ConflictEnded
    | ActorWon
    | StressRolled
    | StressInflicted
    | StressedOut
    | Relieved
    | ComplicationActivated
    | TroubleCancelled
    | InterferenceRolled
    | ContestResumed
    | SceneEnded
)
