"""Natural 1 and natural 20 on a player's check.

Invariants:
    * Only the kept d20 counts (ruling 19).
    * A natural 1 turns one lucky point unlucky; a natural 20 turns one
      unlucky point lucky. With none of the needed kind, the pool is unchanged
      and the Game Master picks another effect.
    * Only checks made by players turn points; the Game Master's own checks do not.
"""

from __future__ import annotations

from core.rules.d20check.check import CheckResult, Natural
from core.rules.d20check.events import Event, GameMasterPicksEffect, PlotPointTurned
from core.rules.d20check.plot_points import PlotPointKind, PlotPointPool


def natural_effects(pool: PlotPointPool, result: CheckResult) -> tuple[PlotPointPool, list[Event]]:
    """The pool after a player's roll, and what happened to it."""
    natural = result.roll.natural
    if natural is None:
        return pool, []
    new_pool, turned = pool.after_natural(natural)
    if not turned:
        return pool, [GameMasterPicksEffect(natural)]
    now = PlotPointKind.UNLUCKY if natural is Natural.ONE else PlotPointKind.LUCKY
    return new_pool, [PlotPointTurned(natural, now)]
