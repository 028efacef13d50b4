"""Standard dice notation: parsing into immutable expressions and rolling them.

Grammar (whitespace allowed between tokens, case-insensitive)::

    roll       := expression [label]
    expression := [sign] term (sign term)*
    term       := dice | integer
    dice       := [count] "d" (sides | "%") [keep] [edge]
    keep       := ("kh" | "k" | "kl" | "dh" | "dl") integer
    edge       := "adv" | "advantage" | "dis" | "disadvantage"   (single die only)
    label      := free text after the expression that does not look like arithmetic

Invariants: a parsed expression never holds more than :data:`MAX_DICE` dice in
all, a die never has more than :data:`MAX_SIDES` sides, a keep count is between 1
and the number of dice, and an expression has at most :data:`MAX_TERMS` terms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from core.rules.errors import Malformed
from core.rules.rng import Rng, roll_die

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_TERMS = 20
MAX_CONSTANT = 1_000_000
MAX_INPUT = 300
MAX_LABEL = 120

EXAMPLES = "2d6+3, 4d6kh3, 2d20kl1, d20 adv"
NOTHING_TO_ROLL = "Tell me what to roll. Try something like {examples}."


class Keep(Enum):
    """Which dice of a term count towards its total."""

    ALL = "all"
    HIGHEST = "kh"
    LOWEST = "kl"
    DROP_HIGHEST = "dh"
    DROP_LOWEST = "dl"


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, of which some are kept."""

    count: int
    sides: int
    keep: Keep = Keep.ALL
    keep_n: int = 0

    @property
    def kept_count(self) -> int:
        """How many of the rolled dice count."""
        if self.keep is Keep.ALL:
            return self.count
        if self.keep in (Keep.HIGHEST, Keep.LOWEST):
            return self.keep_n
        return self.count - self.keep_n

    @property
    def minimum(self) -> int:
        return self.kept_count

    @property
    def maximum(self) -> int:
        return self.kept_count * self.sides

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.keep is not Keep.ALL:
            text += f"{self.keep.value}{self.keep_n}"
        return text


@dataclass(frozen=True)
class Constant:
    """A flat number added or subtracted."""

    value: int

    @property
    def minimum(self) -> int:
        return self.value

    @property
    def maximum(self) -> int:
        return self.value

    def __str__(self) -> str:
        return str(self.value)


Term = DiceTerm | Constant


@dataclass(frozen=True)
class SignedTerm:
    sign: int  # +1 or -1
    term: Term


@dataclass(frozen=True)
class DiceExpression:
    """A parsed roll: signed terms and an optional label."""

    terms: tuple[SignedTerm, ...]
    label: str = ""

    @property
    def dice_count(self) -> int:
        return sum(t.term.count for t in self.terms if isinstance(t.term, DiceTerm))

    @property
    def minimum(self) -> int:
        return sum(t.term.minimum if t.sign > 0 else -t.term.maximum for t in self.terms)

    @property
    def maximum(self) -> int:
        return sum(t.term.maximum if t.sign > 0 else -t.term.minimum for t in self.terms)

    @property
    def notation(self) -> str:
        """Canonical notation, which parses back to the same expression."""
        parts: list[str] = []
        for index, signed in enumerate(self.terms):
            sign = "-" if signed.sign < 0 else "+"
            if index == 0:
                parts.append(("-" if signed.sign < 0 else "") + str(signed.term))
            else:
                parts.append(f"{sign} {signed.term}")
        return " ".join(parts)


@dataclass(frozen=True)
class DieFace:
    value: int
    kept: bool


@dataclass(frozen=True)
class TermRoll:
    """How one term came out."""

    sign: int
    term: Term
    faces: tuple[DieFace, ...]
    subtotal: int


@dataclass(frozen=True)
class RollResult:
    expression: DiceExpression
    terms: tuple[TermRoll, ...]
    total: int


_TOKEN = re.compile(
    r"""
    \s*(?:
      (?P<dice>(?P<count>\d+)?d(?P<sides>\d+|%)
         (?:(?P<keep>kh|kl|dh|dl|k)(?P<keep_n>\d+))?
         (?:\s*(?P<edge>advantage|adv|disadvantage|dis)\b)?)
      |(?P<number>\d+)
      |(?P<sign>[+\-−])
    )""",
    re.VERBOSE | re.IGNORECASE,
)


def _starts_label(rest: str) -> bool:
    """Free text after the dice is a label unless it looks like more arithmetic."""
    return bool(rest) and not rest[0].isdigit() and rest[0] not in "+-−*/×^%=.,"


def _malformed(message: str, **values: str | int) -> Malformed:
    """An unreadable roll; ``message`` (a catalogue id) ends by showing ``{examples}``."""
    return Malformed(message, examples=EXAMPLES, **values)


def _int(text: str, too_big: str, limit: int) -> int:
    if len(text) > len(str(limit)) or int(text) > limit:
        raise Malformed(too_big, limit=limit)
    return int(text)


