"""d20 checks at the table: the campaign, the check panel and the long rest.

This module adapts the pure rules (:mod:`flow`, :mod:`rest`, :mod:`sheet`) to
the shared contract of :mod:`core.rules.table`: actions arrive as strings,
states are JSON-ready mappings, and every answer is an :class:`Outcome`.

Campaign state::

    {"v": 1, "plot_points": {"lucky": L, "unlucky": U}, "sheets_locked": bool}

Invariants:
    * ``L + U`` equals the number of people at the table, the Game Master
      included (ruling 20), capped at 50. A joiner adds a lucky point; a
      leaver takes away an unlucky point if there is one, else a lucky one.
      With fewer than two people there is no pool to play with yet, and
      checks wait for a player to join.
    * The pool changes otherwise only through the rules: spending and
      natural 1/20 in checks and long rests. Nobody edits it by hand.
    * Every player (not the Game Master) has a :class:`CharacterSheet`.
      Players edit their own abilities and proficiencies unless the Game
      Master locked the sheets; the Game Master edits anyone's sheet and is
      the only one who adds or removes strain and wounds by hand. Checks add
      band strain by themselves.
    * A check panel is closed exactly when its check is resolved; a long rest
      panel is closed as soon as it opens (it resolves at once).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from core.rules.choice import Choice, PageChoices, SheetChoices
from core.rules.d20check.check import (
    MAX_CIRCUMSTANCES,
    MAX_DIFFICULTY,
    MAX_PROFICIENCY,
    AbilityStrength,
    CheckSetup,
    Difficulty,
    Opposition,
    Target,
)
from core.rules.d20check.events import (
    Event,
    GameMasterPicksEffect,
    PlotPointTurned,
)
from core.rules.d20check.flow import ActionKind, CheckFlow, Phase
from core.rules.d20check.log import LogEntry, log_entry, read_log, record
from core.rules.d20check.plot_points import MAX_TABLE, MIN_TABLE, PlotPointPool
from core.rules.d20check.rest import DEFAULT_RECOVERY_SKILL, RecoveryCheck, long_rest
from core.rules.d20check.sheet import MAX_NAME, WHOLE_NUMBER, CharacterSheet
from core.rules.d20check.wounds import MAX_STRAIN, MAX_WOUNDS
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.registry import CampaignRules
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Role, Table, current
from core.rules.waiting import NOBODY, Waiting, waiting

STATE_VERSION = 1
CHECK_PANEL = "d20.check"
REST_PANEL = "d20.rest"

# Set-up buttons: the action names and what they change.
SET_ABILITY = "ability"
SET_PROFICIENCY = "prof"
SET_ADVANTAGES = "adv"
SET_DISADVANTAGES = "dis"
SET_TARGET = "target"
SETUP_ACTIONS = frozenset(
    {SET_ABILITY, SET_PROFICIENCY, SET_ADVANTAGES, SET_DISADVANTAGES, SET_TARGET}
)

# -- the plot point pool on the campaign ----------------------------------------


@dataclass(frozen=True)
class PoolCounts:
    """The stored pool, which may be smaller than a playable one (fewer than 2 people)."""

    lucky: int
    unlucky: int

    @property
    def size(self) -> int:
        return self.lucky + self.unlucky

    def resized(self, size: int) -> PoolCounts:
        """Grow with lucky points; shrink by unlucky points first, then lucky ones."""
        size = max(0, min(size, MAX_TABLE))
        lucky, unlucky = self.lucky, self.unlucky
        lucky += max(0, size - (lucky + unlucky))
        surplus = max(0, lucky + unlucky - size)
        taken = min(unlucky, surplus)
        unlucky -= taken
        lucky -= surplus - taken
        return PoolCounts(lucky, unlucky)

    @property
    def ready(self) -> bool:
        """Whether the pool can be played: two or more people sit at the table."""
        return self.size >= MIN_TABLE

    def playable(self) -> PlotPointPool:
        """The pool the rules play with.

        Raises:
            NotAllowedNow: fewer than two people sit at the table.
        """
        if self.size < MIN_TABLE:
            raise NotAllowedNow(
                "Plot points need a Game Master and at least one player. Ask someone to /join."
            )
        return PlotPointPool(self.lucky, self.unlucky)

    def to_dict(self) -> dict[str, object]:
        return {"lucky": self.lucky, "unlucky": self.unlucky}


def pool_counts(state: Json) -> PoolCounts:
    """The pool stored in a campaign state (empty when missing).

    Raises:
        Malformed: the stored counts are not whole numbers, zero or more.
    """
    data = state.get("plot_points") or {}
    lucky, unlucky = data.get("lucky", 0), data.get("unlucky", 0)
    for value in (lucky, unlucky):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise Malformed("That plot point pool could not be read.")
    return PoolCounts(lucky, unlucky)


def with_pool(state: Json, pool: PlotPointPool | PoolCounts) -> dict[str, Any]:
    return {**state, "v": STATE_VERSION, "plot_points": pool.to_dict()}


def sheets_locked(state: Json) -> bool:
    return bool(state.get("sheets_locked", False))


def may_edit_sheet(table: Table, viewer: int, owner: int) -> bool:
    """Whether ``viewer`` may edit ``owner``'s sheet: the Game Master anyone's, a
    player their own unless the Game Master locked the sheets (``D20Campaign.edit``)."""
    if is_game_master(table, viewer):
        return True
    return viewer == owner and not sheets_locked(table.state)


SHEET_FORM_EDITS = frozenset(
    {"rename", "ability.set", "ability.remove", "proficiency.set", "proficiency.remove"}
)
"""The edits of a sheet's own lines, its player's (unless locked) and the Game Master's."""
HARM_EDITS = frozenset({"harm.add", "harm.heal"})
"""The Game Master's edits of a sheet's strain and wounds."""


