"""The NSU map as a PNG picture for the chat, drawn from what one viewer may see.

Pure: a :class:`MapView` in, PNG bytes out. The group's picture is drawn from
``public_map``, so it holds public information only: the backs of face-down
cards (Danger and Reward), the faces and Collateral Clocks of revealed cards,
where the party is and where it can go next.

The picture looks like the Mini App's map (light theme): hatched face-down
cards, D in red and R in blue, clocks as eight-slice pies, the party's place
outlined in blue with a HERE tag, a legend drawn in. Sizes are chosen for a
phone: the layout is 360 units wide (the width of a phone screen in CSS pixels)
drawn at three pixels per unit, so text stays legible when Telegram shows the
picture at chat width.

Fonts: DejaVu Sans (Debian's fonts-dejavu-core); Pillow's own font when it is
missing.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from core.rules.nsu.world import CLOCK_SEGMENTS, CardView, MapView
from core.words.i18n import N_, Lang, lang_for
from core.words.map_words import mark

SCALE = 3  # pixels per layout unit
WIDTH = 360  # layout units: a phone's width
MARGIN = 12
GAP = 7
RADIUS = 8
HOME_CHIP_H = 22
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")

Colour = tuple[int, int, int]
BG: Colour = (255, 255, 255)
SECTION: Colour = (239, 239, 243)
TEXT: Colour = (0, 0, 0)
HINT: Colour = (109, 109, 114)
DANGER: Colour = (229, 57, 53)
REWARD: Colour = (36, 129, 204)
HERE: Colour = (36, 129, 204)
NEXT: Colour = (46, 125, 50)
STRIPE: Colour = (214, 214, 220)
EDGE: Colour = (170, 170, 176)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def _font(size: float, bold: bool = False) -> Font:
    """DejaVu Sans at ``size`` layout units (Pillow's font when DejaVu is missing)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(str(FONT_DIR / name), round(size * SCALE))
    except OSError:
        return ImageFont.load_default(size=round(size * SCALE))


def _u(value: float) -> int:
    return round(value * SCALE)


@dataclass(frozen=True)
class _Layout:
    columns: int
    rows: int
    cell_w: float
    cell_h: float

    @classmethod
    def of(cls, view: MapView) -> _Layout:
        columns = max((len(r) for r in view.rows), default=1) or 1
        cell_w = (WIDTH - 2 * MARGIN - (columns - 1) * GAP) / columns
        cell_h = min(max(cell_w * 0.85, 58.0), 104.0)
        return cls(columns, len(view.rows), cell_w, cell_h)

    def box(self, top: float, r: int, c: int) -> tuple[float, float, float, float]:
        x = MARGIN + c * (self.cell_w + GAP)
        y = top + r * (self.cell_h + GAP)
        return x, y, x + self.cell_w, y + self.cell_h

    @property
    def grid_h(self) -> float:
        return self.rows * self.cell_h + max(0, self.rows - 1) * GAP


class _Canvas:
    """Drawing in layout units on an image SCALE times larger."""

    def __init__(self, height: float) -> None:
        self.image = Image.new("RGB", (_u(WIDTH), _u(height)), BG)
        self.draw = ImageDraw.Draw(self.image)

    def text(self, x: float, y: float, text: str, font: Font, fill: Colour) -> float:
        """Draw ``text`` with its top-left at (x, y); return its width in units."""
        self.draw.text((_u(x), _u(y)), text, font=font, fill=fill)
        return self.width(text, font)

    def width(self, text: str, font: Font) -> float:
        return self.draw.textlength(text, font=font) / SCALE

    def box(
        self,
        box: tuple[float, float, float, float],
        *,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
        radius: float = RADIUS,
    ) -> None:
        x, y, x2, y2 = box
        self.draw.rounded_rectangle(
            (_u(x), _u(y), _u(x2), _u(y2)),
            _u(radius),
            fill=fill,
            outline=outline,
            width=max(1, _u(width)) if outline else 0,
        )

    def hatched(self, box: tuple[float, float, float, float], radius: float = RADIUS) -> None:
        """A face-down card's back: diagonal stripes inside a rounded box."""
        x, y, x2, y2 = (_u(v) for v in box)
        w, h = x2 - x, y2 - y
        tile = Image.new("RGB", (w, h), SECTION)
        pen = ImageDraw.Draw(tile)
        step, stripe = _u(9), _u(4)
        for offset in range(-h, w + h, step):
            pen.line([(offset, h), (offset + h, 0)], fill=STRIPE, width=stripe)
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), _u(radius), fill=255)
        self.image.paste(tile, (x, y), mask)

    def pie(self, cx: float, cy: float, radius: float, ticks: int) -> None:
        """A Collateral Clock: eight slices, the ticked ones red."""
        box = (_u(cx - radius), _u(cy - radius), _u(cx + radius), _u(cy + radius))
        step = 360 / CLOCK_SEGMENTS
        for i in range(CLOCK_SEGMENTS):
            self.draw.pieslice(
                box,
                -90 + i * step,
                -90 + (i + 1) * step,
                fill=DANGER if i < ticks else BG,
                outline=TEXT,
                width=max(1, _u(0.8)),
            )

    def png(self) -> bytes:
        out = io.BytesIO()
        self.image.save(out, format="PNG")
        return out.getvalue()


