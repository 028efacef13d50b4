"""How NSU downtime looks in the chat: complications with their table, everyone's
actions, open prompts, the Scout's roll, and the Scout's private look.

Pure text and buttons from rules data (who may do what comes from
:func:`~core.rules.nsu.downtime.allowed_actions` and the panel's own queries).
Card faces appear only in :func:`scout_look_text`, for the scout's private chat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.i18n import Lang
from core.rules.choice import Choice
from core.rules.errors import NotYourTurn
from core.rules.names import counted, in_play
from core.rules.nsu import downtime as dt
from core.rules.nsu.action_roll import ActionKind as RollKind
from core.rules.nsu.action_roll import Phase
from core.rules.nsu.campaign import campaign_of, characters
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
    END,
    MENU,
    MENU_PARENT,
    PLAN_PICK,
    PLAN_TEXT,
    PROJECT,
    RECONNECT,
    RECOVER,
    REWARD,
    SCOUT_PICK,
    SEEK,
    DowntimePanelState,
    Menu,
    PanelVerb,
    Prompt,
    downtime_choices,
    enders,
    menu_openers,
    plan_targets,
    reward_card,
    scout_must_decide,
    scout_targets,
    scouted_card,
)
from core.rules.nsu.roll_choices import AfterRoll
from core.rules.nsu.roll_panel import SKIP
from core.rules.nsu.sheet import Character
from core.rules.nsu.world import CLOCK_SEGMENTS, World, visible_card
from core.rules.table import Table
from tgbot.buttons.nsu import LookButton
from tgbot.panels import FollowUp, Note, button, keyboard
from tgbot.render.layout import (
    MAX_BUTTONS,
    ONE_ROW,
    label_width,
    named,
    phone_rows,
    short,
)
from tgbot.render.nsu import safety_row
from tgbot.render.nsu_play import (
    DETAIL_HELP,
    player_name,
    roll_hints,
    roll_lines,
    roll_step_buttons,
)
from tgbot.render.text import esc, now_line, or_list

MAX_COMPLICATIONS = 3
LEVEL_NAMES = {0: "a scarcity", 1: "neutral", 2: "an abundance"}
COMPLICATION_NAMES = {
    Complication.AREA_RECOVERS: "Area in recovery",
    Complication.PROBLEM_INTENSIFIES: "Problem intensifies",
    Complication.SIDE_EFFECT: "An unforeseen side effect",
    Complication.RELATIONS_WORSEN: "Relations worsen",
    Complication.PROBLEM_SPREADS: "Problem spreads elsewhere",
    Complication.THOSE_AFFECTED_FLEE: "Those affected flee",
    Complication.FULLY_COME_TO_PASS: "The harm has fully come to pass",
}
NEXT_HINT = (
    "Each of you: open 🛌 Rest &amp; heal or 🛠 Work &amp; scout and pick a downtime action "
    "for your character (Recover Harm and Upgrade skills are free); some ask you to reply "
    "to this message. When everyone is done, tap 🏁 End downtime and confirm."
)
PROMPT_HINTS = {
    RECOVER: "reply with the scar the harm becomes: <code>Stiff wrist</code> "
    "(or <code>2 Stiff wrist</code> for harm line 2)",
    SEEK: "a friend may tap Help; reply with the numbers of skills that help "
    "(<code>1 3</code>); then roll",
    SCOUT_PICK: "pick a face-down card nearby",
    PLAN_PICK: "pick the location to address",
    PLAN_TEXT: "reply with your plan to undo the damage",
    RECONNECT: "reply <code>2 1</code> (sentiment 2, raising mood 1) or "
    "<code>2 1 New friend</code> to forge a new one",
    PROJECT: "reply with a mood, an aspect and the project: <code>1 mind #1</code> rolls "
    "mood 1 against your Mind die for project #1; the gap between the dice fills that many "
    "segments. To start a project, give its size (4, 6 or 8) and name: "
    "<code>1 mind 6 Learn carpentry</code>",
    REWARD: "reply with the resource the reward helps (a new name makes a new abundance, "
    "R3 and R4 only)",
}


def card_name(world: World, card_id: str, viewer: int | None = None) -> str:
    """A card as this viewer may name it: its title if seen, else its map label and back."""
    card = world.card(card_id)
    view = visible_card(card, viewer)
    if view.face_visible and view.title is not None:
        return esc(view.title)
    back = f" ({card.back})" if card.back else ""
    return f"{card.id}{back}"


def _character_name(
    state: DowntimeState, table: Table, player: int, introduce: bool = False
) -> str:
    """A character in downtime, by the naming rule (core.rules.names)."""
    seat = table.seat(player)
    own = seat.name if seat is not None else "someone who left"
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
                notes.append(Note(event.player_id, scout_look_text(view, event.player_id)))
        return notes

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        campaign = campaign_of(view.table)
        state = campaign.downtime
        world = campaign.world
        if view.closed or state is None or world is None:
            return _closed_text(view), None
        panel = view.typed(DowntimePanelState)
        lines = downtime_lines(panel, state, view.table)
        now = downtime_now_line(panel, state, view.table)
        if now:
            lines.append(now)
        markup = keyboard([*downtime_buttons(view, state), safety_row(view.table.campaign_id)])
        return "\n".join(lines), markup


_FREE = "take a free action (Recover Harm, Upgrade skills)"
_ACTION = "pick a downtime action"
_DOWNTIME_PHRASES: dict[object, str] = {
    DowntimeKind.RECOVER_HARM: _FREE,
    DowntimeKind.UPGRADE_SKILLS: _FREE,
    **{kind: _ACTION for kind in dt.COSTS_AN_ACTION},
    DowntimeKind.REDUCE_MOOD: "clear mood boxes",
    DowntimeKind.SWAP_MOODS: "swap or replace moods (reply)",
    DowntimeKind.REPLACE_MOOD: "swap or replace moods (reply)",
    DowntimeKind.FINISH_INTROSPECTION: "finish introspecting",
    DowntimeKind.ENDANGER_SENTIMENT: "mark a sentiment",
    DowntimeKind.RENAME_MOOD: "reply with the mood's stronger name",
    DowntimeKind.VOTE_ON_PLAN: "vote on the plan",
    DowntimeKind.PIVOT_PLAN: "change the plan",
    DowntimeKind.ROLL_FOR_PLAN: "roll for the plan",
    DowntimeKind.ADD_DIE_TO_PLAN: "add a die to the plan",
    DowntimeKind.SETTLE_PLAN: "settle the plan",
    DowntimeKind.END_DOWNTIME: "end downtime",
    PanelVerb.ANSWER_PROMPT: "answer the prompt above",
    PanelVerb.PRESS_ON: "press on and look",
    PanelVerb.TURN_BACK: "turn back",
    AfterRoll.ADD_DETAIL: "reply with a detail",
    AfterRoll.SKIP_DETAIL: "skip a detail",
}
DOWNTIME_SIDE = frozenset(
    {
        DowntimeKind.TICK_COLLATERAL,
        DowntimeKind.UNTICK_COLLATERAL,
        DowntimeKind.SPEND_MORE_TIME,
        DowntimeKind.BRING_REWARD_HOME,
        RollKind.CANCEL,
    }
)


def downtime_now_line(panel: DowntimePanelState, state: DowntimeState, table: Table) -> str:
    """The panel's last line: who acts now and what they choose between."""
    choices = downtime_choices(panel, state)

    def phrase(choice: Choice[Any]) -> str:
        if isinstance(choice.verb, RollKind):
            return "go on with the Scout's roll"
        return _DOWNTIME_PHRASES.get(choice.verb, "act")

    return now_line(
        choices, lambda p: _character_name(state, table, p, True), phrase, DOWNTIME_SIDE
    )