def page_choices(table: Table, viewer: int) -> PageChoices[int]:
    """What ``viewer`` may do on the sheet page, by player, with the rule the edits are
    checked with (``D20Campaign.edit``): the Game Master edits every sheet and its harm
    and locks the sheets; a player edits their own sheet while it is not locked. Nothing
    at a d20 table is secret: every sheet is seen whole."""
    gm = is_game_master(table, viewer)
    locked = sheets_locked(table.state)
    return PageChoices(
        sheets={
            player: SheetChoices(
                edits=(SHEET_FORM_EDITS if may_edit_sheet(table, viewer, player) else frozenset())
                | (HARM_EDITS if gm else frozenset()),
                whole=True,
                locked=player == viewer and locked and not gm,
            )
            for player, seat in table.seats.items()
            if Role.GAME_MASTER not in seat.roles
        },
        table_edits=frozenset({"sheets.lock"}) if gm else frozenset(),
        runs_table=gm,
    )


def game_master_of(table: Table) -> int:
    """The campaign's Game Master.

    Raises:
        NotAllowedNow: nobody holds the role.
    """
    masters = sorted(table.with_role(Role.GAME_MASTER))
    if not masters:
        raise NotAllowedNow("This game has no Game Master.")
    return masters[0]


def is_game_master(table: Table, player_id: int) -> bool:
    seat = table.seat(player_id)
    return seat is not None and Role.GAME_MASTER in seat.roles


def sheet_of(table: Table, player_id: int) -> CharacterSheet | None:
    """A player's sheet, or None for the Game Master or someone not seated."""
    seat = table.seat(player_id)
    if seat is None or Role.GAME_MASTER in seat.roles or not seat.sheet:
        return None
    return seat.read(read_sheet)


def read_sheet(data: Json) -> CharacterSheet:
    """A stored sheet, read (once per seat: :meth:`core.rules.table.Seat.read`).

    Raises:
        Malformed: the stored sheet is damaged.
    """
    return CharacterSheet.from_dict(data)


def default_sheet(name: str) -> CharacterSheet:
    """A new character: named after the player, no abilities or proficiencies yet."""
    cleaned = " ".join(name.split())[:MAX_NAME].strip() or "Adventurer"
    return CharacterSheet(cleaned)


# -- the campaign --------------------------------------------------------------


class D20Campaign(CampaignRules):
    """Seats, the shared pool, and the Mini App edits of a d20 campaign."""

    has_game_master = True

    def new_state(self) -> Json:
        return {
            "v": STATE_VERSION,
            "plot_points": {"lucky": 0, "unlucky": 0},
            "sheets_locked": False,
        }

    def seated(self, table: Table, player_id: int) -> tuple[Json, Json]:
        """Resize the pool to the table and give a new player a sheet (kept on return)."""
        state = with_pool(table.state, pool_counts(table.state).resized(len(table.seats)))
        seat = table.seat(player_id)
        if seat is None or Role.GAME_MASTER in seat.roles:
            return state, {}
        try:
            sheet = CharacterSheet.from_dict(seat.sheet) if seat.sheet else None
        except Malformed:
            sheet = None
        return state, (sheet or default_sheet(seat.name)).to_dict()

    def left(self, table: Table, player_id: int) -> Json:
        """After ``player_id`` left ``table``: one point fewer, unlucky first."""
        return with_pool(table.state, pool_counts(table.state).resized(len(table.seats)))

    def edit(self, table: Table, actor: int, action: str, payload: Json, rng: Rng) -> Outcome:
        """A Mini App edit; see :data:`EDITS` for what each action does.

        Raises:
            Malformed: an unknown action or a bad value.
            NotYourTurn: someone else's sheet, or a Game Master's edit by a player.
            NotAllowedNow: the sheets are locked, or the target has no sheet.
        """
        handler = EDITS.get(action)
        if handler is None:
            raise Malformed("That can't be changed here.")
        return handler(table, actor, payload)


