"""How wide a button label is drawn on a 360 px phone, measured with a real font.

Telegram draws an inline keyboard under a group message beside the senders' avatar
column: on a 360 px phone the keyboard is about 300 px wide, buttons 8 px apart, each
with about 10 px of padding either side, the label in a 14 px sans-serif face on one
line (a longer one is cut with "…"). Labels are measured with DejaVu Sans at 14 px,
a little wider than the phones' own faces, so a label that fits here fits there.
An emoji is drawn about 18 px wide; a variation selector takes no room.

These numbers agree with the character budgets of tgbot/render/layout.py, which
were measured on the sandbox page in Chromium at 360 px (a one-button row shows
about 34 characters of ordinary text, two buttons 15 each, three 10, four 6, five 4).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
SIZE = 14
KEYBOARD = 300.0  # px: a 360 px phone's inline keyboard beside the avatar column
GAP = 6.0  # px between two buttons of a row
PADDING = 16.0  # px: a button's padding, both sides together
EMOJI = 18.0  # px: an emoji as Telegram draws it


@cache
def _font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), SIZE)


def _is_emoji(char: str) -> bool:
    code = ord(char)
    return (
        0x1F000 <= code <= 0x1FAFF
        or 0x2600 <= code <= 0x27BF
        or 0x2B00 <= code <= 0x2BFF
        or 0x2190 <= code <= 0x21FF
        or 0x23E9 <= code <= 0x23FA
        or code in (0x231A, 0x231B, 0x2328, 0x24C2, 0x25B6, 0x25C0, 0x2934, 0x2935)
    )


def label_px(label: str) -> float:
    """The label's drawn width in pixels."""
    width = 0.0
    run = ""
    for char in label:
        if char in ("\ufe0f", "\u200d"):
            continue
        if _is_emoji(char):
            width += _font().getlength(run) + EMOJI
            run = ""
        else:
            run += char
    return width + _font().getlength(run)


def room(buttons_in_row: int) -> float:
    """The text room of each button in a row of this many, in pixels."""
    return (KEYBOARD - GAP * (buttons_in_row - 1)) / buttons_in_row - PADDING


def cut_labels(rows: list[list[str]]) -> list[str]:
    """The labels of these rows a 360 px phone would cut, with their widths."""
    return [
        f"wider than a 360 px phone allows ({label_px(label):.0f} > {room(len(row)):.0f} px): "
        f"{label!r}"
        for row in rows
        for label in row
        if label_px(label) > room(len(row))
    ]
