"""Stress: the stress pool, inflicting and stepping up, relief, and the episode's end.

Invariants: a character has at most one Stress per type; inflicting never
lowers a Stress; stepping up past d12 leaves the Stress at d12 and marks the
character Stressed Out; stepping back below d4 removes the Stress; dice that
roll 1 never decide a stress roll (ruling 17); relief needs a strictly higher
Result and moves the relieved Stress's die into the Growth pool.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from core.rules.cortex.dice import Die, RolledDie, best_single, roll_pool
from core.rules.cortex.traits import Sheet, stress_term
from core.rules.errors import NotAllowedNow
from core.rules.rng import Rng


@dataclass(frozen=True)
class StressChange:
    """What one infliction did to a character."""

    target: str
    type: str
    before: Die | None
    after: Die | None
    stepped_up: bool
    stressed_out: bool


def stress_pool(rolled: Iterable[RolledDie]) -> tuple[Die, ...]:
    """The dice to pick up for a stress roll: the pool just rolled, minus its 1s."""
    return tuple(r.die for r in rolled if not r.is_dud)


def adjust_pool(
    pool: Sequence[Die], add: Sequence[Die] = (), remove: Sequence[Die] = ()
) -> tuple[Die, ...]:
    """Increase and Decrease a stress pool as Assets allow.

    Raises:
        NotAllowedNow: a die to remove is not in the pool.
    """
    dice = [*pool, *add]
    for die in remove:
        if die not in dice:
            raise NotAllowedNow("There is no {die} in the stress pool to remove.", die=die.label)
        dice.remove(die)
    return tuple(dice)


def roll_stress(pool: Sequence[Die], rng: Rng) -> tuple[tuple[RolledDie, ...], Die | None]:
    """Roll a stress pool; the size of the die that rolled highest (1s ignored).

    Returns:
        The rolled dice, and the inflicted size or ``None`` when every die was a 1.
    """
    rolled = roll_pool(((d, "stress") for d in pool), rng)
    best = best_single(rolled)
    return rolled, None if best is None else best.die


def stepped_stress(current: Die | None, inflicted: Die) -> tuple[Die, bool]:
    """The new Stress after inflicting ``inflicted`` on ``current``.

    Returns:
        The new rating and whether the character is Stressed Out (stepped past d12).
    """
    if current is None or current < inflicted:
        return inflicted, False
    up = current.stepped_up()
    return (Die.D12, True) if up is None else (up, False)


def inflict(sheet: Sheet, stress_type: str, inflicted: Die) -> tuple[Sheet, StressChange]:
    """Give ``sheet`` Stress of one type: take it at that size, or step up what is there."""
    before = sheet.stress_of(stress_type)
    after, out = stepped_stress(before, inflicted)
    new = sheet.with_stress(stress_type, after)
    if out:
        new = replace(new, stressed_out=True)
    change = StressChange(
        target=sheet.name,
        type=stress_type,
        before=before,
        after=after,
        stepped_up=before is not None and before >= inflicted,
        stressed_out=out,
    )
    return new, change


def stress_opposition(sheet: Sheet) -> tuple[Die, ...]:
    """All of a character's Stress dice: the opposition to Stress Relief."""
    return tuple(entry.die for entry in sheet.stress)


def relieve(sheet: Sheet, stress_type: str) -> Sheet:
    """Successful relief: the Stress's die joins Growth, that Stress type is cleared.

    Raises:
        NotAllowedNow: no Stress of that type.
    """
    die = sheet.stress_of(stress_type)
    if die is None:
        raise NotAllowedNow(
            "{name} has no {stress} Stress to relieve.",
            name=sheet.name,
            stress=stress_term(stress_type),
        )
    return replace(sheet.with_stress(stress_type, None), growth=(*sheet.growth, die))


def recover(sheet: Sheet, stress_type: str, steps: int = 1) -> Sheet:
    """An Asset's recovery: step one Stress back (no Growth)."""
    die = sheet.stress_of(stress_type)
    for _ in range(max(steps, 0)):
        die = None if die is None else die.stepped_back()
    return sheet.with_stress(stress_type, die)


def end_of_episode(sheet: Sheet) -> Sheet:
    """Every Stress steps back once (no Growth); challenged Values are ready again."""
    stress = tuple(
        replace(entry, die=back)
        for entry in sheet.stress
        if (back := entry.die.stepped_back()) is not None
    )
    values = tuple(replace(v, challenged=False) for v in sheet.values)
    return replace(sheet, stress=stress, values=values, stressed_out=False)
