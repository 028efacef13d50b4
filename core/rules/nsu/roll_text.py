"""Action Roll actions as a short name and a text argument, for buttons and commands.

:func:`parse_action` reads what a button or a typed command sends
(``"choose_mood", "2 Giddy"``); :func:`action_text` writes it back, so
``parse_action(roller, a.actor, *action_text(a)) == a``. The name is an
:class:`~core.rules.nsu.roll_actions.ActionKind` value. Numbers in arguments
count from 1 like the lines on the sheet. Any text that does not fit raises
:class:`~core.rules.errors.Malformed` with a hint, never anything else.

Arguments:

- ``state_outcome``: the desired outcome, in words
- ``choose_aspect``: ``body``, ``mind`` or ``heart``
- ``choose_risk``: ``world`` or ``character``
- ``choose_mood`` / ``help``: a mood line 1-6, then a new mood's name for an open line
- ``set_aspect_edge``: details separated by ``;``, each starting with ``+``
  (favours the roll) or ``-`` (hinders it); empty for none
- ``choose_skill``: a skill line 1-6; ``create_skill``: the new skill's name
- ``risk_sentiment`` / ``endanger_sentiment``: a sentiment line 1-3
- ``roll``, ``cancel``: nothing
- ``keep_die``: ``aspect 1|2``, ``mood 1|2`` or ``help <player id> 1|2``
- ``take_helper_die``: a helper's player id, or ``none``
- ``choose_skill_sign``: ``+`` or ``-``
- ``rename_mood``: the owner's player id, then the new name
"""

from __future__ import annotations

from collections.abc import Callable

from core.rules.catalogue import N_
from core.rules.errors import Malformed
from core.rules.nsu.roll_actions import (
    Action,
    ActionKind,
    CancelRoll,
    ChooseAspect,
    ChooseMood,
    ChooseRisk,
    ChooseSkill,
    ChooseSkillSign,
    CreateSkill,
    EndangerSentiment,
    Help,
    KeepDie,
    PlayerId,
    PoolKind,
    RenameMood,
    RiskSentiment,
    Roll,
    SetAspectEdge,
    StateOutcome,
    TakeHelperDie,
)
from core.rules.nsu.terms import Aspect, Risk

MAX_ARGUMENT_LENGTH = 600


# What a number in a step names, as the refusal of a number out of range says it.
A_MOOD_LINE = N_("A mood line is a number from {low} to {high}.")
A_SKILL_LINE = N_("A skill line is a number from {low} to {high}.")
A_SENTIMENT_LINE = N_("A sentiment line is a number from {low} to {high}.")
THE_DIE = N_("The die is a number from {low} to {high}.")


def _number(text: str, low: int, high: int, refusal: str) -> int:
    cleaned = text.strip()
    if not cleaned.isascii() or not cleaned.isdigit() or not low <= int(cleaned) <= high:
        raise Malformed(refusal, low=low, high=high)
    return int(cleaned)


def _player(text: str) -> PlayerId:
    cleaned = text.strip()
    body = cleaned.removeprefix("-")
    if not body.isascii() or not body.isdigit() or len(body) > 20:
        raise Malformed("That is not a player.")
    return int(cleaned)


def _line_and_name(argument: str, lines: int, refusal: str) -> tuple[int, str | None]:
    head, _, rest = argument.strip().partition(" ")
    line = _number(head, 1, lines, refusal) - 1
    name = " ".join(rest.split()) or None
    return line, name


