"""What a conflict panel keeps of its events: one typed entry per kind of line.

Each kind of line is its own frozen dataclass with exactly the fields that kind
has, so what a line means is on the line (who held, who took over, which ending)
and the type checker knows every kind's fields. :data:`Entry` is their union.

A panel stores its lines as the same small records it always kept: every record
has all of ``what`` (the kind, :class:`EntryKind`), ``who``, ``other``,
``number``, ``text``, ``die`` and ``flag``, the fields a kind does not use left
blank. Each kind names which record field holds which of its own
(``STORED``), so :func:`record` and :func:`entry` turn one into the other and a
panel stored by an earlier version reads back the same.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from core.rules.cortex import codec
from core.rules.cortex.dice import Die
from core.rules.cortex.state import Ending
from core.rules.errors import Malformed


class EntryKind(StrEnum):
    """What a line of the conflict's log tells (stored as its value)."""

    OPPOSITION = "opposition"
    ROLLED = "rolled"
    INCLUDED = "included"
    ACTION = "action"
    WON = "won"
    ENDED = "ended"
    PAID = "paid"
    DETAIL = "detail"
    CHALLENGED = "challenged"
    STRESS = "stress"
    STRESS_MISSED = "stress_missed"
    STRESSED_OUT = "stressed_out"
    RELIEVED = "relieved"
    COMPLICATION = "complication"
    TROUBLE_CANCELLED = "trouble_cancelled"
    INTERFERED = "interfered"
    RESUMED = "resumed"
    SCENE_ENDED = "scene_ended"


@dataclass(frozen=True)
class OppositionRolled:
    """The Watchtower rolled the opposition: its ``dice`` (as ``d8:5 d6:3``) made ``result``."""

    what: ClassVar[EntryKind] = EntryKind.OPPOSITION
    STORED: ClassVar[Mapping[str, str]] = {"result": "number", "dice": "text"}
    result: int
    dice: str


@dataclass(frozen=True)
class PoolRolled:
    """``roller`` rolled their pool for ``result``."""

    what: ClassVar[EntryKind] = EntryKind.ROLLED
    STORED: ClassVar[Mapping[str, str]] = {"roller": "who", "result": "number"}
    roller: str
    result: int


@dataclass(frozen=True)
class DieIncluded:
    """``roller`` paid to include another die: their result is now ``result``."""

    what: ClassVar[EntryKind] = EntryKind.INCLUDED
    STORED: ClassVar[Mapping[str, str]] = {"roller": "who", "result": "number"}
    roller: str
    result: int


@dataclass(frozen=True)
class ActionSet:
    """``actor`` set the Action at ``action``; ``took_over``: by beating the last one."""

    what: ClassVar[EntryKind] = EntryKind.ACTION
    STORED: ClassVar[Mapping[str, str]] = {"actor": "who", "action": "number", "took_over": "flag"}
    actor: str
    action: int
    took_over: bool


@dataclass(frozen=True)
class ActorHeld:
    """``actor`` held: ``reactor`` fell short by ``margin``."""

    what: ClassVar[EntryKind] = EntryKind.WON
    STORED: ClassVar[Mapping[str, str]] = {"actor": "who", "reactor": "other", "margin": "number"}
    actor: str
    reactor: str
    margin: int


@dataclass(frozen=True)
class ConflictEnded:
    """The conflict ended as ``ending``: ``winner`` over ``loser`` by ``margin``."""

    what: ClassVar[EntryKind] = EntryKind.ENDED
    STORED: ClassVar[Mapping[str, str]] = {
        "winner": "who",
        "loser": "other",
        "margin": "number",
        "ending": "text",
    }
    winner: str
    loser: str
    margin: int
    ending: Ending


@dataclass(frozen=True)
class PlotPointsPaid:
    """``payer`` paid ``payee`` ``points`` Plot Points, for ``reason`` (as the rules name it)."""

    what: ClassVar[EntryKind] = EntryKind.PAID
    STORED: ClassVar[Mapping[str, str]] = {
        "payer": "who",
        "payee": "other",
        "points": "number",
        "reason": "text",
    }
    payer: str
    payee: str
    points: int
    reason: str


@dataclass(frozen=True)
class DetailCreated:
    """``owner`` created the Useful Detail ``name`` at ``die``; ``from_trouble``: out of a 1."""

    what: ClassVar[EntryKind] = EntryKind.DETAIL
    STORED: ClassVar[Mapping[str, str]] = {
        "owner": "who",
        "name": "text",
        "die": "die",
        "from_trouble": "flag",
    }
    owner: str
    name: str
    die: Die
    from_trouble: bool


@dataclass(frozen=True)
class ValueChallenged:
    """``character`` challenged their Value ``value``, for ``growth`` Growth."""

    what: ClassVar[EntryKind] = EntryKind.CHALLENGED
    STORED: ClassVar[Mapping[str, str]] = {"character": "who", "value": "text", "growth": "die"}
    character: str
    value: str
    growth: Die


@dataclass(frozen=True)
class StressTaken:
    """``inflicter`` gave ``target`` ``stress_type`` Stress, now at ``die`` (None: none left);
    ``stepped_up``: Stress they had was stepped up."""

    what: ClassVar[EntryKind] = EntryKind.STRESS
    STORED: ClassVar[Mapping[str, str]] = {
        "inflicter": "who",
        "target": "other",
        "stress_type": "text",
        "die": "die",
        "stepped_up": "flag",
    }
    inflicter: str
    target: str
    stress_type: str
    die: Die | None
    stepped_up: bool


