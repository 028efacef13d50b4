"""The contract between a game system and the table: campaigns and panels.

A *panel* is one running procedure (an action roll, a check, a contest) shown
as one message that is edited in place. Its state is stored as a JSON-ready
mapping and read by the system's :class:`PanelRules` into one typed, frozen value
(:meth:`PanelRules.read`), once, as the panel is loaded (a press hands it to
:meth:`PanelRules.act`, which hands the new one back); renderers see only that
value. The application stores it, takes a lock, and asks the system's
:class:`PanelRules` to apply one action; the system answers with an
:class:`Outcome` that may also replace the campaign's state and players' sheets.
Everything here is pure data: the rules never see the database or Telegram.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar, cast

from core.rules.rng import Rng
from core.rules.waiting import Waiting

Json = Mapping[str, Any]
S = TypeVar("S")
T = TypeVar("T")


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
    # the sheet as each reader read it (see :meth:`read`); not part of the value
    _read: dict[object, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def read(self, reader: Callable[[Json], T]) -> T:
        """The sheet as ``reader`` reads it (a game's typed sheet), read once per seat:
        every rule and renderer that asks again gets the same frozen value.

        Raises:
            whatever ``reader`` raises (Malformed: a damaged sheet); nothing is kept then.
        """
        if reader not in self._read:
            self._read[reader] = reader(self.sheet)
        return cast(T, self._read[reader])


@dataclass(frozen=True)
class Table:
    """What a rule may read of a campaign."""

    campaign_id: int
    system: str
    state: Json
    seats: Mapping[int, Seat]
    # the campaign as each reader read it (see :meth:`read`); not part of the value
    _read: dict[object, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def read(self, reader: Callable[[Table], T]) -> T:
        """The campaign as ``reader`` reads it (a game's typed campaign state), read once
        per table: the rules, the log and the renderer that ask again get the same value.

        Raises:
            whatever ``reader`` raises (Malformed: a damaged state); nothing is kept then.
        """
        if reader not in self._read:
            self._read[reader] = reader(self)
        return cast(T, self._read[reader])

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
        model: the panel's new state as the typed value ``state`` was written from
            (what :meth:`PanelRules.read` would read from it), so it is not read
            again; None when the rules hand over only ``state``.
    """

    state: Json
    events: tuple[object, ...] = ()
    closed: bool = False
    campaign_state: Json | None = None
    sheets: Mapping[int, Json] = field(default_factory=dict)
    model: object = None


class PanelRules(Protocol[S]):
    """How a system runs one kind of panel, whose state reads as an ``S``.

    A press reads the stored state once, as it loads the panel, and hands the typed
    value to :meth:`act`; the rules hand back the new state both as the mapping the
    store keeps and as the typed value (``Outcome.model``), so neither is read twice.
    """

    kind: str

    def read(self, state: Json) -> S:
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
        self, table: Table, state: S | Json, actor: int, action: str, argument: str, rng: Rng
    ) -> Outcome:
        """Apply one action, named as in the panel's buttons, to the panel's state: its
        typed value as :meth:`read` read it, or the stored mapping (read here first).

        Raises:
            Malformed, NotAllowedNow, NotYourTurn: as the rules say; nothing changes.
        """
        ...

    def waiting(self, table: Table, state: S | Json) -> Waiting:
        """What the open panel waits for now: the choices that move play on (its "👉"
        line) and who holds them (``.awaited``: whom the table waits on).

        Raises:
            Malformed: the stored state is damaged.
        """
        ...


def current(rules: PanelRules[S], state: S | Json) -> S:
    """The typed state a panel's :meth:`PanelRules.act` works on: as handed over (read
    once by the press's load), or read from the stored mapping."""
    return rules.read(state) if isinstance(state, Mapping) else state
