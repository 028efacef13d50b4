"""A library game at the table: its campaign (the definition it plays) and its roll.

Campaign state::

    {"v": 1, "system": {"key": K, "version": N, "text": TOML, "own": true?}}

A group's own system (``own``: its key is the group's, not the library's) is played by
one registry entry, :data:`OWN` (``/newgame KEY`` builds its campaign with
:func:`own_game`): its state says which system and version it plays, and it keeps that
version until its host moves it on.

A player's sheet keeps their named stats (the definition's ``stats``), by key::

    {"stats": {"cool": 2, "hard": -1}}

``/roll cool`` (or a tap on Cool on the Mini App's sheet) rolls with the player's Cool
feeding the input the definition names.

Roll panel state (``dice.roll``: it rolls as it opens, and is closed at once unless
the game offers a follow-up on the result, a push or a reroll; then it stays open
for its roller until none is left, or a newer roll of theirs retires it)::

    {"by": player, "system": {"en", "ru"}, "inputs": [[key, value, {"en", "ru"}]...],
     "groups": [[key, notation, [[[face...], kept]...]]...], "value": N,
     "outcome": {"key", "en", "ru"}, "marks": [{"key", "en", "ru"}...],
     "chance": [numerator, denominator] | null,
     "values": [[key, value]...],                     every input, for a follow-up
     "made": [[followup, times]...],                  the follow-ups made so far
     "offers": [{"key", "label": {"en", "ru"},        the follow-ups open now, and the
                 "odds": [[{"en", "ru"}, n, d]...] | null}...],   outcomes they may give
     "lines": [{"label": {"en", "ru"} | null, "groups", "value", "outcome": {"en", "ru"},
                "chance": [n, d] | null, "addends"}...],  each roll made, once a follow-up was
     "addends": [n...] | null}                        what the value adds up, if a sum

The top-level result is the one that stands (after a reroll that keeps the better of
the two, maybe the earlier one).

The panel keeps every word it shows in both languages, so a roll reads as it fell
whatever becomes of the definition later.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from core.rules import dice
from core.rules.catalogue import N_
from core.rules.choice import Choice
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.history import HistoryRoll
from core.rules.registry import CampaignRules, Edges, GameSystem
from core.rules.rng import Rng
from core.rules.said import Said
from core.rules.systems import (
    Definition,
    GroupRoll,
    Stat,
    SystemOdds,
    SystemRoll,
    Words,
    estimate,
    follow_up,
    followup_odds,
    inputs_for,
    library_definition,
    odds,
    offered,
    parse_args,
    parse_stat_roll,
    read_system,
    roll,
    stat_of,
    stat_values,
)
from core.rules.systems.library import LIBRARY, library_text
from core.rules.systems.play import OUT_OF_RANGE, addends, better_of
from core.rules.table import Json, Outcome, Table, current
from core.rules.undo import UndoRules
from core.rules.waiting import Waiting, waiting

STATE_VERSION = 1
ROLL_PANEL = "dice.roll"
LIGHT_STEPS = 20_000
"""Odds this cheap (:func:`core.rules.systems.estimate`) are worked out with the roll
itself, to show its outcome's chance; dearer ones go to the heavy pool with /odds."""

DAMAGED = N_("This game's rules could not be read.")
ROLLED = N_("That roll is over.")
NOT_YOURS = N_("This roll is another player's: start your own with /roll.")
NO_SUCH_STEP = N_("That can't be set on this roll now.")
NOT_AN_EDIT = N_("That can't be changed here.")
NO_SUCH_STAT = N_("This game has no stat “{name}”.")
NOT_SEATED = N_("You're not in this game. Join it with /join in its chat.")
STAT_SET = "stat.set"
NO_FOLLOWUP = N_("That was already done on this roll.")


def _words(words: Words) -> dict[str, str]:
    return {"en": words.en, "ru": words.ru}


def _read_words(data: object) -> Words:
    if not isinstance(data, Mapping):
        raise Malformed(DAMAGED)
    return Words(str(data.get("en", "")), str(data.get("ru", "")))


Dice = tuple[tuple[str, str, tuple[tuple[tuple[int, ...], bool], ...]], ...]


def _dice_dict(groups: Dice) -> list[object]:
    return [[k, n, [[list(faces), kept] for faces, kept in dice]] for k, n, dice in groups]