def _closed_text(view: PanelView) -> str:
    lines = ["🌙 <b>Downtime</b> is over. Pick where to head next, and adventure on."]
    panel = view.typed(DowntimePanelState)
    lines += [f"• {text}" for text in log_lines(panel, view.table, None)]
    return "\n".join(lines)


def downtime_lines(panel: DowntimePanelState, state: DowntimeState, table: Table) -> list[str]:
    world = state.world
    place = (
        "at home (rest easy: a recovery point each)"
        if state.place is DowntimePlace.HOME
        else "at a safe camp"
    )
    lines = [f"🌙 <b>Downtime</b> {place}"]
    if state.complications:
        lines.append("<b>Complications</b>")
        shown = state.complications[-MAX_COMPLICATIONS:]
        if len(state.complications) > len(shown):
            lines.append(f"… and {len(state.complications) - len(shown)} earlier.")
        for number, complication in enumerate(shown):
            lines += complication_lines(world, complication, table=number == len(shown) - 1)
    else:
        lines.append("No complications: the party left no location behind.")
    lines.append("<b>Everyone</b>")
    for player, sheet in state.sheets:
        budget = state.budget(player)
        parts = [f"{counted(budget.actions_left, 'action')} left"]
        free = [
            name
            for name, done in (
                ("Recover Harm", budget.recovered_harm),
                ("Upgrade Skills", budget.upgraded_skills),
            )
            if not done
        ]
        parts.append("free: " + (", ".join(free) if free else "used"))
        parts.append(f"recovery {sheet.recovery_points}/4")
        if sheet.harms:
            parts.append(f"harm {len(sheet.harms)}/4" + (" — Overcome" if sheet.overcome else ""))
        if budget.introspection is not None:
            parts.append(
                f"introspecting: {counted(budget.introspection.remaining, 'box', 'boxes')} to clear"
            )
        lines.append(f"• {esc(sheet.name)} ({player_name(table, player)}): " + " · ".join(parts))
        if budget.filled is not None:
            lines.append(filled_track_line(sheet, budget.filled))
    prompts = panel.prompts
    for player, prompt in prompts.items():
        who = _character_name(state, table, player)
        kind = prompt.kind
        text = f"✏️ {who}: {PROMPT_HINTS.get(kind, '')}"
        text += _numbered_lines(kind, state.sheet(player), prompt)
        if kind == SEEK and prompt.skills:
            sheet = state.sheet(player)
            names = ", ".join(esc(sheet.skills[i].name) for i in prompt.skills)
            text += f" (skills: {names})"
        if kind == SEEK and prompt.helper is not None:
            text += f" (helped by {_character_name(state, table, prompt.helper)})"
        if kind == PLAN_TEXT and prompt.card is not None:
            text += f" at {card_name(world, prompt.card)}"
        if kind == PROJECT:
            text += _project_list(world)
        lines.append(text)
    scout = panel.scout
    roll = None if scout is None else scout.roll
    if not prompts and roll is None and state.plan is None:
        lines.append(NEXT_HINT)
    if state.plan is not None:
        lines += plan_lines(state, table)
    if scout is not None and roll is not None:
        lines.append(
            f"🔭 <b>{_character_name(state, table, scout.player)} scouts "
            f"{card_name(world, scout.card)}</b>"
        )
        lines += roll_lines(roll, table, clock=False)  # a face-down card: no clock ticks
        if roll.phase is Phase.DESIRED_OUTCOME:
            lines.append("↩️ The scout replies with how they go about it.")
        elif roll.phase is not Phase.DONE:
            lines += roll_hints(roll, table)
        details = panel.scout_details
        if details is not None and details.open_grants:
            lines.append(DETAIL_HELP.replace(" @ The guard", " @ The sentry"))
        elif scout_must_decide(panel) is not None:
            lines.append(
                "The scout lost: accept the details and press on to look, or turn back home."
            )
    for player, card in panel.looks.items():
        lines.append(
            f"🔭 {_character_name(state, table, player)} may look at "
            f"{card_name(world, card)} in private."
        )
    lines += _menu_lines(panel, state, table)
    recent = log_lines(panel, table, state)
    if recent:
        lines.append("<b>Latest</b>")
        lines += [f"• {text}" for text in recent]
    return lines


