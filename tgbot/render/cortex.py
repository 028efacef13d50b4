"""How Cortex conflicts and the table's Trouble look in the chat.

Pure: the rules' :class:`~core.rules.cortex.panel.ConflictView` in, HTML and
buttons out. Which buttons exist, and for whom, comes from the rules
(``allowed_actions`` through the view's choices); this module only words them.
Every name a player typed goes through :func:`esc`.
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.i18n import Lang
from core.rules.cortex.dice import Die
from core.rules.cortex.panel import (
    CONFLICT_PANEL,
    Choice,
    ConflictState,
    ConflictView,
    Entry,
    Press,
    conflict_view,
)
from core.rules.cortex.state import Conflict, Kind, Phase, Roll
from core.rules.cortex.state import Table as CortexTable
from core.rules.cortex.traits import Sheet
from core.rules.names import in_play
from core.rules.table import Table
from tgbot.panels import button, keyboard
from tgbot.render.layout import grid, named
from tgbot.render.text import esc, now_line

WATCHTOWER = "the Watchtower"
LABEL_NAME = 22
KIND_TITLE = {Kind.TEST: "Test", Kind.CONTEST: "Contest", Kind.RELIEF: "Stress Relief"}
ENDINGS = {
    "success": "✅ {who} succeeds",
    "failure": "❌ {other} fails",
    "gave_in": "🏳️ {other} gives in: {who} gets their way",
    "stress": "💥 {who} wins; {other} takes Stress",
    "stressed_out": "💀 {who} wins; {other} is Stressed Out",
    "relieved": "💚 {who} relieves the Stress",
    "not_relieved": "💔 The Stress stays",
    "stopped": "⏹ The Contest stays stopped",
}


def _name(name: str) -> str:
    return esc(name) if name else WATCHTOWER


def _short(name: str) -> str:
    return name if len(name) <= LABEL_NAME else name[: LABEL_NAME - 1] + "…"


def dice_text(dice: Sequence[Die]) -> str:
    return " ".join(d.label for d in dice) if dice else "none"


def stress_text(sheet: Sheet) -> str:
    if sheet.stressed_out:
        return "💀 Stressed Out"
    if not sheet.stress:
        return "no Stress"
    return "Stress: " + ", ".join(f"{esc(s.type)} {s.die.label}" for s in sheet.stress)


def character_line(sheet: Sheet) -> str:
    """One character's Plot Points and Stress, always on show."""
    points = f" · {sheet.plot_points} PP" if sheet.is_lead else ""
    return f"• <b>{esc(sheet.name)}</b>{points} · {stress_text(sheet)}"


def table_text(table: CortexTable) -> str:
    """Trouble, and every character's Plot Points and Stress (for /trouble)."""
    lines = [f"⚠️ <b>Trouble</b>: {dice_text(table.trouble)}"]
    leads = [s for s in table.sheets if s.is_lead]
    features = [s for s in table.sheets if not s.is_lead]
    lines += [character_line(s) for s in leads] or ["No Leads yet: players /join."]
    if features:
        lines.append("<i>Features</i>")
        lines += [character_line(s) for s in features]
    if table.details:
        lines.append(
            "✨ Useful Details: "
            + ", ".join(f"{esc(d.name)} {d.die.label} ({esc(d.owner)})" for d in table.details)
        )
    return "\n".join(lines)


def _roll_text(roll: Roll) -> str:
    included = set(roll.included)
    faces = []
    for i, r in enumerate(roll.dice):
        text = f"{r.die.label}:{r.face}"
        if r.is_dud:
            faces.append(f"<s>{text}</s>")
        elif i in included:
            faces.append(f"<b>{text}</b>")
        else:
            faces.append(text)
    line = f"🎲 {esc(roll.roller)} rolled " + " ".join(faces)
    for aid in roll.aid:
        shown = " ".join(
            f"<s>{r.die.label}:{r.face}</s>" if r.is_dud else f"{r.die.label}:{r.face}"
            for r in aid.dice
        )
        source = aid.aid.resource or aid.aid.helper
        line += f"\n🤝 Aid from {esc(source)}: {shown} (+{aid.counted})"
    return line + f"\n<b>Result {roll.result}</b> (duds struck out, included dice in bold)"


