"""Threat dice at the table: the campaign, the sheets and the roll panel.

This adapts the pure rules (:mod:`.panel`, :mod:`.sheet`) to the shared
contract in :mod:`core.rules.table`: panel state and sheets are JSON, actions
arrive as strings from buttons, and Momentum moves on the roller's sheet.

Decisions (see docs/rules/threat.md, "Playing in the bot"):
- The campaign host is the GM. Every member gets a fresh sheet when seated
  (a sheet that is already there, from an earlier stay, is kept).
- Anyone in the game may open a roll for themselves; only the GM opens one for
  another player (``for=<player id>``). The GM of the roll is the campaign's GM.
- Notation (``3d2t``) fixes the action dice: the roller then cannot pick an
  approach, only bonuses. Text that is not threat notation at all is
  :class:`Malformed` (``/roll`` then rolls ordinary dice); threat notation out of
  range is :class:`NotAllowedNow` with the reason, so the player sees it.
- The roller's sheet is the source of truth for Momentum and harm: a roll reads
  them before every action and writes each Momentum change back.
- Sheet edits (the Mini App): a player changes their own approaches and notes,
  moves their own Momentum by one (+1, or -1 which at 0 gives 1 harm and resets
  the track), takes 1 harm or pays 1 Momentum instead. The GM may move anyone's
  Momentum, set it directly, mark and heal anyone's harm. Nobody else edits a
  sheet that is not theirs; only the GM heals.

Invariants: panel state is ``{"v": 1, "panel": Panel.to_dict(), "fixed": bool}``;
every sheet written is ``Sheet.to_dict()`` of a valid :class:`Sheet`; a refused
action or edit raises and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from core.rules.catalogue import N_
from core.rules.choice import Choice as GenericChoice
from core.rules.choice import PageChoices, SheetChoices
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.registry import CampaignRules
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Role, Table, current
from core.rules.threat import momentum as track
from core.rules.threat.notation import in_latin, parse
from core.rules.threat.odds import Odds, pool_odds
from core.rules.threat.panel import (
    Action,
    ActionKind,
    Back,
    BurnMomentum,
    Cancel,
    ChooseApproach,
    Join,
    KeepRoll,
    Leave,
    MomentumChanged,
    OpenApproach,
    OpenThreat,
    Panel,
    RollDice,
    SetBonus,
    SetOutsideAssist,
    SetThreat,
    Stage,
    act,
    open_panel,
)
from core.rules.threat.roll import IMPOSSIBLE_LEVEL, THREAT_MIN, Bonus, NoRoll, RollOutcome
from core.rules.threat.sheet import Approach, Sheet
from core.rules.waiting import Waiting, waiting

ROLL_PANEL = "threat.roll"
STATE_VERSION = 1
THREAT_LEVELS = tuple(range(THREAT_MIN, IMPOSSIBLE_LEVEL + 1))
ON, OFF = "on", "off"
NOT_NOTATION = (
    "“{text}” is neither threat dice nor an approach on the sheet. "
    "Try 3d, 3d2t or 4d-1t, or an approach's name."
)

# Threat notation in shape (digits, d, optional level and t), in or out of range.
_THREAT_SHAPE = re.compile(r"\s*[0-9]+\s*d\s*(?:[+-]?\s*[0-9]+\s*t)?\s*", re.ASCII | re.IGNORECASE)
_FOR = re.compile(r"for=([0-9]{1,15})", re.ASCII)


def looks_like_threat_notation(text: str) -> bool:
    """Whether ``text`` is shaped like ``NdMt`` (whatever its numbers)."""
    return _THREAT_SHAPE.fullmatch(in_latin(text)) is not None


def _approach_of(table: Table, player: int, name: str) -> Approach | None:
    """The approach called ``name`` on ``player``'s sheet (ignoring case), if any."""
    seat = table.seat(player)
    if seat is None:
        return None
    try:
        return seat.read(read_sheet).approach(name)
    except Malformed:
        return None


def _roller_and_rest(actor: int, argument: str) -> tuple[int, str]:
    """Who rolls (``for=<player id>``, else the one who asked) and the rest of the text."""
    found = _FOR.search(argument)
    if found is None:
        return actor, argument.strip()
    rest = argument[: found.start()] + " " + argument[found.end() :]
    return int(found[1]), rest.strip()


