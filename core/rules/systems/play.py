"""Rolling a system and its exact odds: ``roll(definition, inputs, rng)`` and
``odds(definition, inputs)``, and the short form players type (``/roll +2``).

A roll rolls each group's dice with the one dice engine (:func:`core.rules.dice.roll`)
and reads them with the definition; the odds read every way the dice can fall, exactly
(:mod:`core.rules.systems.exact`), within the engine's step budget.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from core.rules.dice import Dice, DiceRoll, kept_indexes, parse
from core.rules.dice import roll as roll_dice
from core.rules.errors import Malformed
from core.rules.rng import Rng
from core.rules.systems.definition import (
    Definition,
    Mark,
    OutcomeBand,
    Stat,
    group_dice,
    input_corners,
    read_definition,
)
from core.rules.systems.exact import (
    STEP_BUDGET,
    TOO_LARGE,
    Budget,
    Distribution,
    GroupDice,
    estimate_group,
    group_distribution,
)
from core.rules.systems.reading import Feature

UNKNOWN_WORD = "I couldn't read “{text}” for this game. It takes {takes}."
OUT_OF_RANGE = "“{text}” is out of range here: from {low} to {high}."
GIVEN_TWICE = "“{text}” sets a value that is already given."
TOO_MANY_NUMBERS = "“{text}” is one number too many. This game takes {takes}."
NEEDS_VALUE = "“{text}” needs a number right after it, as in {example}."
CANT_READ = "This roll can't be read for those inputs: its reading divides by zero."

TOO_LARGE_DEFINITION = (
    "“{field}”: at {inputs} the odds would take more than {limit} steps of work: "
    "narrow the inputs' ranges."
)

_NUMBER = re.compile(r"^[+\-−]?\d{1,6}$")


@dataclass(frozen=True)
class GroupRoll:
    """One group's dice as they fell: each die's faces (as shown), kept or not."""

    key: str
    notation: str
    dice: tuple[tuple[tuple[int, ...], bool], ...]


@dataclass(frozen=True)
class SystemRoll:
    """A system's roll: the inputs, the dice, the number read and its outcome."""

    system: str
    inputs: tuple[tuple[str, int], ...]
    groups: tuple[GroupRoll, ...]
    value: int
    outcome: OutcomeBand
    marks: tuple[Mark, ...]


@dataclass(frozen=True)
class OutcomeChance:
    outcome: OutcomeBand
    chance: Fraction


@dataclass(frozen=True)
class MarkChance:
    mark: Mark
    chance: Fraction


@dataclass(frozen=True)
class SystemOdds:
    """Every outcome, best first, with its exact chance (and each mark's)."""

    system: str
    inputs: tuple[tuple[str, int], ...]
    outcomes: tuple[OutcomeChance, ...]
    marks: tuple[MarkChance, ...]
    steps: int

    def chance(self, key: str) -> Fraction:
        return next(o.chance for o in self.outcomes if o.outcome.key == key)


def inputs_for(definition: Definition, given: Mapping[str, int] | None = None) -> dict[str, int]:
    """The inputs with their defaults filled in, each checked against its range.

    Raises:
        Malformed: an unknown input, or a value out of its range.
    """
    values = definition.defaults()
    for key, value in (given or {}).items():
        if key not in values:
            raise Malformed(UNKNOWN_WORD, text=key, takes=_takes(definition))
        field = definition.input(key)
        if not field.low <= value <= field.high:
            raise Malformed(OUT_OF_RANGE, text=str(value), low=field.low, high=field.high)
        values[key] = value
    return values


def _takes(definition: Definition) -> str:
    """What the short form takes, as it is typed (in any language): ``-3..4``,
    ``dc1..40``, ``adv/dis/преим/помеха``."""
    parts = []
    for field in definition.inputs:
        typed = [f"{p}{field.low}..{field.high}" for p in field.prefixes[:2]]
        typed += [w for w, _ in field.words]
        parts.append("/".join(typed[:6]) if typed else f"{field.low}..{field.high}")
    return ", ".join(parts) or "–"


def parse_args(definition: Definition, text: str) -> dict[str, int]:
    """The inputs a player typed in the short form (``+2``, ``2``, ``45 bonus``,
    ``+3 dc15 adv``), with the defaults for the rest, in any language's words.

    Raises:
        Malformed: a word this system doesn't take, a value out of range, a value twice.
    """
    return inputs_for(definition, _given(definition, text))


def stat_values(definition: Definition, kept: Mapping[str, object]) -> dict[str, int]:
    """Each of the definition's stats as a player keeps them (``kept``, by key), its
    default where a value is missing or no longer fits the input it feeds."""
    values = {}
    for stat in definition.stats:
        value = kept.get(stat.key)
        fed = definition.input(stat.feeds)
        if isinstance(value, bool) or not isinstance(value, int):
            value = stat.default
        values[stat.key] = value if fed.low <= value <= fed.high else stat.default
    return values