def _project_list(world: World) -> str:
    open_ = [(i, p) for i, p in enumerate(world.projects, 1) if not p.complete]
    if not open_:
        return "\n   Projects: none yet"
    return "\n   Projects: " + " · ".join(
        f"#{i} {esc(p.name)} {p.filled}/{p.segments}" for i, p in open_
    )


def _menu_lines(panel: DowntimePanelState, state: DowntimeState, table: Table) -> list[str]:
    """What the open group of buttons is for."""
    world = state.world
    if panel.menu is Menu.END:
        who = or_list([_character_name(state, table, p) for p in sorted(enders(panel, state))])
        return [
            "🏁 <b>End downtime for everyone?</b> Actions nobody has taken are lost and the "
            f"party heads out. {who}: confirm, or go back."
        ]
    if panel.menu is Menu.CLOCK:
        out = []
        for roll_ in state.complications[:1]:
            card = world.card(roll_.card_id)
            out.append(
                f"🕰 {card_name(world, card.id)}: Collateral Clock {card.clock.ticks}/"
                f"{CLOCK_SEGMENTS}. Clock +1 or −1 sets it right; More time gives everyone "
                "another action and rolls the complications again."
            )
        return out
    if panel.menu is Menu.PLAYER and panel.focus is not None:
        who = _character_name(state, table, panel.focus)
        return [f"✏️ {who}'s own step below; ◀️ Back shows everyone's."]
    if panel.menu is Menu.REST:
        return ["🛌 <b>Rest &amp; heal</b>: Recover Harm is free; the others cost your action."]
    if panel.menu in (Menu.WORK, Menu.TRAIN):
        return ["🛠 <b>Work &amp; scout</b>: Upgrade skills is free; the others cost your action."]
    return []


