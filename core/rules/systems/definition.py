"""A game system as data: what a definition holds, read and checked once.

A definition is a TOML (or JSON) text a host can write::

    key = "pbta"                      # a word of a-z, 0-9, _
    version = 1
    source = "where the mechanic is published"
    example = "+2"                    # one /roll example, for the table of games
    value = "score"                   # the number the outcome bands read (top-level
                                      # fields come before the first [table])
    name = { en = "Powered by the Apocalypse", ru = "…" }
    about = { en = "2d6 + a stat …", ru = "…" }

    [[inputs]]                        # what a roll takes, in the order typed
    key = "stat"
    name = { en = "stat", ru = "характеристика" }
    default = 0
    min = -3
    max = 4
    # prefix = { en = ["dc"], ru = ["сл"] }      typed as dc15 (or dc 15)
    # words = { en = { adv = 1 }, ru = { "преим" = 1 } }   a word sets a value
    # an input with no prefix is positional: bare numbers (2, +2, -1) fill them in order

    [[stats]]                         # a player's named values, kept on their sheet
    key = "cool"
    name = { en = "Cool", ru = "Хладнокровие" }
    input = "stat"                    # the input it feeds, within that input's range
    # default = 1                     else the input's default

    [dice.roll]                       # named groups of dice
    count = "2"                       # an expression over the inputs (0: no dice)
    die = "d6"                        # one die term of the dice grammar; {expr} fills in
    # faces = [0, 1, …]              listed faces: face i of the die shows faces[i-1]
    # depth = 3                       explosions followed at most 3 deep (else 20)

    [let]                             # named values, in order (see reading.py)
    score = "total(roll) + stat"

    [[outcomes]]                      # best first; bands cover every number once
    key = "strong"
    min = 10
    label = { en = "Strong hit", ru = "Сильный успех" }

    [[marks]]                         # special results shown beside the outcome
    key = "boxcars"
    when = "count(roll, \"=6\") == 2"
    label = { en = "Two sixes", ru = "Две шестёрки" }

    [[followups]]                     # what the roller may do once the dice fell
    key = "push"                      # reads 1 in the roll it makes, else 0
    group = "roll"                    # a push: reroll this group's dice that show
    stay = [6]                        #   none of these faces (no group: reroll it all)
    # better = true                   a reroll: the better of the two stands
    # on = ["miss"]                   offered on these outcomes only (else on any)
    # times = 3                       made at most this often on one roll (1 to 5; else 1)
    label = { en = "Push", ru = "Рывок" }

Everything is checked when read (:func:`read_definition`), and every message names
the field at fault.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise, product

from core.rules.dice import EXPLODE_DEPTH, EXPLODES_FOREVER, Dice, DiceExpression, parse
from core.rules.errors import Malformed
from core.rules.said import Term
from core.rules.systems.reading import FEATURES, Expression, Feature, compile_expression

LANGUAGES = ("en", "ru")
MAX_DEFINITION = 20_000  # characters of a definition's text
MAX_INPUTS = 8
MAX_INPUT_VALUE = 1000  # an input's range stays within -1000..1000
MAX_GROUPS = 6
MAX_LETS = 16
MAX_OUTCOMES = 8  # rows a table shows: open-ended results are grouped into bands
MAX_MARKS = 6
MAX_FOLLOWUPS = 3
MAX_TIMES = 5  # how often one follow-up may be made on one roll
MAX_LABEL = 60  # characters of a name or label
MAX_ABOUT = 300
MAX_WORDS = 12  # words and prefixes of one input, in one language
MAX_FACES = 100  # listed faces of a die
MAX_STATS = 16  # named stats a player keeps on their sheet

TOO_BIG = "That definition is too long: at most {limit} characters."
NOT_READABLE = "That definition can't be read as TOML or JSON: {reason}."
MISSING = "The definition needs “{field}”."
WRONG_TYPE = "“{field}” must be {kind}."
BAD_KEY = "“{field}” must be a short word of small Latin letters, digits and _, as in {example}."
BAD_VERSION = "“{field}” must be a whole number from 1."
TOO_MANY = "“{field}” can have at most {limit} entries."
DUPLICATE = "“{field}” is given twice: “{name}”."
NEEDS_LANGUAGE = "“{field}” needs its words in {language}."
LABEL_HTML = "“{field}” must be plain text, without HTML."
LABEL_LENGTH = "“{field}” must be 1 to {limit} characters."
RANGE_LIMIT = "“{field}” must stay within -{limit} and {limit}."
RANGE_ORDER = "“{field}”: min is above max."
DEFAULT_OUTSIDE = "“{field}” is outside its range {low}..{high}."
WORD_CLASH = (
    "“{field}”: the word “{name}” can't be typed: it is a number, or another input already uses it."
)
BAD_DIE = (
    "“{field}” must be one die term of the dice grammar, as in d6, d10! or d10!!kh2, "
    "without counting, marks or notes, keeping only over !! dice (“{text}” is not)."
)
UNBOUNDED = "“{field}” explodes without a bound: explode on some faces only, so the chain can end."
FACES_COUNT = "“{field}” lists {count} faces, but the die has {sides}."
BANDS_ORDER = (
    "“{field}”: the bands go from the best down; the first has no max, the last no min, "
    "the others both."
)
BANDS_OVERLAP = "“{field}”: the bands “{first}” and “{second}” overlap."
BANDS_GAP = "“{field}”: between the bands “{first}” and “{second}” some numbers have no outcome."
BAND_ORDER = "“{field}”: min is above max."
TOO_FEW_OUTCOMES = "“{field}” needs at least two outcomes."
RESERVED = "“{field}”: “{name}” is a reserved word."
UNKNOWN_FIELD = "“{field}” is not a field of a definition."
UNKNOWN_INPUT = "“{field}”: this definition has no input “{name}”; a stat feeds one of {inputs}."
STAT_CLASH = (
    "“{field}”: the stat “{name}” can't be typed: an input, a word or another stat already uses it."
)
FOLLOWUP_GROUP = "“{field}” names dice “{name}”, but the definition has no such dice."
FOLLOWUP_DIE = (
    "“{field}”: a push rerolls plain dice, one face each: dice “{name}” can't explode or keep."
)
FOLLOWUP_STAY = "“{field}” can't go with a reroll of the whole roll: name the dice it rerolls."
FOLLOWUP_BETTER = "“{field}” goes with a reroll of the whole roll, not with a push."
FOLLOWUP_OUTCOME = "“{field}” names the outcome “{name}”, which the definition doesn't have."
FOLLOWUP_TIMES = (
    "“{field}”: a follow-up is made a bounded number of times on one roll, from 1 to {limit}."
)
FOLLOWUP_NEVER = (
    "“{field}”: a push that keeps every face can never reroll a die; "
    "leave out at least one face the die shows."
)

K_TABLES = Term("a kind of value in a game definition", "a list of tables")
K_WORD_LIST = Term("a kind of value in a game definition", "a short list of words")
K_WORD_TABLE = Term("a kind of value in a game definition", "a short table of words and values")
K_GROUP = Term("a kind of value in a game definition", "a table (count, die, faces)")
K_LANGUAGES = Term("a kind of value in a game definition", "a table of languages (en, ru)")
K_LETS = Term("a kind of value in a game definition", "a table of named values")
K_TABLE = Term("a kind of value in a game definition", "a table")
K_NUMBER = Term("a kind of value in a game definition", "a whole number")
K_TEXT = Term("a kind of value in a game definition", "text")
K_EXPRESSION = Term("a kind of value in a game definition", "an expression")
K_FACES = Term("a kind of value in a game definition", "a list of 2 to 100 whole numbers")
K_FACE_LIST = Term("a kind of value in a game definition", "a list of whole numbers")
K_KEY_LIST = Term("a kind of value in a game definition", "a list of outcome keys")
K_YES_NO = Term("a kind of value in a game definition", "true or false")

_KEY = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_HTML = re.compile(r"<[^>]*>|&#?\w+;|[<>]")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_RESERVED = frozenset({*FEATURES, "count", "min", "max", "abs", "True", "False", "value"})
_TOP_FIELDS = frozenset(
    {"key", "version", "source", "example", "odds_example", "name", "about", "inputs", "dice",
     "let", "value", "outcomes", "marks", "stats", "followups"}
)  # fmt: skip


@dataclass(frozen=True)
class Words:
    """A text in each language (en, ru), plain."""

    en: str
    ru: str

    def in_language(self, code: str) -> str:
        return self.ru if code == "ru" else self.en


@dataclass(frozen=True)
class Input:
    """One value a roll takes: its range, default, and how it is typed."""

    key: str
    name: Words
    default: int
    low: int
    high: int
    prefixes: tuple[str, ...] = ()  # typed as ``dc15``; none: a bare number fills it
    words: tuple[tuple[str, int], ...] = ()  # a word that sets a value (``adv`` -> 1)

    @property
    def positional(self) -> bool:
        return not self.prefixes and not self.words


@dataclass(frozen=True)
class Stat:
    """A player's named value (Cool, Spot Hidden, Iron): kept on their sheet, it feeds
    one input of the roll (``feeds``), within that input's range."""

    key: str
    name: Words
    feeds: str
    default: int