def _panel_for_notation(notation: str, gm: int, roller: int, sheet: Sheet) -> Panel:
    """A roll opened with the threat level and action dice written out."""
    try:
        parsed = parse(notation)
    except Malformed as error:
        raise NotAllowedNow(error.message_id, **error.values) from None
    return open_panel(
        gm,
        roller,
        momentum=sheet.momentum,
        harm=sheet.harm,
        threat_level=parsed.threat_level,
        action_dice=parsed.action_dice,
    )


def read_sheet(data: Json) -> Sheet:
    """A member's sheet; an empty mapping is a fresh sheet.

    Raises:
        Malformed: the stored data is not a sheet.
    """
    return Sheet() if not data else Sheet.from_dict(data)


def game_master(table: Table) -> int:
    """The player who runs the game.

    Raises:
        NotAllowedNow: the game has no GM.
    """
    gms = sorted(table.with_role(Role.GAME_MASTER))
    if not gms:
        raise NotAllowedNow("This game has no GM, so nobody can set the threat.")
    return gms[0]


# --- the campaign and the sheets -----------------------------------------------


class ThreatCampaign(CampaignRules):
    """Seats members with a sheet and applies the sheet edits the rules allow."""

    has_game_master = True

    def new_state(self) -> Json:
        return {"v": STATE_VERSION}

    def seated(self, table: Table, player_id: int) -> tuple[Json, Json]:
        seat = table.seat(player_id)
        existing = seat.sheet if seat is not None else {}
        try:
            sheet = read_sheet(existing)
        except Malformed:
            sheet = Sheet()
        return table.state, sheet.to_dict()

    def sheet_seen_by(self, sheet: Json, owner: int, viewer: int) -> Json:
        """A sheet's notes stay with its owner (the GM does not read them either)."""
        if owner == viewer or not sheet:
            return sheet
        try:
            return replace(read_sheet(sheet), notes="").to_dict()
        except Malformed:
            return {}

    def edit(self, table: Table, actor: int, action: str, payload: Json, rng: Rng) -> Outcome:
        """Apply one Mini App edit to a sheet.

        ``payload["player"]`` names the sheet (default: the actor's own).

        Raises:
            Malformed: unknown edit or bad values.
            NotYourTurn: the actor may not change that sheet that way.
            NotAllowedNow: the rules forbid it now (e.g. paying Momentum at 0).
        """
        edit = _EDITS.get(action)
        if edit is None:
            raise Malformed("That can't be changed here.")
        target = _target(payload, actor)
        seat = table.seat(target)
        if seat is None:
            raise NotAllowedNow("That player isn't in this game.")
        if action not in may_edit(table, actor, target):
            actor_seat = table.seat(actor)
            if actor_seat is None or (actor != target and Role.GAME_MASTER not in actor_seat.roles):
                raise NotYourTurn("You can only change your own sheet.")
            if actor != target:
                raise NotYourTurn("Only the player changes their own approaches and notes.")
            raise NotYourTurn("Only the GM can do that.")
        sheet = seat.read(read_sheet)
        changed = edit.apply(sheet, payload)
        return Outcome(state=table.state, sheets={target: changed.to_dict()})


@dataclass(frozen=True)
class _Edit:
    owner: bool  # the sheet's owner may do it
    gm: bool  # the GM may do it on any sheet

    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        raise NotImplementedError


class _SetApproach(_Edit):
    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        return sheet.with_approach(_text(payload, "name"), _number(payload, "value"))


class _RemoveApproach(_Edit):
    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        return sheet.without_approach(_text(payload, "name"))


class _Notes(_Edit):
    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        notes = payload.get("notes", "")
        if not isinstance(notes, str):
            raise Malformed("Notes are text.")
        return sheet.with_notes(notes.replace("\r\n", "\n"))


class _GainMomentum(_Edit):
    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        if sheet.momentum >= track.MOMENTUM_MAX:
            raise NotAllowedNow("Momentum is already at {limit}.", limit=track.MOMENTUM_MAX)
        return sheet.gain_momentum()[0]


class _LoseMomentum(_Edit):
    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        return sheet.lose_momentum()[0]


class _SetMomentum(_Edit):
    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        return sheet.with_momentum(_number(payload, "value"))