def _wrap(canvas: _Canvas, text: str, font: Font, width: float, lines: int) -> list[str]:
    """Words in lines no wider than ``width``; the last kept line ends with … if cut."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while canvas.width(line, font) > width and len(line) > 1:  # one very long word
            line = line[:-1]
        while words and canvas.width(f"{line} {words[0]}", font) <= width:
            line = f"{line} {words.pop(0)}"
        out.append(line)
    if words and out:
        last = out[-1]
        while last and canvas.width(f"{last}…", font) > width:
            last = last[:-1].rstrip()
        out[-1] = f"{last}…"
    return out


def _party_place(view: MapView, lang: Lang) -> str:
    if view.current is None:
        return lang.gettext("home")
    card = _find(view, view.current)
    if card is not None and card.title:
        return f"{mark(card.id, lang)}, {card.title}"
    return view.current


def _find(view: MapView, card_id: str) -> CardView | None:
    return next((c for row in view.rows for c in row if c is not None and c.id == card_id), None)


def _cards(view: MapView) -> Iterator[CardView]:
    return (c for row in view.rows for c in row if c is not None)


def map_picture(view: MapView, title: str, language: str) -> bytes:
    """:func:`map_png` in the language of code ``language``: what a worker process is sent."""
    return map_png(view, title, lang_for(language))


def map_png(view: MapView, title: str | None = None, lang: Lang | None = None) -> bytes:
    """Draw the map for the chat, its words in ``lang`` (English when not given);
    returns PNG bytes 1080 pixels wide."""
    lang = lang or lang_for(None)
    title = lang.gettext("The map") if title is None else title
    layout = _Layout.of(view)
    probe = _Canvas(1)
    status = lang.gettext("The party is at {place}.", place=_party_place(view, lang))
    status_lines = _wrap(probe, status, _font(13), WIDTH - 2 * MARGIN, 2)
    legend = _legend_items(view)
    legend_h = _legend(probe, legend, 0, lang, measure=True)
    chip_top = MARGIN + 24 + 18 * len(status_lines) + 6
    grid_top = chip_top + (HOME_CHIP_H + 12 if view.home is None else 2)
    height = grid_top + layout.grid_h + 12 + legend_h + MARGIN
    canvas = _Canvas(height)
    canvas.text(
        MARGIN,
        MARGIN,
        (_wrap(canvas, title, _font(17, True), WIDTH - 2 * MARGIN, 1) or [""])[0],
        _font(17, True),
        TEXT,
    )
    for i, line in enumerate(status_lines):
        canvas.text(MARGIN, MARGIN + 24 + 18 * i, line, _font(13), TEXT)
    if view.home is None:
        _home_at_the_edge(canvas, chip_top + 3.5, lang, here=view.current is None)
    for r, row in enumerate(view.rows):
        for c, card in enumerate(row):
            box = layout.box(grid_top, r, c)
            if card is not None:
                _card(canvas, card, box, view, lang)
            elif view.home == (r, c):
                _home(canvas, box, lang, here=view.current is None)
            else:
                canvas.box(box, outline=SECTION, width=1)
    _legend(canvas, legend, grid_top + layout.grid_h + 12, lang)
    return canvas.png()


def _dr(canvas: _Canvas, card: CardView, x: float, y: float, width: float, lang: Lang) -> float:
    """Danger in red and Reward in blue; returns the height used."""
    size = min(max(width / 4.2, 11.0), 16.0)
    font = _font(size, True)
    danger = mark(card.danger.label if card.danger is not None else "D?", lang)
    reward = mark(card.reward.label if card.reward is not None else "R?", lang)
    if canvas.width(f"{danger} {reward}", font) <= width:
        used = canvas.text(x, y, f"{danger} ", font, DANGER)
        canvas.text(x + used, y, reward, font, REWARD)
        return size * 1.25
    canvas.text(x, y, danger, font, DANGER)
    canvas.text(x, y + size * 1.15, reward, font, REWARD)
    return size * 2.4


def _card(
    canvas: _Canvas,
    card: CardView,
    box: tuple[float, float, float, float],
    view: MapView,
    lang: Lang,
) -> None:
    x, y, x2, y2 = box
    w, h = x2 - x, y2 - y
    pad = 5.0 if w >= 50 else 3.0
    inner = w - 2 * pad
    if card.revealed:
        canvas.box(box, fill=SECTION, outline=EDGE, width=1)
    else:
        canvas.hatched(box)
        canvas.box(box, outline=EDGE, width=1)
    top = y + pad + _dr(canvas, card, x + pad, y + pad, inner, lang)
    radius = min(max(min(w, h) / 7, 7.0), 13.0)
    has_clock = card.revealed and card.clock_ticks is not None
    here = card.id == view.current
    band = max(2 * radius + 2 if has_clock else 0, 17 if here and _tag_fits(canvas, w, lang) else 0)
    if card.revealed:
        size = min(max(w / 8.5, 10.0), 13.0)
        lines = max(1, int((y2 - pad - top - band) // (size * 1.2)))
        wrapped = _wrap(canvas, card.title or mark(card.id, lang), _font(size), inner, lines)
        if len(wrapped[0].rstrip("…")) < 4:  # too narrow for the title: the id
            wrapped = [mark(card.id, lang)]
        for i, line in enumerate(wrapped):
            canvas.text(x + pad, top + i * size * 1.2, line, _font(size), TEXT)
    else:
        size = min(max(w / 6, 10.0), 13.0)
        canvas.text(x + pad, top + 1, mark(card.id, lang), _font(size, True), HINT)
    if has_clock:
        canvas.pie(x2 - pad - radius, y2 - pad - radius, radius, card.clock_ticks or 0)
    if here:
        _here(canvas, box, lang)
    elif card.id in view.reachable:
        canvas.box(
            (x - 2.5, y - 2.5, x2 + 2.5, y2 + 2.5), outline=NEXT, width=2.5, radius=RADIUS + 2
        )


def _home(
    canvas: _Canvas, box: tuple[float, float, float, float], lang: Lang, *, here: bool
) -> None:
    x, y, x2, y2 = box
    canvas.box(box, fill=SECTION, outline=EDGE, width=1)
    size = min(max((x2 - x) / 4.5, 11.0), 15.0)
    font = _font(size, True)
    home = lang.gettext("Home")
    width = canvas.width(home, font)
    canvas.text(x + (x2 - x - width) / 2, y + (y2 - y) / 2 - size * 0.7, home, font, TEXT)
    if here:
        _here(canvas, box, lang)


def _home_at_the_edge(canvas: _Canvas, top: float, lang: Lang, *, here: bool) -> None:
    """Home when it is not on the map: a chip above it, outlined when the party is there."""
    font, hint = _font(12, True), _font(12)
    x = MARGIN
    home, edge = lang.gettext("Home"), " " + lang.gettext("· at the edge of the map")
    width = canvas.width(home, font) + canvas.width(edge, hint) + 16
    box = (x, top, x + width, top + HOME_CHIP_H)
    canvas.box(box, fill=SECTION, outline=EDGE, width=1, radius=6)
    used = canvas.text(x + 8, top + 4, home, font, TEXT)
    canvas.text(x + 8 + used, top + 4, edge, hint, HINT)
    if here:
        canvas.box(
            (x - 3.5, top - 3.5, x + width + 3.5, top + HOME_CHIP_H + 3.5),
            outline=HERE,
            width=3.5,
            radius=9,
        )


def _tag_fits(canvas: _Canvas, width: float, lang: Lang) -> bool:
    return canvas.width(lang.gettext("HERE"), _font(10, True)) + 8 <= width


def _here(canvas: _Canvas, box: tuple[float, float, float, float], lang: Lang) -> None:
    """The party's place: a thick blue outline and a HERE tag at the bottom left."""
    x, y, x2, y2 = box
    canvas.box((x - 3.5, y - 3.5, x2 + 3.5, y2 + 3.5), outline=HERE, width=3.5, radius=RADIUS + 3)
    font = _font(10, True)
    if _tag_fits(canvas, x2 - x, lang):
        tag = lang.gettext("HERE")
        width = canvas.width(tag, font)
        canvas.box((x, y2 - 16, x + width + 8, y2), fill=HERE, radius=5)
        canvas.text(x + 4, y2 - 14.5, tag, font, BG)


