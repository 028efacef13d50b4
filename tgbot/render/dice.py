"""How a dice roll looks in the chat."""

from __future__ import annotations

from core.i18n import Lang
from core.rules.dice import DiceTerm, RollResult
from tgbot.render.text import esc

FACE_BUDGET = 150


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
    budget = FACE_BUDGET
    for index, term in enumerate(result.terms):
        sign = "−" if term.sign < 0 else ("+" if index else "")
        prefix = f"{sign} " if sign else ""
        if isinstance(term.term, DiceTerm):
            shown = term.faces[:budget]
            budget -= len(shown)
            faces = ", ".join(str(f.value) if f.kept else f"<s>{f.value}</s>" for f in shown)
            more = len(term.faces) - len(shown)
            if more:
                faces += ", … " + lang.ngettext("{num} more", "{num} more", more)
            lines.append(f"{prefix}{term.term}: [{faces}] = {term.subtotal}")
        else:
            lines.append(f"{prefix}{term.subtotal}")
    lines.append("<b>" + lang.gettext("Total: {total}", total=result.total) + "</b>")
    return "\n".join(lines)
