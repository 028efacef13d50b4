"""Lines for a campaign's log: what the rules say happened, as plain data.

A system turns the events of one action into :class:`LogLine` values (rolls,
details, clocks); the application stores them in order. Text here is short and
plain (the edges escape it); ``player_ids`` name the characters a line is about,
so the log can be filtered by character.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.rules.table import Outcome, Table

MAX_LOG_TEXT = 500


@dataclass(frozen=True)
class LogLine:
    """One entry of the campaign log.

    Attributes:
        kind: a short tag such as ``roll``, ``detail`` or ``clock``.
        text: what happened, in the product's words (plain text).
        player_ids: the players whose characters the line is about.
    """

    kind: str
    text: str
    player_ids: tuple[int, ...] = ()


def no_log_lines(table: Table, outcome: Outcome) -> tuple[LogLine, ...]:
    """The default: a system that keeps no log."""
    return ()
