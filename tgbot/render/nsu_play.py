"""How NSU play looks in the chat: the Action Roll panel, downtime, and /odds.

Pure text and buttons from rules data: who may press what comes from
:func:`~core.rules.nsu.action_roll.expected` and the panels' own queries, and
every button is labelled with whose it is. All user text goes through ``esc``.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import PanelView
from core.rules.choice import Choice
from core.rules.names import in_play
from core.rules.nsu import SYSTEM as NSU
from core.rules.nsu.action_roll import (
    ActionKind,
    AddedDetail,
    DetailGrant,
    Effect,
    EffectKind,
    Outcome,
    Phase,
    Pool,
    PoolKind,
    RollState,
    TargetKind,
)
from core.rules.nsu.campaign import character_of
from core.rules.nsu.details import DetailKind, Polarity
from core.rules.nsu.odds import Odds, OddsQuery
from core.rules.nsu.play_table import campaign_of
from core.rules.nsu.roll_choices import (
    OWN_DIE,
    AfterRoll,
    Forecast,
    detail_choices,
    roll_choices,
)
from core.rules.nsu.roll_panel import ROLL_PANEL, RollPanel
from core.rules.nsu.terms import Aspect, Edge, ResultRow, Risk, Side, Winner
from core.rules.nsu.world import CLOCK_SEGMENTS
from core.rules.table import Table
from core.rules.typed import detail_text, stakes_text
from core.words.i18n import N_, Lang
from core.words.typed_words import vocabulary
from tgbot.panels import button, keyboard
from tgbot.render.layout import fit_name, named_many, phone_rows
from tgbot.render.nsu import safety_row
from tgbot.render.text import esc, now_line

ROW_TEXT = {
    ResultRow.EACH_SIDE: N_("Each side adds one hard detail."),
    ResultRow.WIN_WITH_COST: N_(
        "The winners add a hard detail, but an ally adds a hard negative one."
    ),
    ResultRow.WIN: N_("The winners add one hard detail."),
    ResultRow.WIN_WITH_SCENE: N_("The winners add a hard detail and a scene detail."),
    ResultRow.WIN_WITH_ALLY: N_("The winners add a hard detail, and so does an ally."),
    ResultRow.BIG_WIN: N_("The winners add two hard details."),
}
EDGE_TEXT = {
    Edge.NONE: "",
    Edge.ADVANTAGE: N_("(advantage)"),
    Edge.DISADVANTAGE: N_("(disadvantage)"),
}
SENTIMENT_TEXT = {"connected": N_("connected"), "at_risk": N_("at risk"), "lost": N_("lost")}
ASPECT_NAMES = {Aspect.BODY: N_("Body"), Aspect.MIND: N_("Mind"), Aspect.HEART: N_("Heart")}
MARKED_ASPECTS = {"body": N_("body"), "mind": N_("mind"), "heart": N_("heart")}
DETAIL_HELP = N_(
    "↩️ Reply to this message with a detail: <code>Knocked out @ {target}</code>, "
    "<code>harm: Sprained ankle</code> (on the roller), <code>scene: Bridge down</code>, "
    "<code>+Trusted @ Ben</code>. Or skip it as a soft detail told at the table."
)
GUARD = N_("The guard")
SOMEONE_WHO_LEFT = N_("someone who left")


def detail_help(lang: Lang, target: str = GUARD) -> str:
    """How to reply with a detail; ``target`` names the example's target (a message id)."""
    return lang.gettext(DETAIL_HELP, target=lang.gettext(target))


def edge_text(edge: Edge, lang: Lang) -> str:
    """`` (advantage)``, `` (disadvantage)`` or nothing."""
    return " " + lang.gettext(EDGE_TEXT[edge]) if EDGE_TEXT[edge] else ""


def aspect_name(aspect: Aspect, lang: Lang) -> str:
    return lang.gettext(ASPECT_NAMES[aspect])


def player_name(table: Table, player: int | None, lang: Lang) -> str:
    """A member's name as Telegram shows it, escaped."""
    seat = None if player is None else table.seat(player)
    return esc(seat.name) if seat is not None else lang.gettext(SOMEONE_WHO_LEFT)


def who(roll: RollState, table: Table, player: int, lang: Lang, introduce: bool = False) -> str:
    """A character's name, escaped; a player's name for Arbiters without one here.

    ``introduce`` adds the player's own name ("Birch (Alice)"): on first mention
    and where they must act (the naming rule in core.rules.names).
    """
    seat = table.seat(player)
    own = seat.name if seat is not None else lang.gettext(SOMEONE_WHO_LEFT)
    for p in roll.participants:
        if p.player == player:
            return esc(in_play(p.character.name, own, introduce=introduce))
    character = None if seat is None else character_of(seat)  # an Arbiter with a character
    return esc(in_play(None if character is None else character.name, own, introduce=introduce))