@dataclass(frozen=True)
class Group:
    """A named group of dice: how many (an expression), which die, listed faces."""

    key: str
    count: Expression
    die: str  # a die term of the grammar; ``{expr}`` parts are filled from the inputs
    parts: tuple[Expression, ...]  # the ``{expr}`` parts, in order
    faces: tuple[int, ...] | None = None
    depth: int | None = None  # explosions followed at most this deep, rolled and in the odds


@dataclass(frozen=True)
class OutcomeBand:
    """One outcome: the values it covers (``None``: open), its label."""

    key: str
    low: int | None
    high: int | None
    label: Words

    def covers(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


@dataclass(frozen=True)
class Mark:
    """A special result (doubles, a natural 20, a match), shown beside the outcome."""

    key: str
    when: Expression
    label: Words


@dataclass(frozen=True)
class Followup:
    """What the roller may do once, after the dice fell: a push rerolls the dice of
    ``group`` that show none of the ``stay`` faces; without a group, the whole roll is
    rolled again (``better``: the better of the two stands, else the new one). Offered
    on the outcomes ``on`` (every outcome when empty). Its key reads 1 in the roll it
    makes (a mark can say a roll was pushed), 0 in any other. It is made at most
    ``times`` times on one roll."""

    key: str
    label: Words
    group: str | None = None
    stay: frozenset[int] = frozenset()
    better: bool = False
    on: frozenset[str] = frozenset()
    times: int = 1

    def offered_on(self, outcome: str) -> bool:
        return not self.on or outcome in self.on


@dataclass(frozen=True)
class Definition:
    """A game system as data, checked."""

    key: str
    version: int
    name: Words
    about: Words
    source: str
    example: str
    odds_example: str
    inputs: tuple[Input, ...]
    groups: tuple[Group, ...]
    lets: tuple[tuple[str, Expression], ...]
    value: Expression
    outcomes: tuple[OutcomeBand, ...]
    marks: tuple[Mark, ...]
    stats: tuple[Stat, ...] = ()
    followups: tuple[Followup, ...] = ()

    def input(self, key: str) -> Input:
        return next(i for i in self.inputs if i.key == key)

    def stat(self, key: str) -> Stat | None:
        return next((s for s in self.stats if s.key == key), None)

    def defaults(self) -> dict[str, int]:
        return {i.key: i.default for i in self.inputs}

    def followup(self, key: str) -> Followup:
        return next(f for f in self.followups if f.key == key)

    def made_by(self, key: str | None) -> dict[str, int]:
        """What each follow-up's name reads in a roll ``key`` made (None: the first)."""
        return {f.key: int(f.key == key) for f in self.followups}

    def features(self) -> dict[str, list[Feature]]:
        """What each group shows that the reading uses, by group."""
        found: dict[str, set[Feature]] = {g.key: set() for g in self.groups}
        for expression in (self.value, *(e for _, e in self.lets), *(m.when for m in self.marks)):
            for feature in expression.features:
                found[feature.group].add(feature)
        return {k: sorted(v, key=lambda f: f.name) for k, v in found.items()}

    def outcome_of(self, value: int) -> OutcomeBand:
        return next(b for b in self.outcomes if b.covers(value))


def read_definition(text: str) -> Definition:
    """A definition from its TOML (or JSON) text, checked.

    Raises:
        Malformed: it can't be read, or a field is wrong (the message names it).
    """
    if len(text) > MAX_DEFINITION:
        raise Malformed(TOO_BIG, limit=MAX_DEFINITION)
    try:
        data = json.loads(text) if text.lstrip().startswith("{") else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise Malformed(NOT_READABLE, reason=str(exc).split("\n")[0][:120]) from None
    if not isinstance(data, dict):
        raise Malformed(WRONG_TYPE, field="(the definition)", kind=K_TABLE)
    return from_mapping(data)


def _get(
    data: Mapping[str, object], field: str, name: str, kind: type | tuple[type, ...], what: str
) -> object:
    if name not in data:
        raise Malformed(MISSING, field=field)
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Malformed(WRONG_TYPE, field=field, kind=what)
    return value


def _text(value: object, field: str, limit: int = MAX_LABEL) -> str:
    if not isinstance(value, str):
        raise Malformed(WRONG_TYPE, field=field, kind=K_TEXT)
    text = value.strip()
    if _HTML.search(text):
        raise Malformed(LABEL_HTML, field=field)
    if not 1 <= len(text) <= limit or any(ord(c) < 32 for c in text):
        raise Malformed(LABEL_LENGTH, field=field, limit=limit)
    return text


def _words(data: Mapping[str, object], field: str, name: str, limit: int = MAX_LABEL) -> Words:
    value = _get(data, f"{field}.{name}" if field else name, name, dict, K_LANGUAGES)
    assert isinstance(value, dict)
    texts = []
    for code in LANGUAGES:
        where = f"{field}.{name}.{code}" if field else f"{name}.{code}"
        if code not in value:
            raise Malformed(NEEDS_LANGUAGE, field=where, language=code)
        texts.append(_text(value[code], where, limit))
    return Words(*texts)


def _key(value: object, field: str) -> str:
    if not isinstance(value, str) or not _KEY.match(value):
        raise Malformed(BAD_KEY, field=field, example="pbta")
    if value in _RESERVED:
        raise Malformed(RESERVED, field=field, name=value)
    return value


def _list(
    data: Mapping[str, object], name: str, limit: int, required: bool = True
) -> list[dict[str, object]]:
    if name not in data and not required:
        return []
    value = _get(data, name, name, list, K_TABLES)
    assert isinstance(value, list)
    if len(value) > limit:
        raise Malformed(TOO_MANY, field=name, limit=limit)
    if not all(isinstance(v, dict) for v in value):
        raise Malformed(WRONG_TYPE, field=name, kind=K_TABLES)
    return value


def _int(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed(WRONG_TYPE, field=field, kind=K_NUMBER)
    return value


def from_mapping(data: Mapping[str, object]) -> Definition:
    """A definition from its parsed data, checked (see :func:`read_definition`)."""
    for field_name in data:
        if field_name not in _TOP_FIELDS:
            raise Malformed(UNKNOWN_FIELD, field=str(field_name))
    key = _key(_get(data, "key", "key", str, K_TEXT), "key")
    version = _int(_get(data, "version", "version", int, K_NUMBER), "version")
    if version < 1:
        raise Malformed(BAD_VERSION, field="version")
    source = _text(_get(data, "source", "source", str, K_TEXT), "source", MAX_ABOUT)
    example = str(data.get("example", "")).strip()
    odds_example = str(data.get("odds_example", example)).strip()
    name = _words(data, "", "name")
    about = _words(data, "", "about", MAX_ABOUT)
    inputs = _inputs(_list(data, "inputs", MAX_INPUTS, required=False))
    input_keys = frozenset(i.key for i in inputs)
    groups = _groups(data.get("dice"), input_keys)
    group_keys = frozenset(g.key for g in groups)
    followups = _followups(_list(data, "followups", MAX_FOLLOWUPS, required=False), groups)
    taken = input_keys | group_keys
    for followup in followups:
        if followup.key in taken:
            raise Malformed(DUPLICATE, field="followups", name=followup.key)
    input_keys = input_keys | {f.key for f in followups}  # a follow-up's name reads 0 or 1
    lets = _lets(data.get("let", {}), input_keys, group_keys)
    known = frozenset(input_keys | {k for k, _ in lets})
    value = compile_expression(
        _get(data, "value", "value", (str, int), K_EXPRESSION), "value", known, group_keys
    )
    outcomes = _outcomes(_list(data, "outcomes", MAX_OUTCOMES))
    marks = _marks(_list(data, "marks", MAX_MARKS, required=False), known, group_keys)
    stats = _stats(_list(data, "stats", MAX_STATS, required=False), inputs)
    for index, followup in enumerate(followups):
        for outcome in sorted(followup.on - {b.key for b in outcomes}):
            raise Malformed(FOLLOWUP_OUTCOME, field=f"followups[{index}].on", name=outcome)
    definition = Definition(
        key, version, name, about, source, example, odds_example, inputs, groups,
        lets, value, outcomes, marks, stats, followups,
    )  # fmt: skip
    check_dice(definition)
    return definition


def _followups(raws: list[dict[str, object]], groups: tuple[Group, ...]) -> tuple[Followup, ...]:
    """The follow-ups: each a push of one group's dice, or a reroll of the whole roll."""
    followups: list[Followup] = []
    for index, raw in enumerate(raws):
        field = f"followups[{index}]"
        for name in raw:
            if name not in ("key", "label", "group", "stay", "better", "on", "times"):
                raise Malformed(UNKNOWN_FIELD, field=f"{field}.{name}")
        key = _key(raw.get("key"), f"{field}.key")
        if any(f.key == key for f in followups):
            raise Malformed(DUPLICATE, field="followups", name=key)
        label = _words(raw, field, "label")
        group = raw.get("group")
        if group is not None:
            group = _text(group, f"{field}.group", 32)
            if group not in {g.key for g in groups}:
                raise Malformed(FOLLOWUP_GROUP, field=f"{field}.group", name=group)
        stay = _int_list(raw.get("stay", []), f"{field}.stay", K_FACE_LIST)
        if stay and group is None:
            raise Malformed(FOLLOWUP_STAY, field=f"{field}.stay")
        better = raw.get("better", False)
        if not isinstance(better, bool):
            raise Malformed(WRONG_TYPE, field=f"{field}.better", kind=K_YES_NO)
        if better and group is not None:
            raise Malformed(FOLLOWUP_BETTER, field=f"{field}.better")
        on = raw.get("on", [])
        if not isinstance(on, list) or not all(isinstance(o, str) for o in on):
            raise Malformed(WRONG_TYPE, field=f"{field}.on", kind=K_KEY_LIST)
        times = _int(raw.get("times", 1), f"{field}.times")
        if not 1 <= times <= MAX_TIMES:
            raise Malformed(FOLLOWUP_TIMES, field=f"{field}.times", limit=MAX_TIMES)
        followups.append(
            Followup(key, label, group, frozenset(stay), better, frozenset(map(str, on)), times)
        )
    return tuple(followups)


def _int_list(raw: object, field: str, kind: Term) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_FACES:
        raise Malformed(WRONG_TYPE, field=field, kind=kind)
    return tuple(_int(v, field) for v in raw)


def _lets(
    raw: object, inputs: frozenset[str], groups: frozenset[str]
) -> tuple[tuple[str, Expression], ...]:
    """The named values, in order: each may read the inputs and those before it."""
    if not isinstance(raw, dict):
        raise Malformed(WRONG_TYPE, field="let", kind=K_LETS)
    if len(raw) > MAX_LETS:
        raise Malformed(TOO_MANY, field="let", limit=MAX_LETS)
    lets: list[tuple[str, Expression]] = []
    known = set(inputs)
    for let_key, text in raw.items():
        field = f"let.{let_key}"
        _key(let_key, field)
        if let_key in known or let_key in groups:
            raise Malformed(DUPLICATE, field="let", name=let_key)
        lets.append((let_key, compile_expression(text, field, frozenset(known), groups)))
        known.add(let_key)
    return tuple(lets)


def _marks(
    raws: list[dict[str, object]], known: frozenset[str], groups: frozenset[str]
) -> tuple[Mark, ...]:
    marks: list[Mark] = []
    for index, raw in enumerate(raws):
        field = f"marks[{index}]"
        mark_key = _key(raw.get("key"), f"{field}.key")
        if any(m.key == mark_key for m in marks):
            raise Malformed(DUPLICATE, field="marks", name=mark_key)
        text = _get(raw, f"{field}.when", "when", str, K_EXPRESSION)
        when = compile_expression(text, f"{field}.when", known, groups)
        marks.append(Mark(mark_key, when, _words(raw, field, "label")))
    return tuple(marks)


def _inputs(raws: list[dict[str, object]]) -> tuple[Input, ...]:
    inputs: list[Input] = []
    typed: set[str] = set()
    for index, raw in enumerate(raws):
        field = f"inputs[{index}]"
        key = _key(raw.get("key"), f"{field}.key")
        if any(i.key == key for i in inputs):
            raise Malformed(DUPLICATE, field="inputs", name=key)
        name = _words(raw, field, "name")
        low = _int(_get(raw, f"{field}.min", "min", int, K_NUMBER), f"{field}.min")
        high = _int(_get(raw, f"{field}.max", "max", int, K_NUMBER), f"{field}.max")
        if max(abs(low), abs(high)) > MAX_INPUT_VALUE:
            raise Malformed(
                RANGE_LIMIT,
                field=f"{field}.min" if abs(low) > MAX_INPUT_VALUE else f"{field}.max",
                limit=MAX_INPUT_VALUE,
            )
        if low > high:
            raise Malformed(RANGE_ORDER, field=field)
        default = _int(raw.get("default", max(low, min(0, high))), f"{field}.default")
        if not low <= default <= high:
            raise Malformed(DEFAULT_OUTSIDE, field=f"{field}.default", low=low, high=high)
        prefixes = _prefixes(raw.get("prefix", {}), field, typed)
        words = _input_words(raw.get("words", {}), field, typed, low, high)
        inputs.append(Input(key, name, default, low, high, prefixes, words))
    return tuple(inputs)


def _stats(raws: list[dict[str, object]], inputs: tuple[Input, ...]) -> tuple[Stat, ...]:
    """The players' named stats: each feeds a known input, within its range, and its key
    is typed as no input's word or prefix is (``/roll cool``)."""
    typed = {word for i in inputs for word in (*i.prefixes, *(w for w, _ in i.words))}
    stats: list[Stat] = []
    for index, raw in enumerate(raws):
        field = f"stats[{index}]"
        key = _key(raw.get("key"), f"{field}.key")
        if key in typed or any(s.key == key for s in stats):
            raise Malformed(STAT_CLASH, field=f"{field}.key", name=key)
        name = _words(raw, field, "name")
        feeds = _get(raw, f"{field}.input", "input", str, K_TEXT)
        assert isinstance(feeds, str)
        fed = next((i for i in inputs if i.key == feeds), None)
        if fed is None:
            known = ", ".join(i.key for i in inputs) or "–"
            raise Malformed(UNKNOWN_INPUT, field=f"{field}.input", name=feeds[:32], inputs=known)
        default = _int(raw.get("default", fed.default), f"{field}.default")
        if not fed.low <= default <= fed.high:
            raise Malformed(DEFAULT_OUTSIDE, field=f"{field}.default", low=fed.low, high=fed.high)
        for extra in raw:
            if extra not in ("key", "name", "input", "default"):
                raise Malformed(UNKNOWN_FIELD, field=f"{field}.{extra}")
        stats.append(Stat(key, name, feeds, default))
    return tuple(stats)


def _prefixes(raw: object, field: str, typed: set[str]) -> tuple[str, ...]:
    """An input's prefixes (``dc`` in ``dc15``), in each language."""
    if not isinstance(raw, dict):
        raise Malformed(WRONG_TYPE, field=f"{field}.prefix", kind=K_LANGUAGES)
    prefixes: list[str] = []
    for code, values in raw.items():
        where = f"{field}.prefix.{code}"
        if code not in LANGUAGES or not isinstance(values, list) or len(values) > MAX_WORDS:
            raise Malformed(WRONG_TYPE, field=where, kind=K_WORD_LIST)
        prefixes.extend(_typed_word(word, where, typed) for word in values)
    return tuple(prefixes)


def _input_words(
    raw: object, field: str, typed: set[str], low: int, high: int
) -> tuple[tuple[str, int], ...]:
    """An input's words and the values they set (``adv`` -> 1), in each language."""
    if not isinstance(raw, dict):
        raise Malformed(WRONG_TYPE, field=f"{field}.words", kind=K_LANGUAGES)
    words: list[tuple[str, int]] = []
    for code, table in raw.items():
        where = f"{field}.words.{code}"
        if code not in LANGUAGES or not isinstance(table, dict) or len(table) > MAX_WORDS:
            raise Malformed(WRONG_TYPE, field=where, kind=K_WORD_TABLE)
        for word, set_to in table.items():
            typed_word = _typed_word(word, where, typed)
            number = _int(set_to, f"{where}.{word}")
            if not low <= number <= high:
                raise Malformed(DEFAULT_OUTSIDE, field=f"{where}.{word}", low=low, high=high)
            words.append((typed_word, number))
    return tuple(words)


def _typed_word(word: object, field: str, typed: set[str]) -> str:
    text = _text(word, field, 20).lower()
    if text in typed or re.search(r"\s", text) or re.fullmatch(r"[+\-−]?\d+", text):
        raise Malformed(WORD_CLASH, field=field, name=text)
    typed.add(text)
    return text


def _groups(raw: object, inputs: frozenset[str]) -> tuple[Group, ...]:
    if not isinstance(raw, dict) or not raw:
        raise Malformed(MISSING, field="dice")
    if len(raw) > MAX_GROUPS:
        raise Malformed(TOO_MANY, field="dice", limit=MAX_GROUPS)
    groups = []
    for key, spec in raw.items():
        field = f"dice.{key}"
        _key(key, field)
        if key in inputs:
            raise Malformed(DUPLICATE, field="dice", name=key)
        if not isinstance(spec, dict):
            raise Malformed(WRONG_TYPE, field=field, kind=K_GROUP)
        count = compile_expression(spec.get("count", "1"), f"{field}.count", inputs, frozenset())
        die = _get(spec, f"{field}.die", "die", str, K_TEXT)
        assert isinstance(die, str)
        where = f"{field}.die"
        parts = tuple(
            compile_expression(p, where, inputs, frozenset()) for p in _PLACEHOLDER.findall(die)
        )
        faces = spec.get("faces")
        if faces is not None:
            if not isinstance(faces, list) or not 2 <= len(faces) <= MAX_FACES:
                raise Malformed(
                    WRONG_TYPE,
                    field=f"{field}.faces",
                    kind=K_FACES,
                )
            faces = tuple(_int(f, f"{field}.faces") for f in faces)
        depth = spec.get("depth")
        if depth is not None:
            depth = _int(depth, f"{field}.depth")
            if not 1 <= depth <= EXPLODE_DEPTH:
                raise Malformed(DEFAULT_OUTSIDE, field=f"{field}.depth", low=1, high=EXPLODE_DEPTH)
        groups.append(Group(key, count, die, parts, faces, depth))
    return tuple(groups)


def _outcomes(raws: list[dict[str, object]]) -> tuple[OutcomeBand, ...]:
    if len(raws) < 2:
        raise Malformed(TOO_FEW_OUTCOMES, field="outcomes")
    bands: list[OutcomeBand] = []
    for index, raw in enumerate(raws):
        field = f"outcomes[{index}]"
        key = _key(raw.get("key"), f"{field}.key")
        if any(b.key == key for b in bands):
            raise Malformed(DUPLICATE, field="outcomes", name=key)
        low = None if "min" not in raw else _int(raw["min"], f"{field}.min")
        high = None if "max" not in raw else _int(raw["max"], f"{field}.max")
        first, last = index == 0, index == len(raws) - 1
        if (high is None) != first or (low is None) != last:
            raise Malformed(BANDS_ORDER, field=field)
        if low is not None and high is not None and low > high:
            raise Malformed(BAND_ORDER, field=field)
        bands.append(OutcomeBand(key, low, high, _words(raw, field, "label")))
    for better, worse in pairwise(bands):
        assert better.low is not None and worse.high is not None
        if worse.high >= better.low:
            raise Malformed(BANDS_OVERLAP, field="outcomes", first=better.key, second=worse.key)
        if worse.high + 1 < better.low:
            raise Malformed(BANDS_GAP, field="outcomes", first=better.key, second=worse.key)
    return tuple(bands)


# --- the dice, for given inputs --------------------------------------------------------


def group_dice(group: Group, values: Mapping[str, int]) -> tuple[int, Dice | None, str]:
    """How many dice ``group`` rolls for ``values``, its term of the grammar, its notation.

    Raises:
        Malformed: the die isn't one plain term of the grammar (the message names it).
    """
    field = f"dice.{group.key}"
    count = group.count.evaluate(values)
    fills = iter(str(p.evaluate(values)) for p in group.parts)
    die = _PLACEHOLDER.sub(lambda _: next(fills), group.die)
    notation = f"{count}{die}"
    if count < 0:
        raise Malformed(BAD_DIE, field=f"{field}.count", text=notation)
    if count == 0:
        return 0, None, ""
    try:
        expression: DiceExpression = parse(notation)
    except Malformed as exc:
        if exc.message_id == EXPLODES_FOREVER:
            raise Malformed(UNBOUNDED, field=f"{field}.die") from None
        raise Malformed(BAD_DIE, field=f"{field}.die", text=notation) from None
    dice = expression.node
    if (
        not isinstance(dice, Dice)
        or expression.repeat != 1
        or expression.target
        or expression.label
    ):
        raise Malformed(BAD_DIE, field=f"{field}.die", text=notation)
    if dice.counting or dice.crit or dice.fumble or dice.label or dice.single_keep:
        raise Malformed(BAD_DIE, field=f"{field}.die", text=notation)
    if group.faces is not None and dice.explode == "!p":
        raise Malformed(BAD_DIE, field=f"{field}.die", text=notation)
    if group.faces is not None and len(group.faces) != len(dice.faces):
        raise Malformed(
            FACES_COUNT, field=f"{field}.faces", count=len(group.faces), sides=len(dice.faces)
        )
    return count, dice, notation


def input_corners(definition: Definition) -> list[dict[str, int]]:
    """Every input at its default, its least and its greatest, in every combination
    (at most 3 ** inputs): where a definition is checked and its largest work found."""
    choices = [sorted({i.low, i.default, i.high}) for i in definition.inputs]
    return [
        dict(zip((i.key for i in definition.inputs), pick, strict=True))
        for pick in product(*choices)
    ]


def check_dice(definition: Definition) -> None:
    """Every group's die reads as one term of the grammar at the inputs' corners, and
    a group a follow-up pushes is plain dice, one face each, that it can reroll."""
    pushed = {f.group: (i, f) for i, f in enumerate(definition.followups) if f.group}
    for values in input_corners(definition):
        values = {**values, **definition.made_by(None)}
        for group in definition.groups:
            _, dice, _ = group_dice(group, values)
            if dice is None or group.key not in pushed:
                continue
            index, followup = pushed[group.key]
            if dice.explode or dice.keep:
                raise Malformed(FOLLOWUP_DIE, field=f"followups[{index}].group", name=group.key)
            shown = {group.faces[v - 1] if group.faces else v for v in dice.faces}
            if shown <= followup.stay:
                raise Malformed(FOLLOWUP_NEVER, field=f"followups[{index}].stay")
