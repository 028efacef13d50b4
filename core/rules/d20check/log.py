"""What a check's panel keeps of its events: typed entries, stored as tagged records.

A panel's log is read into :data:`LogEntry` values where the state is read, and written
back as the same small records it always kept (``{"e": "turned", "natural": 1,
"now": "unlucky"}``), so a panel stored by an earlier version reads the same. Most
events are kept whole; a roll keeps only why it was made (its dice are the check's),
and the check's end only that it ended.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from core.rules.d20check.check import Natural
from core.rules.d20check.events import (
    CheckResolved,
    Event,
    GameMasterPicksEffect,
    HarmChanged,
    PlotPointSpent,
    PlotPointTurned,
    Rolled,
    RollReason,
    WoundsRecovered,
)
from core.rules.d20check.plot_points import PlotPointKind


@dataclass(frozen=True)
class RollMade:
    """The dice were rolled, for ``reason`` (the roll itself is the check's)."""

    reason: RollReason


@dataclass(frozen=True)
class CheckEnded:
    """The check is over (its result is the check's)."""


LogEntry = (
    RollMade
    | PlotPointSpent
    | PlotPointTurned
    | GameMasterPicksEffect
    | HarmChanged
    | CheckEnded
    | WoundsRecovered
)


def log_entry(event: Event) -> LogEntry:
    """What the log keeps of ``event``."""
    if isinstance(event, Rolled):
        return RollMade(event.reason)
    if isinstance(event, CheckResolved):
        return CheckEnded()
    return event


def record(entry: LogEntry) -> dict[str, object]:
    """An entry as the JSON-ready record the panel stores."""
    if isinstance(entry, RollMade):
        return {"e": "rolled", "reason": entry.reason.value}
    if isinstance(entry, PlotPointSpent):
        return {"e": "spent", "by": entry.by, "kind": entry.kind.value}
    if isinstance(entry, PlotPointTurned):
        return {"e": "turned", "natural": entry.natural.value, "now": entry.now.value}
    if isinstance(entry, GameMasterPicksEffect):
        return {"e": "gm_picks", "natural": entry.natural.value}
    if isinstance(entry, HarmChanged):
        return {
            "e": "harm",
            "strain_before": entry.strain_before,
            "wounds_before": entry.wounds_before,
            "strain_after": entry.strain_after,
            "wounds_after": entry.wounds_after,
            "lost": entry.wounds_lost_past_limit,
        }
    if isinstance(entry, CheckEnded):
        return {"e": "resolved"}
    return {"e": "recovered", "count": entry.count}


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected a whole number")
    return value


_READERS: Mapping[str, Callable[[Mapping[str, Any]], LogEntry]] = {
    "rolled": lambda r: RollMade(RollReason(r["reason"])),
    "spent": lambda r: PlotPointSpent(_whole(r["by"]), PlotPointKind(r["kind"])),
    "turned": lambda r: PlotPointTurned(Natural(r["natural"]), PlotPointKind(r["now"])),
    "gm_picks": lambda r: GameMasterPicksEffect(Natural(r["natural"])),
    "harm": lambda r: HarmChanged(
        _whole(r["strain_before"]),
        _whole(r["wounds_before"]),
        _whole(r["strain_after"]),
        _whole(r["wounds_after"]),
        _whole(r.get("lost", 0)),
    ),
    "resolved": lambda r: CheckEnded(),
    "recovered": lambda r: WoundsRecovered(_whole(r["count"])),
}


def read_log(stored: Iterable[object]) -> tuple[LogEntry, ...]:
    """The entries of a stored log, in order; a record this version cannot read is left out."""
    found: list[LogEntry] = []
    for item in stored:
        if not isinstance(item, Mapping):
            continue
        reader = _READERS.get(str(item.get("e")))
        if reader is None:
            continue
        try:
            found.append(reader(item))
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(found)
