"""Character sheets for Leads and Features, and the campaign settings.

A sheet holds Values (the why), Relationships (the who), Assets (the how:
Distinctions, Abilities, Heritage), Resources (Extras and Locations, used as
Aid), Limits (opponents may use them), Stress by type, Plot Points, the Growth
pool and Special Effects bought with it.

Invariants: names are non-empty, at most :data:`MAX_NAME` characters, and
unique (ignoring case) within each list; Plot Points are never negative; each
Stress type appears at most once; every rating is a :class:`Die`. A Feature's
Plot Points are not tracked (the Watchtower's supply is endless).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from core.rules.cortex import codec
from core.rules.cortex.dice import Die
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.said import Joined, Term

MAX_NAME = 60
MAX_PLOT_POINTS = 99
MAX_TRAITS = 20
DEFAULT_STRESS_TYPES: tuple[str, ...] = ("Afraid", "Angry", "Exhausted", "Injured", "Insecure")
"""A new campaign's Stress types, kept as these English words (the edges word them)."""
STRESS_TYPE_CONTEXT = "a Cortex Stress type"
"""The catalogue context of :data:`DEFAULT_STRESS_TYPES`' names."""


def stress_term(name: str) -> str:
    """A Stress type as a refusal names it: a default type as a catalogue :class:`Term`
    (the reader's word), any other as written."""
    return Term(STRESS_TYPE_CONTEXT, name) if name in DEFAULT_STRESS_TYPES else name


class Role(Enum):
    """Who plays the character: a player's Lead or one of the Watchtower's Features."""

    LEAD = "lead"
    FEATURE = "feature"


class AssetKind(Enum):
    """The kinds of Asset that can fill the how box."""

    DISTINCTION = "distinction"
    ABILITY = "ability"
    HERITAGE = "heritage"


class ResourceKind(Enum):
    """Resources are Extras (people) or Locations (places)."""

    EXTRA = "extra"
    LOCATION = "location"


NEEDS_NAME = {
    "Value": "A Value needs a name.",
    "Relationship": "A Relationship needs a name.",
    "Asset": "A Asset needs a name.",
    "Resource": "A Resource needs a name.",
    "Limit": "A Limit needs a name.",
    "Stress type": "A Stress type needs a name.",
    "character": "A character needs a name.",
    "Special Effect": "A Special Effect needs a name.",
}
TOO_LONG = {
    "Value": "A Value name is at most {most} characters.",
    "Relationship": "A Relationship name is at most {most} characters.",
    "Asset": "A Asset name is at most {most} characters.",
    "Resource": "A Resource name is at most {most} characters.",
    "Limit": "A Limit name is at most {most} characters.",
    "Stress type": "A Stress type name is at most {most} characters.",
    "character": "A character name is at most {most} characters.",
    "Special Effect": "A Special Effect name is at most {most} characters.",
}
TWO_CALLED = {
    "Value": "There are two Values called “{name}”.",
    "Relationship": "There are two Relationships called “{name}”.",
    "Asset": "There are two Assets called “{name}”.",
    "Resource": "There are two Resources called “{name}”.",
    "Limit": "There are two Limits called “{name}”.",
    "Stress type": "There are two Stress types called “{name}”.",
}
AT_MOST = {
    "Value": "A sheet holds at most {most} Values.",
    "Relationship": "A sheet holds at most {most} Relationships.",
    "Asset": "A sheet holds at most {most} Assets.",
    "Resource": "A sheet holds at most {most} Resources.",
    "Limit": "A sheet holds at most {most} Limits.",
    "Stress type": "A sheet holds at most {most} Stress types.",
}
"""The refusals of a name, by what is named (each a sentence of the catalogue)."""


def _check_name(name: str, what: str) -> None:
    if not name.strip():
        raise Malformed(NEEDS_NAME[what])
    if len(name) > MAX_NAME:
        raise Malformed(TOO_LONG[what], most=MAX_NAME)


def _check_unique(names: list[str], what: str) -> None:
    seen: set[str] = set()
    for name in names:
        key = name.strip().casefold()
        if key in seen:
            raise Malformed(TWO_CALLED[what], name=name)
        seen.add(key)
    if len(names) > MAX_TRAITS:
        raise Malformed(AT_MOST[what], most=MAX_TRAITS)


