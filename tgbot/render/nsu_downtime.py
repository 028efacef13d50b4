"""How NSU downtime looks in the chat: complications with their table, everyone's
actions, open prompts, the Scout's roll, and the Scout's private look.

Pure text and buttons from rules data (who may do what comes from
:func:`~core.rules.nsu.downtime_panel.downtime_choices` and the panel's other choices).
Card faces appear only in :func:`scout_look_text`, for the scout's private chat.
"""

from __future__ import annotations

from functools import singledispatchmethod
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.rules.choice import Choice, actors
from core.rules.errors import NotYourTurn
from core.rules.names import in_play
from core.rules.nsu import SYSTEM as NSU
from core.rules.nsu import downtime as dt
from core.rules.nsu.action_roll import ActionKind as RollKind
from core.rules.nsu.action_roll import Phase
from core.rules.nsu.campaign import campaign_of, characters
from core.rules.nsu.details import MAX_HARMS
from core.rules.nsu.downtime import (
    COMPLICATION_TABLES,
    Complication,
    ComplicationRoll,
    DowntimeKind,
    DowntimePlace,
    DowntimeState,
    FilledTrack,
)
from core.rules.nsu.downtime_panel import (
    DOWNTIME_PANEL,
    HEALER,
    PLAN_PICK,
    PLAN_TEXT,
    PROJECT,
    RECONNECT,
    RECOVER,
    REWARD,
    SCOUT_PICK,
    SEEK,
    Button,
    DowntimePanelState,
    Menu,
    PanelVerb,
    Prompt,
    SideVerb,
    downtime_choices,
    panel_choices,
    scouted_card,
    table_card_name,
)
from core.rules.nsu.roll_choices import AfterRoll
from core.rules.nsu.sheet import RECOVERY_POINT_CAP, Character, SentimentState
from core.rules.nsu.terms import Aspect
from core.rules.nsu.world import (
    CLOCK_SEGMENTS,
    CardFlipped,
    CardScouted,
    ClockMoved,
    FocusSwitched,
    PartyRegrouped,
    PartySplit,
    PathDrawn,
    ResourceLevel,
    ResourceMoved,
    SceneDetailAdded,
    Travelled,
    World,
    visible_card,
)
from core.rules.table import Table
from core.rules.typed import detail_text, downtime_reply_text
from core.words.i18n import N_, Lang, lang_for
from core.words.map_words import mark, marks
from core.words.typed_words import vocabulary
from tgbot.buttons.nsu import LookButton
from tgbot.i18n import voice
from tgbot.panels import FollowUp, Note, button, keyboard
from tgbot.render.layout import (
    ONE_ROW,
    fit_name,
    fit_names,
    label_width,
    named,
    phone_rows,
)
from tgbot.render.nsu import safety_row
from tgbot.render.nsu_play import (
    ASPECT_NAMES,
    MAX_GRANTS,
    SOMEONE_WHO_LEFT,
    detail_help,
    player_name,
    roll_hints,
    roll_lines,
    roll_step_buttons,
)
from tgbot.render.text import esc, now_line, or_list

MAX_COMPLICATIONS = 3
LEVEL_NAMES = {
    ResourceLevel.SCARCITY: N_("a scarcity"),
    ResourceLevel.NEUTRAL: N_("neutral"),
    ResourceLevel.ABUNDANCE: N_("an abundance"),
}
COMPLICATION_NAMES = {
    Complication.AREA_RECOVERS: N_("Area in recovery"),
    Complication.PROBLEM_INTENSIFIES: N_("Problem intensifies"),
    Complication.SIDE_EFFECT: N_("An unforeseen side effect"),
    Complication.RELATIONS_WORSEN: N_("Relations worsen"),
    Complication.PROBLEM_SPREADS: N_("Problem spreads elsewhere"),
    Complication.THOSE_AFFECTED_FLEE: N_("Those affected flee"),
    Complication.FULLY_COME_TO_PASS: N_("The harm has fully come to pass"),
}
NEXT_HINT = N_(
    "Each of you: open 🛌 Rest &amp; heal or 🛠 Work &amp; scout and pick a downtime action "
    "for your character (Recover Harm and Upgrade skills are free); some ask you to reply "
    "to this message. When everyone is done, tap 🏁 End downtime and confirm."
)
PROMPT_HINTS = {
    RECOVER: N_(
        "reply with the scar the harm becomes: <code>Stiff wrist</code> "
        "(or <code>2 Stiff wrist</code> for harm line 2)"
    ),
    SEEK: N_(
        "a friend may tap Help; reply with the numbers of skills that help "
        "(<code>1 3</code>); then roll"
    ),
    SCOUT_PICK: N_("pick a face-down card nearby"),
    PLAN_PICK: N_("pick the location to address"),
    PLAN_TEXT: N_("reply with your plan to undo the damage"),
    RECONNECT: N_(
        "reply <code>2 1</code> (sentiment 2, raising mood 1) or "
        "<code>2 1 New friend</code> to forge a new one"
    ),
    PROJECT: N_(
        "reply with a mood, an aspect and the project: <code>1 mind #1</code> rolls "
        "mood 1 against your Mind die for project #1; the gap between the dice fills that many "
        "segments. To start a project, give its size (4, 6 or 8) and name: "
        "<code>1 mind 6 Learn carpentry</code>"
    ),
    REWARD: N_(
        "reply with the resource the reward helps (a new name makes a new abundance, "
        "R3 and R4 only)"
    ),
}
SENTRY = N_("The sentry")
ASPECTS = (Aspect.BODY, Aspect.MIND, Aspect.HEART)