def _read_dice(data: Any) -> Dice:
    return tuple(
        (str(k), str(n), tuple((tuple(int(f) for f in faces), bool(kept)) for faces, kept in dice))
        for k, n, dice in data
    )


def _fraction(data: Any) -> Fraction | None:
    return None if data is None else Fraction(int(data[0]), int(data[1]))


def _addends(data: Any) -> tuple[int, ...] | None:
    return None if data is None else tuple(int(n) for n in data)


def _pair(chance: Fraction | None) -> list[int] | None:
    return None if chance is None else [chance.numerator, chance.denominator]


@dataclass(frozen=True)
class Offer:
    """A follow-up the roller may make now, and the outcomes it may leave standing,
    best first, with their exact chances given what was rolled (None: too dear)."""

    key: str
    label: Words
    odds: tuple[tuple[Words, Fraction], ...] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": _words(self.label),
            "odds": None
            if self.odds is None
            else [[_words(w), c.numerator, c.denominator] for w, c in self.odds],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Offer:
        odds = data.get("odds")
        return cls(
            str(data["key"]),
            _read_words(data["label"]),
            None
            if odds is None
            else tuple((_read_words(w), Fraction(int(n), int(d))) for w, n, d in odds),
        )


@dataclass(frozen=True)
class RollLine:
    """One roll made on a panel: the first, or a follow-up's (``label``)."""

    label: Words | None
    groups: Dice
    value: int
    outcome: Words
    chance: Fraction | None
    addends: tuple[int, ...] | None = None  # what the value adds up, when it is a sum

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": None if self.label is None else _words(self.label),
            "groups": _dice_dict(self.groups),
            "value": self.value,
            "outcome": _words(self.outcome),
            "chance": _pair(self.chance),
            "addends": None if self.addends is None else list(self.addends),
        }

    @classmethod
    def from_dict(cls, data: Any) -> RollLine:
        label = data.get("label")
        return cls(
            None if label is None else _read_words(label),
            _read_dice(data["groups"]),
            int(data["value"]),
            _read_words(data["outcome"]),
            _fraction(data.get("chance")),
            _addends(data.get("addends")),
        )


@lru_cache(maxsize=64)
def _read_text(text: str) -> Definition:
    return read_system(text)


def definition_of(state: Json) -> Definition:
    """The definition a campaign plays, from its state (the library's own, read once,
    when its text is the library's).

    Raises:
        Malformed: the stored definition is missing or no longer reads.
    """
    stored = state.get("system")
    if not isinstance(stored, Mapping) or not isinstance(stored.get("text"), str):
        raise Malformed(DAMAGED)
    key, text = stored.get("key"), stored["text"]
    if key in LIBRARY and text == library_text(str(key)):
        return library_definition(str(key))
    return _read_text(text)


class Mistyped(Malformed):
    """A roll of this game, mistyped (out of range, a word it doesn't take): refused
    with the game's reason, never rolled as other dice (which other ``Malformed``
    from a game's roll panel means)."""


def player_stats(definition: Definition, sheet: Json) -> dict[str, int]:
    """A player's stats (each at its default until set), by key, from their sheet."""
    kept = sheet.get("stats")
    return stat_values(definition, kept if isinstance(kept, Mapping) else {})


def read_roll(
    definition: Definition, text: str, stats: Mapping[str, int] | None = None
) -> dict[str, int]:
    """The inputs ``text`` gives in the game's short form (``+2``, ``45 bonus``), or
    a player's stat with the words after it (``cool``, ``spot_hidden bonus``): the
    stat's value from ``stats`` (the roller's; its default without them).

    The short form is tried first; text it doesn't read that is dice notation with a
    die in it (``2d6``, ``d20 adv``) is other dice, anything else a mistyped roll.

    Raises:
        Malformed: ``text`` is dice notation, for the ordinary dice roll.
        Mistyped: ``text`` is neither: the game's reason it can't be read.
    """
    try:
        by_stat = parse_stat_roll(definition, text, stats or {})
        if by_stat is not None:
            return by_stat
        return parse_args(definition, text)
    except Malformed as mistyped:
        if _is_dice(text):
            raise
        raise Mistyped(mistyped.message_id, **mistyped.values) from None


def _is_dice(text: str) -> bool:
    try:
        expression = dice.parse(text)
    except Malformed:
        return False
    return bool(dice.dice_terms(expression.node))