def _edge_lists(argument: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    favouring: list[str] = []
    hindering: list[str] = []
    for item in argument.split(";"):
        item = item.strip()
        if not item:
            continue
        sign, label = item[0], " ".join(item[1:].split())
        if sign not in "+-" or not label:
            raise Malformed("List details as “+Rope; -Rain”: + favours the roll, - hinders it.")
        (favouring if sign == "+" else hindering).append(label)
    return tuple(favouring), tuple(hindering)


def _keep(roller: PlayerId, actor: PlayerId, argument: str) -> KeepDie:
    parts = argument.split()
    hint = N_("Say which die to keep: “aspect 1”, “mood 2” or “help <player> 1”.")
    if len(parts) == 2 and parts[0] in ("aspect", "mood"):
        pool = PoolKind(parts[0])
        return KeepDie(actor, pool, roller, _number(parts[1], 1, 2, THE_DIE) - 1)
    if len(parts) == 3 and parts[0] == "help":
        return KeepDie(
            actor, PoolKind.HELP, _player(parts[1]), _number(parts[2], 1, 2, THE_DIE) - 1
        )
    raise Malformed(hint)


PICK_AN_ASPECT = N_("Pick an aspect: {choices}.")
WHAT_IS_AT_RISK = N_("What is at risk: {choices}.")
SKILL_SIGN = N_("Skill: {choices}.")


def _enum_value(argument: str, choices: dict[str, object], refusal: str) -> object:
    try:
        return choices[argument.strip().lower()]
    except KeyError:
        raise Malformed(refusal, choices=", ".join(choices)) from None


Parser = Callable[[PlayerId, PlayerId, str], Action]

_PARSERS: dict[ActionKind, Parser] = {
    ActionKind.STATE_OUTCOME: lambda r, a, arg: StateOutcome(a, " ".join(arg.split())),
    ActionKind.CHOOSE_ASPECT: lambda r, a, arg: ChooseAspect(
        a, Aspect(_enum_value(arg, {x.value: x.value for x in Aspect}, PICK_AN_ASPECT))
    ),
    ActionKind.CHOOSE_RISK: lambda r, a, arg: ChooseRisk(
        a, Risk(_enum_value(arg, {x.value: x.value for x in Risk}, WHAT_IS_AT_RISK))
    ),
    ActionKind.CHOOSE_MOOD: lambda r, a, arg: ChooseMood(a, *_line_and_name(arg, 6, A_MOOD_LINE)),
    ActionKind.SET_ASPECT_EDGE: lambda r, a, arg: SetAspectEdge(a, *_edge_lists(arg)),
    ActionKind.CHOOSE_SKILL: lambda r, a, arg: ChooseSkill(a, _number(arg, 1, 6, A_SKILL_LINE) - 1),
    ActionKind.CREATE_SKILL: lambda r, a, arg: CreateSkill(a, " ".join(arg.split())),
    ActionKind.RISK_SENTIMENT: lambda r, a, arg: RiskSentiment(
        a, _number(arg, 1, 3, A_SENTIMENT_LINE) - 1
    ),
    ActionKind.ROLL: lambda r, a, arg: Roll(a),
    ActionKind.HELP: lambda r, a, arg: Help(a, *_line_and_name(arg, 6, A_MOOD_LINE)),
    ActionKind.KEEP_DIE: _keep,
    ActionKind.TAKE_HELPER_DIE: lambda r, a, arg: TakeHelperDie(
        a, None if arg.strip().lower() in ("", "none", "own") else _player(arg)
    ),
    ActionKind.CHOOSE_SKILL_SIGN: lambda r, a, arg: ChooseSkillSign(
        a,
        bool(_enum_value(arg, {"+": True, "-": False, "add": True, "subtract": False}, SKILL_SIGN)),
    ),
    ActionKind.RENAME_MOOD: lambda r, a, arg: _rename(a, arg),
    ActionKind.ENDANGER_SENTIMENT: lambda r, a, arg: EndangerSentiment(
        a, _number(arg, 1, 3, A_SENTIMENT_LINE) - 1
    ),
    ActionKind.CANCEL: lambda r, a, arg: CancelRoll(a),
}


def _rename(actor: PlayerId, argument: str) -> RenameMood:
    owner, _, name = argument.strip().partition(" ")
    return RenameMood(actor, _player(owner), " ".join(name.split()))


def parse_action(roller: PlayerId, actor: PlayerId, name: str, argument: str = "") -> Action:
    """Read an action from its name and text argument.

    Args:
        roller: the roll's roller (the owner of the aspect and mood dice).
        actor: who sent it.

    Raises:
        Malformed: unknown name or an argument that does not fit.
    """
    if len(argument) > MAX_ARGUMENT_LENGTH:
        raise Malformed("That is too long for one step of a roll.")
    try:
        kind = ActionKind(name.strip().lower())
    except ValueError:
        raise Malformed("“{name}” is not a step of an Action Roll.", name=name[:40]) from None
    return _PARSERS[kind](roller, actor, argument)


def action_text(action: Action) -> tuple[str, str]:
    """The name and argument that :func:`parse_action` reads back as ``action``."""
    name = action.kind.value
    if isinstance(action, StateOutcome):
        return name, action.text
    if isinstance(action, ChooseAspect):
        return name, action.aspect.value
    if isinstance(action, ChooseRisk):
        return name, action.risk.value
    if isinstance(action, ChooseMood | Help):
        return name, f"{action.line + 1} {action.new_name or ''}".strip()
    if isinstance(action, SetAspectEdge):
        items = [f"+{d}" for d in action.favouring] + [f"-{d}" for d in action.hindering]
        return name, "; ".join(items)
    if isinstance(action, ChooseSkill | RiskSentiment | EndangerSentiment):
        return name, str(action.index + 1)
    if isinstance(action, CreateSkill):
        return name, action.name
    if isinstance(action, KeepDie):
        face = action.index + 1
        if action.pool is PoolKind.HELP:
            return name, f"help {action.owner} {face}"
        return name, f"{action.pool.value} {face}"
    if isinstance(action, TakeHelperDie):
        return name, "none" if action.helper is None else str(action.helper)
    if isinstance(action, ChooseSkillSign):
        return name, "+" if action.add else "-"
    if isinstance(action, RenameMood):
        return name, f"{action.owner} {action.new_name}"
    return name, ""
