"""Dice notation: parsing into immutable expressions and rolling them.

The grammar, its meanings and its limits are documented in docs/dice.md. In short
(whitespace allowed between tokens, case-insensitive; ``к`` and ``д`` are the dice
letter too)::

    roll     := [INT "x"] expr { suffix } [note]
    suffix   := "x" INT | adv | dis | (compare | "dc" | "vs" | "сл") INT   (a target)
    expr     := product { ("+" | "-") product }
    product  := unary { ("*" | "/" | "//" | "%") unary }  ("/" rounds down)
    unary    := ("-" | "+") unary | atom
    atom     := (INT | dice | group) ["[" label "]"]
    group    := "(" expr { "," expr } ")" [keep]
    dice     := [INT] "d" (INT | "%" | "F") { modifier }
    modifier := explode | reroll | "mi" INT | "ma" INT | keep | count | adv | dis
    keep     := ("kh" | "kl" | "dh" | "dl" | "k" | "p" | "ph" | "pl") INT

Two entry points other code builds on: :func:`parse` (text to an immutable
:class:`DiceExpression`) and :func:`roll` (an expression and an injected
:class:`~core.rules.rng.Rng` to a :class:`RollResult`). Nothing here reads a
clock or a global random source.

Invariants: a parsed expression rolls at most :data:`MAX_DICE` dice before
explosions and rerolls (repeats included), a die has at most :data:`MAX_SIDES`
sides, an expression has at most :data:`MAX_TERMS` numbers and dice terms, a die
explodes at most :data:`EXPLODE_DEPTH` times; a die rerolled until it no longer
matches (``r``) draws once more among the faces that don't match. Exact odds
(:mod:`core.rules.dice_odds`) follow the very same limits, so they are exact for the
rolls this module makes.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Union

from core.rules.errors import Malformed
from core.rules.rng import Rng
from core.rules.said import Term

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_TERMS = 100
MAX_REPEATS = 20
MAX_CONSTANT = 1_000_000
MAX_TOTAL = 10**15  # a total, however the dice fall, stays within this (and a 64-bit column)
MAX_INPUT = 1000
MAX_LABEL = 120
MAX_ANNOTATION = 40
MAX_NESTING = 10
EXPLODE_DEPTH = 20
# The most draws from the Rng one roll can make: each die shows at most 1 + EXPLODE_DEPTH
# faces, and each face takes at most two draws (a matching face, then its reroll).
MAX_ROLL_STEPS = MAX_DICE * (EXPLODE_DEPTH + 1) * 2

# shown in refusals as the reader types dice (core.words.typed_words.dice_examples)
EXAMPLES = Term("examples of dice players type", "2d6+3, 4d6kh3, 2d20kl1, d20 adv")
NOTHING_TO_ROLL = "Tell me what to roll. Try something like {examples}."
CANT_READ = "I couldn't read “{text}”. Try something like {examples}."
NOT_HERE = "“{text}” can't stand there. Try something like {examples}."
TOO_LONG = "That roll is too long. Try something like {examples}."
TOO_MANY_DICE = "That's {count} dice; I roll at most {limit} at once."
TOO_MANY_TERMS = "A roll can have at most {limit} parts. Try something like {examples}."
TOO_MANY_REPEATS = "A roll can be repeated at most {limit} times."
TOO_DEEP = "Too many brackets inside each other: at most {limit}."
ENDS_WITH_SIGN = "The roll ends with a sign. Try something like {examples}."
UNCLOSED = "A bracket isn't closed. Try something like {examples}."
AT_LEAST_ONE_DIE = "Roll at least one die. Try something like {examples}."
TWO_SIDES = "A die needs at least 2 sides. Try something like {examples}."
KEEP_RANGE = "You can keep between 1 and {count} of {dice}. Try something like {examples}."
DROP_RANGE = "You can drop between 1 and {count} of {dice}. Try something like {examples}."
SINGLE_EDGE = (
    "Advantage and disadvantage apply to a single d20, as in 1d20+5 adv. "
    "Try something like {examples}."
)
BOTH_EDGES = "Advantage and disadvantage together: pick one."
EXPLODES_FOREVER = "“{text}” would make every die explode: choose fewer faces."
REROLLS_FOREVER = "“{text}” would reroll every face: choose fewer faces."
ONE_EXPLOSION = "A die can explode (or add a reroll) in one way only: “{text}”."
TWICE = "“{text}” is given twice for the same dice."
FACE_RANGE = "“{text}” must be a face of the die."
MIN_OVER_MAX = "The minimum face is above the maximum face in “{text}”."
FAILURES_NEED_SUCCESSES = "Count failures (f) together with successes, as in 10d10>=8f1."
NEEDS_NUMBER = "“{text}” needs a number, as in {example}."
TARGET_NEEDS_NUMBER = "A target needs a number, as in 2d6 >= 7."
TWO_DROPS = "Two drops on one dice term (“{text}”): use one, as in 4d6dl1."
TWO_KEEPS = "Two keeps on one dice term (“{text}”): use one, as in 4d6kh3."
KEEP_AND_DROP = "A keep and a drop on one dice term (“{text}”): use one, as in 4d6kh3."
DIVIDE_BY_ZERO = "“{text}” could divide by zero."
TWO_TARGETS = "A roll can have one target, as in 1d20+5 >= 15."
SIGN_TWICE = "Two signs in a row. Try something like {examples}."
BIG_NUMBER = "That number is too big: the most is {limit}."
BIG_COUNT = "That number of dice is too big: the most is {limit}."
BIG_DIE = "That die is too big: the most is {limit}."
BIG_KEEP = "That keep count is too big: the most is {limit}."
BIG_TOTAL = "That roll could come to a number too large to show: use smaller numbers."

FUDGE = 0  # the ``sides`` of a Fudge die (faces -1, 0, +1)

_OPS = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt, "=": operator.eq,
        "!=": operator.ne}  # fmt: skip
# What a modifier written without its number needs, shown as an example
_NEEDS_EXAMPLE = {"kh": "4d6kh3", "kl": "2d20kl1", "dh": "4d6dh1", "dl": "4d6dl1", "k": "4d6k3",
                  "p": "4d6p1", "ph": "4d6ph1", "pl": "4d6pl1", "mi": "4d6mi2", "ma": "4d6ma5",
                  "min": "4d6min2", "max": "4d6max5", "e": "1d20e20", "ra": "2d6ra6",
                  "cs": "1d20cs>19", "cf": "1d20cf1", "f": "10d10>=8f1"}  # fmt: skip


@dataclass(frozen=True)
class Compare:
    """A comparison with a number: ``>=5``, ``<3``, ``=6``, ``!=1`` (written ``<>1``)."""

    op: str
    value: int

    def test(self, number: int) -> bool:
        return bool(_OPS[self.op](number, self.value))

    def __str__(self) -> str:
        return f"{'<>' if self.op == '!=' else self.op}{self.value}"


@dataclass(frozen=True)
class Number:
    value: int
    label: str = ""

    def __str__(self) -> str:
        return str(self.value) + (f"[{self.label}]" if self.label else "")


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` sides (:data:`FUDGE` for dF) and their modifiers.

    ``explode`` is ``""``, ``"!"`` (extra dice), ``"!!"`` (added into the die),
    ``"!p"`` (extra dice, each one less) or ``"ra"`` (one extra die at most);
    ``reroll`` is ``""``, ``"r"`` (until the face no longer matches: a uniform draw among
    the faces that don't) or ``"ro"`` (once). ``crit`` and ``fumble`` (``cs``/``cf``) mark
    faces as critical successes or failures without changing what the dice count for;
    ``failure`` (``f``) subtracts a matching die from the success count.
    """

    count: int
    sides: int
    explode: str = ""
    explode_on: Compare | None = None
    reroll: str = ""
    reroll_on: Compare | None = None
    lowest: int | None = None  # mi: a face below counts as this
    highest: int | None = None  # ma: a face above counts as this
    keep: str = ""  # "", "kh", "kl", "dh", "dl"
    keep_n: int = 0
    success: Compare | None = None
    failure: Compare | None = None
    crit: Compare | None = None
    fumble: Compare | None = None
    label: str = ""

    @property
    def single_keep(self) -> bool:
        """Keep/drop picks single faces: every die an explosion added is a die of its own."""
        return bool(self.keep) and self.explode in ("!", "!p", "ra")

    @property
    def faces(self) -> tuple[int, ...]:
        return (-1, 0, 1) if self.sides == FUDGE else tuple(range(1, self.sides + 1))

    @property
    def counting(self) -> bool:
        return self.success is not None

    @property
    def kept_count(self) -> int:
        if not self.keep:
            return self.count
        if self.keep in ("kh", "kl"):
            return self.keep_n
        return self.count - self.keep_n

    def die_text(self) -> str:
        return f"{self.count}d" + ("F" if self.sides == FUDGE else str(self.sides))

    def __str__(self) -> str:
        text = self.die_text()
        if self.reroll and self.reroll_on is not None:
            text += self.reroll + _cmp_text(self.reroll_on)
        if self.lowest is not None:
            text += f"mi{self.lowest}"
        if self.highest is not None:
            text += f"ma{self.highest}"
        if self.explode and self.explode_on is not None:
            default = Compare("=", max(self.faces))
            plain = self.explode_on == default and self.explode != "ra"
            text += self.explode + ("" if plain else _cmp_text(self.explode_on))
        if self.keep:
            text += f"{self.keep}{self.keep_n}"
        if self.success is not None:
            text += (" " if text.endswith(("!", "!p")) else "") + str(self.success)
        if self.failure is not None:
            text += "f" + _cmp_text(self.failure)
        if self.crit is not None:
            text += "cs" + _cmp_text(self.crit)
        if self.fumble is not None:
            text += "cf" + _cmp_text(self.fumble)
        return text + (f"[{self.label}]" if self.label else "")