KNOWN_ODDS = 256
"""How many dear odds (worked out elsewhere, handed in with :func:`remember_odds`) are kept."""
_known: OrderedDict[tuple[Definition, tuple[tuple[str, int], ...]], SystemOdds] = OrderedDict()


def _odds_key(
    definition: Definition, inputs: Mapping[str, int]
) -> tuple[Definition, tuple[tuple[str, int], ...]]:
    return definition, tuple(sorted(inputs_for(definition, inputs).items()))


def needs_odds(definition: Definition, inputs: Mapping[str, int]) -> bool:
    """Whether a roll with ``inputs`` shows its chance only if its odds are worked out
    first, elsewhere (too dear to work out with the roll, and not handed in yet)."""
    dear = estimate(definition, inputs) > LIGHT_STEPS
    return dear and _odds_key(definition, inputs) not in _known


def remember_odds(definition: Definition, result: SystemOdds) -> None:
    """Keep odds worked out elsewhere (the heavy pool) for the rolls that follow: a pure
    function's result, so keeping it changes no answer, only when it is at hand."""
    key = _odds_key(definition, dict(result.inputs))
    _known[key] = result
    _known.move_to_end(key)
    while len(_known) > KNOWN_ODDS:
        _known.popitem(last=False)


def light_odds(definition: Definition, inputs: Mapping[str, int]) -> SystemOdds | None:
    """The exact odds when they are cheap to work out (see :data:`LIGHT_STEPS`) or were
    handed in (:func:`remember_odds`), else None."""
    known = _known.get(_odds_key(definition, inputs))
    if known is not None:
        return known
    if estimate(definition, inputs) > LIGHT_STEPS:
        return None
    return odds(definition, inputs)


def system_odds(definition: Definition, inputs: Mapping[str, int]) -> SystemOdds:
    """The odds of a roll with ``inputs`` (a picklable job for the heavy pool).

    Raises:
        Malformed: the odds are too large to work out.
    """
    return odds(definition, inputs)


@dataclass(frozen=True)
class RolledPanel:
    """A roll of a library game as it fell (see the module for its stored form)."""

    by: int
    system: Words
    inputs: tuple[tuple[str, int, Words, bool], ...]  # key, value, name, shown signed
    groups: tuple[tuple[str, str, tuple[tuple[tuple[int, ...], bool], ...]], ...]
    value: int
    outcome_key: str
    outcome: Words
    marks: tuple[Words, ...]
    chance: Fraction | None
    shows_value: bool = True  # the number read means something beside the outcome
    rolled: bool = True  # False: being set up with buttons (then every input is listed)
    ranges: tuple[tuple[int, int], ...] = ()  # while set up: each input's least and most
    values: tuple[tuple[str, int], ...] = ()  # every input, as rolled
    made: tuple[tuple[str, int], ...] = ()  # each follow-up made, and how often
    offers: tuple[Offer, ...] = ()  # the follow-ups open now
    lines: tuple[RollLine, ...] = ()  # each roll made, once a follow-up was
    addends: tuple[int, ...] | None = None  # what the value adds up, when it is a sum

    def to_dict(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "system": _words(self.system),
            "inputs": [[k, v, _words(w), signed] for k, v, w, signed in self.inputs],
            "groups": [
                [k, n, [[list(faces), kept] for faces, kept in dice]] for k, n, dice in self.groups
            ],
            "value": self.value,
            "outcome": {"key": self.outcome_key, **_words(self.outcome)},
            "marks": [_words(m) for m in self.marks],
            "chance": None
            if self.chance is None
            else [self.chance.numerator, self.chance.denominator],
            "shows_value": self.shows_value,
            "rolled": self.rolled,
            "ranges": [list(r) for r in self.ranges],
            "values": [list(v) for v in self.values],
            "made": [list(m) for m in self.made],
            "offers": [o.to_dict() for o in self.offers],
            "lines": [line.to_dict() for line in self.lines],
            "addends": None if self.addends is None else list(self.addends),
        }

    @classmethod
    def from_dict(cls, data: Json) -> RolledPanel:
        try:
            chance = data.get("chance")
            return cls(
                by=int(data["by"]),
                system=_read_words(data["system"]),
                inputs=tuple(
                    (str(k), int(v), _read_words(w), bool(signed))
                    for k, v, w, signed in data["inputs"]
                ),
                groups=tuple(
                    (
                        str(k),
                        str(n),
                        tuple((tuple(int(f) for f in faces), bool(kept)) for faces, kept in dice),
                    )
                    for k, n, dice in data["groups"]
                ),
                value=int(data["value"]),
                outcome_key=str(data["outcome"]["key"]),
                outcome=_read_words(data["outcome"]),
                marks=tuple(_read_words(m) for m in data["marks"]),
                chance=None if chance is None else Fraction(int(chance[0]), int(chance[1])),
                shows_value=bool(data.get("shows_value", True)),
                rolled=bool(data.get("rolled", True)),
                ranges=tuple((int(low), int(high)) for low, high in data.get("ranges", ())),
                values=tuple((str(k), int(v)) for k, v in data.get("values", ())),
                made=tuple((str(k), int(n)) for k, n in data.get("made", ())),
                offers=tuple(Offer.from_dict(o) for o in data.get("offers", ())),
                lines=tuple(RollLine.from_dict(line) for line in data.get("lines", ())),
                addends=_addends(data.get("addends")),
            )
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            raise Malformed(DAMAGED) from None