def card_name(
    world: World, card_id: str, viewer: int | None = None, lang: Lang | None = None
) -> str:
    """A card as this viewer may name it: its title if seen, else its map label and back
    (in the reader's letters)."""
    card = world.card(card_id)
    view = visible_card(card, viewer)
    if view.face_visible and view.title is not None:
        return esc(view.title)
    lang = lang or lang_for(None)
    back = f" ({marks(card.back, lang)})" if card.back else ""
    return f"{mark(card.id, lang)}{back}"


def _character_name(
    state: DowntimeState, table: Table, player: int, lang: Lang, introduce: bool = False
) -> str:
    """A character in downtime, by the naming rule (core.rules.names)."""
    seat = table.seat(player)
    own = seat.name if seat is not None else lang.gettext(SOMEONE_WHO_LEFT)
    for p, sheet in state.sheets:
        if p == player:
            return esc(in_play(sheet.name, own, introduce=introduce))
    return esc(own)


class NsuDowntimeRenderer:
    kind = DOWNTIME_PANEL

    def follow_ups(self, view: PanelView) -> list[FollowUp]:
        """A successful Scout gets the card's face in their private chat, at once."""
        notes: list[FollowUp] = []
        panel = view.typed(DowntimePanelState)
        for event in view.events:
            if isinstance(event, dt.ScoutLooked) and event.player_id in panel.looks:
                lang = voice(view.campaign, event.player_id)
                notes.append(Note(event.player_id, scout_look_text(view, event.player_id, lang)))
        return notes

    def read_reply(self, view: PanelView, text: str, lang: Lang) -> str:
        """A reply as the rules read it: keywords typed in any catalogue's words (a
        Scout's detail ``вред: …``, a project ``1 разум #1``, ``поменять 1 3``)."""
        words = vocabulary()
        if view.typed(DowntimePanelState).scout is not None:
            text = detail_text(text, words)
        return downtime_reply_text(text, words)

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        campaign = campaign_of(view.table)
        state = campaign.downtime
        world = campaign.world
        if view.closed or state is None or world is None:
            return _closed_text(view, lang), None
        panel = view.typed(DowntimePanelState)
        lines = downtime_lines(panel, state, view.table, lang)
        now = downtime_now_line(panel, state, view.table, lang)
        if now:
            lines.append(now)
        markup = keyboard(
            [*downtime_buttons(view, state, lang), safety_row(view.table.campaign_id, lang)]
        )
        return "\n".join(lines), markup


_ACTION = N_("pick a downtime action")
_DOWNTIME_PHRASES: dict[object, str] = {
    DowntimeKind.RECOVER_HARM: N_("recover harm (free)"),
    DowntimeKind.UPGRADE_SKILLS: N_("upgrade skills (free)"),
    **{kind: _ACTION for kind in dt.COSTS_AN_ACTION},
    DowntimeKind.REDUCE_MOOD: N_("clear mood boxes"),
    DowntimeKind.SWAP_MOODS: N_("swap or replace moods (reply)"),
    DowntimeKind.REPLACE_MOOD: N_("swap or replace moods (reply)"),
    DowntimeKind.FINISH_INTROSPECTION: N_("finish introspecting"),
    DowntimeKind.ENDANGER_SENTIMENT: N_("mark a sentiment"),
    DowntimeKind.RENAME_MOOD: N_("reply with the mood's stronger name"),
    DowntimeKind.VOTE_ON_PLAN: N_("vote on the plan"),
    DowntimeKind.PIVOT_PLAN: N_("change the plan"),
    DowntimeKind.ROLL_FOR_PLAN: N_("roll for the plan"),
    DowntimeKind.ADD_DIE_TO_PLAN: N_("add a die to the plan"),
    DowntimeKind.SETTLE_PLAN: N_("settle the plan"),
    DowntimeKind.END_DOWNTIME: N_("end downtime"),
    PanelVerb.ANSWER_PROMPT: N_("answer the prompt above"),
    PanelVerb.PRESS_ON: N_("press on and look"),
    PanelVerb.TURN_BACK: N_("turn back"),
    AfterRoll.ADD_DETAIL: N_("reply with a detail"),
    AfterRoll.SKIP_DETAIL: N_("skip a detail"),
}


def downtime_now_line(
    panel: DowntimePanelState, state: DowntimeState, table: Table, lang: Lang
) -> str:
    """The panel's last line: who acts now (as the rules wait on them) and what they
    choose between."""

    def phrase(choice: Choice[Any]) -> str:
        if isinstance(choice.verb, RollKind):
            return lang.gettext("go on with the Scout's roll")
        return lang.gettext(_DOWNTIME_PHRASES.get(choice.verb, N_("act")))

    return now_line(
        NSU.panel(DOWNTIME_PANEL).waiting(table, panel).choices,
        lambda p: _character_name(state, table, p, lang, True),
        phrase,
        lang=lang,
    )


def _closed_text(view: PanelView, lang: Lang) -> str:
    lines = [
        lang.gettext(
            "🌙 <b>Downtime</b> is over. Pick where to head next, and adventure on: /adventure."
        )
    ]
    panel = view.typed(DowntimePanelState)
    lines += [f"• {text}" for text in log_lines(panel, view.table, None, lang)]
    return "\n".join(lines)