def filled_track_line(sheet: Character, filled: FilledTrack) -> str:
    """What a player owes after a mood filled its track outside a roll (ruling 23)."""
    mood = esc(sheet.mood(filled.mood).name or "A mood")
    todo = []
    if filled.endanger:
        todo.append("Tap a sentiment to mark.")
    if filled.rename:
        todo.append(f"<b>Reply</b> with a stronger name for {mood}.")
    return f"🌀 {esc(sheet.name)}: {mood} filled its track and is back to 0. " + " ".join(todo)


def _numbered_lines(kind: str, sheet: Character, prompt: Prompt) -> str:
    """The sheet's lines a reply to this prompt refers to by number."""
    if kind == RECOVER:
        items = [esc(h) for h in sheet.harms]
        title = "Harm"
    elif kind == PROJECT:
        moods = [esc(m.name or f"open {m.die.label}") for m in sheet.moods]
        return "\n   Moods: " + " · ".join(f"{i}. {x}" for i, x in enumerate(moods, 1))
    elif kind == SEEK and not prompt.skills:
        items = [f"{esc(s.name)} ±{s.modifier}" for s in sheet.skills]
        title = "Skills"
    elif kind == RECONNECT:
        sentiments = [esc(x.name or "—") for x in sheet.sentiments]
        moods = [esc(m.name or f"open {m.die.label}") for m in sheet.moods]
        return (
            "\n   Sentiments: "
            + " · ".join(f"{i}. {x}" for i, x in enumerate(sentiments, 1))
            + "\n   Moods: "
            + " · ".join(f"{i}. {x}" for i, x in enumerate(moods, 1))
        )
    else:
        return ""
    if not items:
        return ""
    return f"\n   {title}: " + " · ".join(f"{i}. {x}" for i, x in enumerate(items, 1))


def complication_lines(world: World, roll: ComplicationRoll, table: bool = True) -> list[str]:
    """The roll at one location, with the table it was read from (when ``table``)."""
    where = card_name(world, roll.card_id)
    head = f"📍 {where}, Collateral Clock {roll.ticks}/{CLOCK_SEGMENTS}: "
    if roll.face is None and not roll.options:
        return [head + "nothing progresses."]
    if roll.face is None:
        return [head + f"<b>{COMPLICATION_NAMES[roll.options[0]]}</b>. {roll.options[0].prompt}"]
    options = " or ".join(COMPLICATION_NAMES[o] for o in roll.options)
    lines = [head + f"d6 = {roll.face}: <b>{options}</b>."]
    lines += [f"   {o.prompt}" for o in roll.options]
    for (low, high), rows in COMPLICATION_TABLES.items() if table else ():
        if low <= roll.ticks <= high:
            cells = []
            for first, last, found in rows:
                faces = str(first) if first == last else f"{first}-{last}"
                text = f"{faces} {' / '.join(COMPLICATION_NAMES[o] for o in found)}"
                cells.append(f"<b>▶ {text}</b>" if first <= roll.face <= last else text)
            lines.append(f"   Table for {low}-{high} ticks: " + " · ".join(cells))
    return lines


