"""How a threat dice roll looks in the chat: pure text and buttons from rules data."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.i18n import Lang
from core.rules.table import Table
from core.rules.threat.dice import Result
from core.rules.threat.momentum import MOMENTUM_MAX, MOMENTUM_RESET
from core.rules.threat.panel import ActionKind, Stage
from core.rules.threat.roll import DieSource, NoRoll, RollOutcome, ThreatLevel
from core.rules.threat.table import ROLL_PANEL, Choice, RollView, ThreatRollState, roll_view
from tgbot.panels import button, keyboard
from tgbot.render.layout import named, phone_rows
from tgbot.render.text import esc, now_line

RESULT_BADGE = {
    Result.DIRE: "💀",
    Result.BOTCHED: "❌",
    Result.MESSY: "⚠️",
    Result.GOOD: "✅",
    Result.PERFECT: "🌟",
}
NO_ROLL_TEXT = {
    NoRoll.SUCCESS: "No roll needed: with more than six dice, it simply works.",
    NoRoll.IMPOSSIBLE: "Impossible as things stand: break it into steps or try another plan.",
}
BONUS_LABEL = {"expertise": "Expertise", "ability": "Ability"}
TICK = "✓ "


def name_of(table: Table, player_id: int | None) -> str:
    """A member's name, escaped."""
    seat = None if player_id is None else table.seat(player_id)
    return esc(seat.name) if seat is not None else "someone who left"


def level_text(level: int) -> str:
    sign = "+" if level >= 0 else "−"
    return f"{sign}{abs(level)}t {ThreatLevel.of(level).value}"


def momentum_track(value: int) -> str:
    """Momentum as a row of pips: ●●●○○○ 3/6."""
    return "●" * value + "○" * (MOMENTUM_MAX - value) + f" {value}/{MOMENTUM_MAX}"


def _dice_lines(table: Table, outcome: RollOutcome) -> list[str]:
    highest = max(outcome.action_faces)
    own, helped = [], []
    for index, die in enumerate(outcome.action_dice):
        face = f"<b>{die.face}</b>" if die.face == highest else str(die.face)
        if outcome.burn is not None and outcome.burn.index == index:
            face = f"<s>{outcome.burn.old_face}</s>→🔥<b>{die.face}</b>"
        if die.source is DieSource.ROLLER:
            own.append(face)
        elif die.source is DieSource.HELPER:
            helped.append(f"🤝 {name_of(table, die.helper)}: {face}")
        else:
            helped.append(f"🌍 outside help: {face}")
    lines = ["🎲 Action dice: " + " ".join(own) + ("  " + " · ".join(helped) if helped else "")]
    if outcome.threat_dice:
        shown = []
        for index, value in enumerate(outcome.threat_dice):
            text = f"<u>{value}</u>✂️" if index in outcome.cutting_dice else str(value)
            if index == len(outcome.threat_dice) - outcome.harm_dice:
                text = "| harm: " + text
            shown.append(text)
        cuts = {0: "no cuts", 1: "1 cut"}.get(outcome.cuts, f"{outcome.cuts} cuts")
        lines.append(f"🎯 Threat dice: {' '.join(shown)} — {cuts}")
    uncut = outcome.uncut
    if outcome.cuts and uncut is not Result.PERFECT and uncut is not outcome.result:
        lines.append(f"{uncut.label}, cut to {outcome.result.label}")
    elif outcome.cuts and uncut is Result.PERFECT:
        lines.append("A Perfect can't be cut.")
    return lines


def _result_line(outcome: RollOutcome) -> str:
    result = outcome.result
    verdict = "you do it" if result.succeeds else "it goes wrong"
    return f"{RESULT_BADGE[result]} <b>{result.label.upper()}</b> — {verdict}"


