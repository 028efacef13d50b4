"""How d20 checks, long rests and the plot point pool look in the chat.

Pure: panel state and rules data in, HTML and buttons out. Which buttons exist
and who may press them comes from ``CheckPanelState.choices``; this module only
words and lays them out.
"""

from __future__ import annotations

from functools import singledispatchmethod

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.rules.choice import Choice
from core.rules.d20check import SYSTEM as D20
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
from core.rules.d20check.events import (
    GameMasterPicksEffect,
    HarmChanged,
    PlotPointSpent,
    PlotPointTurned,
    RollReason,
    WoundsRecovered,
)
from core.rules.d20check.log import CheckEnded, LogEntry, RollMade
from core.rules.d20check.plot_points import PlotPointKind
from core.rules.d20check.rest import DEFAULT_RECOVERY_SKILL
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
from core.rules.names import in_play
from core.rules.table import Table
from core.words.i18n import N_, Lang, lang_for
from tgbot.panels import button, keyboard
from tgbot.render.layout import fit_name, grid, named, phone_rows
from tgbot.render.text import esc, now_line

EN = lang_for("en")
STRENGTH_TEXT = {
    AbilityStrength.WEAK: N_("Weak ability (2d20, keep the lower)"),
    AbilityStrength.AVERAGE: N_("Average ability (1d20)"),
    AbilityStrength.STRONG: N_("Strong ability (2d20, keep the higher)"),
}
STRENGTH_BUTTON = {
    AbilityStrength.WEAK: N_("Weak"),
    AbilityStrength.AVERAGE: N_("Average"),
    AbilityStrength.STRONG: N_("Strong"),
}
BAND_EFFECT = {
    WoundBand.UNHURT: "",
    WoundBand.EXHAUSTED: N_("heals without trouble"),
    WoundBand.INJURED: N_("+1 strain on a failed check"),
    WoundBand.SEVERELY_INJURED: N_("+1 strain on every check"),
    WoundBand.DYING: N_("+1 strain on every check, +2 on a failure"),
    WoundBand.NEAR_DEATH: N_("a near-death experience"),
}
ROLL_TITLE = {
    RollReason.FIRST: N_("Roll"),
    RollReason.RETRY: N_("🍀 Lucky retry"),
    RollReason.REROLL: N_("🌀 Unlucky reroll"),
    RollReason.FORCED_REROLL: N_("🎭 Forced reroll"),
    RollReason.GM_REROLL: N_("🎭 GM reroll"),
}
OUTCOME_TEXT = {
    Outcome.SUCCESS: N_("✅ Success"),
    Outcome.FAILURE: N_("❌ Failure"),
    Outcome.TIE: N_("🤝 Tie"),
}
TICK = "✓ "
SKILL_NAMES = {DEFAULT_RECOVERY_SKILL: N_("Fortitude")}


def band_label(band: WoundBand, lang: Lang) -> str:
    """A wound band's name (Exhausted .. Near-Death Experience) in ``lang``."""
    return lang.gettext(band.label)


def name_of(table: Table, player_id: int, lang: Lang) -> str:
    """A member's name, escaped (for message text)."""
    seat = table.seat(player_id)
    return esc(seat.name) if seat is not None else lang.gettext("someone who left")


def short_name(table: Table, player_id: int) -> str:
    """A member's name for a button label (plain text, as much of it as fits in whole words)."""
    seat = table.seat(player_id)
    return fit_name(seat.name, 16) if seat is not None else "?"


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def pool_line(pool: PoolCounts, lang: Lang) -> str:
    """The shared pool: 🍀 lucky and 🌑 unlucky points."""
    pips = "🍀" * pool.lucky + "🌑" * pool.unlucky
    return lang.gettext(
        "Plot points: {pips} {lucky} lucky · {unlucky} unlucky",
        pips=pips,
        lucky=pool.lucky,
        unlucky=pool.unlucky,
    )


def harm_line(name: str, sheet: CharacterSheet, lang: Lang) -> str:
    """Strain and wounds with the band and what it does to checks."""
    band = sheet.band
    effect = BAND_EFFECT[band]
    text = lang.gettext(
        "❤️ {name}: strain {strain}/{max_strain} · wounds {wounds}/{max_wounds}",
        name=name,
        strain=sheet.strain,
        max_strain=MAX_STRAIN,
        wounds=sheet.wounds,
        max_wounds=MAX_WOUNDS,
    )
    if band is not WoundBand.UNHURT:
        text += f" — <b>{band_label(band, lang)}</b>" + (
            f" ({lang.gettext(effect)})" if effect else ""
        )
    return text