# ----------------------------------------------------------------- legend

_LEGEND_FONT = 11.5
_LEGEND_LINE = 20.0


def _legend_items(view: MapView) -> list[str]:
    cards = list(_cards(view))
    items = ["danger", "reward"]
    if any(not c.revealed for c in cards):
        items.append("face down")
    if any(c.revealed for c in cards):
        items.append("revealed")
    if any(c.revealed and c.clock_ticks is not None for c in cards):
        items.append("clock")
    items.append("here")
    if view.reachable:
        items.append("next")
    return items


_LABELS = {
    "danger": N_("Danger"),
    "reward": N_("Reward"),
    "face down": N_("face down"),
    "revealed": N_("revealed"),
    "clock": N_("Collateral Clock"),
    "here": N_("the party is here"),
    "next": N_("the party can go next"),
}


def _legend(
    canvas: _Canvas, items: list[str], top: float, lang: Lang, *, measure: bool = False
) -> float:
    """Draw (or only measure) the legend in flowing lines; return its height."""
    font = _font(_LEGEND_FONT)
    x, y = float(MARGIN), top
    for item in items:
        swatch = (
            canvas.width(mark("D3", lang), _font(_LEGEND_FONT, True))
            if item in ("danger", "reward")
            else 20.0
        )
        label = lang.gettext(_LABELS[item])
        width = swatch + 4 + canvas.width(label, font)
        if x > MARGIN and x + width > WIDTH - MARGIN:
            x, y = MARGIN, y + _LEGEND_LINE
        if not measure:
            _swatch(canvas, item, x, y, swatch, lang)
            canvas.text(x + swatch + 4, y + 1.5, label, font, TEXT)
        x += width + 12
    return y - top + _LEGEND_LINE