@dataclass(frozen=True)
class Group:
    """Brackets: one expression, or a set of them (``(1d20+5, 1d20+3)kh1``)."""

    items: tuple[Node, ...]
    keep: str = ""
    keep_n: int = 0
    label: str = ""

    def __str__(self) -> str:
        text = "(" + ", ".join(str(i) for i in self.items) + ")"
        if self.keep:
            text += f"{self.keep}{self.keep_n}"
        return text + (f"[{self.label}]" if self.label else "")


@dataclass(frozen=True)
class BinOp:
    op: str  # + - * / % ("/" rounds down, "%" is the remainder of that division)
    left: Node
    right: Node

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


@dataclass(frozen=True)
class Neg:
    operand: Node

    def __str__(self) -> str:
        return f"-{self.operand}"


Node = Union[Number, Dice, Group, BinOp, Neg]  # noqa: UP007 (a forward reference)


def _cmp_text(compare: Compare) -> str:
    return str(compare.value) if compare.op == "=" else str(compare)


@dataclass(frozen=True)
class DiceExpression:
    """A parsed roll: the arithmetic, how many times it is rolled, a target, a note."""

    node: Node
    label: str = ""
    repeat: int = 1
    target: Compare | None = None

    @property
    def notation(self) -> str:
        """Canonical notation, which parses back to the same expression."""
        text = str(self.node)
        if self.repeat > 1:
            text = f"{self.repeat}x{text}"
        if self.target is not None:
            text += f" {self.target.op} {self.target.value}"
        return text

    @property
    def dice_count(self) -> int:
        """Dice rolled before explosions and rerolls, repeats included."""
        return self.repeat * sum(d.count for d in dice_terms(self.node))

    @property
    def minimum(self) -> int:
        return bounds(self.node)[0]

    @property
    def maximum(self) -> int:
        return bounds(self.node)[1]

    @property
    def counts_successes(self) -> bool:
        return any(d.counting for d in dice_terms(self.node))

    @property
    def divides(self) -> bool:
        """The arithmetic has a division, which rounds down."""
        return _divides(self.node)

    @property
    def explodes(self) -> bool:
        return any(d.explode in ("!", "!!", "!p") for d in dice_terms(self.node))


def _divides(node: Node) -> bool:
    if isinstance(node, BinOp):
        return node.op == "/" or _divides(node.left) or _divides(node.right)
    if isinstance(node, Group):
        return any(_divides(i) for i in node.items)
    if isinstance(node, Neg):
        return _divides(node.operand)
    return False


def dice_terms(node: Node) -> list[Dice]:
    """Every dice term, left to right."""
    found: list[Dice] = []
    _collect(node, found)
    return found


def _collect(node: Node, found: list[Dice]) -> None:
    if isinstance(node, Dice):
        found.append(node)
    elif isinstance(node, Group):
        for item in node.items:
            _collect(item, found)
    elif isinstance(node, BinOp):
        _collect(node.left, found)
        _collect(node.right, found)
    elif isinstance(node, Neg):
        _collect(node.operand, found)


# --- bounds -------------------------------------------------------------------------


def face_bounds(dice: Dice) -> tuple[int, int]:
    """The lowest and highest value one face can show (after mi/ma)."""
    return _face_bounds(dice.sides, dice.lowest, dice.highest)


def _face_bounds(sides: int, lowest: int | None, highest: int | None) -> tuple[int, int]:
    low, high = (-1, 1) if sides == FUDGE else (1, sides)
    if lowest is not None:
        low, high = max(low, lowest), max(high, lowest)
    if highest is not None:
        low, high = min(low, highest), min(high, highest)
    return low, high


