"""Brute force for the library's systems, written from each game's rules alone: every
face of every die enumerated (itertools.product), or icepool for exploding dice. Never
the systems' engine or their definitions' readings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction
from itertools import product

import icepool

Odds = dict[str, Fraction]


def enumerate_faces(sides: Iterable[int], read: Callable[..., str]) -> Odds:
    """Every way the dice (a die of each of ``sides``) can fall, read into an outcome."""
    sides = list(sides)
    counts: Counter[str] = Counter()
    total = 1
    for s in sides:
        total *= s
    for faces in product(*(range(1, s + 1) for s in sides)):
        counts[read(*faces)] += 1
    return {k: Fraction(v, total) for k, v in counts.items()}


def from_die(die: icepool.Die, read: Callable[[int], str]) -> Odds:
    result: dict[str, Fraction] = {}
    for outcome in die.outcomes():
        key = read(outcome)
        result[key] = result.get(key, Fraction(0)) + Fraction(die.probability(outcome))
    return result


def pbta(stat: int) -> Odds:
    def read(a: int, b: int) -> str:
        t = a + b + stat
        return "strong" if t >= 10 else "weak" if t >= 7 else "miss"

    return enumerate_faces([6, 6], read)


def blades(pool: int) -> Odds:
    def read(*faces: int) -> str:
        if pool == 0:
            low = min(faces)
            return "full" if low == 6 else "partial" if low >= 4 else "bad"
        if faces.count(6) >= 2:
            return "critical"
        best = max(faces)
        return "full" if best == 6 else "partial" if best >= 4 else "bad"

    return enumerate_faces([6] * (pool or 2), read)


def ironsworn(add: int) -> Odds:
    def read(action: int, c1: int, c2: int) -> str:
        score = min(action + add, 10)
        beaten = sum(score > c for c in (c1, c2))
        return ("strong", "weak", "miss")[2 - beaten]

    return enumerate_faces([6, 10, 10], read)


def ironsworn_match(add: int) -> Fraction:
    return enumerate_faces([10, 10], lambda a, b: "m" if a == b else "-").get("m", Fraction(0))


def coc(skill: int, bonus: int) -> Odds:
    def read(units: int, *tens: int) -> str:
        u = units - 1  # 0..9
        results = [(10 * (t - 1) + u) or 100 for t in tens]
        r = min(results) if bonus > 0 else max(results)
        if r == 1:
            return "critical"
        if r == 100 or (skill < 50 and r >= 96):
            return "fumble"
        if r <= skill // 5:
            return "extreme"
        if r <= skill // 2:
            return "hard"
        return "regular" if r <= skill else "failure"

    return enumerate_faces([10] * (2 + abs(bonus)), read)


def daggerheart(mod: int, difficulty: int, edge: int) -> Odds:
    def read(hope: int, fear: int, *extra: int) -> str:
        if hope == fear:
            return "critical"
        total = hope + fear + mod + edge * sum(extra)
        side = "hope" if hope > fear else "fear"
        return ("success_" if total >= difficulty else "failure_") + side

    return enumerate_faces([12, 12] + [6] * abs(edge), read)


def yze(pool: int) -> Odds:
    def sixes(*faces: int) -> str:
        return ("failure", "success", "two", "three")[min(faces.count(6), 3)]

    return enumerate_faces([6] * pool, sixes)


def savage(trait: int, mod: int, wild: int) -> Odds:
    trait_die = icepool.d(trait).explode(depth=20)
    wild_die = icepool.d6.explode(depth=20)

    def read(t: int, w: int) -> str:
        if t == 1 and w == 1:
            return "critical_failure"
        score = (max(t, w) if wild else t) + mod
        if score < 4:
            return "failure"
        raises = (score - 4) // 4
        return ("success", "raise", "raises2", "raises3")[min(raises, 3)]

    other = wild_die if wild else icepool.d6  # an Extra's d6 is read only on a 1
    return from_die(icepool.map(read, trait_die, other), str)


def fate(skill: int, opposition: int) -> Odds:
    def read(*faces: int) -> str:
        shifts = sum(f - 2 for f in faces) + skill - opposition
        return (
            "style"
            if shifts >= 3
            else "success"
            if shifts >= 1
            else "tie"
            if shifts == 0
            else "fail"
        )

    return enumerate_faces([3] * 4, read)


def cofd(pool: int, again: int) -> Odds:
    if pool < 1:  # one chance die: a 10 succeeds (and rolls again), a 1 is dramatic
        coded = icepool.d10.map(lambda f: 1000 if f == 10 else -1 if f == 1 else 0)
        chain = coded.explode([1000], depth=20)

        def read_chance(s: int) -> str:
            if s == -1:
                return "dramatic"
            tens = (s + 1) // 1000 if s % 1000 == 999 else s // 1000
            return "failure" if tens == 0 else "exceptional" if tens >= 5 else "success"

        return from_die(chain, read_chance)
    # each die: a success on 8+, rolls again on ``again``+; coded so the sum tells both
    coded = icepool.d10.map(lambda f: 1001 if f >= again else 1 if f >= 8 else 0)
    die = coded.explode([1001], depth=20).map(lambda s: s % 1000)
    total = pool @ die
    return from_die(
        total, lambda n: "failure" if n == 0 else "exceptional" if n >= 5 else "success"
    )


def shadowrun(pool: int, threshold: int) -> Odds:
    # each die: a hit (5, 6), a one, or neither; the pool by its counts of each
    counts: Counter[str] = Counter()
    die = {"hit": 2, "one": 1, "none": 3}
    total = 6**pool
    for hits in range(pool + 1):
        for ones in range(pool - hits + 1):
            none = pool - hits - ones
            ways = _multinomial(pool, (hits, ones, none)) * die["hit"] ** hits * die["one"] ** ones
            ways *= die["none"] ** none
            glitch = 2 * ones > pool
            if glitch and hits == 0:
                key = "critical_glitch"
            else:
                net = hits - threshold
                key = (
                    "failure"
                    if net < 0
                    else "success"
                    if net == 0
                    else "extra1"
                    if net <= 2
                    else "extra3"
                )
            counts[key] += ways
    return {k: Fraction(v, total) for k, v in counts.items()}


def _multinomial(n: int, parts: tuple[int, ...]) -> int:
    from math import factorial

    out = factorial(n)
    for p in parts:
        out //= factorial(p)
    return out


def shadowrun_small(pool: int, threshold: int) -> Odds:
    """Every face of every die, for small pools (a check on the counting above)."""

    def read(*faces: int) -> str:
        hits = sum(f >= 5 for f in faces)
        ones = faces.count(1)
        if 2 * ones > pool and hits == 0:
            return "critical_glitch"
        net = hits - threshold
        return (
            "failure" if net < 0 else "success" if net == 0 else "extra1" if net <= 2 else "extra3"
        )

    return enumerate_faces([6] * pool, read)


def cpred(base: int, dv: int) -> Odds:
    def read(d: int, extra: int) -> str:
        total = d + base + (extra if d == 10 else -extra if d == 1 else 0)
        return "success" if total > dv else "failure"

    return enumerate_faces([10, 10], read)


def mothership(target: int, edge: int) -> Odds:
    order = ["critical_failure", "failure", "success", "critical_success"]

    def one(tens: int, units: int) -> int:
        r = 10 * (tens - 1) + (units - 1)
        ok = r < target and r < 90
        if tens - 1 == units - 1:
            return 3 if ok else 0
        return 2 if ok else 1

    def read(*faces: int) -> str:
        first = one(faces[0], faces[1])
        if not edge:
            return order[first]
        second = one(faces[2], faces[3])
        return order[max(first, second) if edge > 0 else min(first, second)]

    return enumerate_faces([10] * (4 if edge else 2), read)


def dnd5e(mod: int, dc: int, edge: int) -> Odds:
    def read(*faces: int) -> str:
        kept = max(faces) if edge > 0 else min(faces)
        return "success" if kept + mod >= dc else "failure"

    return enumerate_faces([20] * (2 if edge else 1), read)


def pf2e(mod: int, dc: int) -> Odds:
    names = ["critical_failure", "failure", "success", "critical_success"]

    def read(d: int) -> str:
        total = d + mod
        degree = 3 if total >= dc + 10 else 2 if total >= dc else 0 if total <= dc - 10 else 1
        degree += 1 if d == 20 else -1 if d == 1 else 0
        return names[max(0, min(3, degree))]

    return enumerate_faces([20], read)


def dragonbane(skill: int, edge: int) -> Odds:
    def read(*faces: int) -> str:
        d = min(faces) if edge > 0 else max(faces)
        return (
            "dragon" if d == 1 else "demon" if d == 20 else "success" if d <= skill else "failure"
        )

    return enumerate_faces([20] * (2 if edge else 1), read)


def cypher(level: int) -> Odds:
    return enumerate_faces([20], lambda d: "success" if level == 0 or d >= 3 * level else "failure")


def traveller(dm: int, tn: int, edge: int) -> Odds:
    def read(*faces: int) -> str:
        kept = sorted(faces)[1:] if edge > 0 else sorted(faces)[:2] if edge < 0 else faces
        effect = sum(kept) + dm - tn
        if effect >= 6:
            return "exceptional_success"
        if effect >= 1:
            return "average_success"
        if effect == 0:
            return "marginal_success"
        if effect == -1:
            return "marginal_failure"
        return "average_failure" if effect >= -5 else "exceptional_failure"

    return enumerate_faces([6] * (3 if edge else 2), read)


def wfrp(target: int) -> Odds:
    def read(tens: int, units: int) -> str:
        r = (10 * (tens - 1) + units - 1) or 100
        auto_success, auto_failure = r <= 5, r >= 96
        success = auto_success or (r <= target and not auto_failure)
        sl = target // 10 - r // 10
        if success and auto_success:
            sl = max(sl, 1)
        if not success and auto_failure:
            sl = min(sl, -1)
        if success:
            return (
                "astounding_success" if sl >= 6 else "impressive_success" if sl >= 4
                else "success" if sl >= 2 else "marginal_success"
            )  # fmt: skip
        return (
            "astounding_failure" if sl <= -6 else "impressive_failure" if sl <= -4
            else "failure" if sl <= -2 else "marginal_failure"
        )  # fmt: skip

    return enumerate_faces([10, 10], read)


def l5r(roll: int, keep: int, tn: int, raises: int, untrained: int, depth: int = 3) -> Odds:
    """Roll and keep: past ten dice rolled, each two more are one more kept die; past ten
    kept, each more is +2. A 10 rolls again and adds, at most ``depth`` times."""
    kept = min(keep, roll) + max(roll - 10, 0) // 2
    bonus = 2 * max(kept - 10, 0)
    die = icepool.d10 if untrained else icepool.d10.explode(depth=depth)
    total = die.pool(min(roll, 10)).highest(min(kept, 10)).sum() + bonus
    return from_die(total, lambda t: "success" if t >= tn + 5 * raises else "failure")


def gurps(skill: int) -> Odds:
    def read(*faces: int) -> str:
        r = sum(faces)
        if r <= 4 or (r == 5 and skill >= 15) or (r == 6 and skill >= 16):
            return "critical_success"
        if r == 18 or (r == 17 and skill <= 15) or r >= skill + 10:
            return "critical_failure"
        return "success" if r <= skill and r <= 16 else "failure"

    return enumerate_faces([6, 6, 6], read)


def tor(rank: int, tn: int, favour: int, weary: int) -> Odds:
    eye, rune = 11, 12  # the Feat die's two symbols, on its last two faces

    def worth(face: int) -> int:  # the Eye is the lowest result, the rune the highest
        return 0 if face == eye else 11 if face == rune else face

    def read(*faces: int) -> str:
        feats = [worth(f) for f in faces[: 2 if favour else 1]]
        kept = min(feats) if favour < 0 else max(feats)
        dice = faces[2 if favour else 1 :]
        score = (0 if kept == 11 else kept) + sum(0 if weary and d <= 3 else d for d in dice)
        if kept != 11 and score < tn:
            return "failure"
        return ("success", "great", "extraordinary")[min(dice.count(6), 2)]

    return enumerate_faces([12] * (2 if favour else 1) + [6] * rank, read)
