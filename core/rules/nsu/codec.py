"""Plain-data codec for the frozen NSU values, so the bot can store and resume them.

``to_plain`` turns a frozen dataclass (with enums, tuples, frozensets, optional
fields and nested dataclasses) into JSON-ready dicts, lists, strings, numbers,
booleans and ``None``. ``from_plain`` reads it back using the dataclass's type
hints, so ``from_plain(type(x), to_plain(x)) == x`` for every value the NSU
modules build. Bad data raises :class:`~core.rules.errors.Malformed`; each
dataclass's own ``__post_init__`` then re-checks its invariants.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union

from core.rules.errors import Malformed

T = TypeVar("T")


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    """Field names of a dataclass type (memoised), or None for other types."""
    try:
        return _FIELD_NAMES[cls]
    except KeyError:
        names = None
        if dataclasses.is_dataclass(cls):
            names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELD_NAMES[cls] = names
        return names


def to_plain(value: object) -> Any:
    """Return a JSON-ready copy of ``value``."""
    if value is None or type(value) in (bool, int, str, float):
        return value
    names = _field_names(type(value))
    if names is not None:
        return {name: to_plain(getattr(value, name)) for name in names}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset):
        items = [to_plain(v) for v in value]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    if isinstance(value, tuple | list):
        return [to_plain(v) for v in value]
    if isinstance(value, bool | int | str | float):
        return value
    raise TypeError(f"cannot store a {type(value).__name__}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_plain(tp: type[T], data: Any) -> T:
    """Rebuild a value of type ``tp`` from :func:`to_plain` output.

    Raises:
        Malformed: the data does not fit the type or breaks an invariant.
    """
    try:
        return typing.cast(T, _decode(tp, data))
    except Malformed:
        raise
    except (TypeError, ValueError, KeyError) as exc:
        raise Malformed(f"The stored data could not be read back ({exc}).") from None


def _decode(tp: Any, data: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _decode(arg, data)
            except (Malformed, TypeError, ValueError, KeyError):
                continue
        raise ValueError(f"{data!r} fits none of {tp}")
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise TypeError("expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item) for item in data)
        if len(args) != len(data):
            raise ValueError("wrong number of items")
        return tuple(_decode(a, item) for a, item in zip(args, data, strict=True))
    if origin is frozenset:
        (arg,) = typing.get_args(tp)
        if not isinstance(data, list):
            raise TypeError("expected a list")
        return frozenset(_decode(arg, item) for item in data)
    names = _field_names(tp) if isinstance(tp, type) else None
    if names is not None:
        if not isinstance(data, dict):
            raise TypeError(f"expected an object for {tp.__name__}")
        hints = _hints(tp)
        unknown = set(data) - set(names)
        if unknown:
            raise KeyError(f"unknown fields {sorted(unknown)}")
        kwargs = {name: _decode(hints[name], data[name]) for name in names if name in data}
        return tp(**kwargs)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(data)
    if tp is bool:
        if not isinstance(data, bool):
            raise TypeError("expected true or false")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise TypeError("expected a whole number")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise TypeError("expected text")
        return data
    if tp is type(None):
        if data is not None:
            raise TypeError("expected null")
        return None
    raise TypeError(f"cannot read {tp!r}")