def downtime_lines(
    panel: DowntimePanelState, state: DowntimeState, table: Table, lang: Lang
) -> list[str]:
    world = state.world
    lines = [
        lang.gettext("🌙 <b>Downtime</b> at home (rest easy: a recovery point each)")
        if state.place is DowntimePlace.HOME
        else lang.gettext("🌙 <b>Downtime</b> at a safe camp")
    ]
    if state.complications:
        lines.append(lang.gettext("<b>Complications</b>"))
        shown = state.complications[-MAX_COMPLICATIONS:]
        if len(state.complications) > len(shown):
            lines.append(
                lang.gettext("… and {num} earlier.", num=len(state.complications) - len(shown))
            )
        for number, complication in enumerate(shown):
            lines += complication_lines(world, complication, lang, table=number == len(shown) - 1)
    else:
        lines.append(lang.gettext("No complications: the party left no location behind."))
    lines.append(lang.gettext("<b>Everyone</b>"))
    choices = downtime_choices(panel, state)
    for player, sheet in state.sheets:
        budget = state.budget(player)
        parts = [lang.ngettext("{num} action left", "{num} actions left", budget.actions_left)]
        open_to = {c.verb for c in choices if player in c.by}
        free = [  # the free actions the rules offer them now (none with nothing to heal or upgrade)
            lang.gettext(name)
            for name, kind in (
                (N_("Recover Harm"), DowntimeKind.RECOVER_HARM),
                (N_("Upgrade Skills"), DowntimeKind.UPGRADE_SKILLS),
            )
            if kind in open_to
        ]
        if free:
            parts.append(lang.gettext("free: {actions}", actions=", ".join(free)))
        elif budget.recovered_harm or budget.upgraded_skills:
            parts.append(lang.gettext("free: used"))
        points, harms = sheet.recovery_points, len(sheet.harms)
        cap = RECOVERY_POINT_CAP
        parts.append(lang.gettext("recovery {points}/{most}", points=points, most=cap))
        if harms:
            harm = lang.gettext("harm {count}/{most}", count=harms, most=MAX_HARMS)
            overcome = lang.gettext("Overcome")  # the state's name, as on the sheet
            parts.append(f"{harm} — {overcome}" if sheet.overcome else harm)
        if budget.introspection is not None:
            parts.append(
                lang.ngettext(
                    "introspecting: {num} box to clear",
                    "introspecting: {num} boxes to clear",
                    budget.introspection.remaining,
                )
            )
        lines.append(
            f"• {esc(sheet.name)} ({player_name(table, player, lang)}): " + " · ".join(parts)
        )
        if budget.filled is not None:
            lines.append(filled_track_line(sheet, budget.filled, lang))
    prompts = panel.prompts
    for player, prompt in prompts.items():
        who = _character_name(state, table, player, lang)
        kind = prompt.kind
        hint = PROMPT_HINTS.get(kind)
        text = f"✏️ {who}: {lang.gettext(hint) if hint else ''}"
        text += _numbered_lines(kind, state.sheet(player), prompt, lang)
        if kind == SEEK and prompt.skills:
            sheet = state.sheet(player)
            names = ", ".join(esc(sheet.skills[i].name) for i in prompt.skills)
            text += " " + lang.gettext("(skills: {names})", names=names)
        if kind == SEEK and prompt.helper is not None:
            helper = _character_name(state, table, prompt.helper, lang)
            text += " " + lang.gettext("(helped by {name})", name=helper)
        if kind == PLAN_TEXT and prompt.card is not None:
            text += " " + lang.gettext("at {place}", place=card_name(world, prompt.card, lang=lang))
        if kind == PROJECT:
            text += _project_list(world, lang)
        lines.append(text)
    scout = panel.scout
    roll = None if scout is None else scout.roll
    if not prompts and roll is None and state.plan is None:
        lines.append(lang.gettext(NEXT_HINT))
    if state.plan is not None:
        lines += plan_lines(state, table, lang)
    if scout is not None and roll is not None:
        lines.append(
            lang.gettext(
                "🔭 <b>{name} scouts {place}</b>",
                name=_character_name(state, table, scout.player, lang),
                place=card_name(world, scout.card, lang=lang),
            )
        )
        details = panel.scout_details
        # once the scout's roll is over (or the panel closed), a detail nobody added was skipped
        over = details is not None and details.finished
        skipped = range(MAX_GRANTS) if over else () if details is None else details.skipped
        lines += roll_lines(roll, table, lang, clock=False, skipped=skipped)  # face down: no clock
        if roll.phase is Phase.DESIRED_OUTCOME:
            lines.append(lang.gettext("↩️ The scout replies with how they go about it."))
        elif roll.phase is not Phase.DONE:
            lines += roll_hints(roll, table, lang)
        details = panel.scout_details
        if details is not None and details.open_grants:
            lines.append(detail_help(lang, SENTRY))
        elif any(c.verb is PanelVerb.PRESS_ON for c in downtime_choices(panel, state)):
            lines.append(
                lang.gettext(
                    "The scout lost: accept the details and press on to look, or turn back home."
                )
            )
    for player, card in panel.looks.items():
        lines.append(
            lang.gettext(
                "🔭 {name} may look at {place} in private.",
                name=_character_name(state, table, player, lang),
                place=card_name(world, card, lang=lang),
            )
        )
    lines += _menu_lines(panel, state, table, lang)
    recent = log_lines(panel, table, state, lang)
    if recent:
        lines.append(lang.gettext("<b>Latest</b>"))
        lines += [f"• {text}" for text in recent]
    return lines


def _enders(panel: DowntimePanelState, state: DowntimeState) -> frozenset[int]:
    """Who may confirm the end of downtime, as the rules' choices say."""
    return actors(c for c in panel_choices(panel, state) if c.verb is Button.END)


