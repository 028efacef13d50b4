"""Actions of the NSU Action Roll: small frozen values, each naming who acts.

Every action carries ``actor`` (a player id) and a class-level ``kind``. They
hold only what the player chose; :func:`core.rules.nsu.action_roll.apply`
decides whether it is allowed. ``action_to_dict`` / ``action_from_dict`` store
them as plain data tagged with their kind.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from core.rules.errors import Malformed
from core.rules.nsu.codec import from_plain, to_plain
from core.rules.nsu.terms import Aspect, Risk

PlayerId = int


class ActionKind(enum.Enum):
    STATE_OUTCOME = "state_outcome"
    CHOOSE_ASPECT = "choose_aspect"
    CHOOSE_RISK = "choose_risk"
    CHOOSE_MOOD = "choose_mood"
    SET_ASPECT_EDGE = "set_aspect_edge"
    CHOOSE_SKILL = "choose_skill"
    CREATE_SKILL = "create_skill"
    RISK_SENTIMENT = "risk_sentiment"
    ROLL = "roll"
    HELP = "help"
    KEEP_DIE = "keep_die"
    TAKE_HELPER_DIE = "take_helper_die"
    CHOOSE_SKILL_SIGN = "choose_skill_sign"
    RENAME_MOOD = "rename_mood"
    ENDANGER_SENTIMENT = "endanger_sentiment"
    CANCEL = "cancel"


# -- actions -------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """Base of every action: who is acting."""

    kind: ClassVar[ActionKind]
    actor: PlayerId


@dataclass(frozen=True)
class StateOutcome(Action):
    kind: ClassVar[ActionKind] = ActionKind.STATE_OUTCOME
    text: str


@dataclass(frozen=True)
class ChooseAspect(Action):
    kind: ClassVar[ActionKind] = ActionKind.CHOOSE_ASPECT
    aspect: Aspect


@dataclass(frozen=True)
class ChooseRisk(Action):
    kind: ClassVar[ActionKind] = ActionKind.CHOOSE_RISK
    risk: Risk


@dataclass(frozen=True)
class ChooseMood(Action):
    """Pick the mood on ``line`` (0..5); ``new_name`` writes a mood on an open line."""

    kind: ClassVar[ActionKind] = ActionKind.CHOOSE_MOOD
    line: int
    new_name: str | None = None


@dataclass(frozen=True)
class SetAspectEdge(Action):
    """Details that favour or hinder the roll (names, for the record)."""

    kind: ClassVar[ActionKind] = ActionKind.SET_ASPECT_EDGE
    favouring: tuple[str, ...] = ()
    hindering: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChooseSkill(Action):
    kind: ClassVar[ActionKind] = ActionKind.CHOOSE_SKILL
    index: int


@dataclass(frozen=True)
class CreateSkill(Action):
    kind: ClassVar[ActionKind] = ActionKind.CREATE_SKILL
    name: str


@dataclass(frozen=True)
class RiskSentiment(Action):
    kind: ClassVar[ActionKind] = ActionKind.RISK_SENTIMENT
    index: int


@dataclass(frozen=True)
class Roll(Action):
    kind: ClassVar[ActionKind] = ActionKind.ROLL


@dataclass(frozen=True)
class Help(Action):
    """An ally helps: picks (or writes) one of their moods, raises it and rolls it."""

    kind: ClassVar[ActionKind] = ActionKind.HELP
    line: int
    new_name: str | None = None


class PoolKind(enum.Enum):
    ASPECT = "aspect"
    MOOD = "mood"
    HELP = "help"


@dataclass(frozen=True)
class KeepDie(Action):
    """Keep face ``index`` (0 or 1) of a doubled pool."""

    kind: ClassVar[ActionKind] = ActionKind.KEEP_DIE
    pool: PoolKind
    owner: PlayerId
    index: int


@dataclass(frozen=True)
class TakeHelperDie(Action):
    """Use ``helper``'s die in place of the roller's mood die, or None to keep your own."""

    kind: ClassVar[ActionKind] = ActionKind.TAKE_HELPER_DIE
    helper: PlayerId | None


@dataclass(frozen=True)
class ChooseSkillSign(Action):
    kind: ClassVar[ActionKind] = ActionKind.CHOOSE_SKILL_SIGN
    add: bool


@dataclass(frozen=True)
class RenameMood(Action):
    """The winning side gives a filled mood a stronger name."""

    kind: ClassVar[ActionKind] = ActionKind.RENAME_MOOD
    owner: PlayerId
    new_name: str


@dataclass(frozen=True)
class EndangerSentiment(Action):
    """Pick which sentiment of your own takes the next box."""

    kind: ClassVar[ActionKind] = ActionKind.ENDANGER_SENTIMENT
    index: int


@dataclass(frozen=True)
class CancelRoll(Action):
    """Call the roll off before the dice are rolled (no roll was needed after all)."""

    kind: ClassVar[ActionKind] = ActionKind.CANCEL


ACTION_TYPES: dict[ActionKind, type[Action]] = {
    cls.kind: cls
    for cls in (
        StateOutcome,
        ChooseAspect,
        ChooseRisk,
        ChooseMood,
        SetAspectEdge,
        ChooseSkill,
        CreateSkill,
        RiskSentiment,
        Roll,
        Help,
        KeepDie,
        TakeHelperDie,
        ChooseSkillSign,
        RenameMood,
        EndangerSentiment,
        CancelRoll,
    )
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """A JSON-ready copy of an action, tagged with its kind (for logs and replays)."""
    return {"kind": action.kind.value, **to_plain(action)}


def action_from_dict(data: object) -> Action:
    """Read back :func:`action_to_dict` output.

    Raises:
        Malformed: unknown kind or damaged data.
    """
    if not isinstance(data, dict):
        raise Malformed("An action is stored as an object.")
    fields = dict(data)
    try:
        cls = ACTION_TYPES[ActionKind(fields.pop("kind", None))]
    except ValueError:
        raise Malformed("Unknown kind of action.") from None
    return from_plain(cls, fields)
