"""Details: the labels that record how the fiction changed.

Kinds: a *hard* detail changes a property of a person, place or thing and comes
from an Action Roll; a *soft* detail is a passing change that nobody writes
down; a *scene* detail changes the scenery or tactics and goes on the Arbiters'
scene list for the location. A granted hard detail may always be taken as a
soft or a scene detail instead, never the other way round.

Harm details are hard negative details written on a character's four harm
lines (see :mod:`core.rules.nsu.sheet`). NPCs and creatures usually fold after
one or two details; the Arbiters may give a tough one a harm threshold of 2..4,
and it is Overcome (out of the scene) when its harm count reaches it.

Invariants: detail names are non-empty, trimmed and at most
``MAX_DETAIL_LENGTH`` characters; an NPC never holds more harms than its
threshold (or four when it has none); scene lists hold only scene details.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from core.rules.catalogue import N_
from core.rules.errors import Malformed, NotAllowedNow

MAX_DETAIL_LENGTH = 60
MAX_HARMS = 4
NPC_THRESHOLD_RANGE = range(2, 5)


class DetailKind(enum.Enum):
    """How a detail enters the fiction."""

    HARD = "hard"
    SOFT = "soft"
    SCENE = "scene"


class Polarity(enum.Enum):
    """Whether a detail helps or hinders whoever carries it."""

    POSITIVE = "positive"
    NEGATIVE = "negative"


def clean_label(text: str, what: str = "A detail") -> str:
    """Trim a short label and check it is usable.

    Args:
        what: what the label names, as the refusal starts ("A mood", "Pronouns"...:
            a key of ``_LABEL_REFUSALS``).

    Raises:
        Malformed: the label is empty or too long.
    """
    label = " ".join(text.split())
    empty, too_long = _LABEL_REFUSALS.get(what, _LABEL_REFUSALS["A detail"])
    if not label:
        raise Malformed(empty)
    if len(label) > MAX_DETAIL_LENGTH:
        raise Malformed(too_long, limit=MAX_DETAIL_LENGTH)
    return label


# What clean_label refuses with, by what the label names: (empty, too long).
_LABEL_REFUSALS = {
    "A detail": (
        N_("A detail needs a few words."),
        N_("A detail should be short: at most {limit} characters."),
    ),
    "A mood": (
        N_("A mood needs a few words."),
        N_("A mood should be short: at most {limit} characters."),
    ),
    "A name": (
        N_("A name needs a few words."),
        N_("A name should be short: at most {limit} characters."),
    ),
    "A skill": (
        N_("A skill needs a few words."),
        N_("A skill should be short: at most {limit} characters."),
    ),
    "A sentiment": (
        N_("A sentiment needs a few words."),
        N_("A sentiment should be short: at most {limit} characters."),
    ),
    "A harm": (
        N_("A harm needs a few words."),
        N_("A harm should be short: at most {limit} characters."),
    ),
    "A scar": (
        N_("A scar needs a few words."),
        N_("A scar should be short: at most {limit} characters."),
    ),
    "Pronouns": (
        N_("Pronouns needs a few words."),
        N_("Pronouns should be short: at most {limit} characters."),
    ),
}


@dataclass(frozen=True)
class Detail:
    """One detail: a short label, a kind and a polarity."""

    name: str
    kind: DetailKind = DetailKind.HARD
    polarity: Polarity = Polarity.NEGATIVE

    def __post_init__(self) -> None:
        if self.name != clean_label(self.name):
            raise Malformed("A detail needs a short, trimmed label.")


def may_take_instead(granted: DetailKind, chosen: DetailKind) -> bool:
    """Whether a granted detail of kind ``granted`` may be added as ``chosen``.

    A hard grant may become a soft or a scene detail; other grants stay as they are.
    """
    return granted is chosen or granted is DetailKind.HARD


def needs_writing_down(kind: DetailKind) -> bool:
    """Hard and scene details are recorded; soft ones live in the conversation."""
    return kind is not DetailKind.SOFT


@dataclass(frozen=True)
class Npc:
    """A person or creature the characters deal with.

    Attributes:
        harm_threshold: None for an ordinary NPC (one or two details settle
            things), or 2..4 for a tough one that is Overcome at that many harms.
    """

    name: str
    details: tuple[Detail, ...] = ()
    harms: tuple[str, ...] = ()
    harm_threshold: int | None = None

    def __post_init__(self) -> None:
        clean_label(self.name, "A name")
        if self.harm_threshold is not None and self.harm_threshold not in NPC_THRESHOLD_RANGE:
            raise Malformed("A harm threshold is a number from 2 to 4.")
        if len(self.harms) > (self.harm_threshold or MAX_HARMS):
            raise Malformed("This NPC holds more harms than it can take.")
        for d in self.details:
            if d.kind is not DetailKind.HARD:
                raise Malformed("Only hard details are written on an NPC.")

    @property
    def overcome(self) -> bool:
        """True when a tough NPC has taken as many harms as its threshold."""
        return self.harm_threshold is not None and len(self.harms) >= self.harm_threshold

    def add_detail(self, detail: Detail) -> Npc:
        """Write a hard detail on the NPC.

        Raises:
            Malformed: the detail is not a hard one.
        """
        if detail.kind is not DetailKind.HARD:
            raise Malformed("Soft and scene details don't go on an NPC; note them in the scene.")
        return replace(self, details=(*self.details, detail))

    def remove_detail(self, index: int) -> Npc:
        """Cross out one written detail (the fiction changed it back)."""
        if not 0 <= index < len(self.details):
            raise Malformed("There is no such detail on this NPC.")
        return replace(self, details=self.details[:index] + self.details[index + 1 :])

    def add_harm(self, name: str) -> Npc:
        """Record a harm. Only NPCs with a threshold track harm.

        Raises:
            NotAllowedNow: the NPC has no threshold, or is already Overcome.
        """
        label = clean_label(name, "A harm")
        if self.harm_threshold is None:
            raise NotAllowedNow(
                f"{self.name} has no harm threshold: write the harm as an ordinary detail."
            )
        if self.overcome:
            raise NotAllowedNow("{name} is already Overcome.", name=self.name)
        return replace(self, harms=(*self.harms, label))

    def set_threshold(self, threshold: int | None) -> Npc:
        """Let the Arbiters declare (or drop) a harm threshold of 2..4."""
        if threshold is not None and threshold not in NPC_THRESHOLD_RANGE:
            raise Malformed("A harm threshold is a number from 2 to 4.")
        if threshold is not None and len(self.harms) > threshold:
            raise NotAllowedNow("That threshold is below the harm already taken.")
        harms = self.harms if threshold is not None else ()
        details = self.details
        if threshold is None:
            details = details + tuple(Detail(h) for h in self.harms)
        return replace(self, harm_threshold=threshold, harms=harms, details=details)


@dataclass(frozen=True)
class SceneDetails:
    """The Arbiters' list of scene details for one location."""

    details: tuple[Detail, ...] = ()

    def __post_init__(self) -> None:
        for d in self.details:
            if d.kind is not DetailKind.SCENE:
                raise Malformed("The scene list only holds scene details.")

    def add(self, detail: Detail) -> SceneDetails:
        """Add a scene detail.

        Raises:
            Malformed: the detail is not a scene detail.
        """
        if detail.kind is not DetailKind.SCENE:
            raise Malformed("Only scene details go on the scene list.")
        return SceneDetails((*self.details, detail))

    def remove(self, index: int) -> SceneDetails:
        """Drop a scene detail that no longer holds."""
        if not 0 <= index < len(self.details):
            raise Malformed("There is no such scene detail.")
        return SceneDetails(self.details[:index] + self.details[index + 1 :])
