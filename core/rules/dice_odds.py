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
from dataclasses import dataclass, field
from math import comb, exp, lgamma, log

from core.rules.dice import (
    EXPLODE_DEPTH,
    MAX_TOTAL,
    BinOp,
    Compare,
    Dice,
    DiceExpression,
    Group,
    Neg,
    Node,
    Number,
    bounds_from,
    die_bounds,
    face_bounds,
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

    @property
    def used(self) -> int:
        return self.limit - self.left

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise Malformed(TOO_LARGE, limit=self.limit)


@dataclass(frozen=True)
class DiceOdds:
    """The distribution of one roll of an expression, and what follows from it."""

    expression: DiceExpression
    distribution: tuple[tuple[int, float], ...]  # (total, chance), totals ascending
    steps: int = field(default=0, compare=False)  # the work it took, in steps

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

    The work is bounded before it starts: :func:`estimate` (from the terms' shapes
    alone) is never below the steps taken, and past ``budget`` the expression is
    refused at once.

    Raises:
        Malformed: the expression could need more than ``budget`` steps of work.
    """
    if estimate(expression, budget) > budget:
        raise Malformed(TOO_LARGE, limit=budget)
    spent = _Budget(budget)
    dist = _node(expression.node, spent)
    items = tuple(sorted((v, p) for v, p in dist.items() if p > 0))
    return DiceOdds(expression, items, spent.used)


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
        budget.spend(len(result))
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
    joint = die_distribution(dice, budget)
    budget.spend(len(joint))
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
    budget.spend(len(dice.faces))
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
    budget.spend(len(states))
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
        inner = _node(node.operand, budget)
        budget.spend(len(inner))
        return {-v: p for v, p in inner.items()}
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
        budget.spend(len(right))
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
    budget.spend(len(states))
    out: Dist = defaultdict(float)
    for kept, p in states.items():
        out[sum(kept)] += p
    return dict(out)


# --- the work, bounded before it is done ---------------------------------------------


def _children(node: Node) -> tuple[Node, ...]:
    """What ``node`` is made of, left to right (nothing, for a number or dice)."""
    if isinstance(node, Group):
        return node.items
    if isinstance(node, BinOp):
        return (node.left, node.right)
    if isinstance(node, Neg):
        return (node.operand,)
    return ()


def estimate(expression: DiceExpression, cap: int = STEP_BUDGET) -> int:
    """An upper bound of the steps :func:`odds` takes, from the terms' shapes alone
    (dice, sides, keep, explosion depth): a few arithmetic steps per term, whatever the
    dice. Once past ``cap`` it stops counting and returns what it has (above ``cap``)."""
    known: dict[int, tuple[int, int]] = {}  # id(node) -> its bounds, each computed once

    def inner(node: Node) -> tuple[int, int]:
        return known[id(node)]

    def walk(node: Node) -> tuple[int, int]:  # (steps, most distinct totals)
        steps = 0
        parts: list[int] = []
        for child in _children(node):
            cost, size = walk(child)
            steps += cost
            parts.append(size)
            if steps > cap:
                return steps, 1
        low, high = known[id(node)] = bounds_from(node, inner)
        if isinstance(node, Number):
            return 0, 1
        if isinstance(node, Dice):
            cost, most = _dice_steps(node, cap)
            return cost, min(high - low + 1, most)
        span = high - low + 1
        if isinstance(node, Neg):
            return steps + parts[0], parts[0]
        if isinstance(node, BinOp):
            extra = parts[1] if node.op == "-" else 0
            return steps + parts[0] * parts[1] + extra, min(span, parts[0] * parts[1])
        assert isinstance(node, Group)
        cost, most = _group_steps(node, parts, span, list(map(inner, node.items)))
        return steps + cost, most

    return walk(expression.node)[0]


def _group_steps(
    group: Group, parts: list[int], span: int, items: list[tuple[int, int]]
) -> tuple[int, int]:
    """The steps a group takes past its items' own (their most distinct totals ``parts``,
    their bounds ``items``; ``span`` the group's totals), and its most distinct totals."""
    steps = 0
    if not group.keep:
        running = 1
        for size in parts:
            steps += running * size
            running = min(span, running * size)
        return steps, running
    k = group.keep_n if group.keep in ("kh", "kl") else len(parts) - group.keep_n
    values = max(h for _, h in items) - min(lo for lo, _ in items) + 1
    most = comb(values + k, k)  # sorted tuples of at most k values
    states = 1
    for size in parts:
        steps += states * size
        states = min(most, states * size)
    return steps + states, span


def _matching(on: Compare | None, low: int, high: int) -> int:
    """How many of the values ``low..high`` ``on`` matches."""
    if on is None or high < low:
        return 0
    v, op = on.value, on.op
    inside = low <= v <= high
    if op == "=":
        return int(inside)
    if op == "!=":
        return high - low + 1 - int(inside)
    if op in (">", ">="):
        start = max(low, v + 1 if op == ">" else v)
        return max(0, high - start + 1)
    end = min(high, v - 1 if op == "<" else v)
    return max(0, end - low + 1)


def _dice_steps(dice: Dice, cap: int) -> tuple[int, int]:
    """An upper bound of the steps :func:`_dice` takes on ``dice``, and of the totals it
    gives (its states, for keep/drop over exploding dice; else unbounded here)."""
    sides = len(dice.faces)
    low, high = face_bounds(dice)
    faces = min(sides, high - low + 1)  # the values one face shows after mi/ma
    on = dice.explode_on if dice.explode else None
    exploding = min(faces, _matching(on, low, high))
    depth = (1 if dice.explode == "ra" else EXPLODE_DEPTH) if exploding else 0
    penalty = 1 if dice.explode == "!p" else 0
    n = dice.count
    if dice.single_keep:
        return _single_keep_steps(dice, sides, faces, exploding, depth, penalty, cap)
    unbounded = MAX_TOTAL
    worth_low, worth_high = die_bounds(dice)
    worths = worth_high - worth_low + 1
    # the die with the dice it adds: one entry per path (each face, or an exploding
    # face followed by the rest), and no more than its (sum, worth) pairs
    a, b = low - penalty, high
    sizes = [faces]
    for level in range(1, depth + 1):
        paths = (faces - exploding) + exploding * sizes[-1]
        sums = max(b, (level + 1) * b) - min(a, (level + 1) * a) + 1
        pairs = sums * ((2 * level + 3) if dice.counting and dice.explode != "!!" else 1)
        sizes.append(min(paths, pairs))
    joint = sizes[-1]
    steps = sides + (depth + 1) * faces + exploding * sum(sizes[:-1])
    if dice.counting and dice.explode == "!!":
        steps += joint  # the faces' sum to what it counts for
    steps += joint
    if not dice.keep:  # n convolutions: before the i-th the sum has at most i*(w-1)+1 values
        each = min(worths, joint)
        return steps + each * (n + (worths - 1) * n * (n - 1) // 2), unbounded
    # keep/drop: K keys, from the best down; given its key what a die counts for is known,
    # so a state (dice left, taken t, total) has at most t*(v-1)+1 totals, v the span of
    # the worths so far: the i best keys span at most i values plus the gaps among them
    keys = joint if dice.counting else min(joint, worths)  # uncounted, worth is the key
    if dice.counting or dice.explode:
        gaps = worths  # marks, or sums of exploded faces: any span up to the whole
    elif dice.reroll == "r":
        gaps = _matching(dice.reroll_on, low, high)  # the faces rerolled away
    else:
        gaps = 0
    k = dice.kept_count
    first = k * (n + 1) - k * (k - 1) // 2  # sum over t < k of (n - t + 1)
    second = (n + 1) * k * (k - 1) // 2 - (k - 1) * k * (2 * k - 1) // 6  # of t(n - t + 1)
    short = max(0, min(keys - 1, worths - gaps))  # the i with i + gaps below the whole span
    spread = short * (short + 1) // 2 + short * (gaps - 1) + (keys - 1 - short) * (worths - 1)
    return steps + n * keys + keys * (2 * first + k) + 2 * second * spread, unbounded


def _single_keep_steps(
    dice: Dice, sides: int, faces: int, exploding: int, depth: int, penalty: int, cap: int
) -> tuple[int, int]:
    """An upper bound of the steps :func:`_keep_singles` takes: the dice one after
    another, each round of explosions at most the states before times the exploding
    faces, and never more states than sorted tuples of held faces (times the sums of
    dropped ones)."""
    held_n = dice.keep_n
    values = faces + penalty
    if dice.keep in ("dh", "dl"):  # the sum of what the dropped faces count for
        low, high = (-1, 1) if dice.counting else face_bounds(dice)
        low -= 0 if dice.counting else penalty
        rests = dice.count * (depth + 1) * (abs(low) + abs(high)) + 1
    else:
        rests = 1
    most = comb(values + held_n, held_n) * rests
    # Holding the highest faces while the top faces explode: once a die has exploded r
    # times, its r exploded faces (each at least as high as any other) are among those
    # held, so fewer states go on exploding.
    low, high = face_bounds(dice)
    on = dice.explode_on
    on_top = on is not None and (
        on.op in (">", ">=") or (on.op == "=" and on.value == high)
    ) and dice.keep in ("kh", "dh")  # fmt: skip
    top = exploding + penalty  # the values an exploded face can show

    def at_most(round_: int) -> int:
        if not on_top or round_ == 0:
            return most
        m = min(round_, held_n)
        return min(most, comb(top + m - 1, m) * comb(values + held_n - m, held_n - m) * rests)

    per_state = faces * (held_n + 1)
    steps = sides
    states = 1
    for _ in range(dice.count):
        active, done = states, 0
        for round_ in range(depth + 1):
            steps += active * per_state
            done += active * faces
            active = min(at_most(round_ + 1), active * exploding)
            if not active:
                break
        if steps > cap:
            return steps, 1
        states = min(most, done)
    return steps + states, states  # a total per state at most
