"""Lines for a campaign's log: what the rules say happened, as plain data.

A system turns the events of one action into :class:`LogLine` values (rolls,
details, clocks); the application stores them in order. A line says what happened
as :class:`Words`: a message id of the catalogue (an English sentence with
``{placeholders}``) and its values, so each reader sees it in their own language;
its ``text`` is the same line in English, as the product always wrote it. Values are
names and numbers as written, or :class:`Words` themselves (a phrase translated
with the sentence). Text here is plain (the edges escape it); ``player_ids`` name
the characters a line is about, so the log can be filtered by character.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.rules.table import Outcome, Table

MAX_LOG_TEXT = 500


@dataclass(frozen=True)
class Words:
    """A message id and its values: a sentence in any language.

    Attributes:
        message: the catalogue's id (the English sentence, ``{placeholders}`` and all).
        values: each placeholder's value: plain text, a number, or more words.
    """

    message: str
    values: Mapping[str, str | int | Words] = field(default_factory=dict)

    def said(self, translate: Callable[[str], str] = lambda message: message) -> str:
        """The sentence with its values filled in, each message passed through ``translate``
        (English as written when not given)."""
        filled = {
            key: value.said(translate) if isinstance(value, Words) else value
            for key, value in self.values.items()
        }
        return translate(self.message).format(**filled)

    def to_json(self) -> dict[str, Any]:
        """``{"m": message, "v": {name: value}}`` (words inside as the same shape)."""
        return {
            "m": self.message,
            "v": {
                key: value.to_json() if isinstance(value, Words) else value
                for key, value in self.values.items()
            },
        }

    @classmethod
    def from_json(cls, data: object) -> Words | None:
        """Words as :meth:`to_json` stored them; None for anything else."""
        if not isinstance(data, Mapping) or not isinstance(data.get("m"), str):
            return None
        raw = data.get("v")
        values: dict[str, str | int | Words] = {}
        for key, value in (raw if isinstance(raw, Mapping) else {}).items():
            if isinstance(value, str | int) and not isinstance(value, bool):
                values[str(key)] = value
            else:
                inner = cls.from_json(value)
                if inner is None:
                    return None
                values[str(key)] = inner
        return cls(data["m"], values)


def words(message: str, **values: str | int | Words) -> Words:
    """``message`` (a catalogue id) with its values."""
    return Words(message, values)


class LogKind(StrEnum):
    """What a log line is about (stored as its value, a short tag)."""

    ROLL = "roll"  # a roll and what it came to
    DETAIL = "detail"  # a detail added to a character or the scene
    MAP = "map"  # the map changed: a place revealed, the party moved
    CLOCK = "clock"  # a clock ticked
    UNDO = "undo"  # someone took back their last step
    SAID = "said"  # a post in character (or by a non-player character, or the narrator)

    @classmethod
    def read(cls, tag: str) -> LogKind | None:
        """The kind a stored tag names; None for a tag this version does not know."""
        try:
            return cls(tag)
        except ValueError:
            return None


@dataclass(frozen=True)
class LogLine:
    """One entry of the campaign log.

    Attributes:
        kind: what the line is about (a roll, a detail, a clock...).
        text: what happened, in the product's words (plain English text).
        player_ids: the players whose characters the line is about.
        words: the same as a message id and values, for readers of other languages
            (None for a line that only has its text).
    """

    kind: LogKind
    text: str
    player_ids: tuple[int, ...] = ()
    words: Words | None = None

    @classmethod
    def of(cls, kind: LogKind, said: Words, player_ids: tuple[int, ...] = ()) -> LogLine:
        """A line that says ``said`` (its text: the English of it)."""
        return cls(kind, said.said(), player_ids, said)


def no_log_lines(table: Table, outcome: Outcome) -> tuple[LogLine, ...]:
    """The default: a system that keeps no log."""
    return ()
