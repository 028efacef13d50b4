"""Shared helpers for the d20 check tests."""

from __future__ import annotations

from collections.abc import Iterable

from core.rules.d20check import (
    ActionKind,
    CharacterSheet,
    CheckFlow,
    CheckSetup,
    Difficulty,
    PlotPointPool,
    Step,
    Target,
)
from core.rules.rng import ScriptedRng

ROLLER = 1
GM = 2
OTHER = 3


class CountingRng:
    """Wraps an RNG and counts the draws, to prove refusals draw nothing."""

    def __init__(self, inner: ScriptedRng) -> None:
        self.inner = inner
        self.draws = 0

    def randint(self, low: int, high: int) -> int:
        self.draws += 1
        return self.inner.randint(low, high)


def rolled(
    faces: Iterable[int],
    pool: PlotPointPool,
    *,
    target: Target | None = None,
    setup: CheckSetup | None = None,
    roller: int = ROLLER,
    sheet: CharacterSheet | None = None,
) -> Step:
    """Open a check (difficulty 10, average by default) at a table of the roller,
    another player and the Game Master, and roll the given faces."""
    check = CheckFlow.open(
        roller,
        GM,
        target if target is not None else Difficulty(10),
        setup or CheckSetup(),
        players=(ROLLER, OTHER),
    )
    return check.act(roller, ActionKind.ROLL, pool=pool, rng=ScriptedRng(faces), sheet=sheet)


def then(step: Step, actor: int, action: ActionKind, faces: Iterable[int] = ()) -> Step:
    """Do one more action on a step, with scripted faces."""
    return step.check.act(actor, action, pool=step.pool, rng=ScriptedRng(faces), sheet=step.sheet)
