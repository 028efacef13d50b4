"""How a threat dice roll looks in the chat: pure text and buttons from rules data."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.rules.table import Table
from core.rules.threat import SYSTEM as THREAT
from core.rules.threat.dice import Result
from core.rules.threat.momentum import MOMENTUM_MAX, MOMENTUM_RESET
from core.rules.threat.panel import ActionKind, Stage
from core.rules.threat.roll import DieSource, NoRoll, Pool, RollOutcome, ThreatLevel
from core.rules.threat.table import ROLL_PANEL, Choice, RollView, ThreatRollState, roll_view
from core.words.i18n import N_, Lang
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
RESULT_NAME = {
    Result.DIRE: N_("Dire"),
    Result.BOTCHED: N_("Botched"),
    Result.MESSY: N_("Messy"),
    Result.GOOD: N_("Good"),
    Result.PERFECT: N_("Perfect"),
}
RESULT_SHOUT = {
    Result.DIRE: N_("DIRE"),
    Result.BOTCHED: N_("BOTCHED"),
    Result.MESSY: N_("MESSY"),
    Result.GOOD: N_("GOOD"),
    Result.PERFECT: N_("PERFECT"),
}
LEVEL_NAME = {
    ThreatLevel.FAVOURABLE: N_("favourable"),
    ThreatLevel.NORMAL: N_("normal"),
    ThreatLevel.RISKY: N_("risky"),
    ThreatLevel.COMPLEX: N_("complex"),
    ThreatLevel.DESPERATE: N_("desperate"),
    ThreatLevel.IMPOSSIBLE: N_("impossible"),
}
NO_ROLL_TEXT = {
    NoRoll.SUCCESS: N_("No roll needed: with more than six dice, it simply works."),
    NoRoll.IMPOSSIBLE: N_("Impossible as things stand: break it into steps or try another plan."),
}
BONUS_LABEL = {"expertise": N_("Expertise"), "ability": N_("Ability")}
TICK = "✓ "


def name_of(table: Table, player_id: int | None, lang: Lang) -> str:
    """A member's name, escaped."""
    seat = None if player_id is None else table.seat(player_id)
    return esc(seat.name) if seat is not None else lang.gettext("someone who left")


def result_name(result: Result, lang: Lang) -> str:
    """A result's short name (Dire .. Perfect) in ``lang``."""
    return lang.gettext(RESULT_NAME[result])


def level_text(level: int, lang: Lang) -> str:
    sign = "+" if level >= 0 else "−"
    return f"{sign}{abs(level)} ({lang.gettext(LEVEL_NAME[ThreatLevel.of(level)])})"


def momentum_track(value: int) -> str:
    """Momentum as a row of pips: ●●●○○○ 3/6."""
    return "●" * value + "○" * (MOMENTUM_MAX - value) + f" {value}/{MOMENTUM_MAX}"


def _threat_dice_line(outcome: RollOutcome, lang: Lang) -> str:
    """The threat dice, the cutting ones marked and the harm dice apart, and the cuts."""
    shown = []
    for index, value in enumerate(outcome.threat_dice):
        text = f"<u>{value}</u>✂️" if index in outcome.cutting_dice else str(value)
        if index == len(outcome.threat_dice) - outcome.harm_dice:
            text = lang.gettext("| harm: {dice}", dice=text)
        shown.append(text)
    if outcome.cuts == 0:
        cuts = lang.gettext("no cuts")
    else:
        cuts = lang.ngettext("{num} cut", "{num} cuts", outcome.cuts)
    return lang.gettext("🎯 Threat dice: {dice} — {cuts}", dice=" ".join(shown), cuts=cuts)


def _dice_lines(table: Table, outcome: RollOutcome, lang: Lang) -> list[str]:
    counting = outcome.counting_dice
    own, helped = [], []
    for index, die in enumerate(outcome.action_dice):
        face = f"<b>{die.face}</b>" if index in counting else str(die.face)
        if outcome.burn is not None and outcome.burn.index == index:
            face = f"<s>{outcome.burn.old_face}</s>→🔥<b>{die.face}</b>"
        if die.source is DieSource.ROLLER:
            own.append(face)
        elif die.source is DieSource.HELPER:
            helped.append(f"🤝 {name_of(table, die.helper, lang)}: {face}")
        else:
            helped.append(lang.gettext("🌍 outside help: {face}", face=face))
    lines = [
        lang.gettext("🎲 Action dice: {dice}", dice=" ".join(own))
        + ("  " + " · ".join(helped) if helped else "")
    ]
    if outcome.threat_dice:
        lines.append(_threat_dice_line(outcome, lang))
    uncut = outcome.uncut
    if outcome.cuts and uncut is not Result.PERFECT and uncut is not outcome.result:
        lines.append(
            lang.gettext(
                "{uncut}, cut to {result}",
                uncut=result_name(uncut, lang),
                result=result_name(outcome.result, lang),
            )
        )
    elif outcome.cuts and uncut is Result.PERFECT:
        lines.append(lang.gettext("A Perfect can't be cut."))
    return lines


