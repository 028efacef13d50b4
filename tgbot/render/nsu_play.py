"""How NSU play looks in the chat: the Action Roll panel, downtime, and /odds.

Pure text and buttons from rules data: who may press what comes from
:func:`~core.rules.nsu.action_roll.expected` and the panels' own queries, and
every button is labelled with whose it is. All user text goes through ``esc``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.i18n import Lang
from core.rules.choice import Choice
from core.rules.names import in_play
from core.rules.nsu.action_roll import (
    ActionKind,
    AddedDetail,
    DetailGrant,
    Effect,
    EffectKind,
    Outcome,
    PendingKind,
    Phase,
    Pool,
    PoolKind,
    RollState,
    TargetKind,
    expected,
)
from core.rules.nsu.details import DetailKind, Polarity
from core.rules.nsu.odds import Odds, OddsQuery
from core.rules.nsu.play_table import campaign_of
from core.rules.nsu.roll_choices import (
    OWN_DIE,
    AfterRoll,
    detail_choices,
    help_may_come,
    helper_die_choices,
    keep_choices,
    roll_choices,
)
from core.rules.nsu.roll_panel import ROLL_PANEL, SKIP, TICK, UNTICK, RollPanel
from core.rules.nsu.terms import Aspect, Edge, ResultRow, Risk, Side, Winner
from core.rules.table import Table
from tgbot.panels import button, keyboard
from tgbot.render.layout import MAX_BUTTONS, phone_rows
from tgbot.render.nsu import safety_row
from tgbot.render.text import esc, now_line

ROW_TEXT = {
    ResultRow.EACH_SIDE: "Each side adds one hard detail.",
    ResultRow.WIN_WITH_COST: "The winners add a hard detail, but an ally adds a hard negative one.",
    ResultRow.WIN: "The winners add one hard detail.",
    ResultRow.WIN_WITH_SCENE: "The winners add a hard detail and a scene detail.",
    ResultRow.WIN_WITH_ALLY: "The winners add a hard detail, and so does an ally.",
    ResultRow.BIG_WIN: "The winners add two hard details.",
}
EDGE_TEXT = {Edge.NONE: "", Edge.ADVANTAGE: " (advantage)", Edge.DISADVANTAGE: " (disadvantage)"}
SENTIMENT_TEXT = {"connected": "connected", "at_risk": "at risk", "lost": "lost"}
DETAIL_HELP = (
    "↩️ Reply to this message with a detail: <code>Knocked out @ The guard</code>, "
    "<code>harm: Sprained ankle</code> (on the roller), <code>scene: Bridge down</code>, "
    "<code>+Trusted @ Ben</code>. Or skip it as a soft detail told at the table."
)


def player_name(table: Table, player: int | None) -> str:
    """A member's name as Telegram shows it, escaped."""
    seat = None if player is None else table.seat(player)
    return esc(seat.name) if seat is not None else "someone who left"


def who(roll: RollState, table: Table, player: int, introduce: bool = False) -> str:
    """A character's name, escaped; a player's name for Arbiters without one here.

    ``introduce`` adds the player's own name ("Birch (Alice)"): on first mention
    and where they must act (the naming rule in core.rules.names).
    """
    seat = table.seat(player)
    own = seat.name if seat is not None else "someone who left"
    for p in roll.participants:
        if p.player == player:
            return esc(in_play(p.character.name, own, introduce=introduce))
    return esc(own)


def names(roll: RollState, table: Table, players: frozenset[int], introduce: bool = False) -> str:
    return ", ".join(sorted(who(roll, table, p, introduce) for p in players)) or "nobody"


def _label(text: str) -> str:
    """Button labels are plain text (no HTML), kept short."""
    return text if len(text) <= 60 else text[:59] + "…"


# -- the Action Roll --------------------------------------------------------------


class NsuRollRenderer:
    kind = ROLL_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        panel = view.typed(RollPanel)
        table = view.table
        text = "\n".join(roll_lines(panel.roll, table, clock=panel.card is not None))
        more = _after_lines(panel, table)
        if more:
            text += "\n" + "\n".join(more)
        if view.closed:
            return text, None
        now = roll_now_line(panel, table)
        if now:
            text += "\n" + now
        markup = keyboard([*roll_buttons(view, panel), safety_row(view.table.campaign_id)])
        return text, markup


