"""Strain, wounds and the wound bands.

Invariants:
    * Strain is 0..3 at rest: every 4 strain becomes 1 wound at once.
    * Wounds are 0..16; the 16th wound is a Near-Death Experience and wounds
      past it are not recorded (the event reports them).
    * The band depends only on the wound count: 0 none, 1-4 Exhausted,
      5-8 Injured, 9-12 Severely Injured, 13-15 Dying, 16 Near-Death Experience.
    * Strain a check adds depends on the band when the check ends and whether
      it succeeded: Injured +1 on a failure; Severely Injured +1 always; Dying
      +1 always and +1 more on a failure. The text gives no check effect for
      Exhausted or a Near-Death Experience.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from core.rules.catalogue import N_

STRAIN_PER_WOUND = 4
MAX_STRAIN = STRAIN_PER_WOUND - 1
NEAR_DEATH_WOUNDS = 16
MAX_WOUNDS = NEAR_DEATH_WOUNDS


class WoundBand(Enum):
    """How badly hurt a character is, by wound count."""

    UNHURT = "unhurt"
    EXHAUSTED = "exhausted"
    INJURED = "injured"
    SEVERELY_INJURED = "severely_injured"
    DYING = "dying"
    NEAR_DEATH = "near_death"

    @property
    def label(self) -> str:
        """The band's name as the rulebook writes it (translated where shown)."""
        return _LABELS[self]


_LABELS = {
    WoundBand.UNHURT: N_("Unhurt"),
    WoundBand.EXHAUSTED: N_("Exhausted"),
    WoundBand.INJURED: N_("Injured"),
    WoundBand.SEVERELY_INJURED: N_("Severely Injured"),
    WoundBand.DYING: N_("Dying"),
    WoundBand.NEAR_DEATH: N_("Near-Death Experience"),
}


def band_for(wounds: int) -> WoundBand:
    """The band for a wound count (counts past 16 are a Near-Death Experience)."""
    if wounds <= 0:
        return WoundBand.UNHURT
    if wounds <= 4:
        return WoundBand.EXHAUSTED
    if wounds <= 8:
        return WoundBand.INJURED
    if wounds <= 12:
        return WoundBand.SEVERELY_INJURED
    if wounds < NEAR_DEATH_WOUNDS:
        return WoundBand.DYING
    return WoundBand.NEAR_DEATH


def strain_from_check(band: WoundBand, succeeded: bool) -> int:
    """The strain a finished check adds to a character in ``band``."""
    if band is WoundBand.INJURED:
        return 0 if succeeded else 1
    if band is WoundBand.SEVERELY_INJURED:
        return 1
    if band is WoundBand.DYING:
        return 1 if succeeded else 2
    return 0


@dataclass(frozen=True)
class Harm:
    """Strain and wounds after adding; ``lost`` counts wounds past the last box."""

    strain: int
    wounds: int
    lost: int = 0


def add_harm(strain: int, wounds: int, more_strain: int = 0, more_wounds: int = 0) -> Harm:
    """Add strain and wounds, turning every 4 strain into a wound, capped at 16 wounds."""
    total_strain = strain + more_strain
    raw_wounds = wounds + more_wounds + total_strain // STRAIN_PER_WOUND
    return Harm(
        strain=total_strain % STRAIN_PER_WOUND,
        wounds=min(raw_wounds, MAX_WOUNDS),
        lost=max(0, raw_wounds - MAX_WOUNDS),
    )