@lru_cache(maxsize=1024)
def die_bounds(dice: Dice) -> tuple[int, int]:
    """The lowest and highest one die (with the dice it adds) can count for."""
    if dice.counting and dice.explode == "!!":
        return (-1 if dice.failure is not None else 0), 1
    low, high = face_bounds(dice)
    if not dice.explode and not dice.counting:
        return low, high
    on = dice.explode_on if dice.explode else None
    depth = 1 if dice.explode == "ra" else EXPLODE_DEPTH
    extra_penalty = 1 if dice.explode == "!p" else 0

    def worth(shown: int) -> int:
        return face_mark(dice, shown) if dice.counting else shown

    # each face once per penalty: the lowest and highest worth of the faces that explode
    # (then add a die) and of those that don't; each depth is then a few comparisons
    spans: dict[int, tuple[tuple[int, int] | None, tuple[int, int] | None]] = {}
    for penalty in {0, extra_penalty}:
        ends: list[list[int]] = [[], []]  # [not exploding, exploding]
        for value in range(low, high + 1):
            ends[on is not None and on.test(value)].append(worth(value - penalty))
        spans[penalty] = tuple(  # type: ignore[assignment]
            (min(e), max(e)) if e else None for e in ends
        )
    memo: dict[tuple[int, int], tuple[int, int]] = {}

    def chain(left: int, penalty: int) -> tuple[int, int]:
        if (left, penalty) in memo:
            return memo[left, penalty]
        stays, explodes = spans[penalty]
        if left == 0:  # the last die: every face stands
            parts = [s for s in (stays, explodes) if s is not None]
            result = min(p[0] for p in parts), max(p[1] for p in parts)
        else:
            options = [stays] if stays is not None else []
            if explodes is not None:
                rest_lo, rest_hi = chain(left - 1, extra_penalty)
                options.append((explodes[0] + rest_lo, explodes[1] + rest_hi))
            result = min(o[0] for o in options), max(o[1] for o in options)
        memo[left, penalty] = result
        return result

    return chain(depth if on is not None else 0, 0)


def bounds(node: Node) -> tuple[int, int]:
    """The lowest and highest total of ``node`` (exactly reachable)."""
    return bounds_from(node, bounds)


def _dice_bounds(dice: Dice) -> tuple[int, int]:
    """The lowest and highest total of a dice term: its kept dice, each within
    :func:`die_bounds` (or, keeping among every die rolled, :func:`_single_bounds`)."""
    low, high = die_bounds(dice)
    n = dice.kept_count
    if dice.single_keep:
        single_low, single_high = _single_bounds(dice)
        if dice.keep in ("kh", "kl"):
            return n * single_low, n * single_high
        most = dice.count * (1 if dice.explode == "ra" else EXPLODE_DEPTH + 1)
        return n * single_low if single_low >= 0 else most * single_low, dice.count * high
    return n * low, n * high


