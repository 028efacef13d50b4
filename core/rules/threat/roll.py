"""Action rolls: building the pool, rolling it, and burning Momentum on it.

A :class:`Pool` is everything decided before the dice hit the table: the
approach value, the bonus dice, the assist, the threat level and the roller's
harm. :func:`roll` turns it into a :class:`RollOutcome`; :func:`burn_momentum`
rewrites an outcome.

Invariants:
- Bonus dice add at most +3: one for expertise, one for an ability, one for
  working together (ruling 15). Working together is a single assist: either one
  helper (a PC who rolls 1d and shares the risk) or outside assistance (the GM
  rolls 1d).
- The situation's threat level runs from -2 to +4. Positive levels add that many
  threat dice; a negative level adds none and gives that much Momentum before
  the roll; +4 is impossible (no roll). Each point of harm adds one threat die
  that never counts towards impossible.
- No roll happens when the action is impossible, or when it would use more
  than 6 action dice (it just succeeds). Impossible wins over a big pool.
- A pool with no action dice cannot be rolled.
- Burning replaces the highest action die (the first of equals, the roller's own
  dice come first) with the Momentum value, then the cuts apply again. An
  outcome can be burned once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from core.rules.errors import NotAllowedNow
from core.rules.rng import Rng, roll_die
from core.rules.threat.dice import (
    ACTION_SIDES,
    THREAT_SIDES,
    Result,
    count_cuts,
    cut,
    read_action_dice,
)
from core.rules.threat.momentum import BURN_MINIMUM, check_momentum

THREAT_MIN = -2
IMPOSSIBLE_LEVEL = 4
MAX_ROLLED_ACTION_DICE = 6
MAX_BONUS_DICE = 3
MAX_BASE_DICE = 9
MAX_HARM = 9

PlayerId = int


class ThreatLevel(Enum):
    """How the GM names a threat level."""

    FAVOURABLE = "favourable"
    NORMAL = "normal"
    RISKY = "risky"
    COMPLEX = "complex"
    DESPERATE = "desperate"
    IMPOSSIBLE = "impossible"

    @classmethod
    def of(cls, level: int) -> ThreatLevel:
        """The name of a level from -2 to +4."""
        check_threat_level(level)
        if level < 0:
            return cls.FAVOURABLE
        return (cls.NORMAL, cls.RISKY, cls.COMPLEX, cls.DESPERATE, cls.IMPOSSIBLE)[level]


class Stance(Enum):
    """The GM's reading of a position; guidance for the threat level only."""

    COMPROMISED = "compromised"
    RESISTANT = "resistant"
    VOLATILE = "volatile"
    SUBSTANTIAL = "substantial"
    INERT = "inert"
    ADVANCING = "advancing"

    @property
    def threat_range(self) -> tuple[int, int] | None:
        """The suggested range of threat levels, or None (Advancing sets a clock)."""
        return _STANCE_RANGES[self]


_STANCE_RANGES: dict[Stance, tuple[int, int] | None] = {
    Stance.COMPROMISED: (-2, 0),
    Stance.RESISTANT: (0, 4),
    Stance.VOLATILE: (0, 4),
    Stance.SUBSTANTIAL: (1, 4),
    Stance.INERT: (0, 0),
    Stance.ADVANCING: None,
}


def suggested_threat(stances: frozenset[Stance]) -> tuple[int, int]:
    """A threat range the GM may pick from, given the stances in play.

    The ranges add up and are kept within -2..+4; Advancing adds nothing
    (it sets a clock instead). With no stance the suggestion is +0.
    """
    low = high = 0
    for stance in stances:
        span = stance.threat_range
        if span is not None:
            low += span[0]
            high += span[1]
    return max(low, THREAT_MIN), min(high, IMPOSSIBLE_LEVEL)