_PHRASES = {
    ActionKind.STATE_OUTCOME: "reply with what they hope to achieve",
    ActionKind.CHOOSE_ASPECT: "pick the aspect",
    ActionKind.CHOOSE_RISK: "say what is at risk",
    ActionKind.CHOOSE_MOOD: "pick a mood",
    ActionKind.SET_ASPECT_EDGE: "say which details help or hinder",
    ActionKind.CHOOSE_SKILL: "pick a skill",
    ActionKind.CREATE_SKILL: "write a new skill",
    ActionKind.RISK_SENTIMENT: "risk a sentiment",
    ActionKind.ROLL: "roll",
    ActionKind.HELP: "help with a mood",
    ActionKind.KEEP_DIE: "pick which die to keep",
    ActionKind.TAKE_HELPER_DIE: "keep their own mood die or take a helper's",
    ActionKind.CHOOSE_SKILL_SIGN: "add or take away their skill",
    ActionKind.RENAME_MOOD: "reply with the mood's stronger name",
    ActionKind.ENDANGER_SENTIMENT: "mark a sentiment",
    ActionKind.CANCEL: "call the roll off",
}


def roll_now_line(panel: RollPanel, table: Table) -> str:
    """The roll's last line: who acts now and what they choose between."""
    roll = panel.roll
    choices: list[Choice[Any]] = [*roll_choices(roll), *detail_choices(panel)]
    helped = sum(c.verb is ActionKind.TAKE_HELPER_DIE for c in choices) > 1

    def phrase(choice: Choice[Any]) -> str:
        if choice.verb is AfterRoll.ADD_DETAIL:
            return f"reply with detail {choice.count}"
        if choice.verb is AfterRoll.SKIP_DETAIL:
            return f"skip detail {choice.count}"
        if choice.verb is ActionKind.TAKE_HELPER_DIE and not helped:
            return "keep their own mood die"
        return _PHRASES[choice.verb]

    return now_line(choices, lambda p: who(roll, table, p, True), phrase, {ActionKind.CANCEL})


def roll_lines(roll: RollState, table: Table, clock: bool = True) -> list[str]:
    """Everything about the roll so far, step by step; ``clock``: it happens at a location
    whose Collateral Clock its details tick."""
    sheet = roll.sheet
    lines = [f"🎲 <b>Action Roll</b>: {esc(sheet.name)} ({player_name(table, roll.roller)})"]
    if roll.desired_outcome:
        lines.append(f"🎯 <i>{esc(roll.desired_outcome)}</i>")
    lines.append(f"⚖️ Arbiters: {names(roll, table, roll.arbiters)}")
    if roll.allies:
        lines.append(f"🧭 On screen with them: {names(roll, table, roll.allies, True)}")
    for p in roll.participants:
        if p.character.overcome:
            lines.append(
                f"💀 {esc(p.character.name)} is Overcome: they can't act or help "
                "until a harm is recovered."
            )
    if roll.aspect is not None or roll.risk is not None:
        parts = []
        if roll.aspect is not None:
            die = sheet.aspect_die(roll.aspect)
            parts.append(f"Aspect: {roll.aspect.value.title()} {die.label}")
        if roll.risk is not None:
            parts.append("At risk: the " + ("World" if roll.risk is Risk.WORLD else "Character"))
        lines.append(" · ".join(parts))
    if roll.mood_line is not None:
        mood = sheet.moods[roll.mood_line]
        lines.append(
            f"Mood: {esc(mood.name or '')} {mood.die.label}, level {mood.level}/{mood.die.boxes}"
            f"{EDGE_TEXT[roll.mood_edge]}"
        )
    if roll.aspect_edge is not None:
        listed = [f"+{esc(d)}" for d in roll.favouring] + [f"−{esc(d)}" for d in roll.hindering]
        edge = EDGE_TEXT[roll.aspect_edge]
        if roll.favouring and roll.hindering:
            edge = " (for and against cancel out)"
        lines.append("Details: " + ("; ".join(listed) if listed else "none apply") + edge)
    if roll.skill is not None:
        skill = sheet.skills[roll.skill]
        lines.append(f"Skill: {esc(skill.name)} ±{skill.modifier}")
    if roll.risked_sentiment is not None:
        lines.append(f"Risking: {esc(sheet.sentiments[roll.risked_sentiment].name or '')}")
    if roll.aspect_pool is not None and roll.mood_pool is not None:
        lines.append("🎲 " + " · ".join(_pool_text(roll, table, p) for p in _pools(roll)))
    if roll.outcome is not None:
        lines += outcome_lines(roll, table, roll.outcome, clock)
    if roll.effects:
        lines.append("Mood effects:")
        lines += [f"• {effect_text(roll, table, e)}" for e in roll.effects]
    if roll.phase is Phase.CANCELLED:
        lines.append("✖️ Called off: no dice, and every sheet is as it was.")
    return lines


