"""Saved rolls: a name the player chose for dice notation, used inside ``/roll``.

A player saves ``atk`` as ``1d20+5 adv``; ``/roll atk``, ``/roll atk+2``,
``/roll atk dis`` and ``/roll 2 atk`` (twice) read it back. A saved roll may use
another one (``crit`` = ``dmg*2``); a loop (``a`` uses ``b``, ``b`` uses ``a``) and a
chain deeper than :data:`MAX_DEPTH` are refused with a message naming them.

The expansion works on text: a name stands where a number or dice could stand (at
the start, after a sign or a bracket or a comma), outside annotations (``[fire]``),
and is replaced by its own expression in brackets. What a saved roll says after its
arithmetic carries over when the roll is used as a whole: its note, its target, its
repeats, its advantage (an ``adv``/``dis`` typed with the use replaces the saved one).

Names are the player's words in any language: a letter first, then letters, digits or
``_``; never anything that reads as dice notation (``d20``, ``к6``, ``kh``, ``adv``,
``преим``, ``x``), so a name can never change what plain notation means.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from core.rules import dice
from core.rules.errors import Malformed

MAX_NAME = 32
MAX_DEPTH = 8  # a saved roll using one using one ... at most this deep

BAD_NAME = (
    "A saved roll's name is one word of letters and digits that starts with a letter, like atk."
)
LONG_NAME = "A saved roll's name can have at most {limit} characters."
NOTATION_NAME = "“{name}” reads as dice notation; give the saved roll a name that doesn't."
LOOP = "Those saved rolls use each other in a loop: {loop}."
DEEP = "Saved rolls use each other too deeply (at most {limit} levels): {chain}."
NOT_SAVED = "{name} is not one of your saved rolls: /saved lists them."
REPEATED_INSIDE = "“{name}” rolls several times, so it can't be part of another roll."

_OPERAND_AFTER = frozenset("+-*/×÷−–),")  # what may follow a value in arithmetic
# a name where an operand may stand: the start, or after a sign, a bracket or a comma
_OPERAND_BEFORE = frozenset("+-*/×÷−–(,")
_WORD = re.compile(r"[^\W\d_]\w*")
_OTHER_WORDS = frozenset(
    # words /roll reads before the notation (a secret roll) or that name a table
    ["secret", "secretly", "тайно", "секретно"]
)


def key(name: str) -> str:
    """The lookup form of a name: the same however it is capitalised."""
    return name.casefold()


def check_name(name: str) -> str:
    """``name`` as it will be saved (stripped).

    Raises:
        Malformed: it is not one word starting with a letter, is too long, or reads
            as dice notation.
    """
    name = name.strip()
    if len(name) > MAX_NAME or len(key(name)) > MAX_NAME:  # "ß" casefolds to "ss"
        raise Malformed(LONG_NAME, limit=MAX_NAME)
    if _reads_as_notation(name):
        raise Malformed(NOTATION_NAME, name=name)
    if not _WORD.fullmatch(name):
        raise Malformed(BAD_NAME)
    return name


def _reads_as_notation(name: str) -> bool:
    low = key(name)
    if not low:
        return False
    if low.isdigit() or low in dice._NOTATION_WORDS or low in _OTHER_WORDS:
        return True
    normal = dice._normal(name)
    if dice._EDGE.fullmatch(normal) or dice._MODIFIER.fullmatch(normal):
        return True
    if re.fullmatch(r"x\d+", normal) or re.fullmatch(r"\d*d(\d+|%|f)\w*", normal):
        return True
    try:
        dice.parse(name)
    except Malformed:
        return False
    return True


@dataclass(frozen=True)
class Expansion:
    """A roll with its saved rolls read: the expression, and which saved rolls it used."""

    expression: dice.DiceExpression
    used: tuple[str, ...]  # the keys of the saved rolls named in the text, in order


@dataclass(frozen=True)
class _Read:
    """One saved roll read: its arithmetic in brackets, with and without its edge."""

    with_edge: str
    plain: str
    expression: dice.DiceExpression


def uses(text: str, book: Mapping[str, str]) -> tuple[str, ...]:
    """The keys of the saved rolls ``text`` names where dice could stand, in order."""
    return tuple(key(m.group(0)) for m in _names(text, book))


def renamed_in(text: str, old: str, new: str) -> str:
    """``text`` with each use of the saved roll ``old`` naming ``new`` instead; the same
    word in a note (``[dmg]``, or after the arithmetic) stays as written."""
    pieces: list[str] = []
    at = 0
    for match in _names(text, {key(old): ""}):
        pieces += [text[at : match.start()], new]
        at = match.end()
    return "".join([*pieces, text[at:]])


def might_use(text: str) -> bool:
    """Whether ``text`` has a word where a saved roll's name could stand (a cheap test
    before the saved rolls are read: plain notation has none)."""
    return any(not _reads_as_notation(m.group(0)) for m in _names(text, _Anything()))


class _Anything(dict[str, str]):
    def __contains__(self, _key: object) -> bool:
        return True


def _masked(text: str) -> str:
    """``text`` with annotations (``[...]``) blanked, same length, so no name is read there."""
    return re.sub(r"\[[^\]]*\]?", lambda m: " " * len(m.group(0)), text)


def _names(text: str, book: Mapping[str, str]) -> list[re.Match[str]]:
    masked = _masked(text)
    found = []
    for match in _WORD.finditer(masked):
        start = match.start()
        if start and (masked[start - 1].isalnum() or masked[start - 1] == "_"):
            continue  # inside a word: 1d20, 4d6kh3
        if key(match.group(0)) not in book:
            continue
        before = masked[:start].rstrip()
        if before and before[-1] not in _OPERAND_BEFORE and not _leading_count(before):
            continue  # after the arithmetic: a note, an edge
        found.append(match)
    return found


def unknown_name(text: str, book: Mapping[str, str]) -> str | None:
    """The first word of ``text`` used as a value in arithmetic (``dmg*2``, ``d20+str``)
    that is no saved roll of ``book`` and no notation, when the text would read as a roll
    with a die there: the name of a saved roll there is none of."""
    masked = _masked(text)
    unknown: list[re.Match[str]] = []
    for match in _names(text, _Anything()):
        word = match.group(0)
        if key(word) in book or _reads_as_notation(word):
            continue
        before = masked[: match.start()].rstrip()
        after = masked[match.end() :].lstrip()
        if (before and before[-1] in _OPERAND_BEFORE) or (after and after[0] in _OPERAND_AFTER):
            unknown.append(match)
    if not unknown:
        return None
    pieces, at = [], 0
    for match in unknown:
        pieces += [text[at : match.start()], "1d2"]
        at = match.end()
    known = _names(text, book)
    try:
        if known:  # the saved rolls it does name stand for a die too
            _expand_numbers("".join([*pieces, text[at:]]), book)
        else:
            dice.parse("".join([*pieces, text[at:]]))
    except Malformed:
        return None  # no roll even so: something else is wrong
    return unknown[0].group(0)


def _expand_numbers(text: str, book: Mapping[str, str]) -> None:
    """Parse ``text`` with each of ``book``'s saved rolls in it read as a die."""
    pieces, at = [], 0
    for match in _names(text, book):
        pieces += [text[at : match.start()], "1d2"]
        at = match.end()
    dice.parse("".join([*pieces, text[at:]]))