def _target(table: Table, actor: int, payload: Json, *, gm_only: bool) -> int:
    raw = payload.get("player", actor)
    if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
        raw = int(raw)
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise Malformed("Pick a player.")
    gm = is_game_master(table, actor)
    if gm_only and not gm:
        raise NotYourTurn("Only the Game Master can do that.")
    if raw != actor and not gm:
        raise NotYourTurn("You can only change your own sheet.")
    if not gm and sheets_locked(table.state):
        raise NotAllowedNow("The Game Master has locked the sheets.")
    if table.seat(raw) is None:
        raise NotAllowedNow("That player isn't in this game.")
    return raw


def _sheet_for_edit(table: Table, player_id: int) -> CharacterSheet:
    sheet = sheet_of(table, player_id)
    if sheet is None:
        raise NotAllowedNow("The Game Master has no character sheet.")
    return sheet


def _text(payload: Json, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str):
        raise Malformed("Give it a name.")
    return value


def _count(payload: Json, key: str, low: int, high: int, what: str) -> int:
    value = payload.get(key, 0)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Malformed(WHOLE_NUMBER[what], low=low, high=high)
    return value


def _strength(value: object) -> AbilityStrength:
    try:
        return AbilityStrength(value)
    except ValueError:
        raise Malformed("Pick a weak, average or strong ability.") from None


def _sheet_edit(
    table: Table, actor: int, payload: Json, change: Callable[[CharacterSheet], CharacterSheet]
) -> Outcome:
    target = _target(table, actor, payload, gm_only=False)
    sheet = change(_sheet_for_edit(table, target))
    return Outcome(state={}, sheets={target: sheet.to_dict()})


def _rename(table: Table, actor: int, payload: Json) -> Outcome:
    name = _text(payload, "name")
    return _sheet_edit(table, actor, payload, lambda s: replace(s, name=name))


def _set_ability(table: Table, actor: int, payload: Json) -> Outcome:
    name, strength = _text(payload, "name"), _strength(payload.get("strength"))
    return _sheet_edit(table, actor, payload, lambda s: s.with_ability(name, strength))


def _remove_ability(table: Table, actor: int, payload: Json) -> Outcome:
    name = _text(payload, "name")
    return _sheet_edit(table, actor, payload, lambda s: s.without_ability(name))


def _set_proficiency(table: Table, actor: int, payload: Json) -> Outcome:
    name = _text(payload, "name")
    bonus = _count(payload, "bonus", 0, MAX_PROFICIENCY, "A proficiency bonus")
    return _sheet_edit(table, actor, payload, lambda s: s.with_proficiency(name, bonus))


def _remove_proficiency(table: Table, actor: int, payload: Json) -> Outcome:
    name = _text(payload, "name")
    return _sheet_edit(table, actor, payload, lambda s: s.without_proficiency(name))


def _harm(table: Table, actor: int, payload: Json) -> Outcome:
    """Game Master: add strain (every 4 make a wound) and wounds from the story."""
    target = _target(table, actor, payload, gm_only=True)
    strain = _count(payload, "strain", 0, 4 * MAX_WOUNDS, "Strain")
    wounds = _count(payload, "wounds", 0, MAX_WOUNDS, "Wounds")
    sheet, event = _sheet_for_edit(table, target).take_harm(strain=strain, wounds=wounds)
    return Outcome(state={}, events=(event,), sheets={target: sheet.to_dict()})


def _heal(table: Table, actor: int, payload: Json) -> Outcome:
    """Game Master: remove strain and wounds (healing outside a long rest)."""
    target = _target(table, actor, payload, gm_only=True)
    strain = _count(payload, "strain", 0, MAX_STRAIN, "Strain")
    wounds = _count(payload, "wounds", 0, MAX_WOUNDS, "Wounds")
    sheet = _sheet_for_edit(table, target)
    sheet, event = replace(sheet, strain=max(0, sheet.strain - strain)).heal_wounds(wounds)
    return Outcome(state={}, events=(event,), sheets={target: sheet.to_dict()})