def names(
    roll: RollState, table: Table, players: frozenset[int], lang: Lang, introduce: bool = False
) -> str:
    listed = sorted(who(roll, table, p, lang, introduce) for p in players)
    return ", ".join(listed) or lang.gettext("nobody")


MAX_GRANTS = 16  # more grants than any results row makes (for "every grant")


def _label(text: str) -> str:
    """Button labels are plain text (no HTML), kept short, in whole words."""
    return fit_name(text, 60)


# -- the Action Roll --------------------------------------------------------------


class NsuRollRenderer:
    kind = ROLL_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        panel = view.typed(RollPanel)
        table = view.table
        # once the roll is over, a detail nobody added was skipped: none is waiting any more
        skipped = range(MAX_GRANTS) if view.closed else panel.skipped
        text = "\n".join(
            roll_lines(panel.roll, table, lang, clock=panel.card is not None, skipped=skipped)
        )
        more = _after_lines(panel, table, lang)
        if more:
            text += "\n" + "\n".join(more)
        if view.closed:
            return text, None
        now = roll_now_line(panel, table, lang)
        if now:
            text += "\n" + now
        markup = keyboard(
            [*roll_buttons(view, panel, lang), safety_row(view.table.campaign_id, lang)]
        )
        return text, markup

    def read_reply(self, view: PanelView, text: str, lang: Lang) -> str:
        """A detail reply as the rules read it: its kind (``вред:``) and place (``@ сцена``)
        typed in any catalogue's words read as the rules' own."""
        panel = view.typed(RollPanel)
        if panel.roll.phase is Phase.STAKES:  # «разум, мир»
            return stakes_text(text, vocabulary())
        if not panel.open_grants:
            return text
        return detail_text(text, vocabulary())


_PHRASES = {
    ActionKind.STATE_OUTCOME: N_("reply with what you hope to achieve"),
    ActionKind.CHOOSE_ASPECT: N_("pick the aspect"),
    ActionKind.CHOOSE_RISK: N_("say what is at risk"),
    ActionKind.CHOOSE_MOOD: N_("pick a mood"),
    ActionKind.SET_ASPECT_EDGE: N_("say which details help or hinder"),
    ActionKind.CHOOSE_SKILL: N_("pick a skill"),
    ActionKind.CREATE_SKILL: N_("write a new skill"),
    ActionKind.RISK_SENTIMENT: N_("risk a sentiment"),
    ActionKind.HELP: N_("help with a mood"),
    ActionKind.KEEP_DIE: N_("pick which die to keep"),
    ActionKind.TAKE_HELPER_DIE: N_("keep your own mood die or take a helper's"),
    ActionKind.CHOOSE_SKILL_SIGN: N_("add or take away your skill"),
    ActionKind.RENAME_MOOD: N_("reply with the mood's stronger name"),
    ActionKind.ENDANGER_SENTIMENT: N_("mark a sentiment"),
    ActionKind.CANCEL: N_("call the roll off"),
}


def roll_now_line(panel: RollPanel, table: Table, lang: Lang) -> str:
    """The roll's last line: who acts now (as the rules wait on them) and what they choose
    between."""
    roll = panel.roll
    choices = NSU.panel(ROLL_PANEL).waiting(table, panel).choices
    helped = sum(c.verb is ActionKind.TAKE_HELPER_DIE for c in choices) > 1

    def phrase(choice: Choice[Any]) -> str:
        if choice.verb is AfterRoll.ADD_DETAIL:
            return lang.gettext("reply with detail {number}", number=choice.count)
        if choice.verb is AfterRoll.SKIP_DETAIL:
            return lang.gettext("skip detail {number}", number=choice.count)
        if choice.verb is AfterRoll.TICK_CLOCK:
            return lang.gettext("tick the clock")
        if choice.verb is AfterRoll.UNTICK_CLOCK:
            return lang.gettext("untick the clock")
        if choice.verb is ActionKind.ROLL:
            return lang.pgettext("what to do now", "roll")
        if choice.verb is ActionKind.TAKE_HELPER_DIE and not helped:
            return lang.gettext("keep your own mood die")
        return lang.gettext(_PHRASES[choice.verb])

    # everyone who may act was named above with their player (roller, allies, Arbiters)
    return now_line(choices, lambda p: who(roll, table, p, lang), phrase, lang=lang)