def _result_line(outcome: RollOutcome, lang: Lang) -> str:
    result = outcome.result
    verdict = lang.gettext("you do it") if result.succeeds else lang.gettext("it goes wrong")
    return f"{RESULT_BADGE[result]} <b>{lang.gettext(RESULT_SHOUT[result])}</b> — {verdict}"


def render_text(view: PanelView, roll: RollView, lang: Lang) -> str:
    """The roll's HTML."""
    panel, table = roll.panel, view.table
    roller = name_of(table, panel.roller, lang)
    lines = [lang.gettext("🎲 <b>{name}</b> acts — threat dice", name=roller)]
    lines.append(
        lang.gettext(
            "🧙 GM: {gm} · 🎯 Threat: <b>{level}</b>",
            gm=name_of(table, panel.gm, lang),
            level=level_text(panel.threat_level, lang),
        )
    )
    if panel.approach is None:
        lines.append(lang.gettext("🧭 Approach: <i>not chosen yet</i>"))
    elif panel.approach_name is None:
        lines.append(lang.gettext("🧭 Dice: <b>{dice}d</b> (set by the roll)", dice=panel.approach))
    else:
        lines.append(
            lang.gettext(
                "🧭 Approach: <b>{name} {value}</b>",
                name=esc(panel.approach_name),
                value=panel.approach,
            )
        )
    bonuses = [lang.gettext(label) for key, label in BONUS_LABEL.items() if getattr(panel, key)]
    if bonuses:
        lines.append("➕ " + " · ".join(f"{b} +1d" for b in bonuses))
    if panel.assist is not None:
        if panel.helper is None:
            lines.append(lang.gettext("🌍 Outside help: +1d, rolled by the GM"))
        else:
            lines.append(
                lang.gettext(
                    "🤝 {name} helps: +1d and shares the risk",
                    name=name_of(table, panel.helper, lang),
                )
            )
    if panel.harm:
        lines.append(
            lang.ngettext(
                "🩸 Harm {num}: +{num} threat die",
                "🩸 Harm {num}: +{num} threat dice",
                panel.harm,
            )
        )
    lines.append(lang.gettext("⚡ Momentum: {track}", track=momentum_track(roll.momentum)))
    lines.append("")
    if panel.stage is Stage.SETUP:
        lines += _setup_lines(view, roll, lang)
    elif panel.stage is Stage.CANCELLED:
        lines.append(lang.gettext("✖️ <i>This roll was called off.</i>"))
    elif panel.outcome is None and panel.no_roll is not None:
        lines.append(lang.gettext(NO_ROLL_TEXT[panel.no_roll]))
    elif panel.outcome is not None:
        lines += _dice_lines(table, panel.outcome, lang)
        lines.append(_result_line(panel.outcome, lang))
        if panel.stage is Stage.ROLLED and roll.burn_preview is not None:
            preview = roll.burn_preview
            lines.append(
                lang.gettext(
                    "🔥 {name} may burn Momentum: the highest die becomes {face}, "
                    "then cuts apply → <b>{result}</b>. The track resets to {reset}.",
                    name=roller,
                    face=preview.burn.momentum if preview.burn else roll.momentum,
                    result=result_name(preview.result, lang),
                    reset=MOMENTUM_RESET,
                )
            )
        if panel.outcome.burn is not None:
            lines.append(
                lang.gettext(
                    "🔥 Momentum burned {momentum}: the track resets to {reset}.",
                    momentum=panel.outcome.burn.momentum,
                    reset=MOMENTUM_RESET,
                )
            )
        if panel.stage is Stage.DONE and panel.helper is not None:
            lines.append(
                lang.gettext("🤝 {name} shares the risk.", name=name_of(table, panel.helper, lang))
            )
    if not view.closed:
        now = now_line(
            THREAT.panel(ROLL_PANEL).waiting(table, view.typed(ThreatRollState)).choices,
            lambda p: name_of(table, p, lang),
            lambda c: lang.gettext(_PHRASES[c.verb]),
            lang=lang,
        )
        if now:
            lines.append(now)
    return "\n".join(lines)