def setup_text(setup: CheckSetup, lang: Lang) -> str:
    parts = [lang.gettext(STRENGTH_TEXT[setup.ability])]
    parts.append(lang.gettext("proficiency {bonus}", bonus=signed(setup.proficiency)))
    if setup.advantages or setup.disadvantages:
        die = setup.die
        net = (
            lang.gettext("they cancel out")
            if die is None
            else f"{'+' if die.is_advantage else '−'}d{die.sides}"
        )
        parts.append(
            lang.gettext(
                "{adv} adv, {dis} dis: {net}",
                adv=setup.advantages,
                dis=setup.disadvantages,
                net=net,
            )
        )
    return " · ".join(parts)


def target_text(check: CheckFlow, lang: Lang) -> str:
    if isinstance(check.target, Difficulty):
        return lang.gettext("🎯 Difficulty <b>{dc}</b>", dc=check.target.value)
    return lang.gettext("⚔️ Contest against <b>{result}</b>", result=check.target.result)


def roll_text(roll: CheckRoll) -> str:
    """The dice of one roll: the kept d20 in bold, a dropped one struck out."""
    kept_index = roll.kept_index
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


def log_line(table: Table, entry: LogEntry, roller: str, lang: Lang = EN) -> str | None:
    """One logged event in words, or None for those shown elsewhere."""
    return CheckLogLine(table, roller, lang).text(entry)


class CheckLogLine:
    """A check's logged events as lines of its panel: one method per kind of entry.

    Every kind the log keeps (:data:`~core.rules.d20check.log.LogEntry`) has its method;
    rolls and the check's end are shown by the panel's dice and result lines (None here).
    """

    def __init__(self, table: Table, roller: str, lang: Lang) -> None:
        self.table, self.roller, self.lang = table, roller, lang

    @singledispatchmethod
    def text(self, entry: object) -> str | None:
        """One entry as a line of the panel (None for one shown elsewhere)."""
        raise TypeError(f"no check line for {type(entry).__name__}")

    @text.register(RollMade)
    @text.register(CheckEnded)
    @text.register(WoundsRecovered)
    def _shown_elsewhere(self, entry: object) -> str | None:
        return None

    @text.register
    def _spent(self, entry: PlotPointSpent) -> str | None:
        who = _in_play(self.table, entry.by, self.lang)
        if entry.kind is PlotPointKind.LUCKY:
            return self.lang.gettext("💫 {name} spent a lucky point (it turns unlucky).", name=who)
        return self.lang.gettext("💫 {name} spent an unlucky point (it turns lucky).", name=who)

    @text.register
    def _turned(self, entry: PlotPointTurned) -> str | None:
        if entry.now is PlotPointKind.LUCKY:
            return self.lang.gettext("🌟 Natural 20! An unlucky point turns lucky.")
        return self.lang.gettext("💥 Natural 1! A lucky point turns unlucky.")

    @text.register
    def _gm_picks(self, entry: GameMasterPicksEffect) -> str | None:
        return self.lang.gettext(
            "🎭 Natural {natural}, and no point to turn: the GM picks another twist.",
            natural=str(entry.natural.value),
        )

    @text.register
    def _harm(self, entry: HarmChanged) -> str | None:
        """Strain and wounds before and after, and wounds past the last box."""
        lang = self.lang
        parts = []
        if entry.strain_before != entry.strain_after:
            parts.append(
                lang.gettext(
                    "strain {before} → {after}",
                    before=entry.strain_before,
                    after=entry.strain_after,
                )
            )
        if entry.wounds_before != entry.wounds_after:
            parts.append(
                lang.gettext(
                    "wounds {before} → {after}",
                    before=entry.wounds_before,
                    after=entry.wounds_after,
                )
            )
        line = f"🩸 {self.roller}: " + (", ".join(parts) or lang.gettext("no change")) + "."
        lost = entry.wounds_lost_past_limit
        if lost:
            line += " " + lang.ngettext(
                "({num} more wound past the last box.)",
                "({num} more wounds past the last box.)",
                lost,
            )
        return line