def _parsed(text: str, book: Mapping[str, str]) -> dice.DiceExpression:
    """``text`` read as plain notation; refused naming the saved roll it names, unknown.

    Raises:
        Malformed: it is no roll.
    """
    try:
        return dice.parse(text)
    except Malformed as error:
        name = unknown_name(text, book)
        if name is None:
            raise
        raise Malformed(NOT_SAVED, name=name) from error


def _leading_count(before: str) -> bool:
    """``2`` or ``2x`` at the very start: ``/roll 2 atk`` rolls it twice."""
    return bool(re.fullmatch(r"\s*\d+\s*(?:[xх×]\s*)?", before))


def expand(text: str, book: Mapping[str, str], within: str | None = None) -> Expansion:
    """Read ``text`` as dice notation, with the saved rolls of ``book`` in it.

    Args:
        book: each saved roll's :func:`key` to its text.
        within: the name ``text`` is being saved under (a use of it is a loop).

    Raises:
        Malformed: the text (or a saved roll it uses) is no roll, the saved rolls
            use each other in a loop or too deeply, or a repeated roll is used
            inside another.
    """
    cache: dict[str, _Read] = {}
    return _expand(text, book, () if within is None else (key(within),), cache)


def _expand(
    text: str, book: Mapping[str, str], chain: tuple[str, ...], cache: dict[str, _Read]
) -> Expansion:
    found = _names(text, book)
    if not found:
        return Expansion(_parsed(text, book), ())
    reads = [_read(m.group(0), book, chain, cache) for m in found]
    first = found[0]
    head = text[: first.start()]
    whole = len(found) == 1 and (not head.strip() or _leading_count(head))
    tail_start = found[-1].end()
    own_edge = _has_edge(text[tail_start:]) or any(
        _has_edge(text[a.end() : b.start()]) for a, b in itertools.pairwise(found)
    )
    joined = _substituted(text, found, reads, whole=whole, own_edge=own_edge)
    repeat = 1
    if whole and head.strip():  # "2 atk" or "2x atk": atk twice
        digits = re.match(r"\s*(\d+)", head)
        assert digits is not None
        joined = joined[len(head) :]
        repeat = int(digits.group(1))
        if repeat > dice.MAX_REPEATS:
            raise Malformed(dice.TOO_MANY_REPEATS, limit=dice.MAX_REPEATS)
    try:
        expression = dice.parse(joined)
    except Malformed as error:
        name = unknown_name(text, book)  # a saved roll there is none of: say so
        if name is not None:
            raise Malformed(NOT_SAVED, name=name) from error
        raise
    if whole:
        expression = _repeated(expression, repeat * reads[0].expression.repeat)
    expression = _with_note_and_target(expression, reads)
    return Expansion(expression, tuple(key(m.group(0)) for m in found))


