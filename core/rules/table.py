"""The contract between a game system and the table: campaigns and panels.

A *panel* is one running procedure (an action roll, a check, a contest) shown
as one message that is edited in place. Its state is stored as a JSON-ready
mapping and read by the system's :class:`PanelRules` into one typed, frozen value
(:meth:`PanelRules.read`), once, where a view of the panel is built; renderers
see only that value. The application stores it, takes a lock, and asks the
system's :class:`PanelRules` to apply one action; the system answers with an
:class:`Outcome` that may also replace the campaign's state and players' sheets.
Everything here is pure data: the rules never see the database or Telegram.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from core.rules.rng import Rng

Json = Mapping[str, Any]
S_co = TypeVar("S_co", covariant=True)


class Role(StrEnum):
    """A person's part in a campaign."""

    HOST = "host"  # created the campaign; may pause, resume, archive
    PLAYER = "player"
    GAME_MASTER = "gm"  # runs the game in systems that have one (the Watchtower in Cortex)


@dataclass(frozen=True)
class Seat:
    """One member of a campaign as the rules see them."""

    player_id: int
    name: str
    roles: frozenset[Role]
    sheet: Json = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    """What a rule may read of a campaign."""

    campaign_id: int
    system: str
    state: Json
    seats: Mapping[int, Seat]

    def seat(self, player_id: int) -> Seat | None:
        return self.seats.get(player_id)

    def with_role(self, role: Role) -> frozenset[int]:
        return frozenset(p for p, s in self.seats.items() if role in s.roles)


@dataclass(frozen=True)
class Outcome:
    """What one action did.

    Attributes:
        state: the panel's new state.
        events: what happened, for rendering and the log (frozen dataclasses).
        closed: the procedure is over; its buttons stop working.
        campaign_state: the campaign's new state, or None to keep it.
        sheets: replaced sheets by player id (others are kept).
    """

    state: Json
    events: tuple[object, ...] = ()
    closed: bool = False
    campaign_state: Json | None = None
    sheets: Mapping[int, Json] = field(default_factory=dict)


class PanelRules(Protocol[S_co]):
    """How a system runs one kind of panel, whose state reads as an ``S_co``."""

    kind: str

    def read(self, state: Json) -> S_co:
        """The panel's stored state as its typed, frozen value.

        Raises:
            Malformed: the stored state is damaged.
        """
        ...

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        """Start a panel (``argument`` is what followed the command).

        Raises:
            Malformed, NotAllowedNow, NotYourTurn: as the rules say.
        """
        ...

    def act(
        self, table: Table, state: Json, actor: int, action: str, argument: str, rng: Rng
    ) -> Outcome:
        """Apply one action, named as in the panel's buttons.

        Raises:
            Malformed, NotAllowedNow, NotYourTurn: as the rules say; nothing changes.
        """
        ...
