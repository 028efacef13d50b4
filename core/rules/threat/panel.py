"""The roll panel: the state machine the bot drives for one action roll.

Flow::

    SETUP --roll--> ROLLED --burn/keep--> DONE
      |  \\--roll (no burn possible, or no roll needed)--> DONE
      \\--cancel--> CANCELLED

In SETUP the GM sets the threat level and may add outside assistance; the
roller picks an approach and bonuses; one other player may join as helper (and
leave again). The roller rolls. If the roller's Momentum (after any gain from a
negative threat level) is 4 or more, the panel waits in ROLLED for the roller to
burn or keep; otherwise it is DONE at once.

Invariants:
- ``momentum`` is always on the 0..6 track; ``harm`` is 0..9.
- The helper is never the GM or the roller, and there is at most one assist.
- SETUP has no outcome; ROLLED has an unburned outcome and Momentum >= 4; DONE
  has exactly one of an outcome or a no-roll reason; CANCELLED has neither.
- :func:`act` either returns a new panel with events, or raises and the given
  panel (immutable) is unchanged: NotYourTurn when the actor holds the wrong
  role, NotAllowedNow when the action does not fit the state, Malformed when
  its arguments are bad.
- ``Panel.from_dict(panel.to_dict()) == panel``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from core.rules.catalogue import N_
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.rng import Rng
from core.rules.threat import momentum as track
from core.rules.threat.dice import Result
from core.rules.threat.momentum import MomentumChange
from core.rules.threat.notation import parse
from core.rules.threat.roll import (
    MAX_BASE_DICE,
    MAX_HARM,
    ActionDie,
    Assist,
    Bonus,
    Burn,
    DieSource,
    NoRoll,
    PlayerId,
    Pool,
    RollOutcome,
    ThreatLevel,
    burn_momentum,
    check_threat_level,
    outcome_of,
    roll,
)

FORMAT_VERSION = 1
MAX_APPROACH_NAME = 24


class Stage(Enum):
    SETUP = "setup"
    ROLLED = "rolled"
    DONE = "done"
    CANCELLED = "cancelled"


class Role(Enum):
    """Who someone is to this panel."""

    GM = "gm"
    ROLLER = "roller"
    HELPER = "helper"
    BYSTANDER = "bystander"


class Menu(Enum):
    """A sub-step open on the panel: a list of options shown instead of the main buttons."""

    THREAT = "threat"  # the GM's threat keypad, -2..+4
    APPROACH = "approach"  # the roller's approaches


class ActionKind(Enum):
    OPEN_THREAT = "open_threat"
    OPEN_APPROACH = "open_approach"
    BACK = "back"
    SET_THREAT = "set_threat"
    CHOOSE_APPROACH = "choose_approach"
    SET_BONUS = "set_bonus"
    JOIN = "join"
    LEAVE = "leave"
    OUTSIDE_ASSIST = "outside_assist"
    ROLL = "roll"
    BURN = "burn"
    KEEP = "keep"
    CANCEL = "cancel"


# Actions: one small value per button or command.


@dataclass(frozen=True)
class OpenThreat:
    """GM: open the threat keypad."""

    kind = ActionKind.OPEN_THREAT


@dataclass(frozen=True)
class OpenApproach:
    """Roller: open the list of approaches."""

    kind = ActionKind.OPEN_APPROACH


@dataclass(frozen=True)
class Back:
    """GM or roller: close the open list without picking."""

    kind = ActionKind.BACK


@dataclass(frozen=True)
class SetThreat:
    """GM: set the situation's threat level, -2..+4 (on the open keypad, which closes)."""

    level: int
    kind = ActionKind.SET_THREAT


@dataclass(frozen=True)
class ChooseApproach:
    """Roller: roll this approach (from the open list, which closes)."""

    name: str
    value: int
    kind = ActionKind.CHOOSE_APPROACH


@dataclass(frozen=True)
class SetBonus:
    """Roller: claim or drop expertise or an ability bonus."""

    bonus: Bonus
    on: bool
    kind = ActionKind.SET_BONUS


@dataclass(frozen=True)
class Join:
    """Another player: help, roll 1d and share the risk."""

    kind = ActionKind.JOIN


@dataclass(frozen=True)
class Leave:
    """The helper: stop helping before the roll."""

    kind = ActionKind.LEAVE


@dataclass(frozen=True)
class SetOutsideAssist:
    """GM: the world lends a hand (the GM rolls 1d), or stops doing so."""

    on: bool
    kind = ActionKind.OUTSIDE_ASSIST


