"""Exact odds of any dice expression: its whole distribution, computed, not sampled.

Every die is turned into the distribution of what it counts for (after rerolls,
mi/ma, explosions and success marks), with the very same limits the roller uses
(:data:`~core.rules.dice.EXPLODE_DEPTH`; ``r`` draws among the faces that don't match), so
the odds are exact for the rolls :func:`core.rules.dice.roll` makes. Pools are
summed by convolution; keep/drop runs a dynamic programme over the faces from the
best down (how many dice show each face is binomial given the rest); sets keep
their best members by carrying the kept values along. Work is counted in steps:
past :data:`STEP_BUDGET` the expression is refused as too large for exact odds.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from math import exp, lgamma, log

from core.rules.dice import (
    EXPLODE_DEPTH,
    Compare,
    Dice,
    DiceExpression,
    Group,
    Neg,
    Node,
    Number,
    face_mark,
)
from core.rules.errors import Malformed

STEP_BUDGET = 200_000
TOO_LARGE = (
    "That roll is too large for exact odds (at most {limit} steps of work). "
    "Try fewer dice or fewer sides."
)

Dist = dict[int, float]


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit
        self.limit = limit

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise Malformed(TOO_LARGE, limit=self.limit)

    def afford(self, steps: int) -> None:
        """Refuse at once work known to take at least ``steps`` more than is left."""
        if steps > self.left:
            raise Malformed(TOO_LARGE, limit=self.limit)


def power_cost(values: int, n: int) -> int:
    """The fewest steps the ``n``-fold convolution of a die with ``values`` outcomes
    takes: a sum of integer sets has at least ``|A| + |B| - 1`` values, so before the
    ``i``-th convolution the running sum has at least ``i * (values - 1) + 1``."""
    return n * values + values * (values - 1) * n * (n - 1) // 2


@dataclass(frozen=True)
class DiceOdds:
    """The distribution of one roll of an expression, and what follows from it."""

    expression: DiceExpression
    distribution: tuple[tuple[int, float], ...]  # (total, chance), totals ascending

    @property
    def minimum(self) -> int:
        return self.distribution[0][0]

    @property
    def maximum(self) -> int:
        return self.distribution[-1][0]

    @property
    def mean(self) -> float:
        return sum(v * p for v, p in self.distribution)

    def chance(self, compare: Compare) -> float:
        """The chance that one roll's total passes ``compare``."""
        return min(1.0, sum(p for v, p in self.distribution if compare.test(v)))

    @property
    def target_chance(self) -> float | None:
        target = self.expression.target
        return None if target is None else self.chance(target)

    @property
    def explosion_depth(self) -> int | None:
        """How far explosions are followed (as when rolling), if the roll explodes."""
        return EXPLODE_DEPTH if self.expression.explodes else None

    def buckets(self, rows: int = 12) -> list[tuple[int, int, float]]:
        """The distribution in at most ``rows`` ranges (low, high, chance), for bars."""
        low, high = self.minimum, self.maximum
        width = max(1, -(-(high - low + 1) // rows))
        out: list[tuple[int, int, float]] = []
        for start in range(low, high + 1, width):
            end = min(high, start + width - 1)
            out.append((start, end, 0.0))
        for value, p in self.distribution:
            index = (value - low) // width
            a, b, q = out[index]
            out[index] = (a, b, q + p)
        return out


def odds(expression: DiceExpression, budget: int = STEP_BUDGET) -> DiceOdds:
    """The exact distribution of one roll of ``expression`` (each repeat is alike).

    Raises:
        Malformed: the expression needs more than ``budget`` steps of work.
    """
    dist = _node(expression.node, _Budget(budget))
    items = tuple(sorted((v, p) for v, p in dist.items() if p > 0))
    return DiceOdds(expression, items)


def face_distribution(dice: Dice) -> Dist:
    """One face after rerolls and mi/ma."""
    base = {v: 1 / len(dice.faces) for v in dice.faces}
    dist = dict(base)
    on = dice.reroll_on
    if dice.reroll == "r" and on is not None:  # until it doesn't match: uniform among the rest
        kept = [v for v in dice.faces if not on.test(v)]
        dist = {v: 1 / len(kept) for v in kept}
    elif dice.reroll == "ro" and on is not None:
        moved = sum(q for v, q in dist.items() if on.test(v))
        dist = {v: q for v, q in dist.items() if not on.test(v)}
        for v, q in base.items():
            dist[v] = dist.get(v, 0.0) + moved * q
    out: Dist = defaultdict(float)
    for v, q in dist.items():
        if dice.lowest is not None:
            v = max(v, dice.lowest)
        if dice.highest is not None:
            v = min(v, dice.highest)
        out[v] += q
    return dict(out)


def die_distribution(dice: Dice, budget: _Budget) -> dict[tuple[int, int], float]:
    """One die with the dice it adds: (its faces' sum, what it counts for) -> chance."""
    faces = face_distribution(dice)
    budget.spend(len(dice.faces))
    on = dice.explode_on if dice.explode else None
    depth = 1 if dice.explode == "ra" else EXPLODE_DEPTH
    extra_penalty = 1 if dice.explode == "!p" else 0
    compound = dice.explode == "!!"
    memo: dict[tuple[int, int], dict[tuple[int, int], float]] = {}

    def chain(left: int, penalty: int) -> dict[tuple[int, int], float]:
        if (left, penalty) in memo:
            return memo[left, penalty]
        out: dict[tuple[int, int], float] = defaultdict(float)
        budget.spend(len(faces))  # every face, exploding or not
        for value, p in faces.items():
            shown = value - penalty
            worth = face_mark(dice, shown) if dice.counting and not compound else shown
            if left > 0 and on is not None and on.test(value):
                rest = chain(left - 1, extra_penalty)
                budget.spend(len(rest))
                for (key, more), q in rest.items():
                    out[shown + key, worth + more] += p * q
            else:
                out[shown, worth] += p
        memo[left, penalty] = dict(out)
        return memo[left, penalty]

    result = chain(depth if on is not None else 0, 0)
    if dice.counting and compound:
        joint: dict[tuple[int, int], float] = defaultdict(float)
        for (key, _), p in result.items():
            joint[key, face_mark(dice, key)] += p
        return dict(joint)
    return result


def _convolve(a: Dist, b: Dist, budget: _Budget) -> Dist:
    budget.spend(len(a) * len(b))
    out: Dist = defaultdict(float)
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] += p * q
    return dict(out)


def _power(a: Dist, n: int, budget: _Budget) -> Dist:
    out: Dist = {0: 1.0}
    for _ in range(n):
        out = _convolve(out, a, budget)
    return out


def _dice(dice: Dice, budget: _Budget) -> Dist:
    if dice.single_keep:
        return _keep_singles(dice, budget)
    if not dice.keep and not dice.counting:  # a pool of n alike dice: say no before the work
        budget.afford(power_cost(len(face_distribution(dice)), dice.count))
    joint = die_distribution(dice, budget)
    if not dice.keep:
        worth: Dist = defaultdict(float)
        for (_, w), p in joint.items():
            worth[w] += p
        return _power(dict(worth), dice.count, budget)
    return _keep(joint, dice.count, dice.kept_count, dice.keep in ("kh", "dl"), budget)


def _keep(
    joint: dict[tuple[int, int], float], n: int, k: int, highest: bool, budget: _Budget
) -> Dist:
    """Sum of what the ``k`` best (or worst) of ``n`` alike dice count for."""
    by_key: dict[int, Dist] = defaultdict(lambda: defaultdict(float))
    for (key, worth), p in joint.items():
        by_key[key][worth] += p
    keys = sorted(by_key, reverse=highest)
    budget.spend(n * len(keys))  # at least one step per die and face
    masses = [sum(by_key[key].values()) for key in keys]
    final: Dist = defaultdict(float)
    states: dict[tuple[int, int, int], float] = {(n, 0, 0): 1.0}
    for index, key in enumerate(keys):
        mass = masses[index]
        rest = sum(masses[index:])
        q = min(1.0, mass / rest) if rest > 0 else 1.0
        given = {w: p / mass for w, p in by_key[key].items()}
        powers: list[Dist] = [{0: 1.0}]
        new: dict[tuple[int, int, int], float] = defaultdict(float)
        for (left, taken, total), p in states.items():
            budget.spend(left + 1)
            for j in range(left + 1) if index < len(keys) - 1 else (left,):
                chance = _binomial(left, j, q)
                if chance < 1e-300:
                    continue
                take = min(j, k - taken)
                while len(powers) <= take:
                    powers.append(_convolve(powers[-1], given, budget))
                budget.spend(len(powers[take]))
                for worth, pw in powers[take].items():
                    if taken + take == k:
                        final[total + worth] += p * chance * pw
                    else:
                        new[left - j, taken + take, total + worth] += p * chance * pw
        states = new
    return dict(final)


def _keep_singles(dice: Dice, budget: _Budget) -> Dist:
    """Keep/drop over every face rolled, the ones explosions added each a die of its own.

    The dice are rolled one after another, each face by face; the state is the faces
    that may still matter (the ``n`` best so far for ``khN``, the ``n`` worst for ``klN``,
    the ``n`` dropped so far for ``dhN``/``dlN``) and, when dropping, the sum of the
    others. Explosions are followed as deep as when rolling.
    """
    faces = face_distribution(dice)
    on = dice.explode_on
    assert on is not None
    depth = 1 if dice.explode == "ra" else EXPLODE_DEPTH
    extra_penalty = 1 if dice.explode == "!p" else 0
    highest = dice.keep in ("kh", "dh")  # the faces held are the highest ones
    held_n = dice.keep_n
    dropping = dice.keep in ("dh", "dl")

    def worth(shown: int) -> int:
        return face_mark(dice, shown) if dice.counting else shown

    State = tuple[tuple[int, ...], int]  # the faces held, sorted; the sum of the rest

    def add(state: State, shown: int) -> State:
        held, rest = state
        values = sorted((*held, shown))
        if len(values) <= held_n:
            return tuple(values), rest
        out = values[0] if highest else values[-1]
        kept = values[1:] if highest else values[:-1]
        return tuple(kept), rest + worth(out) if dropping else 0

    states: dict[State, float] = {((), 0): 1.0}
    for _ in range(dice.count):
        done: dict[State, float] = defaultdict(float)
        active: dict[tuple[State, int, int], float] = {}
        for state, p in states.items():
            active[state, depth, 0] = p
        while active:
            following: dict[tuple[State, int, int], float] = defaultdict(float)
            budget.spend(len(active) * len(faces) * (held_n + 1))  # each adds to a sorted tuple
            for (state, left, penalty), p in active.items():
                for value, q in faces.items():
                    new = add(state, value - penalty)
                    if left > 0 and on.test(value):
                        following[new, left - 1, extra_penalty] += p * q
                    else:
                        done[new] += p * q
            active = following
        states = done
    out: Dist = defaultdict(float)
    for (held, rest), p in states.items():
        out[rest if dropping else sum(worth(v) for v in held)] += p
    return dict(out)


def _binomial(n: int, j: int, q: float) -> float:
    """The chance that exactly ``j`` of ``n`` dice land where each does with chance ``q``."""
    if q >= 1.0:
        return 1.0 if j == n else 0.0
    if q <= 0.0:
        return 1.0 if j == 0 else 0.0
    return exp(
        lgamma(n + 1) - lgamma(j + 1) - lgamma(n - j + 1) + j * log(q) + (n - j) * log(1 - q)
    )


def _node(node: Node, budget: _Budget) -> Dist:
    if isinstance(node, Number):
        return {node.value: 1.0}
    if isinstance(node, Dice):
        return _dice(node, budget)
    if isinstance(node, Neg):
        return {-v: p for v, p in _node(node.operand, budget).items()}
    if isinstance(node, Group):
        members = [_node(item, budget) for item in node.items]
        if not node.keep:
            out: Dist = {0: 1.0}
            for member in members:
                out = _convolve(out, member, budget)
            return out
        return _keep_members(node, members, budget)
    left, right = _node(node.left, budget), _node(node.right, budget)
    if node.op == "+":
        return _convolve(left, right, budget)
    if node.op == "-":
        return _convolve(left, {-v: p for v, p in right.items()}, budget)
    budget.spend(len(left) * len(right))
    combined: Dist = defaultdict(float)
    for x, p in left.items():
        for y, q in right.items():
            combined[x * y if node.op == "*" else x // y if node.op == "/" else x % y] += p * q
    return dict(combined)


def _keep_members(group: Group, members: list[Dist], budget: _Budget) -> Dist:
    n = len(members)
    k = group.keep_n if group.keep in ("kh", "kl") else n - group.keep_n
    highest = group.keep in ("kh", "dl")
    states: dict[tuple[int, ...], float] = {(): 1.0}
    for member in members:
        budget.spend(len(states) * len(member))
        new: dict[tuple[int, ...], float] = defaultdict(float)
        for kept, p in states.items():
            for value, q in member.items():
                values = sorted((*kept, value))
                if len(values) > k:
                    values = values[1:] if highest else values[:-1]
                new[tuple(values)] += p * q
        states = new
    out: Dist = defaultdict(float)
    for kept, p in states.items():
        out[sum(kept)] += p
    return dict(out)
