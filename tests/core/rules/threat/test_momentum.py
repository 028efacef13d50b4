"""The Momentum track (Core Rules: Momentum; ruling 16)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import NotAllowedNow
from core.rules.threat import momentum as track
from core.rules.threat.momentum import MomentumChange


def test_ruling16_track_starts_at_two() -> None:
    assert track.MOMENTUM_START == 2


def test_ruling16_gain_stops_at_six() -> None:
    assert track.gain(5, 3) == MomentumChange(5, 6)
    assert track.gain(2) == MomentumChange(2, 3)


def test_loss_moves_down() -> None:
    assert track.lose(3) == MomentumChange(3, 2)
    assert track.lose(1) == MomentumChange(1, 0)


def test_ruling16_below_zero_gives_one_harm_and_resets() -> None:
    assert track.lose(0) == MomentumChange(0, 2, harm=1)
    assert track.lose(1, 4) == MomentumChange(1, 2, harm=1)


def test_ruling16_burn_needs_four() -> None:
    assert not track.can_burn(3)
    assert track.can_burn(4)
    with pytest.raises(NotAllowedNow):
        track.burn(3)


def test_ruling16_burn_resets_to_two() -> None:
    assert track.burn(6) == MomentumChange(6, 2)


def test_momentum_instead_of_harm_not_at_zero() -> None:
    assert track.lose_instead_of_harm(1) == MomentumChange(1, 0)
    with pytest.raises(NotAllowedNow):
        track.lose_instead_of_harm(0)


def test_track_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        track.check_momentum(7)
    with pytest.raises(ValueError):
        track.check_momentum(-1)


@given(st.integers(0, 6), st.integers(0, 10), st.booleans())
def test_ruling16_track_always_stays_within_zero_to_six(value: int, amount: int, up: bool) -> None:
    change = track.gain(value, amount) if up else track.lose(value, amount)
    assert 0 <= change.after <= 6
    assert change.harm in (0, 1)