def stat_of(definition: Definition, text: str) -> Stat | None:
    """The stat ``text`` starts with (its key, or its one-word name in either language),
    or None."""
    first = text.lower().split(maxsplit=1)[0] if text.strip() else ""
    for stat in definition.stats:
        if first in (stat.key, stat.name.en.lower(), stat.name.ru.lower()):
            return stat
    return None


def parse_stat_roll(
    definition: Definition, text: str, stats: Mapping[str, int]
) -> dict[str, int] | None:
    """The inputs of a roll of a player's stat (``cool``, ``iron +1``, ``spot_hidden
    bonus``): the stat's value (from ``stats``, the player's, by key) feeds its input,
    plus a number the words after it give that input (a bonus, Ironsworn's adds); those
    words set the other inputs as usual. None when ``text`` doesn't start with a stat.

    Raises:
        Malformed: the words after the stat don't fit, or the sum is out of range.
    """
    stat = stat_of(definition, text)
    if stat is None:
        return None
    parts = text.split(maxsplit=1)
    rest = parts[1] if len(parts) > 1 else ""
    given = _given(definition, rest)
    given[stat.feeds] = stats.get(stat.key, stat.default) + given.get(stat.feeds, 0)
    return inputs_for(definition, given)


def _given(definition: Definition, text: str) -> dict[str, int]:
    """The inputs ``text`` sets, by key (the rest left out)."""
    given: dict[str, int] = {}
    tokens = text.lower().replace("−", "-").split()
    positional = [i for i in definition.inputs if i.positional]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        found = _word(definition, token)
        if found is None:
            found = _prefixed(definition, token, tokens[index] if index < len(tokens) else None)
            if found is not None and found[2]:
                index += 1
        if found is not None:
            key, value = found[0], found[1]
        elif _NUMBER.match(token):
            free = [i for i in positional if i.key not in given]
            if not free:
                raise Malformed(TOO_MANY_NUMBERS, text=token, takes=_takes(definition))
            key, value = free[0].key, int(token)
        else:
            raise Malformed(UNKNOWN_WORD, text=token, takes=_takes(definition))
        if key in given:
            raise Malformed(GIVEN_TWICE, text=token)
        field = definition.input(key)
        if not field.low <= value <= field.high:
            raise Malformed(OUT_OF_RANGE, text=token, low=field.low, high=field.high)
        given[key] = value
    return given


def _word(definition: Definition, token: str) -> tuple[str, int, bool] | None:
    for field in definition.inputs:
        for word, value in field.words:
            if token == word:
                return field.key, value, False
    return None


def _prefixed(
    definition: Definition, token: str, following: str | None
) -> tuple[str, int, bool] | None:
    for field in definition.inputs:
        for prefix in field.prefixes:
            if token == prefix:
                if following is None or not _NUMBER.match(following):
                    raise Malformed(
                        NEEDS_VALUE,
                        text=token,
                        example=f"{prefix}{max(field.low, min(field.high, 15))}",
                    )
                return field.key, int(following), True
            rest = token[len(prefix) :]
            if token.startswith(prefix) and _NUMBER.match(rest):
                return field.key, int(rest), False
    return None


def _shapes(definition: Definition, values: Mapping[str, int]) -> list[GroupDice]:
    shapes = []
    for group in definition.groups:
        _, dice, _ = group_dice(group, values)
        shapes.append(GroupDice(group.key, dice, group.faces, group.depth))
    return shapes


def _evaluate(definition: Definition, values: dict[str, int]) -> tuple[int, tuple[Mark, ...]]:
    try:
        for key, expression in definition.lets:
            values[key] = expression.evaluate(values)
        value = definition.value.evaluate(values)
        marks = tuple(m for m in definition.marks if m.when.evaluate(values))
    except ArithmeticError:
        raise Malformed(CANT_READ) from None
    return value, marks


def roll(definition: Definition, inputs: Mapping[str, int], rng: Rng) -> SystemRoll:
    """Roll ``definition`` with ``inputs`` (defaults for the rest) and read the result.

    Raises:
        Malformed: an input out of its range.
    """
    values = inputs_for(definition, inputs)
    known: dict[str, int] = dict(values)
    groups = []
    features = definition.features()
    for group in definition.groups:
        _, dice, notation = group_dice(group, values)
        shown: list[tuple[tuple[int, ...], bool]] = []
        if dice is not None:
            part = roll_dice(parse(notation), rng).outcomes[0].parts[0]
            assert isinstance(part, DiceRoll)
            for die in part.rolled:
                faces = tuple(
                    f.value if group.faces is None else group.faces[f.value - 1] for f in die.faces
                )  # fmt: skip
                shown.append((faces, die.kept))
            if group.depth is not None:
                shown = _within_depth(shown, dice, group.depth)
        groups.append(GroupRoll(group.key, notation, tuple(shown)))
        for feature in features[group.key]:
            known[feature.name] = _read(feature, shown)
    value, marks = _evaluate(definition, known)
    return SystemRoll(
        definition.key, tuple(values.items()), tuple(groups), value,
        definition.outcome_of(value), marks,
    )  # fmt: skip