def shown_input(definition: Definition, key: str, value: int) -> bool:
    """Whether a roll names an input: a number (bare or after its prefix, ``dc15``)
    always, a word's only when it changes something (no bonus die is not worth a
    mention)."""
    field = definition.input(key)
    return field.positional or bool(field.prefixes) or value != field.default


def shows_value(definition: Definition) -> bool:
    """Whether the number a roll reads means something beside its outcome: not when
    every band between the first and the last is one number (degrees 4, 3, 2, 1 say
    nothing the label doesn't)."""
    inner = definition.outcomes[1:-1]
    return not inner or any(band.low != band.high for band in inner)


class RollAction(Enum):
    """What a roll being set up with buttons offers its roller."""

    SET = "set"  # argument ``key.value``: an input's new value
    ROLL = "roll"
    FOLLOW = "follow"  # argument: the follow-up's key (a push, a reroll), once rolled


WIDE = 20
"""An input whose range is this wide or wider also steps by ten (a skill of 1 to 99)."""


def choices(panel: RolledPanel) -> tuple[Choice[RollAction], ...]:
    """What the roller may do now: step each input within its range, then roll.

    Each ``SET`` choice names its input (``name``) and its step (``count``); a rolled
    panel offers its roller the follow-ups open on its result (``FOLLOW``, named by
    their key), optional: play never waits on them.
    """
    by = frozenset({panel.by})
    if panel.rolled:
        return tuple(Choice(RollAction.FOLLOW, o.key, by, name=o.key) for o in panel.offers)
    found: list[Choice[RollAction]] = []
    for (key, value, _, _), (low, high) in zip(panel.inputs, panel.ranges, strict=True):
        steps = (-10, -1, 1, 10) if high - low >= WIDE else (-1, 1)
        found += [
            Choice(RollAction.SET, f"{key}.{value + step}", by, name=key, count=step)
            for step in steps
            if low <= value + step <= high
        ]
    return (*found, Choice(RollAction.ROLL, by=by))


def rolled_by(state: Json) -> int:
    """Who rolled (each player's roll is their own)."""
    return int(state.get("by", 0))


