"""Words in the reader's language: message catalogues, plural forms, numbers and dates.

A :class:`Lang` is a value handed to whoever words something (a renderer, a page):
nothing here reads a "current language" from global state. Catalogues are the
``locale/<code>/LC_MESSAGES/messages.po`` files, read once when first asked for
and kept (they never change while the process runs). English is the source
language: its catalogue may leave a message empty and the message id is shown.

The pseudo-locale ``xx`` wraps every message in ``⟦…⟧`` and swaps letters for
accented ones, so a test rendering in ``xx`` can find any word that did not come
from the catalogue. Player-written text is never passed through here.
"""

from __future__ import annotations

import ast
import gettext as _gettext
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import IO, Literal

from babel import Locale
from babel.dates import format_date as _format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal as _format_decimal
from babel.numbers import format_percent as _format_percent
from babel.support import Translations

from core.rules.catalogue import N_ as N_  # the rules' marker, for every other module too

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
DEFAULT = "en"
PSEUDO = "xx"
FORMATS = {DEFAULT: "en_GB", PSEUDO: "en_GB"}
"""The locale whose number and date formats a catalogue uses, when not its own."""

_ACCENTS = str.maketrans("aeiouyAEIOUYcnsz", "àéîõüÿÀÉÎÕÜŸçñšž")


def pick(language_code: str | None) -> str:
    """The catalogue for a Telegram ``language_code``: ``ru-RU`` -> ``ru``; unknown -> English."""
    code = (language_code or "").strip().lower().replace("_", "-").split("-", 1)[0]
    return code if code in available() or code == PSEUDO else DEFAULT


@cache
def available() -> tuple[str, ...]:
    """Every language that has a catalogue on disk (English always)."""
    found = {p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/messages.po")}
    return tuple(sorted(found | {DEFAULT}))


def language_named(word: str) -> str | None:
    """The catalogue a player names: its code (``ru``, ``ru-RU``) or its name in any
    catalogue's language, any case (``русский``, ``Russian``, ``английский``); None for
    anything else."""
    wanted = word.strip().casefold()
    if not wanted:
        return None
    code = wanted.replace("_", "-").split("-", 1)[0]
    if code in available():
        return code
    for each in available():
        locale = Locale.parse(each)
        names = {locale.get_language_name(other) or "" for other in available()}
        if wanted in {name.casefold() for name in names if name}:
            return each
    return None


def language_name(code: str, reader: str) -> str:
    """A catalogue's language as ``reader``'s language names it: English, русский."""
    return Locale.parse(code).get_language_name(pick(reader)) or code


_KEPT = re.compile(r"(\{[^{}]*\}|<[^<>]*>|&#?\w+;|%\(\w+\)[sd]|%%|/\w+)")


def _pseudo(text: str) -> str:
    """``Hello, {name}`` -> ``⟦Hèllõ, {name}⟧``: placeholders, tags, entities, /commands kept."""
    parts = _KEPT.split(text)
    return "⟦" + "".join(p if i % 2 else p.translate(_ACCENTS) for i, p in enumerate(parts)) + "⟧"


class _Pseudo(_gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return _pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return _pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return _pseudo(msgid1 if n == 1 else msgid2)


@cache
def _translations(code: str) -> _gettext.NullTranslations:
    """The catalogue of ``code``, compiled from its .po in memory (no .mo on disk)."""
    if code == PSEUDO:
        return _Pseudo()
    path = LOCALE_DIR / code / "LC_MESSAGES" / "messages.po"
    if not path.exists():
        return _gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=code)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer)


