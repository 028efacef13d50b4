"""The NSU Action Roll as a table panel ("nsu.roll"): one message, every step.

``/act <what I want to happen>`` opens it for the acting player. The Arbiters
and the allies who may help come from the world (ruling 7: the players off
screen arbitrate; with everybody on screen, everyone else does, and nobody can
help). Steps are the :mod:`~core.rules.nsu.action_roll` actions, named as in
:mod:`~core.rules.nsu.roll_text`; a button's argument writes spaces as dots
(``keep_die`` ``aspect.1``), and the buttons that belong to one person carry
their player id first (``help`` ``1002.1``, ``endanger_sentiment`` ``1002.2``).
A reply to the panel (action ``text``) fills the step that needs words.

Once the roll is settled the granted details are entered by reply, one per
reply, in this grammar (see :func:`read_detail`)::

    [harm: | scene: | soft:] [+|-]<detail> [@ <who or what>]

Hard details on a character in the roll are written on their sheet (harm on
a harm line; the fourth makes them Overcome); scene details go on the current
location's scene list; details on anyone else are NPC details kept with the
roll. A World-at-risk roll ticks the location's Collateral Clock once per
detail added (ruling 8); anyone may tick or untick it from the panel. A grant
may be skipped (a soft detail told at the table). The panel closes when every
grant is added or skipped, or when the roll is called off.

Invariants: the panel state is ``{"v": 1, "roll": RollState.to_dict(), "card":
card id or None, "skipped": [grant indices], "ticks": n}``; a refused
action raises and changes nothing; the sheets written are exactly the
participants whose character differs from the member's stored one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu import world as worlds
from core.rules.nsu.action_roll import (
    ActionKind,
    AddedDetail,
    ChooseAspect,
    ChooseMood,
    ChooseRisk,
    ChooseSkill,
    CreateSkill,
    DetailTarget,
    Event,
    Help,
    Participant,
    PendingKind,
    Phase,
    RenameMood,
    RollState,
    StateOutcome,
    TargetKind,
    add_granted_detail,
    apply,
    choose_arbiters,
    start_roll,
    unused_grants,
)
from core.rules.nsu.campaign import campaign_of
from core.rules.nsu.details import Detail, DetailKind, Polarity, clean_label
from core.rules.nsu.play_table import (
    Phase as CampaignPhase,
)
from core.rules.nsu.play_table import (
    changed_sheets,
    characters,
    require_world,
    settings_of,
    stored,
)
from core.rules.nsu.roll_choices import ROLL_SIDE, SKIP, TEXT, TICK, UNTICK, panel_choices
from core.rules.nsu.roll_text import parse_action
from core.rules.nsu.sheet import Character, Die
from core.rules.nsu.terms import Aspect, Risk, Side
from core.rules.nsu.world import World
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Table, current
from core.rules.waiting import Waiting, waiting

ROLL_PANEL = "nsu.roll"
STATE_VERSION = 1
# Button actions whose argument starts with the id of the one player it is for.
OWNED_ACTIONS = frozenset({ActionKind.HELP.value, ActionKind.ENDANGER_SENTIMENT.value})


@dataclass(frozen=True)
class RollPanel:
    """The stored panel: the roll, where it happens, and the grants skipped."""

    roll: RollState
    card: str | None = None
    skipped: tuple[int, ...] = ()
    ticks: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": STATE_VERSION,
            "roll": self.roll.to_dict(),
            "card": self.card,
            "skipped": list(self.skipped),
            "ticks": self.ticks,
        }

    @classmethod
    def from_dict(cls, data: Json) -> RollPanel:
        """Read a stored panel.

        Raises:
            Malformed: unknown version or damaged data.
        """
        if data.get("v") != STATE_VERSION:
            raise Malformed("This roll was stored by another version.")
        card = data.get("card")
        try:
            skipped = tuple(int(i) for i in data.get("skipped", ()))
            ticks = int(data.get("ticks", 0))
        except (TypeError, ValueError):
            raise Malformed("This stored roll could not be read.") from None
        return cls(
            RollState.from_dict(data.get("roll")),
            None if card is None else str(card),
            skipped,
            ticks,
        )

    @property
    def open_grants(self) -> tuple[int, ...]:
        """Grants of the settled roll not yet added or skipped."""
        if self.roll.phase is not Phase.DONE:
            return ()
        return tuple(i for i in unused_grants(self.roll) if i not in self.skipped)

    @property
    def finished(self) -> bool:
        """Called off, or settled with every grant added or skipped."""
        if self.roll.phase is Phase.CANCELLED:
            return True
        return self.roll.phase is Phase.DONE and not self.open_grants


def grants_for(panel: RollPanel, player: int) -> tuple[int, ...]:
    """The open grants ``player`` may fill, in order."""
    outcome = panel.roll.outcome
    if outcome is None:
        return ()
    return tuple(i for i in panel.open_grants if player in outcome.grants[i].adders)


# -- starting -------------------------------------------------------------------


def begin(table: Table, actor: int, desired: str) -> RollPanel:
    """A new roll for ``actor`` at the table's current place.

    Raises:
        NotAllowedNow: no world yet, not an adventure, no character, off screen, Overcome.
    """
    world = require_world(table, CampaignPhase.ADVENTURE)
    on_screen = worlds.on_screen(world)
    if actor not in world.players and not world.groups:
        on_screen |= {actor}  # joined after worldbuilding: with the party while it is together
    return RollPanel(_start(table, world, actor, desired, on_screen), card=world.current)


def _start(
    table: Table, world: World, actor: int, desired: str, on_screen: frozenset[int]
) -> RollState:
    sheets = characters(table)
    mine = sheets.get(actor)
    if mine is None:
        raise NotAllowedNow("Make your character first: you need a finished sheet to act.")
    if actor not in on_screen:
        raise NotAllowedNow(
            "{name} is off screen right now: you're one of the Arbiters.", name=mine.name
        )
    seated = frozenset(table.seats)
    players = [p for p in world.players if p in seated] or sorted(seated)
    if actor not in players:
        players.append(actor)
    arbiters = choose_arbiters(players, on_screen & seated, actor)
    allies = [
        Participant(p, sheets[p])
        for p in players
        if p in on_screen and p != actor and p not in arbiters and p in sheets
    ]
    if not arbiters:
        raise NotAllowedNow("An Action Roll needs someone else at the table to arbitrate.")
    roll = start_roll(Participant(actor, mine), arbiters, allies, settings_of(table))
    text = " ".join(desired.split())
    if text:
        roll, _ = apply(roll, StateOutcome(actor, text), _NO_DICE)
    return roll


class _NoDice:
    def randint(self, low: int, high: int) -> int:  # pragma: no cover - never called
        raise AssertionError("stating an outcome rolls no dice")


_NO_DICE = _NoDice()


# -- the steps of the roll ------------------------------------------------------------


def roll_step(
    roll: RollState, actor: int, action: str, argument: str, rng: Rng
) -> tuple[RollState, tuple[Event, ...]]:
    """Apply one button press or reply to the roll itself (not its details).

    Raises:
        Malformed, NotAllowedNow, NotYourTurn: as the rules say; nothing changes.
    """
    if action == TEXT:
        return _text_step(roll, actor, argument, rng)
    words = argument.replace(".", " ").strip()
    if action in OWNED_ACTIONS:
        owner, _, words = words.partition(" ")
        if owner != str(actor):
            raise NotYourTurn("That button is for someone else.")
    return apply(roll, parse_action(roll.roller, actor, action, words), rng)


def _text_step(
    roll: RollState, actor: int, text: str, rng: Rng
) -> tuple[RollState, tuple[Event, ...]]:
    text = " ".join(text.split())
    phase = roll.phase
    if phase is Phase.DESIRED_OUTCOME:
        return apply(roll, StateOutcome(actor, text), rng)
    if phase is Phase.STAKES:
        return _stakes_from_text(roll, actor, text, rng)
    if phase is Phase.MOOD:
        line, name = _mood_from_text(roll.sheet if actor == roll.roller else None, text)
        return apply(roll, ChooseMood(actor, line, name), rng)
    if phase is Phase.ASPECT_EDGE:
        words = "" if text.lower() in ("none", "no", "-") else text
        action = parse_action(roll.roller, actor, ActionKind.SET_ASPECT_EDGE.value, words)
        return apply(roll, action, rng)
    if phase is Phase.PREPARE:
        return _skill_from_text(roll, actor, text, rng)
    if phase is Phase.AFTER_ROLL:
        if actor not in roll.allies:
            raise NotAllowedNow("Use the buttons: the dice are out.")
        line, name = _mood_from_text(roll.character(actor), text)
        return apply(roll, Help(actor, line, name), rng)
    if phase is Phase.MOOD_EFFECTS:
        owners = [p.owner for p in roll.pending if p.kind is PendingKind.RENAME]
        if not owners:
            raise NotAllowedNow("Use the buttons to pick which sentiment takes the mark.")
        refusal: Exception = NotYourTurn("The winning side renames the mood.")
        for owner in owners:
            try:
                return apply(roll, RenameMood(actor, owner, text), rng)
            except NotYourTurn as error:
                refusal = error
        raise refusal
    raise NotAllowedNow("This roll is settled.")


def _stakes_from_text(
    roll: RollState, actor: int, text: str, rng: Rng
) -> tuple[RollState, tuple[Event, ...]]:
    events: list[Event] = []
    words = text.lower().replace(",", " ").split()
    aspects = {a.value: a for a in Aspect}
    risks = {r.value: r for r in Risk}
    picked = [w for w in words if w in aspects or w in risks]
    if not picked or len(picked) != len(words):
        raise Malformed("Say the aspect (body, mind, heart) and what's at risk (world, character).")
    for word in picked:
        action = (
            ChooseAspect(actor, aspects[word])
            if word in aspects
            else ChooseRisk(actor, risks[word])
        )
        roll, more = apply(roll, action, rng)
        events += more
    return roll, tuple(events)


def _mood_from_text(sheet: Character | None, text: str) -> tuple[int, str | None]:
    """``3 Giddy``, ``d6 Giddy`` or the name of a mood on the sheet."""
    head, _, rest = text.partition(" ")
    if head.isdigit():
        action = parse_action(0, 0, ActionKind.CHOOSE_MOOD.value, text)
        assert isinstance(action, ChooseMood)
        return action.line, action.new_name
    if sheet is None:
        raise NotYourTurn("The player who rolls picks the mood.")
    wanted = text.casefold()
    for index, mood in enumerate(sheet.moods):
        if mood.name is not None and mood.name.casefold() == wanted:
            return index, None
    try:
        die = Die.parse(head)
    except Malformed:
        die = None
    if die is not None and rest.strip():
        for index, mood in enumerate(sheet.moods):
            if mood.is_open and mood.die is die:
                return index, clean_label(rest, "A mood")
        raise NotAllowedNow("No {die} mood line is open.", die=die.label)
    raise Malformed("Name a mood on your sheet, or write a new one with its die: “d6 Giddy”.")


def _skill_from_text(
    roll: RollState, actor: int, text: str, rng: Rng
) -> tuple[RollState, tuple[Event, ...]]:
    wanted = text.casefold()
    for index, skill in enumerate(roll.sheet.skills):
        if skill.name.casefold() == wanted:
            return apply(roll, ChooseSkill(actor, index), rng)
    return apply(roll, CreateSkill(actor, text), rng)


# -- details after the roll ------------------------------------------------------------


@dataclass(frozen=True)
class DetailEntry:
    """A reply read as one detail: what it is, where it goes, whether it is harm."""

    detail: Detail
    target: DetailTarget
    harm: bool


def read_detail(
    text: str,
    roll: RollState,
    actor: int,
    names: Mapping[int, str],
    polarity: Polarity | None,
    scene_only: bool = False,
    side: Side | None = None,
) -> DetailEntry:
    """Read ``[harm:|scene:|soft:] [+|-]<detail> [@ <who or what>]``.

    Without ``@`` a detail goes on the roller's character (a scene detail, or
    any detail for a scene grant (``scene_only``), on the scene). ``@`` names
    a character in the roll (by character or player name), ``scene``, or
    anyone else (an NPC). The sign picks the polarity; without one, a detail
    is positive where it is added for the roller's side on their own side (a
    player's character, or the scene: the winners shape it in their favour) and
    negative otherwise (the Arbiters' details, a foe's harm); a grant that must be
    negative (row 1's cost) stays negative.

    Args:
        side: the side the grant adds for (by default: the Arbiters' when ``actor``
            is one of them, else the roller's).

    Raises:
        Malformed: empty or too long, or an unknown kind word.
    """
    body = " ".join(text.split())
    kind, harm = DetailKind.HARD, False
    head, colon, rest = body.partition(":")
    if colon and head.strip().lower() in ("harm", "scene", "soft", "hard"):
        word = head.strip().lower()
        harm = word == "harm"
        kind = {"scene": DetailKind.SCENE, "soft": DetailKind.SOFT}.get(word, DetailKind.HARD)
        body = rest.strip()
    elif colon and len(head.split()) == 1 and "@" not in head:
        # a kind word nobody knows is never read as part of the detail's name
        raise Malformed(
            "“{word}:” is no kind of detail. Start with harm:, scene:, soft: or hard: "
            "(or write the detail without a colon).",
            word=head.strip()[:30],
        )
    name, at, where = body.partition("@")
    name, where = name.strip(), where.strip()
    sign: Polarity | None = None
    if name[:1] in ("+", "-"):
        sign = Polarity.POSITIVE if name[0] == "+" else Polarity.NEGATIVE
        name = name[1:].strip()
    label = clean_label(name, "A detail")
    at_scene = at and where.lower() in ("scene", "the scene", "here")
    if scene_only or kind is DetailKind.SCENE or at_scene:
        harm = False
        target = DetailTarget(TargetKind.SCENE)
        kind = DetailKind.SCENE
    elif not at:
        target = DetailTarget(TargetKind.CHARACTER, roll.roller)
    else:
        target = _target(where, roll, names)
    for_roller = side is Side.PLAYER if side is not None else actor not in roll.arbiters
    if harm or polarity is Polarity.NEGATIVE:
        chosen = Polarity.NEGATIVE
    elif sign is not None:
        chosen = sign
    elif target.kind in (TargetKind.CHARACTER, TargetKind.SCENE) and for_roller:
        chosen = Polarity.POSITIVE  # written for the roller's side, in its favour
    else:
        chosen = Polarity.NEGATIVE
    return DetailEntry(Detail(label, kind, chosen), target, harm)


def _target(where: str, roll: RollState, names: Mapping[int, str]) -> DetailTarget:
    wanted = where.casefold()
    for participant in roll.participants:
        player = participant.player
        if wanted in (participant.character.name.casefold(), names.get(player, "").casefold()):
            return DetailTarget(TargetKind.CHARACTER, player)
    return DetailTarget(TargetKind.NPC, name=clean_label(where, "A name"))


def _names(table: Table) -> dict[int, str]:
    return {p: seat.name for p, seat in table.seats.items()}


def add_detail(
    panel: RollPanel, world: World | None, table: Table, actor: int, text: str
) -> tuple[RollPanel, World | None, tuple[object, ...]]:
    """Fill the actor's first open grant from a reply; write scene and clock on the world.

    Raises:
        NotYourTurn: no open grant is the actor's.
        Malformed, NotAllowedNow: the detail does not fit.
    """
    mine = grants_for(panel, actor)
    if not mine:
        if panel.open_grants:
            raise NotYourTurn("The details still open are for someone else to add.")
        raise NotAllowedNow("Every detail of this roll is in.")
    outcome = panel.roll.outcome
    assert outcome is not None
    names = _names(table)
    first = read_detail(text, panel.roll, actor, names, None)
    wants_scene = first.detail.kind is DetailKind.SCENE
    grant = sorted(mine, key=lambda i: (outcome.grants[i].kind is DetailKind.SCENE) != wants_scene)[
        0
    ]
    chosen = outcome.grants[grant]
    scene_grant = chosen.kind is DetailKind.SCENE
    entry = read_detail(
        text, panel.roll, actor, names, chosen.polarity, scene_grant, side=chosen.side
    )
    roll, events = add_granted_detail(
        panel.roll, actor, grant, entry.detail, entry.target, entry.harm
    )
    panel = replace(panel, roll=roll)
    if world is None or panel.card is None:
        return panel, world, tuple(events)
    return _on_the_card(panel, world, panel.card, actor, entry, events)


def _on_the_card(
    panel: RollPanel,
    world: World,
    card: str,
    actor: int,
    entry: DetailEntry,
    events: Sequence[object],
) -> tuple[RollPanel, World, tuple[object, ...]]:
    """A scene detail is written on the location's card; collateral ticks its clock."""
    out: list[object] = list(events)
    if entry.target.kind is TargetKind.SCENE:
        world, more = worlds.add_scene_detail(world, card, entry.detail.name)
        out += more
    tick = any(getattr(e, "collateral_tick", False) for e in events)
    if tick and not world.card(card).clock.full and actor in world.players:
        world, more = worlds.tick_collateral(world, card, actor)
        panel = replace(panel, ticks=panel.ticks + 1)
        out += more
    return panel, world, tuple(out)


def npc_details(roll: RollState) -> tuple[AddedDetail, ...]:
    """Details added to NPCs and things in this roll (kept with the roll)."""
    return tuple(a for a in roll.added if a.target.kind in (TargetKind.NPC, TargetKind.THING))


# -- the panel -----------------------------------------------------------------------


class NsuRollPanel:
    """PanelRules for "nsu.roll"."""

    kind = ROLL_PANEL

    def read(self, state: Json) -> RollPanel:
        return RollPanel.from_dict(state)

    def waiting(self, table: Table, state: RollPanel | Json) -> Waiting:
        """The roll waits on its roller, its Arbiters and whoever adds a detail; an ally's
        help is optional, and calling off or ticking the clock never holds it."""
        panel = current(self, state)
        world = campaign_of(table).world
        return waiting(panel_choices(panel, world), ROLL_SIDE, {ActionKind.HELP})

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        panel = begin(table, actor, argument)
        return Outcome(state=panel.to_dict())

    def act(
        self,
        table: Table,
        state: RollPanel | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        panel = current(self, state)
        world: World | None = None
        changed_world = False
        events: tuple[object, ...]
        if panel.roll.phase is Phase.DONE and action in (TEXT, SKIP, TICK, UNTICK):
            world = require_world(table)
            if action == TEXT:
                panel, new_world, events = add_detail(panel, world, table, actor, argument)
                changed_world = new_world != world
                world = new_world
            elif action == SKIP:
                panel, events = skip_grant(panel, actor, argument)
            else:
                world, events = _move_clock(panel, world, actor, action)
                changed_world = True
        else:
            roll, events = roll_step(panel.roll, actor, action, argument, rng)
            panel = replace(panel, roll=roll)
        sheets = changed_sheets(table, {p.player: p.character for p in panel.roll.participants})
        campaign_state = stored(table, world=world) if changed_world and world is not None else None
        return Outcome(
            state=panel.to_dict(),
            events=events,
            closed=panel.finished,
            campaign_state=campaign_state,
            sheets=sheets,
            model=panel,
        )


def skip_grant(panel: RollPanel, actor: int, argument: str) -> tuple[RollPanel, tuple[object, ...]]:
    """Leave one of the actor's open grants as a soft detail.

    Raises:
        Malformed, NotAllowedNow, NotYourTurn: no such open grant, or not the actor's.
    """
    try:
        grant = int(argument)
    except ValueError:
        raise Malformed("Say which detail to skip.") from None
    if grant not in panel.open_grants:
        raise NotAllowedNow("That detail is already settled.")
    outcome = panel.roll.outcome
    assert outcome is not None
    if actor not in outcome.grants[grant].adders:
        raise NotYourTurn("That detail is for someone else to add or skip.")
    return replace(panel, skipped=(*panel.skipped, grant)), (GrantSkipped(grant, actor),)


def _move_clock(
    panel: RollPanel, world: World, actor: int, action: str
) -> tuple[World, tuple[object, ...]]:
    if panel.card is None:
        raise NotAllowedNow("This roll happened at home: there's no Collateral Clock here.")
    if action == TICK:
        return worlds.tick_collateral(world, panel.card, actor)
    return worlds.untick_collateral(world, panel.card, actor)


@dataclass(frozen=True)
class GrantSkipped:
    """A grant was left as a soft detail, told at the table."""

    grant: int
    by: int


ROLL_RULES = NsuRollPanel()
