"""Whom the table waits on: the people whose choice play needs to move on.

Each kind of panel says, from its state, which of its legal choices move play on
now (:class:`Waiting`, from :meth:`core.rules.table.PanelRules.waiting`); the
"👉" line of a panel names exactly those choices, and the people who hold one
that is not optional are the ones the table waits on. Undo, calling a step off,
steps open at any time (a clock tick, ending a scene) and optional help never
hold play. :func:`awaited_at_table` combines every open panel of a campaign with
its turn order, where it has one.

Invariants: ``Waiting.awaited`` is a subset of the people named on the line's
choices; a panel with no choice waits on nobody.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from core.rules.catalogue import N_
from core.rules.choice import Choice, Common, actors
from core.rules.said import Joined, Said

Verbs = Collection[Enum]


@dataclass(frozen=True)
class Waiting:
    """What one open panel waits for now.

    Attributes:
        choices: the choices that move play on now, in the panel's order (what its
            "👉" line names); the steps open at any time when nothing else is open.
        optional: verbs among ``choices`` whose taking play does not wait for (help).
    """

    choices: tuple[Choice[Any], ...] = ()
    optional: frozenset[Enum] = frozenset()

    @property
    def awaited(self) -> frozenset[int]:
        """The people whose choice play needs: holders of a choice that is not optional."""
        return actors(c for c in self.choices if c.verb not in self.optional)


NOBODY = Waiting()


def waiting(choices: Iterable[Choice[Any]], side: Verbs = (), optional: Verbs = ()) -> Waiting:
    """What a panel with these legal ``choices`` waits for.

    Args:
        choices: the panel's legal choices now.
        side: verbs open at any time (calling off, a clock tick, ending a scene): they
            are left out while anything else is open, and never hold play.
        optional: verbs nobody has to take (help, a free extra).

    Returns:
        the :class:`Waiting`; undo never holds play either.
    """
    listed = tuple(c for c in choices if c.verb is not Common.UNDO)
    main = tuple(c for c in listed if c.verb not in side)
    if main:
        return Waiting(main, frozenset(optional))
    return Waiting(listed, frozenset(c.verb for c in listed))


def free_play(choices: Iterable[Choice[Any]]) -> Waiting:
    """A panel anyone at the table may move on (a scene, the lines and veils): it names
    its choices but waits on nobody in particular."""
    listed = tuple(choices)
    return Waiting(listed, frozenset(c.verb for c in listed))


def awaited_at_table(panels: Iterable[Waiting], turn_holder: int | None = None) -> frozenset[int]:
    """Everyone the campaign waits on: whoever an open panel waits on, and the player
    holding the turn in a game with a turn order (``turn_holder``; None without one)."""
    found: set[int] = set()
    for panel in panels:
        found |= panel.awaited
    if turn_holder is not None:
        found.add(turn_holder)
    return frozenset(found)


WAITING_ON = N_("⏳ Waiting on {names}.")
WAITING_FOR = N_("⏳ Waiting on {names} for {time}.")
WAITING_NOW = N_("⏳ Waiting on {names} since just now.")
DAYS, HOURS, MINUTES = N_("{num} d"), N_("{num} h"), N_("{num} min")


def waited(since: datetime, now: datetime) -> Joined:
    """How long the table has waited, to the minute, in its two largest units
    (``2 d 3 h``, ``2 h``, ``5 min``; under a minute: ``0 min``)."""
    minutes = max(0, int((now - since) / timedelta(minutes=1)))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [Said(DAYS, num=days)] if days else []
    if hours:
        parts.append(Said(HOURS, num=hours))
    if not days and (minutes or not hours):
        parts.append(Said(MINUTES, num=minutes))
    return Joined(" ", parts)


def waiting_line(
    awaited: Collection[int], names: Mapping[int, str], since: datetime | None, now: datetime
) -> Said | None:
    """``⏳ Waiting on Bo for 2 h.`` (/status, the Mini App home; ``since just now`` under a
    minute), or None when the table waits on nobody; without ``since`` (the wait not
    timed), no time."""
    if not awaited:
        return None
    named = Joined(", ", sorted(names.get(p, str(p)) for p in awaited))
    if since is None:
        return Said(WAITING_ON, names=named)
    if now - since < timedelta(minutes=1):
        return Said(WAITING_NOW, names=named)
    return Said(WAITING_FOR, names=named, time=waited(since, now))