def next_step(table: Table, check: CheckFlow, pool: PoolCounts, lang: Lang) -> str:
    if check.phase is Phase.SETUP:
        return lang.gettext(
            "<i>{name} sets up the check, then rolls.</i>",
            name=_in_play(table, check.roller, lang),
        )
    if check.phase is Phase.ROLLER_DECIDES:
        roller = _in_play(table, check.roller, lang)
        result = check.result
        if result is not None and result.succeeded:
            return lang.gettext(
                "<i>Any player may spend an unlucky point to reroll this success; "
                "{name} keeps it to go on.</i>",
                name=roller,
            )
        return lang.gettext(
            "<i>{name} may spend a lucky point to retry, or keep the result.</i>", name=roller
        )
    if check.phase is Phase.GM_DECIDES:
        gm = name_of(table, check.game_master, lang)
        return lang.gettext(
            "<i>The GM ({name}) may spend an unlucky point to reroll, or let it stand.</i>",
            name=gm,
        )
    return lang.gettext("<i>The result stands.</i>")


_PHRASES = {
    ActionKind.SET_UP: N_("set up the check"),
    ActionKind.ROLL: N_("roll"),
    ActionKind.RETRY: N_("spend a lucky point to retry"),
    ActionKind.REROLL: N_("spend an unlucky point to reroll the success"),
    ActionKind.KEEP: N_("keep the result"),
    ActionKind.FORCE_REROLL: N_("spend an unlucky point to force a reroll"),
    ActionKind.GM_REROLL: N_("spend a point to reroll"),
}
_SETUP_PHRASES = {
    SetupVerb.OPEN: N_("set up the check"),
    SetupVerb.BACK: N_("go back"),
    SetupVerb.ABILITY: N_("pick the ability"),
    SetupVerb.PROFICIENCY: N_("set the bonuses"),
    SetupVerb.ADVANTAGES: N_("set the bonuses"),
    SetupVerb.DISADVANTAGES: N_("set the bonuses"),
    SetupVerb.TARGET: N_("set the difficulty"),
}


def _phrase(choice: PanelChoice) -> str:
    if isinstance(choice.verb, SetupVerb):
        return _SETUP_PHRASES[choice.verb]
    return _PHRASES[choice.verb]


def _head(table: Table, panel: CheckPanelState, lang: Lang) -> str:
    """Who makes the check (the GM for an NPC), and its label."""
    check = panel.check
    if check.is_gm_check:
        head = lang.gettext("🎲 <b>The GM</b> rolls an NPC check")
    else:
        head = lang.gettext(
            "🎲 <b>{name}</b> makes a check", name=_in_play(table, check.roller, lang, True)
        )
    if panel.label:
        head += f" — <i>{esc(panel.label)}</i>"
    return head


def _roll_lines(panel: CheckPanelState, lang: Lang) -> list[str]:
    """Each roll, titled by why it was rolled; the rolls replaced struck through."""
    check = panel.check
    reasons = [e.reason for e in panel.log if isinstance(e, RollMade)]
    lines = []
    for index, roll in enumerate(check.rolls):
        reason = reasons[index] if index < len(reasons) else RollReason.FIRST
        title = lang.gettext(ROLL_TITLE.get(reason, ROLL_TITLE[RollReason.FIRST]))
        if index < len(check.rolls) - 1:
            lines.append(f"<s>{title}: {roll_text(roll)}</s>")
        else:
            lines.append(f"{title}: {roll_text(roll)}")
    return lines


