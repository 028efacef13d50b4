"""Turn the frozen Cortex values into JSON-ready data and back.

Handles the shapes the Cortex state uses: ``int``, ``str``, ``bool``, Enums
(stored by value), frozen dataclasses (stored as objects by field name),
``tuple[X, ...]`` (lists) and ``X | None``. Invariant: ``load(type(v), dump(v))
== v`` for every state value, and ``load`` runs each dataclass's own
validation, so loaded state is as trustworthy as built state.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from typing import Any, TypeVar

from core.rules.errors import Malformed

T = TypeVar("T")


def dump(value: object) -> object:
    """A JSON-ready copy of ``value`` (dicts, lists, str, int, bool, None)."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: dump(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [dump(item) for item in value]
    if value is None or isinstance(value, str | int | bool):
        return value
    raise TypeError(f"cannot dump {type(value).__name__}")


def load(cls: type[T], data: object) -> T:
    """Rebuild a ``cls`` from :func:`dump` output.

    Raises:
        Malformed: the data does not have the expected shape or values.
    """
    result: T = _load(cls, data)
    return result


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _load(tp: Any, data: object) -> Any:
    origin = typing.get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if data is None:
            return None
        return _load(args[0], data)
    if origin is tuple:
        if not isinstance(data, list):
            raise Malformed("Saved Cortex state is damaged (expected a list).")
        (item_type, _ellipsis) = typing.get_args(tp)
        return tuple(_load(item_type, item) for item in data)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            raise Malformed(
                "Saved Cortex state has an unknown value {value}.", value=repr(data)
            ) from None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _load_dataclass(tp, data)
    return _load_plain(tp, data)


def _load_dataclass(tp: type, data: object) -> Any:
    """A saved object: every field it has, loaded by its type; a missing one has a default."""
    if not isinstance(data, dict):
        raise Malformed("Saved Cortex state is damaged (expected an object).")
    hints = _hints(tp)
    kwargs = {}
    for f in dataclasses.fields(tp):
        if f.name in data:
            kwargs[f.name] = _load(hints[f.name], data[f.name])
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise Malformed("Saved Cortex state is missing “{name}”.", name=f.name)
    return tp(**kwargs)


def _load_plain(tp: Any, data: object) -> Any:
    """A saved true/false, number or text."""
    if tp is bool:
        if not isinstance(data, bool):
            raise Malformed("Saved Cortex state is damaged (expected true/false).")
        return data
    if tp is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise Malformed("Saved Cortex state is damaged (expected a number).")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise Malformed("Saved Cortex state is damaged (expected text).")
        return data
    raise TypeError(f"cannot load {tp!r}")
