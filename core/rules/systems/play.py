"""Rolling a system and its exact odds: ``roll(definition, inputs, rng)`` and
``odds(definition, inputs)``, and the short form players type (``/roll +2``).

A roll rolls each group's dice with the one dice engine (:func:`core.rules.dice.roll`)
and reads them with the definition; the odds read every way the dice can fall, exactly
(:mod:`core.rules.systems.exact`), within the engine's step budget.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product

from core.rules.dice import Dice, DiceRoll, kept_indexes, parse
from core.rules.dice import roll as roll_dice
from core.rules.errors import Malformed
from core.rules.rng import Rng
from core.rules.systems.definition import (
    Definition,
    Followup,
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
    continued_distribution,
    estimate_group,
    group_distribution,
)
from core.rules.systems.reading import Feature, sum_parts

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


def roll(
    definition: Definition, inputs: Mapping[str, int], rng: Rng, made: str | None = None
) -> SystemRoll:
    """Roll ``definition`` with ``inputs`` (defaults for the rest) and read the result.

    Args:
        made: the follow-up that rolls it again (its name reads 1), or None.

    Raises:
        Malformed: an input out of its range.
    """
    values = inputs_for(definition, inputs)
    groups = []
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
    return read_roll(definition, values, groups, made)


def read_roll(
    definition: Definition,
    inputs: Mapping[str, int],
    groups: Sequence[GroupRoll],
    made: str | None = None,
) -> SystemRoll:
    """The roll ``groups`` show, read with ``inputs`` (``made``: the follow-up that made it).

    Raises:
        Malformed: the reading divides by zero.
    """
    values = inputs_for(definition, inputs)
    known: dict[str, int] = {**values, **definition.made_by(made)}
    features = definition.features()
    for group in groups:
        shown = list(group.dice)
        for feature in features.get(group.key, ()):
            known[feature.name] = _read(feature, shown)
    value, marks = _evaluate(definition, known)
    return SystemRoll(
        definition.key, tuple(values.items()), tuple(groups), value,
        definition.outcome_of(value), marks,
    )  # fmt: skip


def rerolled(followup: Followup, group: GroupRoll) -> tuple[int, ...]:
    """Which dice of ``group`` a push of ``followup`` rolls again: those showing none of
    its ``stay`` faces."""
    return tuple(i for i, (faces, _) in enumerate(group.dice) if faces[0] not in followup.stay)


def offered(definition: Definition, result: SystemRoll, made: Mapping[str, int]) -> tuple[str, ...]:
    """The follow-ups the roller may make on ``result`` now: on its outcome, not made as
    often as they may be (``made``: how often each was), and a push with dice to reroll."""
    found = []
    for followup in definition.followups:
        if made.get(followup.key, 0) >= followup.times:
            continue
        if not followup.offered_on(result.outcome.key):
            continue
        if followup.group is not None:
            group = next(g for g in result.groups if g.key == followup.group)
            if not rerolled(followup, group):
                continue
        found.append(followup.key)
    return tuple(found)


def follow_up(
    definition: Definition, result: SystemRoll, key: str, rng: Rng
) -> tuple[SystemRoll, SystemRoll]:
    """Make the follow-up ``key`` on ``result``: the roll it rolled, and the one that
    stands (the same, unless a reroll keeps the better of the two).

    Raises:
        Malformed: the reading divides by zero.
    """
    followup = definition.followup(key)
    inputs = dict(result.inputs)
    if followup.group is None:
        new = roll(definition, inputs, rng, made=key)
        stands = new if not followup.better or new.value > result.value else result
        return new, stands
    groups = []
    for group in result.groups:
        if group.key == followup.group:
            again = rerolled(followup, group)
            die = group.notation[len(str(len(group.dice))) :]
            part = roll_dice(parse(f"{len(again)}{die}"), rng).outcomes[0].parts[0]
            assert isinstance(part, DiceRoll)
            fresh = iter(part.rolled)
            spec = next(g for g in definition.groups if g.key == group.key)
            dice = list(group.dice)
            for index in again:
                faces = tuple(
                    f.value if spec.faces is None else spec.faces[f.value - 1]
                    for f in next(fresh).faces
                )  # fmt: skip
                dice[index] = (faces, True)
            group = replace(group, dice=tuple(dice))
        groups.append(group)
    new = read_roll(definition, inputs, groups, made=key)
    return new, new


def better_of(definition: Definition, fresh: SystemOdds, value: int) -> SystemOdds:
    """The outcomes a reroll that keeps the better of the two leaves standing, after a
    roll that read ``value``, from the reroll's own odds ``fresh``: an outcome above the
    first's as often as the reroll reads it, the first's own as often as the reroll
    reads it or worse, none below. Higher values read better (the bands go best first).
    It gives no marks' chances: they follow whichever roll stands."""
    standing = definition.outcome_of(value)
    rows, below = [], Fraction(0)
    for row in reversed(fresh.outcomes):
        below += row.chance
        if row.outcome.key == standing.key:
            rows.append(OutcomeChance(row.outcome, below))
        elif row.outcome.low is not None and row.outcome.low > value:
            rows.append(row)
        else:
            rows.append(OutcomeChance(row.outcome, Fraction(0)))
    return replace(fresh, outcomes=tuple(reversed(rows)), marks=())


