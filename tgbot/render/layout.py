"""Laying buttons out for a phone (pure).

Budgets measured on the sandbox page in Chromium at 360 px with labels on one
line, as Telegram draws them: a one-button row shows about 34 characters of
ordinary text whole, each of two buttons about 15, of three 10, of four 6, of
five 4. The budgets keep a margin; long labels go one or two to a row, only
short keys (numbers, dice) more.
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton

ONE_ROW = 30  # characters a one-button row shows whole at 360 px
HALF_ROW = 14  # characters each of two buttons in a row shows whole at 360 px
MAX_BUTTONS = 8  # a phone shows about eight buttons at once
ROW_BUDGET = {1: ONE_ROW, 2: HALF_ROW, 3: 9, 4: 5, 5: 3}  # characters per label, by row size


WIDE = 1.15
"""A Cyrillic letter's width in ordinary (Latin) characters: Russian labels run wider."""


def label_width(label: str) -> int:
    """A label's width in characters as a phone shows it (variation selectors take no room)."""
    return len(label.replace("\ufe0f", ""))


def row_width(label: str) -> float:
    """A label's width in ordinary characters when buttons share a row: a Cyrillic letter
    takes a little more room than a Latin one, so ``✓ Средняя`` goes two to a row where
    ``✓ Average`` goes three (tests/support/phone.py measures drawn labels with a real font)."""
    return sum(0 if c == "\ufe0f" else WIDE if "\u0400" <= c <= "\u04ff" else 1 for c in label)


def fit_name(name: str, room: int) -> str:
    """A person's ``name`` as a button shows it in ``room`` characters, never a word cut off:
    the whole name, else as many of its first words as fit ("Chidi" for "Chidi Okafor"),
    else the first word's initial ("C.")."""
    words = name.split()
    for count in range(len(words), 0, -1):
        said = " ".join(words[:count])
        if count < len(words):  # a shortened name does not end on its comma
            said = said.rstrip(",") or said
        ends = count in (1, len(words)) or any(c.isalnum() for c in words[count - 1])
        if ends and label_width(said) <= room:  # never ending on a lone "&" or "-"
            return said
    return f"{words[0][0]}." if words else name


def fit_names(names: Sequence[str], room: int) -> str:
    """People named on one button in ``room`` characters, each by a whole name or its first
    words (:func:`fit_name`): "Ana, Bo"; those beyond the room are counted: "Ana, Bo +2"."""
    shown: list[str] = []
    for index, name in enumerate(names):
        left = len(names) - index - 1
        tail = f" +{left}" if left else ""
        said = fit_name(name, room - label_width(", ".join([*shown, ""]) + tail))
        if shown and label_width(", ".join([*shown, said]) + tail) > room:
            return ", ".join(shown) + f" +{len(names) - index}"
        shown.append(said)
    return ", ".join(shown)


def named(template: str, name: str) -> str:
    """``template`` with a person's ``name`` in its ``{}``, as much of the name as fits a
    one-button row in whole words (:func:`fit_name`)."""
    room = ONE_ROW - label_width(template.replace("{}", ""))
    return template.replace("{}", fit_name(name, room))


def named_many(template: str, names: Sequence[str]) -> str:
    """``template`` with people's ``names`` in its ``{}``, as many as fit a one-button row
    (:func:`fit_names`)."""
    room = ONE_ROW - label_width(template.replace("{}", ""))
    return template.replace("{}", fit_names(names, room))


def phone_rows(buttons: Sequence[InlineKeyboardButton]) -> list[list[InlineKeyboardButton]]:
    """Buttons two to a row when both labels fit half a row, else one to a row."""
    rows: list[list[InlineKeyboardButton]] = []
    for b in buttons:
        last = rows[-1] if rows else None
        fits = row_width(b.text) <= HALF_ROW
        if last is not None and len(last) == 1 and fits and row_width(last[0].text) <= HALF_ROW:
            last.append(b)
        else:
            rows.append([b])
    return rows


def grid(buttons: Sequence[InlineKeyboardButton], most: int) -> list[list[InlineKeyboardButton]]:
    """Like buttons (dice, traits) as many to a row as fit, at most ``most``.

    Rows are as wide as the longest label allows: ``👁 +d12`` goes three to a
    row, where ``+1`` would go four.
    """
    longest = max((row_width(b.text) for b in buttons), default=0.0)
    width = max(
        (n for n in range(1, most + 1) if n in ROW_BUDGET and longest <= ROW_BUDGET[n]), default=1
    )
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]