@dataclass(frozen=True)
class RollDice:
    """Roller: roll."""

    kind = ActionKind.ROLL


@dataclass(frozen=True)
class BurnMomentum:
    """Roller: burn Momentum on the roll just made."""

    kind = ActionKind.BURN


@dataclass(frozen=True)
class KeepRoll:
    """Roller: keep the roll as it is."""

    kind = ActionKind.KEEP


@dataclass(frozen=True)
class Cancel:
    """GM or roller: drop the roll before the dice are cast."""

    kind = ActionKind.CANCEL


Action = (
    OpenThreat
    | OpenApproach
    | Back
    | SetThreat
    | ChooseApproach
    | SetBonus
    | Join
    | Leave
    | SetOutsideAssist
    | RollDice
    | BurnMomentum
    | KeepRoll
    | Cancel
)


# Events: what happened, for the edges to render.


@dataclass(frozen=True)
class ThreatSet:
    level: int
    name: ThreatLevel


@dataclass(frozen=True)
class ApproachChosen:
    name: str | None
    value: int


@dataclass(frozen=True)
class BonusChanged:
    bonus: Bonus
    on: bool


@dataclass(frozen=True)
class HelperJoined:
    helper: PlayerId


@dataclass(frozen=True)
class HelperLeft:
    helper: PlayerId


@dataclass(frozen=True)
class OutsideAssistChanged:
    on: bool


class MomentumReason(Enum):
    FAVOURABLE_POSITION = "favourable_position"
    BURN = "burn"


@dataclass(frozen=True)
class MomentumChanged:
    """The roller's track moved; the play layer writes ``change.after`` to the sheet."""

    change: MomentumChange
    reason: MomentumReason


@dataclass(frozen=True)
class Rolled:
    outcome: RollOutcome


@dataclass(frozen=True)
class MomentumBurned:
    outcome: RollOutcome


@dataclass(frozen=True)
class Finished:
    """The roll is settled.

    Attributes:
        result: the final result, or None when no roll was needed.
        no_roll: why there was no roll, if so.
        momentum: the roller's Momentum now.
        sharing_risk: helpers who share the consequences.
    """

    result: Result | None
    no_roll: NoRoll | None
    momentum: int
    sharing_risk: tuple[PlayerId, ...]


@dataclass(frozen=True)
class Cancelled:
    by: PlayerId


Event = (
    ThreatSet
    | ApproachChosen
    | BonusChanged
    | HelperJoined
    | HelperLeft
    | OutsideAssistChanged
    | MomentumChanged
    | Rolled
    | MomentumBurned
    | Finished
    | Cancelled
)


