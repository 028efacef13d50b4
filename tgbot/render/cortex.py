"""How Cortex conflicts and the table's Trouble look in the chat.

Pure: the rules' :class:`~core.rules.cortex.panel.ConflictView` in, HTML and
buttons out. Which buttons exist, and for whom, comes from the rules
(``allowed_actions`` through the view's choices); this module only words them,
in the panel's language. Every name a player typed goes through :func:`esc` and
is inserted as a value, never translated; a Stress type shows through
:func:`~core.words.cortex_words.stress_name` (a default one in the reader's language, a
renamed one as the Watchtower wrote it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import singledispatchmethod

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.rules.cortex import SYSTEM as CORTEX
from core.rules.cortex import log as conflict_log
from core.rules.cortex.campaign import load
from core.rules.cortex.dice import Die
from core.rules.cortex.log import Entry
from core.rules.cortex.panel import (
    CONFLICT_PANEL,
    Choice,
    ConflictState,
    ConflictView,
    Press,
    conflict_view,
)
from core.rules.cortex.pool import PickKind
from core.rules.cortex.state import Conflict, Ending, Kind, Phase, Roll
from core.rules.cortex.state import Table as CortexTable
from core.rules.cortex.traits import Sheet
from core.rules.names import in_play
from core.rules.table import Table
from core.rules.typed import cortex_reply_text
from core.words.cortex_words import stress_name, stress_typed
from core.words.i18n import N_, Lang
from core.words.typed_words import vocabulary
from tgbot.panels import button, keyboard
from tgbot.render.layout import ONE_ROW, fit_name, grid, label_width
from tgbot.render.text import esc, now_line

WATCHTOWER = N_("the Watchtower")
LABEL_NAME = 22
KIND_TITLE = {Kind.TEST: N_("Test"), Kind.CONTEST: N_("Contest"), Kind.RELIEF: N_("Stress Relief")}
ENDINGS = {
    Ending.SUCCESS: N_("✅ {who} succeeds"),
    Ending.FAILURE: N_("❌ {other} fails"),
    Ending.GAVE_IN: N_("🏳️ {other} gives in: {who} gets their way"),
    Ending.STRESS: N_("💥 {who} wins; {other} takes Stress"),
    Ending.STRESSED_OUT: N_("💀 {who} wins; {other} is Stressed Out"),
    Ending.RELIEVED: N_("💚 {who} relieves the Stress"),
    Ending.NOT_RELIEVED: N_("💔 The Stress stays"),
    Ending.STOPPED: N_("⏹ The Contest stays stopped"),
}
"""How each ending of a conflict is told in its log."""
REASONS = {
    "useful detail": N_("useful detail"),
    "interfere": N_("interfere"),
    "keep going": N_("keep going"),
    "extra traits": N_("extra traits"),
    "include a die": N_("include a die"),
    "complication": N_("complication"),
}
"""Why Plot Points changed hands, as the rules name it, to word in the log."""


def _name(name: str, lang: Lang) -> str:
    return esc(name) if name else lang.gettext(WATCHTOWER)


def _short(name: str) -> str:
    """A trait's name in a button's room, in whole words (:func:`fit_name`)."""
    return fit_name(name, LABEL_NAME)


def _and(names: Sequence[str], lang: Lang) -> str:
    """``a``, ``a and b``, ``a and b and c``."""
    said = names[0] if names else ""
    for name in names[1:]:
        said = lang.gettext("{some} and {last}", some=said, last=name)
    return said


def dice_text(dice: Sequence[Die], lang: Lang) -> str:
    return " ".join(d.label for d in dice) if dice else lang.gettext("none")


def stress_text(sheet: Sheet, lang: Lang) -> str:
    if sheet.stressed_out:
        return lang.gettext("💀 Stressed Out")
    if not sheet.stress:
        return lang.gettext("no Stress")
    listed = ", ".join(f"{esc(stress_name(s.type, lang))} {s.die.label}" for s in sheet.stress)
    return lang.gettext("Stress: {stress}", stress=listed)


def character_line(sheet: Sheet, lang: Lang) -> str:
    """One character's Plot Points and Stress, always on show."""
    points = " · " + lang.gettext("{points} PP", points=sheet.plot_points) if sheet.is_lead else ""
    return f"• <b>{esc(sheet.name)}</b>{points} · {stress_text(sheet, lang)}"


