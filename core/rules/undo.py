"""Taking a step back: which step a player may undo now (pure).

A *step* is one change a player made to a campaign: a press or a reply on a
panel, or a Mini App edit. Invariants, for every game system:

- a step is taken back only by the player who took it;
- only while it is that campaign's latest step: once someone else acts on top
  of it, it stands;
- a step that drew on chance (dice, a shuffle, a deal) is never taken back,
  and neither is anything before it: rolled dice are final, the choices made
  before the roll are undoable until the dice fall;
- a step that showed someone something (a card flipped for the table, a private
  look at a face-down card) is never taken back: what was seen cannot be unseen.
  Each system marks its revealing events (:attr:`UndoRules.revealing`);
- a step that finished its panel stands: its procedure is over, and a finished
  panel offers no ``↩ Undo``;
- a system may call some further steps final (for example a safety call the
  whole table has seen).

The rules offer the step back as one more :class:`~core.rules.choice.Choice`
(:attr:`Common.UNDO <core.rules.choice.Common.UNDO>`, open to the step's author
alone; :func:`undo_choice`); the edges only label it and lay it out.

Whether a step drew on chance is found by counting what it asked of the
:class:`~core.rules.rng.Rng` (:class:`TallyRng`), so no system has to report it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from core.rules.catalogue import N_
from core.rules.choice import Choice, Common
from core.rules.errors import NotAllowedNow
from core.rules.log import Words, words
from core.rules.rng import Rng
from core.rules.said import Said

UNDO_ACTION = "undo"
A_STEP = N_("a step")  # an anonymous step's name
MINI_APP_CHANGE = N_("a change in the Mini App")  # an edit its system gave no name
TOOK_BACK = N_("{symbol} {name} took back: {label}")
UNDO_SYMBOL = "↩"
NO_ONE = 0  # the author of an anonymous step


class TallyRng:
    """An :class:`Rng` that counts how often it was asked (pure: it wraps another)."""

    def __init__(self, rng: Rng) -> None:
        self._rng = rng
        self.draws = 0

    def randint(self, low: int, high: int) -> int:
        self.draws += 1
        return self._rng.randint(low, high)

    @property
    def rolled(self) -> bool:
        """Whether any die (or shuffle, or deal) was drawn."""
        return self.draws > 0


@dataclass(frozen=True)
class StepTaken:
    """One step in a campaign's recent history, oldest first in a sequence.

    Attributes:
        actor: who took it (Telegram id).
        label: what it was, for people ("a worldbuilding answer").
        rolled: it drew on chance.
        final: its system says it stands.
        revealed: it showed someone something (a flipped card, a private look), or
            finished its panel.
    """

    actor: int
    label: str
    rolled: bool = False
    final: bool = False
    revealed: bool = False


class Refusal(StrEnum):
    """Why a step cannot be taken back."""

    NOTHING = "nothing"
    SOMEONE_ELSE = "someone_else"
    ROLLED = "rolled"
    REVEALED = "revealed"
    FINAL = "final"


REFUSALS: dict[Refusal, str] = {
    Refusal.NOTHING: "You have nothing to take back here.",
    Refusal.SOMEONE_ELSE: (
        "Someone else acted after your last step, so it stands. Ask the table if it should change."
    ),
    Refusal.ROLLED: "The dice were rolled on your last step: rolled dice stand.",
    Refusal.REVEALED: (
        "Your last step ({label}) showed the table something or finished its panel:"
        " what was seen stands."
    ),
    Refusal.FINAL: "Your last step ({label}) can't be taken back.",
}


def refusal(history: Sequence[StepTaken], actor: int) -> Refusal | None:
    """Why ``actor`` may not take back their latest step of ``history``, or None if they may.

    Args:
        history: the campaign's steps not taken back yet, oldest first.
        actor: who asks.
    """
    if not history:
        return Refusal.NOTHING
    latest = history[-1]
    if latest.actor != actor:
        mine = any(step.actor == actor for step in history)
        return Refusal.SOMEONE_ELSE if mine else Refusal.NOTHING
    if latest.rolled:
        return Refusal.ROLLED
    if latest.revealed:
        return Refusal.REVEALED
    if latest.final:
        return Refusal.FINAL
    return None


def may_undo(history: Sequence[StepTaken], actor: int) -> bool:
    """Whether ``actor`` may take back the latest step of ``history`` now."""
    return refusal(history, actor) is None


def undo_choice(history: Sequence[StepTaken]) -> Choice[Common] | None:
    """The ``↩ Undo`` the rules offer after ``history``, or None.

    It is open to the author of the latest step alone, while they may take it back.

    Args:
        history: the campaign's steps not taken back yet, oldest first (only the
            latest one decides).
    """
    if not history:
        return None
    author = history[-1].actor
    if not may_undo(history, author):
        return None
    return Choice(Common.UNDO, by=frozenset({author}))


def check_undo(history: Sequence[StepTaken], actor: int) -> StepTaken:
    """The step ``actor`` takes back now.

    Raises:
        NotAllowedNow: they have none, someone acted on top, the dice were rolled,
            or the system calls the step final (the message says which).
    """
    why = refusal(history, actor)
    if why is not None:
        label = history[-1].label if history else ""
        raise NotAllowedNow(REFUSALS[why], label=Said(label))
    return history[-1]


def _no_final(kind: str, action: str) -> bool:
    return False


def _plain_label(kind: str, action: str) -> str:
    return f"a step on the {kind.split('.')[-1]} panel" if kind else "a change in the Mini App"


@dataclass(frozen=True)
class UndoRules:
    """What one game system says about undo, beyond the rules every system shares.

    Attributes:
        final: whether a step (panel kind, or "" for a Mini App edit; action) stands
            although it drew on no chance.
        anonymous: whether a step is kept without its author (it then stands too,
            and counts as someone else's for everyone).
        label: how a step is named to people.
        panel_names: how a step on each panel kind is named.
        edit_names: a name per Mini App edit action, or per group of them ("setup."
            names every ``setup.*`` edit); names are message ids (marked with ``N_``).
        revealing: the system's events that show someone something (a card turned
            face up, a private look): a step with one of them stands.
    """

    final: Callable[[str, str], bool] = _no_final
    anonymous: Callable[[str, str], bool] = _no_final
    panel_names: dict[str, str] = field(default_factory=dict)
    edit_names: dict[str, str] = field(default_factory=dict)
    revealing: tuple[type, ...] = ()

    def reveals(self, events: Sequence[object]) -> bool:
        """Whether a step's events show someone something it cannot unsee."""
        return bool(self.revealing) and any(isinstance(e, self.revealing) for e in events)

    def label(self, kind: str, action: str) -> str:
        """How a step reads in "↩ Alice took back: …"."""
        if not kind:
            group = action.split(".", 1)[0] + "."
            return self.edit_names.get(action) or self.edit_names.get(group) or MINI_APP_CHANGE
        name = self.panel_names.get(kind)
        return name or _plain_label(kind, action)

    def step(
        self,
        actor: int,
        kind: str,
        action: str,
        rolled: bool,
        events: Sequence[object] = (),
        *,
        finished: bool = False,
    ) -> StepTaken:
        """The record of one step just taken (an anonymous one has actor 0 and stands).

        Args:
            events: what the step did (:attr:`core.rules.table.Outcome.events`).
            finished: the step closed its panel (the procedure is over).
        """
        if self.anonymous(kind, action):
            return StepTaken(NO_ONE, A_STEP, rolled, final=True)
        revealed = finished or self.reveals(events)
        return StepTaken(
            actor, self.label(kind, action), rolled, self.final(kind, action), revealed
        )


def taken_back(name: str, label: str) -> str:
    """The log line of an undo (English; :func:`taken_back_words` for every language)."""
    return f"{UNDO_SYMBOL} {name} took back: {label}"


def taken_back_words(name: str, label: str) -> Words:
    """The log line of an undo, as a message id and values (the label is one too)."""
    return words(TOOK_BACK, symbol=UNDO_SYMBOL, name=name, label=words(label))