def same_name(a: str, b: str) -> bool:
    """Trait names compare without case or surrounding spaces."""
    return a.strip().casefold() == b.strip().casefold()


@dataclass(frozen=True)
class Value:
    """A Value (a Drive): why the character acts. A challenged one waits for the episode's end."""

    name: str
    die: Die
    challenged: bool = False

    def __post_init__(self) -> None:
        _check_name(self.name, "Value")


@dataclass(frozen=True)
class Relationship:
    """Who the character acts for, with or against."""

    name: str
    die: Die

    def __post_init__(self) -> None:
        _check_name(self.name, "Relationship")


@dataclass(frozen=True)
class Asset:
    """How the character acts: a Distinction, Ability or Heritage."""

    name: str
    die: Die
    kind: AssetKind = AssetKind.DISTINCTION

    def __post_init__(self) -> None:
        _check_name(self.name, "Asset")


@dataclass(frozen=True)
class Resource:
    """An Extra or Location. It aids with two dice of its rating; using both uses it up."""

    name: str
    die: Die
    kind: ResourceKind = ResourceKind.EXTRA
    used_up: bool = False

    def __post_init__(self) -> None:
        _check_name(self.name, "Resource")


@dataclass(frozen=True)
class Limit:
    """A weakness; an opponent who uses it adds three dice of its rating."""

    name: str
    die: Die

    def __post_init__(self) -> None:
        _check_name(self.name, "Limit")


@dataclass(frozen=True)
class StressEntry:
    """Stress of one type at one die rating."""

    type: str
    die: Die

    def __post_init__(self) -> None:
        _check_name(self.type, "Stress type")


@dataclass(frozen=True)
class CortexSettings:
    """Table preferences. Default Stress types follow ruling 18."""

    stress_types: tuple[str, ...] = DEFAULT_STRESS_TYPES

    def __post_init__(self) -> None:
        if not self.stress_types:
            raise Malformed("A campaign needs at least one Stress type.")
        for name in self.stress_types:
            _check_name(name, "Stress type")
        _check_unique(list(self.stress_types), "Stress type")

    def stress_type(self, name: str) -> str:
        """The campaign's spelling of a Stress type.

        Raises:
            Malformed: not a Stress type of this campaign.
        """
        for known in self.stress_types:
            if same_name(known, name):
                return known
        raise Malformed(
            "“{name}” is not a Stress type here. Use one of: {types}.",
            name=name[:MAX_NAME],
            types=Joined(", ", [stress_term(t) for t in self.stress_types]),
        )


