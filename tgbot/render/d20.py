"""How d20 checks, long rests and the plot point pool look in the chat.

Pure: panel state and rules data in, HTML and buttons out. Which buttons exist
and who may press them comes from ``CheckFlow.who_may_act``; this module only
words and lays them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.rules.choice import Choice
from core.rules.d20check import (
    AbilityStrength,
    ActionKind,
    CharacterSheet,
    CheckFlow,
    CheckRoll,
    CheckSetup,
    Difficulty,
    Outcome,
    Phase,
    WoundBand,
    band_for,
)
from core.rules.d20check.check import MAX_CIRCUMSTANCES, MAX_DIFFICULTY, MAX_PROFICIENCY
from core.rules.d20check.table import (
    CHECK_PANEL,
    REST_PANEL,
    SET_ABILITY,
    SET_ADVANTAGES,
    SET_DISADVANTAGES,
    SET_PROFICIENCY,
    SET_TARGET,
    CheckPanelState,
    PoolCounts,
    pool_counts,
    sheet_of,
)
from core.rules.d20check.wounds import MAX_STRAIN, MAX_WOUNDS
from core.rules.errors import Malformed
from core.rules.table import Json, Table
from tgbot.panels import button, keyboard
from tgbot.render.text import esc, now_line

STRENGTH_TEXT = {
    AbilityStrength.WEAK: "Weak ability (2d20, keep the lower)",
    AbilityStrength.AVERAGE: "Average ability (1d20)",
    AbilityStrength.STRONG: "Strong ability (2d20, keep the higher)",
}
STRENGTH_BUTTON = {
    AbilityStrength.WEAK: "Weak",
    AbilityStrength.AVERAGE: "Average",
    AbilityStrength.STRONG: "Strong",
}
BAND_EFFECT = {
    WoundBand.UNHURT: "",
    WoundBand.EXHAUSTED: "heals without trouble",
    WoundBand.INJURED: "+1 strain on a failed check",
    WoundBand.SEVERELY_INJURED: "+1 strain on every check",
    WoundBand.DYING: "+1 strain on every check, +2 on a failure",
    WoundBand.NEAR_DEATH: "a near-death experience",
}
ROLL_TITLE = {
    "first": "Roll",
    "retry": "🍀 Lucky retry",
    "reroll": "🌀 Unlucky reroll",
    "forced_reroll": "🎭 Forced reroll",
    "gm_reroll": "🎭 GM reroll",
}
OUTCOME_TEXT = {Outcome.SUCCESS: "✅ Success", Outcome.FAILURE: "❌ Failure", Outcome.TIE: "🤝 Tie"}
TICK = "✓ "


def name_of(table: Table, player_id: int) -> str:
    """A member's name, escaped (for message text)."""
    seat = table.seat(player_id)
    return esc(seat.name) if seat is not None else "someone who left"


def short_name(table: Table, player_id: int) -> str:
    """A member's name for a button label (plain text, kept short)."""
    seat = table.seat(player_id)
    name = seat.name if seat is not None else "?"
    return name if len(name) <= 16 else name[:15] + "…"


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def pool_line(pool: PoolCounts) -> str:
    """The shared pool: 🍀 lucky and 🌑 unlucky points."""
    pips = "🍀" * pool.lucky + "🌑" * pool.unlucky
    return f"Plot points: {pips} {pool.lucky} lucky · {pool.unlucky} unlucky"


def harm_line(name: str, sheet: CharacterSheet) -> str:
    """Strain and wounds with the band and what it does to checks."""
    band = sheet.band
    effect = BAND_EFFECT[band]
    text = f"❤️ {name}: strain {sheet.strain}/{MAX_STRAIN} · wounds {sheet.wounds}/{MAX_WOUNDS}"
    if band is not WoundBand.UNHURT:
        text += f" — <b>{band.label}</b>" + (f" ({effect})" if effect else "")
    return text


def setup_text(setup: CheckSetup) -> str:
    parts = [STRENGTH_TEXT[setup.ability]]
    parts.append(f"proficiency {signed(setup.proficiency)}")
    if setup.advantages or setup.disadvantages:
        die = setup.die
        net = (
            "they cancel out" if die is None else f"{'+' if die.is_advantage else '−'}d{die.sides}"
        )
        parts.append(f"{setup.advantages} adv, {setup.disadvantages} dis: {net}")
    return " · ".join(parts)


