"""Where worldbuilding stands for one viewer: the step, who is awaited, what they may do.

Pure: reads a :class:`SetupState`, decides nothing new. Who may act comes from
:func:`core.rules.nsu.setup.allowed_actions`, so a page built on this offers
exactly the moves the rules would accept (and the rules check again anyway).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.rules.nsu.setup import (
    ActionKind,
    SetupState,
    SetupStep,
    allowed_actions,
    describe_step,
    expected_step_order,
)
from core.rules.nsu.world import RESOURCE_COUNT, PlayerId, ScopeQuestion

_STEPS = tuple(s for s in expected_step_order() if s is not SetupStep.DONE)


@dataclass(frozen=True)
class SetupTurn:
    """Worldbuilding as one viewer sees it now."""

    step: SetupStep
    label: str
    number: int  # 1-based among the steps before DONE (len(_STEPS) + 1 when done)
    steps: int
    building: bool  # the viewer is one of those building this world
    can: frozenset[ActionKind]  # what the viewer may do now
    waiting_for: tuple[PlayerId, ...]  # who still has something to do, in seat order
    speaker: PlayerId | None  # whose turn it is in the settlement round
    choose_first: bool  # the first settlement speaker may still be chosen
    open_questions: tuple[ScopeQuestion, ...]  # scope questions nobody answered yet
    resources_left: int  # resources still to name before the abundance
    one_each: bool  # resources: everyone names one before anyone names a second


def setup_turn(setup: SetupState, viewer: PlayerId) -> SetupTurn:
    """The step, the turn and the viewer's own moves."""
    allowed = allowed_actions(setup)
    can = allowed.get(viewer, frozenset())
    answered = {a.question for a in setup.world.scope}
    step = setup.step
    number = _STEPS.index(step) + 1 if step in _STEPS else len(_STEPS) + 1
    settlement = step is SetupStep.SETTLEMENT
    return SetupTurn(
        step=step,
        label=describe_step(step),
        number=number,
        steps=len(_STEPS),
        building=viewer in setup.players,
        can=can,
        waiting_for=tuple(p for p in setup.players if p in allowed),
        speaker=setup.speaker if settlement else None,
        choose_first=ActionKind.CHOOSE_FIRST_SPEAKER in can,
        open_questions=tuple(q for q in ScopeQuestion if q not in answered),
        resources_left=max(RESOURCE_COUNT - len(setup.world.resources), 0),
        one_each=step is SetupStep.RESOURCES and not setup.done >= set(setup.players),
    )


__all__ = ["SetupTurn", "setup_turn"]