def _lock(table: Table, actor: int, payload: Json) -> Outcome:
    """Game Master: lock or unlock the players' abilities and proficiencies."""
    if not is_game_master(table, actor):
        raise NotYourTurn("Only the Game Master can do that.")
    locked = payload.get("locked")
    if not isinstance(locked, bool):
        raise Malformed("Say whether the sheets are locked.")
    return Outcome(state={}, campaign_state={**table.state, "sheets_locked": locked})


EDITS = {
    "rename": _rename,
    "ability.set": _set_ability,
    "ability.remove": _remove_ability,
    "proficiency.set": _set_proficiency,
    "proficiency.remove": _remove_proficiency,
    "harm.add": _harm,
    "harm.heal": _heal,
    "sheets.lock": _lock,
}


# -- reading /check arguments -------------------------------------------------


@dataclass(frozen=True)
class CheckRequest:
    """What /check asked for: a setup, a target and a label naming what is used."""

    setup: CheckSetup
    target: Target
    label: str


_NUMBERED = re.compile(r"^(dc|vs|adv|dis|prof|\+)(\d{1,3})?$")
_STRENGTHS = {
    "weak": AbilityStrength.WEAK,
    "average": AbilityStrength.AVERAGE,
    "avg": AbilityStrength.AVERAGE,
    "strong": AbilityStrength.STRONG,
}


def _split_numbered(tokens: list[str]) -> list[str]:
    """Glue "dc 15" into "dc15" and "+ 2" into "+2"."""
    out: list[str] = []
    for token in tokens:
        if out and token.isdigit() and out[-1].lower() in ("dc", "vs", "+", "prof"):
            out[-1] += token
        else:
            out.append(token)
    return out


def parse_check(argument: str, sheet: CharacterSheet | None) -> CheckRequest:
    """Read ``/check`` arguments: strengths, +N, adv/dis[N], dcN or vsN, sheet names.

    Names of the roller's abilities and proficiencies (several words allowed)
    take the strength or bonus from the sheet.

    Raises:
        Malformed: a word that is none of these, or a number out of range.
    """
    tokens = _split_numbered(argument.replace(",", " ").split())
    if len(tokens) > 20:
        raise Malformed(
            "That's a lot of words for one check. "
            "Try: /check strong +2 adv dc15 (or a contest: vs14)."
        )
    ability, proficiency, advantages, disadvantages = AbilityStrength.AVERAGE, 0, 0, 0
    target: Target = Difficulty(10)
    labels: list[str] = []
    index = 0
    while index < len(tokens):
        found = _sheet_name(tokens, index, sheet)
        if found is not None:
            index, name, strength, bonus = found
            if strength is not None:
                ability = strength
            if bonus is not None:
                proficiency = bonus
            labels.append(name)
            continue
        token = tokens[index].lower()
        index += 1
        if token in _STRENGTHS:
            ability = _STRENGTHS[token]
            continue
        match = _NUMBERED.match(token)
        if match is None:
            raise Malformed(
                "I couldn't read “{text}”. Try: /check strong +2 adv dc15 (or a contest: vs14).",
                text=tokens[index - 1][:30],
            )
        word, digits = match.group(1), match.group(2)
        if word in ("adv", "dis"):
            count = int(digits) if digits else 1
            if word == "adv":
                advantages += count
            else:
                disadvantages += count
            continue
        if digits is None:
            raise Malformed(
                "“{text}” needs a number. Try: /check strong +2 adv dc15 (or a contest: vs14).",
                text=token,
            )
        value = int(digits)
        if word == "dc":
            target = Difficulty(value)
        elif word == "vs":
            target = Opposition(value)
        else:
            proficiency = value
    setup = CheckSetup(ability, proficiency, advantages, disadvantages)
    return CheckRequest(setup, target, " + ".join(labels)[:80])


def _sheet_name(
    tokens: Sequence[str], start: int, sheet: CharacterSheet | None
) -> tuple[int, str, AbilityStrength | None, int | None] | None:
    """The longest run of words from ``start`` naming an ability or proficiency."""
    if sheet is None:
        return None
    for stop in range(len(tokens), start, -1):
        phrase = " ".join(tokens[start:stop]).casefold()
        for ability in sheet.abilities:
            if ability.name.casefold() == phrase:
                return stop, ability.name, ability.strength, None
        for proficiency in sheet.proficiencies:
            if proficiency.name.casefold() == phrase:
                return stop, proficiency.name, None, proficiency.bonus
    return None