def plan_lines(state: DowntimeState, table: Table) -> list[str]:
    plan = state.plan
    assert plan is not None
    who = _character_name(state, table, plan.proposer)
    votes = ", ".join(
        f"{_character_name(state, table, p)} {'👍' if yes else '👎'}" for p, yes in plan.votes
    )
    lines = [
        f"🧹 {who} plans to address {card_name(state.world, plan.card_id)}: "
        f"<i>{esc(plan.plan)}</i>",
        f"   Votes: {votes or 'none yet'} (modifier {plan.modifier:+d})",
    ]
    if plan.level is not None:
        dice = " + ".join(f"{d.face}" for d in plan.dice)
        lines.append(
            f"   Dice {dice} {plan.modifier:+d} = {plan.total} against Collateral {plan.level}: "
            f"{plan.result:+d}. Add a die (costs an action) or settle."
        )
    return lines


def log_lines(panel: DowntimePanelState, table: Table, state: DowntimeState | None) -> list[str]:
    """The latest happenings, newest last."""
    out = []
    for entry in panel.log:
        text = event_text(entry, table, state)
        if text:
            out.append(text)
    return out


def event_text(entry: Mapping[str, Any], table: Table, state: DowntimeState | None) -> str:
    kind = entry.get("t")

    def name(key: str = "player_id") -> str:
        player = int(entry[key])
        if state is not None:
            return _character_name(state, table, player)
        made = characters(table).get(player)  # downtime is over: the sheets on the table
        return esc(made.name) if made is not None else player_name(table, player)

    if kind == "RecoveryPointsTaken":
        return (
            f"{name()} rests: +{counted(entry['gained'], 'recovery point')} ({entry['total']}/4)."
        )
    if kind == "HarmRecovered":
        return (
            f"{name()} turns {esc(entry['harm'])} into the scar {esc(entry['scar'])} "
            f"({counted(entry['cost'], 'recovery point')})."
        )
    if kind == "SkillUpgraded":
        return f"{name()} upgrades {esc(entry['skill'])} to ±{entry['modifier']}."
    if kind == "RecoverySought":
        faces = " + ".join(str(f) for f in entry["body_faces"])
        helper = (
            "" if entry["helper_face"] is None else f", a friend's Heart {entry['helper_face']}"
        )
        if entry["skill_bonus"]:
            faces += f" + skills {entry['skill_bonus']}"
        if entry["helper_bonus"]:
            helper += f" + skills {entry['helper_bonus']}"
        return (
            f"{name()} seeks recovery: Body {faces}{helper} = {entry['total']}, "
            f"+{counted(entry['gained'], 'recovery point')}."
        )
    if kind == "ScoutLooked":
        return f"{name()} scouted a card and saw its face (it stays face down)."
    if kind == "ScoutTurnedBack":
        return f"{name()} turned back home without a look."
    if kind == "PlanProposed":
        return f"{name()} proposed a plan."
    if kind == "PlanVoted":
        return f"{name()} {'backs' if entry['support'] else 'doubts'} the plan."
    if kind == "PlanDieRolled":
        return f"{name()} rolls {entry['aspect'].title()} {entry['face']}: total {entry['total']}."
    if kind == "PlanSettled":
        return f"The plan is settled: the clock goes {entry['before']} → {entry['after']}."
    if kind == "IntrospectionRolled":
        return (
            f"{name()} turns inward: Heart {entry['heart_face']}, "
            f"{counted(entry['heart_face'], 'box', 'boxes')} to clear."
        )
    if kind == "MoodReduced":
        return f"{name()} clears {entry['amount']} box(es); {entry['remaining']} left."
    if kind == "MoodsSwapped":
        return f"{name()} swaps two moods."
    if kind == "MoodReplaced":
        return f"{name()} replaces a mood with {esc(entry['name'])}."
    if kind == "IntrospectionFinished":
        return f"{name()} finishes introspecting."
    if kind == "MoodTrackFilled":
        return f"{name()}'s {esc(entry['name'])} fills its track: back to 0."
    if kind == "SentimentEndangered":
        state_word = "lost" if entry["state"] == "lost" else "at risk"
        return f"{name()} marks a sentiment: now {state_word}."
    if kind == "MoodRenamed":
        return f"{name()}'s {esc(entry['old'])} becomes {esc(entry['new'])}."
    if kind == "SkillsTrained":
        skills = ", ".join(esc(s) for s in entry["skills"]) or "no skill"
        return f"{name()} trains {entry['aspect'].title()} ({entry['face']}): {skills}."
    if kind == "SentimentReconnected":
        return f"{name()} reconnects with a sentiment (mood +{entry['mood_raised_by']})."
    if kind == "ProjectProgressed":
        shift = f" {entry['skill_shift']:+d} skill" if entry["skill_shift"] else ""
        return (
            f"📜 {_project_name(entry, table)}: mood die {entry['mood_face']} against aspect die "
            f"{entry['aspect_face']}{shift}, a gap of {entry['marked']}: "
            f"now {entry['filled']}/{entry['segments']}."
        )
    if kind == "ProjectCompleted":
        return f"📜 {_project_name(entry, table)} is complete!"
    if kind == "TimeSpent":
        each = counted(int(entry["actions_each"]), "action")
        return f"More time passes: +{each} each, more complications."
    if kind == "RewardBroughtHome":
        extra = " (a long-term project can unlock more)" if entry["needs_project"] else ""
        return f"The reward comes home for {esc(entry['resource'])}{extra}."
    if kind == "ResourceMoved":
        level = LEVEL_NAMES.get(entry["after"], "changed")
        return f"At home, {esc(entry['name'])} is now {level}."
    if kind == "ClockMoved":
        return f"A Collateral Clock moves {entry['before']} → {entry['after']}."
    if kind == "DowntimeEnded":
        return "Downtime ends."
    return ""


