"""One legal choice on a panel, shared by every system.

A panel's rules list what may be done now, as python-chess's ``Board.legal_moves``
does; the edges only label the choices and lay them out. A choice names its verb
(an Enum member of the panel's own actions, or a :class:`Common` one such as
undo), the argument its button or reply carries, who may take it, and the data a
label needs (a character, a trait, a die, a cost).

A Mini App page's rules say the same for one viewer at once: :class:`PageChoices`
holds, for each sheet on the page, the edits open to the viewer and how much of it
they see, and the table's own edits (the names are those the page posts, which the
rules check the edit with).

Invariants: ``by`` is never empty for a choice a panel offers (a choice nobody may
take is not a legal choice); :func:`actors` and :func:`verbs` only read choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, TypeVar

V = TypeVar("V", bound=Enum)
K = TypeVar("K")


class Common(Enum):
    """Verbs every panel may offer, whatever its system."""

    UNDO = "undo"


@dataclass(frozen=True)
class Choice(Generic[V]):
    """One thing someone may do now on a panel.

    Attributes:
        verb: the action (the panel's own Enum, or :class:`Common`).
        argument: what the button or reply carries.
        by: the people (user ids) who may take it.
        who: the character it is for or by ("" if none).
        name: the trait, die, mood or type it names ("" if none).
        die: the die it adds or names (0 if none).
        count: how many dice (3 for a challenge or a Limit).
        cost: what it costs now (Plot Points, Momentum...).
        selected: the option is the current one (a level, a bonus, an approach).
        by_reply: the choice is taken by replying to the panel with words (a name,
            a detail), not by a button; its ``argument`` is then empty.
        advised: of the choices its taker weighs together (the faces of one pool, the
            mood dice to take, the skill's sign), this one is best for the player who
            rolls, as the rules rank results; never set on a choice that is worse.
        consequence: what taking it leads to, where the rules know it (a system's own
            frozen value, such as an NSU roll's forecast), or None.
    """

    verb: V
    argument: str = ""
    by: frozenset[int] = frozenset()
    who: str = ""
    name: str = ""
    die: int = 0
    count: int = 1
    cost: int = 0
    selected: bool = False
    by_reply: bool = False
    advised: bool = False
    consequence: object | None = None

    def open_to(self, user: int) -> bool:
        """Whether ``user`` may take this choice."""
        return user in self.by


def actors(choices: Iterable[Choice[V]]) -> frozenset[int]:
    """Everyone who may take at least one of ``choices``: who acts now."""
    found: set[int] = set()
    for choice in choices:
        found |= choice.by
    return frozenset(found)


def for_user(choices: Iterable[Choice[V]], user: int) -> tuple[Choice[V], ...]:
    """The choices ``user`` may take, in the panel's order."""
    return tuple(c for c in choices if user in c.by)


def buttons(choices: Iterable[Choice[V]]) -> tuple[Choice[V], ...]:
    """The choices a panel shows as buttons (every one not taken by a reply)."""
    return tuple(c for c in choices if not c.by_reply)


def verbs(choices: Iterable[Choice[V]]) -> tuple[V, ...]:
    """The distinct verbs of ``choices``, in first-seen order."""
    seen: dict[V, None] = {}
    for choice in choices:
        seen.setdefault(choice.verb, None)
    return tuple(seen)


@dataclass(frozen=True)
class SheetChoices:
    """What one viewer may do with one sheet on a Mini App page.

    Attributes:
        edits: the edits open to the viewer on this sheet now, by the names the page
            posts (empty: the sheet is read-only to them).
        whole: the viewer sees the whole sheet, not only what every player sees.
        locked: the sheet is the viewer's own but closed to their edits for now (a
            roll under way, sheets locked by the Game Master).
    """

    edits: frozenset[str] = frozenset()
    whole: bool = False
    locked: bool = False


@dataclass(frozen=True)
class PageChoices(Generic[K]):
    """What one viewer may do on a game's Mini App page, as its rules decide it.

    Attributes:
        sheets: each sheet's choices, by the key the page knows it by (a character's
            name, a player's id); a sheet not listed is read-only and partly seen.
        table_edits: the edits of the table itself open to the viewer (settings,
            locking the sheets, ending a scene).
        runs_table: the viewer runs the table (the Game Master, the Watchtower).
    """

    sheets: Mapping[K, SheetChoices] = field(default_factory=dict)
    table_edits: frozenset[str] = frozenset()
    runs_table: bool = False

    def sheet(self, key: K) -> SheetChoices:
        """The viewer's choices on one sheet (read-only, partly seen, if none)."""
        return self.sheets.get(key, SheetChoices())