# -- the check panel --------------------------------------------------------------


def event_record(event: Event) -> dict[str, object]:
    """An event as the panel's log stores it (see :mod:`core.rules.d20check.log`)."""
    return record(log_entry(event))


class SetupMenu(Enum):
    """A group of set-up options, opened as a sub-step so that a phone shows them all."""

    ABILITY = "ability"  # weak, average, strong
    MODIFIERS = "mods"  # proficiency, advantages, disadvantages
    TARGET = "target"  # the difficulty or the opposing result


class SetupVerb(Enum):
    """The set-up buttons of a check: open a group, go back, or change one value."""

    OPEN = "open"
    BACK = "back"
    ABILITY = SET_ABILITY
    PROFICIENCY = SET_PROFICIENCY
    ADVANTAGES = SET_ADVANTAGES
    DISADVANTAGES = SET_DISADVANTAGES
    TARGET = SET_TARGET


MENU_OF: dict[str, SetupMenu] = {
    SET_ABILITY: SetupMenu.ABILITY,
    SET_PROFICIENCY: SetupMenu.MODIFIERS,
    SET_ADVANTAGES: SetupMenu.MODIFIERS,
    SET_DISADVANTAGES: SetupMenu.MODIFIERS,
    SET_TARGET: SetupMenu.TARGET,
}
TARGET_STEPS = (5, 1)

PanelChoice = Choice[ActionKind] | Choice[SetupVerb]


@dataclass(frozen=True)
class CheckPanelState:
    """The stored state of a check panel: the check, its label and what happened.

    Attributes:
        check: the check.
        label: what it is for, as the opener wrote it.
        log: what happened, for the message.
        menu: the set-up group open instead of the main buttons, if any.
    """

    check: CheckFlow
    label: str = ""
    log: tuple[LogEntry, ...] = ()
    menu: SetupMenu | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "v": STATE_VERSION,
            "check": self.check.to_dict(),
            "label": self.label,
            "log": [record(entry) for entry in self.log],
            "menu": None if self.menu is None else self.menu.value,
        }

    def setup_choices(self) -> tuple[Choice[SetupVerb], ...]:
        """The set-up buttons now: the groups to open, or the open group's options and Back."""
        check = self.check
        if check.phase is not Phase.SETUP:
            return ()
        by = frozenset({check.roller})
        setup = check.setup
        if self.menu is None:
            return tuple(Choice(SetupVerb.OPEN, m.value, by=by) for m in SetupMenu)
        found: list[Choice[SetupVerb]] = []
        if self.menu is SetupMenu.ABILITY:
            found += [
                Choice(SetupVerb.ABILITY, s.value, by=by, selected=setup.ability is s)
                for s in AbilityStrength
            ]
        elif self.menu is SetupMenu.MODIFIERS:
            found += _stepper(SetupVerb.PROFICIENCY, setup.proficiency, 0, MAX_PROFICIENCY, by)
            found += _stepper(SetupVerb.ADVANTAGES, setup.advantages, 0, MAX_CIRCUMSTANCES, by)
            found += _stepper(
                SetupVerb.DISADVANTAGES, setup.disadvantages, 0, MAX_CIRCUMSTANCES, by
            )
        else:
            target = check.target
            value = target.value if isinstance(target, Difficulty) else target.result
            low = 0 if isinstance(target, Difficulty) else -MAX_DIFFICULTY
            found += _stepper(SetupVerb.TARGET, value, low, MAX_DIFFICULTY, by, TARGET_STEPS)
        return (*found, Choice(SetupVerb.BACK, by=by))

    def choices(self, pool: PlotPointPool) -> tuple[PanelChoice, ...]:
        """Every legal choice on the panel now, each with who may take it."""
        if self.check.phase is not Phase.SETUP:
            return self.check.choices(pool)
        rest = () if self.menu is not None else self.check.choices(pool)
        return (*self.setup_choices(), *(c for c in rest if c.verb is not ActionKind.SET_UP))

    @classmethod
    def from_dict(cls, data: Json) -> CheckPanelState:
        """Rebuild from :meth:`to_dict` output.

        Raises:
            Malformed: another version or bad fields.
        """
        check, label, log = data.get("check"), data.get("label", ""), data.get("log", [])
        if data.get("v") != STATE_VERSION or not isinstance(check, Mapping):
            raise Malformed("That check could not be read.")
        if not isinstance(label, str) or not isinstance(log, list):
            raise Malformed("That check could not be read.")
        menu = data.get("menu")
        try:
            opened = None if menu is None else SetupMenu(menu)
        except ValueError:
            raise Malformed("That check could not be read.") from None
        flow = CheckFlow.from_dict(check)
        if opened is not None and flow.phase is not Phase.SETUP:
            raise Malformed("That check could not be read.")
        return cls(flow, label, read_log(log), opened)


