"""One d20 check: the setup, the dice, the total and the margin.

A check rolls the d20 for the ability (weak: two, keep the lowest; average:
one; strong: two, keep the highest), adds the proficiency, then adds the
advantage die or subtracts the disadvantage die. Advantages and disadvantages
cancel one for one; the net count picks the die (1: d4, 2: d6, 3: d8, 4: d10,
5 or more: d12).

Invariants:
    * Every value here is immutable; rolling takes the RNG as an argument.
    * Dice are drawn in a fixed order: the d20s first, then the circumstance
      die. :func:`check_roll_from_faces` is the single place that turns faces
      into a result, so enumeration over faces covers every roll.
    * ``CheckRoll.kept`` is "the d20" for natural 1 and natural 20 (ruling 19).
    * Static checks succeed when ``total >= difficulty``. In a contest the
      highest total wins, so a tie is neither side's win (``Outcome.TIE``);
      a tie is treated as "not a success" wherever the rules speak of failing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from core.rules.errors import Malformed
from core.rules.rng import Rng, roll_die

MAX_PROFICIENCY = 20
MAX_CIRCUMSTANCES = 20
MIN_DIFFICULTY = 0
MAX_DIFFICULTY = 99

# Net advantage (or disadvantage) count -> sides of the die; 5 or more is a d12.
_DIE_BY_COUNT: Mapping[int, int] = {1: 4, 2: 6, 3: 8, 4: 10, 5: 12}


class AbilityStrength(Enum):
    """How strong the ability used for the check is."""

    WEAK = "weak"
    AVERAGE = "average"
    STRONG = "strong"

    @property
    def d20_count(self) -> int:
        """How many d20s this ability rolls."""
        return 1 if self is AbilityStrength.AVERAGE else 2

    def keep(self, d20s: Sequence[int]) -> int:
        """The d20 this ability keeps from ``d20s``."""
        if self is AbilityStrength.WEAK:
            return min(d20s)
        if self is AbilityStrength.STRONG:
            return max(d20s)
        return d20s[0]


class Natural(Enum):
    """A special face on the kept d20."""

    ONE = 1
    TWENTY = 20


class Outcome(Enum):
    """How a check ended against its target."""

    SUCCESS = "success"
    FAILURE = "failure"
    TIE = "tie"

    @property
    def succeeded(self) -> bool:
        """True only for a success; a contest tie is not a success."""
        return self is Outcome.SUCCESS


@dataclass(frozen=True)
class CircumstanceDie:
    """The advantage or disadvantage die: ``sign`` is +1 or -1."""

    sides: int
    sign: int

    @property
    def is_advantage(self) -> bool:
        return self.sign > 0


def circumstance_die(advantages: int, disadvantages: int) -> CircumstanceDie | None:
    """The die left after advantages and disadvantages cancel, or None."""
    net = advantages - disadvantages
    if net == 0:
        return None
    sides = _DIE_BY_COUNT[min(abs(net), 5)]
    return CircumstanceDie(sides=sides, sign=1 if net > 0 else -1)


NOT_WHOLE = {
    "Proficiency": "Proficiency must be a whole number.",
    "Advantages": "Advantages must be a whole number.",
    "Disadvantages": "Disadvantages must be a whole number.",
    "Difficulty": "Difficulty must be a whole number.",
    "The opposing result": "The opposing result must be a whole number.",
}
OUT_OF_RANGE = {
    "Proficiency": "Proficiency must be between {low} and {high}.",
    "Advantages": "Advantages must be between {low} and {high}.",
    "Disadvantages": "Disadvantages must be between {low} and {high}.",
    "Difficulty": "Difficulty must be between {low} and {high}.",
    "The opposing result": "The opposing result must be between {low} and {high}.",
}


def _check_count(value: object, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed(NOT_WHOLE[name])
    if not low <= value <= high:
        raise Malformed(OUT_OF_RANGE[name], low=low, high=high)
    return value


@dataclass(frozen=True)
class CheckSetup:
    """Everything the roller decides before the dice: ability, proficiency, circumstances.

    Raises:
        Malformed: a number is out of range or not a whole number.
    """

    ability: AbilityStrength = AbilityStrength.AVERAGE
    proficiency: int = 0
    advantages: int = 0
    disadvantages: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.ability, AbilityStrength):
            raise Malformed("Pick a weak, average or strong ability.")
        _check_count(self.proficiency, "Proficiency", 0, MAX_PROFICIENCY)
        _check_count(self.advantages, "Advantages", 0, MAX_CIRCUMSTANCES)
        _check_count(self.disadvantages, "Disadvantages", 0, MAX_CIRCUMSTANCES)

    @property
    def die(self) -> CircumstanceDie | None:
        """The advantage or disadvantage die, after cancelling."""
        return circumstance_die(self.advantages, self.disadvantages)

    def to_dict(self) -> dict[str, object]:
        return {
            "ability": self.ability.value,
            "proficiency": self.proficiency,
            "advantages": self.advantages,
            "disadvantages": self.disadvantages,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> CheckSetup:
        """Rebuild a setup from :meth:`to_dict` output.

        Raises:
            Malformed: a field is missing or invalid.
        """
        try:
            ability = AbilityStrength(data["ability"])
            return cls(
                ability=ability,
                proficiency=_int(data["proficiency"]),
                advantages=_int(data["advantages"]),
                disadvantages=_int(data["disadvantages"]),
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise Malformed("That check setup could not be read.") from exc


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("not an int")
    return value


@dataclass(frozen=True)
class Difficulty:
    """A static check: succeed on a total of at least ``value``."""

    value: int

    def __post_init__(self) -> None:
        _check_count(self.value, "Difficulty", MIN_DIFFICULTY, MAX_DIFFICULTY)


@dataclass(frozen=True)
class Opposition:
    """A contest: beat the opponent's total ``result``; a tie wins for nobody."""

    result: int

    def __post_init__(self) -> None:
        _check_count(self.result, "The opposing result", -MAX_DIFFICULTY, MAX_DIFFICULTY)