class _TakeHarm(_Edit):
    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        return sheet.take_harm(1)


class _PayInstead(_Edit):
    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        return sheet.lose_momentum_instead_of_harm()[0]


class _Heal(_Edit):
    def apply(self, sheet: Sheet, payload: Json) -> Sheet:
        if sheet.harm == 0:
            raise NotAllowedNow("There is no harm to heal.")
        return sheet.heal(1)


_EDITS: dict[str, _Edit] = {
    "approach.set": _SetApproach(owner=True, gm=False),
    "approach.remove": _RemoveApproach(owner=True, gm=False),
    "notes": _Notes(owner=True, gm=False),
    "momentum.gain": _GainMomentum(owner=True, gm=True),
    "momentum.lose": _LoseMomentum(owner=True, gm=True),
    "momentum.set": _SetMomentum(owner=False, gm=True),
    "harm.take": _TakeHarm(owner=True, gm=True),
    "harm.instead": _PayInstead(owner=True, gm=True),
    "harm.heal": _Heal(owner=False, gm=True),
}
SHEET_EDITS: tuple[str, ...] = tuple(_EDITS)


def may_edit(table: Table, viewer: int, target: int) -> frozenset[str]:
    """The sheet edits ``viewer`` may make on ``target``'s sheet (for showing forms)."""
    seat = table.seat(viewer)
    if seat is None or table.seat(target) is None:
        return frozenset()
    is_gm = Role.GAME_MASTER in seat.roles
    return frozenset(
        name
        for name, edit in _EDITS.items()
        if (viewer == target and edit.owner) or (is_gm and edit.gm)
    )


def page_choices(table: Table, viewer: int) -> PageChoices[int]:
    """What ``viewer`` may do on the sheet page, by player: the edits open to them on
    each player's sheet (their own; every sheet's harm and Momentum for the GM), the
    whole of their own sheet (notes stay their owner's), and whether they are the GM."""
    seat = table.seat(viewer)
    return PageChoices(
        sheets={
            player: SheetChoices(edits=may_edit(table, viewer, player), whole=player == viewer)
            for player, other in table.seats.items()
            if Role.GAME_MASTER not in other.roles
        },
        runs_table=seat is not None and Role.GAME_MASTER in seat.roles,
    )


def _target(payload: Json, actor: int) -> int:
    player = payload.get("player", actor)
    if isinstance(player, str) and player.isdigit():
        player = int(player)
    if isinstance(player, bool) or not isinstance(player, int):
        raise Malformed("That sheet is not known.")
    return player


def _text(payload: Json, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str):
        raise Malformed("The {key} is missing.", key=key)
    return value


def _number(payload: Json, key: str) -> int:
    value = payload.get(key)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed("The {key} must be a whole number.", key=key)
    return value


# --- the roll panel ---------------------------------------------------------------


Choice = GenericChoice[ActionKind]
"""One button someone may press now (``selected``: the current option)."""


@dataclass(frozen=True)
class RollView:
    """Everything the edges show of a roll: data, not text.

    Attributes:
        panel: the roll.
        fixed: the action dice were set by notation.
        approaches: the roller's approaches (buttons carry their index).
        momentum: the roller's Momentum now.
        choices: the buttons, in a stable order.
        odds: exact odds before the roll, when the pool can be rolled.
        no_roll: why no dice will be needed, when set up that way.
        burn_preview: what a burn would make of the roll.
    """

    panel: Panel
    fixed: bool
    approaches: tuple[Approach, ...]
    momentum: int
    choices: tuple[Choice, ...]
    odds: Odds | None
    no_roll: NoRoll | None
    burn_preview: RollOutcome | None


@dataclass(frozen=True)
class ThreatRollState:
    """A roll panel's stored state, read.

    Attributes:
        panel: the roll itself.
        fixed: the approach was given when the roll was asked for (not offered).
    """

    panel: Panel
    fixed: bool

    @classmethod
    def from_dict(cls, state: Json) -> ThreatRollState:
        """Raises: Malformed: the stored state is damaged or of an older version."""
        return cls(*_load(state))


