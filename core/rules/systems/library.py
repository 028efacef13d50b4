"""The library of game systems as data: one line per system, its file ``library/KEY.toml``.

The files ship inside the package and are read (and checked) once, on first use.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from core.rules.errors import Malformed
from core.rules.systems.definition import DUPLICATE, Definition
from core.rules.systems.play import read_system

LIBRARY = (
    "pbta",
    "blades",
    "ironsworn",
    "coc",
    "daggerheart",
    "yze",
    "savage",
    "fate",
    "cofd",
    "shadowrun",
    "cpred",
    "mothership",
    "dnd5e",
    "pf2e",
    "dragonbane",
    "cypher",
    "traveller",
    "wfrp",
    "l5r",
    "gurps",
    "tor",
)

UNKNOWN_SYSTEM = "There is no game system “{key}” in the library."
KEY_MISMATCH = "The file {file} defines “{key}”: a library file is named after its key."


def library_text(key: str) -> str:
    """The text of the library's definition ``key``."""
    if key not in LIBRARY:
        raise Malformed(UNKNOWN_SYSTEM, key=key)
    return (files("core.rules.systems") / "library" / f"{key}.toml").read_text(encoding="utf-8")


@cache
def library_definition(key: str) -> Definition:
    """The library's definition ``key``, read and checked (once).

    Raises:
        Malformed: no such system, or its file is not a valid definition.
    """
    definition = read_system(library_text(key))
    if definition.key != key:
        raise Malformed(KEY_MISMATCH, file=f"{key}.toml", key=definition.key)
    return definition


def library() -> tuple[Definition, ...]:
    """Every library system, in the library's order."""
    if len(set(LIBRARY)) != len(LIBRARY):
        raise Malformed(
            DUPLICATE, field="library", name=next(k for k in LIBRARY if LIBRARY.count(k) > 1)
        )
    return tuple(library_definition(key) for key in LIBRARY)