def target_text(check: CheckFlow) -> str:
    if isinstance(check.target, Difficulty):
        return f"🎯 Difficulty <b>{check.target.value}</b>"
    return f"⚔️ Contest against <b>{check.target.result}</b>"


def roll_text(roll: CheckRoll) -> str:
    """The dice of one roll: the kept d20 in bold, a dropped one struck out."""
    kept_index = roll.d20s.index(roll.kept)
    d20s = ", ".join(
        f"<b>{face}</b>" if i == kept_index else f"<s>{face}</s>"
        for i, face in enumerate(roll.d20s)
    )
    text = f"d20 [{d20s}]"
    if roll.setup.proficiency:
        text += f" + {roll.setup.proficiency}"
    die = roll.setup.die
    if die is not None and roll.die_face is not None:
        text += f" {'+' if die.is_advantage else '−'} d{die.sides}({roll.die_face})"
    return f"{text} = <b>{roll.total}</b>"


def log_line(table: Table, entry: Mapping[str, object], roller: str) -> str | None:
    """One logged event in words, or None for those shown elsewhere."""
    kind = entry.get("e")
    if kind == "spent":
        by = entry.get("by")
        who = name_of(table, by) if isinstance(by, int) else "Someone"
        point = "a lucky" if entry.get("kind") == "lucky" else "an unlucky"
        now = "unlucky" if entry.get("kind") == "lucky" else "lucky"
        return f"💫 {who} spent {point} point (it turns {now})."
    if kind == "turned":
        if entry.get("natural") == 20:
            return "🌟 Natural 20! An unlucky point turns lucky."
        return "💥 Natural 1! A lucky point turns unlucky."
    if kind == "gm_picks":
        which = "20" if entry.get("natural") == 20 else "1"
        return f"🎭 Natural {which}, and no point to turn: the GM picks another twist."
    if kind == "harm":
        strain_before, strain_after = entry.get("strain_before"), entry.get("strain_after")
        wounds_before, wounds_after = entry.get("wounds_before"), entry.get("wounds_after")
        parts = []
        if strain_before != strain_after:
            parts.append(f"strain {strain_before} → {strain_after}")
        if wounds_before != wounds_after:
            parts.append(f"wounds {wounds_before} → {wounds_after}")
        line = f"🩸 {roller}: " + (", ".join(parts) or "no change") + "."
        if entry.get("lost"):
            line += f" ({entry.get('lost')} more wound(s) past the last box.)"
        return line
    return None


def next_step(table: Table, check: CheckFlow, pool: PoolCounts) -> str:
    if check.phase is Phase.SETUP:
        return f"<i>{name_of(table, check.roller)} sets up the check, then rolls.</i>"
    if check.phase is Phase.ROLLER_DECIDES:
        roller = name_of(table, check.roller)
        result = check.result
        if result is not None and result.succeeded:
            return (
                f"<i>Any player may spend an unlucky point to reroll this success; "
                f"{roller} keeps it to go on.</i>"
            )
        return f"<i>{roller} may spend a lucky point to retry, or keep the result.</i>"
    if check.phase is Phase.GM_DECIDES:
        gm = name_of(table, check.game_master)
        return f"<i>The GM ({gm}) may spend an unlucky point to reroll, or let it stand.</i>"
    return "<i>The result stands.</i>"


_PHRASES = {
    ActionKind.SET_UP: "set up the check",
    ActionKind.ROLL: "roll",
    ActionKind.RETRY: "spend a lucky point to retry",
    ActionKind.REROLL: "spend an unlucky point to reroll the success",
    ActionKind.KEEP: "keep the result",
    ActionKind.FORCE_REROLL: "spend an unlucky point to force a reroll",
    ActionKind.GM_REROLL: "spend a point to reroll",
}
_SIDE: frozenset[ActionKind] = frozenset()


def _phrase(choice: Choice[ActionKind]) -> str:
    return _PHRASES[choice.verb]