Target = Difficulty | Opposition


def target_to_dict(target: Target) -> dict[str, object]:
    if isinstance(target, Difficulty):
        return {"kind": "difficulty", "value": target.value}
    return {"kind": "contest", "value": target.result}


def target_from_dict(data: Mapping[str, object]) -> Target:
    """Rebuild a target from :func:`target_to_dict` output.

    Raises:
        Malformed: unknown kind or bad value.
    """
    kind = data.get("kind")
    try:
        value = _int(data["value"])
    except (KeyError, TypeError) as exc:
        raise Malformed("That check target could not be read.") from exc
    if kind == "difficulty":
        return Difficulty(value)
    if kind == "contest":
        return Opposition(value)
    raise Malformed("That check target could not be read.")


@dataclass(frozen=True)
class CheckRoll:
    """The dice of one roll and the total they make.

    Attributes:
        setup: the setup rolled.
        d20s: every d20 rolled, in order (one or two).
        die_face: the face of the circumstance die, or None without one.
    """

    setup: CheckSetup
    d20s: tuple[int, ...]
    die_face: int | None

    @property
    def kept(self) -> int:
        """The d20 that counts (ruling 19: also the one for naturals)."""
        return self.setup.ability.keep(self.d20s)

    @property
    def kept_index(self) -> int:
        """Which of ``d20s`` is the kept one (the first of equal faces); the others drop."""
        return self.d20s.index(self.kept)

    @property
    def natural(self) -> Natural | None:
        if self.kept == 1:
            return Natural.ONE
        if self.kept == 20:
            return Natural.TWENTY
        return None

    @property
    def die_value(self) -> int:
        """The signed contribution of the circumstance die (0 without one)."""
        die = self.setup.die
        if die is None or self.die_face is None:
            return 0
        return die.sign * self.die_face

    @property
    def total(self) -> int:
        return self.kept + self.setup.proficiency + self.die_value

    def to_dict(self) -> dict[str, object]:
        return {"setup": self.setup.to_dict(), "d20s": list(self.d20s), "die": self.die_face}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> CheckRoll:
        """Rebuild a roll; the faces are validated like fresh ones.

        Raises:
            Malformed: bad faces or setup.
        """
        try:
            setup_data = data["setup"]
            d20s_data = data["d20s"]
            die = data["die"]
            if not isinstance(setup_data, Mapping) or not isinstance(d20s_data, list):
                raise TypeError("bad roll")
            d20s = tuple(_int(face) for face in d20s_data)
            die_face = None if die is None else _int(die)
        except (KeyError, TypeError) as exc:
            raise Malformed("That roll could not be read.") from exc
        return check_roll_from_faces(CheckSetup.from_dict(setup_data), d20s, die_face)


def check_roll_from_faces(
    setup: CheckSetup, d20s: Sequence[int], die_face: int | None
) -> CheckRoll:
    """Build the roll that these faces make.

    Raises:
        Malformed: the faces do not fit the setup (wrong count or out of range).
    """
    if len(d20s) != setup.ability.d20_count or not all(1 <= f <= 20 for f in d20s):
        raise Malformed("Those d20 faces do not fit this check.")
    die = setup.die
    if die is None:
        if die_face is not None:
            raise Malformed("This check has no advantage or disadvantage die.")
    elif die_face is None or not 1 <= die_face <= die.sides:
        raise Malformed("The circumstance die is a d{sides}.", sides=die.sides)
    return CheckRoll(setup=setup, d20s=tuple(d20s), die_face=die_face)


def roll_check(setup: CheckSetup, rng: Rng) -> CheckRoll:
    """Roll a check: the d20s first, then the circumstance die if any."""
    d20s = tuple(roll_die(rng, 20) for _ in range(setup.ability.d20_count))
    die = setup.die
    die_face = None if die is None else roll_die(rng, die.sides)
    return check_roll_from_faces(setup, d20s, die_face)


@dataclass(frozen=True)
class CheckResult:
    """A roll compared with its target."""

    roll: CheckRoll
    target: Target

    @property
    def margin(self) -> int:
        """Total minus difficulty (or minus the opposing result); negative on a loss."""
        if isinstance(self.target, Difficulty):
            return self.roll.total - self.target.value
        return self.roll.total - self.target.result

    @property
    def outcome(self) -> Outcome:
        return outcome_for(self.target, self.margin)

    @property
    def succeeded(self) -> bool:
        return self.outcome.succeeded


def outcome_for(target: Target, margin: int) -> Outcome:
    """Static checks succeed on margin >= 0; contests need margin > 0, 0 is a tie."""
    if margin > 0:
        return Outcome.SUCCESS
    if margin < 0:
        return Outcome.FAILURE
    return Outcome.SUCCESS if isinstance(target, Difficulty) else Outcome.TIE


def resolve(roll: CheckRoll, target: Target) -> CheckResult:
    """Compare a roll with its target."""
    return CheckResult(roll=roll, target=target)