def roll_lines(
    roll: RollState,
    table: Table,
    lang: Lang,
    clock: bool = True,
    skipped: Collection[int] = (),
) -> list[str]:
    """Everything about the roll so far, step by step; ``clock``: it happens at a location
    whose Collateral Clock its details tick; ``skipped``: grants skipped (by index)."""
    sheet = roll.sheet
    lines = [
        lang.gettext(
            "🎲 <b>Action Roll</b>: {character} ({player})",
            character=esc(sheet.name),
            player=player_name(table, roll.roller, lang),
        )
    ]
    if roll.desired_outcome:
        lines.append(f"🎯 <i>{esc(roll.desired_outcome)}</i>")
    arbiters = names(roll, table, roll.arbiters, lang, True)  # first mention: with the player
    lines.append(lang.gettext("⚖️ Arbiters: {names}", names=arbiters))
    if roll.allies:
        lines.append(
            lang.gettext(
                "🧭 On screen with them: {names}",
                names=names(roll, table, roll.allies, lang, True),
            )
        )
    for p in roll.participants:
        if p.character.overcome:
            lines.append(
                lang.gettext(
                    "💀 {name} is Overcome: they can't act or help until a harm is recovered.",
                    name=esc(p.character.name),
                )
            )
    if roll.aspect is not None or roll.risk is not None:
        parts = []
        if roll.aspect is not None:
            die = sheet.aspect_die(roll.aspect)
            parts.append(
                lang.gettext(
                    "Aspect: {aspect} {die}", aspect=aspect_name(roll.aspect, lang), die=die.label
                )
            )
        if roll.risk is not None:
            parts.append(
                lang.gettext("At risk: the World")
                if roll.risk is Risk.WORLD
                else lang.gettext("At risk: the Character")
            )
        lines.append(" · ".join(parts))
    if roll.mood_line is not None:
        mood = sheet.moods[roll.mood_line]
        lines.append(
            lang.gettext(
                "Mood: {mood} {die}, level {level}/{boxes}",
                mood=esc(mood.name or ""),
                die=mood.die.label,
                level=mood.level,
                boxes=mood.die.boxes,
            )
            + edge_text(roll.mood_edge, lang)
        )
    if roll.aspect_edge is not None:
        listed = [f"+{esc(d)}" for d in roll.favouring] + [f"−{esc(d)}" for d in roll.hindering]
        edge = edge_text(roll.aspect_edge, lang)
        if roll.favouring and roll.hindering:
            edge = " " + lang.gettext("(for and against cancel out)")
        shown = "; ".join(listed) if listed else lang.gettext("none apply")
        lines.append(lang.gettext("Details: {details}", details=shown) + edge)
    if roll.skill is not None:
        skill = sheet.skills[roll.skill]
        lines.append(
            lang.gettext(
                "Skill: {skill} ±{modifier}", skill=esc(skill.name), modifier=skill.modifier
            )
        )
    if roll.risked_sentiment is not None:
        lines.append(
            lang.gettext(
                "Risking: {sentiment}",
                sentiment=esc(sheet.sentiments[roll.risked_sentiment].name or ""),
            )
        )
    if roll.aspect_pool is not None and roll.mood_pool is not None:
        lines.append("🎲 " + " · ".join(_pool_text(roll, table, p, lang) for p in _pools(roll)))
    if roll.outcome is not None:
        lines += outcome_lines(roll, table, roll.outcome, lang, clock, skipped)
    if roll.effects:
        lines.append(lang.gettext("Mood effects:"))
        lines += [f"• {effect_text(roll, table, e, lang)}" for e in roll.effects]
    if roll.phase is Phase.CANCELLED:
        lines.append(lang.gettext("✖️ Called off: no dice, and every sheet is as it was."))
    return lines


def _pools(roll: RollState) -> list[Pool]:
    pools = [p for p in (roll.aspect_pool, roll.mood_pool) if p is not None]
    return pools + [h.pool for h in roll.helps]


def _pool_text(roll: RollState, table: Table, pool: Pool, lang: Lang) -> str:
    if pool.kind is PoolKind.HELP:
        help_roll = roll.help_by(pool.owner)
        line = help_roll.line if help_roll is not None else 0
        mood = roll.character(pool.owner).moods[line]
        head = lang.gettext(
            "🤝 {name}'s {mood} {die}",
            name=who(roll, table, pool.owner, lang),
            mood=esc(mood.name or ""),
            die=pool.die.label,
        )
        if roll.help_decided:
            taken = roll.helper_used == pool.owner
            head += " " + (lang.gettext("(taken)") if taken else lang.gettext("(not taken)"))
    elif pool.kind is PoolKind.ASPECT:
        head = lang.gettext("Aspect {die}", die=pool.die.label)
    else:
        head = lang.gettext("Mood {die}", die=pool.die.label)
    faces = [
        f"<b>{f}</b>" if pool.kept == i and len(pool.faces) > 1 else str(f)
        for i, f in enumerate(pool.faces)
    ]
    shown = " | ".join(faces)
    if len(pool.faces) > 1:
        shown += " → " + lang.gettext("keep ?") if pool.kept is None else f" → {pool.face}"
    return f"{head}: {shown}"