@dataclass(frozen=True)
class Lang:
    """One language, to word things with: ``lang.gettext("Total")``, numbers, dates.

    Made with :func:`lang_for`; cheap to make (catalogues are shared).
    """

    code: str
    _translations: _gettext.NullTranslations = field(repr=False, compare=False)

    @property
    def translations(self) -> _gettext.NullTranslations:
        """The catalogue itself, for templates that format their own values."""
        return self._translations

    @property
    def babel_locale(self) -> Locale:
        # English dates read "23 December 2026", as the product always wrote them
        return Locale.parse(FORMATS.get(self.code, self.code))

    def gettext(self, message: str, **values: object) -> str:
        """``message`` in this language, its ``{placeholders}`` filled from ``values``."""
        text = self._translations.gettext(message)
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, n: int, **values: object) -> str:
        """The plural form for ``n`` (Russian has three); ``{num}`` is ``n`` as a number."""
        text = self._translations.ngettext(singular, plural, n)
        return text.format(num=self.number(n), **values)

    def pgettext(self, context: str, message: str, **values: object) -> str:
        """``message`` as meant in ``context`` (one English word, two Russian ones)."""
        text = self._translations.pgettext(context, message)
        return text.format(**values) if values else text

    def number(self, value: float) -> str:
        return _format_decimal(value, locale=self.babel_locale)

    def percent(self, value: float, digits: int = 1) -> str:
        """A chance (0..1) as a percentage the language's way, one form everywhere:
        ``68.4%``, ``68,4 %`` (a no-break space before ``%``); a chance above 0 that
        rounds to 0 is ``<0.1%``."""
        pattern = self.babel_locale.percent_formats[None].pattern
        if digits:  # the locale's pattern (its spacing and sign) with that many decimals
            pattern = re.sub(r"0(?=[^0#,]*$)", "0." + "0" * digits, pattern, count=1)
        smallest = 10.0 ** -(digits + 2)
        if 0 < value < smallest / 2:
            return "<" + _format_percent(smallest, format=pattern, locale=self.babel_locale)
        nudged = value + 1e-12 if value > 0 else value  # a half rounds up: 6.25 → 6.3
        return _format_percent(nudged, format=pattern, locale=self.babel_locale)

    def day(self, moment: date | datetime, form: Literal["long", "medium"] = "long") -> str:
        """A date as players read it: ``23 December 2026``, ``23 декабря 2026 г.``"""
        day = moment.date() if isinstance(moment, datetime) else moment
        return _format_date(day, format=form, locale=self.babel_locale)


def lang_for(language_code: str | None) -> Lang:
    """The language to speak to someone whose Telegram language is ``language_code``."""
    code = pick(language_code)
    return Lang(code, _translations(code))


ERROR_TYPES = frozenset(
    {"StonetableError", "Malformed", "NotAllowedNow", "NotYourTurn", "TryAgain", "N_", "_malformed"}
)


def _sentence(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
        return text if " " in text and text.rstrip()[-1:] in ".!?)" else None
    return None


def _sentence_places(node: ast.AST) -> list[ast.expr]:
    """Where ``node`` may hold core's sentences: an error type's first argument (or a
    limit's sentence), an upper-case constant's value (or a dict's values), a
    ``message`` parameter's default."""
    found: list[ast.expr] = []
    if isinstance(node, ast.Call):
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        if name in ERROR_TYPES and node.args:
            found.append(node.args[0])
        found.extend(a for a in node.args[1:2] if name == "_int")  # a limit's sentence
    elif isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        upper = any(
            isinstance(t, ast.Name) and t.id.isupper() and not t.id.startswith("_") for t in targets
        )
        if upper and node.value is not None:
            value = node.value
            found.extend(value.values if isinstance(value, ast.Dict) else [value])
    elif isinstance(node, ast.FunctionDef):
        arguments = node.args.args[-len(node.args.defaults) :] if node.args.defaults else []
        found.extend(
            d for a, d in zip(arguments, node.args.defaults, strict=True) if a.arg == "message"
        )
    return found


def extract_errors(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """A pybabel extractor for core's messages, which are plain sentences, not calls.

    Finds the sentences given to the error types, ``message`` defaults, the
    sentences held in upper-case constants (a string, or a dict of them), and the
    words a ``Term(context, word)`` names.
    """
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        found = _sentence_places(node)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Term":
            pair = [a.value for a in node.args if isinstance(a, ast.Constant)]
            context, word = [*pair, None, None][:2]
            if len(node.args) == 2 and isinstance(context, str) and isinstance(word, str):
                yield node.lineno, "pgettext", (context, word), []  # a word under a context
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "N_" and node.args:
            marked = node.args[0]  # N_ marks a message whatever its shape (a label, a phrase)
            text = marked.value if isinstance(marked, ast.Constant) else None
            if isinstance(text, str) and _sentence(marked) is None:
                yield marked.lineno, None, text, []
        for expr in found:
            text = _sentence(expr)
            if text is not None:
                yield expr.lineno, None, text, []
