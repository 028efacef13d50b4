"""What happened, as data: the edges turn these into messages.

Every event is a frozen dataclass; a step of the rules returns them in the
order they happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from core.rules.d20check.check import CheckResult, Natural
from core.rules.d20check.plot_points import PlotPointKind


class RollReason(Enum):
    """Why the dice were rolled."""

    FIRST = "first"
    RETRY = "retry"  # the roller spent a lucky point after failing
    REROLL = "reroll"  # the roller spent an unlucky point after succeeding
    FORCED_REROLL = "forced_reroll"  # the Game Master made the player roll again
    GM_REROLL = "gm_reroll"  # the Game Master rolled their own check again
    RECOVERY = "recovery"  # a wound's recovery check at a long rest


@dataclass(frozen=True)
class Rolled:
    reason: RollReason
    result: CheckResult


@dataclass(frozen=True)
class PlotPointSpent:
    """``by`` spent a point of ``kind``; it is now of the other kind."""

    by: int
    kind: PlotPointKind


@dataclass(frozen=True)
class PlotPointTurned:
    """A natural 1 or 20 turned a point to ``now``."""

    natural: Natural
    now: PlotPointKind


@dataclass(frozen=True)
class GameMasterPicksEffect:
    """A natural 1 or 20 found no point to turn: the Game Master picks another effect."""

    natural: Natural


@dataclass(frozen=True)
class HarmChanged:
    """Strain and wounds moved; ``wounds_lost_past_limit`` counts wounds beyond the last box."""

    strain_before: int
    wounds_before: int
    strain_after: int
    wounds_after: int
    wounds_lost_past_limit: int = 0


@dataclass(frozen=True)
class CheckResolved:
    """The check is over and ``result`` stands."""

    result: CheckResult


@dataclass(frozen=True)
class WoundsRecovered:
    count: int


Event = (
    Rolled
    | PlotPointSpent
    | PlotPointTurned
    | GameMasterPicksEffect
    | HarmChanged
    | CheckResolved
    | WoundsRecovered
)
