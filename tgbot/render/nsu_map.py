"""The NSU map as a PNG picture, drawn from what one viewer may see.

Pure: a :class:`MapView` in, PNG bytes out. Face-down cards show their id and
their back (Danger and Reward); revealed cards show their title and Collateral
Clock; the party's location is outlined. Uses Pillow's bundled font, so it
needs no system fonts.
"""

from __future__ import annotations

import io
import textwrap

from PIL import Image, ImageDraw, ImageFont

from core.rules.nsu.world import CLOCK_SEGMENTS, CardView, MapView

CELL_W, CELL_H, GAP, MARGIN, TITLE_H = 220, 140, 14, 24, 44
PAPER = (244, 236, 220)
INK = (48, 40, 32)
FACE_DOWN = (92, 78, 64)
FACE_UP = (255, 250, 238)
HERE = (200, 60, 40)
REACHABLE = (70, 130, 80)
HOME = (214, 200, 170)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def map_png(view: MapView, title: str = "The map") -> bytes:
    """Draw the map; returns PNG bytes."""
    rows = view.rows
    columns = max((len(r) for r in rows), default=1)
    width = MARGIN * 2 + columns * CELL_W + (columns - 1) * GAP
    height = MARGIN * 2 + TITLE_H + len(rows) * CELL_H + max(0, len(rows) - 1) * GAP
    image = Image.new("RGB", (max(width, 360), height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), title[:60], fill=INK, font=_font(24))
    for r, row in enumerate(rows):
        for c, card in enumerate(row):
            x = MARGIN + c * (CELL_W + GAP)
            y = MARGIN + TITLE_H + r * (CELL_H + GAP)
            box = (x, y, x + CELL_W, y + CELL_H)
            if card is None:
                if view.home == (r, c):
                    draw.rounded_rectangle(box, 12, fill=HOME, outline=INK, width=2)
                    draw.text((x + 16, y + 16), "Home", fill=INK, font=_font(22))
                    if view.current is None:
                        draw.rounded_rectangle(box, 12, outline=HERE, width=6)
                continue
            _card(draw, card, box, view)
    if view.home is None:
        note = "Home: at the edge of the map" + (
            " (the party is there)" if view.current is None else ""
        )
        draw.text((MARGIN + 260, MARGIN + 6), note, fill=INK, font=_font(16))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _card(
    draw: ImageDraw.ImageDraw, card: CardView, box: tuple[int, int, int, int], view: MapView
) -> None:
    x, y, x2, y2 = box
    up = card.revealed
    draw.rounded_rectangle(box, 12, fill=FACE_UP if up else FACE_DOWN, outline=INK, width=2)
    ink = INK if up else FACE_UP
    back = (
        "D? R?"
        if card.danger is None or card.reward is None
        else f"{card.danger.label} {card.reward.label}"
    )
    draw.text((x + 12, y + 10), card.id, fill=ink, font=_font(18))
    draw.text((x2 - 80, y + 10), back, fill=ink, font=_font(18))
    if up and card.title:
        for i, line in enumerate(textwrap.wrap(card.title, 20)[:2]):
            draw.text((x + 12, y + 40 + i * 24), line, fill=INK, font=_font(20))
        if card.clock_ticks is not None:
            _clock(draw, (x2 - 46, y2 - 46), 18, card.clock_ticks)
    if card.id == view.current:
        draw.rounded_rectangle(box, 12, outline=HERE, width=6)
        draw.text(
            (x + 12, y2 - 30), "The party is here", fill=HERE if up else FACE_UP, font=_font(16)
        )
    elif card.id in view.reachable:
        draw.rounded_rectangle((x + 4, y + 4, x2 - 4, y2 - 4), 10, outline=REACHABLE, width=3)


def _clock(draw: ImageDraw.ImageDraw, centre: tuple[int, int], radius: int, ticks: int) -> None:
    cx, cy = centre
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    step = 360 / CLOCK_SEGMENTS
    for i in range(CLOCK_SEGMENTS):
        fill = HERE if i < ticks else FACE_UP
        draw.pieslice(box, -90 + i * step, -90 + (i + 1) * step, fill=fill, outline=INK)
