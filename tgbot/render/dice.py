"""How a dice roll and its exact odds look in the chat."""

from __future__ import annotations

from core.rules.dice import (
    EXPLODE_DEPTH,
    Compare,
    DiceExpression,
    DiceRoll,
    DieRoll,
    Outcome,
    RollResult,
    SetRoll,
)
from core.rules.dice_odds import DiceOdds, odds
from core.words.dice_words import target_words
from core.words.i18n import Lang, lang_for
from tgbot.render.text import esc

FACE_BUDGET = 150
BAR_WIDTH = 16
ODDS_ROWS = 12
ODDS_ROWS_EACH = 20  # up to this many totals, one row each
_SIGNS = {">=": "≥", "<=": "≤", ">": ">", "<": "<", "=": "=", "!=": "≠"}
CRIT = "★"  # after a face marked a critical success (cs)
FUMBLE = "💀"  # after a face marked a critical failure (cf)


def _compare(compare: Compare) -> str:
    return f"{_SIGNS[compare.op]} {compare.value}"


def _die(die: DieRoll) -> str:
    """One die: rerolled faces struck before it, ``!`` after a face that exploded,
    ✓/✗ on a success or failure, ★/💀 on a critical success or failure; a dropped die
    struck out whole."""
    shown = []
    for face in die.faces:
        text = "".join(f"<s>{v}</s>→" for v in face.rerolled) + str(face.value)
        if face.exploded:
            text += "!"
        if face.mark > 0:
            text += "✓"
        elif face.mark < 0:
            text += "✗"
        if face.crit > 0:
            text += CRIT
        elif face.crit < 0:
            text += FUMBLE
        shown.append(text)
    text = "+".join(shown)
    if die.compound and len(die.faces) > 1:
        text += f"={die.total}"
    return text if die.kept else f"<s>{text}</s>"


def _part(part: DiceRoll | SetRoll, budget: list[int], lang: Lang) -> str:
    if isinstance(part, SetRoll):
        values = ", ".join(str(v) if kept else f"<s>{v}</s>" for v, kept in part.values)
        return f"{esc(str(part.group))}: [{values}] = {part.total}"
    shown = part.rolled[: max(budget[0], 0)]
    budget[0] -= len(shown)
    faces = ", ".join(_die(d) for d in shown)
    more = len(part.rolled) - len(shown)
    if more:
        faces += ", … " + lang.ngettext("{num} more", "{num} more", more)
    total = str(part.total)
    if part.dice.counting:
        total = lang.ngettext("{num} success", "{num} successes", part.total)
    return f"{esc(str(part.dice))}: [{faces}] = {total}"


def _total(outcome: Outcome, counting: bool, lang: Lang) -> str:
    if counting:
        text = lang.ngettext("Successes: {num}", "Successes: {num}", outcome.total)
    else:
        text = lang.gettext("Total: {total}", total=outcome.total)
    return text


def _notes(result: RollResult, lang: Lang) -> list[str]:
    """What the reply says about how it read the roll: its target, criticals, rounding."""
    expression = result.expression
    lines = []
    if expression.target is not None:
        lines.append(lang.gettext("Target: total {target}", target=_compare(expression.target)))
    marks = [
        face.crit
        for outcome in result.outcomes
        for part in outcome.parts
        if isinstance(part, DiceRoll)
        for die in part.rolled
        for face in die.faces
    ]
    if any(m > 0 for m in marks):
        lines.append(CRIT + " " + lang.gettext("a critical success"))
    if any(m < 0 for m in marks):
        lines.append(FUMBLE + " " + lang.gettext("a critical failure"))
    if expression.divides:
        lines.append(lang.gettext("Division rounds down."))
    return lines


def _verdict(result: RollResult, outcome: Outcome) -> str:
    target = result.expression.target
    if target is None or outcome.reached is None:
        return ""
    return f" {'✅' if outcome.reached else '❌'} {_compare(target)}"


