"""Threat dice notation for the bot: ``3d2t`` is 3 action dice at threat level 2.

Accepted forms (case-insensitive, spaces allowed between the parts)::

    notation := count "d" [level "t"]
    count    := 1..9                 action dice (approach plus any bonuses)
    level    := [+|-] 0..4 / -1..-2  the situation's threat level

The Cyrillic letters read as their Latin ones (``3к2т``, ``3д2т`` is ``3d2t``), as
Russian players type them.

Examples: ``3d`` and ``3d0t`` (no threat), ``3d2t`` (complex), ``4d-1t`` (a
favourable position: no threat dice, +1 Momentum), ``3d4t`` (impossible),
``7d1t`` (more than six dice: no roll). Harm is not part of the notation; it
comes from the character sheet (or ``--harm`` on the odds command).

Invariants: a parsed notation has 1..9 action dice and a level in -2..+4;
anything else raises :class:`Malformed`, never another exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.rules.errors import Malformed
from core.rules.threat.roll import IMPOSSIBLE_LEVEL, MAX_BASE_DICE, THREAT_MIN, Pool

MAX_INPUT = 40
EXAMPLES = "3d, 3d2t or 4d-1t"

_PATTERN = re.compile(
    r"\s*(?P<count>[0-9]+)\s*d\s*(?:(?P<level>[+-]?\s*[0-9]+)\s*t)?\s*",
    re.ASCII | re.IGNORECASE,
)


_LATIN = str.maketrans("кКдДтТ", "dddDtT")


def in_latin(text: str) -> str:
    """``text`` with Cyrillic dice letters read as Latin ones (``3к2т`` -> ``3d2t``) when it
    is then shaped like the notation; anything else (an approach's name) as typed."""
    latin = text.translate(_LATIN)
    return latin if _PATTERN.fullmatch(latin) else text


@dataclass(frozen=True)
class ThreatNotation:
    """A parsed ``NdMt``: action dice and the threat level."""

    action_dice: int
    threat_level: int = 0

    def __str__(self) -> str:
        if self.threat_level == 0:
            return f"{self.action_dice}d"
        return f"{self.action_dice}d{self.threat_level}t"

    def to_pool(self, harm: int = 0) -> Pool:
        """The pool this notation describes, with the roller's harm added."""
        return Pool(approach=self.action_dice, threat_level=self.threat_level, harm=harm)


def parse(text: str) -> ThreatNotation:
    """Parse threat dice notation.

    Raises:
        Malformed: anything that is not a roll within the limits.
    """
    if len(text) > MAX_INPUT:
        raise Malformed("That roll is too long. Try 3d, 3d2t or 4d-1t.")
    match = _PATTERN.fullmatch(in_latin(text))
    if match is None:
        raise Malformed(
            "I can't read “{text}” as a roll. Try 3d, 3d2t or 4d-1t.",
            text=text.strip(),
        )
    digits = match["count"]
    count = int(digits) if len(digits) <= 3 else MAX_BASE_DICE + 1
    if count < 1:
        raise Malformed("Roll at least one action die, like 1d2t.")
    if count > MAX_BASE_DICE:
        raise Malformed(
            "At most {limit} action dice (6 plus 3 bonus dice); more than 6 need no roll anyway.",
            limit=MAX_BASE_DICE,
        )
    level = 0
    if match["level"] is not None:
        raw = match["level"].replace(" ", "")
        sign = -1 if raw.startswith("-") else 1
        magnitude = raw.lstrip("+-")
        level = sign * (int(magnitude) if len(magnitude) <= 3 else 999)
    if not THREAT_MIN <= level <= IMPOSSIBLE_LEVEL:
        raise Malformed(
            "Threat runs from {low}t to {high}t ({high}t is impossible).",
            low=THREAT_MIN,
            high=IMPOSSIBLE_LEVEL,
        )
    return ThreatNotation(count, level)