class CheckRenderer:
    """The check panel: set-up, dice, kept d20, total, margin, outcome, pool and harm."""

    kind = CHECK_PANEL

    def render(self, view: PanelView) -> tuple[str, InlineKeyboardMarkup | None]:
        table = view.table
        panel = CheckPanelState.from_dict(view.state)
        check = panel.check
        pool = pool_counts(table.state)
        roller = name_of(table, check.roller)
        who = "The GM" if check.is_gm_check else roller
        head = f"🎲 <b>{who}</b> {'rolls an NPC check' if check.is_gm_check else 'makes a check'}"
        if panel.label:
            head += f" — <i>{esc(panel.label)}</i>"
        lines = [head, target_text(check), setup_text(check.setup)]
        reasons = [str(e.get("reason")) for e in panel.log if e.get("e") == "rolled"]
        for index, roll in enumerate(check.rolls):
            reason = reasons[index] if index < len(reasons) else "first"
            title = ROLL_TITLE.get(reason, "Roll")
            if index < len(check.rolls) - 1:
                lines.append(f"<s>{title}: {roll_text(roll)}</s>")
            else:
                lines.append(f"{title}: {roll_text(roll)}")
        result = check.result
        if result is not None:
            lines.append(f"<b>{OUTCOME_TEXT[result.outcome]}</b> — margin {signed(result.margin)}")
        lines.extend(line for e in panel.log if (line := log_line(table, e, roller)) is not None)
        lines.append("")
        lines.append(pool_line(pool))
        sheet = None if check.is_gm_check else _safe_sheet(table, check.roller)
        if sheet is not None:
            lines.append(harm_line(roller, sheet))
        lines.append(next_step(table, check, pool))
        now = now_line(check.choices(pool.playable()), lambda p: _in_play(table, p), _phrase, _SIDE)
        if now and not view.closed:
            lines.append(now)
        return "\n".join(lines), self.buttons(view, check, pool)

    def buttons(
        self, view: PanelView, check: CheckFlow, pool: PoolCounts
    ) -> InlineKeyboardMarkup | None:
        if check.is_over or pool.size < 2:
            return None
        rows: list[list[InlineKeyboardButton]] = []
        acting = check.who_may_act(pool.playable())
        # Anyone at the table may reroll a success (ruling 25): one button for all.
        others = {p for p, a in acting.items() if p != check.roller and a == {ActionKind.REROLL}}
        for person, actions in acting.items():
            if person in others:
                continue
            name = short_name(view.table, person)
            if ActionKind.SET_UP in actions:
                rows.extend(setup_rows(view, check))
            rows.append(decision_row(view, check, actions, name, "any player" if others else None))
        return keyboard(rows)


def setup_rows(view: PanelView, check: CheckFlow) -> list[list[InlineKeyboardButton]]:
    """Ability strength, proficiency, advantages, disadvantages and the target."""
    setup = check.setup
    strengths = [
        button(
            view,
            (TICK if setup.ability is strength else "") + STRENGTH_BUTTON[strength],
            SET_ABILITY,
            strength.value,
        )
        for strength in AbilityStrength
    ]
    target = check.target.value if isinstance(check.target, Difficulty) else check.target.result
    target_name = "DC" if isinstance(check.target, Difficulty) else "Vs"
    low = 0 if isinstance(check.target, Difficulty) else -MAX_DIFFICULTY
    prof, adv, dis = setup.proficiency, setup.advantages, setup.disadvantages
    return [
        strengths,
        stepper(view, "Prof", SET_PROFICIENCY, prof, 0, MAX_PROFICIENCY, (1,)),
        stepper(view, "Adv", SET_ADVANTAGES, adv, 0, MAX_CIRCUMSTANCES, (1,))
        + stepper(view, "Dis", SET_DISADVANTAGES, dis, 0, MAX_CIRCUMSTANCES, (1,)),
        stepper(view, target_name, SET_TARGET, target, low, MAX_DIFFICULTY, (5, 1)),
    ]


def stepper(
    view: PanelView,
    label: str,
    action: str,
    value: int,
    low: int,
    high: int,
    steps: Sequence[int],
) -> list[InlineKeyboardButton]:
    """Buttons that lower and raise a value within its range (arguments are new values)."""
    down = [
        button(view, f"{label} −{step}" if step > 1 else f"{label} −", action, str(value - step))
        for step in steps
        if value - step >= low
    ]
    up = [
        button(view, f"{label} +{step}" if step > 1 else f"{label} +", action, str(value + step))
        for step in reversed(steps)
        if value + step <= high
    ]
    return down + up