def _stepper(
    verb: SetupVerb,
    value: int,
    low: int,
    high: int,
    by: frozenset[int],
    steps: Sequence[int] = (1,),
) -> list[Choice[SetupVerb]]:
    """Choices that lower and raise a value within its range (arguments are new values).

    ``name`` is the direction ("−" or "+") and ``count`` the step.
    """
    down = [
        Choice(verb, str(value - step), by=by, name="−", count=step)
        for step in steps
        if value - step >= low
    ]
    up = [
        Choice(verb, str(value + step), by=by, name="+", count=step)
        for step in reversed(steps)
        if value + step <= high
    ]
    return down + up


def _menu_step(panel: CheckPanelState, action: str, argument: str) -> CheckPanelState:
    """Open or close a set-up group (the roller, before the roll)."""
    if action == SetupVerb.BACK.value:
        if panel.menu is None:
            raise NotAllowedNow("No list is open to go back from.")
        return replace(panel, menu=None)
    if panel.menu is not None:
        raise NotAllowedNow(open_refusal(panel.menu))
    try:
        return replace(panel, menu=SetupMenu(argument))
    except ValueError:
        raise Malformed("That button is out of date. Use the latest message.") from None


MENU_OPEN = {
    SetupMenu.ABILITY: "The ability list is open: pick from it or tap Back first.",
    SetupMenu.MODIFIERS: "The bonus list is open: pick from it or tap Back first.",
    SetupMenu.TARGET: "The difficulty list is open: pick from it or tap Back first.",
}
MENU_CLOSED = {
    SetupMenu.ABILITY: "The ability list was closed: tap Ability to open it again.",
    SetupMenu.MODIFIERS: "The bonus list was closed: tap Bonuses to open it again.",
    SetupMenu.TARGET: "The difficulty list was closed: tap DC to open it again.",
}
GOES_FROM = {
    "Proficiency": "Proficiency goes from {low} to {high}.",
    "Advantages": "Advantages goes from {low} to {high}.",
    "Disadvantages": "Disadvantages goes from {low} to {high}.",
    "The difficulty": "The difficulty goes from {low} to {high}.",
    "The opposing result": "The opposing result goes from {low} to {high}.",
}


def open_refusal(menu: SetupMenu) -> str:
    """Why the main buttons wait while ``menu`` is open (a message id)."""
    return MENU_OPEN[menu]


def _number(argument: str, low: int, high: int, what: str) -> int:
    if not re.fullmatch(r"-?\d{1,3}", argument):
        raise Malformed("That button is out of date. Use the latest message.")
    value = int(argument)
    if not low <= value <= high:
        raise NotAllowedNow(GOES_FROM[what], low=low, high=high)
    return value


def changed_setup(check: CheckFlow, action: str, argument: str) -> tuple[CheckSetup, Target]:
    """The setup and target after one set-up button (arguments are the new values).

    Raises:
        Malformed: an unknown set-up button or a bad value.
        NotAllowedNow: a value out of range.
    """
    setup, target = check.setup, check.target
    if action == SET_ABILITY:
        return replace(setup, ability=_strength(argument)), target
    if action == SET_PROFICIENCY:
        value = _number(argument, 0, MAX_PROFICIENCY, "Proficiency")
        return replace(setup, proficiency=value), target
    if action == SET_ADVANTAGES:
        value = _number(argument, 0, MAX_CIRCUMSTANCES, "Advantages")
        return replace(setup, advantages=value), target
    if action == SET_DISADVANTAGES:
        value = _number(argument, 0, MAX_CIRCUMSTANCES, "Disadvantages")
        return replace(setup, disadvantages=value), target
    if isinstance(target, Difficulty):
        return setup, Difficulty(_number(argument, 0, MAX_DIFFICULTY, "The difficulty"))
    value = _number(argument, -MAX_DIFFICULTY, MAX_DIFFICULTY, "The opposing result")
    return setup, Opposition(value)


def _action_kind(action: str) -> ActionKind:
    try:
        kind = ActionKind(action)
    except ValueError:
        raise Malformed("That button is out of date. Use the latest message.") from None
    if kind is ActionKind.SET_UP:
        raise Malformed("That button is out of date. Use the latest message.")
    return kind