def _project_list(world: World, lang: Lang) -> str:
    open_ = [(i, p) for i, p in enumerate(world.projects, 1) if not p.complete]
    if not open_:
        return "\n   " + lang.gettext("Projects: none yet")
    return "\n   " + lang.gettext(
        "Projects: {list}",
        list=" · ".join(f"#{i} {esc(p.name)} {p.filled}/{p.segments}" for i, p in open_),
    )


def _menu_lines(
    panel: DowntimePanelState, state: DowntimeState, table: Table, lang: Lang
) -> list[str]:
    """What the open group of buttons is for."""
    world = state.world
    if panel.menu is Menu.END:
        who = or_list(
            [_character_name(state, table, p, lang) for p in sorted(_enders(panel, state))], lang
        )
        return [
            lang.gettext(
                "🏁 <b>End downtime for everyone?</b> Actions nobody has taken are lost and the "
                "party heads out. {names}: confirm, or go back.",
                names=who,
            )
        ]
    if panel.menu is Menu.CLOCK:
        out = []
        for roll_ in state.complications[:1]:
            card = world.card(roll_.card_id)
            out.append(
                lang.gettext(
                    "🕰 {place}: Collateral Clock {ticks}/{segments}. Clock +1 or −1 sets it "
                    "right; More time gives everyone another action and rolls the "
                    "complications again.",
                    place=card_name(world, card.id, lang=lang),
                    ticks=card.clock.ticks,
                    segments=CLOCK_SEGMENTS,
                )
            )
        return out
    if panel.menu is Menu.PLAYER and panel.focus is not None:
        who = _character_name(state, table, panel.focus, lang)
        return [lang.gettext("✏️ {name}'s own step below; ◀️ Back shows everyone's.", name=who)]
    if panel.menu in _GROUP_HINTS:
        offered = {  # the group's buttons, Back left out (Train opens a group of its own)
            c.verb if c.verb is not Button.OPEN_GROUP else Button.TRAIN
            for c in panel_choices(panel, state)
            if c.verb is not Button.OPEN_GROUP or c.argument == Menu.TRAIN.value
        }
        free = _FREE[panel.menu]
        hints = _GROUP_HINTS[panel.menu]
        if free in offered:
            said = hints[0] if offered - {free} else hints[1]
        else:
            said = hints[2] if offered else ""
        return [lang.gettext(said)] if said else []
    return []


_FREE = {Menu.REST: Button.RECOVER, Menu.WORK: Button.UPGRADE, Menu.TRAIN: Button.UPGRADE}
_GROUP_HINTS = {
    Menu.REST: (
        N_("🛌 <b>Rest &amp; heal</b>: Recover Harm is free; the others cost your action."),
        N_("🛌 <b>Rest &amp; heal</b>: Recover Harm is free."),
        N_("🛌 <b>Rest &amp; heal</b>: each of these costs your action."),
    ),
    Menu.WORK: (
        N_("🛠 <b>Work &amp; scout</b>: Upgrade skills is free; the others cost your action."),
        N_("🛠 <b>Work &amp; scout</b>: Upgrade skills is free."),
        N_("🛠 <b>Work &amp; scout</b>: each of these costs your action."),
    ),
    Menu.TRAIN: (
        "",
        "",
        N_("🛠 <b>Work &amp; scout</b>: training a skill costs your action."),
    ),
}
"""What a group's buttons cost, worded from what the group offers now (the free action,
the others, or both)."""


def filled_track_line(sheet: Character, filled: FilledTrack, lang: Lang) -> str:
    """What a player owes after a mood filled its track outside a roll (ruling 23)."""
    known = sheet.mood(filled.mood).name
    mood = esc(known) if known else lang.gettext("A mood")
    todo = []
    if filled.endanger:
        todo.append(lang.gettext("Tap a sentiment to mark."))
    if filled.rename:
        todo.append(lang.gettext("<b>Reply</b> with a stronger name for {mood}.", mood=mood))
    said = lang.gettext(
        "🌀 {name}: {mood} filled its track and is back to 0.", name=esc(sheet.name), mood=mood
    )
    return " ".join([said, *todo]) if todo else said + " "


def _open_mood(mood: Any, lang: Lang) -> str:
    return esc(mood.name) if mood.name else lang.gettext("open {die}", die=mood.die.label)


def _numbered_lines(kind: str, sheet: Character, prompt: Prompt, lang: Lang) -> str:
    """The sheet's lines a reply to this prompt refers to by number."""
    if kind == RECOVER:
        items = [esc(h) for h in sheet.harms]
        title = lang.gettext("Harm: {list}")
    elif kind == PROJECT:
        moods = [_open_mood(m, lang) for m in sheet.moods]
        listed = " · ".join(f"{i}. {x}" for i, x in enumerate(moods, 1))
        return "\n   " + lang.gettext("Moods: {list}", list=listed)
    elif kind == SEEK and not prompt.skills:
        items = [f"{esc(s.name)} ±{s.modifier}" for s in sheet.skills]
        title = lang.gettext("Skills: {list}")
    elif kind == RECONNECT:
        sentiments = [esc(x.name or "—") for x in sheet.sentiments]
        moods = [_open_mood(m, lang) for m in sheet.moods]
        return (
            "\n   "
            + lang.gettext(
                "Sentiments: {list}",
                list=" · ".join(f"{i}. {x}" for i, x in enumerate(sentiments, 1)),
            )
            + "\n   "
            + lang.gettext(
                "Moods: {list}", list=" · ".join(f"{i}. {x}" for i, x in enumerate(moods, 1))
            )
        )
    else:
        return ""
    if not items:
        return ""
    return "\n   " + title.format(list=" · ".join(f"{i}. {x}" for i, x in enumerate(items, 1)))


