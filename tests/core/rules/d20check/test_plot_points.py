"""The shared pool: ruling 20, spending turns a point over, naturals turn one."""

from __future__ import annotations

import pytest

from core.rules.d20check.check import (
    CheckSetup,
    Difficulty,
    Natural,
    check_roll_from_faces,
    resolve,
)
from core.rules.d20check.events import GameMasterPicksEffect, PlotPointTurned
from core.rules.d20check.naturals import natural_effects
from core.rules.d20check.plot_points import PlotPointKind, PlotPointPool
from core.rules.errors import Malformed, NotAllowedNow

LUCKY, UNLUCKY = PlotPointKind.LUCKY, PlotPointKind.UNLUCKY


def test_ruling20_pool_size_is_players_including_the_gm() -> None:
    assert PlotPointPool.new_campaign(5).size == 5


def test_ruling20_new_campaign_starts_all_lucky() -> None:
    pool = PlotPointPool.new_campaign(4)
    assert (pool.lucky, pool.unlucky) == (4, 0)


def test_pool_needs_a_game_master_and_a_player() -> None:
    with pytest.raises(Malformed):
        PlotPointPool.new_campaign(1)
    with pytest.raises(Malformed):
        PlotPointPool(lucky=-1, unlucky=3)


def test_spending_a_lucky_point_turns_it_unlucky() -> None:
    assert PlotPointPool(3, 1).spend(LUCKY) == PlotPointPool(2, 2)


def test_spending_an_unlucky_point_turns_it_lucky() -> None:
    assert PlotPointPool(3, 1).spend(UNLUCKY) == PlotPointPool(4, 0)


def test_spending_a_kind_that_is_gone_is_not_allowed() -> None:
    with pytest.raises(NotAllowedNow, match="unlucky"):
        PlotPointPool(3, 0).spend(UNLUCKY)
    with pytest.raises(NotAllowedNow, match="lucky"):
        PlotPointPool(0, 3).spend(LUCKY)


def test_natural_1_turns_a_lucky_point_unlucky() -> None:
    assert PlotPointPool(3, 0).after_natural(Natural.ONE) == (PlotPointPool(2, 1), True)


def test_natural_20_turns_an_unlucky_point_lucky() -> None:
    assert PlotPointPool(1, 2).after_natural(Natural.TWENTY) == (PlotPointPool(2, 1), True)


def test_natural_1_without_a_lucky_point_changes_nothing_and_the_gm_picks() -> None:
    result = resolve(check_roll_from_faces(CheckSetup(), (1,), None), Difficulty(10))
    pool, events = natural_effects(PlotPointPool(0, 3), result)
    assert pool == PlotPointPool(0, 3)
    assert events == [GameMasterPicksEffect(Natural.ONE)]


def test_natural_20_without_an_unlucky_point_changes_nothing_and_the_gm_picks() -> None:
    result = resolve(check_roll_from_faces(CheckSetup(), (20,), None), Difficulty(10))
    pool, events = natural_effects(PlotPointPool(3, 0), result)
    assert pool == PlotPointPool(3, 0)
    assert events == [GameMasterPicksEffect(Natural.TWENTY)]


def test_natural_effect_reports_the_turned_point() -> None:
    result = resolve(check_roll_from_faces(CheckSetup(), (1,), None), Difficulty(10))
    assert natural_effects(PlotPointPool(2, 0), result) == (
        PlotPointPool(1, 1),
        [PlotPointTurned(Natural.ONE, UNLUCKY)],
    )


def test_no_natural_no_effect() -> None:
    result = resolve(check_roll_from_faces(CheckSetup(), (7,), None), Difficulty(10))
    assert natural_effects(PlotPointPool(2, 0), result) == (PlotPointPool(2, 0), [])


def test_pool_round_trips_and_rejects_junk() -> None:
    pool = PlotPointPool(2, 3)
    assert PlotPointPool.from_dict(pool.to_dict()) == pool
    with pytest.raises(Malformed):
        PlotPointPool.from_dict({"lucky": "two"})