def check_threat_level(level: int) -> int:
    """Return ``level`` if it is a threat level.

    Raises:
        ValueError: outside -2..+4.
    """
    if not THREAT_MIN <= level <= IMPOSSIBLE_LEVEL:
        raise ValueError(f"threat level runs from {THREAT_MIN} to +{IMPOSSIBLE_LEVEL}")
    return level


class Bonus(Enum):
    """Where a bonus action die comes from (at most one of each)."""

    EXPERTISE = "expertise"
    ABILITY = "ability"
    WORKING_TOGETHER = "working_together"


class DieSource(Enum):
    """Who rolls an action die."""

    ROLLER = "roller"
    HELPER = "helper"
    OUTSIDE = "outside"


@dataclass(frozen=True)
class Assist:
    """Working together: a helper PC, or outside assistance rolled by the GM.

    Attributes:
        helper: the helping player, or None for outside assistance.
    """

    helper: PlayerId | None = None

    @property
    def source(self) -> DieSource:
        return DieSource.OUTSIDE if self.helper is None else DieSource.HELPER


class NoRoll(Enum):
    """Why an action is settled without dice."""

    SUCCESS = "success"
    IMPOSSIBLE = "impossible"


@dataclass(frozen=True)
class Pool:
    """Everything that decides the dice of one action roll.

    Attributes:
        approach: the approach value (base action dice), 0..9.
        threat_level: the situation's threat level, -2..+4.
        harm: the roller's harm; each point adds one threat die.
        expertise: +1d for relevant expertise.
        ability: +1d from an ability.
        assist: +1d from working together.
    """

    approach: int
    threat_level: int = 0
    harm: int = 0
    expertise: bool = False
    ability: bool = False
    assist: Assist | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.approach <= MAX_BASE_DICE:
            raise ValueError(f"approach value runs from 0 to {MAX_BASE_DICE}")
        check_threat_level(self.threat_level)
        if not 0 <= self.harm <= MAX_HARM:
            raise ValueError(f"harm runs from 0 to {MAX_HARM}")

    @property
    def bonuses(self) -> frozenset[Bonus]:
        """The bonus sources in use."""
        chosen = {
            Bonus.EXPERTISE: self.expertise,
            Bonus.ABILITY: self.ability,
            Bonus.WORKING_TOGETHER: self.assist is not None,
        }
        return frozenset(bonus for bonus, used in chosen.items() if used)

    @property
    def bonus_dice(self) -> int:
        """Bonus action dice, 0..3."""
        return len(self.bonuses)

    @property
    def action_dice(self) -> int:
        """All action dice: approach plus bonuses."""
        return self.approach + self.bonus_dice

    @property
    def threat_dice(self) -> int:
        """All threat dice: the positive threat level plus harm."""
        return max(self.threat_level, 0) + self.harm

    @property
    def momentum_gain(self) -> int:
        """Momentum gained before the roll from a negative threat level."""
        return max(-self.threat_level, 0)

    @property
    def no_roll(self) -> NoRoll | None:
        """Why no dice are needed, or None when the action is rolled."""
        if self.threat_level >= IMPOSSIBLE_LEVEL:
            return NoRoll.IMPOSSIBLE
        if self.action_dice > MAX_ROLLED_ACTION_DICE:
            return NoRoll.SUCCESS
        return None

    def check_rollable(self) -> None:
        """Refuse a roll that cannot happen.

        Raises:
            NotAllowedNow: no roll is needed, or there are no action dice.
        """
        if self.no_roll is NoRoll.IMPOSSIBLE:
            raise NotAllowedNow(
                "This can't be done as things stand: break it up or find another way."
            )
        if self.no_roll is NoRoll.SUCCESS:
            raise NotAllowedNow("No roll needed: with that many dice, you simply do it.")
        if self.action_dice == 0:
            raise NotAllowedNow("You need at least one action die: take a bonus or an assist.")


@dataclass(frozen=True)
class ActionDie:
    """One rolled d6 and who rolled it."""

    face: int
    source: DieSource = DieSource.ROLLER
    helper: PlayerId | None = None


