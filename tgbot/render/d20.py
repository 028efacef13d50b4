"""How d20 checks, long rests and the plot point pool look in the chat.

Pure: panel state and rules data in, HTML and buttons out. Which buttons exist
and who may press them comes from ``CheckFlow.who_may_act``; this module only
words and lays them out.
"""

from __future__ import annotations

from collections.abc import Mapping

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.i18n import Lang
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
from core.rules.d20check.table import (
    CHECK_PANEL,
    REST_PANEL,
    CheckPanelState,
    PanelChoice,
    PoolCounts,
    Rested,
    RestPanelState,
    SetupMenu,
    SetupVerb,
    pool_counts,
    sheet_of,
)
from core.rules.d20check.wounds import MAX_STRAIN, MAX_WOUNDS
from core.rules.errors import Malformed
from core.rules.names import counted, in_play
from core.rules.table import Table
from tgbot.panels import button, keyboard
from tgbot.render.layout import grid, named, phone_rows
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
        who = _in_play(table, by) if isinstance(by, int) else "Someone"
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
        lost = entry.get("lost")
        if isinstance(lost, int) and lost:
            line += f" ({counted(lost, 'more wound', 'more wounds')} past the last box.)"
        return line
    return None


def next_step(table: Table, check: CheckFlow, pool: PoolCounts) -> str:
    if check.phase is Phase.SETUP:
        return f"<i>{_in_play(table, check.roller)} sets up the check, then rolls.</i>"
    if check.phase is Phase.ROLLER_DECIDES:
        roller = _in_play(table, check.roller)
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
_SETUP_PHRASES = {
    SetupVerb.OPEN: "set up the check",
    SetupVerb.BACK: "go back",
    SetupVerb.ABILITY: "pick the ability",
    SetupVerb.PROFICIENCY: "set the bonuses",
    SetupVerb.ADVANTAGES: "set the bonuses",
    SetupVerb.DISADVANTAGES: "set the bonuses",
    SetupVerb.TARGET: "set the difficulty",
}
_SIDE: frozenset[ActionKind] = frozenset()


def _phrase(choice: PanelChoice) -> str:
    if isinstance(choice.verb, SetupVerb):
        return _SETUP_PHRASES[choice.verb]
    return _PHRASES[choice.verb]


class CheckRenderer:
    """The check panel: set-up, dice, kept d20, total, margin, outcome, pool and harm."""

    kind = CHECK_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        table = view.table
        panel = view.typed(CheckPanelState)
        check = panel.check
        pool = pool_counts(table.state)
        roller = _in_play(table, check.roller)
        who = "The GM" if check.is_gm_check else _in_play(table, check.roller, True)
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
        now = now_line(
            panel.choices(pool.playable()), lambda p: _in_play(table, p, True), _phrase, _SIDE
        )
        if now and not view.closed:
            lines.append(now)
        return "\n".join(lines), self.buttons(view, panel, pool)

    def buttons(
        self, view: PanelView, panel: CheckPanelState, pool: PoolCounts
    ) -> InlineKeyboardMarkup | None:
        check = panel.check
        if check.is_over or pool.size < 2:
            return None
        rows: list[list[InlineKeyboardButton]] = []
        if check.phase is Phase.SETUP:
            rows += setup_rows(view, panel)
            if panel.menu is not None:
                return keyboard(rows)  # the open group and Back, nothing else
        acting = check.who_may_act(pool.playable())
        # Anyone at the table may reroll a success (ruling 25): one button for all.
        others = {p for p, a in acting.items() if p != check.roller and a == {ActionKind.REROLL}}
        for person, actions in acting.items():
            if person in others:
                continue
            name = short_name(view.table, person)
            row = decision_row(view, check, actions, name, "any player" if others else None)
            rows += phone_rows(row)
        return keyboard(rows)


STEPPER_NAME = {
    SetupVerb.PROFICIENCY: "Prof",
    SetupVerb.ADVANTAGES: "Adv",
    SetupVerb.DISADVANTAGES: "Dis",
}