def _pools(roll: RollState) -> list[Pool]:
    pools = [p for p in (roll.aspect_pool, roll.mood_pool) if p is not None]
    return pools + [h.pool for h in roll.helps]


def _pool_text(roll: RollState, table: Table, pool: Pool) -> str:
    if pool.kind is PoolKind.HELP:
        help_roll = roll.help_by(pool.owner)
        line = help_roll.line if help_roll is not None else 0
        mood = roll.character(pool.owner).moods[line]
        head = f"🤝 {who(roll, table, pool.owner)}'s {esc(mood.name or '')} {pool.die.label}"
        if roll.help_decided:
            head += " (taken)" if roll.helper_used == pool.owner else " (not taken)"
    else:
        head = f"{pool.kind.value.title()} {pool.die.label}"
    faces = [
        f"<b>{f}</b>" if pool.kept == i and len(pool.faces) > 1 else str(f)
        for i, f in enumerate(pool.faces)
    ]
    shown = " | ".join(faces)
    if len(pool.faces) > 1:
        shown += " → keep ?" if pool.kept is None else f" → {pool.face}"
    return f"{head}: {shown}"


def outcome_lines(roll: RollState, table: Table, outcome: Outcome, clock: bool = True) -> list[str]:
    """The dice, the difference, the results row, the winner and the grants."""
    aspect = f"{outcome.aspect_face}"
    if outcome.skill_shift:
        aspect += f" {'+' if outcome.skill_shift > 0 else '−'} {abs(outcome.skill_shift)}"
        aspect += f" = {outcome.aspect_total}"
    mood_owner = (
        "" if outcome.helper_used is None else f" ({who(roll, table, outcome.helper_used)}'s)"
    )
    winner = {
        Winner.PLAYER: f"{esc(roll.sheet.name)} wins",
        Winner.ARBITERS: "the Arbiters win",
        Winner.TIE: "a tie",
    }[outcome.winner]
    lines = [
        f"<b>Aspect {aspect} vs Mood {outcome.mood_face}{mood_owner}</b>: difference "
        f"{outcome.difference}, {winner}.",
        f"📋 Row {int(outcome.row)}{'+' if outcome.row is ResultRow.BIG_WIN else ''}: "
        f"{ROW_TEXT[outcome.row]}",
    ]
    if outcome.row in (ResultRow.WIN_WITH_COST, ResultRow.WIN_WITH_ALLY) and not any(
        g.by_ally for g in outcome.grants
    ):
        lines.append("No ally is on screen, so the ally's detail is not added.")
    added = {a.grant: a for a in roll.added}
    lines.append("Details to add:")
    for index, grant in enumerate(outcome.grants):
        state = _grant_state(roll, table, added.get(index))
        lines.append(f"{index + 1}. {grant_text(roll, table, grant)} — {state}")
    if outcome.suggested_collateral_ticks and clock:
        lines.append("🕰 The World was at risk: each detail added ticks the Collateral Clock.")
    return lines


def grant_text(roll: RollState, table: Table, grant: DetailGrant) -> str:
    kind = "a scene detail" if grant.kind is DetailKind.SCENE else "a hard detail"
    if grant.polarity is Polarity.NEGATIVE:
        kind = "a hard negative detail"
    side = "the Arbiters" if grant.side is Side.ARBITERS else esc(roll.sheet.name)
    adders = names(roll, table, grant.adders)
    if grant.by_ally and not set(grant.adders) <= set(roll.arbiters):
        return f"{adders} (an ally of {side}) add{'s' if len(grant.adders) == 1 else ''} {kind}"
    return f"{adders} add{'s' if len(grant.adders) == 1 else ''} {kind}"