_PHRASES = {
    ActionKind.OPEN_THREAT: N_("set the threat"),
    ActionKind.OPEN_APPROACH: N_("pick the approach"),
    ActionKind.BACK: N_("go back"),
    ActionKind.SET_THREAT: N_("set the threat"),
    ActionKind.CHOOSE_APPROACH: N_("pick the approach"),
    ActionKind.SET_BONUS: N_("add a bonus"),
    ActionKind.JOIN: N_("help (+1d, shares the risk)"),
    ActionKind.LEAVE: N_("stop helping"),
    ActionKind.OUTSIDE_ASSIST: N_("add outside help"),
    ActionKind.ROLL: N_("roll"),
    ActionKind.BURN: N_("burn Momentum"),
    ActionKind.KEEP: N_("keep the result"),
    ActionKind.CANCEL: N_("call the roll off"),
}


def _pool_line(pool: Pool, lang: Lang) -> str:
    """The dice to roll against the threat, and any Momentum gained first."""
    summary = lang.gettext(
        "Pool: <b>{action}d</b> against <b>{threat}t</b>",
        action=pool.action_dice,
        threat=pool.threat_dice,
    )
    if pool.momentum_gain:
        summary += lang.gettext(", +{gain} Momentum before the roll", gain=pool.momentum_gain)
    return summary


def _setup_lines(view: PanelView, roll: RollView, lang: Lang) -> list[str]:
    panel, table = roll.panel, view.table
    roller = name_of(table, panel.roller, lang)
    lines = []
    if panel.approach is not None:
        lines.append(_pool_line(panel.pool, lang))
    if roll.no_roll is not None:
        lines.append(lang.gettext(NO_ROLL_TEXT[roll.no_roll]))
    elif roll.odds is not None:
        messy = float(roll.odds.at_least(Result.MESSY))
        lines.append(
            lang.gettext(
                "Chance of Messy or better: <b>{chance}</b>",
                chance=lang.percent(messy, digits=0),
            )
        )
    if panel.approach is None and not roll.approaches:
        lines.append(
            lang.gettext(
                "<i>{name} has no approaches on the sheet yet: take a bonus die "
                "(Expertise or an Ability) to roll now, add approaches with /sheet, "
                "or roll with dice like /threat 3d2t.</i>",
                name=roller,
            )
        )
    lines.append(
        lang.gettext(
            "<i>GM: set the threat. {name}: pick the approach and "
            "bonuses, then roll. Others: tap Help to add 1d and share the risk.</i>",
            name=roller,
        )
    )
    return lines


def _label(choice: Choice, roll: RollView, lang: Lang) -> str:
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
        return lang.gettext(
            "⚠️ Threat {level}", level=("+" if level >= 0 else "−") + str(abs(level))
        )
    if kind is ActionKind.OPEN_APPROACH:
        panel = roll.panel
        if panel.approach_name is None:
            return lang.gettext("🎯 Approach…")
        return named("🎯 {} " + str(panel.approach), panel.approach_name)
    if kind is ActionKind.SET_BONUS:
        return f"{tick}{lang.gettext(BONUS_LABEL[choice.argument.partition('.')[0]])} +1d"
    if kind is ActionKind.OUTSIDE_ASSIST:
        return tick + lang.gettext("🌍 Outside help")
    if kind is ActionKind.BURN:
        preview = roll.burn_preview
        if preview is None:
            return lang.gettext("🔥 Burn Momentum")
        return lang.gettext("🔥 Burn Momentum → {result}", result=result_name(preview.result, lang))
    if kind is ActionKind.KEEP:
        outcome = roll.panel.outcome
        if outcome is None:
            return lang.gettext("Keep")
        return lang.gettext("Keep {result}", result=result_name(outcome.result, lang))
    return lang.gettext(_BUTTONS[kind])


_BUTTONS = {
    ActionKind.JOIN: N_("🤝 Help (+1d)"),
    ActionKind.LEAVE: N_("↩️ Stop helping"),
    ActionKind.ROLL: N_("🎲 Roll"),
    ActionKind.BACK: N_("⬅️ Back"),
    ActionKind.CANCEL: N_("✖️ Cancel"),
}


def _rows(view: PanelView, roll: RollView, lang: Lang) -> list[Sequence[InlineKeyboardButton]]:
    def make(choice: Choice) -> InlineKeyboardButton:
        return button(view, _label(choice, roll, lang), choice.verb.value, choice.argument)

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
        markup = None if view.closed else keyboard(_rows(view, roll, lang))
        return render_text(view, roll, lang), markup
