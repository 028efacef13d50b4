"""The long rest: strain cleared, one recovery check per wound."""

from __future__ import annotations

import pytest

from core.rules.d20check.check import AbilityStrength
from core.rules.d20check.events import PlotPointTurned, WoundsRecovered
from core.rules.d20check.plot_points import PlotPointPool
from core.rules.d20check.rest import RecoveryCheck, long_rest
from core.rules.d20check.sheet import CharacterSheet
from core.rules.errors import Malformed
from core.rules.rng import ScriptedRng


def test_long_rest_removes_all_strain() -> None:
    rest = long_rest(CharacterSheet("Ana", strain=3), PlotPointPool(2, 0), ScriptedRng([]))
    assert rest.sheet.strain == 0
    assert rest.checks == ()


def test_long_rest_rolls_one_recovery_check_per_wound() -> None:
    rng = ScriptedRng([10, 9, 15])
    rest = long_rest(CharacterSheet("Ana", wounds=3), PlotPointPool(2, 0), rng)
    assert len(rest.checks) == 3
    assert rng.remaining == 0


def test_recovery_success_removes_a_wound_default_difficulty_10() -> None:
    rest = long_rest(CharacterSheet("Ana", wounds=3), PlotPointPool(2, 0), ScriptedRng([10, 9, 15]))
    assert rest.recovered == 2
    assert rest.sheet.wounds == 1
    assert rest.events[-1] == WoundsRecovered(2)


def test_recovery_adds_fortitude_by_default() -> None:
    sheet = CharacterSheet("Ana", wounds=1).with_proficiency("Fortitude", 2)
    rest = long_rest(sheet, PlotPointPool(2, 0), ScriptedRng([8]))
    assert rest.sheet.wounds == 0


def test_recovery_difficulty_skill_and_ability_may_vary() -> None:
    sheet = (
        CharacterSheet("Ana", wounds=1)
        .with_ability("Grit", AbilityStrength.STRONG)
        .with_proficiency("Medicine", 1)
    )
    recovery = RecoveryCheck(difficulty=14, skill="Medicine", ability="Grit")
    rest = long_rest(sheet, PlotPointPool(2, 0), ScriptedRng([3, 13]), recovery)
    assert rest.checks[0].roll.total == 14
    assert rest.sheet.wounds == 0


def test_recovery_checks_add_no_band_strain() -> None:
    rest = long_rest(CharacterSheet("Ana", wounds=14), PlotPointPool(2, 0), ScriptedRng([2] * 14))
    assert (rest.sheet.strain, rest.sheet.wounds) == (0, 14)


def test_recovery_naturals_turn_plot_points() -> None:
    rest = long_rest(CharacterSheet("Ana", wounds=2), PlotPointPool(2, 0), ScriptedRng([1, 12]))
    assert rest.pool == PlotPointPool(1, 1)
    assert any(isinstance(event, PlotPointTurned) for event in rest.events)


def test_unknown_recovery_ability_draws_no_dice() -> None:
    rng = ScriptedRng([10])
    with pytest.raises(Malformed):
        long_rest(
            CharacterSheet("Ana", wounds=1), PlotPointPool(2, 0), rng, RecoveryCheck(ability="X")
        )
    assert rng.remaining == 1