def _grant_state(roll: RollState, table: Table, added: AddedDetail | None) -> str:
    if added is None:
        return "waiting"
    detail = added.detail
    target = added.target
    if target.kind is TargetKind.CHARACTER and target.player is not None:
        where = f"on {who(roll, table, target.player)}"
    elif target.kind is TargetKind.SCENE:
        where = "on the scene"
    else:
        where = f"on {esc(target.name)}"
    sign = "+" if detail.polarity is Polarity.POSITIVE else "−"
    kind = "harm" if added.harm else detail.kind.value
    return f"✅ {sign}<b>{esc(detail.name)}</b> ({kind}) {where}"


def effect_text(roll: RollState, table: Table, effect: Effect) -> str:
    name = who(roll, table, effect.player)
    sheet = roll.character(effect.player)
    if effect.kind is EffectKind.SKILL_MARKED:
        skill = sheet.skills[effect.index].name if effect.index < len(sheet.skills) else "a skill"
        return f"{name} marks {esc(skill)} ({esc(effect.note)})."
    if effect.kind is EffectKind.SENTIMENT_SLIPPED:
        sentiment = sheet.sentiments[effect.index].name or "a sentiment"
        state = SENTIMENT_TEXT.get(effect.note, effect.note)
        return f"{name}'s sentiment {esc(sentiment)} is now {state}."
    if effect.kind is EffectKind.MOOD_RENAMED:
        old, _, new = effect.note.partition(" -> ")
        return f"{name}'s {esc(old)} becomes {esc(new)}."
    mood = esc(sheet.moods[effect.index].name or "a mood")
    return {
        EffectKind.OVERLOADED: f"{name}'s {mood} is overloaded!",
        EffectKind.OVERLOAD_ENDED: f"{name} leaves the overloaded {mood} behind.",
        EffectKind.BOXES_CLEARED: f"{name} clears the boxes of {mood}.",
        EffectKind.TRACK_FILLED: f"{name}'s {mood} track is full: it resets and grows stronger.",
    }.get(effect.kind, "")


def _after_lines(panel: RollPanel, table: Table) -> list[str]:
    roll = panel.roll
    lines: list[str] = []
    if panel.card is not None and roll.outcome is not None:
        world = campaign_of(table).world
        if world is not None:
            card = world.card(panel.card)
            lines.append(f"🕰 Collateral Clock at {esc(card.title)}: {card.clock.ticks}/8")
    if roll.phase is Phase.DONE and panel.open_grants:
        lines.append(DETAIL_HELP)
    lines += roll_hints(roll, table)
    return lines


def roll_hints(roll: RollState, table: Table) -> list[str]:
    """What to do next in the roll's own steps, naming who does it."""
    phase = roll.phase
    name = esc(roll.sheet.name)
    if phase is Phase.DESIRED_OUTCOME:
        return [f"↩️ {name}: reply to this message with what you want to happen."]
    if phase is Phase.STAKES:
        return ["⚖️ Arbiters: pick the aspect and say what is most at risk."]
    if phase is Phase.MOOD:
        return [
            f"{name}: pick your mood; it goes up one box now. To write a new "
            "one on an open line, reply <code>d6 Giddy</code>."
        ]
    if phase is Phase.ASPECT_EDGE:
        return [
            "Do details help or hinder? Reply <code>+Rope; -Rain</code> "
            "(+ helps, − hinders), or tap “No details apply”."
        ]
    if phase is Phase.PREPARE:
        return [
            f"{name}: pick a skill (or reply with a new one), "
            "risk a sentiment for Mood Advantage if you like, then roll."
        ]
    open_now = {e.kind: e.players for e in expected(roll)}
    lines: list[str] = []
    if ActionKind.HELP in open_now:
        how = "tap your mood (or reply" if help_buttons_fit(roll) else "reply with your mood ("
        lines.append(f"🤝 Allies on screen may help: {how} <code>d6 Giddy</code>).")
    keeps = keep_choices(roll)
    for pool_name in dict.fromkeys((c.who, c.name) for c in keeps):
        picker, what = pool_name
        lines.append(
            f"🎲 {esc(picker) if picker else 'Arbiters'}: pick which {what} die to keep "
            f"(higher is better for {name})."
        )
    taking = helper_die_choices(roll)
    if len(taking) > 1:
        lines.append(f"{name}: keep your own mood die or take a helper's (higher is better).")
    elif taking and help_may_come(roll):
        lines.append(f"{name}: keep your own mood die, or wait for an ally's help.")
    elif taking:
        lines.append(f"{name}: keep your own mood die to settle the roll.")
    if ActionKind.CHOOSE_SKILL_SIGN in open_now:
        lines.append(f"{name}: add your skill to the aspect die, or take it away.")
    if ActionKind.ENDANGER_SENTIMENT in open_now:
        owners = ", ".join(
            esc(roll.character(p).name) for p in sorted(open_now[ActionKind.ENDANGER_SENTIMENT])
        )
        lines.append(f"{owners}: pick which sentiment takes the mark.")
    if phase is Phase.MOOD_EFFECTS and any(p.kind is PendingKind.RENAME for p in roll.pending):
        lines.append("A mood track filled up: the winning side replies with its stronger new name.")
    return lines