@dataclass(frozen=True)
class StressMissed:
    """``inflicter``'s Stress roll came up all 1s: no Stress."""

    what: ClassVar[EntryKind] = EntryKind.STRESS_MISSED
    STORED: ClassVar[Mapping[str, str]] = {"inflicter": "who"}
    inflicter: str


@dataclass(frozen=True)
class StressedOut:
    """``character`` is Stressed Out."""

    what: ClassVar[EntryKind] = EntryKind.STRESSED_OUT
    STORED: ClassVar[Mapping[str, str]] = {"character": "who"}
    character: str


@dataclass(frozen=True)
class StressRelieved:
    """``friend``'s ``stress_type`` Stress was relieved, for ``growth`` Growth."""

    what: ClassVar[EntryKind] = EntryKind.RELIEVED
    STORED: ClassVar[Mapping[str, str]] = {"friend": "who", "stress_type": "text", "growth": "die"}
    friend: str
    stress_type: str
    growth: Die


@dataclass(frozen=True)
class ComplicationActivated:
    """``owner``'s ``die`` that came up 1 joined Trouble."""

    what: ClassVar[EntryKind] = EntryKind.COMPLICATION
    STORED: ClassVar[Mapping[str, str]] = {"owner": "who", "die": "die"}
    owner: str
    die: Die


@dataclass(frozen=True)
class TroubleCancelled:
    """``by`` removed a ``removed`` die from Trouble."""

    what: ClassVar[EntryKind] = EntryKind.TROUBLE_CANCELLED
    STORED: ClassVar[Mapping[str, str]] = {"by": "who", "removed": "die"}
    by: str
    removed: Die


@dataclass(frozen=True)
class Interfered:
    """``interferer`` interfered with ``result``; ``stopped``: the Contest stops."""

    what: ClassVar[EntryKind] = EntryKind.INTERFERED
    STORED: ClassVar[Mapping[str, str]] = {
        "interferer": "who",
        "result": "number",
        "stopped": "flag",
    }
    interferer: str
    result: int
    stopped: bool


@dataclass(frozen=True)
class ContestResumed:
    """Everyone rolls, in ``order`` (the names, comma-separated)."""

    what: ClassVar[EntryKind] = EntryKind.RESUMED
    STORED: ClassVar[Mapping[str, str]] = {"order": "text"}
    order: str


@dataclass(frozen=True)
class SceneEnded:
    """The scene ended; ``episode``: the episode with it."""

    what: ClassVar[EntryKind] = EntryKind.SCENE_ENDED
    STORED: ClassVar[Mapping[str, str]] = {"episode": "flag"}
    episode: bool


Entry = (
    OppositionRolled
    | PoolRolled
    | DieIncluded
    | ActionSet
    | ActorHeld
    | ConflictEnded
    | PlotPointsPaid
    | DetailCreated
    | ValueChallenged
    | StressTaken
    | StressMissed
    | StressedOut
    | StressRelieved
    | ComplicationActivated
    | TroubleCancelled
    | Interfered
    | ContestResumed
    | SceneEnded
)
"""One line of the conflict's log (data; the bot words it)."""

ENTRY_TYPES: tuple[type[Entry], ...] = typing.get_args(Entry)
_BY_KIND: Mapping[EntryKind, type[Entry]] = {t.what: t for t in ENTRY_TYPES}
_HINTS: Mapping[type[Entry], Mapping[str, Any]] = {t: typing.get_type_hints(t) for t in ENTRY_TYPES}


@dataclass(frozen=True)
class _Record:
    """A line as stored: its kind and the shared fields every kind's values sit in."""

    what: EntryKind
    who: str = ""
    other: str = ""
    number: int = 0
    text: str = ""
    die: int = 0
    flag: bool = False


def _plain(value: object) -> object:
    if value is None:  # no die
        return 0
    if isinstance(value, Die):
        return int(value)
    if isinstance(value, Ending):
        return value.value
    return value


def _typed(tp: object, value: object) -> object:
    try:
        if tp is Die and isinstance(value, int):
            return Die(value)
        if tp == Die | None and isinstance(value, int):
            return None if value == 0 else Die(value)
        if tp is Ending and isinstance(value, str):
            return Ending(value)
    except ValueError:
        raise Malformed(
            "Saved Cortex state has an unknown value {value}.", value=repr(value)
        ) from None
    return value


def record(e: Entry) -> dict[str, object]:
    """A line as the JSON-ready record the panel stores."""
    stored = codec.dump(_Record(e.what))
    assert isinstance(stored, dict)
    for f in dataclasses.fields(e):
        stored[e.STORED[f.name]] = _plain(getattr(e, f.name))
    return stored


def entry(data: object) -> Entry:
    """A stored record read back as its kind of line.

    Raises:
        Malformed: the record is damaged or of a kind this version does not know.
    """
    r = codec.load(_Record, data)
    cls = _BY_KIND[r.what]
    hints = _HINTS[cls]
    values = {
        f.name: _typed(hints[f.name], getattr(r, cls.STORED[f.name]))
        for f in dataclasses.fields(cls)
    }
    return cls(**values)  # type: ignore[arg-type]