def render_text(view: PanelView, roll: RollView) -> str:
    """The roll's HTML."""
    panel, table = roll.panel, view.table
    lines = [f"🎲 <b>{name_of(table, panel.roller)}</b> acts — threat dice"]
    lines.append(
        f"🧙 GM: {name_of(table, panel.gm)} · 🎯 Threat: <b>{level_text(panel.threat_level)}</b>"
    )
    if panel.approach is None:
        lines.append("🧭 Approach: <i>not chosen yet</i>")
    elif panel.approach_name is None:
        lines.append(f"🧭 Dice: <b>{panel.approach}d</b> (set by the roll)")
    else:
        lines.append(f"🧭 Approach: <b>{esc(panel.approach_name)} {panel.approach}</b>")
    bonuses = [label for key, label in BONUS_LABEL.items() if getattr(panel, key)]
    if bonuses:
        lines.append("➕ " + " · ".join(f"{b} +1d" for b in bonuses))
    if panel.assist is not None:
        if panel.helper is None:
            lines.append("🌍 Outside help: +1d, rolled by the GM")
        else:
            lines.append(f"🤝 {name_of(table, panel.helper)} helps: +1d and shares the risk")
    if panel.harm:
        lines.append(
            f"🩸 Harm {panel.harm}: +{panel.harm} threat {'die' if panel.harm == 1 else 'dice'}"
        )
    lines.append(f"⚡ Momentum: {momentum_track(roll.momentum)}")
    lines.append("")
    if panel.stage is Stage.SETUP:
        lines += _setup_lines(view, roll)
    elif panel.stage is Stage.CANCELLED:
        lines.append("✖️ <i>This roll was called off.</i>")
    elif panel.outcome is None and panel.no_roll is not None:
        lines.append(NO_ROLL_TEXT[panel.no_roll])
    elif panel.outcome is not None:
        lines += _dice_lines(table, panel.outcome)
        lines.append(_result_line(panel.outcome))
        if panel.stage is Stage.ROLLED and roll.burn_preview is not None:
            preview = roll.burn_preview
            lines.append(
                f"🔥 {name_of(table, panel.roller)} may burn Momentum: the highest die "
                f"becomes {preview.burn.momentum if preview.burn else roll.momentum}, "
                f"then cuts apply → <b>{preview.result.label}</b>. "
                f"The track resets to {MOMENTUM_RESET}."
            )
        if panel.outcome.burn is not None:
            lines.append(
                f"🔥 Momentum burned {panel.outcome.burn.momentum}: "
                f"the track resets to {MOMENTUM_RESET}."
            )
        if panel.stage is Stage.DONE and panel.helper is not None:
            lines.append(f"🤝 {name_of(table, panel.helper)} shares the risk.")
    if not view.closed:
        now = now_line(roll.choices, lambda p: name_of(table, p), _phrase, _SIDE)
        if now:
            lines.append(now)
    return "\n".join(lines)


_PHRASES = {
    ActionKind.OPEN_THREAT: "set the threat",
    ActionKind.OPEN_APPROACH: "pick the approach",
    ActionKind.BACK: "go back",
    ActionKind.SET_THREAT: "set the threat",
    ActionKind.CHOOSE_APPROACH: "pick the approach",
    ActionKind.SET_BONUS: "add a bonus",
    ActionKind.JOIN: "help (+1d, shares the risk)",
    ActionKind.LEAVE: "stop helping",
    ActionKind.OUTSIDE_ASSIST: "add outside help",
    ActionKind.ROLL: "roll",
    ActionKind.BURN: "burn Momentum",
    ActionKind.KEEP: "keep the result",
    ActionKind.CANCEL: "call the roll off",
}
_SIDE = frozenset({ActionKind.CANCEL})


def _phrase(choice: Choice) -> str:
    return _PHRASES[choice.verb]