@dataclass(frozen=True)
class Burn:
    """A Momentum burn on an outcome.

    Attributes:
        momentum: the Momentum value that replaced the die.
        index: which action die it replaced.
        old_face: what that die showed before.
    """

    momentum: int
    index: int
    old_face: int


@dataclass(frozen=True)
class RollOutcome:
    """The dice of one action roll and what they mean.

    Attributes:
        action_dice: every d6, the roller's own first, then the assist die.
        threat_dice: every d8, the threat level's first, then the harm dice.
        harm_dice: how many of the last threat dice come from harm.
        uncut: the result read from the action dice alone.
        cuts: how many threat dice show 7 or 8.
        result: the final result after cuts.
        burn: the Momentum burn, if any.
    """

    action_dice: tuple[ActionDie, ...]
    threat_dice: tuple[int, ...]
    harm_dice: int
    uncut: Result
    cuts: int
    result: Result
    burn: Burn | None = None

    @property
    def action_faces(self) -> tuple[int, ...]:
        return tuple(die.face for die in self.action_dice)

    @property
    def counting_dice(self) -> tuple[int, ...]:
        """Indexes of the action dice the result is read from: each die showing the
        highest face (two sixes together make a Perfect)."""
        faces = self.action_faces
        top = max(faces)
        return tuple(i for i, face in enumerate(faces) if face == top)

    @property
    def cutting_dice(self) -> tuple[int, ...]:
        """Indexes of the threat dice that cut."""
        return tuple(i for i, face in enumerate(self.threat_dice) if count_cuts((face,)))


def outcome_of(
    action_dice: tuple[ActionDie, ...], threat_dice: tuple[int, ...], harm_dice: int = 0
) -> RollOutcome:
    """Read given dice into an outcome (no randomness)."""
    uncut = read_action_dice([die.face for die in action_dice])
    cuts = count_cuts(threat_dice)
    return RollOutcome(action_dice, threat_dice, harm_dice, uncut, cuts, cut(uncut, cuts))


def roll(pool: Pool, rng: Rng) -> RollOutcome:
    """Roll the pool: the roller's dice, then the assist die, then the threat dice.

    Raises:
        NotAllowedNow: the pool cannot be rolled (see :meth:`Pool.check_rollable`).
    """
    pool.check_rollable()
    own = pool.approach + int(pool.expertise) + int(pool.ability)
    dice = [ActionDie(roll_die(rng, ACTION_SIDES)) for _ in range(own)]
    if pool.assist is not None:
        face = roll_die(rng, ACTION_SIDES)
        dice.append(ActionDie(face, pool.assist.source, pool.assist.helper))
    threat = tuple(roll_die(rng, THREAT_SIDES) for _ in range(pool.threat_dice))
    return outcome_of(tuple(dice), threat, pool.harm)


def highest_index(outcome: RollOutcome) -> int:
    """The action die a burn replaces: the highest, the first of equals."""
    faces = outcome.action_faces
    return faces.index(max(faces))


def burn_momentum(outcome: RollOutcome, momentum: int) -> RollOutcome:
    """Replace the highest action die with ``momentum``, then apply the cuts.

    Raises:
        NotAllowedNow: Momentum below 4, or the outcome was already burned.
    """
    check_momentum(momentum)
    if outcome.burn is not None:
        raise NotAllowedNow("Momentum is already burned on this roll.")
    if momentum < BURN_MINIMUM:
        raise NotAllowedNow(
            "Momentum {momentum} is too low to burn: you need {minimum}.",
            momentum=momentum,
            minimum=BURN_MINIMUM,
        )
    index = highest_index(outcome)
    old = outcome.action_dice[index]
    dice = list(outcome.action_dice)
    dice[index] = replace(old, face=momentum)
    rewritten = outcome_of(tuple(dice), outcome.threat_dice, outcome.harm_dice)
    return replace(rewritten, burn=Burn(momentum, index, old.face))