def _dice_line(roll: RollState, table: Table, outcome: Outcome, lang: Lang) -> str:
    """Aspect against Mood (whose mood die), the difference and who wins."""
    aspect = f"{outcome.aspect_face}"
    if outcome.skill_shift:
        aspect += f" {'+' if outcome.skill_shift > 0 else '−'} {abs(outcome.skill_shift)}"
        aspect += f" = {outcome.aspect_total}"
    mood_owner = (
        ""
        if outcome.helper_used is None
        else " " + lang.gettext("({name}'s)", name=who(roll, table, outcome.helper_used, lang))
    )
    winner = {
        Winner.PLAYER: lang.gettext("{name} wins", name=esc(roll.sheet.name)),
        Winner.ARBITERS: lang.gettext("the Arbiters win"),
        Winner.TIE: lang.gettext("a tie"),
    }[outcome.winner]
    return lang.gettext(
        "<b>Aspect {aspect} vs Mood {mood}{owner}</b>: difference {difference}, {winner}.",
        aspect=aspect,
        mood=outcome.mood_face,
        owner=mood_owner,
        difference=outcome.difference,
        winner=winner,
    )


def outcome_lines(
    roll: RollState,
    table: Table,
    outcome: Outcome,
    lang: Lang,
    clock: bool = True,
    skipped: Collection[int] = (),
) -> list[str]:
    """The dice, the difference, the results row, the winner and the grants."""
    lines = [
        _dice_line(roll, table, outcome, lang),
        lang.gettext(
            "📋 Row {row}: {text}",
            row=f"{int(outcome.row)}{'+' if outcome.row is ResultRow.BIG_WIN else ''}",
            text=lang.gettext(ROW_TEXT[outcome.row]),
        ),
    ]
    if outcome.row in (ResultRow.WIN_WITH_COST, ResultRow.WIN_WITH_ALLY) and not any(
        g.by_ally for g in outcome.grants
    ):
        lines.append(lang.gettext("No ally is on screen, so the ally's detail is not added."))
    added = {a.grant: a for a in roll.added}
    lines.append(lang.gettext("Details to add:"))
    for index, grant in enumerate(outcome.grants):
        state = _grant_state(roll, table, added.get(index), lang, index in skipped)
        lines.append(f"{index + 1}. {grant_text(roll, table, grant, lang)} — {state}")
    if outcome.suggested_collateral_ticks and clock:
        lines.append(
            lang.gettext("🕰 The World was at risk: each detail added ticks the Collateral Clock.")
        )
    return lines


def grant_text(roll: RollState, table: Table, grant: DetailGrant, lang: Lang) -> str:
    one = len(grant.adders) == 1
    adders = names(roll, table, grant.adders, lang)
    if grant.polarity is Polarity.NEGATIVE:
        kind = "negative"
    else:
        kind = "scene" if grant.kind is DetailKind.SCENE else "hard"
    adds = {
        ("hard", True): N_("{adders} adds a hard detail"),
        ("hard", False): N_("{adders} add a hard detail"),
        ("scene", True): N_("{adders} adds a scene detail"),
        ("scene", False): N_("{adders} add a scene detail"),
        ("negative", True): N_("{adders} adds a hard negative detail"),
        ("negative", False): N_("{adders} add a hard negative detail"),
    }
    if grant.by_ally and not set(grant.adders) <= set(roll.arbiters):
        side = lang.gettext("the Arbiters") if grant.side is Side.ARBITERS else esc(roll.sheet.name)
        allied = {
            ("hard", True): N_("{adders} (an ally of {side}) adds a hard detail"),
            ("hard", False): N_("{adders} (an ally of {side}) add a hard detail"),
            ("scene", True): N_("{adders} (an ally of {side}) adds a scene detail"),
            ("scene", False): N_("{adders} (an ally of {side}) add a scene detail"),
            ("negative", True): N_("{adders} (an ally of {side}) adds a hard negative detail"),
            ("negative", False): N_("{adders} (an ally of {side}) add a hard negative detail"),
        }
        return lang.gettext(allied[kind, one], adders=adders, side=side)
    return lang.gettext(adds[kind, one], adders=adders)