DECISION_LABEL = {
    ActionKind.ROLL: "🎲 Roll",
    ActionKind.RETRY: "🍀 Retry: spend a lucky point",
    ActionKind.REROLL: "🌀 Reroll: spend an unlucky point",
    ActionKind.FORCE_REROLL: "🎭 Force a reroll (unlucky point)",
    ActionKind.GM_REROLL: "🎭 Reroll (unlucky point)",
}
DECISION_ORDER = (
    ActionKind.ROLL,
    ActionKind.RETRY,
    ActionKind.REROLL,
    ActionKind.FORCE_REROLL,
    ActionKind.GM_REROLL,
    ActionKind.KEEP,
)


def decision_row(
    view: PanelView,
    check: CheckFlow,
    actions: frozenset[ActionKind],
    name: str,
    rerolled_by: str | None = None,
) -> list[InlineKeyboardButton]:
    """The buttons that move the check on, each labelled with who may press it.

    ``rerolled_by`` names who else may press the reroll button, when more
    people than ``name`` may.
    """
    row = []
    for action in DECISION_ORDER:
        if action not in actions:
            continue
        who = name
        if action is ActionKind.KEEP:
            label = "✋ Keep it" if check.phase is Phase.ROLLER_DECIDES else "✅ Let it stand"
        else:
            label = DECISION_LABEL[action]
            if action is ActionKind.REROLL and rerolled_by is not None:
                who = rerolled_by
        row.append(button(view, f"{label} ({who})", action.value))
    return row


def _in_play(table: Table, player_id: int) -> str:
    """Someone by the name in play: their character's, else their own (the GM)."""
    sheet = _safe_sheet(table, player_id)
    return esc(sheet.name) if sheet is not None and sheet.name else name_of(table, player_id)


def _safe_sheet(table: Table, player_id: int) -> CharacterSheet | None:
    try:
        return sheet_of(table, player_id)
    except Malformed:
        return None


class RestRenderer:
    """A finished long rest: each character's recovery checks and what healed."""

    kind = REST_PANEL

    def render(self, view: PanelView) -> tuple[str, InlineKeyboardMarkup | None]:
        state = view.state
        skill = esc(str(state.get("skill", "")))
        lines = [
            f"🛌 <b>Long rest</b> — recovery checks: difficulty {state.get('difficulty')} {skill}"
        ]
        rested = state.get("rested") or []
        if not rested:
            lines.append("Nobody at the table has a character yet.")
        for entry in rested:
            lines.extend(rest_lines(view.table, entry))
        lines.append("")
        lines.append(pool_line(pool_counts(view.table.state)))
        return "\n".join(lines), None


def rest_lines(table: Table, entry: Json) -> list[str]:
    name = esc(str(entry.get("name", "")))
    strain, before = entry.get("strain_before"), int(entry.get("wounds_before") or 0)
    after = int(entry.get("wounds_after") or 0)
    checks: Sequence[Json] = entry.get("checks") or []
    if not strain and not checks:
        return [f"\n<b>{name}</b>: rested, nothing to heal."]
    lines = [f"\n<b>{name}</b>: strain {strain} → 0"]
    if checks:
        rolls = ", ".join(f"{c.get('total')} {'✅' if c.get('success') else '❌'}" for c in checks)
        lines.append(f"Recovery checks: {rolls}")
    band = band_for(after)
    band_text = "" if band is WoundBand.UNHURT else f" — {band.label}"
    lines.append(f"Wounds {before} → {after}/{MAX_WOUNDS}{band_text}")
    lines.extend(
        line for e in entry.get("log") or [] if (line := log_line(table, e, name)) is not None
    )
    return lines


def pool_text(table: Table) -> str:
    """/pool: the shared pool, what each kind does, and everyone's strain and wounds."""
    pool = pool_counts(table.state)
    lines = [f"<b>{pool_line(pool)}</b>"]
    if pool.size < 2:
        lines.append("Plot points start when a player joins: one per person, GM included.")
    lines.append(
        "🍀 Lucky: the roller may spend one to retry a failed check.\n"
        "🌑 Unlucky: any player may spend one to reroll a success; the GM may spend one "
        "to reroll their own check, or to make a player who spent nothing roll again.\n"
        "No limit per check: as long as the pool has a point of the kind, it can be spent.\n"
        "A spent point flips. A natural 1 turns a lucky point unlucky, a natural 20 the reverse."
    )
    for player_id in sorted(table.seats):
        sheet = _safe_sheet(table, player_id)
        if sheet is not None:
            lines.append(harm_line(name_of(table, player_id), sheet))
    return "\n".join(lines)


RENDERERS = (CheckRenderer(), RestRenderer())
