"""Reminders for games played over days: when to nudge a player the table waits on.

A game has a wait (``/nudge 12h``; a new game starts at :data:`NEW_GAME_WAIT`, a game
from before reminders existed starts with them off). When the table moves on, the
wait starts again for everyone it now waits on (:mod:`core.rules.waiting`). Each such
player gets, per wait:

1. one private reminder once the wait has passed (:attr:`Stage.PRIVATE`);
2. then, after a second wait, one line in the group naming them (:attr:`Stage.GROUP`);

and nothing more until the table moves on. A player who muted reminders gets neither.
A due time that falls in the player's quiet hours (from-to on their own clock, across
midnight too) moves to the end of those hours.

Everything here is pure: the clock is a ``now``/``since`` passed in (aware datetimes),
a time zone a ``tzinfo`` the edge built from the device's name or offset.

Invariants: a due time is never earlier than ``since + wait`` and never inside the
player's quiet hours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, timezone, tzinfo
from enum import Enum

from core.rules.errors import Malformed

MIN_WAIT = timedelta(minutes=1)
MAX_WAIT = timedelta(days=7)
NEW_GAME_WAIT = timedelta(hours=12)
"""The wait a new game starts with; games from before reminders start with them off."""

BAD_WAIT = (
    "Say how long to wait before a reminder, from 1m to 7d: 30m, 12h or 2d. "
    "Or: off (no reminders in this game), mute (none for you), unmute."
)
BAD_QUIET = "Give quiet hours as from-to on your clock, such as 22:00-07:00, or off."
BAD_ZONE = "That time zone can't be read. Use an offset such as +03:00."

_UNITS = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1)}
_AMOUNT = re.compile(r"^(?P<number>\d{1,6})\s*(?P<unit>[mhd])$")


class NudgeWord(Enum):
    """A ``/nudge`` word that is no wait."""

    OFF = "off"  # the game sends no reminders
    MUTE = "mute"  # this player gets none, private or in the group
    UNMUTE = "unmute"


@dataclass(frozen=True)
class SetWait:
    """``/nudge 12h``: the game's new wait."""

    wait: timedelta


def parse_nudge(text: str) -> SetWait | NudgeWord:
    """Read ``/nudge``'s words, in the rules' English (the edge reads other languages'
    keywords first, :func:`core.rules.typed.nudge_text`): ``30m``, ``12h``, ``7d``,
    ``off``, ``mute``, ``unmute``.

    Raises:
        Malformed: anything else, or a wait outside 1 minute..7 days.
    """
    word = " ".join(text.split()).lower()
    for known in NudgeWord:
        if word == known.value:
            return known
    found = _AMOUNT.match(word)
    if found is None:
        raise Malformed(BAD_WAIT)
    wait = int(found["number"]) * _UNITS[found["unit"]]
    if not MIN_WAIT <= wait <= MAX_WAIT:
        raise Malformed(BAD_WAIT)
    return SetWait(wait)


def wait_words(wait: timedelta) -> str:
    """A wait as ``/nudge`` reads it back (``12h``, ``90m``, ``2d``)."""
    minutes = int(wait.total_seconds()) // 60
    if minutes % (24 * 60) == 0:
        return f"{minutes // (24 * 60)}d"
    if minutes % 60 == 0:
        return f"{minutes // 60}h"
    return f"{minutes}m"


@dataclass(frozen=True)
class QuietHours:
    """A player's quiet hours: from ``start`` to ``end`` on their own clock (``zone``);
    ``start`` after ``end`` runs across midnight. ``start == end`` is never kept."""

    start: time
    end: time
    zone: tzinfo

    def __post_init__(self) -> None:
        if self.start == self.end:
            raise Malformed(BAD_QUIET)


_CLOCK = re.compile(r"^(?P<h>\d{1,2})(?::(?P<m>\d{2}))?$")
_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*(?P<sign>[+-])(?P<h>\d{1,2})(?::?(?P<m>\d{2}))?$")


def _clock(text: str) -> time:
    found = _CLOCK.match(text.strip())
    if found is None:
        raise Malformed(BAD_QUIET)
    hour, minute = int(found["h"]), int(found["m"] or 0)
    if hour == 24 and minute == 0:
        hour = 0
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise Malformed(BAD_QUIET)
    return time(hour, minute)


def parse_quiet(text: str, zone: tzinfo) -> QuietHours:
    """``22:00-07:00`` (or ``22-7``) on the clock of ``zone``.

    Raises:
        Malformed: not two clock times, or the same time twice.
    """
    start, dash, end = text.replace("–", "-").partition("-")
    if not dash:
        raise Malformed(BAD_QUIET)
    return QuietHours(_clock(start), _clock(end), zone)