def roll_buttons(view: PanelView, panel: RollPanel) -> list[list[InlineKeyboardButton]]:
    """The buttons for this step, each labelled with whose it is."""
    roll = panel.roll
    table = view.table
    rows = roll_step_buttons(view, roll)
    if roll.phase is Phase.DONE:
        outcome = roll.outcome
        assert outcome is not None
        for index in panel.open_grants:
            adders = ", ".join(
                sorted(_plain_who(roll, table, p) for p in outcome.grants[index].adders)
            )
            rows.append(
                [button(view, _label(f"Skip detail {index + 1} ({adders})"), SKIP, str(index))]
            )
        if panel.card is not None and panel.open_grants:
            rows.append(
                [button(view, "🕰 Tick clock", TICK), button(view, "🕰 Untick clock", UNTICK)]
            )
    return rows


def help_buttons_fit(roll: RollState) -> bool:
    """Whether each ally's moods fit as buttons beside the dice to keep (else allies reply)."""
    open_now = {e.kind: e.players for e in expected(roll)}
    helps = sum(
        sum(m.name is not None for m in roll.character(p).moods)
        for p in open_now.get(ActionKind.HELP, ())
    )
    others = len(keep_choices(roll)) + len(helper_die_choices(roll))
    return helps + others <= MAX_BUTTONS