def _project_name(entry: Mapping[str, Any], table: Table) -> str:
    world = campaign_of(table).world
    for project in world.projects if world is not None else ():
        if project.id == entry.get("project_id"):
            return esc(project.name)
    return "A project"


def _b(view: PanelView, label: str, action: str, argument: str = "") -> InlineKeyboardButton:
    return button(view, label, action, argument)


def _named(template: str, name: str) -> str:
    return named(template, name)


def _fit(prefix: str, name: str) -> str:
    """``prefix`` and ``name``, the name shortened to fit a one-button row."""
    return prefix + short(name, ONE_ROW - label_width(prefix))


_short = short
_pairs = phone_rows


MENU_LABELS = {
    Menu.REST: "🛌 Rest & heal",
    Menu.WORK: "🛠 Work & scout",
    Menu.CLOCK: "🕰 Clock & time",
    Menu.END: "🏁 End downtime",
}
BACK = "◀️ Back"


def downtime_buttons(view: PanelView, state: DowntimeState) -> list[list[InlineKeyboardButton]]:
    """The open group's buttons, or what is under way and the groups to open."""
    panel = view.typed(DowntimePanelState)
    if panel.menu is Menu.PLAYER:
        return _player_rows(view, panel, state)
    if panel.menu is not Menu.MAIN:
        return _menu_rows(view, panel, state)
    rows = _under_way(view, panel, state)
    groups = [
        _b(view, label, MENU if menu is not Menu.END else END, menu.value)
        for menu, label in MENU_LABELS.items()
        if menu_openers(panel, state, menu)
    ]
    if sum(len(r) for r in rows) + len(groups) > MAX_BUTTONS:
        return rows  # the groups come back once what is under way is answered or dropped
    return rows + _pairs(groups)