class CheckRenderer:
    """The check panel: set-up, dice, kept d20, total, margin, outcome, pool and harm."""

    kind = CHECK_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        table = view.table
        panel = view.typed(CheckPanelState)
        check = panel.check
        pool = pool_counts(table.state)
        roller = _in_play(table, check.roller, lang)
        lines = [_head(table, panel, lang), target_text(check, lang), setup_text(check.setup, lang)]
        lines += _roll_lines(panel, lang)
        result = check.result
        if result is not None:
            lines.append(
                lang.gettext(
                    "<b>{outcome}</b> — margin {margin}",
                    outcome=lang.gettext(OUTCOME_TEXT[result.outcome]),
                    margin=signed(result.margin),
                )
            )
        lines.extend(
            line for e in panel.log if (line := log_line(table, e, roller, lang)) is not None
        )
        lines.append("")
        lines.append(pool_line(pool, lang))
        sheet = None if check.is_gm_check else _safe_sheet(table, check.roller)
        if sheet is not None:
            lines.append(harm_line(roller, sheet, lang))
        lines.append(next_step(table, check, pool, lang))
        named = None if check.is_gm_check else check.roller  # with their player in the head
        now = now_line(
            D20.panel(CHECK_PANEL).waiting(table, panel).choices,
            lambda p: _in_play(table, p, lang, p != named),
            lambda c: lang.gettext(_phrase(c)),
            lang=lang,
        )
        if now and not view.closed:
            lines.append(now)
        return "\n".join(lines), self.buttons(view, panel, pool, lang)

    def buttons(
        self, view: PanelView, panel: CheckPanelState, pool: PoolCounts, lang: Lang = EN
    ) -> InlineKeyboardMarkup | None:
        check = panel.check
        if check.is_over or not pool.ready:
            return None
        rows: list[list[InlineKeyboardButton]] = []
        if check.phase is Phase.SETUP:
            rows += setup_rows(view, panel, lang)
            if panel.menu is not None:
                return keyboard(rows)  # the open group and Back, nothing else
        acting: dict[int, set[ActionKind]] = {}
        for choice in panel.choices(pool.playable()):
            if isinstance(choice.verb, ActionKind):
                for person in sorted(choice.by, key=lambda p: (p != check.roller, p)):
                    acting.setdefault(person, set()).add(choice.verb)
        # Anyone at the table may reroll a success (ruling 25): one button for all.
        others = {p for p, a in acting.items() if p != check.roller and a == {ActionKind.REROLL}}
        for person, actions in acting.items():
            if person in others:
                continue
            name = short_name(view.table, person)
            row = decision_row(view, check, frozenset(actions), name, bool(others), lang)
            rows += phone_rows(row)
        return keyboard(rows)


STEPPER_NAME = {
    SetupVerb.PROFICIENCY: N_("Prof"),
    SetupVerb.ADVANTAGES: N_("Adv"),
    SetupVerb.DISADVANTAGES: N_("Dis"),
}
ABILITY_BUTTON = {
    AbilityStrength.WEAK: N_("💪 Weak ability"),
    AbilityStrength.AVERAGE: N_("💪 Average ability"),
    AbilityStrength.STRONG: N_("💪 Strong ability"),
}


def setup_label(choice: Choice[SetupVerb], check: CheckFlow, lang: Lang = EN) -> str:
    """A set-up button's text: a group with its current values, an option or a step."""
    verb, setup = choice.verb, check.setup
    difficulty = isinstance(check.target, Difficulty)
    if verb is SetupVerb.OPEN:
        menu = SetupMenu(choice.argument)
        if menu is SetupMenu.ABILITY:
            return lang.gettext(ABILITY_BUTTON[setup.ability])
        if menu is SetupMenu.MODIFIERS:
            return lang.gettext(
                "⚖️ Prof {prof} · Adv {adv} · Dis {dis}",
                prof=setup.proficiency,
                adv=setup.advantages,
                dis=setup.disadvantages,
            )
        target = check.target
        if isinstance(target, Difficulty):
            return lang.gettext("🎯 DC {dc}", dc=target.value)
        return lang.gettext("🎯 Vs {result}", result=target.result)
    if verb is SetupVerb.BACK:
        return lang.gettext("⬅️ Back")
    if verb is SetupVerb.ABILITY:
        tick = TICK if choice.selected else ""
        return tick + lang.gettext(STRENGTH_BUTTON[AbilityStrength(choice.argument)])
    if verb in STEPPER_NAME:
        name = lang.gettext(STEPPER_NAME[verb])
    else:
        name = lang.gettext("DC") if difficulty else lang.gettext("Vs")
    step = str(choice.count) if choice.count > 1 else ""
    return f"{name} {choice.name}{step}"


def setup_rows(
    view: PanelView, panel: CheckPanelState, lang: Lang = EN
) -> list[list[InlineKeyboardButton]]:
    """The set-up groups, or the open group's options (like steppers side by side) and Back."""
    rows: list[list[InlineKeyboardButton]] = []
    run: list[InlineKeyboardButton] = []
    last: SetupVerb | None = None
    for choice in panel.setup_choices():
        label = setup_label(choice, panel.check, lang)
        b = button(view, label, choice.verb.value, choice.argument)
        if run and (choice.verb is not last or choice.verb is SetupVerb.OPEN):
            rows += grid(run, 4)
            run = []
        run.append(b)
        last = choice.verb
    if run:
        rows += grid(run, 4)
    return rows


