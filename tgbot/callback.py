"""Callback data: typed, versioned and within Telegram's 64 bytes.

Formats (the leading tag carries the format version):
- ``p1:<panel>:<version>:<action>[:<argument>]`` — a button on a panel;
- ``g2:<verb>[:<field>...]`` — a button outside panels: a small frozen dataclass
  (a :class:`GeneralButton` subclass, declared beside the handler that takes it)
  whose fields are packed in order: ints in base 36, ``bool`` as ``1``/``0``, an
  Enum by its value, ``str`` as it is;
- ``g1:<verb>[:<field>.<field>...]`` — the older form of the same buttons (ints in
  decimal, fields joined by dots), still read so buttons on old messages keep working.

Anything else (garbage, forged, over-long, an unknown verb) is :class:`Malformed`
with the "out of date" message, never another exception.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, TypeVar

from core.rules.errors import Malformed

MAX_BYTES = 64
_WORD = re.compile(r"^[a-z0-9_.-]{1,24}$")
_ARG = re.compile(r"^[A-Za-z0-9_.+-]{0,40}$")
_VERB = re.compile(r"^[a-z0-9_]{1,24}$")
_TEXT = re.compile(r"^[A-Za-z0-9_.+-]*$")  # a str field: no separator, nothing to escape
_BASE36 = re.compile(r"^(0|-?[1-9a-z][0-9a-z]*)$")
_DECIMAL = re.compile(r"^(0|[1-9][0-9]*)$")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
INT_MIN, INT_MAX = -(2**63), 2**63 - 1  # what the database keeps: a forged id stays in range
GENERAL_TAG, OLD_GENERAL_TAG = "g2", "g1"
OUTDATED = "That button is out of date. Use the latest message."


@dataclass(frozen=True)
class PanelButton:
    panel_id: int
    version: int
    action: str
    argument: str = ""

    def encode(self) -> str:
        if not _WORD.match(self.action) or not _ARG.match(self.argument):
            raise ValueError(f"bad button {self!r}")
        data = f"p1:{self.panel_id}:{self.version}:{self.action}"
        data += f":{self.argument}" if self.argument else ""
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data


# -- general buttons --------------------------------------------------------------------------


def _base36(number: int) -> str:
    digits, rest = "", abs(number)
    while True:
        rest, digit = divmod(rest, 36)
        digits = _DIGITS[digit] + digits
        if not rest:
            break
    return "-" + digits if number < 0 else digits


@dataclass(frozen=True)
class _Field:
    """How one field of a button is packed and read back."""

    name: str
    pack: Callable[[Any], str]
    unpack: Callable[[str], Any]  # raises ValueError on anything it did not pack
    unpack_old: Callable[[str], Any]  # the same, from the older ``g1`` form


def _read_int(text: str, pattern: re.Pattern[str], base: int) -> int:
    if not pattern.match(text):
        raise ValueError(text)
    number = int(text, base)
    if not INT_MIN <= number <= INT_MAX:
        raise ValueError(text)
    return number


def _pack_int(value: object) -> str:
    if type(value) is not int or not INT_MIN <= value <= INT_MAX:
        raise ValueError(f"not a packable int: {value!r}")
    return _base36(value)


def _pack_text(value: object) -> str:
    if not isinstance(value, str) or not _TEXT.match(value):
        raise ValueError(f"not a packable str: {value!r}")
    return value


def _read_text(text: str) -> str:
    if not _TEXT.match(text):
        raise ValueError(text)
    return text


def _read_bool(text: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError(text)
    return text == "1"


def _pack_bool(value: object) -> str:
    if not isinstance(value, bool):
        raise ValueError(f"not a bool: {value!r}")
    return "1" if value else "0"


def _int_field(name: str) -> _Field:
    return _Field(
        name, _pack_int, lambda t: _read_int(t, _BASE36, 36), lambda t: _read_int(t, _DECIMAL, 10)
    )


def _enum_field(name: str, kind: type[Enum]) -> _Field:
    values = [member.value for member in kind]
    if all(type(v) is int for v in values):
        inner = _int_field(name)
    elif all(isinstance(v, str) and _TEXT.match(v) for v in values):
        inner = _Field(name, _pack_text, _read_text, _read_text)
    else:
        raise TypeError(f"{kind.__name__}: only str or int values can be packed")

    def pack(value: object) -> str:
        if not isinstance(value, kind):
            raise ValueError(f"not a {kind.__name__}: {value!r}")
        return inner.pack(value.value)

    return _Field(
        name,
        pack,
        lambda text: kind(inner.unpack(text)),
        lambda text: kind(inner.unpack_old(text)),
    )


def _field(name: str, kind: object) -> _Field:
    if kind is int:
        return _int_field(name)
    if kind is bool:
        return _Field(name, _pack_bool, _read_bool, _read_bool)
    if kind is str:
        return _Field(name, _pack_text, _read_text, _read_text)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return _enum_field(name, kind)
    raise TypeError(f"a button field must be int, str, bool or an Enum, not {kind!r}")


_GENERAL: dict[str, type[GeneralButton]] = {}
B = TypeVar("B", bound="GeneralButton")


@dataclass(frozen=True)
class GeneralButton:
    """A button outside panels: subclass it as a frozen dataclass with a verb.

    Example::

        @dataclass(frozen=True)
        class UndoButton(GeneralButton, verb="undo"):
            panel_id: int
            version: int

    The subclass is registered by its verb, so :func:`decode` returns it typed.
    """

    VERB: ClassVar[str] = ""
    _FIELDS: ClassVar[tuple[_Field, ...]] = ()

    def __init_subclass__(cls, *, verb: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not _VERB.match(verb):
            raise ValueError(f"bad verb {verb!r}")
        known = _GENERAL.get(verb)
        if known is not None and known.__qualname__ != cls.__qualname__:
            raise ValueError(f"verb {verb!r} is taken by {known.__qualname__}")
        cls.VERB = verb
        _GENERAL[verb] = cls

    @classmethod
    def _fields(cls) -> tuple[_Field, ...]:
        """The packing of each field, in order (read once, when first needed)."""
        if "_FIELDS" not in cls.__dict__:
            hints = typing.get_type_hints(cls)
            cls._FIELDS = tuple(_field(f.name, hints[f.name]) for f in dataclasses.fields(cls))
        return cls._FIELDS

    def encode(self) -> str:
        """The callback data (raises ValueError for a value that cannot be packed or fit)."""
        parts = [GENERAL_TAG, self.VERB]
        parts += [f.pack(getattr(self, f.name)) for f in self._fields()]
        data = ":".join(parts)
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data

    @classmethod
    def _read(cls, texts: list[str], *, old: bool) -> GeneralButton:
        fields = cls._fields()
        if len(texts) != len(fields):
            raise ValueError(texts)
        values = {
            f.name: (f.unpack_old if old else f.unpack)(text)
            for f, text in zip(fields, texts, strict=True)
        }
        return cls(**values)


def pattern(*kinds: type[GeneralButton]) -> str:
    """A ``CallbackQueryHandler`` pattern for these buttons, old form included."""
    verbs = "|".join(kind.VERB for kind in kinds)
    return rf"^(?:{GENERAL_TAG}|{OLD_GENERAL_TAG}):(?:{verbs})(?::|$)"


def general_buttons() -> tuple[type[GeneralButton], ...]:
    """Every registered general button type (those whose modules were imported)."""
    return tuple(_GENERAL.values())


def _general(tag: str, parts: list[str]) -> GeneralButton:
    kind = _GENERAL.get(parts[0]) if parts else None
    if kind is None:
        raise ValueError(parts)
    if tag == GENERAL_TAG:
        return kind._read(parts[1:], old=False)
    if len(parts) > 2:
        raise ValueError(parts)
    texts = parts[1].split(".") if len(parts) == 2 else []
    return kind._read(texts, old=True)


def decode(data: str | None) -> PanelButton | GeneralButton:
    """Parse callback data from Telegram.

    Raises:
        Malformed: not data this bot made (old format, garbage, forged).
    """
    if not data or len(data.encode()) > MAX_BYTES:
        raise Malformed(OUTDATED)
    parts = data.split(":")
    try:
        if parts[0] == "p1" and len(parts) in (4, 5):
            panel_id, version = int(parts[1]), int(parts[2])
            argument = parts[4] if len(parts) == 5 else ""
            if panel_id < 1 or version < 0 or not _WORD.match(parts[3]) or not _ARG.match(argument):
                raise ValueError
            return PanelButton(panel_id, version, parts[3], argument)
        if parts[0] in (GENERAL_TAG, OLD_GENERAL_TAG):
            return _general(parts[0], parts[1:])
    except (ValueError, TypeError):
        pass
    raise Malformed(OUTDATED)


def decode_as(data: str | None, kind: type[B]) -> B:
    """Parse callback data that must be a ``kind`` button.

    Raises:
        Malformed: anything else ("out of date").
    """
    button = decode(data)
    if not isinstance(button, kind):
        raise Malformed(OUTDATED)
    return button