def _substituted(
    text: str, found: list[re.Match[str]], reads: list[_Read], *, whole: bool, own_edge: bool
) -> str:
    """``text`` with each saved name replaced by what it stands for."""
    pieces: list[str] = []
    at = 0
    for match, read in zip(found, reads, strict=True):
        if read.expression.repeat > 1 and not whole:
            raise Malformed(REPEATED_INSIDE, name=match.group(0))
        pieces.append(text[at : match.start()])
        pieces.append(read.plain if own_edge else read.with_edge)
        at = match.end()
    pieces.append(text[at:])
    return "".join(pieces)


def _repeated(expression: dice.DiceExpression, times: int) -> dice.DiceExpression:
    """``expression`` rolled ``times`` times its own repeat, within the limits."""
    repeat = times * expression.repeat
    if repeat > dice.MAX_REPEATS:
        raise Malformed(dice.TOO_MANY_REPEATS, limit=dice.MAX_REPEATS)
    rolled = repeat * sum(d.count for d in dice.dice_terms(expression.node))
    if rolled > dice.MAX_DICE:
        raise Malformed(dice.TOO_MANY_DICE, count=rolled, limit=dice.MAX_DICE)
    return replace(expression, repeat=repeat)


def _with_note_and_target(
    expression: dice.DiceExpression, reads: list[_Read]
) -> dice.DiceExpression:
    """The saved rolls' note and target, where the expression gives none of its own."""
    if not expression.label:
        note = next((r.expression.label for r in reads if r.expression.label), "")
        expression = replace(expression, label=note)
    if expression.target is None:
        target = next((r.expression.target for r in reads if r.expression.target), None)
        expression = replace(expression, target=target)
    return expression


def _has_edge(text: str) -> bool:
    """Whether ``text`` (after a name, before any note) says adv or dis."""
    for word in dice._normal(text).split():
        if dice._EDGE.fullmatch(word):
            return True
        if word[:1].isalpha() and not dice._EDGE.fullmatch(word):
            return False  # a note's words: an "adv" after them is part of the note
    return False


def _read(
    name: str, book: Mapping[str, str], chain: tuple[str, ...], cache: dict[str, _Read]
) -> _Read:
    k = key(name)
    if k in chain:
        loop = " → ".join([*chain[chain.index(k) :], k])
        raise Malformed(LOOP, loop=loop)
    if len(chain) >= MAX_DEPTH:
        raise Malformed(DEEP, limit=MAX_DEPTH, chain=" → ".join([*chain, k]))
    if k in cache:
        return cache[k]
    text = book[k]
    inner = _expand(text, book, (*chain, k), cache)
    expression = inner.expression
    plain = inner.expression
    stripped = _without_edges(text)
    if stripped != text:
        try:
            plain = _expand(stripped, book, (*chain, k), cache).expression
        except Malformed:
            plain = expression
    read = _Read(f"({expression.node})", f"({plain.node})", expression)
    cache[k] = read
    return read


def _without_edges(text: str) -> str:
    return re.sub(
        r"(?<![^\W\d_])(?:advantage|adv|disadvantage|disadv|dis|преимуществом|преимущество"
        r"|преим|поме[хx]ой|поме[хx]а)(?![^\W\d_])",
        " ",
        text,
        flags=re.IGNORECASE,
    )
