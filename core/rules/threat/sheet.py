"""The threat dice character sheet: approaches, Momentum, harm and notes.

Invariants (checked on every construction, so a Sheet is always valid):
- At most 12 approaches; names are 1..24 characters after trimming and unique
  ignoring case; values run 0..6 (a pool above 6 dice needs no roll anyway).
- Momentum is on the 0..6 track (starts at 2).
- Harm runs 0..9; more harm than that is not recorded (the track is full).
- Notes hold at most 4000 characters.
Every change returns a new Sheet; invalid input raises :class:`Malformed` and
an impossible change raises :class:`NotAllowedNow`, leaving nothing changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from core.rules.errors import Malformed
from core.rules.threat import momentum as track
from core.rules.threat.momentum import MOMENTUM_MAX, MOMENTUM_MIN, MOMENTUM_START, MomentumChange
from core.rules.threat.roll import MAX_HARM

MAX_APPROACHES = 12
MAX_APPROACH_NAME = 24
MAX_APPROACH_VALUE = 6
MAX_NOTES = 4000


@dataclass(frozen=True)
class Approach:
    """A named approach and its value (the number of action dice)."""

    name: str
    value: int

    def __post_init__(self) -> None:
        name = self.name.strip()
        if not 1 <= len(name) <= MAX_APPROACH_NAME:
            raise Malformed(
                "An approach name needs 1 to {limit} characters.", limit=MAX_APPROACH_NAME
            )
        if not 0 <= self.value <= MAX_APPROACH_VALUE:
            raise Malformed("An approach value runs from 0 to {limit}.", limit=MAX_APPROACH_VALUE)
        object.__setattr__(self, "name", name)


@dataclass(frozen=True)
class Sheet:
    """One character's threat dice sheet."""

    approaches: tuple[Approach, ...] = ()
    momentum: int = MOMENTUM_START
    harm: int = 0
    notes: str = ""

    def __post_init__(self) -> None:
        if len(self.approaches) > MAX_APPROACHES:
            raise Malformed("A sheet holds at most {limit} approaches.", limit=MAX_APPROACHES)
        keys = [a.name.casefold() for a in self.approaches]
        if len(set(keys)) != len(keys):
            raise Malformed("Two approaches have the same name.")
        if not MOMENTUM_MIN <= self.momentum <= MOMENTUM_MAX:
            raise Malformed(
                "Momentum runs from {low} to {high}.", low=MOMENTUM_MIN, high=MOMENTUM_MAX
            )
        if not 0 <= self.harm <= MAX_HARM:
            raise Malformed("Harm runs from 0 to {limit}.", limit=MAX_HARM)
        if len(self.notes) > MAX_NOTES:
            raise Malformed("Notes hold at most {limit} characters.", limit=MAX_NOTES)

    def approach(self, name: str) -> Approach:
        """The approach called ``name`` (ignoring case).

        Raises:
            Malformed: no such approach.
        """
        key = name.strip().casefold()
        for approach in self.approaches:
            if approach.name.casefold() == key:
                return approach
        raise Malformed("There is no approach called “{name}” on this sheet.", name=name.strip())

    def with_approach(self, name: str, value: int) -> Sheet:
        """Add an approach, or set the value of the one with that name."""
        new = Approach(name, value)
        key = new.name.casefold()
        kept = tuple(a for a in self.approaches if a.name.casefold() != key)
        if len(kept) == len(self.approaches):
            return replace(self, approaches=(*self.approaches, new))
        return replace(
            self,
            approaches=tuple(new if a.name.casefold() == key else a for a in self.approaches),
        )

    def without_approach(self, name: str) -> Sheet:
        """Remove an approach.

        Raises:
            Malformed: no such approach.
        """
        gone = self.approach(name)
        return replace(self, approaches=tuple(a for a in self.approaches if a != gone))

    def with_notes(self, notes: str) -> Sheet:
        return replace(self, notes=notes)

    def with_momentum(self, value: int) -> Sheet:
        """Set the track directly (the GM's or the player's correction)."""
        return replace(self, momentum=value)

    def after(self, change: MomentumChange) -> Sheet:
        """Apply a Momentum change (and its harm) reported by a roll or a ruling."""
        return replace(self, momentum=change.after).take_harm(change.harm)

    def gain_momentum(self, amount: int = 1) -> tuple[Sheet, MomentumChange]:
        """+amount Momentum, up to 6."""
        if amount < 1:
            raise Malformed("Gain at least 1 Momentum.")
        change = track.gain(self.momentum, amount)
        return self.after(change), change

    def lose_momentum(self, amount: int = 1) -> tuple[Sheet, MomentumChange]:
        """-amount Momentum; below 0 the character takes 1 harm and the track resets."""
        if amount < 1:
            raise Malformed("Lose at least 1 Momentum.")
        change = track.lose(self.momentum, amount)
        return self.after(change), change

    def lose_momentum_instead_of_harm(self) -> tuple[Sheet, MomentumChange]:
        """Pay 1 Momentum instead of taking 1 harm.

        Raises:
            NotAllowedNow: Momentum is at 0.
        """
        change = track.lose_instead_of_harm(self.momentum)
        return self.after(change), change

    def take_harm(self, amount: int = 1) -> Sheet:
        """Mark harm; the track stops at 9."""
        if amount < 0:
            raise Malformed("Harm taken cannot be negative.")
        return replace(self, harm=min(self.harm + amount, MAX_HARM))

    def heal(self, amount: int = 1) -> Sheet:
        """Clear harm; it stops at 0."""
        if amount < 0:
            raise Malformed("Harm healed cannot be negative.")
        return replace(self, harm=max(self.harm - amount, 0))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back."""
        return {
            "approaches": [[a.name, a.value] for a in self.approaches],
            "momentum": self.momentum,
            "harm": self.harm,
            "notes": self.notes,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sheet:
        """Read a sheet written by :meth:`to_dict`.

        Raises:
            Malformed: the data is not a valid sheet.
        """
        try:
            approaches = tuple(
                Approach(_str(name), _int(value)) for name, value in data["approaches"]
            )
            return cls(
                approaches=approaches,
                momentum=_int(data["momentum"]),
                harm=_int(data["harm"]),
                notes=_str(data["notes"]),
            )
        except (KeyError, TypeError, ValueError):
            raise Malformed("This character sheet can't be read.") from None


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected an int")
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("expected a str")
    return value