def _entry_text(e: Entry) -> str | None:
    who, other = _name(e.who), _name(e.other)
    die = f"d{e.die}" if e.die else ""
    texts = {
        "opposition": f"👁 Opposition {esc(e.text)} → <b>{e.number}</b>",
        "rolled": f"🎲 {who} rolled {e.number}",
        "included": f"➕ {who} includes another die: {e.number}",
        "action": (
            f"🔄 {who} beats it and takes over: Action <b>{e.number}</b>"
            if e.flag
            else f"🎯 {who} sets the Action: <b>{e.number}</b>"
        ),
        "won": f"🛡 {who} holds: {other} falls short by {e.number}",
        "paid": f"🪙 {who} → {other}: {e.number} PP ({esc(e.text)})",
        "detail": f"✨ {who} creates “{esc(e.text)}” {die}",
        "challenged": f"⚡ {who} challenges {esc(e.text)} (+{die} Growth)",
        "stress": f"💥 {other} takes {esc(e.text)} {die}" + (" (stepped up)" if e.flag else ""),
        "stress_missed": f"💨 {who}'s stress roll came up all 1s: no Stress",
        "stressed_out": f"💀 {who} is Stressed Out",
        "relieved": f"💚 {who}'s {esc(e.text)} Stress is relieved (+{die} Growth)",
        "complication": f"⚠️ {who}'s {die} 1 joins Trouble",
        "trouble_cancelled": f"🧹 {who} removes a {die} from Trouble",
        "interfered": f"⚔️ {who} interferes: {e.number}"
        + (" — the Contest stops!" if e.flag else " — not enough"),
        "resumed": f"▶️ Everyone rolls: {esc(e.text)}",
        "scene_ended": "🎬 The episode ends" if e.flag else "🎬 The scene ends",
    }
    if e.what == "ended":
        template = ENDINGS.get(e.text, "🏁 It's over")
        return "<b>" + template.format(who=who, other=other) + "</b>"
    return texts.get(e.what)


def _headline(c: Conflict) -> str:
    title = KIND_TITLE[c.kind]
    if c.kind is Kind.CONTEST:
        return f"🎭 <b>{title}</b>: {esc(c.actor)} vs {esc(c.reactor)}"
    if c.kind is Kind.RELIEF:
        return f"🎭 <b>{title}</b>: {esc(c.actor)} helps {esc(c.reactor)} ({esc(c.relief_type)})"
    return f"🎭 <b>{title}</b>: {esc(c.actor)}"


def _now_text(v: ConflictView, c: Conflict) -> list[str]:
    lines: list[str] = []
    if c.phase is Phase.OPPOSITION and c.kind is Kind.TEST:
        lines.append(f"👁 Opposition so far: {dice_text(v.staged)}")
    if c.to_beat is not None and c.phase in (Phase.BUILDING, Phase.PICKING, Phase.YIELDING):
        if c.kind is Kind.CONTEST:
            lines.append(f"🎯 Action: <b>{c.to_beat}</b>")
        else:  # the Watchtower's roll (or the friend's Stress) set it; a tie fails (ruling 24)
            lines.append(f"🎯 To beat: <b>{c.to_beat}</b> (a tie fails)")
    if c.phase is Phase.BUILDING:
        pool = " · ".join(f"{esc(name)} {d.label}" for d, name in v.pool) or "empty"
        line = f"🧺 {esc(c.roller)}'s pool: {pool}"
        if v.cost:
            line += f" — extras cost {v.cost} PP"
        if v.chance is not None:
            line += f" — {round(float(v.chance) * 100)}% to beat {c.to_beat}"
        lines.append(line)
        for aid in c.aid:
            lines.append(f"🤝 Aid ready: {esc(aid.resource or aid.helper)}")
    if c.phase is Phase.PICKING and c.roll is not None:
        lines.append(_roll_text(c.roll))
    if c.phase is Phase.YIELDING:
        lines.append(
            f"🛡 {esc(c.actor)} wins by {c.margin}: {esc(c.reactor)} gives in or takes Stress"
        )
    if c.phase is Phase.INFLICTING:
        todo = c.pending[0]
        lines.append(
            f"💥 {esc(todo.inflicter)} rolls {dice_text(todo.pool)} to stress {esc(todo.target)}:"
            " choose the Stress"
            + (" (or declare them Stressed Out)" if todo.may_stress_out else "")
        )
        lines.append(
            "<i>Assets that change the stress pool: reply with the Stress and the dice, "
            "e.g. “Angry +d6 -d8”.</i>"
        )
    if c.phase is Phase.STOPPED:
        lines.append(f"⏹ {esc(c.interferer)} stopped the Contest. Go on? Each pays them 1 PP.")
    return lines