_RECORDED = {
    "value": N_("✅ Value “{name}” {die} recorded."),
    "relationship": N_("✅ Relationship “{name}” {die} recorded."),
    "asset": N_("✅ Asset “{name}” {die} ({kind}) recorded."),
    "resource": N_("✅ Resource “{name}” {die} ({kind}) recorded."),
    "limit": N_("✅ Limit “{name}” {die} recorded."),
}
_REMOVED = {
    "value": N_("✅ Value “{name}” removed."),
    "relationship": N_("✅ Relationship “{name}” removed."),
    "asset": N_("✅ Asset “{name}” removed."),
    "resource": N_("✅ Resource “{name}” removed."),
    "limit": N_("✅ Limit “{name}” removed."),
}
_DEFAULT_KIND = {"asset": "distinction", "resource": "extra"}


def _kind_word(kind: str, lang: Lang) -> str:
    """An Asset's or a Resource's kind, as a sheet names it."""
    words = {
        "distinction": lang.pgettext("a Cortex trait kind", "distinction"),
        "ability": lang.pgettext("a Cortex trait kind", "ability"),
        "heritage": lang.pgettext("a Cortex trait kind", "heritage"),
        "extra": lang.pgettext("a Cortex trait kind", "extra"),
        "location": lang.pgettext("a Cortex trait kind", "location"),
    }
    return words.get(kind, esc(kind))


def recorded_text(action: str, payload: Mapping[str, object], lang: Lang) -> str:
    """What a ``/trait`` edit wrote, in a sentence: «✅ Value “Justice” d8 recorded.»."""
    box = str(payload.get("box", ""))
    name = esc(" ".join(str(payload.get("name", "")).split()))
    if action == "trait.set" and box in _RECORDED:
        die = f"d{str(payload.get('die', '')).lstrip('dD')}"
        kind = str(payload.get("kind") or _DEFAULT_KIND.get(box, ""))
        return lang.gettext(_RECORDED[box], name=name, die=die, kind=_kind_word(kind, lang))
    if action == "trait.remove" and box in _REMOVED:
        return lang.gettext(_REMOVED[box], name=name)
    if action == "rename":
        return lang.gettext("✅ The character is now called “{name}”.", name=name)
    return lang.gettext("✅ Noted.")


def table_text(table: CortexTable, lang: Lang) -> str:
    """Trouble, and every character's Plot Points and Stress (for /trouble)."""
    lines = [lang.gettext("⚠️ <b>Trouble</b>: {dice}", dice=dice_text(table.trouble, lang))]
    leads = [s for s in table.sheets if s.is_lead]
    features = [s for s in table.sheets if not s.is_lead]
    lines += [character_line(s, lang) for s in leads] or [
        lang.gettext("No Leads yet: players /join.")
    ]
    if features:
        lines.append("<i>" + lang.gettext("Features") + "</i>")
        lines += [character_line(s, lang) for s in features]
    if table.details:
        listed = ", ".join(f"{esc(d.name)} {d.die.label} ({esc(d.owner)})" for d in table.details)
        lines.append(lang.gettext("✨ Useful Details: {details}", details=listed))
    return "\n".join(lines)


def _roll_text(roll: Roll, lang: Lang) -> str:
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
    line = lang.gettext("🎲 {who} rolled {dice}", who=esc(roll.roller), dice=" ".join(faces))
    for aid in roll.aid:
        shown = " ".join(
            f"<s>{r.die.label}:{r.face}</s>" if r.is_dud else f"{r.die.label}:{r.face}"
            for r in aid.dice
        )
        source = aid.aid.resource or aid.aid.helper
        line += "\n" + lang.gettext(
            "🤝 Aid from {source}: {dice} (+{counted})",
            source=esc(source),
            dice=shown,
            counted=aid.counted,
        )
    return (
        line
        + "\n"
        + lang.gettext(
            "<b>Result {result}</b> (duds struck out, included dice in bold)", result=roll.result
        )
    )