class DiceRollPanel:
    """The ``dice.roll`` panel: a roll in the game's short form, rolled as it opens."""

    kind = ROLL_PANEL

    def read(self, state: Json) -> RolledPanel:
        return RolledPanel.from_dict(state)

    def waiting(self, table: Table, state: RolledPanel | Json) -> Waiting:
        """A roll set up by taps waits on its roller until it is rolled; a follow-up on
        the result is theirs to make or leave."""
        return waiting(choices(current(self, state)), optional=(RollAction.FOLLOW,))

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        """Roll ``argument`` (``+2``, ``45 bonus``) for ``actor``.

        Raises:
            Malformed: the text is dice notation (``/roll`` rolls ordinary dice).
            Mistyped: the text is neither (the reason, in the definition's words).
        """
        definition = definition_of(table.state)
        if not argument.strip():  # set up with buttons, then rolled
            return self._setup(definition, actor, definition.defaults())
        seat = table.seat(actor)
        stats = player_stats(definition, seat.sheet if seat is not None else {})
        inputs = read_roll(definition, argument, stats)
        return self._rolled(definition, actor, inputs, rng, stat_of(definition, argument))

    def _setup(self, definition: Definition, actor: int, inputs: Mapping[str, int]) -> Outcome:
        panel = RolledPanel(
            by=actor,
            system=definition.name,
            inputs=tuple((f.key, inputs[f.key], f.name, f.low < 0) for f in definition.inputs),
            groups=(),
            value=0,
            outcome_key="",
            outcome=Words("", ""),
            marks=(),
            chance=None,
            rolled=False,
            ranges=tuple((f.low, f.high) for f in definition.inputs),
        )
        return Outcome(state=panel.to_dict(), model=panel)

    def _rolled(
        self,
        definition: Definition,
        actor: int,
        inputs: Mapping[str, int],
        rng: Rng,
        stat: Stat | None = None,
    ) -> Outcome:
        """The roll with ``inputs``; a roll of a player's ``stat`` names its input by the
        stat's name (Hard +3, not stat +3)."""
        result = roll(definition, inputs, rng)
        found = light_odds(definition, inputs)

        def name(key: str) -> Words:
            if stat is not None and stat.feeds == key:
                return stat.name
            return definition.input(key).name

        shown = tuple(
            (key, value, name(key), definition.input(key).low < 0)
            for key, value in result.inputs
            if shown_input(definition, key, value) or (stat is not None and stat.feeds == key)
        )
        chance = None if found is None else found.chance(result.outcome.key)
        return self._standing(definition, actor, result, chance, shown)

    def _standing(
        self,
        definition: Definition,
        actor: int,
        result: SystemRoll,
        chance: Fraction | None,
        shown: tuple[tuple[str, int, Words, bool], ...],
        made: tuple[tuple[str, int], ...] = (),
        lines: tuple[RollLine, ...] = (),
    ) -> Outcome:
        """The panel showing ``result`` as the roll that stands (its inputs ``shown`` as
        named when it was rolled), open while a follow-up is offered on it."""
        offers = tuple(
            Offer(key, definition.followup(key).label, _offer_odds(definition, result, key))
            for key in offered(definition, result, dict(made))
        )
        rolled = RolledPanel(
            by=actor,
            system=definition.name,
            inputs=shown,
            groups=tuple((g.key, g.notation, g.dice) for g in result.groups),
            value=result.value,
            outcome_key=result.outcome.key,
            outcome=result.outcome.label,
            marks=tuple(m.label for m in result.marks),
            chance=chance,
            shows_value=shows_value(definition),
            values=result.inputs,
            made=made,
            offers=offers,
            lines=lines,
            addends=addends(definition, result),
        )
        return Outcome(state=rolled.to_dict(), closed=not offers, model=rolled)

    def _follow(self, definition: Definition, panel: RolledPanel, key: str, rng: Rng) -> Outcome:
        """Make the follow-up ``key`` on the roll that stands."""
        offer = next((o for o in panel.offers if o.key == key), None)
        if offer is None or not panel.values:
            raise NotAllowedNow(NO_FOLLOWUP)
        before = _as_roll(definition, panel)
        new, stands = follow_up(definition, before, key, rng)
        # the chance the follow-up left this outcome standing, given what was rolled
        chance = dict(offer.odds or ()).get(stands.outcome.label)
        line = RollLine(
            offer.label,
            tuple((g.key, g.notation, g.dice) for g in new.groups),
            new.value,
            new.outcome.label,
            chance if stands is new else None,
            addends(definition, new),
        )
        first = RollLine(
            None, panel.groups, panel.value, panel.outcome, panel.chance, panel.addends
        )
        made = dict(panel.made)
        made[key] = made.get(key, 0) + 1
        return self._standing(
            definition,
            panel.by,
            stands,
            chance,
            panel.inputs,
            tuple(made.items()),
            (*(panel.lines or (first,)), line),
        )

    def act(
        self,
        table: Table,
        state: RolledPanel | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        panel = current(self, state)
        if panel.rolled and action != RollAction.FOLLOW.value:
            raise NotAllowedNow(ROLLED)
        if actor != panel.by:
            raise NotYourTurn(NOT_YOURS)
        try:
            verb = RollAction(action)
        except ValueError:
            raise Malformed(NO_SUCH_STEP) from None
        definition = definition_of(table.state)
        if verb is RollAction.FOLLOW:
            return self._follow(definition, panel, argument, rng)
        inputs = {key: value for key, value, _, _ in panel.inputs}
        if verb is RollAction.ROLL:
            return self._rolled(definition, actor, inputs, rng)
        if not any(c.verb is verb and c.argument == argument for c in choices(panel)):
            raise NotAllowedNow(NO_SUCH_STEP)
        key, value = argument.split(".", 1)
        inputs[key] = int(value)
        stepped = replace(
            panel, inputs=tuple((k, inputs[k], w, signed) for k, _, w, signed in panel.inputs)
        )
        return Outcome(state=stepped.to_dict(), model=stepped)


def _as_roll(definition: Definition, panel: RolledPanel) -> SystemRoll:
    """The roll that stands on ``panel``, as the rules read it."""
    return SystemRoll(
        definition.key,
        panel.values,
        tuple(GroupRoll(k, n, dice) for k, n, dice in panel.groups),
        panel.value,
        definition.outcome_of(panel.value),
        tuple(m for m in definition.marks if m.label in panel.marks),
    )


def _offer_odds(
    definition: Definition, result: SystemRoll, key: str
) -> tuple[tuple[Words, Fraction], ...] | None:
    """What the follow-up ``key`` may leave standing after ``result``, best first, each
    with its exact chance; None when too dear to work out with the roll. A reroll whose
    name nothing reads has the roll's own odds (which the heavy pool may have handed in)."""
    followup = definition.followup(key)
    found: SystemOdds | None
    try:
        if followup.group is None and not _reads_name(definition, key):
            found = light_odds(definition, dict(result.inputs))
            if found is not None and followup.better:
                found = better_of(definition, found, result.value)
        else:
            found = followup_odds(definition, result, key, LIGHT_STEPS)
    except Malformed:
        return None
    if found is None:
        return None
    return tuple((row.outcome.label, row.chance) for row in found.outcomes if row.chance)


def _reads_name(definition: Definition, name: str) -> bool:
    expressions = (definition.value, *(e for _, e in definition.lets))
    return any(name in e.names for e in (*expressions, *(m.when for m in definition.marks)))


class DiceCampaign(CampaignRules):
    """A library game's campaign: it keeps the definition it plays."""

    def __init__(self, key: str, text: str, version: int, *, own: bool = False) -> None:
        self.key, self.text, self.version, self.own = key, text, version, own

    def new_state(self) -> Json:
        played: dict[str, Any] = {"key": self.key, "version": self.version, "text": self.text}
        if self.own:
            played["own"] = True
        return {"v": STATE_VERSION, "system": played}

    def check_state(self, state: Json) -> None:
        try:
            definition_of(state)
        except Malformed:
            raise Malformed(DAMAGED) from None

    def edit(self, table: Table, actor: int, action: str, payload: Json, rng: Rng) -> Outcome:
        """``stat.set`` ``{"stat": KEY, "value": N}``: a player sets one of their own
        stats, within the range of the input it feeds.

        Raises:
            Malformed: another edit, no such stat, or a value out of its range.
            NotAllowedNow: the actor has no seat at this table.
        """
        if action != STAT_SET:
            raise Malformed(NOT_AN_EDIT)
        seat = table.seat(actor)
        if seat is None:
            raise NotAllowedNow(NOT_SEATED)
        definition = definition_of(table.state)
        key, value = payload.get("stat"), payload.get("value")
        stat = definition.stat(key) if isinstance(key, str) else None
        if stat is None:
            raise Malformed(NO_SUCH_STAT, name=str(key)[:32])
        fed = definition.input(stat.feeds)
        number = isinstance(value, int) and not isinstance(value, bool)
        if not number or not fed.low <= value <= fed.high:  # type: ignore[operator]
            raise Malformed(OUT_OF_RANGE, text=str(value)[:12], low=fed.low, high=fed.high)
        stats = {**player_stats(definition, seat.sheet), stat.key: value}
        return Outcome(state=table.state, sheets={actor: {**seat.sheet, "stats": stats}})


NOT_BY_ITS_KEY = N_("Start a game of this group's own system by its key: /system lists them.")


class OwnCampaign(DiceCampaign):
    """A group's own system's campaign: named as the text it plays says."""

    def new_state(self) -> Json:
        """Raises:
        Malformed: no own system is named (the registry's entry itself, typed).
        """
        if not self.text:
            raise Malformed(NOT_BY_ITS_KEY)
        return super().new_state()

    def shown_system(self, system: GameSystem, state: Json, language: str) -> GameSystem:
        try:
            definition = definition_of(state)
        except Malformed:
            return system
        name, about = definition.name, definition.about
        return replace(
            system,
            name=name.ru if language == "ru" else name.en,
            summary=about.ru if language == "ru" else about.en,
        )


@dataclass(frozen=True)
class Played:
    """Which system and version a campaign plays, from its state."""

    key: str
    version: int
    own: bool


def played(state: Json) -> Played:
    """The system and version a campaign's state plays.

    Raises:
        Malformed: the state keeps no system.
    """
    stored = state.get("system")
    if not isinstance(stored, Mapping):
        raise Malformed(DAMAGED)
    try:
        return Played(str(stored["key"]), int(stored["version"]), bool(stored.get("own")))
    except (KeyError, TypeError, ValueError):
        raise Malformed(DAMAGED) from None


def moved_on(state: Json, text: str, version: int) -> Json:
    """The campaign state playing ``version`` (its ``text``) of the same system."""
    stored = dict(state["system"])
    stored.update(version=version, text=text)
    return {**state, "system": stored}


OWN_GAME = N_("This group's own game system “{key}”, version {version}.")


def status_lines(table: Table) -> tuple[str, ...]:
    """/status names the own system and the version a game plays."""
    try:
        found = played(table.state)
    except Malformed:
        return ()
    return (Said(OWN_GAME, key=found.key, version=found.version),) if found.own else ()


def history(table: Table, outcome: Outcome) -> tuple[HistoryRoll, ...]:
    """A rolled roll, for the chat's roll history: the system's name, the version it
    plays, the inputs, the outcome and its chance (when worked out)."""
    rolled = outcome.model
    if not isinstance(rolled, RolledPanel) or not rolled.rolled:
        return ()
    try:
        found = played(table.state)
    except Malformed:
        return ()
    inputs = [[_words(name), value, signed] for _, value, name, signed in rolled.inputs]
    system = {
        "key": found.key,
        "version": found.version,
        "own": found.own,
        "name": _words(rolled.system),
        "inputs": inputs,
        "value": rolled.value if rolled.shows_value else None,
        "outcome": _words(rolled.outcome),
        "marks": [_words(m) for m in rolled.marks],
        "chance": None
        if rolled.chance is None
        else [rolled.chance.numerator, rolled.chance.denominator],
    }
    notation = ", ".join(
        f"{name.en} {value:+d}" if signed else f"{name.en} {value}"
        for _, value, name, signed in rolled.inputs
    )
    faces = tuple(tuple((sum(die), kept) for die, kept in dice) for _, _, dice in rolled.groups)
    return (HistoryRoll(rolled.by, notation, rolled.value, faces, system),)


UNDO = UndoRules(panel_names={ROLL_PANEL: N_("a roll")}, edit_names={STAT_SET: N_("a stat set")})


def game_system(definition: Definition) -> GameSystem:
    """The game system of a library ``definition``: its campaign keeps the text."""
    return GameSystem(
        key=definition.key,
        name=definition.name.en,
        summary=definition.about.en,
        campaign=DiceCampaign(definition.key, library_text(definition.key), definition.version),
        panels={ROLL_PANEL: DiceRollPanel()},
        rolled_by={ROLL_PANEL: rolled_by},
        roll_panel=ROLL_PANEL,
        undo=UNDO,
        history=history,
        edges=Edges(features=("tgbot.features.dicesystem",), sheet="webapp.sheets.dicesystem"),
    )


OWN = "own"
"""The registry key every game of a group's own system is played under."""

OWN_SYSTEM = GameSystem(
    key=OWN,
    name=N_("A group's own game system"),
    summary=N_("A game system this group wrote with /system."),
    campaign=OwnCampaign("", "", 0, own=True),
    panels={ROLL_PANEL: DiceRollPanel()},
    rolled_by={ROLL_PANEL: rolled_by},
    roll_panel=ROLL_PANEL,
    undo=UNDO,
    history=history,
    status_lines=status_lines,
    edges=Edges(features=("tgbot.features.dicesystem",), sheet="webapp.sheets.dicesystem"),
)
"""A game of a group's own system, as the registry knows it: the rules it plays are in
the campaign's state (:func:`own_game` starts one)."""


def own_game(key: str, text: str, version: int) -> GameSystem:
    """The game system a new game of the group's own system ``key`` starts with: its
    campaign keeps ``text``, at ``version``, from then on.

    Raises:
        Malformed: the text no longer reads as a definition.
    """
    definition = _read_text(text)
    return replace(
        OWN_SYSTEM,
        name=definition.name.en,
        summary=definition.about.en,
        campaign=OwnCampaign(key, text, version, own=True),
    )
