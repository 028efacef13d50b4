"""Building a dice pool: the four free boxes, Plot Point extras, Useful Details, Aid.

Boxes: why (a Value), who (a Relationship), how (an Asset), and the opponent
(one of their Stresses, or one of their Limits for three dice). The first pick
from each box is free; each further, different pick from a box costs one Plot
Point. A Value can be challenged for three dice of its rating. Useful Details
are paid when created and reused free for the rest of the scene.

Invariants: a draft never holds the same trait twice; :func:`extras_cost` is
the number of picks beyond the first in each box; a pick resolves to one die,
or three for a challenged Value or an opponent's Limit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from core.rules.cortex.dice import Die
from core.rules.cortex.traits import MAX_NAME, Sheet, same_name, stress_term
from core.rules.errors import Malformed, NotAllowedNow

MAX_PICKS = 16
USEFUL_DETAIL_DIE = Die.D6


class Box(Enum):
    """The four boxes a pool draws on for free, one trait each."""

    WHY = "why"
    WHO = "who"
    HOW = "how"
    OPPONENT = "opponent"


class PickKind(Enum):
    """What kind of trait a pick names."""

    VALUE = "value"
    RELATIONSHIP = "relationship"
    ASSET = "asset"
    OPPONENT_STRESS = "opponent_stress"
    OPPONENT_LIMIT = "opponent_limit"
    DETAIL = "detail"

    @property
    def box(self) -> Box | None:
        """The box the pick fills; Useful Details fill none."""
        return _BOXES.get(self)


_BOXES = {
    PickKind.VALUE: Box.WHY,
    PickKind.RELATIONSHIP: Box.WHO,
    PickKind.ASSET: Box.HOW,
    PickKind.OPPONENT_STRESS: Box.OPPONENT,
    PickKind.OPPONENT_LIMIT: Box.OPPONENT,
}


@dataclass(frozen=True)
class Pick:
    """One trait put in a pool; ``challenge`` only for a Value."""

    kind: PickKind
    name: str
    challenge: bool = False

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > MAX_NAME:
            raise Malformed("Name the trait to add (up to 60 characters).")
        if self.challenge and self.kind is not PickKind.VALUE:
            raise Malformed("Only a Value can be challenged.")

    def same_trait(self, other: Pick) -> bool:
        return self.kind is other.kind and same_name(self.name, other.name)


@dataclass(frozen=True)
class UsefulDetail:
    """A d6 (or Trouble die) detail, reusable by its owner for the rest of the scene."""

    owner: str
    name: str
    die: Die = USEFUL_DETAIL_DIE


@dataclass(frozen=True)
class Draft:
    """A pool being built. ``carried`` picks come from the last roll, already paid for."""

    picks: tuple[Pick, ...] = ()
    carried: tuple[Pick, ...] = ()

    def has(self, pick: Pick) -> bool:
        return any(p.same_trait(pick) for p in self.picks)

    def without(self, pick: Pick) -> Draft:
        return Draft(
            tuple(p for p in self.picks if not p.same_trait(pick)),
            tuple(p for p in self.carried if not p.same_trait(pick)),
        )

    def cost(self) -> int:
        """Plot Points still owed for this pool's extras."""
        return max(extras_cost(self.picks) - extras_cost(self.carried), 0)

    def new_challenges(self) -> tuple[Pick, ...]:
        """Challenged Values not yet applied by an earlier roll."""
        return tuple(p for p in self.picks if p.challenge and not any(c == p for c in self.carried))


def extras_cost(picks: Iterable[Pick]) -> int:
    """One Plot Point for each pick beyond the first in its box."""
    per_box = Counter(p.kind.box for p in picks if p.kind.box is not None)
    return sum(max(n - 1, 0) for n in per_box.values())


def find_detail(details: Sequence[UsefulDetail], owner: str, name: str) -> UsefulDetail:
    for detail in details:
        if same_name(detail.owner, owner) and same_name(detail.name, name):
            return detail
    raise NotAllowedNow(
        "{name} has no Useful Detail called “{detail}” this scene.",
        name=owner,
        detail=name[:MAX_NAME],
    )


def pick_dice(
    pick: Pick, own: Sheet, opponent: Sheet | None, details: Sequence[UsefulDetail]
) -> tuple[Die, ...]:
    """The dice one pick adds.

    Raises:
        NotAllowedNow: the trait does not exist here, or there is no opponent.
    """
    if pick.kind is PickKind.VALUE:
        die = own.value(pick.name).die
        return (die, die, die) if pick.challenge else (die,)
    if pick.kind is PickKind.RELATIONSHIP:
        return (own.relationship(pick.name).die,)
    if pick.kind is PickKind.ASSET:
        return (own.asset(pick.name).die,)
    if pick.kind is PickKind.DETAIL:
        return (find_detail(details, own.name, pick.name).die,)
    if opponent is None:
        raise NotAllowedNow("There is no opponent in this roll.")
    if pick.kind is PickKind.OPPONENT_STRESS:
        stress = opponent.stress_of(pick.name)
        if stress is None:
            raise NotAllowedNow(
                "{name} has no {stress} Stress.",
                name=opponent.name,
                stress=stress_term(pick.name[:MAX_NAME]),
            )
        return (stress,)
    die = opponent.limit(pick.name).die
    return (die, die, die)


def check_pick(
    draft: Draft,
    pick: Pick,
    own: Sheet,
    opponent: Sheet | None,
    details: Sequence[UsefulDetail],
) -> None:
    """Refuse a pick that is unknown, repeated or a second challenge.

    Raises:
        NotAllowedNow: why it cannot go in.
    """
    if draft.has(pick):
        raise NotAllowedNow("“{name}” is already in the pool.", name=pick.name)
    if len(draft.picks) >= MAX_PICKS:
        raise NotAllowedNow("That pool is as big as it gets.")
    pick_dice(pick, own, opponent, details)
    if pick.challenge and own.value(pick.name).challenged:
        raise NotAllowedNow(
            "{name} has already challenged “{value}” this episode.", name=own.name, value=pick.name
        )


def draft_dice(
    draft: Draft, own: Sheet, opponent: Sheet | None, details: Sequence[UsefulDetail]
) -> tuple[tuple[Die, str], ...]:
    """Every die of the draft with the name of the trait it came from."""
    return tuple(
        (die, pick.name) for pick in draft.picks for die in pick_dice(pick, own, opponent, details)
    )


def aid_dice(
    picks: Sequence[Pick], helper: Sheet, details: Sequence[UsefulDetail]
) -> tuple[tuple[Die, str], ...]:
    """The dice a helping Lead or Feature rolls: at most one trait per box, no opponent.

    Raises:
        Malformed: no traits, two from one box, a challenge or an opponent pick.
        NotAllowedNow: a trait the helper does not have.
    """
    if not picks:
        raise Malformed("Aid needs at least one trait.")
    boxes = [p.kind.box for p in picks]
    if any(b is Box.OPPONENT for b in boxes) or any(p.challenge for p in picks):
        raise Malformed("Aid comes from the helper's own traits, without challenges.")
    if len([b for b in boxes if b is not None]) != len({b for b in boxes if b is not None}):
        raise Malformed("Aid takes at most one trait from each box.")
    if len(picks) > len(Box) + 1:
        raise Malformed("That is too many traits for Aid.")
    return tuple(
        (die, pick.name) for pick in picks for die in pick_dice(pick, helper, None, details)
    )