def _entry_text(e: Entry, lang: Lang) -> str | None:
    return ConflictLogLine(lang).text(e)


class ConflictLogLine:
    """The conflict's log lines: one method per kind of line (:mod:`core.rules.cortex.log`)."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang

    @singledispatchmethod
    def text(self, e: object) -> str | None:
        """One line of the log, worded."""
        raise TypeError(f"no conflict log line for {type(e).__name__}")

    def _(self, message: str, **values: object) -> str:
        return self.lang.gettext(message, **values)

    def name(self, name: str) -> str:
        return _name(name, self.lang)

    @staticmethod
    def die(die: Die | None) -> str:
        return "" if die is None else die.label

    def stress(self, stress_type: str) -> str:
        return esc(stress_name(stress_type, self.lang))

    @text.register
    def ended(self, e: conflict_log.ConflictEnded) -> str:
        said = self._(ENDINGS[e.ending], who=self.name(e.winner), other=self.name(e.loser))
        return "<b>" + said + "</b>"

    @text.register
    def opposition(self, e: conflict_log.OppositionRolled) -> str:
        return self._("👁 Opposition {dice} → <b>{result}</b>", dice=esc(e.dice), result=e.result)

    @text.register
    def rolled(self, e: conflict_log.PoolRolled) -> str:
        return self._("🎲 {who} rolled {result}", who=self.name(e.roller), result=e.result)

    @text.register
    def included(self, e: conflict_log.DieIncluded) -> str:
        return self._(
            "➕ {who} includes another die: {result}", who=self.name(e.roller), result=e.result
        )

    @text.register
    def action(self, e: conflict_log.ActionSet) -> str:
        who, action = self.name(e.actor), e.action
        if e.took_over:
            return self._(
                "🔄 {who} beats it and takes over: Action <b>{action}</b>", who=who, action=action
            )
        return self._("🎯 {who} sets the Action: <b>{action}</b>", who=who, action=action)

    @text.register
    def won(self, e: conflict_log.ActorHeld) -> str:
        return self._(
            "🛡 {who} holds: {other} falls short by {margin}",
            who=self.name(e.actor),
            other=self.name(e.reactor),
            margin=e.margin,
        )

    @text.register
    def paid(self, e: conflict_log.PlotPointsPaid) -> str:
        reason = self._(REASONS[e.reason]) if e.reason in REASONS else esc(e.reason)
        return self._(
            "🪙 {who} → {other}: {points} PP ({reason})",
            who=self.name(e.payer),
            other=self.name(e.payee),
            points=e.points,
            reason=reason,
        )

    @text.register
    def detail(self, e: conflict_log.DetailCreated) -> str:
        return self._(
            "✨ {who} creates “{detail}” {die}",
            who=self.name(e.owner),
            detail=esc(e.name),
            die=self.die(e.die),
        )

    @text.register
    def challenged(self, e: conflict_log.ValueChallenged) -> str:
        return self._(
            "⚡ {who} challenges {value} (+{die} Growth)",
            who=self.name(e.character),
            value=esc(e.value),
            die=self.die(e.growth),
        )

    @text.register
    def stress_taken(self, e: conflict_log.StressTaken) -> str:
        other, stress, die = self.name(e.target), self.stress(e.stress_type), self.die(e.die)
        if e.stepped_up:
            return self._(
                "💥 {other} takes {stress} {die} (stepped up)", other=other, stress=stress, die=die
            )
        return self._("💥 {other} takes {stress} {die}", other=other, stress=stress, die=die)

    @text.register
    def stress_missed(self, e: conflict_log.StressMissed) -> str:
        return self._(
            "💨 {who}'s stress roll came up all 1s: no Stress", who=self.name(e.inflicter)
        )

    @text.register
    def stressed_out(self, e: conflict_log.StressedOut) -> str:
        return self._("💀 {who} is Stressed Out", who=self.name(e.character))

    @text.register
    def relieved(self, e: conflict_log.StressRelieved) -> str:
        return self._(
            "💚 {who}'s {stress} Stress is relieved (+{die} Growth)",
            who=self.name(e.friend),
            stress=self.stress(e.stress_type),
            die=self.die(e.growth),
        )

    @text.register
    def complication(self, e: conflict_log.ComplicationActivated) -> str:
        return self._(
            "⚠️ {who}'s {die} 1 joins Trouble", who=self.name(e.owner), die=self.die(e.die)
        )

    @text.register
    def trouble_cancelled(self, e: conflict_log.TroubleCancelled) -> str:
        return self._(
            "🧹 {who} removes a {die} from Trouble", who=self.name(e.by), die=self.die(e.removed)
        )

    @text.register
    def interfered(self, e: conflict_log.Interfered) -> str:
        who, result = self.name(e.interferer), e.result
        if e.stopped:
            return self._(
                "⚔️ {who} interferes: {result} — the Contest stops!", who=who, result=result
            )
        return self._("⚔️ {who} interferes: {result} — not enough", who=who, result=result)

    @text.register
    def resumed(self, e: conflict_log.ContestResumed) -> str:
        return self._("▶️ Everyone rolls: {order}", order=esc(e.order))

    @text.register
    def scene_ended(self, e: conflict_log.SceneEnded) -> str:
        return self._("🎬 The episode ends") if e.episode else self._("🎬 The scene ends")


def _headline(c: Conflict, lang: Lang) -> str:
    title = lang.gettext(KIND_TITLE[c.kind])
    actor, reactor = esc(c.actor), esc(c.reactor)
    if c.kind is Kind.CONTEST:
        return lang.gettext(
            "🎭 <b>{title}</b>: {actor} vs {reactor}", title=title, actor=actor, reactor=reactor
        )
    if c.kind is Kind.RELIEF:
        return lang.gettext(
            "🎭 <b>{title}</b>: {actor} helps {reactor} ({stress})",
            title=title,
            actor=actor,
            reactor=reactor,
            stress=esc(stress_name(c.relief_type, lang)),
        )
    return lang.gettext("🎭 <b>{title}</b>: {actor}", title=title, actor=actor)


def _now_text(v: ConflictView, c: Conflict, lang: Lang) -> list[str]:
    _ = lang.gettext
    lines: list[str] = []
    if c.phase is Phase.OPPOSITION and c.kind is Kind.TEST:
        lines.append(_("👁 Opposition so far: {dice}", dice=dice_text(v.staged, lang)))
    if c.to_beat is not None and c.phase in (Phase.BUILDING, Phase.PICKING, Phase.YIELDING):
        if c.kind is Kind.CONTEST:
            lines.append(_("🎯 Action: <b>{action}</b>", action=c.to_beat))
        else:  # the Watchtower's roll (or the friend's Stress) set it; a tie fails (ruling 24)
            lines.append(_("🎯 To beat: <b>{number}</b> (a tie fails)", number=c.to_beat))
    if c.phase is Phase.BUILDING:
        stressed = _stressed(c)
        pool = " · ".join(
            f"{esc(stress_name(name, lang) if name in stressed else name)} {d.label}"
            for d, name in v.pool
        )
        pool = pool or _("empty")
        parts = [_("🧺 {who}'s pool: {pool}", who=esc(c.roller), pool=pool)]
        if v.cost:
            parts.append(_("extras cost {points} PP", points=v.cost))
        if v.chance is not None:
            chance = lang.percent(float(v.chance), digits=0)
            parts.append(_("{chance} to beat {number}", chance=chance, number=c.to_beat))
        lines.append(" — ".join(parts))
        for aid in c.aid:
            lines.append(_("🤝 Aid ready: {source}", source=esc(aid.resource or aid.helper)))
    if c.phase is Phase.PICKING and c.roll is not None:
        lines.append(_roll_text(c.roll, lang))
    if c.phase is Phase.YIELDING:
        lines.append(
            _(
                "🛡 {actor} wins by {margin}: {reactor} gives in or takes Stress",
                actor=esc(c.actor),
                margin=c.margin,
                reactor=esc(c.reactor),
            )
        )
    if c.phase is Phase.INFLICTING:
        todo = c.pending[0]
        values = {
            "who": esc(todo.inflicter),
            "dice": dice_text(todo.pool, lang),
            "target": esc(todo.target),
        }
        if todo.may_stress_out:
            lines.append(
                _(
                    "💥 {who} rolls {dice} to stress {target}: choose the Stress"
                    " (or declare them Stressed Out)",
                    **values,
                )
            )
        else:
            lines.append(_("💥 {who} rolls {dice} to stress {target}: choose the Stress", **values))
        lines.append(
            "<i>"
            + _(
                "Assets that change the stress pool: reply with the Stress and the dice, "
                "e.g. “Angry +d6 -d8”."
            )
            + "</i>"
        )
    if c.phase is Phase.STOPPED:
        lines.append(
            _("⏹ {who} stopped the Contest. Go on? Each pays them 1 PP.", who=esc(c.interferer))
        )
    return lines


def _hints(v: ConflictView, c: Conflict, lang: Lang) -> list[str]:
    if c.phase is not Phase.BUILDING:
        return []
    return [
        "<i>"
        + lang.gettext(
            "Reply to this message with a name to create a Useful Detail (1 PP, d6). "
            "Others reply with their traits to aid, e.g. “Truth, Clark”."
        )
        + "</i>"
    ]


def conflict_text(v: ConflictView, lang: Lang) -> str:
    """The whole panel: who, Trouble, Plot Points and Stress, the exchanges, what now."""
    c = v.conflict
    if c is None:
        lines = [lang.gettext("🎭 <b>This roll is over.</b>")]
        lines += [t for t in (_entry_text(e, lang) for e in v.log) if t]
        return "\n".join(lines)
    lines = [
        _headline(c, lang),
        lang.gettext("⚠️ Trouble: {dice}", dice=dice_text(v.table.trouble, lang)),
    ]
    for name in dict.fromkeys(n for n in (*c.contestants, c.reactor, c.interferer) if n):
        sheet = v.sheet(name)
        if sheet is not None:
            lines.append(character_line(sheet, lang))
    log = [t for t in (_entry_text(e, lang) for e in v.log) if t]
    if log:
        lines.append("")
        lines += log
    if c.phase is not Phase.DONE:
        lines.append("")
        lines += _now_text(v, c, lang)
        waiting = _and([_name(n, lang) for n in v.waiting], lang)
        lines.append(lang.gettext("⏳ Waiting for <b>{who}</b>", who=waiting))
        lines += _hints(v, c, lang)
    if v.table.complications:
        ones = ", ".join(
            lang.gettext("{owner}'s {die}", owner=esc(x.owner), die=x.die.label)
            for x in v.table.complications
        )
        lines.append(
            lang.gettext(
                "⚠️ Complications (1s) the Watchtower may buy into Trouble: {ones}", ones=ones
            )
        )
    if v.table.watchtower_ones:
        ones = ", ".join(x.die.label for x in v.table.watchtower_ones)
        lines.append(lang.gettext("🧹 Watchtower 1s players may use on Trouble: {ones}", ones=ones))
    return "\n".join(lines)


def _stressed(c: Conflict | None) -> frozenset[str]:
    """The pool's traits that are the opponent's Stress (shown as Stress types)."""
    if c is None:
        return frozenset()
    return frozenset(p.name for p in c.draft.picks if p.kind is PickKind.OPPONENT_STRESS)


def _pp(cost: int, lang: Lang) -> str:
    return " " + lang.gettext("({points} PP)", points=cost) if cost else ""


def choice_label(ch: Choice, lang: Lang, stressed: frozenset[str] = frozenset()) -> str:
    """A button's text: what it does and whose it is, in a phone's row: a person is named by
    as much of their name as fits, in whole words (:func:`~tgbot.render.layout.fit_name`).

    ``stressed``: the pool's traits that are the opponent's Stress (their names are
    Stress types, shown as such).
    """
    label = _choice_label(ch, lang, stressed, ch.who)
    over = label_width(label) - ONE_ROW
    if over > 0 and ch.who:
        room = label_width(ch.who) - over
        label = _choice_label(ch, lang, stressed, fit_name(ch.who, room))
    return label


def _choice_label(ch: Choice, lang: Lang, stressed: frozenset[str], who: str) -> str:
    _ = lang.gettext
    stress = ch.verb is Press.INFLICT or (ch.verb is Press.ADD and ch.argument[:1] == "s")
    if stress or (ch.verb is Press.REMOVE and ch.name in stressed):
        name = _short(stress_name(ch.name, lang))
    else:
        name = _short(ch.name)
    die = f"d{ch.die}" if ch.die else ""
    p = ch.verb
    if p is Press.OPPOSITION_ADD:
        return f"👁 +{die}"
    if p is Press.OPPOSITION_UNDO:
        return _("👁 ↩ Take back")
    if p is Press.OPPOSITION_ROLL:
        return lang.ngettext(
            "👁 Roll {num} opposition die", "👁 Roll {num} opposition dice", ch.count
        )
    if p is Press.STRESS_OPPOSITION:
        return _("🎲 {who}: roll your Stress", who=who)
    if p is Press.OPEN_POOL:
        return _("➕ Add to the pool…")
    if p is Press.BACK:
        return _("⬅️ Back")
    if p is Press.ADD:
        icon = {"c": "⚡", "s": "💢", "l": "🎯", "d": "✨"}.get(ch.argument[:1], "➕")
        dice = f"{ch.count}{die}" if ch.count > 1 else die
        return f"{icon} {name} {dice}{_pp(ch.cost, lang)}"
    if p is Press.REMOVE:
        return f"➖ {name}"
    if p is Press.RESOURCE:
        if ch.argument.endswith("u"):
            return _("🏠 {name}: use up, both dice", name=name)
        return _("🏠 {name} 2{die} aid", name=name, die=die)
    if p is Press.ROLL:
        return _("🎲 Roll · {who}", who=who) + _pp(ch.cost, lang)
    if p is Press.INCLUDE:
        return _("➕ Include a die · {who} (1 PP)", who=who)
    if p is Press.SETTLE:
        return _("✅ Keep this Result · {who}", who=who)
    if p is Press.GIVE_IN:
        return _("🏳️ Give in · {who}", who=who)
    if p is Press.TAKE_STRESS:
        return _("💥 Take Stress · {who}", who=who)
    if p is Press.INFLICT:
        return f"💥 {name} · {who}"
    if p is Press.STRESSED_OUT:
        return _("💀 Stressed Out · {who}", who=who)
    if p is Press.INTERFERE:
        return _("⚔️ {who} interferes", who=who) + _pp(ch.cost, lang)
    if p is Press.VOTE:
        return _("▶️ Go on (1 PP)") if ch.argument == "y" else _("⏹ Leave it stopped")
    if p is Press.COMPLICATION:
        return _("👁 {who}'s {die} 1 → Trouble", who=who, die=die)
    if p is Press.CANCEL_TROUBLE:
        return _("🧹 Use the {name} 1: Trouble −{die}", name=name, die=die)
    if p is Press.END_SCENE:
        return _("👁 End the scene")
    if p is Press.CLOSE:
        return _("👁 Leave the 1s")
    return str(p.value)


_MOST: dict[Press | None, int] = {
    Press.OPPOSITION_ADD: 5,
    Press.ADD: 2,
    Press.REMOVE: 3,
    Press.INFLICT: 3,
    Press.VOTE: 2,
}


def _rows(
    view: PanelView, choices: Sequence[Choice], lang: Lang, stressed: frozenset[str] = frozenset()
) -> list[list[InlineKeyboardButton]]:
    """Like buttons side by side as far as a phone shows their labels whole."""
    rows: list[list[InlineKeyboardButton]] = []
    run: list[InlineKeyboardButton] = []
    last: Press | None = None
    for ch in choices:
        if run and ch.verb is not last:
            rows += grid(run, _MOST.get(last, 1))
            run = []
        run.append(button(view, choice_label(ch, lang, stressed), ch.verb.value, ch.argument))
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
            return conflict_text(v, lang), None
        text = conflict_text(v, lang)
        now = now_line(
            CORTEX.panel(CONFLICT_PANEL).waiting(view.table, view.typed(ConflictState)).choices,
            lambda user: _person(v, user, lang, view.table),
            lambda choice: _phrase(choice, lang),
            lang=lang,
        )
        rows = _rows(view, v.choices, lang, _stressed(v.conflict))
        return (f"{text}\n{now}" if now else text), keyboard(rows)

    def read_reply(self, view: PanelView, text: str, lang: Lang) -> str:
        """A reply as the rules read it: while Stress is being inflicted, its first word
        (the Stress type, ``Гнев +d6 -d8``) with a default type's name in ``lang`` read
        as the stored type; anything else as written."""
        ct = load(view.table).table
        c = ct.conflict
        if c is None or c.phase is not Phase.INFLICTING:
            return cortex_reply_text(text, vocabulary())  # «деталь …», «помощь …»
        typed, space, rest = text.strip().partition(" ")
        return stress_typed(typed, ct.settings.stress_types, lang) + space + rest


def _person(v: ConflictView, user: int, lang: Lang, members: Table | None = None) -> str:
    """Someone at the table by the name in play: their Lead, or the Watchtower.

    With ``members``, the player's own name is added, "Birch (Alice)": the naming
    rule (core.rules.names) for someone who must act now.
    """
    if user == v.table.watchtower:
        return lang.gettext(WATCHTOWER)
    member = None if members is None else members.seat(user)
    for seat in v.table.seats:
        if seat.user == user:
            own = seat.character if member is None else member.name
            return esc(in_play(seat.character, own, introduce=member is not None))
    return lang.gettext("someone who left")


_PHRASES = {
    Press.OPPOSITION_ADD: N_("add opposition dice"),
    Press.OPPOSITION_UNDO: N_("take a die back"),
    Press.OPPOSITION_ROLL: N_("roll the opposition"),
    Press.STRESS_OPPOSITION: N_("roll your Stress as the opposition"),
    Press.OPEN_POOL: N_("add traits to the pool"),
    Press.BACK: N_("go back"),
    Press.ADD: N_("add traits to the pool"),
    Press.REMOVE: N_("take a trait out"),
    Press.RESOURCE: N_("spend a Resource"),
    Press.ROLL: N_("roll the pool"),
    Press.INCLUDE: N_("include another die"),
    Press.SETTLE: N_("settle the roll"),
    Press.GIVE_IN: N_("give in"),
    Press.TAKE_STRESS: N_("take the Stress"),
    Press.INFLICT: N_("pick the Stress to inflict"),
    Press.STRESSED_OUT: N_("take your opponent out"),
    Press.INTERFERE: N_("interfere"),
    Press.VOTE: N_("vote to go on or stop"),
    Press.COMPLICATION: N_("buy a Complication into Trouble"),
    Press.CANCEL_TROUBLE: N_("cancel Trouble with a Watchtower 1"),
    Press.END_SCENE: N_("end the scene"),
    Press.CLOSE: N_("close this roll"),
}


def _phrase(choice: Choice, lang: Lang) -> str:
    phrase = _PHRASES.get(choice.verb)
    return choice.verb.value if phrase is None else lang.gettext(phrase)


RENDERERS = [ConflictRenderer()]