def roll_step_buttons(view: PanelView, roll: RollState) -> list[list[InlineKeyboardButton]]:
    """The buttons of the roll's own steps (before its details)."""
    rows: list[list[InlineKeyboardButton]] = []
    open_now = {e.kind: e.players for e in expected(roll)}
    sheet = roll.sheet
    if ActionKind.CHOOSE_ASPECT in open_now:
        rows += phone_rows(
            [
                button(
                    view,
                    _label(f"⚖️ {a.value.title()} {sheet.aspect_die(a).label}"),
                    ActionKind.CHOOSE_ASPECT.value,
                    a.value,
                )
                for a in Aspect
            ]
        )
    if ActionKind.CHOOSE_RISK in open_now:
        rows.append(
            [
                button(view, "🌍 World", ActionKind.CHOOSE_RISK.value, "world"),
                button(view, "🧍 Character", ActionKind.CHOOSE_RISK.value, "character"),
            ]
        )
    if ActionKind.CHOOSE_MOOD in open_now:
        moods = [
            button(
                view,
                _label(f"{sheet.name}: {m.name} {m.die.label} ({m.level}/{m.die.boxes})"),
                ActionKind.CHOOSE_MOOD.value,
                str(i + 1),
            )
            for i, m in enumerate(sheet.moods)
            if m.name is not None
        ]
        rows += phone_rows(moods)
    if ActionKind.SET_ASPECT_EDGE in open_now:
        rows.append([button(view, "No details apply", ActionKind.SET_ASPECT_EDGE.value)])
    if ActionKind.CHOOSE_SKILL in open_now:
        skills = [
            button(
                view,
                _label(f"{sheet.name}: {s.name} ±{s.modifier}"),
                ActionKind.CHOOSE_SKILL.value,
                str(i + 1),
            )
            for i, s in enumerate(sheet.skills)
        ]
        rows += phone_rows(skills)
    if ActionKind.RISK_SENTIMENT in open_now:
        risks = [
            button(
                view,
                _label(f"{sheet.name} risks {sheet.sentiments[i].name}"),
                ActionKind.RISK_SENTIMENT.value,
                str(i + 1),
            )
            for i in sheet.usable_sentiments
        ]
        rows += phone_rows(risks)
    if ActionKind.ROLL in open_now:
        rows.append([button(view, f"🎲 {sheet.name}: roll", ActionKind.ROLL.value)])
    if ActionKind.HELP in open_now and help_buttons_fit(roll):
        for helper in sorted(open_now[ActionKind.HELP]):
            helper_sheet = roll.character(helper)
            helps = [
                button(
                    view,
                    _label(f"🤝 {helper_sheet.name}: {m.name} {m.die.label}"),
                    ActionKind.HELP.value,
                    f"{helper}.{i + 1}",
                )
                for i, m in enumerate(helper_sheet.moods)
                if m.name is not None
            ]
            rows += phone_rows(helps)
    keeps = keep_choices(roll)
    for pool_name in dict.fromkeys((c.who, c.name) for c in keeps):
        rows += phone_rows(
            [
                button(view, f"Keep {c.name} {c.die}", c.verb.value, c.argument)
                for c in keeps
                if (c.who, c.name) == pool_name
            ]
        )
    taking = [
        button(
            view,
            _label(
                f"{sheet.name}: my own mood die ({c.die or None})"
                if c.argument == OWN_DIE
                else f"{sheet.name}: take {c.who}'s {c.die or None}"
            ),
            c.verb.value,
            c.argument,
        )
        for c in helper_die_choices(roll)
    ]
    rows += phone_rows(taking)
    if ActionKind.CHOOSE_SKILL_SIGN in open_now and roll.skill is not None:
        mod = sheet.skills[roll.skill].modifier
        rows += phone_rows(
            [
                button(view, f"+{mod} to aspect", ActionKind.CHOOSE_SKILL_SIGN.value, "+"),
                button(view, f"−{mod} from aspect", ActionKind.CHOOSE_SKILL_SIGN.value, "-"),
            ]
        )
    if ActionKind.ENDANGER_SENTIMENT in open_now:
        for owner in sorted(open_now[ActionKind.ENDANGER_SENTIMENT]):
            owner_sheet = roll.character(owner)
            marks = [
                button(
                    view,
                    _label(f"{owner_sheet.name} marks {owner_sheet.sentiments[i].name}"),
                    ActionKind.ENDANGER_SENTIMENT.value,
                    f"{owner}.{i + 1}",
                )
                for i in owner_sheet.usable_sentiments
            ]
            rows += phone_rows(marks)
    if ActionKind.CANCEL in open_now:
        rows.append([button(view, "✖️ Call off the roll", ActionKind.CANCEL.value)])
    return rows


def _plain_who(roll: RollState, table: Table, player: int) -> str:
    for p in roll.participants:
        if p.player == player:
            return p.character.name
    seat = table.seat(player)
    return seat.name if seat is not None else "?"


def _chunks(buttons: list[InlineKeyboardButton], size: int) -> list[list[InlineKeyboardButton]]:
    return [buttons[i : i + size] for i in range(0, len(buttons), size)]


# -- /odds -----------------------------------------------------------------------------


def odds_text(query: OddsQuery, odds: Odds) -> str:
    """The exact odds of a planned roll."""
    edges = []
    for name, edge in (("Aspect", query.aspect_edge), ("Mood", query.mood_edge)):
        if edge is not Edge.NONE:
            edges.append(f"{name} {edge.value}")
    skill = f", skill ±{query.skill}" if query.skill else ""
    risk = "World" if query.risk is Risk.WORLD else "Character"
    lines = [
        f"🎲 <b>Odds</b>: Aspect {query.aspect.label} vs Mood {query.mood.label}, "
        f"{risk} at risk{skill}" + (f" ({', '.join(edges)})" if edges else ""),
        f"You win: {_pct(odds.player_wins)} · Arbiters win: {_pct(odds.arbiters_win)} · "
        f"Tie: {_pct(odds.tie)}",
        "Difference (results row):",
    ]
    labels = ("0", "1", "2", "3", "4", "5+")
    lines += [f"  {label}: {_pct(p)}" for label, p in zip(labels, odds.rows, strict=True)]
    return "\n".join(lines)


def _pct(value: Fraction) -> str:
    return f"{100 * float(value):.1f}%"