def _hints(v: ConflictView, c: Conflict) -> list[str]:
    if c.phase is not Phase.BUILDING:
        return []
    return [
        "<i>Reply to this message with a name to create a Useful Detail (1 PP, d6). "
        "Others reply with their traits to aid, e.g. “Truth, Clark”.</i>"
    ]


def conflict_text(v: ConflictView) -> str:
    """The whole panel: who, Trouble, Plot Points and Stress, the exchanges, what now."""
    c = v.conflict
    if c is None:
        lines = ["🎭 <b>This roll is over.</b>"]
        lines += [t for t in (_entry_text(e) for e in v.log) if t]
        return "\n".join(lines)
    lines = [_headline(c), f"⚠️ Trouble: {dice_text(v.table.trouble)}"]
    for name in dict.fromkeys(n for n in (*c.contestants, c.reactor, c.interferer) if n):
        sheet = v.sheet(name)
        if sheet is not None:
            lines.append(character_line(sheet))
    log = [t for t in (_entry_text(e) for e in v.log) if t]
    if log:
        lines.append("")
        lines += log
    if c.phase is not Phase.DONE:
        lines.append("")
        lines += _now_text(v, c)
        waiting = " and ".join(_name(n) for n in v.waiting)
        lines.append(f"⏳ Waiting for <b>{waiting}</b>")
        lines += _hints(v, c)
    if v.table.complications:
        ones = ", ".join(f"{esc(x.owner)}'s {x.die.label}" for x in v.table.complications)
        lines.append(f"⚠️ Complications (1s) the Watchtower may buy into Trouble: {ones}")
    if v.table.watchtower_ones:
        ones = ", ".join(x.die.label for x in v.table.watchtower_ones)
        lines.append(f"🧹 Watchtower 1s players may use on Trouble: {ones}")
    return "\n".join(lines)


def _pp(cost: int) -> str:
    return f" ({cost} PP)" if cost else ""


def choice_label(ch: Choice) -> str:
    """A button's text: what it does and whose it is."""
    who = _short(ch.who) if ch.who else ""
    name = _short(ch.name)
    die = f"d{ch.die}" if ch.die else ""
    p = ch.verb
    if p is Press.OPPOSITION_ADD:
        return f"👁 +{die}"
    if p is Press.OPPOSITION_UNDO:
        return "👁 ↩ Take back"
    if p is Press.OPPOSITION_ROLL:
        return f"👁 Roll {ch.count} opposition dice"
    if p is Press.STRESS_OPPOSITION:
        return f"🎲 {who}: roll your Stress"
    if p is Press.OPEN_POOL:
        return "➕ Add to the pool…"
    if p is Press.BACK:
        return "⬅️ Back"
    if p is Press.ADD:
        icon = {"c": "⚡", "s": "💢", "l": "🎯", "d": "✨"}.get(ch.argument[:1], "➕")
        dice = f"{ch.count}{die}" if ch.count > 1 else die
        return f"{icon} {name} {dice}{_pp(ch.cost)}"
    if p is Press.REMOVE:
        return f"➖ {name}"
    if p is Press.RESOURCE:
        if ch.argument.endswith("u"):
            return f"🏠 {name}: use up, both dice"
        return f"🏠 {name} 2{die} aid"
    if p is Press.ROLL:
        return f"🎲 Roll · {who}{_pp(ch.cost)}"
    if p is Press.INCLUDE:
        return f"➕ Include a die · {who} (1 PP)"
    if p is Press.SETTLE:
        return f"✅ Keep this Result · {who}"
    if p is Press.GIVE_IN:
        return f"🏳️ Give in · {who}"
    if p is Press.TAKE_STRESS:
        return f"💥 Take Stress · {who}"
    if p is Press.INFLICT:
        return f"💥 {name} · {who}"
    if p is Press.STRESSED_OUT:
        return f"💀 Stressed Out · {who}"
    if p is Press.INTERFERE:
        return f"⚔️ {who} interferes{_pp(ch.cost)}"
    if p is Press.VOTE:
        return "▶️ Go on (1 PP)" if ch.argument == "y" else "⏹ Leave it stopped"
    if p is Press.COMPLICATION:
        return named("👁 {}'s " + f"{die} 1 → Trouble", ch.who)
    if p is Press.CANCEL_TROUBLE:
        return f"🧹 Use the {name} 1: Trouble −{die}"
    if p is Press.END_SCENE:
        return "👁 End the scene"
    if p is Press.CLOSE:
        return "👁 Leave the 1s"
    return str(p.value)