def bounds_from(node: Node, inner: Callable[[Node], tuple[int, int]]) -> tuple[int, int]:
    """:func:`bounds` of ``node`` given those of what it is made of (``inner``): one pass
    over a tree whose parts' bounds are already known."""
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Dice):
        return _dice_bounds(node)
    if isinstance(node, Group):
        ranges = [inner(i) for i in node.items]
        if not node.keep:
            return sum(r[0] for r in ranges), sum(r[1] for r in ranges)
        keep = _kept_members(node)
        lows = sorted(r[0] for r in ranges)
        highs = sorted(r[1] for r in ranges)
        if node.keep in ("kh", "dl"):
            return sum(lows[-keep:]), sum(highs[-keep:])
        return sum(lows[:keep]), sum(highs[:keep])
    if isinstance(node, Neg):
        low, high = inner(node.operand)
        return -high, -low
    (a, b), (c, d) = inner(node.left), inner(node.right)
    if node.op == "+":
        return a + c, b + d
    if node.op == "-":
        return a - d, b - c
    if node.op == "*":
        products = (a * c, a * d, b * c, b * d)
        return min(products), max(products)
    if node.op == "%":
        if c > 0:
            return (a, b) if a >= 0 and b < c else (0, min(d - 1, b) if a >= 0 else d - 1)
        return (a, b) if b <= 0 and a > d else (c + 1, 0)
    quotients = (a // c, a // d, b // c, b // d)
    return min(quotients), max(quotients)


def _single_bounds(dice: Dice) -> tuple[int, int]:
    """The lowest and highest one shown face counts for (each face its own die)."""
    low, high = face_bounds(dice)
    if dice.explode == "!p":
        low -= 1
    if dice.counting:
        marks = [face_mark(dice, v) for v in range(low, high + 1)]
        return min(marks), max(marks)
    return low, high


def _kept_members(group: Group) -> int:
    n = len(group.items)
    return group.keep_n if group.keep in ("kh", "kl") else n - group.keep_n


# --- parsing ------------------------------------------------------------------------

_CMP = r"(?:>=|<=|<>|!=|>|<|=)"
_CMP_RE = re.compile(_CMP)
# "!=" right after dice or a modifier is "!" exploding on "=N" (as rpg-dice-roller reads
# it); "<>" is "not equal" everywhere, and so is "!=" after a space.
_MODIFIER = re.compile(
    r"""
    (?P<bang>!!|!p|!)(?P<bang_on>(?:>=|<=|<>|>|<|=)?\d+)?
    |(?P<e>e)(?P<e_on>(?:>=|<=|<>|>|<|=)?\d+)
    |(?P<reroll>rr|ro|ra|r)(?P<reroll_on>(?:>=|<=|<>|!=|>|<|=)?\d+|(?![^\W\d_]))
    |(?P<clamp>min|max|mi|ma)\s*(?P<clamp_n>\d+)
    |(?P<keep>kh|kl|dh|dl|ph|pl|k|p)\s*(?P<keep_n>\d+)
    |(?P<cs>cs|cf)\s*(?P<cs_on>(?:>=|<=|<>|!=|>|<|=)?\s*-?\d+)
    |(?P<fail>f)\s*(?P<fail_on>(?:>=|<=|<>|!=|>|<|=)?\s*-?\d+)
    |(?P<count>>=|<=|<>|!=|>|<|=)\s*(?P<count_n>-?\d+)
    """,
    re.VERBOSE,
)
_COUNT = re.compile(r"(?P<count>>=|<=|<>|!=|>|<|=)\s*(?P<count_n>-?\d+)")
# A modifier's name without the number it needs ("4d6kh", "2d6 min + 1")
_BARE = re.compile(
    r"(?P<name>kh|kl|dh|dl|ph|pl|k|p|min|max|mi|ma|e|ra|cs|cf|f)(?![^\W\d_])(?!\s+[^\W\d_])"
)
_EDGE = re.compile(
    r"(?P<edge>advantage|adv|disadvantage|disadv|dis|преимуществом|преимущество|преим"
    r"|поме[хx]ой|поме[хx]а)(?![^\W\d_])"
)
_SET_KEEP = re.compile(r"(?P<keep>kh|kl|dh|dl|ph|pl|k|p)\s*(?P<keep_n>\d+)")
# An atom after spaces: dice first, then a plain number (one match for both tries)
_ATOM = re.compile(r"\s*(?:(?P<count>\d+)?d(?P<sides>\d+|%|f)|(?P<number>\d+))")
_ADD = re.compile(r"\s*([+-])\s*")  # a sign and the spaces around it
_MUL = re.compile(r"\s*(//|[*/%])")
_DIGITS_AND_D = frozenset("0123456789d")
# The modifier group that matched last, to the kind of modifier it belongs to
_KIND = {"bang": "bang", "bang_on": "bang", "e_on": "e", "reroll": "reroll",
         "reroll_on": "reroll", "clamp_n": "clamp", "keep_n": "keep", "cs_on": "cs",
         "fail_on": "fail", "count_n": "count"}  # fmt: skip
_SLOT = {"bang": "explode", "e": "explode", "keep": "keep", "count": "success",
         "fail": "failure"}  # fmt: skip
_ANNOTATION = re.compile(r"\s*\[(?P<label>[^\[\]]*)\]")
_REPEAT_PREFIX = re.compile(r"\s*(?P<n>\d+)\s*x\s*(?=[\d(d%])")
_REPEAT_SUFFIX = re.compile(r"x\s*(?P<n>\d+)(?![^\W_])")
_TARGET = re.compile(r"(?:(?P<op>>=|<=|<>|!=|>|<|=)|(?P<dc>dc|сл|vs)(?![^\W\d_]))\s*(?P<n>-?\d+)")
_TARGET_WITHOUT_NUMBER = re.compile(r"\s*(?:>=|<=|<>|!=|>|<|=|dc|сл|vs)(?!\s*[^\W\d_])")
_WORD = re.compile(r"\S+")
_SPACES = re.compile(r"\s*")
_MODIFIER_START = frozenset("!erdmkpcf<>=aп")  # the first letters of modifiers and edges
_ADV_WORDS = {"advantage", "adv", "преимуществом", "преимущество", "преим"}
_KEEP_NAMES = {"k": "kh", "p": "dl", "pl": "dl", "ph": "dh"}
# Words that read as notation; a note never starts with one.
_NOTATION_WORDS = frozenset(
    [
        "k",
        "kh",
        "kl",
        "dh",
        "dl",
        "p",
        "ph",
        "pl",
        "r",
        "rr",
        "ro",
        "ra",
        "e",
        "mi",
        "ma",
        "cs",
        "cf",
        "dc",
        "сл",
        "x",
        "d",
        "f",
        "adv",
        "dis",
        "advantage",
        "disadvantage",
        "disadv",
        "преим",
        "помеха",
    ]
)
_TRANSLATE = str.maketrans({"к": "d", "д": "d", "х": "x", "×": "*", "÷": "/", "−": "-",
                            "–": "-"})  # fmt: skip


def _normal(text: str) -> str:
    """Lower case, Cyrillic dice letters and typographic signs read as notation.

    Keeps every character at its index, so a note can be cut from the original.
    """
    low = text.lower()
    if len(low) == len(text):
        return low.translate(_TRANSLATE)
    out = []
    for char in text:
        low = char.lower()
        out.append(low.translate(_TRANSLATE) if len(low) == 1 else char)
    return "".join(out)


def _malformed(message: str, **values: str | int) -> Malformed:
    """An unreadable roll; ``message`` (a catalogue id) may show ``{examples}``."""
    return Malformed(message, examples=EXAMPLES, **values)


def _int(text: str, message: str, limit: int) -> int:
    digits = text.strip()
    if len(digits.lstrip("-")) > len(str(limit)) or abs(value := int(digits)) > limit:
        raise Malformed(message, limit=limit)
    return value


def _compare(text: str) -> Compare:
    text = text.replace(" ", "")
    match = _CMP_RE.match(text)
    op = match.group(0) if match else ""
    digits = text[len(op) :]
    op = "!=" if op == "<>" else op or "="
    if 0 < len(digits) < 7 and digits.isdecimal():  # within MAX_CONSTANT: no need to check
        return Compare(op, int(digits))
    return Compare(op, _int(digits, BIG_NUMBER, MAX_CONSTANT))


def _count_and_sides(count_text: str | None, sides_text: str) -> tuple[int, int]:
    """How many dice of how many sides (``%`` is 100, ``f`` a Fudge die)."""
    # up to 3 digits is within MAX_DICE and MAX_SIDES: no need to check
    if not count_text:
        count = 1
    else:
        count = int(count_text) if len(count_text) < 4 else _int(count_text, BIG_COUNT, MAX_DICE)
    if sides_text == "%":
        sides = 100
    elif sides_text == "f":
        sides = FUDGE
    else:
        sides = int(sides_text) if len(sides_text) < 4 else _int(sides_text, BIG_DIE, MAX_SIDES)
        if sides < 2:
            raise _malformed(TWO_SIDES)
    if count < 1:
        raise _malformed(AT_LEAST_ONE_DIE)
    return count, sides


class _Parser:
    def __init__(self, text: str) -> None:
        self.raw = text
        self.s = _normal(text)
        self.i = 0
        self.depth = 0
        self.edges: list[tuple[str, str]] = []  # (adv|dis, the word as written)
        self.atoms = 0  # numbers and dice terms read
        self.terms: list[Dice] = []  # the dice terms read, left to right
        self.changes: list[str] = []  # how the text reads differently from before
        self.marks: list[tuple[int, int, str]] = []  # where cs/cf are: start, end, which
        self.steps = len(text)  # the work done on the text: one pass to normalise, then
        # a step per pattern tried and per character it matched (see parse_steps)

    # -- helpers
    def skip(self) -> None:
        if self.i < len(self.s) and self.s[self.i].isspace():
            self.i = self.match(_SPACES, self.i).end()  # type: ignore[union-attr]

    def at(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        return self.match(pattern, self.i)

    def match(self, pattern: re.Pattern[str], at: int) -> re.Match[str] | None:
        """``pattern`` tried at ``at``: a step, and one more for each character it reads."""
        found = pattern.match(self.s, at)
        self.steps += 1 + (found.end() - at if found else 0)
        return found

    def part(self, start: int | None = None, end: int | None = None) -> str:
        start = self.i if start is None else start
        if end is None:
            word = _WORD.match(self.raw, start)
            end = word.end() if word else start
        return self.raw[start:end].strip()[:20]

    def fail_here(self) -> Malformed:
        self.skip()
        if self.i >= len(self.s):
            return _malformed(ENDS_WITH_SIGN)
        return _malformed(CANT_READ, text=self.part())

    # -- grammar
    def expr(self) -> Node:
        node = self.product()
        s = self.s
        while True:
            sign = self.match(_ADD, self.i)
            if sign is None:
                return node
            self.i = sign.end()
            if self.i < len(s) and s[self.i] in "+-":
                raise _malformed(SIGN_TWICE)
            node = BinOp(sign[1], node, self.product())

    def product(self) -> Node:
        s, i = self.s, self.i
        # the common case, no sign here: straight to the atom (as unary would go)
        node = self.atom() if i < len(s) and s[i] in _DIGITS_AND_D else self.unary()
        while True:
            sign = self.match(_MUL, self.i)
            if sign is None:
                return node
            op, start = sign[1], sign.start(1)
            op = "/" if op == "//" else op  # d20's floor division is our "/"
            self.i = sign.end()
            right = self.unary()
            if op in "/%":
                low, high = bounds(right)
                if low <= 0 <= high:
                    raise _malformed(DIVIDE_BY_ZERO, text=self.part(start, self.i))
            node = BinOp(op, node, right)

    def unary(self) -> Node:
        s, i = self.s, self.i
        if i < len(s) and s[i] in _DIGITS_AND_D:  # the common case: no sign here
            return self.atom()
        sign = self.match(_ADD, i)
        if sign is None:
            return self.atom()
        self.i = sign.end()
        if self.i < len(self.s) and self.s[self.i] in "+-":
            raise _malformed(SIGN_TWICE)
        operand = self.unary()
        return Neg(operand) if sign[1] == "-" else operand

    def atom(self) -> Node:
        s = self.s
        found = self.match(_ATOM, self.i)
        node: Number | Dice | Group
        if found is not None:
            self.i = found.end()
            if found["sides"] is not None:
                node = self.dice(found)
            else:
                digits = found["number"]  # up to 6 digits is within MAX_CONSTANT
                value = int(digits) if len(digits) < 7 else _int(digits, BIG_NUMBER, MAX_CONSTANT)
                node = Number(value)
        else:
            self.skip()
            if self.i >= len(s):
                raise _malformed(ENDS_WITH_SIGN)
            if s[self.i] != "(":
                raise self.fail_here()
            node = self.group()
        i = self.i
        annotation = (
            self.match(_ANNOTATION, i) if i < len(s) and (s[i] == "[" or s[i].isspace()) else None
        )
        if annotation:
            label = self.raw[annotation.start("label") : annotation.end("label")].strip()
            self.i = annotation.end()
            node = replace(node, label=label[:MAX_ANNOTATION])
        if type(node) is Dice:
            self.atoms += 1
            self.terms.append(node)
        elif type(node) is Number:
            self.atoms += 1
        return node

    def group(self) -> Group:
        start = self.i
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise Malformed(TOO_DEEP, limit=MAX_NESTING)
        self.i += 1
        items = [self.expr()]
        while True:
            self.skip()
            if self.i >= len(self.s):
                raise _malformed(UNCLOSED)
            if self.s[self.i] == ",":
                self.i += 1
                items.append(self.expr())
            elif self.s[self.i] == ")":
                self.i += 1
                break
            else:
                raise self.fail_here()
        self.depth -= 1
        group = Group(tuple(items))
        save = self.i
        self.skip()
        keep = self.at(_SET_KEEP)
        if keep:
            self.i = keep.end()
            name = _KEEP_NAMES.get(keep["keep"], keep["keep"])
            n = _int(keep["keep_n"], BIG_KEEP, MAX_DICE)
            _check_keep(name, n, len(items), self.part(start, self.i))
            return Group(tuple(items), name, n)
        self.i = save
        return group

    def dice(self, match: re.Match[str]) -> Dice:
        count, sides = _count_and_sides(match["count"], match["sides"])
        s = self.s
        here = self.i
        if here < len(s) and s[here].isspace():
            here = self.match(_SPACES, here).end()  # type: ignore[union-attr]
        if here >= len(s) or s[here] not in _MODIFIER_START:
            return Dice(count, sides)  # the common case: no modifier at all
        mods: dict[str, object] = {}  # the fields the modifiers set, so far
        seen: set[str] = set()
        while True:
            save = self.i
            self.skip()
            here = self.i
            if here >= len(s) or s[here] not in _MODIFIER_START:
                self.i = save
                return Dice(count, sides, **mods)  # type: ignore[arg-type]
            edge = self.match(_EDGE, here)
            if edge:  # what follows the edge (a target, a sign) is the roll's, not the dice's
                self.i = edge.end()
                kind = "adv" if edge["edge"] in _ADV_WORDS else "dis"
                self.edges.append((kind, self.part(here, self.i)))
                return Dice(count, sides, **mods)  # type: ignore[arg-type]
            spaced = here > save
            found = (
                self.match(_COUNT, here)
                if spaced and s.startswith("!=", here)
                else self.match(_MODIFIER, here)
            )
            if found is not None and spaced and s.startswith("!=", here):
                self.changes.append(SPACED_NOT_EQUAL)  # "!=" after a space was "!" on "=N"
            if not found:
                bare = self.match(_BARE, here)
                if bare and not (spaced and bare["name"] in ("e", "f", "k", "p")):
                    name = bare["name"]
                    raise Malformed(NEEDS_NUMBER, text=name, example=_NEEDS_EXAMPLE[name])
                self.i = save
                return Dice(count, sides, **mods)  # type: ignore[arg-type]
            if found.lastgroup == "count_n" and not _splits_faces(
                count, sides, mods, _compare(found["count"] + found["count_n"])
            ):  # every face or none would match: a target for the total, which the roll reads
                self.changes.append(TOTAL_TARGET)
                self.i = save
                return Dice(count, sides, **mods)  # type: ignore[arg-type]
            self.i = found.end()
            self.modifier(count, sides, mods, found, here, seen)

    def modifier(
        self,
        count: int,
        sides: int,
        mods: dict[str, object],
        found: re.Match[str],
        here: int,
        seen: set[str],
    ) -> None:
        """Check one modifier against the dice so far and add it to ``mods``."""
        low, high = (-1, 1) if sides == FUDGE else (1, sides)
        kind = _KIND.get(found.lastgroup or "", "")
        name = found[kind]
        name = {"min": "mi", "max": "ma"}.get(name, name)
        slot = (
            _SLOT.get(kind)
            or {
                "reroll": "explode" if name == "ra" else "reroll",
                "clamp": name,
                "cs": "crit" if name == "cs" else "fumble",
            }[kind]
        )
        if slot in seen:
            text = self.part(here, self.i)
            if slot == "keep":
                new = _KEEP_NAMES.get(name, name)
                drops = (str(mods["keep"]) in ("dh", "dl"), new in ("dh", "dl"))
                message = {(True, True): TWO_DROPS, (False, False): TWO_KEEPS}.get(
                    drops, KEEP_AND_DROP
                )
                raise Malformed(message, text=text)
            raise _malformed(ONE_EXPLOSION if slot == "explode" else TWICE, text=text)
        seen.add(slot)
        lowest: int | None = mods.get("lowest")  # type: ignore[assignment]
        highest: int | None = mods.get("highest")  # type: ignore[assignment]
        if name == "ra" and not found["reroll_on"]:
            raise Malformed(NEEDS_NUMBER, text=name, example=_NEEDS_EXAMPLE[name])
        if kind in ("bang", "e") or name == "ra":
            on_text = found["bang_on"] or found["e_on"] or found["reroll_on"]
            on = _compare(on_text) if on_text else Compare("=", high)
            mode = {"e": "!"}.get(name, name)
            if all(on.test(v) for v in range(*_face_range(sides, lowest, highest))):
                raise _malformed(EXPLODES_FOREVER, text=self.part(here, self.i))
            mods["explode"], mods["explode_on"] = mode, on
            return
        if kind == "reroll":  # a bare "r" rerolls the lowest face, as "r1" on a d6
            on = (
                _compare(found["reroll_on"])
                if found["reroll_on"]
                else Compare("=", low)
                if low > 0
                else Compare("<", low + 1)  # dF: r<0
            )
            if name != "ro" and all(on.test(v) for v in _face_values(sides)):
                raise _malformed(REROLLS_FOREVER, text=self.part(here, self.i))
            mods["reroll"], mods["reroll_on"] = ("ro" if name == "ro" else "r"), on
            return
        if kind == "clamp":
            value = _int(found["clamp_n"], BIG_NUMBER, MAX_CONSTANT)
            if not low <= value <= high:
                raise Malformed(FACE_RANGE, text=self.part(here, self.i))
            if name == "mi":
                lowest = value
            else:
                highest = value
            if lowest is not None and highest is not None and lowest > highest:
                raise Malformed(MIN_OVER_MAX, text=self.part(here, self.i))
            mods["lowest" if name == "mi" else "highest"] = value
            return
        if kind == "keep":
            keep = _KEEP_NAMES.get(name, name)
            n = _int(found["keep_n"], BIG_KEEP, MAX_DICE)
            _check_keep(keep, n, count, _die_text(count, sides))
            mods["keep"], mods["keep_n"] = keep, n
            return
        if kind == "cs":  # cs/cf mark critical faces; the dice count as they would
            self.marks.append((here, self.i, name))
            on = _compare(found["cs_on"])  # as Roll20 reads them: cs>19 is 19 or more
            on = replace(on, op={">": ">=", "<": "<="}.get(on.op, on.op))
            mods["crit" if name == "cs" else "fumble"] = on
            return
        if kind == "fail":
            if mods.get("success") is None:
                raise Malformed(FAILURES_NEED_SUCCESSES)
            mods["failure"] = _compare(found["fail_on"])
            return
        mods["success"] = _compare(found["count"] + found["count_n"])


def _splits_faces(count: int, sides: int, mods: dict[str, object], on: Compare) -> bool:
    """Whether ``on`` matches some of the values a die so modified can count with, not all."""
    lowest: int | None = mods.get("lowest")  # type: ignore[assignment]
    highest: int | None = mods.get("highest")  # type: ignore[assignment]
    low, high = _face_bounds(sides, lowest, highest)
    if mods.get("explode") == "!p":
        low -= 1
    elif mods.get("explode") == "!!":
        low, high = die_bounds(Dice(count, sides, **mods))  # type: ignore[arg-type]
    near = (low, high, on.value - 1, on.value, on.value + 1)
    matches = {on.test(v) for v in near if low <= v <= high}
    return len(matches) == 2


def _face_values(sides: int) -> range:
    return range(-1, 2) if sides == FUDGE else range(1, sides + 1)


def _face_range(sides: int, lowest: int | None, highest: int | None) -> tuple[int, int]:
    low, high = _face_bounds(sides, lowest, highest)
    return low, high + 1


def _die_text(count: int, sides: int) -> str:
    return f"{count}d" + ("F" if sides == FUDGE else str(sides))


def _check_keep(keep: str, n: int, count: int, what: str) -> None:
    if keep in ("kh", "kl") and not 1 <= n <= count:
        raise _malformed(KEEP_RANGE, count=count, dice=what)
    if keep in ("dh", "dl") and not 1 <= n < count:
        raise _malformed(DROP_RANGE, count=max(count - 1, 0), dice=what)


def _note_allowed(raw_rest: str) -> bool:
    """Text after a roll is its note only if it cannot be read as notation."""
    words = raw_rest.split()
    first = words[0]
    low = first.lower()
    if any(c.isdigit() for c in first):
        return False
    if not first[0].isalpha() and (
        first[0] in "+-*/×÷−()[],.%=!<>|^&~:;" and (len(first) == 1 or not first[1].isalpha())
    ):
        return False
    if low in _NOTATION_WORDS:
        return False
    return not (
        len(first) == 1 and len(words) > 1 and (words[1][0].isdigit() or words[1][0] in "<>=!")
    )


def _apply_edges(node: Node, edges: list[tuple[str, str]]) -> Node:
    kinds = {k for k, _ in edges}
    if len(kinds) > 1:
        raise Malformed(BOTH_EDGES)
    kind, _word = edges[0]
    terms = dice_terms(node)
    plain = [d for d in terms if d.count == 1 and d == Dice(1, d.sides, label=d.label)]
    target = next((d for d in plain if d.sides == 20), None)
    if target is None and len(terms) == 1 and plain:
        target = plain[0]
    if target is None:
        raise _malformed(SINGLE_EDGE)
    keep = "kh" if kind == "adv" else "kl"
    return _swap(node, target, replace(target, count=2, keep=keep, keep_n=1))


def _swap(node: Node, old: Dice, new: Dice) -> Node:
    """``node`` with its first ``old`` dice term replaced by ``new``."""
    done = [False]

    def walk(n: Node) -> Node:
        if done[0]:
            return n
        if n is old or (isinstance(n, Dice) and n == old):
            done[0] = True
            return new
        if isinstance(n, Group):
            return replace(n, items=tuple(walk(i) for i in n.items))
        if isinstance(n, BinOp):
            return BinOp(n.op, walk(n.left), walk(n.right))
        if isinstance(n, Neg):
            return Neg(walk(n.operand))
        return n

    return walk(node)


def parse(text: str) -> DiceExpression:
    """Parse dice notation such as ``4d6kh3 + 2 fireball`` or ``1d20+5 adv >= 15``.

    Raises:
        Malformed: the text is not a roll (the message names the part that can't be
            read), or asks for too many or too large dice.
    """
    return _parse(text)[0]


# Ways a text reads differently from how the notation was read before: a comparison
# right after dice that no face can meet counted dice (always 0 or all of them), now
# the total's target; "vs 15" (and "dc 15", "сл 15") after a roll was its note, now its
# target; keep/drop over exploding dice kept a die with the dice it added as one, now
# each die on its own; cs/cf counted successes and failures, now they mark criticals;
# "!=" after a space (2d6 !=6) exploded the dice on that face, now it is "not equal".
TOTAL_TARGET, WORD_TARGET, SINGLE_KEEP, CRIT_MARKS = "total", "word", "single", "crit"
SPACED_NOT_EQUAL = "spaced"


def parse_steps(text: str) -> int:
    """The steps parsing ``text`` takes (read or refused): each character normalised, each
    pattern tried and each character a pattern matched. Linear in the text: no character
    is read again by a pattern more than a bounded number of times."""
    parser = _Parser(text[:MAX_INPUT])
    with suppress(Malformed):
        _parse_with(parser)
    return parser.steps


def reading_changes(text: str) -> tuple[str, ...]:
    """How ``text`` reads differently now (see :data:`TOTAL_TARGET`…); () if alike or no roll."""
    try:
        expression, parser = _parse(text)
    except Malformed:
        return ()
    found = list(dict.fromkeys(parser.changes))
    if any(d.single_keep for d in dice_terms(expression.node)):
        found.append(SINGLE_KEEP)
    if parser.marks:
        found.append(CRIT_MARKS)
    return tuple(found)


def counts_rewritten(text: str) -> str:
    """``text`` written before ``cs``/``cf`` marked criticals, in today's notation with the
    same meaning: ``csN`` counted successes (now ``=N``, ``cs>N`` now ``>N``), ``cfN``
    subtracted failures (now ``fN``). A text that isn't a roll stays as it is."""
    try:
        _, parser = _parse(text)
    except Malformed:
        return text
    for start, end, name in reversed(parser.marks):
        written = text[start + 2 : end].strip()
        if name == "cs":
            new = written if _CMP_RE.match(written) else "=" + written
        else:
            new = "f" + written
        text = text[:start] + new + text[end:]
    return text


def _parse(text: str) -> tuple[DiceExpression, _Parser]:
    if not text or not text.strip():
        raise _malformed(NOTHING_TO_ROLL)
    if len(text) > MAX_INPUT:
        raise _malformed(TOO_LONG)
    parser = _Parser(text)
    return _parse_with(parser), parser


def _read_roll_words(parser: _Parser, repeat: int) -> tuple[int, Compare | None]:
    """Reads the words after the expression that are the roll's: advantage or
    disadvantage, a repeat (unless ``repeat``, the prefix's, is set) and a target.
    Gives the repeat and the target."""
    target: Compare | None = None
    while True:
        save = parser.i
        parser.skip()
        here = parser.i
        if edge := parser.at(_EDGE):
            parser.i = edge.end()
            kind = "adv" if edge["edge"] in _ADV_WORDS else "dis"
            parser.edges.append((kind, parser.part(here, parser.i)))
        elif suffix := parser.at(_REPEAT_SUFFIX):
            if repeat:
                raise _malformed(TWICE, text=parser.part(here, suffix.end()))
            repeat = _int(suffix["n"], TOO_MANY_REPEATS, MAX_REPEATS)
            parser.i = suffix.end()
        elif compare := parser.at(_TARGET):
            if target is not None:
                raise Malformed(TWO_TARGETS)
            op = {None: ">=", "<>": "!="}.get(compare["op"], compare["op"])  # dc 15 is >= 15
            if compare["dc"]:
                parser.changes.append(WORD_TARGET)
            target = Compare(op, _int(compare["n"], BIG_NUMBER, MAX_CONSTANT))
            parser.i = compare.end()
        else:
            parser.i = save
            return repeat, target


def _read_note(parser: _Parser) -> str:
    """Reads what is left as the roll's note (``""`` if nothing is), or says why it
    can't be one."""
    rest = parser.raw[parser.i :]
    parser.steps += len(rest)  # the note, read once more
    if rest.strip() and parser.at(_TARGET_WITHOUT_NUMBER):
        raise Malformed(TARGET_NEEDS_NUMBER)
    if not rest.strip():
        return ""
    spaced = rest[0].isspace()
    parser.skip()
    if not spaced or not _note_allowed(rest.strip()):
        if parser.s[parser.i] in ")],":
            raise _malformed(NOT_HERE, text=parser.part())
        raise _malformed(CANT_READ, text=parser.part())
    return rest.strip()[:MAX_LABEL]


def _parse_with(parser: _Parser) -> DiceExpression:
    text = parser.raw
    if not text or not text.strip():
        raise _malformed(NOTHING_TO_ROLL)
    repeat = 0
    prefix = parser.at(_REPEAT_PREFIX)
    if prefix:
        repeat = _int(prefix["n"], TOO_MANY_REPEATS, MAX_REPEATS)
        parser.i = prefix.end()
    node = parser.expr()
    repeat, target = _read_roll_words(parser, repeat)
    label = _read_note(parser)
    if repeat > MAX_REPEATS:
        raise Malformed(TOO_MANY_REPEATS, limit=MAX_REPEATS)
    if parser.edges:
        node = _apply_edges(node, parser.edges)
    if parser.atoms > MAX_TERMS:  # numbers and dice terms, counted as they were read
        raise _malformed(TOO_MANY_TERMS, limit=MAX_TERMS)
    expression = DiceExpression(node=node, label=label, repeat=max(repeat, 1), target=target)
    terms = dice_terms(node) if parser.edges else parser.terms
    count = expression.repeat * sum(d.count for d in terms)
    if count > MAX_DICE:
        raise Malformed(TOO_MANY_DICE, count=count, limit=MAX_DICE)
    low, high = bounds(node)
    if max(-low, high) > MAX_TOTAL:
        raise Malformed(BIG_TOTAL)
    return expression


# --- rolling ------------------------------------------------------------------------


@dataclass(frozen=True)
class Face:
    """One face as it came up: its value, the values rerolled away before it."""

    value: int
    rerolled: tuple[int, ...] = ()
    exploded: bool = False  # it added another die (or, for ra, a reroll)
    mark: int = 0  # +1 a success, -1 a failure, 0 neither (counting dice only)
    crit: int = 0  # +1 a critical success (cs), -1 a critical failure (cf), 0 neither


@dataclass(frozen=True)
class DieRoll:
    """One die of a term: its faces (the first, then those it added), kept or dropped."""

    faces: tuple[Face, ...]
    kept: bool
    value: int  # what the die counts for: its faces' sum, or its successes
    compound: bool = False  # "!!": the faces add into one die

    @property
    def total(self) -> int:
        return sum(f.value for f in self.faces)


@dataclass(frozen=True)
class DiceRoll:
    dice: Dice
    rolled: tuple[DieRoll, ...]
    total: int


@dataclass(frozen=True)
class SetRoll:
    group: Group
    values: tuple[tuple[int, bool], ...]  # each member's total and whether it counts
    total: int


@dataclass(frozen=True)
class Outcome:
    """One roll of the expression (a repeated roll has several)."""

    total: int
    parts: tuple[DiceRoll | SetRoll, ...]
    reached: bool | None = None  # against the target, when there is one


@dataclass(frozen=True)
class RollResult:
    expression: DiceExpression
    outcomes: tuple[Outcome, ...]

    @property
    def total(self) -> int:
        """The total of a single roll; the sum of all of them for a repeated one."""
        return sum(o.total for o in self.outcomes)

    @property
    def successes(self) -> bool:
        return self.expression.counts_successes


def _roll_face(dice: Dice, rng: Rng) -> tuple[int, tuple[int, ...]]:
    """One face after rerolls and mi/ma: its value and the values rerolled away."""
    sides = dice.sides
    value = rng.randint(1, 3) - 2 if sides == FUDGE else rng.randint(1, sides)
    rerolled: tuple[int, ...] = ()
    on = dice.reroll_on
    if dice.reroll and on is not None and on.test(value):
        rerolled = (value,)
        if dice.reroll == "ro":
            value = rng.randint(1, 3) - 2 if sides == FUDGE else rng.randint(1, sides)
        else:  # until it no longer matches: one uniform draw among the faces that don't
            kept = _unmatched(sides, on)
            value = kept[rng.randint(1, len(kept)) - 1]
    if dice.lowest is not None:
        value = max(value, dice.lowest)
    if dice.highest is not None:
        value = min(value, dice.highest)
    return value, rerolled


_UNMATCHED: dict[tuple[int, Compare], tuple[int, ...]] = {}


def _unmatched(sides: int, on: Compare) -> tuple[int, ...]:
    """The faces of a die that ``on`` doesn't match (at least one: the parser checks)."""
    found = _UNMATCHED.get((sides, on))
    if found is None:
        found = _UNMATCHED[sides, on] = tuple(v for v in _face_values(sides) if not on.test(v))
    return found


def crit_mark(dice: Dice, value: int) -> int:
    """+1 for a face marked a critical success (cs), -1 a critical failure (cf)."""
    if dice.crit is not None and dice.crit.test(value):
        return 1
    if dice.fumble is not None and dice.fumble.test(value):
        return -1
    return 0


def face_mark(dice: Dice, value: int) -> int:
    if dice.success is not None and dice.success.test(value):
        return 1
    if dice.failure is not None and dice.failure.test(value):
        return -1
    return 0


_PLAIN: dict[int, DieRoll] = {}  # a plain die by its face: each is immutable, so shared


def _plain_die(value: int) -> DieRoll:
    die = _PLAIN.get(value)
    if die is None:
        die = _PLAIN[value] = DieRoll((Face(value),), True, value)
    return die


def _roll_die(dice: Dice, rng: Rng) -> DieRoll:
    if dice.sides != FUDGE and not (
        dice.explode or dice.reroll or dice.counting or dice.lowest or dice.highest
        or dice.crit or dice.fumble
    ):  # fmt: skip
        return _plain_die(rng.randint(1, dice.sides))
    shown = [_roll_face(dice, rng)]  # (value, rerolled) of each face
    on = dice.explode_on
    if dice.explode and on is not None:
        depth = 1 if dice.explode == "ra" else EXPLODE_DEPTH
        penetrates = dice.explode == "!p"
        raw = shown[0][0]
        while on.test(raw) and len(shown) <= depth:
            raw, rerolled = _roll_face(dice, rng)
            shown.append((raw - 1 if penetrates else raw, rerolled))
    # every face but the last added another die
    last = len(shown) - 1
    compound = dice.explode == "!!"
    if dice.success is not None and not compound:
        faces = tuple(
            Face(v, r, i < last, face_mark(dice, v), crit_mark(dice, v))
            for i, (v, r) in enumerate(shown)
        )
        value = sum(f.mark for f in faces)
    else:
        faces = tuple(Face(v, r, i < last, 0, crit_mark(dice, v)) for i, (v, r) in enumerate(shown))
        total = sum(v for v, _ in shown)
        value = face_mark(dice, total) if dice.success is not None else total
    return DieRoll(faces, True, value, compound)


def kept_indexes(keys: list[int], keep: str, n: int) -> frozenset[int]:
    """Indexes of the values that count, ties broken towards the earlier one."""
    if not keep:
        return frozenset(range(len(keys)))
    keep_n = n if keep in ("kh", "kl") else len(keys) - n
    highest = keep in ("kh", "dl")
    order = sorted(range(len(keys)), key=lambda i: (-keys[i], i) if highest else (keys[i], i))
    return frozenset(order[:keep_n])


def _roll_dice(node: Dice, rng: Rng, parts: list[DiceRoll | SetRoll]) -> int:
    sides = node.sides
    if sides != FUDGE and not (
        node.explode
        or node.reroll
        or node.success is not None
        or node.lowest
        or node.highest
        or node.crit
        or node.fumble
    ):  # plain dice: one face each (as _roll_die rolls them)
        randint = rng.randint
        rolled = [_plain_die(randint(1, sides)) for _ in range(node.count)]
    else:
        rolled = [_roll_die(node, rng) for _ in range(node.count)]
    if node.single_keep:  # every face an explosion added is a die of its own for keep/drop
        rolled = [
            DieRoll((face,), True, face.mark if node.counting else face.value)
            for die in rolled
            for face in die.faces
        ]
    if node.keep:
        kept = kept_indexes([d.total for d in rolled], node.keep, node.keep_n)
        rolled = [
            d if i in kept else DieRoll(d.faces, False, d.value, d.compound)
            for i, d in enumerate(rolled)
        ]
        total = sum(d.value for d in rolled if d.kept)
    else:
        total = sum(d.value for d in rolled)
    parts.append(DiceRoll(node, tuple(rolled), total))
    return total


def _roll_node(node: Node, rng: Rng, parts: list[DiceRoll | SetRoll]) -> int:
    kind = type(node)
    if kind is BinOp:
        spine: list[BinOp] = []  # a long sum leans left: walk it without recursing
        while type(node) is BinOp:
            spine.append(node)
            node = node.left
        total = _roll_node(node, rng, parts)
        for step in reversed(spine):
            right = _roll_node(step.right, rng, parts)
            op = step.op
            if op == "+":
                total += right
            elif op == "-":
                total -= right
            elif op == "*":
                total *= right
            elif op == "/":
                total //= right
            else:
                total %= right
        return total
    if kind is Dice:
        return _roll_dice(node, rng, parts)  # type: ignore[arg-type]
    if kind is Number:
        return node.value  # type: ignore[union-attr]
    if kind is Group:
        assert isinstance(node, Group)
        values = [_roll_node(i, rng, parts) for i in node.items]
        if len(values) == 1 and not node.keep:
            return values[0]
        kept = kept_indexes(values, node.keep, node.keep_n)
        total = sum(v for i, v in enumerate(values) if i in kept)
        parts.append(SetRoll(node, tuple((v, i in kept) for i, v in enumerate(values)), total))
        return total
    assert isinstance(node, Neg)
    return -_roll_node(node.operand, rng, parts)


def roll(expression: DiceExpression, rng: Rng) -> RollResult:
    """Roll every die of ``expression`` with ``rng`` (once per repeat)."""
    outcomes = []
    for _ in range(expression.repeat):
        parts: list[DiceRoll | SetRoll] = []
        total = _roll_node(expression.node, rng, parts)
        reached = None if expression.target is None else expression.target.test(total)
        outcomes.append(Outcome(total, tuple(parts), reached))
    return RollResult(expression, tuple(outcomes))
