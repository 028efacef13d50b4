"""How a library game's roll looks in the chat (see :mod:`core.rules.dicesystem`)::

🎲 Ana — Powered by the Apocalypse, stat +2
3 · 5 → 10 → Strong hit (41.7%)
"""

from __future__ import annotations

from telegram import InlineKeyboardMarkup

from core.campaigns import PanelView
from core.rules.dicesystem import ROLL_PANEL, RolledPanel, shown_input
from core.rules.systems import Definition, SystemOdds
from core.words.i18n import Lang
from core.words.systems_words import chance_text
from tgbot.render.text import esc


def _signed(value: int, signed: bool) -> str:
    return f"+{value}" if signed and value > 0 else str(value).replace("-", "−")


def _die(faces: tuple[int, ...], kept: bool) -> str:
    shown = "+".join(str(f) for f in faces)  # a die with its explosion: each face it showed
    return shown if kept else f"<s>{shown}</s>"


def dice_text(rolled: RolledPanel) -> str:
    """Each group's dice, dropped ones struck through: ``3 · 5``, ``action 6 · 2 | …``."""
    shown = []
    for key, _, dice in rolled.groups:
        faces = " · ".join(_die(f, kept) for f, kept in dice) or "–"
        shown.append(faces if len(rolled.groups) == 1 else f"{esc(key)} {faces}")
    return " | ".join(shown)


def roll_text(rolled: RolledPanel, name: str, lang: Lang, *, value: bool = True) -> str:
    """The roll: who, the game and what was typed; the dice, the value, the outcome in
    bold with its chance, and the marks."""
    code = lang.code
    typed = ", ".join(
        f"{esc(words.in_language(code))} {_signed(number, signed)}"
        for _, number, words, signed in rolled.inputs
    )
    head = f"🎲 <b>{esc(name)}</b> — {esc(rolled.system.in_language(code))}"
    if typed:
        head += f", {typed}"
    line = dice_text(rolled)
    if value:
        line += f" → {_signed(rolled.value, False)}"
    line += f" → <b>{esc(rolled.outcome.in_language(code))}</b>"
    if rolled.chance is not None:
        line += f" ({chance_text(rolled.chance, lang)})"
    marks = [f"✨ {esc(m.in_language(code))}" for m in rolled.marks]
    return "\n".join([head, line, *marks])


class DiceRollRenderer:
    """Renders the ``dice.roll`` panel."""

    kind = ROLL_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        rolled = view.typed(RolledPanel)
        seat = view.table.seat(rolled.by)
        name = seat.name if seat is not None else "?"
        return roll_text(rolled, name, lang, value=rolled.shows_value), None


def odds_text(definition: Definition, result: SystemOdds, lang: Lang) -> str:
    """Every outcome, best first, each with its exact chance; then the marks."""
    code = lang.code
    inputs = ", ".join(
        f"{esc(definition.input(key).name.in_language(code))} "
        f"{_signed(value, definition.input(key).low < 0)}"
        for key, value in result.inputs
        if shown_input(definition, key, value)
    )
    head = f"📊 <b>{esc(definition.name.in_language(code))}</b>"
    if inputs:
        head += f", {inputs}"
    rows = [
        f"{chance_text(row.chance, lang)} — <b>{esc(row.outcome.label.in_language(code))}</b>"
        for row in result.outcomes
    ]
    marks = [
        f"✨ {esc(row.mark.label.in_language(code))}: {chance_text(row.chance, lang)}"
        for row in result.marks
    ]
    return "\n".join([head, *rows, *marks])


RENDERERS = [DiceRollRenderer()]