def _menu_rows(
    view: PanelView, panel: DowntimePanelState, state: DowntimeState
) -> list[list[InlineKeyboardButton]]:
    world = state.world
    allowed = dt.allowed_actions(state)
    can = set().union(*allowed.values()) if allowed else set()
    menu = panel.menu
    back = _b(view, BACK, MENU, MENU_PARENT.get(menu, Menu.MAIN).value)
    offers: list[tuple[DowntimeKind, str, str, str]] = []
    if menu is Menu.REST:
        offers = [
            (DowntimeKind.RECOVER_HARM, "🩹 Recover Harm (free)", RECOVER, ""),
            (DowntimeKind.SEEK_RECOVERY, "🛌 Seek Recovery", SEEK, ""),
            (DowntimeKind.INTROSPECT, "🧘 Introspection", "introspect", ""),
            (DowntimeKind.RECONNECT, "🤝 Reconnect", RECONNECT, ""),
        ]
    elif menu is Menu.WORK:
        offers = [
            (DowntimeKind.UPGRADE_SKILLS, "⬆️ Upgrade skills (free)", "upgrade", ""),
            (DowntimeKind.SCOUT, "🔭 Scout a card", SCOUT_PICK, ""),
            (DowntimeKind.PROPOSE_PLAN, "🧹 Address Collateral", PLAN_PICK, ""),
            (DowntimeKind.WORK_ON_PROJECT, "📜 Long-term project", PROJECT, ""),
            (DowntimeKind.TRAIN_SKILLS, "🏋 Train skills", MENU, Menu.TRAIN.value),
        ]
    elif menu is Menu.TRAIN:
        trains = [_b(view, f"🏋 {a}", "train", a.lower()) for a in ("Body", "Mind", "Heart")]
        return _pairs([*trains, back]) if DowntimeKind.TRAIN_SKILLS in can else [[back]]
    elif menu is Menu.CLOCK:
        rows: list[list[InlineKeyboardButton]] = []
        for roll_ in state.complications[:1]:
            place = str(world.cards.index(world.card(roll_.card_id)))
            rows.append(
                [_b(view, "🕰 Clock +1", "tick", place), _b(view, "🕰 Clock −1", "untick", place)]
            )
            rows.append([_b(view, "⏳ More time", "more_time", place)])
        if reward_card(state) is not None and DowntimeKind.BRING_REWARD_HOME in can:
            rows.append([_b(view, "🎁 Bring the reward home", REWARD)])
        return [*rows, [back]]
    elif menu is Menu.END:
        return [[_b(view, "✅ Yes, end downtime", END, "yes")], [_b(view, "◀️ Not yet", MENU, "")]]
    rows = [[_b(view, label, action, arg)] for kind, label, action, arg in offers if kind in can]
    return [*rows, [back]]


Rows = list[list[InlineKeyboardButton]]


def _under_way(view: PanelView, panel: DowntimePanelState, state: DowntimeState) -> Rows:
    """Buttons for the prompts, plans, rolls and looks open now (each player's own steps
    behind one button per player when they would crowd the panel)."""
    mine = _personal(view, panel, state)
    shared = _shared(view, panel, state)
    drop = [[_b(view, "✖️ Drop my choice", "drop")]] if panel.prompts else []
    rows = [r for rs in mine.values() for r in rs] + shared + drop
    if sum(len(r) for r in rows) <= MAX_BUTTONS - 2:  # room left for the groups
        return rows
    steps = [
        _b(view, _named("✏️ {}'s step", _plain_name(state, view.table, p)), MENU, f"p{p}")
        for p in mine
    ]
    return _pairs(steps) + shared


def _player_rows(view: PanelView, panel: DowntimePanelState, state: DowntimeState) -> Rows:
    """One player's own steps, with Drop and Back."""
    rows = _personal(view, panel, state).get(panel.focus or 0, [])
    drop = [_b(view, "✖️ Drop mine", "drop")] if panel.prompts else []
    return [*rows, [*drop, _b(view, BACK, MENU, Menu.MAIN.value)]]


def _personal(view: PanelView, panel: DowntimePanelState, state: DowntimeState) -> dict[int, Rows]:
    """Each player's own open steps: their prompt, their introspection, a sentiment to mark."""
    table = view.table
    world = state.world
    found: dict[int, Rows] = {}
    prompts = panel.prompts
    for player, prompt in prompts.items():
        rows = found.setdefault(player, [])
        key = str(player)
        who = _plain_name(state, table, player)
        kind = prompt.kind
        if kind == SEEK:
            rows.append([_b(view, _named("🤝 Help {}", who), "seek_help", key)])
            rows.append([_b(view, _named("🎲 {}: roll", who), "seek_roll")])
            rows.append([_b(view, _named("🎲 {}: roll + healer", who), "seek_roll", "healer")])
        elif kind == SCOUT_PICK:
            cards = [
                _b(view, _fit("🔭 ", _plain_card(world, world.cards[i].id)), "scout_card", str(i))
                for i in scout_targets(world, player)
            ]
            rows += _pairs(cards)
        elif kind == PLAN_PICK:
            rows += [
                [
                    _b(
                        view,
                        "🧹 " + _short(_plain_card(world, world.cards[i].id), 26),
                        "plan_card",
                        str(i),
                    )
                ]
                for i in plan_targets(world)
            ]
    for player, sheet in state.sheets:
        if state.budget(player).introspection is None:
            continue
        who = _short(sheet.name, 10)
        clears = [
            _b(
                view,
                _fit(f"🧘 {who}: clear ", sheet.moods[i].name or ""),
                "clear",
                str(i + 1),
            )
            for i in dt.clearable_moods(state, player)
        ]
        rows = found.setdefault(player, [])
        rows += [[c] for c in clears]
        rows.append([_b(view, f"🧘 {who}: done", "introspect_done")])
    for player, sheet in state.sheets:
        filled = state.budget(player).filled
        if filled is None or not filled.endanger:
            continue
        who = _short(sheet.name, 10)
        found.setdefault(player, []).extend(
            [
                _b(
                    view,
                    _fit(f"💔 {who}: mark ", sheet.sentiments[i].name or ""),
                    "endanger",
                    str(i + 1),
                )
            ]
            for i in sheet.usable_sentiments
        )
    return {p: rows for p, rows in found.items() if rows}