_MOST: dict[Press | None, int] = {
    Press.OPPOSITION_ADD: 5,
    Press.ADD: 2,
    Press.REMOVE: 3,
    Press.INFLICT: 3,
    Press.VOTE: 2,
}


def _rows(view: PanelView, choices: Sequence[Choice]) -> list[list[InlineKeyboardButton]]:
    """Like buttons side by side as far as a phone shows their labels whole."""
    rows: list[list[InlineKeyboardButton]] = []
    run: list[InlineKeyboardButton] = []
    last: Press | None = None
    for ch in choices:
        if run and ch.verb is not last:
            rows += grid(run, _MOST.get(last, 1))
            run = []
        run.append(button(view, choice_label(ch), ch.verb.value, ch.argument))
        last = ch.verb
    if run:
        rows += grid(run, _MOST.get(last, 1))
    return rows


class ConflictRenderer:
    """Renders the ``cortex.conflict`` panel."""

    kind = CONFLICT_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        v = conflict_view(view.table, view.typed(ConflictState))
        if view.closed:
            return conflict_text(v), None
        text = conflict_text(v)
        now = now_line(v.choices, lambda user: _person(v, user, view.table), _phrase, _SIDE)
        return (f"{text}\n{now}" if now else text), keyboard(_rows(view, v.choices))


def _person(v: ConflictView, user: int, members: Table | None = None) -> str:
    """Someone at the table by the name in play: their Lead, or the Watchtower.

    With ``members``, the player's own name is added, "Birch (Alice)": the naming
    rule (core.rules.names) for someone who must act now.
    """
    if user == v.table.watchtower:
        return WATCHTOWER
    member = None if members is None else members.seat(user)
    for seat in v.table.seats:
        if seat.user == user:
            own = seat.character if member is None else member.name
            return esc(in_play(seat.character, own, introduce=member is not None))
    return "someone who left"


_PHRASES = {
    Press.OPPOSITION_ADD: "add opposition dice",
    Press.OPPOSITION_UNDO: "take a die back",
    Press.OPPOSITION_ROLL: "roll the opposition",
    Press.STRESS_OPPOSITION: "roll your Stress as the opposition",
    Press.OPEN_POOL: "add traits to the pool",
    Press.BACK: "go back",
    Press.ADD: "add traits to the pool",
    Press.REMOVE: "take a trait out",
    Press.RESOURCE: "spend a Resource",
    Press.ROLL: "roll the pool",
    Press.INCLUDE: "include another die",
    Press.SETTLE: "settle the roll",
    Press.GIVE_IN: "give in",
    Press.TAKE_STRESS: "take the Stress",
    Press.INFLICT: "pick the Stress to inflict",
    Press.STRESSED_OUT: "take them out",
    Press.INTERFERE: "interfere",
    Press.VOTE: "vote to go on or stop",
    Press.COMPLICATION: "buy a Complication into Trouble",
    Press.CANCEL_TROUBLE: "cancel Trouble with a Watchtower 1",
    Press.END_SCENE: "end the scene",
    Press.CLOSE: "close this roll",
}
_SIDE = frozenset({Press.COMPLICATION, Press.CANCEL_TROUBLE, Press.END_SCENE})


def _phrase(choice: Choice) -> str:
    return _PHRASES.get(choice.verb, choice.verb.value)


RENDERERS = [ConflictRenderer()]
