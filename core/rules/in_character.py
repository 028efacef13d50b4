"""Posts in character: a player's words, with dice written in square brackets.

``I swing [1d20+5], and it bites for [1d8+3]`` reads as three pieces of text and two
rolls, each rolled where it was written, in the one dice grammar
(:mod:`core.rules.dice`) and with the player's saved rolls (``[atk]``,
:mod:`core.rules.saved`). A bracket that holds no dice (``[OOC]``, ``[2 goblins]``)
stays text as typed. A bracket that is dice but asks for too much work (too many or
too large dice, a saved roll looping) refuses the whole post, as ``/roll`` would.

Invariant: joining the pieces of a :class:`Post` (text as it is, each roll as
``[written]``) gives back the text as typed; nothing here is HTML (the edges escape).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from core.rules import dice
from core.rules.catalogue import N_
from core.rules.errors import Malformed
from core.rules.rng import Rng
from core.rules.saved import DEEP, LOOP, REPEATED_INSIDE, expand, uses

MAX_ROLLS = 20  # brackets rolled in one post: the work of a post stays bounded
MAX_NAME = 32  # a named character's name in /npc
NARRATOR = ""  # the speaker of a narrator's post: no name

EMPTY_SAY = N_(
    "Write what your character says after /say, with dice in square brackets: "
    "/say I swing [1d20+5] and hit for [1d8+3]"
)
EMPTY_NPC = N_(
    "Write who speaks, a colon and their words after /npc: /npc Gobbo: Stop [1d20]! "
    "Without a name, the narrator speaks: /npc The door creaks open."
)
TOO_MANY_ROLLS = N_("A post can roll at most {limit} times.")

_BRACKET = re.compile(r"\[([^\[\]\n]{0,1000})\]")
# something in a bracket meant as dice: a die ("d20", "2к6", "d%", "4dF")
_DIE = re.compile(r"\d*\s*[dдк]\s*(?:\d|%|f)", re.IGNORECASE)
_SPEAKER = re.compile(r"\s*([^:\[\]\n]{1,64}?)\s*:\s*(.*)", re.DOTALL)
# refusals of dice that ask for too much work: the post is refused, not kept as text
_TOO_MUCH = frozenset(
    {
        dice.TOO_LONG,
        dice.TOO_MANY_DICE,
        dice.TOO_MANY_TERMS,
        dice.TOO_MANY_REPEATS,
        dice.TOO_DEEP,
        dice.BIG_NUMBER,
        dice.BIG_COUNT,
        dice.BIG_DIE,
        dice.BIG_KEEP,
        dice.BIG_TOTAL,
        dice.EXPLODES_FOREVER,
        dice.REROLLS_FOREVER,
        LOOP,
        DEEP,
        REPEATED_INSIDE,
    }
)


@dataclass(frozen=True)
class Spoken:
    """Text as typed (a bracket that holds no dice included, brackets and all)."""

    text: str


@dataclass(frozen=True)
class Rolled:
    """A bracket rolled where it stands: what was written in it, and its dice."""

    written: str
    result: dice.RollResult


Piece = Spoken | Rolled


@dataclass(frozen=True)
class Post:
    """A post in character, read: its pieces in order."""

    pieces: tuple[Piece, ...]

    @property
    def rolls(self) -> tuple[Rolled, ...]:
        return tuple(p for p in self.pieces if isinstance(p, Rolled))

    def typed(self) -> str:
        """The post as it was typed (each roll as ``[written]``)."""
        return "".join(p.text if isinstance(p, Spoken) else f"[{p.written}]" for p in self.pieces)

    def plain(self) -> str:
        """The post with each roll's total where it was written: ``[1d20+5 = 17]``."""
        return "".join(
            p.text if isinstance(p, Spoken) else f"[{p.written} = {totals(p.result)}]"
            for p in self.pieces
        )


def totals(result: dice.RollResult) -> str:
    """A roll's total; a repeated roll's totals, one after another."""
    return ", ".join(str(o.total) for o in result.outcomes)


def _expression(written: str, book: Mapping[str, str]) -> dice.DiceExpression | None:
    """What a bracket rolls; None when it holds no dice (it stays text).

    Raises:
        Malformed: dice that ask for too much work, or a saved roll that loops.
    """
    text = written.strip()
    if not text:
        return None
    named = bool(uses(text, book))
    meant = named or _DIE.search(text) is not None
    try:
        expression = expand(text, book).expression if named else dice.parse(text)
    except Malformed as error:
        if meant and error.message_id in _TOO_MUCH:
            raise
        return None
    return expression if dice.dice_terms(expression.node) else None


def read_post(text: str, book: Mapping[str, str], rng: Rng, empty: str = EMPTY_SAY) -> Post:
    """``text`` as a post: its text, and each bracket of dice rolled with ``rng``.

    Every bracket is read before any die is rolled, so a refused post rolls nothing.

    Args:
        book: the player's saved rolls, each name's key (:func:`core.rules.saved.key`)
            to its text.
        empty: the refusal of a post with nothing in it (how its command is written).

    Raises:
        Malformed: nothing to post; more than :data:`MAX_ROLLS` rolls; dice that ask
            for too much work.
    """
    text = text.strip()
    if not text:
        raise Malformed(empty)
    found: list[tuple[str, str, dice.DiceExpression | None]] = []
    at = 0
    for match in _BRACKET.finditer(text):
        expression = _expression(match.group(1), book)
        if expression is None:
            continue
        found.append((text[at : match.start()], match.group(1), expression))
        at = match.end()
        if len(found) > MAX_ROLLS:
            raise Malformed(TOO_MANY_ROLLS, limit=MAX_ROLLS)
    pieces: list[Piece] = []
    for before, written, expression in found:
        if before:
            pieces.append(Spoken(before))
        assert expression is not None
        pieces.append(Rolled(written, dice.roll(expression, rng)))
    if text[at:]:
        pieces.append(Spoken(text[at:]))
    return Post(tuple(pieces))


def npc_speaker(text: str) -> tuple[str, str]:
    """``/npc Gobbo: Stop!`` read: the speaker's name and their words; the narrator
    (:data:`NARRATOR`) when no name of at most :data:`MAX_NAME` characters comes before
    a colon."""
    match = _SPEAKER.fullmatch(text)
    if match is None or not match.group(2).strip() or len(match.group(1)) > MAX_NAME:
        return NARRATOR, text
    return match.group(1).strip(), match.group(2)