def complication_lines(
    world: World, roll: ComplicationRoll, lang: Lang, table: bool = True
) -> list[str]:
    """The roll at one location, with the table it was read from (when ``table``)."""

    def named_(option: Complication) -> str:
        return lang.gettext(COMPLICATION_NAMES[option])

    where = card_name(world, roll.card_id, lang=lang)
    head = lang.gettext(
        "📍 {place}, Collateral Clock {ticks}/{segments}:",
        place=where,
        ticks=roll.ticks,
        segments=CLOCK_SEGMENTS,
    )
    if roll.face is None and not roll.options:
        return [head + " " + lang.gettext("nothing progresses.")]
    if roll.face is None:
        first = roll.options[0]
        return [head + f" <b>{named_(first)}</b>. {lang.gettext(first.prompt)}"]
    options = or_list([named_(o) for o in roll.options], lang)
    lines = [head + f" d6 = {roll.face}: <b>{options}</b>."]
    lines += [f"   {lang.gettext(o.prompt)}" for o in roll.options]
    for (low, high), rows in COMPLICATION_TABLES.items() if table else ():
        if low <= roll.ticks <= high:
            cells = []
            for first_face, last, found in rows:
                faces = str(first_face) if first_face == last else f"{first_face}-{last}"
                text = f"{faces} {' / '.join(named_(o) for o in found)}"
                cells.append(f"<b>▶ {text}</b>" if first_face <= roll.face <= last else text)
            lines.append(
                "   "
                + lang.gettext("Table for {low}-{high} ticks:", low=low, high=high)
                + " "
                + " · ".join(cells)
            )
    return lines


def plan_lines(state: DowntimeState, table: Table, lang: Lang) -> list[str]:
    plan = state.plan
    assert plan is not None
    who = _character_name(state, table, plan.proposer, lang)
    votes = ", ".join(
        f"{_character_name(state, table, p, lang)} {'👍' if yes else '👎'}" for p, yes in plan.votes
    )
    lines = [
        lang.gettext(
            "🧹 {name} plans to address {place}: <i>{plan}</i>",
            name=who,
            place=card_name(state.world, plan.card_id, lang=lang),
            plan=esc(plan.plan),
        ),
        "   "
        + lang.gettext(
            "Votes: {votes} (modifier {modifier})",
            votes=votes or lang.gettext("none yet"),
            modifier=f"{plan.modifier:+d}",
        ),
    ]
    if plan.level is not None:
        dice = " + ".join(f"{d.face}" for d in plan.dice)
        lines.append(
            "   "
            + lang.gettext(
                "Dice {dice} {modifier} = {total} against Collateral {level}: {result}. "
                "Add a die (costs an action) or settle.",
                dice=dice,
                modifier=f"{plan.modifier:+d}",
                total=plan.total,
                level=plan.level,
                result=f"{plan.result:+d}",
            )
        )
    return lines


def log_lines(
    panel: DowntimePanelState, table: Table, state: DowntimeState | None, lang: Lang | None = None
) -> list[str]:
    """The latest happenings, newest last."""
    line = DowntimeLine(table, state, lang or lang_for(None))
    return [text for text in map(line.text, panel.log) if text]