def followup_odds(
    definition: Definition, result: SystemRoll, key: str, budget: int = STEP_BUDGET
) -> SystemOdds:
    """The exact chance of each outcome the follow-up ``key`` leaves standing, given
    ``result``: a push reads the dice that stay with every way the rerolled ones fall;
    a reroll is the roll's own odds (keeping the better of the two: an outcome above
    ``result``'s as often as the new roll reads it, ``result``'s own as often as the new
    roll reads it or worse). A reroll that keeps the better gives no marks' chances.

    Raises:
        Malformed: too much work for exact odds.
    """
    followup = definition.followup(key)
    values = inputs_for(definition, dict(result.inputs))
    if followup.group is None:
        fresh = odds(definition, values, budget, made=key)
        return better_of(definition, fresh, result.value) if followup.better else fresh
    spent = Budget(budget)
    features = definition.features()
    parts = []
    for group, shape in zip(result.groups, _shapes(definition, values), strict=True):
        wanted = features[group.key]
        if group.key != followup.group:
            order = tuple(sorted(wanted, key=lambda f: f.name))
            number = tuple(_read(f, list(group.dice)) for f in order)
            parts.append((order, Distribution({number: 1}, 1)))
            continue
        again = set(rerolled(followup, group))
        stays = tuple(faces[0] for i, (faces, _) in enumerate(group.dice) if i not in again)
        assert shape.dice is not None
        fresh_dice = replace(shape.dice, count=len(again))
        parts.append(continued_distribution(replace(shape, dice=fresh_dice), wanted, stays, spent))
    denominator = 1
    for _, dist in parts:
        denominator *= dist.total
    spent.spend(_reads(definition) * _size(parts))
    by_outcome, by_mark = _tally(definition, {**values, **definition.made_by(key)}, parts)
    return SystemOdds(
        definition.key,
        tuple(values.items()),
        tuple(
            OutcomeChance(b, Fraction(by_outcome[b.key], denominator)) for b in definition.outcomes
        ),
        tuple(MarkChance(m, Fraction(by_mark[m.key], denominator)) for m in definition.marks),
        spent.used,
    )


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
    definition: Definition,
    inputs: Mapping[str, int],
    budget: int = STEP_BUDGET,
    made: str | None = None,
) -> SystemOdds:
    """Every outcome of ``definition`` with ``inputs``, best first, with its exact chance.

    Args:
        made: the follow-up that rolls it again (its name reads 1), or None.

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
    by_outcome, by_mark = _tally(definition, {**values, **definition.made_by(made)}, parts)
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


def addends(definition: Definition, result: SystemRoll) -> tuple[int, ...] | None:
    """The numbers ``result``'s value adds up, in order (``3, 5, 2`` for ``3 + 5 + 2 =
    10``): each face of each die a total reads, each input and number, signed; inputs
    at 0 left out. None unless the value is a plain sum of every group's dice that
    were rolled, none of them dropped (see :func:`core.rules.systems.reading.sum_parts`).
    """
    parts = sum_parts(definition.value.text, {k: e.text for k, e in definition.lets})
    if parts is None:
        return None
    summed = {which for _, kind, which in parts if kind == "dice"}
    groups = {g.key: g for g in result.groups}
    if any(g.dice and g.key not in summed for g in result.groups):
        return None
    values = dict(result.inputs)
    numbers: list[int] = []
    for sign, kind, which in parts:
        if kind == "dice":
            dice = groups[str(which)].dice
            if not all(kept for _, kept in dice):
                return None
            numbers += [sign * face for faces, _ in dice for face in faces]
        elif kind == "name":
            number = values.get(str(which), 0)
            if number:
                numbers.append(sign * number)
        elif which:
            numbers.append(sign * int(which))
    if not numbers or sum(numbers) != result.value:
        return None
    return tuple(numbers)
