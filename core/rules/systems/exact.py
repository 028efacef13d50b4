"""Exact distributions of what groups of dice show, as whole-number weights.

A group is one dice term of the grammar (:mod:`core.rules.dice`: its count, sides,
rerolls, mi/ma, explosions followed as deep as the roller follows them, keep) and,
where a system needs them, listed faces. What a reading asks of it (its total, its
highest and lowest die, how many faces meet a comparison) is computed jointly: a die
with the dice its explosion adds is one distribution over (its sum, its counts), and
the dice are folded one after another, carrying only the features asked for. Alike
dice kept highest or lowest and read by their total are counted by how many show each
value instead (:func:`kept_sum`), with work polynomial in the dice and the die's values.

Weights are integers over a common denominator, so every chance is an exact
:class:`~fractions.Fraction`. The work is counted in steps, as the engine counts them
(:data:`core.rules.dice_odds.STEP_BUDGET`), and bounded before it starts:
:func:`estimate_group` is never below the steps :func:`group_distribution` takes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm

from core.rules.dice import EXPLODE_DEPTH, Compare, Dice, face_bounds
from core.rules.dice_odds import STEP_BUDGET
from core.rules.errors import Malformed
from core.rules.systems.reading import Feature

__all__ = [
    "STEP_BUDGET",
    "Budget",
    "Distribution",
    "GroupDice",
    "continued_distribution",
    "group_distribution",
]

TOO_LARGE = (
    "Those inputs are too large for exact odds (at most {limit} steps of work). "
    "Try a smaller pool or range."
)

Key = tuple[int, ...]


@dataclass(frozen=True)
class Distribution:
    """Chances as whole-number weights over one denominator: ``weight / total``."""

    weights: dict[Key, int]
    total: int

    def chance(self, key: Key) -> Fraction:
        return Fraction(self.weights.get(key, 0), self.total)


class Budget:
    """Steps of work left; spending past the limit refuses the odds."""

    def __init__(self, limit: int = STEP_BUDGET) -> None:
        self.limit = limit
        self.used = 0

    def spend(self, steps: int) -> None:
        self.used += steps
        if self.used > self.limit:
            raise Malformed(TOO_LARGE, limit=self.limit)


@dataclass(frozen=True)
class GroupDice:
    """One group's dice for given inputs: a term of the grammar (``None``: no dice),
    and the listed faces its faces 1..n show, if any."""

    key: str
    dice: Dice | None
    faces: tuple[int, ...] | None = None
    depth: int | None = None  # explosions followed at most this deep (else the engine's)

    def shown(self, raw: int) -> int:
        """The value a face ``raw`` (as the grammar rolls it) shows."""
        return raw if self.faces is None else self.faces[raw - 1]


def _depth(group: GroupDice) -> int:
    dice = group.dice
    if dice is None or not dice.explode or dice.explode_on is None:
        return 0
    depth = 1 if dice.explode == "ra" else EXPLODE_DEPTH
    return depth if group.depth is None else min(depth, group.depth)


def face_chances(dice: Dice) -> dict[int, Fraction]:
    """One face after rerolls and mi/ma, exactly (as the roller draws it)."""
    faces = dice.faces
    base = {v: Fraction(1, len(faces)) for v in faces}
    dist = dict(base)
    on = dice.reroll_on
    if dice.reroll == "r" and on is not None:
        kept = [v for v in faces if not on.test(v)]
        dist = {v: Fraction(1, len(kept)) for v in kept}
    elif dice.reroll == "ro" and on is not None:
        moved = sum((q for v, q in dist.items() if on.test(v)), Fraction(0))
        dist = {v: q for v, q in dist.items() if not on.test(v)}
        for v, q in base.items():
            dist[v] = dist.get(v, Fraction(0)) + moved * q
    out: dict[int, Fraction] = defaultdict(Fraction)
    for v, q in dist.items():
        if dice.lowest is not None:
            v = max(v, dice.lowest)
        if dice.highest is not None:
            v = min(v, dice.highest)
        out[v] += q
    return dict(out)


def die_chances(
    group: GroupDice, counts: tuple[Compare, ...], budget: Budget, with_sum: bool = True
) -> dict[Key, Fraction]:
    """One die with the dice its explosion adds: (its sum, each count) -> chance
    (the sum left at 0 when ``with_sum`` is false: nothing reads it)."""
    dice = group.dice
    assert dice is not None
    faces = face_chances(dice)
    on = dice.explode_on if dice.explode else None
    extra_penalty = 1 if dice.explode == "!p" else 0
    memo: dict[tuple[int, int], dict[Key, Fraction]] = {}

    def chain(left: int, penalty: int) -> dict[Key, Fraction]:
        if (left, penalty) in memo:
            return memo[left, penalty]
        out: dict[Key, Fraction] = defaultdict(Fraction)
        budget.spend(len(faces))
        for raw, p in faces.items():
            shown = group.shown(raw) - penalty
            marks = tuple(int(c.test(shown)) for c in counts)
            worth = shown if with_sum else 0
            if left > 0 and on is not None and on.test(raw):
                rest = chain(left - 1, extra_penalty)
                budget.spend(len(rest))
                for (more, *others), q in rest.items():
                    out[(worth + more, *(a + b for a, b in zip(marks, others, strict=True)))] += (
                        p * q
                    )
            else:
                out[(worth, *marks)] += p
        memo[left, penalty] = dict(out)
        return memo[left, penalty]

    return chain(_depth(group), 0)


def _as_weights(chances: dict[Key, Fraction]) -> Distribution:
    denominator = lcm(*(p.denominator for p in chances.values()))
    return Distribution({k: int(p * denominator) for k, p in chances.items()}, denominator)


def _counts(features: list[Feature]) -> tuple[Compare, ...]:
    return tuple(sorted({f.compare for f in features if f.kind == "count" and f.compare}, key=str))


def _with_sum(features: list[Feature]) -> bool:
    return any(f.kind != "count" for f in features)


# a fold's state: the kept values (sorted) or the total in a 1-tuple, and one slot per
# other feature (None until a die gives it a value)
State = tuple[tuple[int, ...], tuple[int | None, ...]]


@dataclass(frozen=True)
class _Fold:
    """How each die changes the state of a group folded die by die."""

    slots: tuple[Feature, ...]
    count_at: dict[Compare, int]
    want_total: bool
    keep: str
    held: int

    def start(self) -> State:
        return (() if self.keep else (0,)), tuple(None for _ in self.slots)

    def add(self, state: State, value: int, marks: Key) -> State:
        part, seen = state
        if self.keep:
            kept = sorted((*part, value))
            if len(kept) > self.held:
                kept = kept[1:] if self.keep in ("kh", "dl") else kept[:-1]
            after: tuple[int, ...] = tuple(kept)
        else:
            after = (part[0] + value,) if self.want_total else (0,)
        slots = tuple(self.slot(f, x, value, marks) for f, x in zip(self.slots, seen, strict=True))
        return after, slots

    def slot(self, feature: Feature, seen: int | None, value: int, marks: Key) -> int | None:
        if feature.kind == "count":
            assert feature.compare is not None
            return (seen or 0) + marks[self.count_at[feature.compare]]
        if feature.compare is not None and not feature.compare.test(value):
            return seen
        if seen is None:
            return value
        return max(seen, value) if feature.kind == "high" else min(seen, value)


def group_distribution(
    group: GroupDice, features: list[Feature], budget: Budget
) -> tuple[tuple[Feature, ...], Distribution]:
    """The joint distribution of ``features`` (all of ``group``), in the order returned.

    The dice are folded one after another (:class:`_Fold`): the state holds the total
    (or, keeping, the kept dice's values), then one slot per other feature.
    """
    order = tuple(sorted(features, key=lambda f: f.name))
    dice = group.dice
    if dice is None or dice.count == 0:
        return order, Distribution({tuple(0 for _ in order): 1}, 1)
    counts = _counts(list(order))
    die = _as_weights(die_chances(group, counts, budget, _with_sum(list(order))))
    if keeps_by_value(group, list(order)):
        highest = dice.keep in ("kh", "dl")
        return order, kept_sum(die, dice.count, dice.kept_count, highest, budget)
    want_total = any(f.kind == "total" for f in order)
    keep = dice.keep if want_total and dice.kept_count < dice.count else ""
    slots = tuple(f for f in order if f.kind != "total")
    fold = _Fold(slots, {c: i for i, c in enumerate(counts)}, want_total, keep, dice.kept_count)
    states: dict[State, int] = {fold.start(): 1}
    for _ in range(dice.count):
        budget.spend(len(states) * len(die.weights))
        new: dict[State, int] = defaultdict(int)
        for state, w in states.items():
            for (value, *marks), v in die.weights.items():
                new[fold.add(state, value, tuple(marks))] += w * v
        states = new
    budget.spend(len(states))
    out: dict[Key, int] = defaultdict(int)
    for (part, seen), w in states.items():
        found = dict(zip(slots, (x or 0 for x in seen), strict=True))
        out[tuple(sum(part) if f.kind == "total" else found[f] for f in order)] += w
    return order, Distribution(dict(out), die.total**dice.count)


def continued_distribution(
    group: GroupDice, features: list[Feature], fixed: tuple[int, ...], budget: Budget
) -> tuple[tuple[Feature, ...], Distribution]:
    """:func:`group_distribution` of a group some of whose dice already stand: the dice
    that show ``fixed`` (one face each, as shown) and ``group.dice.count`` more rolled
    now (plain dice: no explosion, no keeping), folded from the state the standing dice
    give.
    """
    order = tuple(sorted(features, key=lambda f: f.name))
    dice = group.dice
    assert dice is not None and not dice.explode and not dice.keep
    counts = _counts(list(order))
    want_total = any(f.kind == "total" for f in order)
    slots = tuple(f for f in order if f.kind != "total")
    fold = _Fold(slots, {c: i for i, c in enumerate(counts)}, want_total, "", dice.count)
    state = fold.start()
    for value in fixed:
        state = fold.add(state, value, tuple(int(c.test(value)) for c in counts))
    states: dict[State, int] = {state: 1}
    die = _as_weights(die_chances(group, counts, budget, True))
    for _ in range(dice.count):
        budget.spend(len(states) * len(die.weights))
        new: dict[State, int] = defaultdict(int)
        for before, w in states.items():
            for (value, *marks), v in die.weights.items():
                new[fold.add(before, value, tuple(marks))] += w * v
        states = new
    budget.spend(len(states))
    out: dict[Key, int] = defaultdict(int)
    for (part, seen), w in states.items():
        found = dict(zip(slots, (x or 0 for x in seen), strict=True))
        out[tuple(sum(part) if f.kind == "total" else found[f] for f in order)] += w
    return order, Distribution(dict(out), die.total**dice.count)


# --- the work, bounded before it is done ---------------------------------------------


def _die_bound(group: GroupDice, dice: Dice, features: list[Feature]) -> tuple[int, int, int, int]:
    """For one die with its explosion: the steps :func:`die_chances` takes at most, the
    entries it gives at most, the most values its sum can take, and its explosion depth."""
    counts = len(_counts(features))
    with_sum = _with_sum(features)
    low, high = face_bounds(dice)
    if group.faces is not None:
        low, high = min(group.faces), max(group.faces)
    faces = min(len(dice.faces), high - low + 1) if group.faces is None else len(dice.faces)
    on = dice.explode_on if dice.explode else None
    raw_low, raw_high = face_bounds(dice)
    exploding = sum(1 for v in range(raw_low, raw_high + 1) if on is not None and on.test(v))
    depth = _depth(group) if exploding else 0
    low -= 1 if dice.explode == "!p" else 0
    width = max(abs(low), abs(high)) * 2 + 1
    sizes = [faces]
    steps = faces
    for level in range(1, depth + 1):
        paths = (faces - exploding) + exploding * sizes[-1]
        sums = (level + 1) * width if with_sum else 1
        sizes.append(min(paths, sums * (level + 2) ** counts))
        steps += faces + exploding * sizes[-2]
    return steps, sizes[-1], (depth + 1) * width, depth


def estimate_group(
    group: GroupDice, features: list[Feature], cap: int = STEP_BUDGET
) -> tuple[int, int]:
    """An upper bound of the steps :func:`group_distribution` takes, and of the size of
    the distribution it gives, from the dice's shape alone."""
    dice = group.dice
    if dice is None or dice.count == 0:
        return 0, 1
    steps, entries, span, depth = _die_bound(group, dice, features)
    if keeps_by_value(group, features):
        return _kept_sum_bound(group, dice, steps, entries, depth, cap)
    m = len(_counts(features))
    want_total = any(f.kind == "total" for f in features)
    extremes = sum(1 for f in features if f.kind in ("high", "low"))
    die_values = min(entries, span)
    keep = dice.keep if want_total and dice.kept_count < dice.count else ""
    per_count = dice.count * (depth + 1) + 1
    states = 1
    for i in range(1, dice.count + 1):
        steps += states * entries
        if steps > cap:
            return steps, states
        if keep:
            part = comb(die_values + dice.kept_count, dice.kept_count)
        else:
            part = i * (span - 1) + 1 if want_total else 1
        bound = part * (die_values + 1) ** extremes
        bound *= min(per_count, i * (depth + 1) + 1) ** m
        states = min(states * entries, bound)
    return steps + states, states


# --- keeping the best of alike dice: by how many show each value ----------------------


def keeps_by_value(group: GroupDice, features: list[Feature]) -> bool:
    """Whether ``group`` is read by :func:`kept_sum`: alike dice, some kept, read by their
    kept total alone."""
    dice = group.dice
    return (
        dice is not None
        and dice.count > 0
        and bool(dice.keep)
        and 0 < dice.kept_count < dice.count
        and [f.kind for f in features] == ["total"]
    )


def kept_sum(
    die: Distribution, count: int, kept: int, highest: bool, budget: Budget
) -> Distribution:
    """The sum of the ``kept`` highest (or lowest) of ``count`` alike dice, each ``die``
    (keyed by its value alone).

    The die's values are taken from the best down. The state is how many dice are kept
    so far and their sum: every die placed before the last one kept is kept, so the dice
    left are known. At each value, ``j`` of the dice left show it, with weight
    ``comb(left, j) * w ** j`` (``w`` the value's weight); once the kept dice are all
    placed, the rest show any worse value, ``rest ** (left - j)``. The work is the states
    times the dice that may still be kept, polynomial in the dice and the die's values.
    """
    values = sorted((key[0] for key in die.weights), reverse=highest)
    weights = [die.weights[(v,)] for v in values]
    below = [0] * (len(values) + 1)  # the weight of the values after each
    for i in range(len(values) - 1, -1, -1):
        below[i] = below[i + 1] + weights[i]
    states: dict[tuple[int, int], int] = {(0, 0): 1}  # (kept so far, their sum) -> weight
    final: dict[Key, int] = defaultdict(int)
    for i, (value, w) in enumerate(zip(values, weights, strict=True)):
        rest = below[i + 1]
        last = i == len(values) - 1
        budget.spend(sum(kept - taken + 1 for taken, _ in states) + count * kept)
        powers = [w**j for j in range(count + 1)]
        rests = [rest**j for j in range(count + 1)]
        # the weight of ``left`` dice with at least ``need`` of them showing this value
        # and the others a worse one
        done: dict[tuple[int, int], int] = {}
        new: dict[tuple[int, int], int] = defaultdict(int)
        for (taken, total), weight in states.items():
            left, need = count - taken, kept - taken
            if (left, need) not in done:
                done[left, need] = sum(
                    comb(left, j) * powers[j] * rests[left - j] for j in range(need, left + 1)
                )
            final[(total + need * value,)] += weight * done[left, need]
            if last:
                continue
            for j in range(min(need, left + 1)):
                new[taken + j, total + j * value] += weight * comb(left, j) * powers[j]
        states = new
    return Distribution(dict(final), die.total**count)


def _kept_sum_bound(
    group: GroupDice, dice: Dice, steps: int, entries: int, depth: int, cap: int
) -> tuple[int, int]:
    """:func:`estimate_group` for a group :func:`kept_sum` reads: before the ``i``-th
    value, ``t`` dice kept show at most ``comb(i + t - 1, t)`` sums (multisets of the
    values before it), and never more than ``t`` times the die's span."""
    low, high = face_bounds(dice)
    if group.faces is not None:
        low, high = min(group.faces), max(group.faces)
    low -= 1 if dice.explode == "!p" else 0
    reach = depth + 1
    span = max(high, reach * high) - min(low, reach * low) + 1
    values = min(entries, span)
    n, k = dice.count, dice.kept_count
    for i in range(values):
        states = [1] + [
            min(comb(i + t - 1, t), t * (span - 1) + 1) for t in range(1, k if i else 1)
        ]
        steps += sum(s * (k - t + 1) for t, s in enumerate(states)) + n * k
        if steps > cap:
            return steps, min(values * k, k * (span - 1) + 1)
    return steps, k * (span - 1) + 1
