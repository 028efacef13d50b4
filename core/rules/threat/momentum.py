"""The Momentum track (ruling 16).

Invariants:
- The track holds 0..6 and starts at 2.
- Gains stop at 6; anything beyond is lost.
- A loss that would take the track below 0 gives exactly 1 harm and resets the
  track to 2, whatever the size of the loss.
- Burning needs 4 or more and resets the track to 2.
- Losing Momentum instead of taking harm is only possible above 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.rules.errors import NotAllowedNow

MOMENTUM_MIN = 0
MOMENTUM_MAX = 6
MOMENTUM_START = 2
MOMENTUM_RESET = 2
BURN_MINIMUM = 4


@dataclass(frozen=True)
class MomentumChange:
    """What a change to the track did.

    Attributes:
        before: the track before.
        after: the track after.
        harm: harm the character takes because of it (0 or 1).
    """

    before: int
    after: int
    harm: int = 0


def check_momentum(value: int) -> int:
    """Return ``value`` if it fits on the track.

    Raises:
        ValueError: outside 0..6 (callers validate user input before this).
    """
    if not MOMENTUM_MIN <= value <= MOMENTUM_MAX:
        raise ValueError(f"Momentum runs from {MOMENTUM_MIN} to {MOMENTUM_MAX}, got {value}")
    return value


def gain(value: int, amount: int = 1) -> MomentumChange:
    """Gain ``amount`` Momentum, stopping at the top of the track."""
    check_momentum(value)
    if amount < 0:
        raise ValueError("gain a positive amount; use lose() for losses")
    return MomentumChange(value, min(value + amount, MOMENTUM_MAX))


def lose(value: int, amount: int = 1) -> MomentumChange:
    """Lose ``amount`` Momentum; going below 0 gives 1 harm and resets the track."""
    check_momentum(value)
    if amount < 0:
        raise ValueError("lose a positive amount; use gain() for gains")
    if value - amount < MOMENTUM_MIN:
        return MomentumChange(value, MOMENTUM_RESET, harm=1)
    return MomentumChange(value, value - amount)


def can_burn(value: int) -> bool:
    """Whether the track is high enough to burn."""
    return check_momentum(value) >= BURN_MINIMUM


def burn(value: int) -> MomentumChange:
    """Spend the track on a roll: it resets to 2.

    Raises:
        NotAllowedNow: the track is below 4.
    """
    if not can_burn(value):
        raise NotAllowedNow(
            "Momentum {momentum} is too low to burn: you need {minimum}.",
            momentum=value,
            minimum=BURN_MINIMUM,
        )
    return MomentumChange(value, MOMENTUM_RESET)


def can_lose_instead_of_harm(value: int) -> bool:
    """Whether a loss of 1 Momentum may replace 1 harm (not at 0)."""
    return check_momentum(value) > MOMENTUM_MIN


def lose_instead_of_harm(value: int) -> MomentumChange:
    """Take -1 Momentum in place of 1 harm.

    Raises:
        NotAllowedNow: the track is at 0.
    """
    if not can_lose_instead_of_harm(value):
        raise NotAllowedNow("With no Momentum left, you take the harm.")
    return MomentumChange(value, value - 1)