class DowntimeLine:
    """The downtime's happenings as lines of its panel: one method per kind of event.

    Every kind the panel logs (:data:`~core.rules.nsu.downtime_panel.LOGGED_KINDS`) has
    its method; the kinds shown elsewhere (the complications' table, the map) are
    drawn as no line.
    """

    def __init__(self, table: Table, state: DowntimeState | None, lang: Lang) -> None:
        self.table, self.state, self.lang = table, state, lang

    def name(self, player: int) -> str:
        """A character by the naming rule while downtime lasts, from the table's sheets after."""
        if self.state is not None:
            return _character_name(self.state, self.table, player, self.lang)
        made = characters(self.table).get(player)  # downtime is over: the sheets on the table
        return esc(made.name) if made is not None else player_name(self.table, player, self.lang)

    def said(self, message: str, player: int, **values: object) -> str:
        """``message`` with the character's ``{name}`` and ``values`` filled in."""
        return self.lang.gettext(message, name=self.name(player), **values)

    def points(self, n: int) -> str:
        return self.lang.ngettext("{num} recovery point", "{num} recovery points", n)

    def aspect(self, aspect: Aspect) -> str:
        return self.lang.gettext(ASPECT_NAMES[aspect])

    @singledispatchmethod
    def text(self, event: object) -> str:
        """One happening as a line of the panel ("" for one shown elsewhere)."""
        raise TypeError(f"no downtime line for {type(event).__name__}")

    @text.register(dt.ComplicationRolled)  # the complications' table shows them
    @text.register(dt.ProjectStarted)  # the project's progress line follows
    @text.register(dt.PlanPivoted)
    @text.register(CardFlipped)  # the map shows the world's changes
    @text.register(Travelled)
    @text.register(SceneDetailAdded)
    @text.register(PartySplit)
    @text.register(FocusSwitched)
    @text.register(PartyRegrouped)
    @text.register(CardScouted)
    @text.register(PathDrawn)
    def _shown_elsewhere(self, event: object) -> str:
        return ""

    @text.register
    def _rested(self, event: dt.RecoveryPointsTaken) -> str:
        return self.said(
            N_("{name} rests: +{points} ({total}/{most})."),
            event.player_id,
            points=self.points(event.gained),
            total=event.total,
            most=RECOVERY_POINT_CAP,
        )

    @text.register
    def _harm_recovered(self, event: dt.HarmRecovered) -> str:
        return self.said(
            N_("{name} turns {harm} into the scar {scar} ({points})."),
            event.player_id,
            harm=esc(event.harm),
            scar=esc(event.scar),
            points=self.points(event.cost),
        )

    @text.register
    def _skill_upgraded(self, event: dt.SkillUpgraded) -> str:
        return self.said(
            N_("{name} upgrades {skill} to ±{modifier}."),
            event.player_id,
            skill=esc(event.skill),
            modifier=event.modifier,
        )

    @text.register
    def _recovery_sought(self, event: dt.RecoverySought) -> str:
        lang = self.lang
        faces = " + ".join(str(f) for f in event.body_faces)
        helper = (
            ""
            if event.helper_face is None
            else lang.gettext(", a friend's Heart {face}", face=event.helper_face)
        )
        if event.skill_bonus:
            faces += " + " + lang.gettext("skills {bonus}", bonus=event.skill_bonus)
        if event.helper_bonus:
            helper += " + " + lang.gettext("skills {bonus}", bonus=event.helper_bonus)
        return self.said(
            N_("{name} seeks recovery: Body {faces}{helper} = {total}, +{points}."),
            event.player_id,
            faces=faces,
            helper=helper,
            total=event.total,
            points=self.points(event.gained),
        )

    @text.register
    def _scout_looked(self, event: dt.ScoutLooked) -> str:
        return self.said(
            N_("{name} scouted a card and saw its face (it stays face down)."), event.player_id
        )

    @text.register
    def _scout_turned_back(self, event: dt.ScoutTurnedBack) -> str:
        return self.said(N_("{name} turned back home without a look."), event.player_id)

    @text.register
    def _plan_proposed(self, event: dt.PlanProposed) -> str:
        return self.said(N_("{name} proposed a plan."), event.player_id)

    @text.register
    def _plan_voted(self, event: dt.PlanVoted) -> str:
        if event.support:
            return self.said(N_("{name} backs the plan."), event.player_id)
        return self.said(N_("{name} doubts the plan."), event.player_id)

    @text.register
    def _plan_die_rolled(self, event: dt.PlanDieRolled) -> str:
        return self.said(
            N_("{name} rolls {aspect} {face}: total {total}."),
            event.player_id,
            aspect=self.aspect(event.aspect),
            face=event.face,
            total=event.total,
        )

    @text.register
    def _plan_settled(self, event: dt.PlanSettled) -> str:
        return self.lang.gettext(
            "The plan is settled: the clock goes {before} → {after}.",
            before=event.before,
            after=event.after,
        )

    @text.register
    def _introspection_rolled(self, event: dt.IntrospectionRolled) -> str:
        return self.lang.ngettext(
            "{name} turns inward: Heart {face}, {num} box to clear.",
            "{name} turns inward: Heart {face}, {num} boxes to clear.",
            event.heart_face,
            name=self.name(event.player_id),
            face=event.heart_face,
        )

    @text.register
    def _mood_reduced(self, event: dt.MoodReduced) -> str:
        return self.lang.ngettext(
            "{name} clears {num} box; {left} left.",
            "{name} clears {num} boxes; {left} left.",
            event.amount,
            name=self.name(event.player_id),
            left=event.remaining,
        )

    @text.register
    def _moods_swapped(self, event: dt.MoodsSwapped) -> str:
        return self.said(N_("{name} swaps two moods."), event.player_id)

    @text.register
    def _mood_replaced(self, event: dt.MoodReplaced) -> str:
        return self.said(
            N_("{name} replaces a mood with {mood}."), event.player_id, mood=esc(event.name)
        )

    @text.register
    def _introspection_finished(self, event: dt.IntrospectionFinished) -> str:
        return self.said(N_("{name} finishes introspecting."), event.player_id)

    @text.register
    def _mood_track_filled(self, event: dt.MoodTrackFilled) -> str:
        return self.said(
            N_("{name}'s {mood} fills its track: back to 0."),
            event.player_id,
            mood=esc(event.name),
        )

    @text.register
    def _sentiment_endangered(self, event: dt.SentimentEndangered) -> str:
        if event.state is SentimentState.LOST:
            return self.said(N_("{name} marks a sentiment: now lost."), event.player_id)
        return self.said(N_("{name} marks a sentiment: now at risk."), event.player_id)

    @text.register
    def _mood_renamed(self, event: dt.MoodRenamed) -> str:
        return self.said(
            N_("{name}'s {old} becomes {new}."),
            event.player_id,
            old=esc(event.old),
            new=esc(event.new),
        )

    @text.register
    def _skills_trained(self, event: dt.SkillsTrained) -> str:
        skills = ", ".join(esc(s) for s in event.skills) or self.lang.gettext("no skill")
        return self.said(
            N_("{name} trains {aspect} ({face}): {skills}."),
            event.player_id,
            aspect=self.aspect(event.aspect),
            face=event.face,
            skills=skills,
        )

    @text.register
    def _sentiment_reconnected(self, event: dt.SentimentReconnected) -> str:
        return self.said(
            N_("{name} reconnects with a sentiment (mood +{raised})."),
            event.player_id,
            raised=event.mood_raised_by,
        )

    @text.register
    def _project_progressed(self, event: dt.ProjectProgressed) -> str:
        lang = self.lang
        shift = (
            " " + lang.gettext("{shift} skill", shift=f"{event.skill_shift:+d}")
            if event.skill_shift
            else ""
        )
        return lang.gettext(
            "📜 {project}: mood die {mood} against aspect die {aspect}{shift}, a gap of "
            "{marked}: now {filled}/{segments}.",
            project=_project_name(event.project_id, self.table, lang),
            mood=event.mood_face,
            aspect=event.aspect_face,
            shift=shift,
            marked=event.marked,
            filled=event.filled,
            segments=event.segments,
        )

    @text.register
    def _project_completed(self, event: dt.ProjectCompleted) -> str:
        return self.lang.gettext(
            "📜 {project} is complete!",
            project=_project_name(event.project_id, self.table, self.lang),
        )

    @text.register
    def _time_spent(self, event: dt.TimeSpent) -> str:
        return self.lang.ngettext(
            "More time passes: +{num} action each, more complications.",
            "More time passes: +{num} actions each, more complications.",
            event.actions_each,
        )

    @text.register
    def _reward_brought_home(self, event: dt.RewardBroughtHome) -> str:
        if event.needs_project:
            return self.lang.gettext(
                "The reward comes home for {resource} (a long-term project can unlock more).",
                resource=esc(event.resource),
            )
        return self.lang.gettext(
            "The reward comes home for {resource}.", resource=esc(event.resource)
        )

    @text.register
    def _resource_moved(self, event: ResourceMoved) -> str:
        return self.lang.gettext(
            "At home, {resource} is now {level}.",
            resource=esc(event.name),
            level=self.lang.gettext(LEVEL_NAMES[event.after]),
        )

    @text.register
    def _clock_moved(self, event: ClockMoved) -> str:
        return self.lang.gettext(
            "A Collateral Clock moves {before} → {after}.", before=event.before, after=event.after
        )

    @text.register
    def _downtime_ended(self, event: dt.DowntimeEnded) -> str:
        return self.lang.gettext("Downtime ends.")


