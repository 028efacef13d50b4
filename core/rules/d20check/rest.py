"""The long rest: strain goes, and each wound gets a recovery check.

Invariants:
    * One recovery check per wound the character has when the rest begins;
      each success removes one wound.
    * All strain is removed; recovery checks add no band strain (the rest
      clears strain anyway, and a rest must never make things worse).
    * Recovery checks are the player's checks, so a natural 1 or 20 on them
      turns plot points like any other check. No plot points are spent here:
      a table that wants to spend them on a recovery check runs that wound
      through :class:`core.rules.d20check.flow.CheckFlow` instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.rules.d20check.check import (
    CheckResult,
    CheckSetup,
    Difficulty,
    resolve,
    roll_check,
)
from core.rules.d20check.events import Event, Rolled, RollReason, WoundsRecovered
from core.rules.d20check.naturals import natural_effects
from core.rules.d20check.plot_points import PlotPointPool
from core.rules.d20check.sheet import CharacterSheet
from core.rules.rng import Rng

DEFAULT_RECOVERY_DIFFICULTY = 10
DEFAULT_RECOVERY_SKILL = "Fortitude"


@dataclass(frozen=True)
class RecoveryCheck:
    """How each wound's recovery check is made (difficulty 10 Fortitude by default).

    Attributes:
        difficulty: the difficulty of every recovery check.
        skill: the proficiency added, if the character has it.
        ability: the ability rolled, or None for an average one.
        advantages, disadvantages: circumstances of the rest.
    """

    difficulty: int = DEFAULT_RECOVERY_DIFFICULTY
    skill: str | None = DEFAULT_RECOVERY_SKILL
    ability: str | None = None
    advantages: int = 0
    disadvantages: int = 0

    def setup_for(self, sheet: CharacterSheet) -> CheckSetup:
        return sheet.setup_for(self.ability, self.skill, self.advantages, self.disadvantages)


@dataclass(frozen=True)
class LongRest:
    """What a long rest did: the new sheet and pool, each check, and the events."""

    sheet: CharacterSheet
    pool: PlotPointPool
    checks: tuple[CheckResult, ...]
    events: tuple[Event, ...]

    @property
    def recovered(self) -> int:
        return sum(1 for check in self.checks if check.succeeded)


def long_rest(
    sheet: CharacterSheet,
    pool: PlotPointPool,
    rng: Rng,
    recovery: RecoveryCheck | None = None,
) -> LongRest:
    """Rest: clear strain, then roll one recovery check per wound.

    Raises:
        Malformed: the recovery check names an ability the sheet lacks, or
            has bad numbers. Nothing is rolled in that case.
    """
    recovery = recovery or RecoveryCheck()
    setup = recovery.setup_for(sheet)
    target = Difficulty(recovery.difficulty)
    events: list[Event] = []
    sheet, cleared = sheet.clear_strain()
    events.append(cleared)
    checks: list[CheckResult] = []
    for _ in range(sheet.wounds):
        result = resolve(roll_check(setup, rng), target)
        checks.append(result)
        events.append(Rolled(RollReason.RECOVERY, result))
        pool, natural_events = natural_effects(pool, result)
        events.extend(natural_events)
    recovered = sum(1 for check in checks if check.succeeded)
    if recovered:
        sheet, healed = sheet.heal_wounds(recovered)
        events.append(healed)
    events.append(WoundsRecovered(recovered))
    return LongRest(sheet=sheet, pool=pool, checks=tuple(checks), events=tuple(events))
