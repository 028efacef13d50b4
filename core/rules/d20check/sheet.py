"""A character sheet for d20 checks: abilities, proficiencies, strain, wounds.

Invariants:
    * Names of abilities and of proficiencies are non-empty, at most 40
      characters, and unique within their list ignoring case.
    * ``0 <= strain <= 3`` and ``0 <= wounds <= 16`` (see ``wounds``).
    * Every change returns a new sheet; harm changes also return an event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from core.rules.d20check.check import MAX_PROFICIENCY, AbilityStrength, CheckSetup
from core.rules.d20check.events import HarmChanged
from core.rules.d20check.wounds import MAX_STRAIN, MAX_WOUNDS, WoundBand, add_harm, band_for
from core.rules.errors import Malformed

MAX_NAME = 40


NO_NAME = {
    "ability": "Give the ability a name.",
    "proficiency": "Give the proficiency a name.",
    "character": "Give the character a name.",
}
LONG_NAME = {
    "ability": "Keep the ability name to {limit} characters.",
    "proficiency": "Keep the proficiency name to {limit} characters.",
    "character": "Keep the character name to {limit} characters.",
}
WHOLE_NUMBER = {
    "A proficiency bonus": "A proficiency bonus must be a whole number from {low} to {high}.",
    "Strain": "Strain must be a whole number from {low} to {high}.",
    "Wounds": "Wounds must be a whole number from {low} to {high}.",
    "Strain to add": "Strain to add must be a whole number from {low} to {high}.",
    "Wounds to add": "Wounds to add must be a whole number from {low} to {high}.",
    "Wounds to heal": "Wounds to heal must be a whole number from {low} to {high}.",
}
NOT_UNIQUE = {
    "ability": "Each ability can appear only once.",
    "proficiency": "Each proficiency can appear only once.",
}


def _clean_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise Malformed(NO_NAME[what])
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_NAME:
        raise Malformed(LONG_NAME[what], limit=MAX_NAME)
    return cleaned


def _whole(value: object, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Malformed(WHOLE_NUMBER[what], low=low, high=high)
    return value


@dataclass(frozen=True)
class Ability:
    name: str
    strength: AbilityStrength

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", _clean_name(self.name, "ability"))
        if not isinstance(self.strength, AbilityStrength):
            raise Malformed("Pick a weak, average or strong ability.")


@dataclass(frozen=True)
class Proficiency:
    name: str
    bonus: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", _clean_name(self.name, "proficiency"))
        _whole(self.bonus, "A proficiency bonus", 0, MAX_PROFICIENCY)


def _unique(names: list[str], what: str) -> None:
    folded = [name.casefold() for name in names]
    if len(set(folded)) != len(folded):
        raise Malformed(NOT_UNIQUE[what])


@dataclass(frozen=True)
class CharacterSheet:
    """One character's check-relevant sheet.

    Raises:
        Malformed: duplicate names or strain/wounds out of range.
    """

    name: str
    abilities: tuple[Ability, ...] = ()
    proficiencies: tuple[Proficiency, ...] = ()
    strain: int = 0
    wounds: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", _clean_name(self.name, "character"))
        object.__setattr__(self, "abilities", tuple(self.abilities))
        object.__setattr__(self, "proficiencies", tuple(self.proficiencies))
        _unique([a.name for a in self.abilities], "ability")
        _unique([p.name for p in self.proficiencies], "proficiency")
        _whole(self.strain, "Strain", 0, MAX_STRAIN)
        _whole(self.wounds, "Wounds", 0, MAX_WOUNDS)

    @property
    def band(self) -> WoundBand:
        return band_for(self.wounds)

    def ability_strength(self, name: str) -> AbilityStrength:
        """The strength of the named ability.

        Raises:
            Malformed: the sheet has no such ability.
        """
        for ability in self.abilities:
            if ability.name.casefold() == name.strip().casefold():
                return ability.strength
        raise Malformed(
            "{character} has no ability called “{name}”.", character=self.name, name=name
        )

    def proficiency_bonus(self, name: str | None) -> int:
        """The bonus for a skill or tool; 0 without that proficiency."""
        if name is None:
            return 0
        for proficiency in self.proficiencies:
            if proficiency.name.casefold() == name.strip().casefold():
                return proficiency.bonus
        return 0

    def setup_for(
        self,
        ability: str | None,
        proficiency: str | None = None,
        advantages: int = 0,
        disadvantages: int = 0,
    ) -> CheckSetup:
        """A check setup from this sheet; no ability means an average one."""
        strength = AbilityStrength.AVERAGE if ability is None else self.ability_strength(ability)
        return CheckSetup(
            ability=strength,
            proficiency=self.proficiency_bonus(proficiency),
            advantages=advantages,
            disadvantages=disadvantages,
        )

    def with_ability(self, name: str, strength: AbilityStrength) -> CharacterSheet:
        """Add the ability, or change its strength if it is there."""
        new = Ability(name, strength)
        kept = tuple(a for a in self.abilities if a.name.casefold() != new.name.casefold())
        return replace(self, abilities=(*kept, new))

    def without_ability(self, name: str) -> CharacterSheet:
        folded = name.strip().casefold()
        return replace(
            self, abilities=tuple(a for a in self.abilities if a.name.casefold() != folded)
        )

    def with_proficiency(self, name: str, bonus: int) -> CharacterSheet:
        """Add the proficiency, or change its bonus if it is there."""
        new = Proficiency(name, bonus)
        kept = tuple(p for p in self.proficiencies if p.name.casefold() != new.name.casefold())
        return replace(self, proficiencies=(*kept, new))

    def without_proficiency(self, name: str) -> CharacterSheet:
        folded = name.strip().casefold()
        return replace(
            self,
            proficiencies=tuple(p for p in self.proficiencies if p.name.casefold() != folded),
        )

    def take_harm(self, strain: int = 0, wounds: int = 0) -> tuple[CharacterSheet, HarmChanged]:
        """Add strain and wounds (every 4 strain becomes a wound).

        Raises:
            Malformed: a negative amount (healing has its own methods).
        """
        _whole(strain, "Strain to add", 0, 1000)
        _whole(wounds, "Wounds to add", 0, 1000)
        harm = add_harm(self.strain, self.wounds, strain, wounds)
        return self._moved(harm.strain, harm.wounds, harm.lost)

    def heal_wounds(self, count: int) -> tuple[CharacterSheet, HarmChanged]:
        """Remove up to ``count`` wounds."""
        _whole(count, "Wounds to heal", 0, 1000)
        return self._moved(self.strain, max(0, self.wounds - count), 0)

    def clear_strain(self) -> tuple[CharacterSheet, HarmChanged]:
        """Remove all strain, as a long rest does."""
        return self._moved(0, self.wounds, 0)

    def _moved(self, strain: int, wounds: int, lost: int) -> tuple[CharacterSheet, HarmChanged]:
        event = HarmChanged(
            strain_before=self.strain,
            wounds_before=self.wounds,
            strain_after=strain,
            wounds_after=wounds,
            wounds_lost_past_limit=lost,
        )
        return replace(self, strain=strain, wounds=wounds), event

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "abilities": [{"name": a.name, "strength": a.strength.value} for a in self.abilities],
            "proficiencies": [{"name": p.name, "bonus": p.bonus} for p in self.proficiencies],
            "strain": self.strain,
            "wounds": self.wounds,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> CharacterSheet:
        """Rebuild a sheet from :meth:`to_dict` output.

        Raises:
            Malformed: a field is missing or invalid.
        """
        try:
            abilities_data = data["abilities"]
            proficiencies_data = data["proficiencies"]
            if not isinstance(abilities_data, list) or not isinstance(proficiencies_data, list):
                raise TypeError("lists expected")
            abilities = tuple(
                Ability(item["name"], AbilityStrength(item["strength"])) for item in abilities_data
            )
            proficiencies = tuple(
                Proficiency(item["name"], item["bonus"]) for item in proficiencies_data
            )
            name = data["name"]
            strain = data["strain"]
            wounds = data["wounds"]
        except (KeyError, TypeError, ValueError) as exc:
            raise Malformed("That character sheet could not be read.") from exc
        if not isinstance(name, str) or not isinstance(strain, int) or not isinstance(wounds, int):
            raise Malformed("That character sheet could not be read.")
        return cls(name, abilities, proficiencies, strain, wounds)