def _setup_lines(view: PanelView, roll: RollView) -> list[str]:
    panel, table = roll.panel, view.table
    pool = panel.pool
    lines = []
    if panel.approach is not None:
        summary = f"Pool: <b>{pool.action_dice}d</b> against <b>{pool.threat_dice}t</b>"
        if pool.momentum_gain:
            summary += f", +{pool.momentum_gain} Momentum before the roll"
        lines.append(summary)
    if roll.no_roll is not None:
        lines.append(NO_ROLL_TEXT[roll.no_roll])
    elif roll.odds is not None:
        messy = float(roll.odds.at_least(Result.MESSY))
        lines.append(f"Chance of Messy or better: <b>{messy:.0%}</b>")
    if panel.approach is None and not roll.approaches:
        lines.append(
            f"<i>{name_of(table, panel.roller)} has no approaches on their sheet yet: "
            "add them with /sheet, or roll with dice like /roll 3d2t.</i>"
        )
    lines.append(
        f"<i>GM: set the threat. {name_of(table, panel.roller)}: pick the approach and "
        "bonuses, then roll. Others: tap Help to add 1d and share the risk.</i>"
    )
    return lines


def _label(choice: Choice, roll: RollView) -> str:
    tick = TICK if choice.selected else ""
    kind = choice.verb
    if kind is ActionKind.SET_THREAT:
        level = int(choice.argument)
        return tick + ("+" if level >= 0 else "−") + str(abs(level))
    if kind is ActionKind.CHOOSE_APPROACH:
        approach = roll.approaches[int(choice.argument)]
        return named(f"{tick}{{}} {approach.value}", approach.name)
    if kind is ActionKind.OPEN_THREAT:
        level = int(choice.argument)
        return f"⚠️ Threat {'+' if level >= 0 else '−'}{abs(level)}"
    if kind is ActionKind.OPEN_APPROACH:
        panel = roll.panel
        if panel.approach_name is None:
            return "🎯 Approach…"
        return named("🎯 {} " + str(panel.approach), panel.approach_name)
    if kind is ActionKind.SET_BONUS:
        return f"{tick}{BONUS_LABEL[choice.argument.partition('.')[0]]} +1d"
    if kind is ActionKind.OUTSIDE_ASSIST:
        return f"{tick}🌍 Outside help"
    if kind is ActionKind.BURN:
        preview = roll.burn_preview
        return "🔥 Burn Momentum" + (f" → {preview.result.label}" if preview else "")
    if kind is ActionKind.KEEP:
        outcome = roll.panel.outcome
        return "Keep" + (f" {outcome.result.label}" if outcome else "")
    return {
        ActionKind.JOIN: "🤝 Help (+1d)",
        ActionKind.LEAVE: "↩️ Stop helping",
        ActionKind.ROLL: "🎲 Roll",
        ActionKind.BACK: "⬅️ Back",
        ActionKind.CANCEL: "✖️ Cancel",
    }[kind]


def _rows(view: PanelView, roll: RollView) -> list[Sequence[InlineKeyboardButton]]:
    def make(choice: Choice) -> InlineKeyboardButton:
        return button(view, _label(choice, roll), choice.verb.value, choice.argument)

    def of(*kinds: ActionKind) -> list[Choice]:
        return [c for c in roll.choices if c.verb in kinds]

    threat = of(ActionKind.SET_THREAT)
    approaches = of(ActionKind.CHOOSE_APPROACH)
    rows: list[Sequence[InlineKeyboardButton]] = [
        [make(c) for c in threat if int(c.argument) <= 0],
        [make(c) for c in threat if int(c.argument) > 0],
    ]
    rows += phone_rows([make(c) for c in approaches])
    rows += phone_rows([make(c) for c in of(ActionKind.OPEN_THREAT, ActionKind.OPEN_APPROACH)])
    rows += phone_rows([make(c) for c in of(ActionKind.SET_BONUS)])
    rows += phone_rows(
        [make(c) for c in of(ActionKind.JOIN, ActionKind.LEAVE, ActionKind.OUTSIDE_ASSIST)]
    )
    rows += phone_rows([make(c) for c in of(ActionKind.ROLL, ActionKind.BURN, ActionKind.KEEP)])
    rows += phone_rows([make(c) for c in of(ActionKind.BACK, ActionKind.CANCEL)])
    return rows


class ThreatRollRenderer:
    """Renders the ``threat.roll`` panel."""

    kind = ROLL_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        roll = roll_view(view.table, view.typed(ThreatRollState))
        markup = None if view.closed else keyboard(_rows(view, roll))
        return render_text(view, roll), markup