def _grant_state(
    roll: RollState, table: Table, added: AddedDetail | None, lang: Lang, skipped: bool = False
) -> str:
    if added is None:
        return lang.gettext("skipped") if skipped else lang.gettext("waiting")
    detail = added.detail
    target = added.target
    sign = "+" if detail.polarity is Polarity.POSITIVE else "−"
    name = f"<b>{esc(detail.name)}</b>"
    if target.kind is TargetKind.SCENE:
        return lang.gettext("✅ {sign}{detail} (scene) on the scene", sign=sign, detail=name)
    if target.kind is TargetKind.CHARACTER and target.player is not None:
        whom = who(roll, table, target.player, lang)
    else:
        whom = esc(target.name)
    if added.harm:
        kind = lang.pgettext("a detail's kind, after its name", "harm")
    elif detail.kind is DetailKind.SOFT:
        kind = lang.pgettext("a detail's kind, after its name", "soft")
    else:
        kind = lang.pgettext("a detail's kind, after its name", "hard")
    return lang.gettext(
        "✅ {sign}{detail} ({kind}) on {name}", sign=sign, detail=name, kind=kind, name=whom
    )


def effect_text(roll: RollState, table: Table, effect: Effect, lang: Lang) -> str:
    name = who(roll, table, effect.player, lang)
    sheet = roll.character(effect.player)
    if effect.kind is EffectKind.SKILL_MARKED:
        skill = (
            esc(sheet.skills[effect.index].name)
            if effect.index < len(sheet.skills)
            else lang.gettext("a skill")
        )
        marked = MARKED_ASPECTS.get(effect.note)  # the aspect rolled
        return lang.gettext(
            "{name} marks {skill} ({note}).",
            name=name,
            skill=skill,
            note=lang.gettext(marked) if marked else esc(effect.note),
        )
    if effect.kind is EffectKind.SENTIMENT_SLIPPED:
        known = sheet.sentiments[effect.index].name
        sentiment = esc(known) if known else lang.gettext("a sentiment")
        said = SENTIMENT_TEXT.get(effect.note)
        state = lang.gettext(said) if said else esc(effect.note)
        return lang.gettext(
            "{name}'s sentiment {sentiment} is now {state}.",
            name=name,
            sentiment=sentiment,
            state=state,
        )
    if effect.kind is EffectKind.MOOD_RENAMED:
        old, _, new = effect.note.partition(" -> ")
        return lang.gettext("{name}'s {old} becomes {new}.", name=name, old=esc(old), new=esc(new))
    known_mood = sheet.moods[effect.index].name
    mood = esc(known_mood) if known_mood else lang.gettext("a mood")
    said_of = {
        EffectKind.OVERLOADED: N_("{name}'s {mood} is overloaded!"),
        EffectKind.OVERLOAD_ENDED: N_("{name} leaves the overloaded {mood} behind."),
        EffectKind.BOXES_CLEARED: N_("{name} clears the boxes of {mood}."),
        EffectKind.TRACK_FILLED: N_("{name}'s {mood} track is full: it resets and grows stronger."),
    }.get(effect.kind)
    return lang.gettext(said_of, name=name, mood=mood) if said_of else ""


def _after_lines(panel: RollPanel, table: Table, lang: Lang) -> list[str]:
    roll = panel.roll
    lines: list[str] = []
    if panel.card is not None and roll.outcome is not None:
        world = campaign_of(table).world
        if world is not None:
            card = world.card(panel.card)
            lines.append(
                lang.gettext(
                    "🕰 Collateral Clock at {place}: {ticks}/{segments}",
                    place=esc(card.title),
                    ticks=card.clock.ticks,
                    segments=CLOCK_SEGMENTS,
                )
            )
    if roll.phase is Phase.DONE and panel.open_grants:
        lines.append(detail_help(lang))
    lines += roll_hints(roll, table, lang)
    return lines