@dataclass(frozen=True)
class Sheet:
    """One Lead's or Feature's traits and tracks (a validated value)."""

    name: str
    role: Role = Role.LEAD
    values: tuple[Value, ...] = ()
    relationships: tuple[Relationship, ...] = ()
    assets: tuple[Asset, ...] = ()
    resources: tuple[Resource, ...] = ()
    limits: tuple[Limit, ...] = ()
    stress: tuple[StressEntry, ...] = ()
    plot_points: int = 1
    growth: tuple[Die, ...] = ()
    special_effects: tuple[str, ...] = field(default=())
    stressed_out: bool = False

    def __post_init__(self) -> None:
        _check_name(self.name, "character")
        _check_unique([v.name for v in self.values], "Value")
        _check_unique([r.name for r in self.relationships], "Relationship")
        _check_unique([a.name for a in self.assets], "Asset")
        _check_unique([r.name for r in self.resources], "Resource")
        _check_unique([lim.name for lim in self.limits], "Limit")
        _check_unique([s.type for s in self.stress], "Stress type")
        if not 0 <= self.plot_points <= MAX_PLOT_POINTS:
            raise Malformed("Plot Points go from 0 to {most}.", most=MAX_PLOT_POINTS)
        if len(self.growth) > MAX_TRAITS * 5:
            raise Malformed("The Growth pool is too big.")
        for effect in self.special_effects:
            _check_name(effect, "Special Effect")

    @property
    def is_lead(self) -> bool:
        return self.role is Role.LEAD

    def to_dict(self) -> dict[str, object]:
        """JSON-ready sheet (for the Mini App)."""
        data = codec.dump(self)
        assert isinstance(data, dict)
        return data

    @classmethod
    def from_dict(cls, data: object) -> Sheet:
        """A validated sheet from JSON data.

        Raises:
            Malformed: missing fields, bad dice, duplicate names, negative Plot Points.
        """
        return codec.load(cls, data)

    def value(self, name: str) -> Value:
        for item in self.values:
            if same_name(item.name, name):
                return item
        raise NotAllowedNow(
            "{name} has no Value called “{trait}”.", name=self.name, trait=name[:MAX_NAME]
        )

    def relationship(self, name: str) -> Relationship:
        for item in self.relationships:
            if same_name(item.name, name):
                return item
        raise NotAllowedNow(
            "{name} has no Relationship with “{trait}”.", name=self.name, trait=name[:MAX_NAME]
        )

    def asset(self, name: str) -> Asset:
        for item in self.assets:
            if same_name(item.name, name):
                return item
        raise NotAllowedNow(
            "{name} has no Asset called “{trait}”.", name=self.name, trait=name[:MAX_NAME]
        )

    def resource(self, name: str) -> Resource:
        for item in self.resources:
            if same_name(item.name, name):
                return item
        raise NotAllowedNow(
            "{name} has no Resource called “{trait}”.", name=self.name, trait=name[:MAX_NAME]
        )

    def limit(self, name: str) -> Limit:
        for item in self.limits:
            if same_name(item.name, name):
                return item
        raise NotAllowedNow(
            "{name} has no Limit called “{trait}”.", name=self.name, trait=name[:MAX_NAME]
        )

    def stress_of(self, stress_type: str) -> Die | None:
        """This character's Stress of that type, or ``None``."""
        for entry in self.stress:
            if same_name(entry.type, stress_type):
                return entry.die
        return None

    def with_stress(self, stress_type: str, die: Die | None) -> Sheet:
        """A copy with that Stress set to ``die`` (``None`` clears it)."""
        kept = tuple(s for s in self.stress if not same_name(s.type, stress_type))
        added = () if die is None else (StressEntry(stress_type, die),)
        return replace(self, stress=tuple(sorted(kept + added, key=lambda s: s.type)))

    def gain_plot_points(self, amount: int) -> Sheet:
        """A copy with more Plot Points (Features do not track them)."""
        if not self.is_lead or amount == 0:
            return self
        return replace(self, plot_points=min(self.plot_points + amount, MAX_PLOT_POINTS))

    def spend_plot_points(self, amount: int) -> Sheet:
        """A copy with ``amount`` fewer Plot Points.

        Raises:
            NotAllowedNow: a Lead without enough Plot Points.
        """
        if not self.is_lead or amount == 0:
            return self
        if amount > self.plot_points:
            if amount == 1:
                raise NotAllowedNow(
                    "{name} needs 1 Plot Point and has {has}.", name=self.name, has=self.plot_points
                )
            raise NotAllowedNow(
                "{name} needs {amount} Plot Points and has {has}.",
                name=self.name,
                amount=amount,
                has=self.plot_points,
            )
        return replace(self, plot_points=self.plot_points - amount)

    def with_value_challenged(self, name: str) -> Sheet:
        value = self.value(name)
        values = tuple(replace(v, challenged=True) if v is value else v for v in self.values)
        return replace(self, values=values, growth=(*self.growth, value.die))

    def with_resource_used_up(self, name: str) -> Sheet:
        resource = self.resource(name)
        resources = tuple(replace(r, used_up=True) if r is resource else r for r in self.resources)
        return replace(self, resources=resources)

    def with_resource_restored(self, name: str) -> Sheet:
        """A copy with a used-up Resource ready again (when the table says so)."""
        resource = self.resource(name)
        resources = tuple(replace(r, used_up=False) if r is resource else r for r in self.resources)
        return replace(self, resources=resources)

    def spend_growth(self, die: Die, special_effect: str) -> Sheet:
        """Spend one Growth die (any size) for a new Special Effect.

        Raises:
            NotAllowedNow: no die of that size in the Growth pool.
        """
        _check_name(special_effect, "Special Effect")
        if die not in self.growth:
            raise NotAllowedNow(
                "{name} has no {die} in the Growth pool.", name=self.name, die=die.label
            )
        growth = list(self.growth)
        growth.remove(die)
        return replace(
            self, growth=tuple(growth), special_effects=(*self.special_effects, special_effect)
        )