def _swatch(canvas: _Canvas, item: str, x: float, y: float, size: float, lang: Lang) -> None:
    box = (x, y + 1, x + size, y + 16)
    if item in ("danger", "reward"):
        font = _font(_LEGEND_FONT, True)
        label, colour = (
            (mark("D3", lang), DANGER) if item == "danger" else (mark("R2", lang), REWARD)
        )
        canvas.text(x, y + 1.5, label, font, colour)
    elif item == "face down":
        canvas.hatched(box, radius=3)
        canvas.box(box, outline=EDGE, width=1, radius=3)
    elif item == "revealed":
        canvas.box(box, fill=SECTION, outline=EDGE, width=1, radius=3)
    elif item == "clock":
        canvas.pie(x + size / 2, y + 8.5, 7.5, 3)
    elif item == "here":
        canvas.box(box, outline=HERE, width=3, radius=3)
    else:
        canvas.box(box, outline=NEXT, width=2.5, radius=3)


def map_caption(view: MapView, lang: Lang | None = None) -> str:
    """The photo's caption: exactly what the picture shows, in the picture's words
    (in ``lang``; English when not given)."""
    lang = lang or lang_for(None)
    cards = list(_cards(view))
    if any(not c.revealed for c in cards):
        parts = [
            lang.gettext(
                "🗺 The map as the whole group sees it. Every card shows its Danger (D, red) "
                "and Reward (R, blue); face-down cards are hatched and show nothing more."
            )
        ]
    else:
        parts = [
            lang.gettext(
                "🗺 The map as the whole group sees it. Every card shows its Danger (D, red) "
                "and Reward (R, blue)."
            )
        ]
    if any(c.revealed for c in cards):
        clocks = any(c.revealed and c.clock_ticks is not None for c in cards)
        parts.append(
            lang.gettext("Revealed cards show their title and Collateral Clock (the pie).")
            if clocks
            else lang.gettext("Revealed cards show their title.")
        )
    parts.append(
        lang.gettext("The party is at {place}, outlined in blue.", place=_party_place(view, lang))
    )
    if view.reachable:
        parts.append(lang.gettext("Green outlines mark where it can go next."))
    return " ".join(parts)