def setup_label(choice: Choice[SetupVerb], check: CheckFlow) -> str:
    """A set-up button's text: a group with its current values, an option or a step."""
    verb, setup = choice.verb, check.setup
    difficulty = isinstance(check.target, Difficulty)
    if verb is SetupVerb.OPEN:
        menu = SetupMenu(choice.argument)
        if menu is SetupMenu.ABILITY:
            return f"💪 {STRENGTH_BUTTON[setup.ability]} ability"
        if menu is SetupMenu.MODIFIERS:
            return (
                f"⚖️ Prof {setup.proficiency} · Adv {setup.advantages} · Dis {setup.disadvantages}"
            )
        target = check.target
        return (
            f"🎯 DC {target.value}" if isinstance(target, Difficulty) else f"🎯 Vs {target.result}"
        )
    if verb is SetupVerb.BACK:
        return "⬅️ Back"
    if verb is SetupVerb.ABILITY:
        tick = TICK if choice.selected else ""
        return tick + STRENGTH_BUTTON[AbilityStrength(choice.argument)]
    name = STEPPER_NAME.get(verb, "DC" if difficulty else "Vs")
    step = str(choice.count) if choice.count > 1 else ""
    return f"{name} {choice.name}{step}"


def setup_rows(view: PanelView, panel: CheckPanelState) -> list[list[InlineKeyboardButton]]:
    """The set-up groups, or the open group's options (like steppers side by side) and Back."""
    rows: list[list[InlineKeyboardButton]] = []
    run: list[InlineKeyboardButton] = []
    last: SetupVerb | None = None
    for choice in panel.setup_choices():
        b = button(view, setup_label(choice, panel.check), choice.verb.value, choice.argument)
        if run and (choice.verb is not last or choice.verb is SetupVerb.OPEN):
            rows += grid(run, 4)
            run = []
        run.append(b)
        last = choice.verb
    if run:
        rows += grid(run, 4)
    return rows


DECISION_LABEL = {
    ActionKind.ROLL: "🎲 Roll",
    ActionKind.RETRY: "🍀 Lucky retry",
    ActionKind.REROLL: "🌀 Unlucky reroll",
    ActionKind.FORCE_REROLL: "🎭 Force a reroll",
    ActionKind.GM_REROLL: "🎭 Unlucky reroll",
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
        row.append(button(view, named(f"{label} ({{}})", who), action.value))
    return row


def _in_play(table: Table, player_id: int, introduce: bool = False) -> str:
    """Someone by the name in play: their character's, else their own (the GM).

    ``introduce`` adds the player's own name, "Birch (Alice)" (core.rules.names).
    """
    seat = table.seat(player_id)
    if seat is None:
        return "someone who left"
    sheet = _safe_sheet(table, player_id)
    character = sheet.name if sheet is not None and sheet.name else None
    return esc(in_play(character, seat.name, introduce=introduce))


def _safe_sheet(table: Table, player_id: int) -> CharacterSheet | None:
    try:
        return sheet_of(table, player_id)
    except Malformed:
        return None


class RestRenderer:
    """A finished long rest: each character's recovery checks and what healed."""

    kind = REST_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        state = view.typed(RestPanelState)
        skill = esc(state.skill)
        lines = [f"🛌 <b>Long rest</b> — recovery checks: difficulty {state.difficulty} {skill}"]
        rested = state.rested
        if not rested:
            lines.append("Nobody at the table has a character yet.")
        for entry in rested:
            lines.extend(rest_lines(view.table, entry))
        lines.append("")
        lines.append(pool_line(pool_counts(view.table.state)))
        return "\n".join(lines), None


def rest_lines(table: Table, entry: Rested) -> list[str]:
    name = esc(entry.name)
    strain, before = entry.strain_before, entry.wounds_before
    after = entry.wounds_after
    checks = entry.checks
    if not strain and not checks:
        return [f"\n<b>{name}</b>: rested, nothing to heal."]
    lines = [f"\n<b>{name}</b>: strain {strain} → 0"]
    if checks:
        rolls = ", ".join(f"{c.total} {'✅' if c.success else '❌'}" for c in checks)
        lines.append(f"Recovery checks: {rolls}")
    band = band_for(after)
    band_text = "" if band is WoundBand.UNHURT else f" — {band.label}"
    lines.append(f"Wounds {before} → {after}/{MAX_WOUNDS}{band_text}")
    lines.extend(line for e in entry.log if (line := log_line(table, e, name)) is not None)
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
