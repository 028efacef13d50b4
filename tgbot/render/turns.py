"""The turn order in the chat: the ``/turns`` buttons, an order set or rolled, a turn
passed on with ``/next``."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns.turns import TurnsChoice, TurnsSet
from core.rules.turns import OrderRoll
from core.words.i18n import Lang
from tgbot.buttons.turns import CLEAR_TAP, ROLL_TAP, TurnsButton
from tgbot.render.text import esc

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def mention(player: int, name: str) -> str:
    """An HTML mention of a player by their escaped name."""
    return f'<a href="tg://user?id={player}">{esc(name)}</a>'


def choice_text(
    choice: TurnsChoice, picked: tuple[int, ...], lang: Lang
) -> tuple[str, InlineKeyboardMarkup]:
    """``/turns`` alone: tap the players in turn order (those picked so far listed)."""
    names = choice.names
    lines = ["🔁 " + lang.gettext("Tap the players in turn order, first to last.")]
    if picked:
        so_far = ", ".join(esc(names.get(p, str(p))) for p in picked)
        lines.append(lang.gettext("So far: {names}", names=so_far))
    code = "".join(DIGITS[choice.players.index(p)] for p in picked)
    count = len(choice.players)

    def button(label: str, tap: int) -> InlineKeyboardButton:
        data = TurnsButton(choice.campaign_id, count, code, tap).encode()
        return InlineKeyboardButton(label, callback_data=data)

    rows = [
        [button(names.get(p, str(p)), at)] for at, p in enumerate(choice.players) if p not in picked
    ]
    last = [button("🎲 " + lang.gettext("Roll for it"), ROLL_TAP)]
    if picked:
        last.append(button("✖ " + lang.gettext("Clear"), CLEAR_TAP))
    rows.append(last)
    return "\n".join(lines), InlineKeyboardMarkup(rows)


def _roll_line(roll: OrderRoll, name: str, lang: Lang) -> str:
    """``🎲 Bo: 14 + 2 = 16 (tie, rolled off: 5)``."""
    sign = "+" if roll.modifier >= 0 else "−"
    total = (
        f"{roll.die} {sign} {abs(roll.modifier)} = {roll.total}" if roll.modifier else f"{roll.die}"
    )
    line = f"🎲 {esc(name)}: {total}"
    if roll.roll_offs:
        faces = ", ".join(str(f) for f in roll.roll_offs)
        line += " (" + lang.gettext("tie, rolled off: {faces}", faces=faces) + ")"
    return line


def set_text(result: TurnsSet, lang: Lang) -> str:
    """An order set or rolled: its rolls, the order, and the first player mentioned."""
    order = result.order
    assert order is not None
    names = result.names
    lines = []
    if result.step.rolls:
        lines.append("🎲 " + lang.gettext("The turn order was rolled (d20 + modifier):"))
        lines += [
            _roll_line(r, names.get(r.player, str(r.player)), lang) for r in result.step.rolls
        ]
    listed = " → ".join(esc(names.get(p, str(p))) for p in order.players)
    lines.append("🔁 " + lang.gettext("Turn order: {names}", names=listed))
    lines.append(
        lang.gettext(
            "{name}, it's your turn. Pass it on with /next.",
            name=mention(order.holder, names.get(order.holder, str(order.holder))),
        )
    )
    return "\n".join(lines)


def next_text(result: TurnsSet, lang: Lang) -> str:
    """The turn passed on: the next player mentioned, and who follows."""
    order = result.order
    assert order is not None
    names = result.names
    at = order.players.index(order.holder)
    rest = order.players[at + 1 :] + order.players[:at]
    return "🔁 " + lang.gettext(
        "{name}, it's your turn (then {rest}). Pass it on with /next.",
        name=mention(order.holder, names.get(order.holder, str(order.holder))),
        rest=esc(", ".join(names.get(p, str(p)) for p in rest)),
    )