def _within_depth(
    shown: list[tuple[tuple[int, ...], bool]], dice: Dice, depth: int
) -> list[tuple[tuple[int, ...], bool]]:
    """The dice as they fall when explosions stop ``depth`` deep: each die's first
    ``depth + 1`` faces (the faces after them were never rolled), kept again by their
    sums as the engine keeps them."""
    faces = [f[: depth + 1] for f, _ in shown]
    if not dice.keep:
        return [(f, kept) for f, (_, kept) in zip(faces, shown, strict=True)]
    kept = kept_indexes([sum(f) for f in faces], dice.keep, dice.keep_n)
    return [(f, i in kept) for i, f in enumerate(faces)]


def _read(feature: Feature, dice: list[tuple[tuple[int, ...], bool]]) -> int:
    """What ``feature`` reads from the dice as they fell (as the odds read it)."""
    if feature.kind == "count":
        assert feature.compare is not None
        return sum(1 for faces, _ in dice for f in faces if feature.compare.test(f))
    if feature.kind == "total":
        return sum(sum(faces) for faces, kept in dice if kept)
    sums = [sum(faces) for faces, _ in dice]
    if feature.compare is not None:
        sums = [s for s in sums if feature.compare.test(s)]
    if not sums:
        return 0
    return max(sums) if feature.kind == "high" else min(sums)


def estimate(definition: Definition, inputs: Mapping[str, int]) -> int:
    """An upper bound of the steps :func:`odds` takes for ``inputs``, from shapes alone."""
    values = inputs_for(definition, inputs)
    features = definition.features()
    steps, combos = 0, 1
    for shape in _shapes(definition, values):
        cost, size = estimate_group(shape, features[shape.key], STEP_BUDGET)
        steps += cost
        combos *= size
        if steps > STEP_BUDGET:
            return steps
    return steps + combos * _reads(definition)


def read_system(text: str) -> Definition:
    """A definition from its text, checked, and refused if its largest inputs (every
    input at its least, default or greatest, in every combination) would take more
    work than exact odds are allowed.

    Raises:
        Malformed: the text isn't a valid definition, or is too large for exact odds.
    """
    definition = read_definition(text)
    check_budget(definition)
    return definition


def check_budget(definition: Definition) -> None:
    """Refuse ``definition`` if some corner of its inputs is too large for exact odds."""
    for values in input_corners(definition):
        if estimate(definition, values) > STEP_BUDGET:
            shown = ", ".join(f"{k} {v}" for k, v in values.items())
            raise Malformed(TOO_LARGE_DEFINITION, field="inputs", inputs=shown, limit=STEP_BUDGET)


def _reads(definition: Definition) -> int:
    return 1 + len(definition.lets) + len(definition.marks)


def odds(
    definition: Definition, inputs: Mapping[str, int], budget: int = STEP_BUDGET
) -> SystemOdds:
    """Every outcome of ``definition`` with ``inputs``, best first, with its exact chance.

    Raises:
        Malformed: an input out of range, or too much work for exact odds (decided
            before any of it, from the dice's shapes).
    """
    values = inputs_for(definition, inputs)
    if estimate(definition, values) > budget:
        raise Malformed(TOO_LARGE, limit=budget)
    spent = Budget(budget)
    features = definition.features()
    parts = []
    for shape in _shapes(definition, values):
        parts.append(group_distribution(shape, features[shape.key], spent))
    denominator = 1
    for _, dist in parts:
        denominator *= dist.total
    spent.spend(_reads(definition) * _size(parts))
    by_outcome, by_mark = _tally(definition, values, parts)
    return SystemOdds(
        definition.key,
        tuple(values.items()),
        tuple(
            OutcomeChance(b, Fraction(by_outcome[b.key], denominator)) for b in definition.outcomes
        ),
        tuple(MarkChance(m, Fraction(by_mark[m.key], denominator)) for m in definition.marks),
        spent.used,
    )


def _tally(
    definition: Definition,
    values: Mapping[str, int],
    parts: list[tuple[tuple[Feature, ...], Distribution]],
) -> tuple[dict[str, int], dict[str, int]]:
    """The weight of each outcome and mark, over every combination the groups can show."""
    by_outcome: dict[str, int] = defaultdict(int)
    by_mark: dict[str, int] = defaultdict(int)
    for combo in product(*(dist.weights.items() for _, dist in parts)):
        known = dict(values)
        weight = 1
        for (order, _), (key, w) in zip(parts, combo, strict=True):
            weight *= w
            for feature, number in zip(order, key, strict=True):
                known[feature.name] = number
        value, marks = _evaluate(definition, known)
        by_outcome[definition.outcome_of(value).key] += weight
        for mark in marks:
            by_mark[mark.key] += weight
    return by_outcome, by_mark


def _size(parts: list[tuple[tuple[Feature, ...], Distribution]]) -> int:
    size = 1
    for _, dist in parts:
        size *= len(dist.weights)
    return size