def _load(state: Json) -> tuple[Panel, bool]:
    try:
        if state.get("v") != STATE_VERSION:
            raise Malformed("This roll can't be read any more. Start a new one.")
        fixed = state["fixed"]
        if not isinstance(fixed, bool):
            raise Malformed("This roll can't be read any more. Start a new one.")
        return Panel.from_dict(state["panel"]), fixed
    except (KeyError, TypeError, AttributeError):
        raise Malformed("This roll can't be read any more. Start a new one.") from None


def rolled_by(state: Json) -> int:
    """Who rolls on a roll panel (the GM may have asked them)."""
    panel, _ = _load(state)
    return panel.roller


def _dump(panel: Panel, fixed: bool) -> Json:
    return {"v": STATE_VERSION, "panel": panel.to_dict(), "fixed": fixed}


def _momentum_moved(roller: int, sheet: Sheet | None, events: Sequence[object]) -> dict[int, Json]:
    """The roller's sheet, when the step moved its Momentum."""
    if sheet is None:
        return {}
    changed = sheet
    for event in events:
        if isinstance(event, MomentumChanged):
            changed = changed.after(event.change)
    return {} if changed == sheet else {roller: changed.to_dict()}


def _roller_sheet(table: Table, panel: Panel) -> Sheet | None:
    seat = table.seat(panel.roller)
    return None if seat is None else seat.read(read_sheet)


def _synced(panel: Panel, sheet: Sheet | None) -> Panel:
    """The panel with the roller's Momentum and harm as the sheet has them now."""
    if sheet is None:
        return panel
    if panel.stage is Stage.SETUP:
        return replace(panel, momentum=sheet.momentum, harm=sheet.harm)
    if panel.stage is Stage.ROLLED and track.can_burn(sheet.momentum):
        return replace(panel, momentum=sheet.momentum)
    return panel


def roll_view(table: Table, state: ThreatRollState | Json) -> RollView:
    """What a roll looks like now, for rendering."""
    read = state if isinstance(state, ThreatRollState) else ThreatRollState.from_dict(state)
    stored, fixed = read.panel, read.fixed
    try:
        sheet = _roller_sheet(table, stored)
    except Malformed:
        sheet = None  # show the roll as stored; pressing a button says what is wrong
    panel = _synced(stored, sheet)
    approaches = () if sheet is None or fixed else sheet.approaches
    choices = _choices(table, panel, approaches)
    odds: Odds | None = None
    no_roll = None
    if panel.stage is Stage.SETUP and panel.approach is not None:
        pool = panel.pool
        no_roll = pool.no_roll
        if no_roll is None and pool.action_dice > 0:
            odds = pool_odds(pool)
    momentum = panel.momentum if sheet is None or panel.stage is not Stage.SETUP else sheet.momentum
    if panel.stage in (Stage.DONE, Stage.CANCELLED) and sheet is not None:
        momentum = sheet.momentum
    return RollView(
        panel=panel,
        fixed=fixed,
        approaches=approaches,
        momentum=momentum,
        choices=choices,
        odds=odds,
        no_roll=no_roll,
        burn_preview=panel.burn_preview(),
    )


# the buttons that take no argument, in the order they are shown
_PLAIN_KINDS = (
    ActionKind.ROLL,
    ActionKind.BURN,
    ActionKind.KEEP,
    ActionKind.BACK,
    ActionKind.CANCEL,
)