def _project_name(project_id: str, table: Table, lang: Lang) -> str:
    world = campaign_of(table).world
    for project in world.projects if world is not None else ():
        if project.id == project_id:
            return esc(project.name)
    return lang.gettext("A project")


def _b(view: PanelView, label: str, action: str, argument: str = "") -> InlineKeyboardButton:
    return button(view, label, action, argument)


def _named(lang: Lang, message: str, name: str) -> str:
    """A translated ``message`` with a person's ``{name}`` in it, as much of the name as fits a
    row in whole words."""
    return named(lang.gettext(message).replace("{name}", "{}"), name)


def _fit(prefix: str, name: str) -> str:
    """``prefix`` and ``name``, as much of the name as fits a one-button row in whole words."""
    return prefix + fit_name(name, ONE_ROW - label_width(prefix))


_pairs = phone_rows


MENU_LABELS = {
    Menu.REST: N_("🛌 Rest & heal"),
    Menu.WORK: N_("🛠 Work & scout"),
    Menu.CLOCK: N_("🕰 Clock & time"),
    Menu.END: N_("🏁 End downtime"),
}
BACK = N_("◀️ Back")
BUTTON_LABELS = {
    Button.RECOVER: N_("🩹 Recover Harm (free)"),
    Button.SEEK: N_("🛌 Seek Recovery"),
    Button.INTROSPECT: N_("🧘 Introspection"),
    Button.RECONNECT: N_("🤝 Reconnect"),
    Button.UPGRADE: N_("⬆️ Upgrade skills (free)"),
    Button.SCOUT: N_("🔭 Scout a card"),
    Button.ADDRESS: N_("🧹 Address Collateral"),
    Button.PROJECT: N_("📜 Long-term project"),
    Button.REWARD: N_("🎁 Bring the reward home"),
    Button.PLAN_ROLL: N_("🎲 {name}: roll Mind"),
    Button.PLAN_SETTLE: N_("✅ {name}: settle"),
    Button.LOOK: N_("🔭 {name}: see it"),
    PanelVerb.PRESS_ON: N_("🔭 {name}: press on"),
    PanelVerb.TURN_BACK: N_("🏠 {name}: turn back"),
    SideVerb.TICK: N_("🕰 Clock +1"),
    SideVerb.UNTICK: N_("🕰 Clock −1"),
    SideVerb.MORE_TIME: N_("⏳ More time"),
}
PLAN_DICE = {
    Aspect.BODY.value: N_("➕ Body die"),
    Aspect.MIND.value: N_("➕ Mind die"),
    Aspect.HEART.value: N_("➕ Heart die"),
}
SEEK_LABELS = {
    (SideVerb.SEEK_HELP, ""): N_("🤝 Help {name}"),
    (SideVerb.SEEK_ROLL, ""): N_("🎲 {name}: roll"),
    (SideVerb.SEEK_ROLL, HEALER): N_("🎲 {name}: roll + healer"),
}
_GROUPS = frozenset(m.value for m in (Menu.REST, Menu.WORK, Menu.CLOCK, Menu.END))

Rows = list[list[InlineKeyboardButton]]


def downtime_buttons(view: PanelView, state: DowntimeState, lang: Lang) -> Rows:
    """The panel's buttons: the rules' :func:`panel_choices`, labelled and laid out in rows
    (cards, dice and groups in pairs, a vote or a clock in one row, the rest one a row)."""
    panel = view.typed(DowntimePanelState)
    rows: Rows = []
    run: tuple[str, list[InlineKeyboardButton]] = ("", [])
    roll_done = False

    def flush() -> None:
        key, found = run
        if found:
            rows.extend(_pairs(found) if key.startswith("pair") else [found])

    for choice in panel_choices(panel, state):
        if isinstance(choice.verb, RollKind) and panel.scout is not None:
            if not roll_done:  # the Scout's roll: its steps as the roll panel draws them
                flush()
                run = ("", [])
                rows.extend(roll_step_buttons(view, panel.scout.roll, lang))
                roll_done = True
            continue
        made = _button(view, choice, panel.menu, state, lang)
        key = _row_key(choice)
        if key and key == run[0]:
            run[1].append(made)
            continue
        flush()
        run = (key, [made])
    flush()
    return rows