def roll_hints(roll: RollState, table: Table, lang: Lang) -> list[str]:
    """What to do next in the roll's own steps, naming who does it."""
    phase = roll.phase
    name = esc(roll.sheet.name)
    if phase is Phase.DESIRED_OUTCOME:
        return [
            lang.gettext("↩️ {name}: reply to this message with what you want to happen.", name=name)
        ]
    if phase is Phase.STAKES:
        return [lang.gettext("⚖️ Arbiters: pick the aspect and say what is most at risk.")]
    if phase is Phase.MOOD:
        return [
            lang.gettext(
                "{name}: pick your mood; it goes up one box now. To write a new "
                "one on an open line, reply <code>d6 Giddy</code>.",
                name=name,
            )
        ]
    if phase is Phase.ASPECT_EDGE:
        return [
            lang.gettext(
                "Do details help or hinder? Reply <code>+Rope; -Rain</code> "
                "(+ helps, − hinders), or tap “No details apply”."
            )
        ]
    if phase is Phase.PREPARE:
        return [
            lang.gettext(
                "{name}: pick a skill (or reply with a new one), "
                "risk a sentiment for Mood Advantage if you like, then roll.",
                name=name,
            )
        ]
    choices = roll_choices(roll)
    open_now: dict[ActionKind, frozenset[int]] = {}
    for c in choices:
        open_now[c.verb] = open_now.get(c.verb, frozenset()) | c.by
    lines: list[str] = []
    if ActionKind.HELP in open_now:
        if help_buttons_fit(roll):
            lines.append(
                lang.gettext(
                    "🤝 Allies on screen may help: tap your mood (or reply <code>d6 Giddy</code>)."
                )
            )
        else:
            lines.append(
                lang.gettext(
                    "🤝 Allies on screen may help: reply with your mood (<code>d6 Giddy</code>)."
                )
            )
    weighed = [
        c
        for c in choices
        if c.verb in (ActionKind.KEEP_DIE, ActionKind.TAKE_HELPER_DIE, ActionKind.CHOOSE_SKILL_SIGN)
    ]
    if weighed and roll.risk is not None:
        lines.append(risk_line(roll, lang))
    keeps = [c for c in choices if c.verb is ActionKind.KEEP_DIE]
    for pool_name in dict.fromkeys((c.who, c.name) for c in keeps):
        picker, what = pool_name
        which = {
            "aspect": N_("{picker}: pick which aspect die to keep."),
            "mood": N_("{picker}: pick which mood die to keep."),
            "help": N_("{picker}: pick which help die to keep."),
        }[what]
        group = [c for c in keeps if (c.who, c.name) == pool_name]
        line = "🎲 " + lang.gettext(
            which, picker=esc(picker) if picker else lang.gettext("Arbiters")
        )
        lines.append(line + _advice(group, name, lang))
        lines += _consequences(group, roll, lang)
    taking = [c for c in choices if c.verb is ActionKind.TAKE_HELPER_DIE]
    if len(taking) > 1:
        lines.append(
            lang.gettext("{name}: keep your own mood die or take a helper's.", name=name)
            + _advice(taking, name, lang)
        )
        lines += _consequences(taking, roll, lang)
    elif taking and ActionKind.HELP in open_now:
        lines.append(
            lang.gettext("{name}: keep your own mood die, or wait for an ally's help.", name=name)
        )
        lines += _consequences(taking, roll, lang)
    elif taking:
        lines.append(lang.gettext("{name}: keep your own mood die to settle the roll.", name=name))
    signs = [c for c in choices if c.verb is ActionKind.CHOOSE_SKILL_SIGN]
    if signs:
        lines.append(
            lang.gettext("{name}: add your skill to the aspect die, or take it away.", name=name)
            + _advice(signs, name, lang)
        )
        lines += _consequences(signs, roll, lang)
    if ActionKind.ENDANGER_SENTIMENT in open_now:
        owners = ", ".join(
            esc(roll.character(p).name) for p in sorted(open_now[ActionKind.ENDANGER_SENTIMENT])
        )
        lines.append(lang.gettext("{names}: pick which sentiment takes the mark.", names=owners))
    if roll.phase is Phase.MOOD_EFFECTS and ActionKind.RENAME_MOOD in open_now:
        lines.append(
            lang.gettext(
                "A mood track filled up: the winning side replies with its stronger new name."
            )
        )
    return lines


def risk_line(roll: RollState, lang: Lang) -> str:
    """Which die the player who rolls wants higher, from what is at risk."""
    name = esc(roll.sheet.name)
    if roll.risk is Risk.WORLD:
        return lang.gettext(
            "⚖️ The World is at risk: {name} wins when the Mood die beats the Aspect die.",
            name=name,
        )
    return lang.gettext(
        "⚖️ The Character is at risk: {name} wins when the Aspect die beats the Mood die.",
        name=name,
    )


def _what(choice: Choice[ActionKind], lang: Lang) -> str:
    """A weighed choice in a few words: ``Keep the 5``, ``Take Bo's 7``, ``Add 2``."""
    if choice.verb is ActionKind.KEEP_DIE:
        return lang.gettext("Keep the {die}", die=choice.die)
    if choice.verb is ActionKind.CHOOSE_SKILL_SIGN:
        if choice.argument == "+":
            return lang.gettext("Add {modifier}", modifier=choice.die)
        return lang.gettext("Take away {modifier}", modifier=choice.die)
    if choice.argument == OWN_DIE:
        return lang.gettext("Your own {die}", die=choice.die)
    return lang.gettext("Take {helper}'s {die}", helper=esc(choice.who), die=choice.die)


def _advice(group: list[Choice[ActionKind]], name: str, lang: Lang) -> str:
    """`` 👍 Better for Ana: the 5.`` when the rules advise one face of a pool whose
    result is not known yet (a known result is marked on its own line instead)."""
    advised = [c for c in group if c.advised]
    if not advised or len(advised) == len(group) or advised[0].consequence is not None:
        return ""
    return " " + lang.gettext("👍 Better for {name}: the {die}.", name=name, die=advised[0].die)