def _choices(table: Table, panel: Panel, approaches: tuple[Approach, ...]) -> tuple[Choice, ...]:
    """The buttons now: the main ones, or the open list and Back (a phone shows about eight)."""
    may = panel.who_may()
    found: list[Choice] = []
    if ActionKind.SET_THREAT in may:
        found += [
            Choice(ActionKind.SET_THREAT, str(level), selected=level == panel.threat_level)
            for level in THREAT_LEVELS
        ]
    if ActionKind.CHOOSE_APPROACH in may:
        found += [
            Choice(
                ActionKind.CHOOSE_APPROACH,
                str(index),
                selected=a.name == panel.approach_name and a.value == panel.approach,
            )
            for index, a in enumerate(approaches)
        ]
    if ActionKind.OPEN_THREAT in may:
        found.append(Choice(ActionKind.OPEN_THREAT, str(panel.threat_level)))
    if ActionKind.OPEN_APPROACH in may and approaches:
        found.append(Choice(ActionKind.OPEN_APPROACH))
    if ActionKind.SET_BONUS in may:
        found += [
            Choice(ActionKind.SET_BONUS, f"{bonus.value}.{OFF if on else ON}", selected=on)
            for bonus, on in ((Bonus.EXPERTISE, panel.expertise), (Bonus.ABILITY, panel.ability))
        ]
    bystanders = set(table.seats) - {panel.gm, panel.roller}
    if ActionKind.JOIN in may and bystanders:
        found.append(Choice(ActionKind.JOIN))
    if ActionKind.LEAVE in may and panel.helper is not None:  # only a helper can leave
        found.append(Choice(ActionKind.LEAVE))
    if ActionKind.OUTSIDE_ASSIST in may:
        outside = panel.assist is not None
        found.append(Choice(ActionKind.OUTSIDE_ASSIST, OFF if outside else ON, selected=outside))
    found += [Choice(kind) for kind in _PLAIN_KINDS if kind in may]
    return tuple(replace(c, by=_takers(table, panel, c.verb)) for c in found)


def _takers(table: Table, panel: Panel, kind: ActionKind) -> frozenset[int]:
    """The people who may take ``kind`` now (a bystander is anyone seated with no part)."""
    people = set(table.seats) | {panel.gm, panel.roller}
    if panel.helper is not None:
        people.add(panel.helper)
    return frozenset(p for p in people if kind in panel.allowed(p))


_PROBES: dict[ActionKind, Action] = {
    ActionKind.OPEN_THREAT: OpenThreat(),
    ActionKind.OPEN_APPROACH: OpenApproach(),
    ActionKind.BACK: Back(),
    ActionKind.SET_THREAT: SetThreat(0),
    ActionKind.CHOOSE_APPROACH: ChooseApproach("probe", 0),
    ActionKind.SET_BONUS: SetBonus(Bonus.EXPERTISE, True),
    ActionKind.JOIN: Join(),
    ActionKind.LEAVE: Leave(),
    ActionKind.OUTSIDE_ASSIST: SetOutsideAssist(True),
    ActionKind.ROLL: RollDice(),
    ActionKind.BURN: BurnMomentum(),
    ActionKind.KEEP: KeepRoll(),
    ActionKind.CANCEL: Cancel(),
}


def _switch(argument: str) -> bool:
    if argument == ON:
        return True
    if argument == OFF:
        return False
    raise Malformed("That button is out of date.")


NO_APPROACHES = N_(
    "Your sheet has no approaches yet, so this roll would have no dice. Add approaches "
    "on your sheet (/sheet), or type the dice yourself: /threat 3d2t is 3 action dice "
    "against 2 threat dice."
)
NO_APPROACHES_FOR = N_(
    "That player's sheet has no approaches yet, so the roll would have no dice. Give the "
    "dice in your reply (/threat 3d2t), or ask them to add approaches on their sheet (/sheet)."
)


# calling a roll off is open at any time; help, outside help and bonuses are optional
SIDE = frozenset({ActionKind.CANCEL})
OPTIONAL = frozenset(
    {ActionKind.JOIN, ActionKind.LEAVE, ActionKind.OUTSIDE_ASSIST, ActionKind.SET_BONUS}
)