def _row_key(choice: Choice[Any]) -> str:
    """Which buttons share rows: the same key, side by side."""
    verb = choice.verb
    if verb in (Button.SCOUT_CARD, Button.PLAN_DIE, Button.TRAIN):
        return f"pair {verb.value}"
    if verb is Button.OPEN_GROUP and choice.argument.startswith("p"):
        return "pair steps"
    if verb in (Button.OPEN_GROUP, Button.END) and choice.argument in _GROUPS:
        return "pair groups"
    if verb is Button.VOTE:
        return "vote"
    if verb in (SideVerb.TICK, SideVerb.UNTICK):
        return "clock"
    return ""


def _button(
    view: PanelView, choice: Choice[Any], menu: Menu, state: DowntimeState, lang: Lang
) -> InlineKeyboardButton:
    verb = choice.verb
    if verb is Button.LOOK:
        label = _named(lang, BUTTON_LABELS[verb], choice.who)
        return InlineKeyboardButton(label, callback_data=LookButton(view.id).encode())
    return _b(view, _label(choice, menu, state, lang), verb.value, choice.argument)


def _group_label(argument: str, who: str, menu: Menu, lang: Lang) -> str:
    """The words of a button that opens a group (or a player's step), ends downtime, or
    goes back (``menu``: the group open now)."""
    if argument.startswith("p"):
        return _named(lang, N_("✏️ {name}'s step"), who)
    if argument == "yes":
        return lang.gettext("✅ Yes, end downtime")
    if argument in _GROUPS:
        return lang.gettext(MENU_LABELS[Menu(argument)])
    if argument == Menu.TRAIN.value:
        return lang.gettext("🏋 Train skills")
    return lang.gettext(N_("◀️ Not yet") if menu is Menu.END else BACK)


def _label(choice: Choice[Any], menu: Menu, state: DowntimeState, lang: Lang) -> str:
    """A downtime button's words, from its choice (``menu``: the group open now)."""
    verb, argument, who = choice.verb, choice.argument, choice.who
    world = state.world
    if verb in (Button.OPEN_GROUP, Button.END):
        return _group_label(argument, who, menu, lang)
    if verb is Button.DROP:
        return lang.gettext(N_("✖️ Drop mine") if menu is Menu.PLAYER else N_("✖️ Drop my choice"))
    if verb in (SideVerb.SEEK_HELP, SideVerb.SEEK_ROLL):
        return _named(lang, SEEK_LABELS[verb, choice.name], who)
    if verb is Button.SCOUT_CARD:
        return _fit("🔭 ", table_card_name(world, choice.name, lambda s: marks(s, lang)))
    if verb is Button.PLAN_CARD:
        return "🧹 " + fit_name(table_card_name(world, choice.name, lambda s: marks(s, lang)), 26)
    if verb is Button.CLEAR:
        return _fit(lang.gettext("🧘 {name}: clear ", name=fit_name(who, 10)), choice.name)
    if verb is Button.INTROSPECT_DONE:
        return lang.gettext("🧘 {name}: done", name=fit_name(who, 10))
    if verb is Button.ENDANGER:
        return _fit(lang.gettext("💔 {name}: mark ", name=fit_name(who, 10)), choice.name)
    if verb is Button.VOTE:
        return lang.gettext(N_("👍 Sound plan") if argument == "yes" else N_("👎 Won't work"))
    if verb is Button.PLAN_DIE:
        return lang.gettext(PLAN_DICE[argument])
    if verb is Button.TRAIN:
        return f"🏋 {lang.gettext(ASPECT_NAMES[Aspect(argument)])}"
    if verb is AfterRoll.SKIP_DETAIL:
        return lang.gettext(
            "Skip detail {number} ({names})",
            number=choice.count,
            names=fit_names(who.split(", "), 14),
        )
    label = BUTTON_LABELS[verb]
    return _named(lang, label, who) if "{name}" in label else lang.gettext(label)


def _plain_name(state: DowntimeState, table: Table, player: int, lang: Lang) -> str:
    for p, sheet in state.sheets:
        if p == player:
            return sheet.name
    seat = table.seat(player)
    return seat.name if seat is not None else "?"


def scout_look_text(view: PanelView, viewer: int, lang: Lang) -> str:
    """The scouted card's face, for the scout's private chat only.

    Raises:
        NotYourTurn: ``viewer`` did not scout a card in this downtime.
    """
    world = campaign_of(view.table).world
    if world is None:
        raise NotYourTurn(N_("Only the scout may look at the card."))
    card = scouted_card(view.typed(DowntimePanelState), world, viewer)
    back = f" ({marks(world.card(card.id).back, lang)})" if world.card(card.id).back else ""
    return "\n".join(
        [
            lang.gettext(  # the map's label, so the scout finds the card on the map
                "🔭 <b>What you saw at {label}</b>: {title}{back}",
                label=esc(mark(card.id, lang)),
                title=esc(card.title or ""),
                back=back,
            ),
            esc(card.description or ""),
            lang.gettext(
                "Danger: {danger} · Treasure: {treasure}",
                danger=esc(card.danger_type or ""),
                treasure=esc(card.treasure_type or ""),
            ),
            lang.gettext(
                "What could be harmed: {target}", target=esc(card.collateral_target or "")
            ),
            lang.gettext("The card stays face down for everyone else; share what you like."),
        ]
    )