def _called_for(table: Table, actor: int, argument: str) -> tuple[int, str]:
    """Who makes the check (``for=<player>`` or the actor) and the rest of the words."""
    words = argument.split()
    named = [w for w in words if w.lower().startswith("for=")]
    if not named:
        return actor, argument
    rest = " ".join(w for w in words if not w.lower().startswith("for="))
    raw = named[-1][4:]
    if not raw.isdigit():
        raise Malformed("That player could not be found.")
    roller = int(raw)
    if roller == actor or not is_game_master(table, actor):
        return actor, rest  # a player's /check is always their own
    seat = table.seat(roller)
    if seat is None or Role.GAME_MASTER in seat.roles:
        raise NotAllowedNow("Only players in this game make checks. They can /join first.")
    return roller, rest


def _kept(panel: CheckPanelState, **more: Any) -> Outcome:
    """The check's new state, as stored and as read (``more``: the rest of the outcome)."""
    return Outcome(state=panel.to_dict(), model=panel, **more)


class CheckPanel:
    """A check from set-up to the result that stands, one button at a time."""

    kind = CHECK_PANEL

    def read(self, state: Json) -> CheckPanelState:
        return CheckPanelState.from_dict(state)

    def waiting(self, table: Table, state: CheckPanelState | Json) -> Waiting:
        """The check waits on whoever decides now (the roller, then the Game Master); another
        player's reroll of a success with an unlucky point is optional (ruling 25)."""
        choices = current(self, state).choices(pool_counts(table.state).playable())
        return waiting(choices, optional={ActionKind.REROLL})

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        """Open a check for ``actor`` (the Game Master's own check when they open it).

        ``for=<player>`` in the argument is the Game Master calling for a
        player's check: it opens that player's check, set up as far as given.
        From anyone else, ``for=`` is ignored: a player's check is their own.

        Raises:
            NotAllowedNow: no pool yet, or the named player can't make checks.
        """
        roller, argument = _called_for(table, actor, argument)
        request = parse_check(argument, sheet_of(table, roller))
        gm = game_master_of(table)
        pool_counts(table.state).playable()
        players = (p for p, seat in table.seats.items() if Role.GAME_MASTER not in seat.roles)
        check = CheckFlow.open(roller, gm, request.target, request.setup, players)
        return Outcome(state=CheckPanelState(check, request.label).to_dict())

    def act(
        self,
        table: Table,
        state: CheckPanelState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        panel = current(self, state)
        check = panel.check
        if action in (SetupVerb.OPEN.value, SetupVerb.BACK.value):
            check.set_up(actor, check.setup)  # refused as any set-up would be
            return _kept(_menu_step(panel, action, argument))
        if action in SETUP_ACTIONS:
            check.set_up(actor, check.setup)
            wanted = MENU_OF[action]
            if panel.menu is not wanted:
                raise NotAllowedNow(MENU_CLOSED[wanted])
            setup, target = changed_setup(check, action, argument)
            check = check.set_up(actor, setup, target)
            menu = None if action == SET_ABILITY else panel.menu  # one pick; steppers stay
            return _kept(replace(panel, check=check, menu=menu))
        kind = _action_kind(action)
        if panel.menu is not None and check.phase is Phase.SETUP and actor == check.roller:
            raise NotAllowedNow(open_refusal(panel.menu))
        pool = pool_counts(table.state).playable()
        sheet = None if check.is_gm_check else sheet_of(table, check.roller)
        step = check.act(actor, kind, pool=pool, rng=rng, sheet=sheet)
        now = replace(panel, check=step.check, log=(*panel.log, *map(log_entry, step.events)))
        moved = step.sheet if step.sheet is not None and step.sheet != sheet else None
        return _kept(
            now,
            events=step.events,
            closed=step.check.is_over,
            campaign_state=with_pool(table.state, step.pool) if step.pool != pool else None,
            sheets={} if moved is None else {check.roller: moved.to_dict()},
        )


# -- the long rest ------------------------------------------------------------------


def parse_rest(argument: str) -> RecoveryCheck:
    """Read ``/rest`` arguments: an optional dcN and a proficiency name (Fortitude).

    Raises:
        Malformed: a bad difficulty.
    """
    tokens = _split_numbered(argument.replace(",", " ").split())
    difficulty = RecoveryCheck().difficulty
    words: list[str] = []
    for token in tokens:
        match = re.fullmatch(r"dc(\d{1,3})", token.lower())
        if match:
            difficulty = Difficulty(int(match.group(1))).value
        else:
            words.append(token)
    skill = " ".join(words)[:MAX_NAME] or DEFAULT_RECOVERY_SKILL
    return RecoveryCheck(difficulty=difficulty, skill=skill)


@dataclass(frozen=True)
class RestCheckShown:
    """One recovery check of a long rest, as its panel keeps it."""

    total: int
    success: bool


@dataclass(frozen=True)
class Rested:
    """One character's long rest, as its panel keeps it.

    Attributes:
        log: the plot-point events of the rest.
    """

    player: int
    name: str
    strain_before: int
    wounds_before: int
    wounds_after: int
    checks: tuple[RestCheckShown, ...] = ()
    log: tuple[LogEntry, ...] = ()


@dataclass(frozen=True)
class RestPanelState:
    """A finished long rest: its difficulty and skill, and each character's rest."""

    difficulty: int
    skill: str
    rested: tuple[Rested, ...] = ()

    @classmethod
    def from_dict(cls, state: Json) -> RestPanelState:
        """Raises: Malformed: the stored state is damaged."""
        try:
            return cls(
                difficulty=int(state.get("difficulty") or 0),
                skill=str(state.get("skill") or ""),
                rested=tuple(
                    Rested(
                        player=int(e.get("player") or 0),
                        name=str(e.get("name", "")),
                        strain_before=int(e.get("strain_before") or 0),
                        wounds_before=int(e.get("wounds_before") or 0),
                        wounds_after=int(e.get("wounds_after") or 0),
                        checks=tuple(
                            RestCheckShown(int(c.get("total") or 0), bool(c.get("success")))
                            for c in e.get("checks") or ()
                        ),
                        log=read_log(e.get("log") or ()),
                    )
                    for e in state.get("rested") or ()
                ),
            )
        except (TypeError, ValueError, AttributeError):
            raise Malformed("That button is out of date. Use the latest message.") from None


class RestPanel:
    """The long rest, called by the Game Master for every character at once.

    Each character loses all strain and rolls one recovery check per wound;
    natural 1s and 20s turn plot points in order, character by character.
    """

    kind = REST_PANEL

    def read(self, state: Json) -> RestPanelState:
        return RestPanelState.from_dict(state)

    def waiting(self, table: Table, state: RestPanelState | Json) -> Waiting:
        """A long rest is over as it opens: it waits on nobody."""
        return NOBODY

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        if not is_game_master(table, actor):
            raise NotYourTurn("Only the Game Master can call a long rest.")
        recovery = parse_rest(argument)
        pool = pool_counts(table.state).playable()
        before = pool
        sheets: dict[int, Json] = {}
        events: list[Event] = []
        rested: list[dict[str, object]] = []
        for player_id in sorted(table.seats):
            sheet = sheet_of(table, player_id)
            if sheet is None:
                continue
            rest = long_rest(sheet, pool, rng, recovery)
            pool = rest.pool
            events.extend(rest.events)
            sheets[player_id] = rest.sheet.to_dict()
            rested.append(
                {
                    "player": player_id,
                    "name": sheet.name,
                    "strain_before": sheet.strain,
                    "wounds_before": sheet.wounds,
                    "wounds_after": rest.sheet.wounds,
                    "setup": recovery.setup_for(sheet).to_dict(),
                    "checks": [
                        {
                            "d20s": list(c.roll.d20s),
                            "die": c.roll.die_face,
                            "total": c.roll.total,
                            "success": c.succeeded,
                        }
                        for c in rest.checks
                    ],
                    "log": [
                        event_record(e)
                        for e in rest.events
                        if isinstance(e, PlotPointTurned | GameMasterPicksEffect)
                    ],
                }
            )
        state = {
            "v": STATE_VERSION,
            "difficulty": recovery.difficulty,
            "skill": recovery.skill,
            "rested": rested,
        }
        return Outcome(
            state=state,
            events=tuple(events),
            closed=True,
            campaign_state=with_pool(table.state, pool) if pool != before else None,
            sheets=sheets,
        )

    def act(
        self,
        table: Table,
        state: RestPanelState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        raise NotAllowedNow("This long rest is over.")


__all__ = [
    "CHECK_PANEL",
    "REST_PANEL",
    "CheckPanel",
    "CheckPanelState",
    "CheckRequest",
    "D20Campaign",
    "PoolCounts",
    "RestPanel",
    "RestPanelState",
    "Rested",
    "parse_check",
    "parse_rest",
    "pool_counts",
]


def rolled_by(state: Json) -> int:
    """Who rolls on a check panel (the GM may have called for it)."""
    return CheckPanelState.from_dict(state).check.roller
