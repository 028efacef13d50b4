"""How a library game's roll looks in the chat (see :mod:`core.rules.dicesystem`)::

🎲 Ana — Powered by the Apocalypse, stat +2
3 + 5 + 2 = 10 → Strong hit (41.7%)

(a value that adds the dice up shows the sum; any other shows the dice, then the
number: ``20 · 4 → 10 → Success``), and with a follow-up made on it (its button, for
the roller alone, under the roll)::

🎲 Ana — Year Zero Engine, dice 4
6 · 3 · 1 · 2 → 1 → Success (38.6%)
🔁 Push: 6 · 6 · 1 · 5 → 2 → Success, two sixes (34.7%)
✨ Pushed with a 1: take the cost
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.rules.dicesystem import (
    ROLL_PANEL,
    RollAction,
    RolledPanel,
    RollLine,
    choices,
    shown_input,
)
from core.rules.systems import Definition, SystemOdds
from core.words.i18n import Lang
from core.words.systems_words import chance_text
from tgbot.panels import button, keyboard
from tgbot.render.text import esc


def _signed(value: int, signed: bool) -> str:
    return f"+{value}" if signed and value > 0 else str(value).replace("-", "−")


def _die(faces: tuple[int, ...], kept: bool) -> str:
    shown = "+".join(str(f) for f in faces)  # a die with its explosion: each face it showed
    return shown if kept else f"<s>{shown}</s>"


def dice_text(rolled: RolledPanel | RollLine) -> str:
    """Each group's dice in the definition's order, dropped ones struck through:
    ``3 · 5``, ``4 | 60 · 0`` (a group's key is the definition's word, not the reader's)."""
    return " | ".join(
        " · ".join(_die(faces, kept) for faces, kept in dice) or "–" for _, _, dice in rolled.groups
    )


def sum_text(addends: tuple[int, ...], total: int) -> str:
    """A value that is a sum, as the sum: ``3 + 5 + 2 = 10``, ``−1 + 1 − 2 = −2``."""
    text = _signed(addends[0], False)
    for number in addends[1:]:
        text += f" + {number}" if number >= 0 else f" − {-number}"
    return f"{text} = {_signed(total, False)}"


def _line(rolled: RolledPanel | RollLine, lang: Lang, value: bool) -> str:
    """The dice, the value read (as its sum when it is one: ``3 + 5 + 2 = 10``) and the
    outcome in bold with its chance."""
    if value and rolled.addends:
        line = sum_text(rolled.addends, rolled.value)
    else:
        line = dice_text(rolled)
        if value:
            line += f" → {_signed(rolled.value, False)}"
    line += f" → <b>{esc(rolled.outcome.in_language(lang.code))}</b>"
    if rolled.chance is not None:
        line += f" ({chance_text(rolled.chance, lang)})"
    return line


def _lines(rolled: RolledPanel, lang: Lang, value: bool) -> list[str]:
    """Each roll made: the first, then each follow-up's, named; then the roll that
    stands, when a reroll kept the earlier one."""
    if not rolled.lines:
        return [_line(rolled, lang, value)]
    shown = []
    for line in rolled.lines:
        text = _line(line, lang, value)
        if line.label is not None:
            text = f"🔁 {esc(line.label.in_language(lang.code))}: {text}"
        shown.append(text)
    last = rolled.lines[-1]
    if last.outcome != rolled.outcome or last.value != rolled.value:
        stands = lang.gettext(
            "The better roll stands: {outcome}",
            outcome=f"<b>{esc(rolled.outcome.in_language(lang.code))}</b>",
        )
        if rolled.chance is not None:
            stands += f" ({chance_text(rolled.chance, lang)})"
        shown.append(stands)
    return shown


def offers_text(rolled: RolledPanel, lang: Lang) -> list[str]:
    """Each follow-up open on the roll, with what it may leave standing and how likely."""
    code = lang.code
    shown = []
    for offer in rolled.offers:
        if not offer.odds:
            continue
        odds = " · ".join(
            f"{esc(words.in_language(code))} {chance_text(chance, lang)}"
            for words, chance in offer.odds
        )
        shown.append(f"🔁 <i>{esc(offer.label.in_language(code))}: {odds}</i>")
    return shown


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
    marks = [f"✨ {esc(m.in_language(code))}" for m in rolled.marks]
    return "\n".join([head, *_lines(rolled, lang, value), *marks])


def setup_text(panel: RolledPanel, name: str, lang: Lang) -> str:
    """A roll being set up: each input's value, and what to do."""
    code = lang.code
    head = f"🎲 <b>{esc(name)}</b> — {esc(panel.system.in_language(code))}"
    values = [
        f"{esc(words.in_language(code))}: <b>{_signed(value, signed)}</b>"
        for _, value, words, signed in panel.inputs
    ]
    hint = lang.gettext("Set the roll up with the buttons, then roll.")
    return "\n".join([head, *values, f"<i>{hint}</i>"])


def _step(step: int) -> str:
    return f"+{step}" if step > 0 else f"−{-step}"


def setup_rows(view: PanelView, panel: RolledPanel, lang: Lang) -> list[list[InlineKeyboardButton]]:
    """A row of steps per input (the first names it), then the Roll button."""
    names = {key: words.in_language(lang.code) for key, _, words, _ in panel.inputs}
    rows: dict[str, list[InlineKeyboardButton]] = {}
    last: list[InlineKeyboardButton] = []
    for choice in choices(panel):
        if choice.verb is RollAction.ROLL:
            last.append(button(view, lang.gettext("🎲 Roll"), choice.verb.value))
            continue
        row = rows.setdefault(choice.name, [])
        label = _step(choice.count)
        if not row:
            label = f"{names[choice.name]} {label}"
        row.append(button(view, label, choice.verb.value, choice.argument))
    return [*rows.values(), last]


def followup_rows(
    view: PanelView, panel: RolledPanel, lang: Lang
) -> list[list[InlineKeyboardButton]]:
    """A button per follow-up open on the roll (its roller's alone to press)."""
    labels = {o.key: o.label.in_language(lang.code) for o in panel.offers}
    return [
        [button(view, f"🔁 {labels[c.argument]}", c.verb.value, c.argument)]
        for c in choices(panel)
        if c.verb is RollAction.FOLLOW
    ]


class DiceRollRenderer:
    """Renders the ``dice.roll`` panel: set up with buttons, or rolled."""

    kind = ROLL_PANEL
    takes_replies = False  # a roll reads no words: a reply to it is table talk

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        panel = view.typed(RolledPanel)
        seat = view.table.seat(panel.by)
        name = seat.name if seat is not None else "?"
        if not panel.rolled:
            markup = None if view.closed else keyboard(setup_rows(view, panel, lang))
            return setup_text(panel, name, lang), markup
        text = roll_text(panel, name, lang, value=panel.shows_value)
        if view.closed:
            return text, None
        return "\n".join([text, *offers_text(panel, lang)]), keyboard(
            followup_rows(view, panel, lang)
        )


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