DECISION_LABEL = {
    ActionKind.ROLL: N_("🎲 Roll ({name})"),
    ActionKind.RETRY: N_("🍀 Lucky retry ({name})"),
    ActionKind.REROLL: N_("🌀 Unlucky reroll ({name})"),
    ActionKind.FORCE_REROLL: N_("🎭 Force a reroll ({name})"),
    ActionKind.GM_REROLL: N_("🎭 Unlucky reroll ({name})"),
}
ANYONE_REROLLS = N_("🌀 Unlucky reroll (any player)")
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
    anyone_rerolls: bool = False,
    lang: Lang = EN,
) -> list[InlineKeyboardButton]:
    """The buttons that move the check on, each labelled with who may press it.

    ``anyone_rerolls``: any player may press the reroll button, not only ``name``.
    """
    row = []
    for action in DECISION_ORDER:
        if action not in actions:
            continue
        if action is ActionKind.REROLL and anyone_rerolls:
            row.append(button(view, lang.gettext(ANYONE_REROLLS), action.value))
            continue
        if action is ActionKind.KEEP:
            if check.phase is Phase.ROLLER_DECIDES:
                label = lang.gettext("✋ Keep it ({name})", name="{}")
            else:
                label = lang.gettext("✅ Let it stand ({name})", name="{}")
        else:
            label = lang.gettext(DECISION_LABEL[action], name="{}")
        row.append(button(view, named(label, name), action.value))
    return row


def _in_play(table: Table, player_id: int, lang: Lang, introduce: bool = False) -> str:
    """Someone by the name in play: their character's, else their own (the GM).

    ``introduce`` adds the player's own name, "Birch (Alice)" (core.rules.names).
    """
    seat = table.seat(player_id)
    if seat is None:
        return lang.gettext("someone who left")
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
        skill = state.skill
        skill = esc(lang.gettext(SKILL_NAMES[skill]) if skill in SKILL_NAMES else skill)
        lines = [
            lang.gettext(
                "🛌 <b>Long rest</b> — recovery checks: difficulty {dc} {skill}",
                dc=state.difficulty,
                skill=skill,
            )
        ]
        rested = state.rested
        if not rested:
            lines.append(lang.gettext("Nobody at the table has a character yet."))
        for entry in rested:
            lines.extend(rest_lines(view.table, entry, lang))
        lines.append("")
        lines.append(pool_line(pool_counts(view.table.state), lang))
        return "\n".join(lines), None


def rest_lines(table: Table, entry: Rested, lang: Lang = EN) -> list[str]:
    name = esc(entry.name)
    strain, before = entry.strain_before, entry.wounds_before
    after = entry.wounds_after
    checks = entry.checks
    if not strain and not checks:
        return ["\n" + lang.gettext("<b>{name}</b>: rested, nothing to heal.", name=name)]
    lines = ["\n" + lang.gettext("<b>{name}</b>: strain {strain} → 0", name=name, strain=strain)]
    if checks:
        rolls = ", ".join(f"{c.total} {'✅' if c.success else '❌'}" for c in checks)
        lines.append(lang.gettext("Recovery checks: {rolls}", rolls=rolls))
    band = band_for(after)
    band_text = "" if band is WoundBand.UNHURT else f" — {band_label(band, lang)}"
    lines.append(
        lang.gettext(
            "Wounds {before} → {after}/{max_wounds}",
            before=before,
            after=after,
            max_wounds=MAX_WOUNDS,
        )
        + band_text
    )
    lines.extend(line for e in entry.log if (line := log_line(table, e, name, lang)) is not None)
    return lines


POOL_RULES = N_(
    "🍀 Lucky: the roller may spend one to retry a failed check.\n"
    "🌑 Unlucky: any player may spend one to reroll a success; the GM may spend one "
    "to reroll their own check, or to make a player who spent nothing roll again.\n"
    "No limit per check: as long as the pool has a point of the kind, it can be spent.\n"
    "A spent point flips. A natural 1 turns a lucky point unlucky, a natural 20 the reverse."
)


def pool_text(table: Table, lang: Lang = EN) -> str:
    """/pool: the shared pool, what each kind does, and everyone's strain and wounds."""
    pool = pool_counts(table.state)
    lines = [f"<b>{pool_line(pool, lang)}</b>"]
    if not pool.ready:
        lines.append(
            lang.gettext("Plot points start when a player joins: one per person, GM included.")
        )
    lines.append(lang.gettext(POOL_RULES))
    for player_id in sorted(table.seats):
        sheet = _safe_sheet(table, player_id)
        if sheet is not None:
            lines.append(harm_line(name_of(table, player_id, lang), sheet, lang))
    return "\n".join(lines)


RENDERERS = (CheckRenderer(), RestRenderer())