class ThreatRollPanel:
    """The ``threat.roll`` panel: one action roll, from setup to result."""

    kind = ROLL_PANEL

    def read(self, state: Json) -> ThreatRollState:
        return ThreatRollState.from_dict(state)

    def waiting(self, table: Table, state: ThreatRollState | Json) -> Waiting:
        """The roll waits on its roller and the GM; joining or leaving as a helper, outside
        help and bonuses are optional, and calling it off never holds it."""
        return waiting(roll_view(table, current(self, state)).choices, SIDE, OPTIONAL)

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        """Open a roll. ``argument``: ``[for=<player id>] [notation | approach]``.

        An approach's name (one on the roller's sheet) opens the roll with that
        approach picked, as if the roller had tapped it; they may still pick another.

        Raises:
            Malformed: the text is neither threat notation nor one of the roller's
                approaches (``/roll`` rolls ordinary dice).
            NotAllowedNow: threat notation out of range, or no such player.
            NotYourTurn: someone other than the GM opens a roll for another player.
        """
        roller, notation = _roller_and_rest(actor, argument)
        approach: Approach | None = None
        if notation and not looks_like_threat_notation(notation):
            approach = _approach_of(table, roller, notation)
            if approach is None:
                raise Malformed(NOT_NOTATION, text=notation[:40])
            notation = ""
        gm = game_master(table)
        if roller != actor and actor != gm:
            raise NotYourTurn("Only the GM asks another player for a roll.")
        seat = table.seat(roller)
        if seat is None:
            raise NotAllowedNow("That player isn't in this game. They can /join first.")
        sheet = seat.read(read_sheet)
        if notation:
            panel = _panel_for_notation(notation, gm, roller, sheet)
        else:
            if not sheet.approaches:  # no dice to roll: say so rather than open an empty roll
                raise NotAllowedNow(NO_APPROACHES if roller == actor else NO_APPROACHES_FOR)
            panel = open_panel(gm, roller, momentum=sheet.momentum, harm=sheet.harm)
        if approach is not None:
            panel = replace(panel, approach_name=approach.name, approach=approach.value)
        return Outcome(state=_dump(panel, bool(notation)))

    def act(
        self,
        table: Table,
        state: ThreatRollState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        """Apply one button press (the action is an :class:`ActionKind` value).

        Raises:
            Malformed, NotAllowedNow, NotYourTurn: as the panel's rules say.
        """
        read = current(self, state)
        try:
            kind = ActionKind(action)
        except ValueError:
            raise Malformed("That button is out of date.") from None
        sheet = _roller_sheet(table, read.panel)
        panel = _synced(read.panel, sheet)
        if kind not in panel.allowed(actor):
            act(panel, actor, _PROBES[kind], rng)  # raises the panel's own refusal
            raise NotAllowedNow("That can't be done now.")  # pragma: no cover
        if kind is ActionKind.BURN and sheet is not None and not track.can_burn(sheet.momentum):
            raise NotAllowedNow(
                "Your Momentum is {momentum} now: you need {minimum} to burn.",
                momentum=sheet.momentum,
                minimum=track.BURN_MINIMUM,
            )
        step = act(panel, actor, self._action(kind, argument, panel, read.fixed, sheet), rng)
        return Outcome(
            state=_dump(step.panel, read.fixed),
            events=step.events,
            closed=step.panel.stage in (Stage.DONE, Stage.CANCELLED),
            sheets=_momentum_moved(panel.roller, sheet, step.events),
            model=ThreatRollState(step.panel, read.fixed),
        )

    @staticmethod
    def _action(
        kind: ActionKind, argument: str, panel: Panel, fixed: bool, sheet: Sheet | None
    ) -> Action:
        if kind is ActionKind.SET_THREAT:
            try:
                return SetThreat(int(argument))
            except ValueError:
                raise Malformed("Threat runs from -2 to +4 (+4 is impossible).") from None
        if kind in (ActionKind.CHOOSE_APPROACH, ActionKind.OPEN_APPROACH):
            if fixed:
                raise NotAllowedNow(
                    "The dice for this roll are set: {dice}d.", dice=panel.approach or 0
                )
            approaches = () if sheet is None else sheet.approaches
            if kind is ActionKind.OPEN_APPROACH:
                if not approaches:
                    raise NotAllowedNow(
                        "There are no approaches on your sheet yet: add them with /sheet."
                    )
                return OpenApproach()
            if not argument.isdigit() or int(argument) >= len(approaches):
                raise NotAllowedNow("That approach is no longer on your sheet.")
            chosen = approaches[int(argument)]
            return ChooseApproach(chosen.name, chosen.value)
        if kind is ActionKind.SET_BONUS:
            name, _, switch = argument.partition(".")
            try:
                bonus = Bonus(name)
            except ValueError:
                raise Malformed("That button is out of date.") from None
            return SetBonus(bonus, _switch(switch))
        if kind is ActionKind.OUTSIDE_ASSIST:
            return SetOutsideAssist(_switch(argument))
        return _PROBES[kind]


def sheet_of(seat_sheet: Mapping[str, Any]) -> Sheet:
    """A member's sheet for display; unreadable data shows as a fresh sheet."""
    try:
        return read_sheet(seat_sheet)
    except Malformed:
        return Sheet()