def _shared(view: PanelView, panel: DowntimePanelState, state: DowntimeState) -> Rows:
    """The table's steps: the plan, the Scout's roll, looks in private."""
    table = view.table
    allowed = dt.allowed_actions(state)
    can = set().union(*allowed.values()) if allowed else set()
    rows: Rows = []
    if state.plan is not None:
        if DowntimeKind.VOTE_ON_PLAN in can:
            rows.append(
                [_b(view, "👍 Sound plan", "vote", "yes"), _b(view, "👎 Won't work", "vote", "no")]
            )
        proposer = _plain_name(state, table, state.plan.proposer)
        if DowntimeKind.ROLL_FOR_PLAN in can:
            rows.append([_b(view, _named("🎲 {}: roll Mind", proposer), "plan_roll")])
        if DowntimeKind.SETTLE_PLAN in can:
            rows.append([_b(view, _named("✅ {}: settle", proposer), "plan_settle")])
        if DowntimeKind.ADD_DIE_TO_PLAN in can:
            rows += _pairs(
                [_b(view, f"➕ {a} die", "plan_die", a.lower()) for a in ("Body", "Mind", "Heart")]
            )
    roll = None if panel.scout is None else panel.scout.roll
    if roll is not None:
        rows += roll_step_buttons(view, roll)
        details = panel.scout_details
        if details is not None:
            outcome = roll.outcome
            assert outcome is not None
            for index in details.open_grants:
                adders = ", ".join(
                    sorted(_plain_name(state, table, p) for p in outcome.grants[index].adders)
                )
                label = f"Skip detail {index + 1} ({_short(adders, 14)})"
                rows.append([_b(view, label, SKIP, str(index))])
        elif scout_must_decide(panel) is not None:
            who = roll.sheet.name
            rows.append([_b(view, _named("🔭 {}: press on", who), "scout_press_on")])
            rows.append([_b(view, _named("🏠 {}: turn back", who), "scout_turn_back")])
    for player in panel.looks:
        label = _named("🔭 {}: see it", _plain_name(state, table, player))
        data = LookButton(view.id).encode()
        rows.append([InlineKeyboardButton(label, callback_data=data)])
    return rows


def _plain_name(state: DowntimeState, table: Table, player: int) -> str:
    for p, sheet in state.sheets:
        if p == player:
            return sheet.name
    seat = table.seat(player)
    return seat.name if seat is not None else "?"


def _plain_card(world: World, card_id: str) -> str:
    card = world.card(card_id)
    if card.revealed:
        return card.title
    back = f" {card.back}" if card.back else ""
    return f"{card.id}{back}"


def scout_look_text(view: PanelView, viewer: int) -> str:
    """The scouted card's face, for the scout's private chat only.

    Raises:
        NotYourTurn: ``viewer`` did not scout a card in this downtime.
    """
    world = campaign_of(view.table).world
    if world is None:
        raise NotYourTurn("Only the scout may look at the card.")
    card = scouted_card(view.typed(DowntimePanelState), world, viewer)
    back = f" ({world.card(card.id).back})" if world.card(card.id).back else ""
    return "\n".join(
        [
            f"🔭 <b>What you saw</b>: {esc(card.title or '')}{back}",
            esc(card.description or ""),
            f"Danger: {esc(card.danger_type or '')} · Treasure: {esc(card.treasure_type or '')}",
            f"What could be harmed: {esc(card.collateral_target or '')}",
            "The card stays face down for everyone else; share what you like.",
        ]
    )