@dataclass(frozen=True)
class Panel:
    """One action roll from setup to result.

    Attributes:
        gm: the player running the game.
        roller: the player whose character acts.
        momentum: the roller's Momentum (a copy of the sheet; events report changes).
        harm: the roller's harm (adds threat dice).
        threat_level: the situation's threat level.
        approach_name: the chosen approach, or None (from notation, or not chosen yet).
        approach: the chosen approach value, or None until chosen.
        expertise, ability: bonus dice claimed by the roller.
        assist: the helper or outside assistance, if any.
        stage: where the roll is.
        outcome: the dice, once rolled.
        no_roll: why no dice were rolled, once settled without a roll.
        menu: the list open instead of the main buttons, if any (during setup only).
    """

    gm: PlayerId
    roller: PlayerId
    momentum: int = track.MOMENTUM_START
    harm: int = 0
    threat_level: int = 0
    approach_name: str | None = None
    approach: int | None = None
    expertise: bool = False
    ability: bool = False
    assist: Assist | None = None
    stage: Stage = Stage.SETUP
    outcome: RollOutcome | None = None
    no_roll: NoRoll | None = None
    menu: Menu | None = None

    def __post_init__(self) -> None:
        track.check_momentum(self.momentum)
        check_threat_level(self.threat_level)
        if not 0 <= self.harm <= MAX_HARM:
            raise ValueError("harm out of range")
        if self.approach is not None and not 0 <= self.approach <= MAX_BASE_DICE:
            raise ValueError("approach out of range")
        if self.approach is None and self.approach_name is not None:
            raise ValueError("an approach name needs a value")
        if self.assist is not None and self.assist.helper in (self.gm, self.roller):
            raise ValueError("the GM and the roller cannot be the helper")
        rolled = self.outcome is not None
        settled = rolled or self.no_roll is not None
        if rolled and self.no_roll is not None:
            raise ValueError("an outcome and a no-roll reason exclude each other")
        if self.stage in (Stage.SETUP, Stage.CANCELLED) and settled:
            raise ValueError(f"{self.stage.value} has no outcome")
        if self.stage is Stage.ROLLED and (
            self.outcome is None
            or self.outcome.burn is not None
            or not track.can_burn(self.momentum)
        ):
            raise ValueError("rolled waits for a burn decision")
        if self.stage is Stage.DONE and not settled:
            raise ValueError("done needs an outcome or a no-roll reason")
        if self.menu is not None and self.stage is not Stage.SETUP:
            raise ValueError("a list is open during setup only")

    @property
    def pool(self) -> Pool:
        """The pool as set up so far (approach 0 until chosen)."""
        return Pool(
            approach=self.approach or 0,
            threat_level=self.threat_level,
            harm=self.harm,
            expertise=self.expertise,
            ability=self.ability,
            assist=self.assist,
        )

    @property
    def helper(self) -> PlayerId | None:
        return None if self.assist is None else self.assist.helper

    def roles(self, player: PlayerId) -> frozenset[Role]:
        """Every role ``player`` holds here (a GM may also be the roller)."""
        roles = set()
        if player == self.gm:
            roles.add(Role.GM)
        if player == self.roller:
            roles.add(Role.ROLLER)
        if player == self.helper:
            roles.add(Role.HELPER)
        return frozenset(roles or {Role.BYSTANDER})

    def allowed(self, player: PlayerId) -> frozenset[ActionKind]:
        """The actions ``player`` may take now (the buttons to show them)."""
        return frozenset(kind for kind in ActionKind if _refusal(self, player, kind) is None)

    def who_may(self) -> Mapping[ActionKind, frozenset[Role]]:
        """For each action possible now, the roles that may take it."""
        table: dict[ActionKind, frozenset[Role]] = {}
        for kind, roles in _ROLES.items():
            if self.stage not in _STAGES[kind]:
                continue
            able = frozenset(r for r in roles if _condition(self, kind, r) is None)
            if able:
                table[kind] = able
        return table

    def burn_preview(self) -> RollOutcome | None:
        """What burning would make of the roll, when the roller may burn now."""
        if self.stage is not Stage.ROLLED or self.outcome is None:
            return None
        return burn_momentum(self.outcome, self.momentum)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back."""
        return {
            "v": FORMAT_VERSION,
            "gm": self.gm,
            "roller": self.roller,
            "momentum": self.momentum,
            "harm": self.harm,
            "threat_level": self.threat_level,
            "approach_name": self.approach_name,
            "approach": self.approach,
            "expertise": self.expertise,
            "ability": self.ability,
            "assist": None if self.assist is None else {"helper": self.assist.helper},
            "stage": self.stage.value,
            "outcome": None if self.outcome is None else _outcome_to_dict(self.outcome),
            "no_roll": None if self.no_roll is None else self.no_roll.value,
            "menu": None if self.menu is None else self.menu.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Panel:
        """Read a panel written by :meth:`to_dict`.

        Raises:
            Malformed: the data is not a valid panel.
        """
        try:
            if data["v"] != FORMAT_VERSION:
                raise ValueError("unknown version")
            assist = data["assist"]
            outcome = data["outcome"]
            no_roll = data["no_roll"]
            return cls(
                gm=_int(data["gm"]),
                roller=_int(data["roller"]),
                momentum=_int(data["momentum"]),
                harm=_int(data["harm"]),
                threat_level=_int(data["threat_level"]),
                approach_name=_opt_str(data["approach_name"]),
                approach=None if data["approach"] is None else _int(data["approach"]),
                expertise=_bool(data["expertise"]),
                ability=_bool(data["ability"]),
                assist=None if assist is None else Assist(_opt_int(assist["helper"])),
                stage=Stage(data["stage"]),
                outcome=None if outcome is None else _outcome_from_dict(outcome),
                no_roll=None if no_roll is None else NoRoll(no_roll),
                menu=None if data.get("menu") is None else Menu(data["menu"]),
            )
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise Malformed("This roll can't be read any more. Start a new one.") from None


@dataclass(frozen=True)
class Step:
    """The result of one accepted action."""

    panel: Panel
    events: tuple[Event, ...]


def open_panel(
    gm: PlayerId,
    roller: PlayerId,
    *,
    momentum: int = track.MOMENTUM_START,
    harm: int = 0,
    threat_level: int = 0,
    action_dice: int | None = None,
) -> Panel:
    """Start a roll. ``action_dice`` fixes the base dice (as notation does).

    Raises:
        Malformed: a value out of range.
    """
    try:
        return Panel(
            gm=gm,
            roller=roller,
            momentum=momentum,
            harm=harm,
            threat_level=threat_level,
            approach=action_dice,
        )
    except ValueError as exc:
        raise Malformed("This roll can't be set up: {reason}.", reason=str(exc)) from None


def open_from_notation(
    gm: PlayerId, roller: PlayerId, text: str, *, momentum: int = 2, harm: int = 0
) -> Panel:
    """Start a roll from ``3d2t``: the dice count and threat level are set.

    Raises:
        Malformed: bad notation or values.
    """
    notation = parse(text)
    return open_panel(
        gm,
        roller,
        momentum=momentum,
        harm=harm,
        threat_level=notation.threat_level,
        action_dice=notation.action_dice,
    )


def act(panel: Panel, actor: PlayerId, action: Action, rng: Rng | None = None) -> Step:
    """Apply ``action`` by ``actor``; ``rng`` is needed to roll.

    Raises:
        NotYourTurn: the actor may not take this action.
        NotAllowedNow: the action does not fit the current state.
        Malformed: the action's arguments are invalid.
    """
    refusal = _refusal(panel, actor, action.kind)
    if refusal is not None:
        raise refusal
    match action:
        case OpenThreat():
            return Step(replace(panel, menu=Menu.THREAT), ())
        case OpenApproach():
            return Step(replace(panel, menu=Menu.APPROACH), ())
        case Back():
            return Step(replace(panel, menu=None), ())
        case SetThreat(level=level):
            _check_level(level)
            return Step(
                replace(panel, threat_level=level, menu=None),
                (ThreatSet(level, ThreatLevel.of(level)),),
            )
        case ChooseApproach(name=name, value=value):
            name = name.strip()
            if not 1 <= len(name) <= MAX_APPROACH_NAME:
                raise Malformed(
                    "An approach name needs 1 to {limit} characters.", limit=MAX_APPROACH_NAME
                )
            if not 0 <= value <= MAX_BASE_DICE:
                raise Malformed("An approach value runs from 0 to {limit}.", limit=MAX_BASE_DICE)
            return Step(
                replace(panel, approach_name=name, approach=value, menu=None),
                (ApproachChosen(name, value),),
            )
        case SetBonus(bonus=bonus, on=on):
            if bonus is Bonus.EXPERTISE:
                changed = replace(panel, expertise=on)
            elif bonus is Bonus.ABILITY:
                changed = replace(panel, ability=on)
            else:
                raise Malformed("Working together comes from a helper or outside assistance.")
            return Step(changed, (BonusChanged(bonus, on),))
        case Join():
            return Step(replace(panel, assist=Assist(actor)), (HelperJoined(actor),))
        case Leave():
            return Step(replace(panel, assist=None), (HelperLeft(actor),))
        case SetOutsideAssist(on=on):
            return Step(
                replace(panel, assist=Assist(None) if on else None), (OutsideAssistChanged(on),)
            )
        case RollDice():
            if rng is None:
                raise ValueError("rolling needs an Rng")
            return _roll(panel, rng)
        case BurnMomentum():
            assert panel.outcome is not None
            burned = burn_momentum(panel.outcome, panel.momentum)
            change = track.burn(panel.momentum)
            done = replace(panel, outcome=burned, momentum=change.after, stage=Stage.DONE)
            return Step(
                done,
                (
                    MomentumBurned(burned),
                    MomentumChanged(change, MomentumReason.BURN),
                    _finished(done),
                ),
            )
        case KeepRoll():
            done = replace(panel, stage=Stage.DONE)
            return Step(done, (_finished(done),))
        case Cancel():
            return Step(replace(panel, stage=Stage.CANCELLED), (Cancelled(actor),))
    raise Malformed("Unknown action.")  # pragma: no cover - the match is exhaustive


def _roll(panel: Panel, rng: Rng) -> Step:
    pool = panel.pool
    if pool.no_roll is not None:
        done = replace(panel, stage=Stage.DONE, no_roll=pool.no_roll)
        return Step(done, (_finished(done),))
    pool.check_rollable()
    events: list[Event] = []
    momentum = panel.momentum
    if pool.momentum_gain:
        change = track.gain(momentum, pool.momentum_gain)
        momentum = change.after
        events.append(MomentumChanged(change, MomentumReason.FAVOURABLE_POSITION))
    outcome = roll(pool, rng)
    events.append(Rolled(outcome))
    if track.can_burn(momentum):
        return Step(
            replace(panel, momentum=momentum, outcome=outcome, stage=Stage.ROLLED), tuple(events)
        )
    done = replace(panel, momentum=momentum, outcome=outcome, stage=Stage.DONE)
    events.append(_finished(done))
    return Step(done, tuple(events))


def _finished(panel: Panel) -> Finished:
    sharing = () if panel.helper is None else (panel.helper,)
    result = None if panel.outcome is None else panel.outcome.result
    return Finished(result, panel.no_roll, panel.momentum, sharing)


def _check_level(level: int) -> None:
    try:
        check_threat_level(level)
    except ValueError:
        raise Malformed("Threat runs from -2 to +4 (+4 is impossible).") from None


# Permissions: which stage admits an action, which role takes it, and what else
# must hold. One table, read by act(), allowed() and who_may().

_STAGES: dict[ActionKind, frozenset[Stage]] = {
    ActionKind.BURN: frozenset({Stage.ROLLED}),
    ActionKind.KEEP: frozenset({Stage.ROLLED}),
} | {
    kind: frozenset({Stage.SETUP})
    for kind in ActionKind
    if kind not in (ActionKind.BURN, ActionKind.KEEP)
}

_ROLES: dict[ActionKind, frozenset[Role]] = {
    ActionKind.OPEN_THREAT: frozenset({Role.GM}),
    ActionKind.OPEN_APPROACH: frozenset({Role.ROLLER}),
    ActionKind.BACK: frozenset({Role.GM, Role.ROLLER}),
    ActionKind.SET_THREAT: frozenset({Role.GM}),
    ActionKind.CHOOSE_APPROACH: frozenset({Role.ROLLER}),
    ActionKind.SET_BONUS: frozenset({Role.ROLLER}),
    ActionKind.JOIN: frozenset({Role.BYSTANDER}),
    ActionKind.LEAVE: frozenset({Role.HELPER}),
    ActionKind.OUTSIDE_ASSIST: frozenset({Role.GM}),
    ActionKind.ROLL: frozenset({Role.ROLLER}),
    ActionKind.BURN: frozenset({Role.ROLLER}),
    ActionKind.KEEP: frozenset({Role.ROLLER}),
    ActionKind.CANCEL: frozenset({Role.GM, Role.ROLLER}),
}

_WHO: dict[ActionKind, str] = {
    ActionKind.OPEN_THREAT: N_("Only the GM sets the threat."),
    ActionKind.OPEN_APPROACH: N_("Only the player rolling picks the approach."),
    ActionKind.BACK: N_("Only the GM or the player rolling closes the list."),
    ActionKind.SET_THREAT: N_("Only the GM sets the threat."),
    ActionKind.CHOOSE_APPROACH: N_("Only the player rolling picks the approach."),
    ActionKind.SET_BONUS: N_("Only the player rolling claims bonus dice."),
    ActionKind.JOIN: N_("You're already part of this roll."),
    ActionKind.LEAVE: N_("You're not helping on this roll."),
    ActionKind.OUTSIDE_ASSIST: N_("Only the GM brings in outside help."),
    ActionKind.ROLL: N_("Only the player rolling can roll."),
    ActionKind.BURN: N_("Only the player who rolled can burn their Momentum."),
    ActionKind.KEEP: N_("Only the player who rolled decides this."),
    ActionKind.CANCEL: N_("Only the GM or the player rolling can cancel."),
}


def _stage_refusal(panel: Panel) -> NotAllowedNow:
    if panel.stage is Stage.ROLLED:
        return NotAllowedNow("The dice are cast: burn Momentum or keep the roll.")
    if panel.stage is Stage.SETUP:
        return NotAllowedNow("Roll first.")
    if panel.stage is Stage.CANCELLED:
        return NotAllowedNow("This roll was cancelled.")
    return NotAllowedNow("This roll is over.")


_IN_MENU: dict[Menu, frozenset[ActionKind]] = {
    Menu.THREAT: frozenset({ActionKind.SET_THREAT, ActionKind.BACK}),
    Menu.APPROACH: frozenset({ActionKind.CHOOSE_APPROACH, ActionKind.BACK}),
}
_MENU_OPEN = {
    Menu.THREAT: N_("The threat keypad is open: pick from it or tap Back first."),
    Menu.APPROACH: N_("The list of approaches is open: pick from it or tap Back first."),
}
_MENU_CLOSED = {
    Menu.THREAT: N_("The threat keypad was closed: tap Threat to open it again."),
    Menu.APPROACH: N_("The list of approaches was closed: tap Approach to open it again."),
}
_OPENS = {ActionKind.SET_THREAT: Menu.THREAT, ActionKind.CHOOSE_APPROACH: Menu.APPROACH}


def _menu_refusal(panel: Panel, kind: ActionKind) -> NotAllowedNow | None:
    """Why ``kind`` does not fit the list open now (or the lack of one)."""
    if panel.menu is not None and kind not in _IN_MENU[panel.menu]:
        return NotAllowedNow(_MENU_OPEN[panel.menu])
    if panel.menu is None and kind is ActionKind.BACK:
        return NotAllowedNow("No list is open to go back from.")
    wanted = _OPENS.get(kind)
    if wanted is not None and panel.menu is not wanted:
        return NotAllowedNow(_MENU_CLOSED[wanted])
    return None


def _condition(panel: Panel, kind: ActionKind, role: Role) -> StonetableError | None:
    """What else must hold for ``role`` to take ``kind`` now."""
    menu = _menu_refusal(panel, kind)
    if menu is not None:
        return menu
    if kind is ActionKind.JOIN and panel.assist is not None:
        if panel.helper is None:
            return NotAllowedNow("The GM's outside help is already the one assist.")
        return NotAllowedNow("Someone is already helping: working together adds one die.")
    if kind is ActionKind.OUTSIDE_ASSIST and panel.helper is not None:
        return NotAllowedNow("A player is already helping: working together adds one die.")
    if kind is ActionKind.ROLL:
        if panel.approach is None:
            return NotAllowedNow("Pick an approach first.")
        pool = panel.pool
        if pool.no_roll is None and pool.action_dice == 0:
            return NotAllowedNow("You need at least one action die: take a bonus or an assist.")
    if kind is ActionKind.BURN and not track.can_burn(panel.momentum):
        return NotAllowedNow("Momentum is too low to burn: you need 4.")  # pragma: no cover
    return None


def _refusal(panel: Panel, actor: PlayerId, kind: ActionKind) -> StonetableError | None:
    if panel.stage not in _STAGES[kind]:
        return _stage_refusal(panel)
    roles = panel.roles(actor) & _ROLES[kind]
    if not roles:
        if kind is ActionKind.JOIN and Role.GM in panel.roles(actor):
            return NotYourTurn("As GM, bring in outside help instead.")
        if kind is ActionKind.JOIN and Role.ROLLER in panel.roles(actor):
            return NotYourTurn("You can't help your own roll.")
        return NotYourTurn(_WHO[kind])
    for role in roles:
        refusal = _condition(panel, kind, role)
        if refusal is None:
            return None
    return _condition(panel, kind, next(iter(roles)))


# Serialisation helpers.


def _outcome_to_dict(outcome: RollOutcome) -> dict[str, Any]:
    return {
        "action": [[d.face, d.source.value, d.helper] for d in outcome.action_dice],
        "threat": list(outcome.threat_dice),
        "harm_dice": outcome.harm_dice,
        "burn": None
        if outcome.burn is None
        else [outcome.burn.momentum, outcome.burn.index, outcome.burn.old_face],
    }


def _outcome_from_dict(data: Mapping[str, Any]) -> RollOutcome:
    dice = tuple(
        ActionDie(_int(face), DieSource(source), _opt_int(helper))
        for face, source, helper in data["action"]
    )
    threat = tuple(_int(face) for face in data["threat"])
    outcome = outcome_of(dice, threat, _int(data["harm_dice"]))
    burn = data["burn"]
    if burn is None:
        return outcome
    momentum, index, old_face = (_int(x) for x in burn)
    if dice[index].face != momentum or not 1 <= old_face <= 6:
        raise ValueError("burn does not match the dice")
    return replace(outcome, burn=Burn(momentum, index, old_face))


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected an int")
    return value


def _opt_int(value: object) -> int | None:
    return None if value is None else _int(value)


def _opt_str(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError("expected a str")


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("expected a bool")
    return value
