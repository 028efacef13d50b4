"""Writing a game system step by step: the name, the dice, the inputs, the bands, each
answered in a message of its own, read into the part of a definition it writes; the
definition's text once every step is answered.

The definition it writes adds the dice up with the inputs (``total(roll) + stat``) and
reads the sum by its bands. Each answer is checked at once by the same validator as a
whole text (:func:`core.rules.systems.read_system`), with the steps not answered yet
standing in by plain placeholders, so a mistake is named at the step that made it.

The answers so far (what :func:`answer` returns) are JSON-ready::

    {"name": {"key", "en", "ru"}, "dice": {"count", "die"},
     "inputs": [{"key", "en", "ru", "min", "max"}...],
     "bands": [{"key", "min" | null, "en", "ru"}...]}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from core.rules.errors import Malformed
from core.rules.systems.definition import MAX_INPUTS, MAX_OUTCOMES, Definition
from core.rules.systems.play import read_system

NAME_NEEDS_LATIN = (
    "Start the name in English with a Latin letter: it makes the system's key. "
    "Write it as “Moonfall / Лунопад”."
)
DICE_FORM = "Write the dice as a count and a die, as in 2d6, 3d10! or 1d20."
INPUT_FORM = (
    "Write each input on a line of its own, its name in English and in Russian and its "
    "range, as in “modifier / модификатор -3..4”; or “-” for none. “{line}” is not."
)
TOO_MANY_LINES = "At most {limit} lines, please."
BAND_FORM = (
    "Write the outcomes best first, one a line: the least sum, then the name in English "
    "and in Russian, as in “10 Strong hit / Сильный успех”; the last line without a number, "
    "as in “Miss / Провал”. “{line}” is not."
)
BANDS_FEW = "Write at least two outcomes, the last one without a number."
ANSWERED = "This step is answered already."


class Step(StrEnum):
    """The steps, in the order asked."""

    NAME = "name"
    DICE = "dice"
    INPUTS = "inputs"
    BANDS = "bands"

    def next(self) -> Step | None:
        order = list(Step)
        index = order.index(self)
        return order[index + 1] if index + 1 < len(order) else None


SOURCE = "written step by step in the group"
_PLACEHOLDERS: dict[str, Any] = {
    "name": {"key": "draft", "en": "Draft", "ru": "Черновик"},
    "dice": {"count": "1", "die": "d6"},
    "inputs": [],
    "bands": [
        {"key": "up", "min": 4, "en": "Up", "ru": "Вверх"},
        {"key": "down", "min": None, "en": "Down", "ru": "Вниз"},
    ],
}
_NONE = {"-", "–", "—", "none", "no", "нет", "без"}
_RANGE = re.compile(r"^(.*?)\s+([+\-−]?\d{1,4})\s*(?:\.\.|…|to|до)\s*([+\-−]?\d{1,4})$")
_BAND = re.compile(r"^([+\-−]?\d{1,6})\s+(.+)$")
_DICE = re.compile(r"^(\d{1,2})\s*([dк].*)$", re.IGNORECASE)


def _number(text: str) -> int:
    return int(text.replace("−", "-"))


def _two(text: str) -> tuple[str, str]:
    """A name in English and in Russian (``Moonfall / Лунопад``); one name serves both."""
    en, _, ru = text.partition("/")
    return en.strip(), (ru.strip() or en.strip())


def _slug(text: str, taken: set[str], fallback: str) -> str:
    """A key from an English name: small Latin letters, digits and _ (``strong_hit``)."""
    word = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:24]
    if not word or not word[0].isalpha():
        word = fallback
    key, n = word, 2
    while key in taken:
        key, n = f"{word}_{n}", n + 1
    taken.add(key)
    return key


def _lines(text: str, limit: int) -> list[str]:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) > limit:
        raise Malformed(TOO_MANY_LINES, limit=limit)
    return lines


def _read(step: Step, text: str) -> Any:
    """The part of a definition one answer writes."""
    if step is Step.NAME:
        en, ru = _two(text.strip())
        if not re.match(r"^[A-Za-z]", en):
            raise Malformed(NAME_NEEDS_LATIN)
        return {"key": _slug(en, set(), "own"), "en": en, "ru": ru}
    if step is Step.DICE:
        match = _DICE.match(text.strip().replace(" ", ""))
        if match is None:
            raise Malformed(DICE_FORM)
        die = match.group(2)
        return {"count": match.group(1), "die": "d" + die[1:]}
    if step is Step.INPUTS:
        if text.strip().lower() in _NONE:
            return []
        inputs: list[dict[str, Any]] = []
        taken: set[str] = {"roll"}
        for line in _lines(text, MAX_INPUTS):
            found = _RANGE.match(line)
            if found is None or not found.group(1).strip():
                raise Malformed(INPUT_FORM, line=line[:40])
            en, ru = _two(found.group(1))
            inputs.append(
                {
                    "key": _slug(en, taken, f"input{len(inputs) + 1}"),
                    "en": en,
                    "ru": ru,
                    "min": _number(found.group(2)),
                    "max": _number(found.group(3)),
                }
            )
        return inputs
    bands: list[dict[str, Any]] = []
    taken = set()
    lines = _lines(text, MAX_OUTCOMES)
    for index, line in enumerate(lines):
        found = _BAND.match(line)
        last = index == len(lines) - 1
        if (found is None) != last:
            raise Malformed(BAND_FORM, line=line[:40])
        en, ru = _two(line if found is None else found.group(2))
        bands.append(
            {
                "key": _slug(en, taken, f"outcome{index + 1}"),
                "min": None if found is None else _number(found.group(1)),
                "en": en,
                "ru": ru,
            }
        )
    if len(bands) < 2:
        raise Malformed(BANDS_FEW)
    return bands


def answer(answers: Mapping[str, Any], step: Step, text: str) -> dict[str, Any]:
    """The answers with ``step`` answered by ``text``, checked as a whole definition
    (the steps to come standing in by placeholders).

    Raises:
        Malformed: the answer can't be read, or the definition it makes is refused
            (the message names the field at fault).
    """
    if step.value in answers:
        raise Malformed(ANSWERED)
    given = {**answers, step.value: _read(step, text)}
    read_system(text_of(given))
    return given


def text_of(answers: Mapping[str, Any]) -> str:
    """The definition's TOML text from the answers (placeholders for missing steps)."""
    parts = {**_PLACEHOLDERS, **answers}
    name, dice, inputs, bands = parts["name"], parts["dice"], parts["inputs"], parts["bands"]

    def q(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string or number

    def words(en: str, ru: str) -> str:
        return f"{{ en = {q(en)}, ru = {q(ru)} }}"

    value = " + ".join(["total(roll)", *(i["key"] for i in inputs)])
    adds = ", ".join(i["en"] for i in inputs)
    adds_ru = ", ".join(i["ru"] for i in inputs)
    roll = f"{dice['count']}{dice['die']}"
    for sign, shown in ((">=", "≥"), ("<=", "≤"), (">", "›"), ("<", "‹")):
        roll = roll.replace(sign, shown)  # the about is plain text, without < or >
    about_en = f"Roll {roll}" + (f", add {adds}" if adds else "") + "; the sum reads the outcome."
    about_ru = f"Бросок {roll}" + (f", плюс {adds_ru}" if adds_ru else "") + "; сумма даёт исход."
    lines = [
        f"key = {q(name['key'])}",
        "version = 1",
        f"source = {q(SOURCE)}",
        f"example = {q(' '.join('0' for _ in inputs))}",
        f"value = {q(value)}",
        f"name = {words(name['en'], name['ru'])}",
        f"about = {words(about_en, about_ru)}",
    ]
    for field in inputs:
        default = max(field["min"], min(0, field["max"]))
        lines += [
            "",
            "[[inputs]]",
            f"key = {q(field['key'])}",
            f"name = {words(field['en'], field['ru'])}",
            f"default = {q(default)}",
            f"min = {q(field['min'])}",
            f"max = {q(field['max'])}",
        ]
    lines += ["", "[dice.roll]", f"count = {q(dice['count'])}", f"die = {q(dice['die'])}"]
    for index, band in enumerate(bands):
        lines += ["", "[[outcomes]]", f"key = {q(band['key'])}"]
        if band["min"] is not None:
            lines.append(f"min = {q(band['min'])}")
        if index > 0 and bands[index - 1]["min"] is not None:
            lines.append(f"max = {q(bands[index - 1]['min'] - 1)}")
        lines.append(f"label = {words(band['en'], band['ru'])}")
    return "\n".join(lines) + "\n"


def finished(answers: Mapping[str, Any]) -> Definition | None:
    """The definition once every step is answered, else None.

    Raises:
        Malformed: the definition is refused (the field at fault named).
    """
    if any(step.value not in answers for step in Step):
        return None
    return read_system(text_of(answers))