def _consequences(group: list[Choice[ActionKind]], roll: RollState, lang: Lang) -> list[str]:
    """What each choice of the group leads to, where the rules know it."""
    lines: list[str] = []
    for c in group:
        result = c.consequence
        if not isinstance(result, Forecast):
            continue
        dice = {"aspect": result.aspect_total, "mood": result.mood}
        if result.winner is Winner.PLAYER:
            said = lang.gettext(
                "{choice}: aspect {aspect} vs mood {mood}, {name} wins by {difference}.",
                choice=_what(c, lang),
                name=esc(roll.sheet.name),
                difference=result.difference,
                **dice,
            )
        elif result.winner is Winner.ARBITERS:
            said = lang.gettext(
                "{choice}: aspect {aspect} vs mood {mood}, the Arbiters win by {difference}.",
                choice=_what(c, lang),
                difference=result.difference,
                **dice,
            )
        else:
            said = lang.gettext(
                "{choice}: aspect {aspect} vs mood {mood}, a tie.", choice=_what(c, lang), **dice
            )
        mark = " 👍" if c.advised else ""
        lines.append(f"  • {said} {lang.gettext(ROW_TEXT[result.row])}{mark}")
    return lines


def roll_buttons(view: PanelView, panel: RollPanel, lang: Lang) -> list[list[InlineKeyboardButton]]:
    """The buttons for this step, each labelled with whose it is."""
    roll = panel.roll
    table = view.table
    rows = roll_step_buttons(view, roll, lang)
    details = detail_choices(panel, campaign_of(table).world)
    for c in details:
        if c.verb is AfterRoll.SKIP_DETAIL:
            adders = sorted(_plain_who(roll, table, p) for p in c.by)
            # as many whole names as fit a one-button row, however many and however long
            template = lang.gettext("Skip detail {number} ({names})", number=c.count, names="{}")
            rows.append([button(view, named_many(template, adders), c.verb.value, c.argument)])
    clock = {
        AfterRoll.TICK_CLOCK: N_("🕰 Tick clock"),
        AfterRoll.UNTICK_CLOCK: N_("🕰 Untick clock"),
    }
    ticks = [
        button(view, lang.gettext(clock[c.verb]), c.verb.value) for c in details if c.verb in clock
    ]
    if ticks:
        rows.append(ticks)
    return rows


def help_buttons_fit(roll: RollState) -> bool:
    """Whether the rules offer the allies' moods as buttons (else allies reply)."""
    return any(c.verb is ActionKind.HELP and not c.by_reply for c in roll_choices(roll))


def roll_step_buttons(
    view: PanelView, roll: RollState, lang: Lang
) -> list[list[InlineKeyboardButton]]:
    """The buttons of the roll's own steps (before its details): one per choice the
    rules offer that is not taken by a reply, labelled and laid out in rows."""
    rows: list[list[InlineKeyboardButton]] = []
    choices = [c for c in roll_choices(roll) if not c.by_reply]
    groups: dict[tuple[ActionKind, str, str], list[InlineKeyboardButton]] = {}
    for c in choices:
        label = _step_label(c, roll, lang)
        if c.advised:
            label += " 👍"
        made = button(view, _label(label), c.verb.value, c.argument)
        key = (
            c.verb,
            c.who if c.verb in _PER_PERSON else "",
            c.name if c.verb is ActionKind.KEEP_DIE else "",
        )
        groups.setdefault(key, []).append(made)
    for (verb, _, _), group in groups.items():
        if verb in _ONE_ROW:
            rows.append(group)
        else:
            rows += phone_rows(group)
    return rows


_PER_PERSON = frozenset({ActionKind.HELP, ActionKind.KEEP_DIE, ActionKind.ENDANGER_SENTIMENT})
_ONE_ROW = frozenset(
    {ActionKind.CHOOSE_RISK, ActionKind.SET_ASPECT_EDGE, ActionKind.ROLL, ActionKind.CANCEL}
)


def _helper_die_label(c: Choice[ActionKind], name: str, lang: Lang) -> str:
    """Keep one's own mood die, or take the helper's."""
    if c.argument == OWN_DIE:
        return lang.gettext("{name}: my own mood die ({die})", name=name, die=c.die or None)
    return lang.gettext("{name}: take {helper}'s {die}", name=name, helper=c.who, die=c.die or None)