def render_roll(result: RollResult, who: str, lang: Lang) -> str:
    """HTML for a roll: who rolled what, each die (dropped ones struck out), the total."""
    expression = result.expression
    head = "🎲 " + lang.gettext(
        "<b>{name}</b> rolls <code>{notation}</code>",
        name=esc(who),
        notation=esc(expression.notation),
    )
    if expression.label:
        head += f" — <i>{esc(expression.label)}</i>"
    lines = [head]
    budget = [FACE_BUDGET]
    counting = expression.counts_successes
    repeated = len(result.outcomes) > 1
    for number, outcome in enumerate(result.outcomes, 1):
        parts = [_part(p, budget, lang) for p in outcome.parts]
        verdict = _verdict(result, outcome)
        if repeated:
            lines.append(f"{number}. " + "; ".join(parts) + f" → <b>{outcome.total}</b>{verdict}")
        else:
            lines += parts
            lines.append("<b>" + _total(outcome, counting, lang) + "</b>" + verdict)
    if repeated:
        totals = ", ".join(str(o.total) for o in result.outcomes)
        lines.append("<b>" + lang.gettext("Totals: {totals}", totals=totals) + "</b>")
    lines += [esc(line) for line in _notes(result, lang)]
    return "\n".join(lines)


def _pct(value: float, lang: Lang) -> str:
    """``12.5%``, ``12,5 %``: the language's percentage."""
    return lang.percent(value)


def odds_reply(expression: DiceExpression, language: str) -> str:
    """The exact odds of ``expression`` worked out and drawn in the language of code
    ``language``: what a worker process is sent for /odds."""
    return render_odds(odds(expression), lang_for(language))


def render_odds(odds: DiceOdds, lang: Lang) -> str:
    """HTML for the exact odds of a roll: min, max, mean, a target's chance, text bars."""
    expression = odds.expression
    mean = f"{odds.mean:.2f}".replace(".", lang.number(0.5)[1])
    shown = expression.notation
    if expression.target is not None:
        shown = shown.rsplit(" ", 2)[0]
    lines = [
        "🎲 " + lang.gettext("<b>Odds</b> of <code>{notation}</code>", notation=esc(shown)),
        lang.gettext(
            "Lowest {low} · highest {high} · average {mean}",
            low=odds.minimum,
            high=odds.maximum,
            mean=mean,
        ),
    ]
    if expression.counts_successes:
        lines.append(lang.gettext("The numbers are successes (minus failures)."))
    if expression.divides:
        lines.append(lang.gettext("Division rounds down."))
    if expression.target is not None and odds.target_chance is not None:
        lines.append(
            "<b>"
            + lang.gettext(
                "Chance of {target}: {chance}",
                target=esc(target_words(expression.target.op, expression.target.value, lang)),
                chance=_pct(odds.target_chance, lang),
            )
            + "</b>"
        )
    values = odds.maximum - odds.minimum + 1
    buckets = odds.buckets(values if values <= ODDS_ROWS_EACH else ODDS_ROWS)
    top = max(p for _, _, p in buckets) or 1.0
    width = max(len(_range(a, b)) for a, b, _ in buckets)
    bars = []
    for low, high, chance in buckets:
        blocks = round(BAR_WIDTH * chance / top)
        bar = "█" * blocks if blocks or chance == 0 else "▏"
        bars.append(f"{_range(low, high).rjust(width)} {bar} {_pct(chance, lang)}")
    lines.append("<pre>" + esc("\n".join(bars)) + "</pre>")
    if odds.explosion_depth is not None:
        lines.append(
            lang.gettext(
                "A die explodes at most {depth} times, when rolled and here alike.",
                depth=EXPLODE_DEPTH,
            )
        )
    if expression.repeat > 1:
        lines.append(
            lang.ngettext(
                "These are the odds of each of the {num} rolls.",
                "These are the odds of each of the {num} rolls.",
                expression.repeat,
            )
        )
    return "\n".join(lines)


def _range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"