def parse_offset(text: str) -> tzinfo:
    """A device's UTC offset (``+03:00``, ``-0530``, ``UTC+3``) as a time zone.

    Raises:
        Malformed: no offset, or one beyond ±14 hours.
    """
    found = _OFFSET.match(text.strip().upper())
    if found is None:
        raise Malformed(BAD_ZONE)
    minutes = int(found["h"]) * 60 + int(found["m"] or 0)
    if minutes > 14 * 60 or int(found["m"] or 0) >= 60:
        raise Malformed(BAD_ZONE)
    sign = -1 if found["sign"] == "-" else 1
    return timezone(sign * timedelta(minutes=minutes))


def in_quiet_hours(at: datetime, quiet: QuietHours | None) -> bool:
    """Whether ``at`` (aware) falls in ``quiet`` (from its start, up to but not at its end)."""
    if quiet is None:
        return False
    clock = at.astimezone(quiet.zone).time().replace(tzinfo=None)
    if quiet.start < quiet.end:
        return quiet.start <= clock < quiet.end
    return clock >= quiet.start or clock < quiet.end


def after_quiet_hours(at: datetime, quiet: QuietHours | None) -> datetime:
    """``at`` itself, or, when it falls in ``quiet``, the moment those hours end (UTC)."""
    if quiet is None or not in_quiet_hours(at, quiet):
        return at.astimezone(UTC)
    local = at.astimezone(quiet.zone)
    day = local.date()
    if quiet.start > quiet.end and local.time().replace(tzinfo=None) >= quiet.start:
        day += timedelta(days=1)  # in the evening part: the hours end tomorrow morning
    end = datetime.combine(day, quiet.end)
    # wall time to UTC: for a fixed offset exact; across a clock change the zone's reading
    ended = end.replace(tzinfo=quiet.zone).astimezone(UTC)
    if ended <= at.astimezone(UTC) or in_quiet_hours(ended, quiet):
        # a clock change swallowed the end: an hour on is past it
        ended = max(ended, at.astimezone(UTC)) + timedelta(hours=1)
    return ended


class Stage(Enum):
    """Which reminder of one wait is next for one player."""

    PRIVATE = "private"  # a private message, once the wait has passed
    GROUP = "group"  # a line in the group naming them, after a second wait


@dataclass(frozen=True)
class PlayerNudges:
    """One player's own reminder settings."""

    muted: bool = False
    quiet: QuietHours | None = None


@dataclass(frozen=True)
class Due:
    """One reminder to send: to ``player``, of ``stage``, at ``at`` (UTC)."""

    player: int
    stage: Stage
    at: datetime


def next_due(
    player: int,
    since: datetime,
    wait: timedelta | None,
    stage: Stage,
    nudges: PlayerNudges = PlayerNudges(),
) -> Due | None:
    """The reminder of ``stage`` to ``player``, a wait after ``since``: for the private
    one, when the table began waiting on them; for the group line, when the private
    reminder was sent. Moved past their quiet hours.

    Returns:
        None when the game has no wait (reminders off) or the player muted them.
    """
    if wait is None or nudges.muted:
        return None
    return Due(player, stage, after_quiet_hours(since + wait, nudges.quiet))


def first_reminders(
    awaited: frozenset[int],
    since: datetime,
    wait: timedelta | None,
    nudges: dict[int, PlayerNudges],
) -> tuple[Due, ...]:
    """The table moved on at ``since`` and now waits on ``awaited``: each one's private
    reminder (the wait starts again; earlier reminders no longer hold), in player order."""
    found = (
        next_due(p, since, wait, Stage.PRIVATE, nudges.get(p, PlayerNudges()))
        for p in sorted(awaited)
    )
    return tuple(d for d in found if d is not None)


def after_sent(
    sent: Due, sent_at: datetime, wait: timedelta | None, nudges: PlayerNudges = PlayerNudges()
) -> Due | None:
    """What follows a reminder sent at ``sent_at``: after a private one, the group line a
    second wait later; after the group line, nothing until the table moves on."""
    if sent.stage is Stage.GROUP:
        return None
    return next_due(sent.player, sent_at, wait, Stage.GROUP, nudges)


def still_due(due: Due, awaited: frozenset[int], now: datetime) -> bool:
    """Whether a reminder claimed at ``now`` is still to be sent: its time has come and
    the table still waits on its player (a wait met meanwhile drops it)."""
    return due.player in awaited and due.at <= now