def _dice_term(match: re.Match[str]) -> DiceTerm:
    count = (
        _int(match["count"], "That number of dice is too big: the most is {limit}.", MAX_DICE)
        if match["count"]
        else 1
    )
    sides_text = match["sides"]
    sides = (
        100
        if sides_text == "%"
        else _int(sides_text, "That die is too big: the most is {limit}.", MAX_SIDES)
    )
    if count < 1:
        raise _malformed("Roll at least one die. Try something like {examples}.")
    if sides < 2:
        raise _malformed("A die needs at least 2 sides. Try something like {examples}.")
    keep, keep_n = Keep.ALL, 0
    if match["keep"]:
        keep = {"k": Keep.HIGHEST}.get(match["keep"].lower()) or Keep(match["keep"].lower())
        keep_n = _int(match["keep_n"], "That keep count is too big: the most is {limit}.", MAX_DICE)
        if keep in (Keep.HIGHEST, Keep.LOWEST) and not 1 <= keep_n <= count:
            raise _malformed(
                "You can keep between 1 and {count} of {dice}. Try something like {examples}.",
                count=count,
                dice=f"{count}d{sides}",
            )
        if keep in (Keep.DROP_HIGHEST, Keep.DROP_LOWEST) and not 1 <= keep_n < count:
            raise _malformed(
                "You can drop between 1 and {count} of {dice}. Try something like {examples}.",
                count=count - 1,
                dice=f"{count}d{sides}",
            )
    if match["edge"]:
        if count != 1 or keep is not Keep.ALL:
            raise _malformed(
                "Advantage and disadvantage apply to a single die, as in d20 adv. "
                "Try something like {examples}."
            )
        edge = Keep.HIGHEST if match["edge"].lower().startswith("adv") else Keep.LOWEST
        return DiceTerm(count=2, sides=sides, keep=edge, keep_n=1)
    return DiceTerm(count=count, sides=sides, keep=keep, keep_n=keep_n)


def parse(text: str) -> DiceExpression:
    """Parse dice notation such as ``4d6kh3 + 2 fireball``.

    Raises:
        Malformed: the text is not a roll, or asks for too many or too large dice.
    """
    if not text or not text.strip():
        raise _malformed(NOTHING_TO_ROLL)
    if len(text) > MAX_INPUT:
        raise _malformed("That roll is too long. Try something like {examples}.")
    position, terms, sign, label = 0, list[SignedTerm](), 1, ""
    expecting_term = True
    while position < len(text):
        if not text[position:].strip():
            break
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            rest = text[position:].strip()
            if not expecting_term and text[position].isspace() and _starts_label(rest):
                label = rest[:MAX_LABEL]
                break
            raise _malformed(
                "I couldn't read “{text}”. Try something like {examples}.", text=rest[:20]
            )
        if match["sign"]:
            if not expecting_term:
                sign, expecting_term = (1 if match["sign"] == "+" else -1), True
            elif not terms and sign == 1:
                sign = 1 if match["sign"] == "+" else -1
            else:
                raise _malformed("Two signs in a row. Try something like {examples}.")
        elif not expecting_term:
            raise _malformed(
                "Put + or - between the parts of a roll. Try something like {examples}."
            )
        else:
            if match["dice"]:
                term: Term = _dice_term(match)
            else:
                term = Constant(
                    _int(
                        match["number"],
                        "That number is too big: the most is {limit}.",
                        MAX_CONSTANT,
                    )
                )
            terms.append(SignedTerm(sign=sign, term=term))
            expecting_term, sign = False, 1
            if len(terms) > MAX_TERMS:
                raise _malformed(
                    "A roll can have at most {limit} parts. Try something like {examples}.",
                    limit=MAX_TERMS,
                )
        position = match.end()
    if expecting_term:
        if not terms:
            raise _malformed(NOTHING_TO_ROLL)
        raise _malformed("The roll ends with a sign. Try something like {examples}.")
    expression = DiceExpression(terms=tuple(terms), label=label)
    if not any(isinstance(t.term, DiceTerm) for t in terms):
        raise _malformed("There are no dice in that. Try something like {examples}.")
    if expression.dice_count > MAX_DICE:
        raise Malformed(
            "That's {count} dice; I roll at most {limit} at once.",
            count=expression.dice_count,
            limit=MAX_DICE,
        )
    return expression


def kept_indexes(values: tuple[int, ...], term: DiceTerm) -> frozenset[int]:
    """Indexes of the dice that count, ties broken towards the earlier die."""
    order = sorted(range(len(values)), key=lambda i: (values[i], -i))
    if term.keep is Keep.ALL:
        return frozenset(range(len(values)))
    if term.keep is Keep.HIGHEST:
        return frozenset(order[len(values) - term.keep_n :])
    if term.keep is Keep.LOWEST:
        return frozenset(sorted(range(len(values)), key=lambda i: (values[i], i))[: term.keep_n])
    if term.keep is Keep.DROP_LOWEST:
        return frozenset(order[term.keep_n :])
    return frozenset(sorted(range(len(values)), key=lambda i: (values[i], i))[: -term.keep_n])


def evaluate(expression: DiceExpression, faces: tuple[tuple[int, ...], ...]) -> RollResult:
    """Total an expression given the face of every die, one tuple per dice term."""
    results: list[TermRoll] = []
    dice_terms = iter(faces)
    total = 0
    for signed in expression.terms:
        if isinstance(signed.term, Constant):
            results.append(TermRoll(signed.sign, signed.term, (), signed.term.value))
            total += signed.sign * signed.term.value
            continue
        values = next(dice_terms)
        kept = kept_indexes(values, signed.term)
        shown = tuple(DieFace(v, i in kept) for i, v in enumerate(values))
        subtotal = sum(v for i, v in enumerate(values) if i in kept)
        results.append(TermRoll(signed.sign, signed.term, shown, subtotal))
        total += signed.sign * subtotal
    return RollResult(expression=expression, terms=tuple(results), total=total)


def roll(expression: DiceExpression, rng: Rng) -> RollResult:
    """Roll every die of ``expression`` with ``rng``."""
    faces = tuple(
        tuple(roll_die(rng, t.term.sides) for _ in range(t.term.count))
        for t in expression.terms
        if isinstance(t.term, DiceTerm)
    )
    return evaluate(expression, faces)