def _step_label(c: Choice[ActionKind], roll: RollState, lang: Lang) -> str:
    """A roll step's button label, from its choice."""
    sheet = roll.sheet
    verb = c.verb
    if verb is ActionKind.CHOOSE_ASPECT:
        aspect = Aspect(c.argument)
        return f"⚖️ {aspect_name(aspect, lang)} {sheet.aspect_die(aspect).label}"
    if verb is ActionKind.CHOOSE_RISK:
        return lang.gettext("🌍 World") if c.argument == "world" else lang.gettext("🧍 Character")
    if verb is ActionKind.CHOOSE_MOOD:
        m = sheet.moods[c.count - 1]
        return f"{sheet.name}: {m.name} {m.die.label} ({m.level}/{m.die.boxes})"
    if verb is ActionKind.SET_ASPECT_EDGE:
        return lang.gettext("No details apply")
    if verb is ActionKind.CHOOSE_SKILL:
        return f"{sheet.name}: {c.name} ±{c.die}"
    if verb is ActionKind.RISK_SENTIMENT:
        return lang.gettext("{name} risks {sentiment}", name=c.who, sentiment=c.name)
    if verb is ActionKind.ROLL:
        return lang.gettext("🎲 {name}: roll", name=sheet.name)
    if verb is ActionKind.HELP:
        helper = roll.character(int(c.argument.split(".")[0]))
        m = helper.moods[c.count - 1]
        return f"🤝 {c.who}: {m.name} {m.die.label}"
    if verb is ActionKind.KEEP_DIE:
        return _keep_label(c.name, c.die, lang)
    if verb is ActionKind.TAKE_HELPER_DIE:
        return _helper_die_label(c, sheet.name, lang)
    if verb is ActionKind.CHOOSE_SKILL_SIGN:
        if c.argument == "+":
            return lang.gettext("+{modifier} to aspect", modifier=c.die)
        return lang.gettext("−{modifier} from aspect", modifier=c.die)
    if verb is ActionKind.ENDANGER_SENTIMENT:
        return lang.gettext("{name} marks {sentiment}", name=c.who, sentiment=c.name)
    return lang.gettext("✖️ Call off the roll")


def _keep_label(pool: str, die: int, lang: Lang) -> str:
    """``Keep aspect 5``: which pool's die, by its face."""
    said = {
        "aspect": N_("Keep aspect {die}"),
        "mood": N_("Keep mood {die}"),
        "help": N_("Keep help {die}"),
    }[pool]
    return lang.gettext(said, die=die)


def _plain_who(roll: RollState, table: Table, player: int) -> str:
    for p in roll.participants:
        if p.player == player:
            return p.character.name
    seat = table.seat(player)
    character = None if seat is None else character_of(seat)
    return character.name if character is not None else seat.name if seat is not None else "?"


def _chunks(buttons: list[InlineKeyboardButton], size: int) -> list[list[InlineKeyboardButton]]:
    return [buttons[i : i + size] for i in range(0, len(buttons), size)]


# -- /odds -----------------------------------------------------------------------------


ODDS_EDGES = {
    ("aspect", Edge.ADVANTAGE): N_("Aspect advantage"),
    ("aspect", Edge.DISADVANTAGE): N_("Aspect disadvantage"),
    ("mood", Edge.ADVANTAGE): N_("Mood advantage"),
    ("mood", Edge.DISADVANTAGE): N_("Mood disadvantage"),
}


def odds_text(query: OddsQuery, odds: Odds, lang: Lang) -> str:
    """The exact odds of a planned roll."""
    edges = [
        lang.gettext(ODDS_EDGES[kind, edge])
        for kind, edge in (("aspect", query.aspect_edge), ("mood", query.mood_edge))
        if edge is not Edge.NONE
    ]
    skill = lang.gettext(", skill ±{skill}", skill=query.skill) if query.skill else ""
    risk = (
        lang.gettext("World at risk")
        if query.risk is Risk.WORLD
        else lang.gettext("Character at risk")
    )
    lines = [
        lang.gettext(
            "🎲 <b>Odds</b>: Aspect {aspect} vs Mood {mood}, {risk}",
            aspect=query.aspect.label,
            mood=query.mood.label,
            risk=risk,
        )
        + skill
        + (f" ({', '.join(edges)})" if edges else ""),
        lang.gettext(
            "You win: {win} · Arbiters win: {lose} · Tie: {tie}",
            win=_pct(odds.player_wins, lang),
            lose=_pct(odds.arbiters_win, lang),
            tie=_pct(odds.tie, lang),
        ),
        lang.gettext("Difference (results row):"),
    ]
    labels = ("0", "1", "2", "3", "4", "5+")
    lines += [f"  {label}: {_pct(p, lang)}" for label, p in zip(labels, odds.rows, strict=True)]
    return "\n".join(lines)


def _pct(value: Fraction, lang: Lang) -> str:
    """``12.5%``, ``12,5 %``: the language's percentage."""
    return lang.percent(float(value))
