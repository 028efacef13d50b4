"""NSU downtime as a table panel ("nsu.downtime"): one message for the whole phase.

``/downtime [home|camp]`` rolls the complications for the place just left and
moves the campaign to DOWNTIME; ending downtime moves it back to ADVENTURE.
The :class:`~core.rules.nsu.downtime.DowntimeState` lives in the campaign state
(``downtime``), so the Mini App sees it too; this panel keeps only what the
chat needs on top: each player's open prompt, the Scout's Action Roll, who may
look at which card, and the latest happenings.

Buttons (the presser acts for their own character): free actions (Recover
Harm, Upgrade Skills), downtime actions (Seek Recovery, Scout, Address
Collateral, Introspection, Train, Reconnect, Long-Term Project), the table's
prompts (help someone recover, vote on a plan, add a die, tick a clock) and
End downtime. Words come by reply (action ``text``) to the presser's open
prompt: a scar's name, a plan, a reconnection, a project, the stronger name of
a mood that filled its track (ruling 23; its sentiment is marked with a
button). The Scout plays a
whole Action Roll here (everyone else arbitrates); a win, or details accepted,
lets them look, and the face is only ever sent to them in private (ruling 12).

The panel fits a phone: the downtime actions sit in small groups (:class:`Menu`)
that anyone may open and close (``menu <group>``, Back is ``menu`` alone); the
open group is the panel's, shown to the whole table, and any other step closes
it. Ending downtime for everyone is a confirm step: ``end`` opens it, ``end yes``
ends.

Invariants: the panel state is a :class:`DowntimePanelState`, never changed in
place, stored as ``{"v": 1, "prompts": {player: prompt}, "scout": scout or None,
"looks": {player: card id}, "log": [events], "menu": group, "focus": player}``
(``menu`` only when a group is open, ``focus`` only for one player's steps); the
world and sheets are read fresh from the table at every action and written
back when they change; a refused action raises and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, get_args

from core.rules.catalogue import N_
from core.rules.choice import Choice, actors
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu import downtime as dt
from core.rules.nsu.action_roll import (
    ActionKind,
    Participant,
    Phase,
    RollState,
    Winner,
    start_roll,
)
from core.rules.nsu.campaign import Phase as CampaignPhase
from core.rules.nsu.campaign import campaign_of
from core.rules.nsu.codec import from_plain, to_plain
from core.rules.nsu.downtime import DowntimeEvent, DowntimeKind, DowntimeState
from core.rules.nsu.play_table import changed_sheets, characters, require_world, settings_of, stored
from core.rules.nsu.roll_choices import SKIP, TEXT, detail_choices, roll_choices
from core.rules.nsu.roll_panel import RollPanel, add_detail, roll_step, skip_grant
from core.rules.nsu.settings import NsuSettings
from core.rules.nsu.terms import Aspect
from core.rules.nsu.world import CardView, World, reachable_cards, visible_card
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Role, Seat, Table, current
from core.rules.waiting import NOBODY, Waiting, waiting

DOWNTIME_PANEL = "nsu.downtime"
STATE_VERSION = 1
LOG_LENGTH = 8
ROLL_ACTIONS = frozenset(kind.value for kind in ActionKind)

# Prompts: what a player's next reply (or card button) means.
RECOVER, SEEK, SCOUT_PICK, PLAN_PICK, PLAN_TEXT = (
    "recover",
    "seek",
    "scout_pick",
    "plan_pick",
    "plan_text",
)
RECONNECT, PROJECT, REWARD = "reconnect", "project", "reward"
MENU, END = "menu", "end"

# What each button starts, and the downtime kind it needs.
PROMPT_KINDS = {
    RECOVER: DowntimeKind.RECOVER_HARM,
    SEEK: DowntimeKind.SEEK_RECOVERY,
    SCOUT_PICK: DowntimeKind.SCOUT,
    PLAN_PICK: DowntimeKind.PROPOSE_PLAN,
    RECONNECT: DowntimeKind.RECONNECT,
    PROJECT: DowntimeKind.WORK_ON_PROJECT,
    REWARD: DowntimeKind.BRING_REWARD_HOME,
}


class Menu(Enum):
    """The group of buttons the panel shows now (``MAIN``: what is under way, and the groups)."""

    MAIN = ""
    REST = "rest"
    WORK = "work"
    TRAIN = "train"
    CLOCK = "clock"
    END = "end"
    PLAYER = "player"  # one player's own open steps, when several would crowd the panel


# The group a Back button returns to (what each group offers: :func:`group_choices`).
MENU_PARENT = {Menu.TRAIN: Menu.WORK}


# -- the panel's own state -------------------------------------------------------------


@dataclass(frozen=True)
class Prompt:
    """What a player's next reply (or card button) means.

    Attributes:
        kind: the prompt (``recover``, ``seek``, ``scout_pick``, ``plan_pick``, ...).
        helper: who helps a Seek Recovery (None if nobody).
        skills: the skill lines a Seek Recovery adds (line indexes).
        card: the card a plan addresses (``plan_text``).
    """

    kind: str
    helper: int | None = None
    skills: tuple[int, ...] = ()
    card: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "helper": self.helper}
        if self.skills:
            out["skills"] = list(self.skills)
        if self.card is not None:
            out["card"] = self.card
        return out

    @classmethod
    def from_dict(cls, data: Json) -> Prompt:
        helper = data.get("helper")
        card = data.get("card")
        return cls(
            kind=str(data["kind"]),
            helper=None if helper is None else int(helper),
            skills=tuple(int(i) for i in data.get("skills") or ()),
            card=None if card is None else str(card),
        )


@dataclass(frozen=True)
class ScoutRoll:
    """The Scout's Action Roll: who scouts which card, and how far the roll got.

    Attributes:
        decided: the roll is settled and the Scout pressed on or turned back.
        skipped: grants of the roll's details that were skipped.
    """

    player: int
    card: str
    roll: RollState
    decided: bool = False
    skipped: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "player": self.player,
            "card": self.card,
            "roll": self.roll.to_dict(),
        }
        if self.decided:
            out["decided"] = True
        if self.skipped:
            out["skipped"] = list(self.skipped)
        return out

    @classmethod
    def from_dict(cls, data: Json) -> ScoutRoll:
        return cls(
            player=int(data["player"]),
            card=str(data["card"]),
            roll=RollState.from_dict(data["roll"]),
            decided=bool(data.get("decided")),
            skipped=tuple(int(i) for i in data.get("skipped") or ()),
        )

    @property
    def details(self) -> RollPanel:
        """The settled roll as a roll panel, for its details."""
        return RollPanel(self.roll, None, self.skipped)


@dataclass(frozen=True)
class DowntimePanelState:
    """What the downtime message keeps beside the campaign's downtime (never changed in place).

    Attributes:
        prompts: each player's open prompt.
        scout: the Scout's roll in progress, if any.
        looks: who may look at which card in private (a successful Scout).
        log: the latest happenings, as the downtime's events.
    """

    prompts: Mapping[int, Prompt] = field(default_factory=dict)
    scout: ScoutRoll | None = None
    looks: Mapping[int, str] = field(default_factory=dict)
    log: tuple[DowntimeEvent, ...] = ()
    menu: Menu = Menu.MAIN
    focus: int | None = None

    def prompt(self, player: int) -> Prompt | None:
        return self.prompts.get(player)

    def with_prompt(self, player: int, prompt: Prompt | None) -> DowntimePanelState:
        """This state with ``player``'s prompt set (or dropped, for None)."""
        prompts = {p: x for p, x in self.prompts.items() if p != player}
        if prompt is not None:
            prompts[player] = prompt
        return replace(self, prompts=prompts)

    def with_look(self, player: int, card: str) -> DowntimePanelState:
        return replace(self, looks={**self.looks, player: card})

    def logging(self, events: Iterable[object]) -> DowntimePanelState:
        """This state with the downtime's own events among ``events`` logged (an Action
        Roll's steps are shown by its panel, not logged)."""
        entries = tuple(e for e in events if isinstance(e, LOGGED_KINDS))
        return replace(self, log=(*self.log, *entries)[-LOG_LENGTH:])

    @property
    def scout_details(self) -> RollPanel | None:
        """The Scout's settled roll while its details are being added, if any."""
        if self.scout is None or not self.scout.decided:
            return None
        return self.scout.details

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "v": STATE_VERSION,
            "prompts": {str(p): x.to_dict() for p, x in self.prompts.items()},
            "scout": None if self.scout is None else self.scout.to_dict(),
            "looks": {str(p): c for p, c in self.looks.items()},
            "log": [logged(e) for e in self.log],
        }
        if self.menu is not Menu.MAIN:
            out["menu"] = self.menu.value
        if self.focus is not None:
            out["focus"] = self.focus
        return out

    @classmethod
    def from_dict(cls, data: Json) -> DowntimePanelState:
        """Read a stored panel.

        Raises:
            Malformed: stored by another version, or not readable.
        """
        if data.get("v") != STATE_VERSION:
            raise Malformed("This downtime was stored by another version.")
        try:
            scout = data.get("scout")
            return cls(
                prompts={
                    int(k): Prompt.from_dict(v) for k, v in dict(data.get("prompts") or {}).items()
                },
                scout=None if scout is None else ScoutRoll.from_dict(scout),
                looks={int(k): str(v) for k, v in dict(data.get("looks") or {}).items()},
                log=read_log(data.get("log") or ()),
                menu=Menu(str(data.get("menu") or "")),
                focus=None if data.get("focus") is None else int(data["focus"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise Malformed("This downtime can't be read any more.") from None


def scout_roll(panel: Json) -> RollState | None:
    """The Scout's Action Roll in progress, if any (``panel`` as stored)."""
    scout = DowntimePanelState.from_dict(panel).scout
    return None if scout is None else scout.roll


def prompt_of(panel: Json, player: int) -> Prompt | None:
    """``player``'s open prompt (``panel`` as stored)."""
    return DowntimePanelState.from_dict(panel).prompt(player)


def looks(panel: Json) -> dict[int, str]:
    """Who may look at which card in private (a successful Scout)."""
    return dict(DowntimePanelState.from_dict(panel).looks)


LOGGED_KINDS: tuple[type[DowntimeEvent], ...] = get_args(DowntimeEvent)
"""Every kind of event the panel's log keeps (the downtime's and the world's)."""
LOGGED_BY_NAME: Mapping[str, type[DowntimeEvent]] = {kind.__name__: kind for kind in LOGGED_KINDS}
"""The same, by the name each is stored under."""


def logged(event: DowntimeEvent) -> dict[str, Any]:
    """An event as plain data tagged with its type, as the panel's log stores it:
    ``{"t": "HarmRecovered", "player_id": 1, ...}``."""
    plain = to_plain(event)
    return {"t": type(event).__name__, **(plain if isinstance(plain, dict) else {})}


def read_log(stored: Iterable[object]) -> tuple[DowntimeEvent, ...]:
    """The log's events as :func:`logged` stored them, in order.

    An entry this version no longer keeps (a kind since dropped, fields since changed)
    is left out: the log only shows the latest happenings, and it never stops a panel
    from being read.
    """
    found: list[DowntimeEvent] = []
    for entry in stored:
        if not isinstance(entry, Mapping):
            continue
        kind = LOGGED_BY_NAME.get(str(entry.get("t")))
        if kind is None:
            continue
        try:
            found.append(from_plain(kind, {k: v for k, v in entry.items() if k != "t"}))
        except Malformed:
            continue
    return tuple(found)


def current_downtime(table: Table) -> DowntimeState:
    """The campaign's downtime with the world and sheets as they stand now.

    Raises:
        NotAllowedNow: the campaign is not in downtime.
    """
    campaign = campaign_of(table)
    if campaign.phase is not CampaignPhase.DOWNTIME or campaign.downtime is None:
        raise NotAllowedNow("Downtime is over; head out on the next adventure.")
    world = require_world(table)
    state = campaign.downtime
    sheets = characters(table)
    fresh = tuple((p, sheets.get(p, s)) for p, s in state.sheets)
    return replace(state, world=world, sheets=fresh)


# -- opening ------------------------------------------------------------------------


def begin(
    table: Table, actor: int, argument: str, rng: Rng
) -> tuple[DowntimeState, tuple[object, ...]]:
    """Start downtime: complications for the place just left, a recovery point at home.

    Raises:
        Malformed: an unknown place.
        NotAllowedNow: not during an adventure, or nobody has a character.
    """
    world = require_world(table, CampaignPhase.ADVENTURE)
    word = argument.strip().lower() or dt.DowntimePlace.HOME.value
    try:
        place = dt.DowntimePlace(word)
    except ValueError:
        raise Malformed(
            "Rest at home (/downtime home) or at a safe camp (/downtime camp)."
        ) from None
    sheets = {p: c for p, c in characters(table).items() if p in world.players}
    if actor not in table.seats:
        raise NotYourTurn("Only players in this game can do that.")
    if not sheets:
        raise NotAllowedNow("Nobody has a character yet.")
    state, events = dt.begin_downtime(world, sheets, place, rng)
    return state, tuple(events)


# -- acting ---------------------------------------------------------------------------


def _require(state: DowntimeState, actor: int, kind: DowntimeKind) -> None:
    if kind not in dt.allowed_actions(state).get(actor, frozenset()):
        if actor not in dict(state.sheets):
            raise NotAllowedNow("You have no character in this downtime.")
        budget = state.budget(actor)
        if kind is DowntimeKind.RECOVER_HARM and budget.recovered_harm:
            raise NotAllowedNow("You've already recovered harm this downtime.")
        if kind is DowntimeKind.RECOVER_HARM and not state.sheet(actor).harms:
            raise NotAllowedNow("There is no harm to heal.")
        if kind is DowntimeKind.UPGRADE_SKILLS and not budget.upgraded_skills:
            raise NotAllowedNow("No skill has all three aspect boxes marked yet.")
        if kind in dt.COSTS_AN_ACTION and budget.actions_left <= 0:
            raise NotAllowedNow("You've used your downtime action.")
        if state.sheet(actor).overcome:
            raise NotAllowedNow("Overcome: recover a harm before doing anything else.")
        raise NotAllowedNow("That isn't possible for you right now.")


def _card_by_index(world: World, argument: str) -> str:
    try:
        return world.cards[int(argument)].id
    except (ValueError, IndexError):
        raise Malformed("There is no such location card.") from None


def scout_targets(world: World, scout: int) -> tuple[int, ...]:
    """Indices of the face-down cards near enough to scout (the scout's own excluded)."""
    near = set(reachable_cards(world))
    return tuple(
        i
        for i, c in enumerate(world.cards)
        if c.id in near and not c.revealed and c.author_id != scout and scout not in c.scouted_by
    )


def reward_card(state: DowntimeState) -> str | None:
    """The location just left, if its reward is still out there."""
    for roll in state.complications[:1]:
        card = state.world.card(roll.card_id)
        if card.revealed and card.reward is not None and not card.reward_claimed:
            return card.id
    return None


def plan_targets(world: World) -> tuple[int, ...]:
    """Indices of the revealed cards with collateral to address."""
    return tuple(i for i, c in enumerate(world.cards) if c.revealed and c.clock.ticks > 0)


# steps open at any time during downtime: left off while anything else is open
SIDE = frozenset(
    {
        DowntimeKind.TICK_COLLATERAL,
        DowntimeKind.UNTICK_COLLATERAL,
        DowntimeKind.SPEND_MORE_TIME,
        DowntimeKind.BRING_REWARD_HOME,
        ActionKind.CANCEL,
    }
)
# the free actions: nobody has to take them
FREE = frozenset({DowntimeKind.RECOVER_HARM, DowntimeKind.UPGRADE_SKILLS})


class NsuDowntimePanel:
    """PanelRules for "nsu.downtime"."""

    kind = DOWNTIME_PANEL

    def read(self, state: Json) -> DowntimePanelState:
        return DowntimePanelState.from_dict(state)

    def waiting(self, table: Table, state: DowntimePanelState | Json) -> Waiting:
        """Downtime waits on whoever has a step open; a free action, a clock tick, more
        time or bringing the reward home never hold it, nor calling the Scout's roll off."""
        downtime = campaign_of(table).downtime
        if downtime is None:
            return NOBODY
        return waiting(downtime_choices(current(self, state), downtime), SIDE, FREE)

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        state, events = begin(table, actor, argument, rng)
        panel = DowntimePanelState().logging(events)
        campaign_state = stored(
            table, world=state.world, phase=CampaignPhase.DOWNTIME, downtime=state
        )
        sheets = changed_sheets(table, state.sheet_map())
        return Outcome(
            state=panel.to_dict(), events=events, campaign_state=campaign_state, sheets=sheets
        )

    def act(
        self,
        table: Table,
        state: DowntimePanelState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        panel = current(self, state)
        downtime = current_downtime(table)
        before = downtime
        panel, downtime, events = _act(
            panel, downtime, actor, action, argument, rng, settings_of(table)
        )
        if action not in (MENU, END):
            panel = replace(panel, menu=Menu.MAIN, focus=None)  # a step closes the open group
        panel = panel.logging(events)
        now = downtime.sheet_map()
        if panel.scout is not None:
            now.update({p.player: p.character for p in panel.scout.roll.participants})
        sheets = changed_sheets(table, now)
        if downtime.ended:
            campaign_state = stored(
                table, world=downtime.world, phase=CampaignPhase.ADVENTURE, end_downtime=True
            )
        elif downtime != before:
            campaign_state = stored(table, world=downtime.world, downtime=downtime)
        else:
            campaign_state = None
        return Outcome(
            state=panel.to_dict(),
            events=events,
            closed=downtime.ended,
            campaign_state=campaign_state,
            sheets=sheets,
            model=panel,
        )


def _apply(
    state: DowntimeState, actor: int, action: dt.DowntimeAction, rng: Rng
) -> tuple[DowntimeState, tuple[object, ...]]:
    new, events = dt.apply(state, actor, action, rng)
    return new, tuple(events)


Step = tuple[DowntimePanelState, DowntimeState, tuple[object, ...]]


def _act(
    panel: DowntimePanelState,
    state: DowntimeState,
    actor: int,
    action: str,
    argument: str,
    rng: Rng,
    settings: NsuSettings,
) -> Step:
    mine = panel.prompt(actor)
    world = state.world

    def done(result: tuple[DowntimeState, tuple[object, ...]]) -> Step:
        return (panel, *result)

    if action == TEXT and mine is not None and mine.kind in _TEXT_PROMPTS:
        new, events = _TEXT_PROMPTS[mine.kind](state, actor, mine, argument, rng)
        return panel.with_prompt(actor, None), new, events
    if action == TEXT and mine is not None and mine.kind == SEEK:
        skills = tuple(_skill_lines(state, actor, argument))
        return panel.with_prompt(actor, replace(mine, skills=skills)), state, ()
    if action == TEXT and _renaming(state, actor):
        return done(_apply(state, actor, dt.RenameMood(argument), rng))
    if action == TEXT and _introspecting(state, actor):
        return done(_introspection_text(state, actor, argument))
    if action in ROLL_ACTIONS or action in (TEXT, SKIP):
        return _scout_step(panel, state, actor, action, argument, rng)
    if action in PROMPT_KINDS:
        _require(state, actor, PROMPT_KINDS[action])
        if action == SCOUT_PICK and panel.scout is not None:
            raise NotAllowedNow("Someone is scouting already; wait for their roll to end.")
        if action == SCOUT_PICK and not scout_targets(world, actor):
            raise NotAllowedNow("No face-down card is near enough to scout.")
        if action == PLAN_PICK and not plan_targets(world):
            raise NotAllowedNow("No location you've been to has collateral to address.")
        if action == REWARD and reward_card(state) is None:
            raise NotAllowedNow("There's no reward waiting to be brought home.")
        return panel.with_prompt(actor, Prompt(action)), state, ()
    if action == "drop":
        if mine is None:
            raise NotAllowedNow("You have nothing open to drop.")
        return panel.with_prompt(actor, None), state, ()
    if action == "upgrade":
        return done(_apply(state, actor, dt.UpgradeSkills(), rng))
    if action == "seek_help":
        seeker = _int(argument)
        theirs = panel.prompt(seeker)
        if seeker == actor:
            raise NotAllowedNow("A helper is someone else.")
        if theirs is None or theirs.kind != SEEK:
            raise NotAllowedNow("They're not seeking recovery right now.")
        state.sheet(actor)
        helper = None if theirs.helper == actor else actor
        return panel.with_prompt(seeker, replace(theirs, helper=helper)), state, ()
    if action == "seek_roll":
        if mine is None or mine.kind != SEEK:
            raise NotYourTurn("Tap Seek Recovery first; this roll is for whoever seeks it.")
        seek = dt.SeekRecovery(healer=argument == "healer", skills=mine.skills, helper=mine.helper)
        new, events = _apply(state, actor, seek, rng)
        return panel.with_prompt(actor, None), new, events
    if action == "scout_card":
        if mine is None or mine.kind != SCOUT_PICK:
            raise NotYourTurn("Tap Scout first; the card is picked by whoever scouts.")
        index = _int(argument)
        if index not in scout_targets(world, actor):
            raise NotAllowedNow("That card is too far, face up, or already known to you.")
        _require(state, actor, DowntimeKind.SCOUT)
        others = frozenset(p for p in world.players if p != actor)
        roll = start_roll(Participant(actor, state.sheet(actor)), others, (), settings)
        scout = ScoutRoll(actor, world.cards[index].id, roll)
        return replace(panel.with_prompt(actor, None), scout=scout), state, ()
    if action in ("scout_press_on", "scout_turn_back"):
        return _scout_decides(panel, state, actor, action == "scout_press_on")
    if action == "plan_card":
        if mine is None or mine.kind != PLAN_PICK:
            raise NotYourTurn("Tap Address Collateral first.")
        index = _int(argument)
        if index not in plan_targets(world):
            raise NotAllowedNow("That location has no collateral to address.")
        prompt = Prompt(PLAN_TEXT, card=world.cards[index].id)
        return panel.with_prompt(actor, prompt), state, ()
    if action == "vote":
        return done(_apply(state, actor, dt.VoteOnPlan(argument == "yes"), rng))
    if action == "plan_roll":
        return done(_apply(state, actor, dt.RollForPlan(), rng))
    if action == "plan_die":
        return done(_apply(state, actor, dt.AddDieToPlan(_aspect(argument)), rng))
    if action == "plan_settle":
        return done(_apply(state, actor, dt.SettlePlan(), rng))
    if action == "introspect":
        return done(_apply(state, actor, dt.Introspect(), rng))
    if action == "clear":
        return done(_apply(state, actor, dt.ReduceMood(_int(argument) - 1, 1), rng))
    if action == "introspect_done":
        return done(_apply(state, actor, dt.FinishIntrospection(), rng))
    if action == "endanger":
        return done(_apply(state, actor, dt.EndangerSentiment(_int(argument) - 1), rng))
    if action == "train":
        skills = tuple(range(len(state.sheet(actor).skills)))
        return done(_apply(state, actor, dt.TrainSkills(_aspect(argument), skills), rng))
    if action == "more_time":
        cards = (_card_by_index(world, argument),)
        return done(_apply(state, actor, dt.SpendMoreTime(cards), rng))
    if action in ("tick", "untick"):
        card = _card_by_index(world, argument)
        move = dt.TickCollateral(card) if action == "tick" else dt.UntickCollateral(card)
        return done(_apply(state, actor, move, rng))
    if action == MENU:
        menu, focus = _menu_for(panel, state, actor, argument)
        return replace(panel, menu=menu, focus=focus), state, ()
    if action == END:
        if panel.scout is not None:
            raise NotAllowedNow("Finish the Scout's roll first.")
        _require(state, actor, DowntimeKind.END_DOWNTIME)
        if argument.strip() != "yes":
            return replace(panel, menu=Menu.END, focus=None), state, ()
        if panel.menu is not Menu.END:
            raise NotAllowedNow("Tap 🏁 End downtime first; it asks everyone to confirm.")
        return done(_apply(state, actor, dt.EndDowntime(), rng))
    raise Malformed("That is not a downtime step.")


def menu_openers(panel: DowntimePanelState, state: DowntimeState, menu: Menu) -> frozenset[int]:
    """Who may open ``menu`` now: those who may take one of its actions."""
    if menu in (Menu.MAIN, Menu.PLAYER):
        return frozenset(p for p, _ in state.sheets)
    if menu is Menu.END:
        return enders(panel, state)
    return actors(group_choices(panel, state, menu))  # those who may take one of its offers


def _menu_for(
    panel: DowntimePanelState, state: DowntimeState, actor: int, argument: str
) -> tuple[Menu, int | None]:
    """The group ``argument`` names (``p<player>`` for a player's own steps), if ``actor``
    may open it."""
    word = argument.strip().lower()
    focus = None
    if word[:1] == "p" and word[1:].isdigit():
        focus = int(word[1:])
        if focus not in dict(state.sheets):
            raise Malformed("That button is out of date.")
        word = Menu.PLAYER.value
    try:
        menu = Menu(word)
    except ValueError:
        raise Malformed("That button is out of date.") from None
    if menu is Menu.PLAYER and focus is None:
        raise Malformed("That button is out of date.")
    if actor not in dict(state.sheets):
        raise NotAllowedNow("You have no character in this downtime.")
    going_back = menu is MENU_PARENT.get(panel.menu)  # Back is open to everyone
    if not going_back and actor not in menu_openers(panel, state, menu):
        if state.sheet(actor).overcome:
            raise NotAllowedNow("Overcome: recover a harm before doing anything else.")
        raise NotAllowedNow("Nothing in that group is open to you right now.")
    return menu, focus


def _renaming(state: DowntimeState, actor: int) -> bool:
    """A mood of theirs filled its track and waits for a stronger name (ruling 23)."""
    if actor not in dict(state.sheets):
        return False
    filled = state.budget(actor).filled
    return filled is not None and filled.rename


def _introspecting(state: DowntimeState, actor: int) -> bool:
    return actor in dict(state.sheets) and state.budget(actor).introspection is not None


def _with_roll_sheets(state: DowntimeState, roll: RollState) -> DowntimeState:
    """The downtime with the roll's sheets (as they stand, or as they were if called off)."""
    now = {p.player: p.character for p in roll.participants}
    return replace(state, sheets=tuple((p, now.get(p, s)) for p, s in state.sheets))


def _skill_lines(state: DowntimeState, actor: int, text: str) -> list[int]:
    """Skill lines from a reply like ``1 3`` (counted from 1), checked against the sheet."""
    words = text.replace(",", " ").split()
    if not words or not all(w.isdigit() for w in words):
        raise Malformed("Reply with the numbers of the skills that help, like “1 3”.")
    lines = [int(w) - 1 for w in words]
    if len(set(lines)) != len(lines):
        raise Malformed("List each skill once.")
    sheet = state.sheet(actor)
    for line in lines:
        sheet.skill(line)
    return lines


def _int(argument: str) -> int:
    try:
        return int(argument.strip())
    except ValueError:
        raise Malformed("That button is out of date.") from None


def _aspect(argument: str) -> Aspect:
    try:
        return Aspect(argument.strip().lower())
    except ValueError:
        raise Malformed("Pick Body, Mind or Heart.") from None


# -- the Scout's roll -----------------------------------------------------------------


def _scout_step(
    panel: DowntimePanelState,
    state: DowntimeState,
    actor: int,
    action: str,
    argument: str,
    rng: Rng,
) -> Step:
    scout = panel.scout
    if scout is None:
        if action == TEXT:
            raise NotAllowedNow(
                "Tap a downtime action first; then reply with the words it asks for."
            )
        raise NotAllowedNow("Nobody is scouting right now.")
    roll = scout.roll
    if roll.phase is Phase.DONE and scout.decided:
        return _scout_detail(panel, scout, state, actor, action, argument)
    if roll.phase is Phase.DONE:
        raise NotAllowedNow("The Scout's roll is settled: press on or turn back.")
    if action == SKIP:
        raise NotAllowedNow("Details come once the roll is settled.")
    roll, events = roll_step(roll, actor, action, argument, rng)
    out: tuple[object, ...] = events
    if roll.phase is Phase.CANCELLED:
        return replace(panel, scout=None), _with_roll_sheets(state, roll), out
    scout = replace(scout, roll=roll)
    panel = replace(panel, scout=scout)
    if roll.phase is Phase.DONE:
        assert roll.outcome is not None
        state = dt.take_roll_sheets(state, roll)
        if roll.outcome.winner is Winner.PLAYER:
            panel, state, more = _finish_scout(panel, scout, state, accept=True)
            out += more
    return panel, state, out


def scout_must_decide(panel: DowntimePanelState) -> int | None:
    """The Scout who must now press on or turn back (a settled roll they did not win)."""
    scout = panel.scout
    if scout is None or scout.decided or scout.roll.phase is not Phase.DONE:
        return None
    outcome = scout.roll.outcome
    if outcome is None or outcome.winner is Winner.PLAYER:
        return None
    return scout.player


def _scout_decides(
    panel: DowntimePanelState, state: DowntimeState, actor: int, accept: bool
) -> Step:
    scout = panel.scout
    if scout is None:
        raise NotAllowedNow("Nobody is scouting right now.")
    if scout.player != actor:
        raise NotYourTurn("The Scout decides whether to press on.")
    if scout.roll.phase is not Phase.DONE:
        raise NotAllowedNow("Finish the roll first.")
    if scout.decided:
        raise NotAllowedNow("The Scout has already decided.")
    return _finish_scout(panel, scout, dt.take_roll_sheets(state, scout.roll), accept)


def _finish_scout(
    panel: DowntimePanelState, scout: ScoutRoll, state: DowntimeState, accept: bool
) -> Step:
    outcome = scout.roll.outcome
    assert outcome is not None
    player = scout.player
    state, events = dt.apply(state, player, dt.Scout(scout.card, outcome, accept), _NO_RNG)
    if any(isinstance(e, dt.ScoutLooked) for e in events):
        panel = panel.with_look(player, scout.card)
    scout = replace(scout, decided=True)
    if not accept or not scout.details.open_grants:
        return replace(panel, scout=None), state, tuple(events)  # turning back rejects details
    return replace(panel, scout=scout), state, tuple(events)


def enders(panel: DowntimePanelState, state: DowntimeState) -> frozenset[int]:
    """Who may end downtime now (never while the Scout's roll is on the table)."""
    if panel.scout is not None:
        return frozenset()
    allowed = dt.allowed_actions(state)
    return frozenset(p for p, kinds in allowed.items() if DowntimeKind.END_DOWNTIME in kinds)


def scouted_card(panel: DowntimePanelState, world: World, viewer: int) -> CardView:
    """The face of the card ``viewer`` scouted, for their eyes only.

    Raises:
        NotYourTurn: ``viewer`` did not scout a card in this downtime.
    """
    card_id = panel.looks.get(viewer)
    if card_id is None:
        raise NotYourTurn("Only the scout may look at the card.")
    card = visible_card(world.card(card_id), viewer)
    if not card.face_visible:
        raise NotYourTurn("Only the scout may look at the card.")
    return card


class PanelVerb(Enum):
    """Downtime panel choices that are not downtime actions of their own."""

    ANSWER_PROMPT = "text"  # reply to one's open prompt
    PRESS_ON = "scout_press_on"
    TURN_BACK = "scout_turn_back"


def downtime_choices(panel: DowntimePanelState, state: DowntimeState) -> tuple[Choice[Any], ...]:
    """The legal choices now, each with who may take it: the Scout's roll first, then
    open prompts, then every downtime action (ending it only when :func:`enders` allows)."""
    found: list[Choice[Any]] = []
    scout = panel.scout
    if scout is not None:
        details = panel.scout_details
        if details is not None:
            found += detail_choices(details)
        elif scout.roll.phase is not Phase.DONE:
            found += roll_choices(scout.roll)
        decider = scout_must_decide(panel)
        if decider is not None:
            found += [
                Choice(v, by=frozenset({decider}))
                for v in (PanelVerb.PRESS_ON, PanelVerb.TURN_BACK)
            ]
    for player, prompt in panel.prompts.items():
        found.append(Choice(PanelVerb.ANSWER_PROMPT, by=frozenset({player}), name=prompt.kind))
    by: dict[DowntimeKind, set[int]] = {}
    for player, kinds in dt.allowed_actions(state).items():
        for kind in kinds:
            by.setdefault(kind, set()).add(player)
    by[DowntimeKind.END_DOWNTIME] = set(enders(panel, state))
    found += [Choice(kind, by=frozenset(by[kind])) for kind in DowntimeKind if by.get(kind)]
    return tuple(found)


def scout_details_open(panel: Json) -> RollPanel | None:
    """The Scout's settled roll while its details are being added, if any (as stored)."""
    return DowntimePanelState.from_dict(panel).scout_details


def _scout_detail(
    panel: DowntimePanelState,
    scout: ScoutRoll,
    state: DowntimeState,
    actor: int,
    action: str,
    argument: str,
) -> Step:
    """A detail granted by the Scout's roll, added by reply or skipped (no scene: the
    card is face down, so scene details are only told)."""
    roll_panel = scout.details
    events: tuple[object, ...]
    if action == SKIP:
        roll_panel, events = skip_grant(roll_panel, actor, argument)
    elif action == TEXT:
        roll_panel, _, events = add_detail(roll_panel, None, _table_stub(state), actor, argument)
    else:
        raise NotAllowedNow("The Scout's roll is settled: add its details or skip them.")
    state = _with_roll_sheets(state, roll_panel.roll)
    if roll_panel.finished:
        return replace(panel, scout=None), state, events
    scout = replace(scout, roll=roll_panel.roll, skipped=tuple(roll_panel.skipped))
    return replace(panel, scout=scout), state, events


def _table_stub(state: DowntimeState) -> Table:
    """Names for the detail grammar's ``@``: the characters in downtime."""
    seats = {p: Seat(p, sheet.name, frozenset({Role.PLAYER}), {}) for p, sheet in state.sheets}
    return Table(0, "nsu", {}, seats)


class _NoRng:
    def randint(self, low: int, high: int) -> int:  # pragma: no cover - never called
        raise AssertionError("a Scout's look rolls no dice")


_NO_RNG = _NoRng()


# -- replies to prompts ---------------------------------------------------------------


def _recover_text(
    state: DowntimeState, actor: int, prompt: Prompt, text: str, rng: Rng
) -> tuple[DowntimeState, tuple[object, ...]]:
    """``<harm line> <scar>`` or just ``<scar>`` (the first harm)."""
    head, _, rest = text.strip().partition(" ")
    if head.isdigit() and rest.strip():
        index, scar = int(head) - 1, rest
    else:
        index, scar = 0, text
    return _apply(state, actor, dt.RecoverHarm(((index, scar),)), rng)


def _plan_text(
    state: DowntimeState, actor: int, prompt: Prompt, text: str, rng: Rng
) -> tuple[DowntimeState, tuple[object, ...]]:
    return _apply(state, actor, dt.ProposePlan(str(prompt.card), text), rng)


def _reconnect_text(
    state: DowntimeState, actor: int, prompt: Prompt, text: str, rng: Rng
) -> tuple[DowntimeState, tuple[object, ...]]:
    """``<sentiment line> <mood line>`` or ``<sentiment line> <mood line> <new sentiment>``."""
    parts = text.split(maxsplit=2)
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        raise Malformed("Reply “2 1” (sentiment 2, raising mood 1), or “2 1 New friend” to forge.")
    forge = parts[2] if len(parts) == 3 else None
    action = dt.Reconnect(int(parts[0]) - 1, int(parts[1]) - 1, forge)
    return _apply(state, actor, action, rng)


def _project_text(
    state: DowntimeState, actor: int, prompt: Prompt, text: str, rng: Rng
) -> tuple[DowntimeState, tuple[object, ...]]:
    """``<mood line> <aspect> #<project>`` or ``<mood line> <aspect> <4|6|8> <new project>``."""
    parts = text.split(maxsplit=3)
    hint = N_("Reply “1 mind #1” to work on project 1, or “1 mind 6 Learn carpentry” to start one.")
    if len(parts) < 3 or not parts[0].isdigit():
        raise Malformed(hint)
    mood, aspect = int(parts[0]) - 1, _aspect(parts[1])
    if parts[2].startswith("#") and parts[2][1:].isdigit():
        index = int(parts[2][1:]) - 1
        projects = state.world.projects
        if not 0 <= index < len(projects):
            raise Malformed("There is no such project.")
        action = dt.WorkOnProject(mood, aspect, project_id=projects[index].id)
    elif parts[2].isdigit() and len(parts) == 4:
        action = dt.WorkOnProject(mood, aspect, new=dt.NewProject(parts[3], int(parts[2])))
    else:
        raise Malformed(hint)
    return _apply(state, actor, action, rng)


def _introspection_text(
    state: DowntimeState, actor: int, text: str
) -> tuple[DowntimeState, tuple[object, ...]]:
    """``swap 1 3`` or ``replace 2 Calm`` while introspecting."""
    parts = text.split(maxsplit=2)
    word = parts[0].lower() if parts else ""
    rng = _NO_RNG
    if word == "swap" and len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return _apply(state, actor, dt.SwapMoods(int(parts[1]) - 1, int(parts[2]) - 1), rng)
    if word == "replace" and len(parts) == 3 and parts[1].isdigit():
        return _apply(state, actor, dt.ReplaceMood(int(parts[1]) - 1, parts[2]), rng)
    raise Malformed("While introspecting, reply “swap 1 3” or “replace 2 Calm”.")


def _reward_text(
    state: DowntimeState, actor: int, prompt: Prompt, text: str, rng: Rng
) -> tuple[DowntimeState, tuple[object, ...]]:
    card = reward_card(state)
    if card is None:
        raise NotAllowedNow("There's no reward waiting to be brought home.")
    return _apply(state, actor, dt.BringRewardHome(card, text), rng)


_TEXT_PROMPTS = {
    RECOVER: _recover_text,
    PLAN_TEXT: _plan_text,
    RECONNECT: _reconnect_text,
    PROJECT: _project_text,
    REWARD: _reward_text,
}

DOWNTIME_RULES = NsuDowntimePanel()


class SideVerb(Enum):
    """Downtime steps offered beside the menu: a Seek Recovery's options and the
    Collateral Clock of the complication being dealt with."""

    SEEK_HELP = "seek_help"
    SEEK_ROLL = "seek_roll"
    TICK = "tick"
    UNTICK = "untick"
    MORE_TIME = "more_time"


HEALER = "healer"
"""The argument of a Seek Recovery roll with a healer's help."""


def seek_choices(
    panel: DowntimePanelState, state: DowntimeState, seeker: int
) -> tuple[Choice[SideVerb], ...]:
    """A Seek Recovery under way: anyone else in downtime may help (or stop helping;
    ``selected`` when they do), and the seeker rolls, with a healer or without."""
    prompt = panel.prompt(seeker)
    if prompt is None or prompt.kind != SEEK:
        return ()
    others = frozenset(p for p, _ in state.sheets if p != seeker)
    me = frozenset({seeker})
    found: list[Choice[SideVerb]] = []
    if others:
        found.append(
            Choice(SideVerb.SEEK_HELP, str(seeker), by=others, selected=prompt.helper is not None)
        )
    found.append(Choice(SideVerb.SEEK_ROLL, by=me))
    found.append(Choice(SideVerb.SEEK_ROLL, HEALER, by=me, name=HEALER))
    return tuple(found)


def clock_choices(state: DowntimeState) -> tuple[Choice[SideVerb], ...]:
    """The Collateral Clock of the first complication still open: tick it, untick it,
    or spend more time there, each by whom the downtime rules allow. ``argument`` is
    the card's place on the table; ``name`` its id; ``count`` the clock's ticks."""
    if not state.complications:
        return ()
    world = state.world
    card = world.card(state.complications[0].card_id)
    place = str(world.cards.index(card))
    by: dict[DowntimeKind, set[int]] = {}
    for player, kinds in dt.allowed_actions(state).items():
        for kind in kinds:
            by.setdefault(kind, set()).add(player)
    verbs = (
        (SideVerb.TICK, DowntimeKind.TICK_COLLATERAL),
        (SideVerb.UNTICK, DowntimeKind.UNTICK_COLLATERAL),
        (SideVerb.MORE_TIME, DowntimeKind.SPEND_MORE_TIME),
    )
    return tuple(
        Choice(verb, place, by=frozenset(by[kind]), name=card.id, count=card.clock.ticks)
        for verb, kind in verbs
        if by.get(kind)
    )


def table_card_name(world: World, card_id: str, labels: Callable[[str], str] = str) -> str:
    """How a card is named to everyone at the table: its title once it is face up,
    else its id and its back (Danger and Reward), which everyone may see; ``labels``
    writes map labels (``L3``, ``D2 R4``) in the reader's letters."""
    seen = visible_card(world.card(card_id), None)
    if seen.revealed and seen.title:
        return seen.title
    card = world.card(card_id)
    back = f" {labels(card.back)}" if card.back else ""
    return f"{labels(card.id)}{back}"


# -- the panel's buttons, as choices --------------------------------------------------


class Button(Enum):
    """The downtime panel's own buttons that are not a roll step, a Seek Recovery's
    option or a clock move (those are :class:`ActionKind`, :class:`AfterRoll` and
    :class:`SideVerb` choices)."""

    OPEN_GROUP = MENU  # argument: the group (``p<player>`` for one player's steps; "" is Back)
    END = END  # "" opens the confirm step, "yes" ends downtime
    DROP = "drop"
    RECOVER = RECOVER
    SEEK = SEEK
    INTROSPECT = "introspect"
    RECONNECT = RECONNECT
    UPGRADE = "upgrade"
    SCOUT = SCOUT_PICK
    ADDRESS = PLAN_PICK
    PROJECT = PROJECT
    TRAIN = "train"
    REWARD = REWARD
    SCOUT_CARD = "scout_card"
    PLAN_CARD = "plan_card"
    VOTE = "vote"
    PLAN_ROLL = "plan_roll"
    PLAN_SETTLE = "plan_settle"
    PLAN_DIE = "plan_die"
    CLEAR = "clear"
    INTROSPECT_DONE = "introspect_done"
    ENDANGER = "endanger"
    LOOK = "look"  # the scouted card's face, sent in private (its own callback)


PANEL_BUTTONS = 8
"""How many steps the panel shows at once; beyond, each player's own steps sit behind
one button per player, and the groups come back once what is under way is answered."""

_GROUP_OFFERS: dict[Menu, tuple[tuple[DowntimeKind, Button, str], ...]] = {
    Menu.REST: (
        (DowntimeKind.RECOVER_HARM, Button.RECOVER, ""),
        (DowntimeKind.SEEK_RECOVERY, Button.SEEK, ""),
        (DowntimeKind.INTROSPECT, Button.INTROSPECT, ""),
        (DowntimeKind.RECONNECT, Button.RECONNECT, ""),
    ),
    Menu.WORK: (
        (DowntimeKind.UPGRADE_SKILLS, Button.UPGRADE, ""),
        (DowntimeKind.SCOUT, Button.SCOUT, ""),
        (DowntimeKind.PROPOSE_PLAN, Button.ADDRESS, ""),
        (DowntimeKind.WORK_ON_PROJECT, Button.PROJECT, ""),
        (DowntimeKind.TRAIN_SKILLS, Button.OPEN_GROUP, Menu.TRAIN.value),
    ),
}
_ASPECTS = (Aspect.BODY, Aspect.MIND, Aspect.HEART)


def _allowed_by(state: DowntimeState) -> dict[DowntimeKind, frozenset[int]]:
    by: dict[DowntimeKind, set[int]] = {}
    for player, kinds in dt.allowed_actions(state).items():
        for kind in kinds:
            by.setdefault(kind, set()).add(player)
    return {kind: frozenset(players) for kind, players in by.items()}


def _may_start(
    panel: DowntimePanelState, state: DowntimeState, button: Button, players: frozenset[int]
) -> frozenset[int]:
    """Of ``players`` (allowed the action), those for whom starting it now would work."""
    world = state.world
    if button is Button.SCOUT:
        if panel.scout is not None:
            return frozenset()
        return frozenset(p for p in players if scout_targets(world, p))
    if button is Button.ADDRESS and not plan_targets(world):
        return frozenset()
    if button is Button.REWARD and reward_card(state) is None:
        return frozenset()
    return players


def group_choices(
    panel: DowntimePanelState, state: DowntimeState, menu: Menu
) -> tuple[Choice[Any], ...]:
    """What a group offers now (Back not counted), each with who may take it."""
    allowed = _allowed_by(state)
    if menu in _GROUP_OFFERS:
        found = [
            Choice(button, argument, by=_may_start(panel, state, button, allowed[kind]))
            for kind, button, argument in _GROUP_OFFERS[menu]
            if allowed.get(kind)
        ]
        return tuple(c for c in found if c.by)
    if menu is Menu.TRAIN:
        by = allowed.get(DowntimeKind.TRAIN_SKILLS, frozenset())
        return tuple(Choice(Button.TRAIN, a.value, by=by, name=a.value) for a in _ASPECTS if by)
    if menu is Menu.CLOCK:
        moves: list[Choice[Any]] = list(clock_choices(state))
        by = _may_start(
            panel, state, Button.REWARD, allowed.get(DowntimeKind.BRING_REWARD_HOME, frozenset())
        )
        if by and state.complications:
            moves.append(Choice(Button.REWARD, by=by))
        return tuple(moves)
    if menu is Menu.END:
        who = enders(panel, state)
        return (Choice(Button.END, "yes", by=who),) if who else ()
    return ()


def _personal(panel: DowntimePanelState, state: DowntimeState) -> dict[int, list[Choice[Any]]]:
    """Each player's own open steps: their prompt's options, their introspection, a
    sentiment to mark (``who`` names the character)."""
    world = state.world
    found: dict[int, list[Choice[Any]]] = {}
    for player, prompt in panel.prompts.items():
        me = frozenset({player})
        mine = found.setdefault(player, [])
        name = dict(state.sheets)[player].name if player in dict(state.sheets) else ""
        if prompt.kind == SEEK:
            mine += [replace(c, who=name) for c in seek_choices(panel, state, player)]
        elif prompt.kind == SCOUT_PICK and panel.scout is None:
            mine += [
                Choice(Button.SCOUT_CARD, str(i), by=me, who=name, name=world.cards[i].id)
                for i in scout_targets(world, player)
            ]
        elif prompt.kind == PLAN_PICK:
            mine += [
                Choice(Button.PLAN_CARD, str(i), by=me, who=name, name=world.cards[i].id)
                for i in plan_targets(world)
            ]
    for player, sheet in state.sheets:
        if state.budget(player).introspection is None:
            continue
        me = frozenset({player})
        mine = found.setdefault(player, [])
        mine += [
            Choice(Button.CLEAR, str(i + 1), by=me, who=sheet.name, name=sheet.moods[i].name or "")
            for i in dt.clearable_moods(state, player)
        ]
        mine.append(Choice(Button.INTROSPECT_DONE, by=me, who=sheet.name))
    for player, sheet in state.sheets:
        filled = state.budget(player).filled
        if filled is None or not filled.endanger:
            continue
        me = frozenset({player})
        found.setdefault(player, []).extend(
            Choice(
                Button.ENDANGER,
                str(i + 1),
                by=me,
                who=sheet.name,
                name=sheet.sentiments[i].name or "",
            )
            for i in sheet.usable_sentiments
        )
    return {p: steps for p, steps in found.items() if steps}


def _shared(panel: DowntimePanelState, state: DowntimeState) -> list[Choice[Any]]:
    """The table's steps: the plan, the Scout's roll and its details, looks in private."""
    allowed = _allowed_by(state)
    found: list[Choice[Any]] = []
    plan = state.plan
    if plan is not None:
        proposer = dict(state.sheets).get(plan.proposer)
        who = proposer.name if proposer is not None else ""
        voters = allowed.get(DowntimeKind.VOTE_ON_PLAN)
        if voters:
            found += [Choice(Button.VOTE, vote, by=voters) for vote in ("yes", "no")]
        for kind, button in (
            (DowntimeKind.ROLL_FOR_PLAN, Button.PLAN_ROLL),
            (DowntimeKind.SETTLE_PLAN, Button.PLAN_SETTLE),
        ):
            if allowed.get(kind):
                found.append(Choice(button, by=allowed[kind], who=who))
        adders = allowed.get(DowntimeKind.ADD_DIE_TO_PLAN)
        if adders:
            found += [Choice(Button.PLAN_DIE, a.value, by=adders, name=a.value) for a in _ASPECTS]
    scout = panel.scout
    if scout is not None:
        details = panel.scout_details
        if details is not None:
            names = dict(state.sheets)
            found += [  # ``who``: the names of those who may add the detail
                replace(c, who=", ".join(sorted(names[p].name for p in c.by if p in names)))
                for c in detail_choices(details)
                if not c.by_reply
            ]
        elif scout.roll.phase is not Phase.DONE:
            found += [c for c in roll_choices(scout.roll) if not c.by_reply]
        decider = scout_must_decide(panel)
        if decider is not None:
            found += [
                Choice(v, by=frozenset({decider}), who=scout.roll.sheet.name)
                for v in (PanelVerb.PRESS_ON, PanelVerb.TURN_BACK)
            ]
    for player in panel.looks:
        sheet = dict(state.sheets).get(player)
        found.append(Choice(Button.LOOK, by=frozenset({player}), who=sheet.name if sheet else ""))
    return found


def panel_choices(panel: DowntimePanelState, state: DowntimeState) -> tuple[Choice[Any], ...]:
    """Every button the downtime panel shows now, in its order, each with who may press it.

    The open group's offers and Back; or (no group open) what is under way (each
    player's own steps, or one button per player when they would crowd the panel), Drop,
    and the groups somebody may open (left out while what is under way fills the panel).
    """
    everyone = frozenset(p for p, _ in state.sheets)
    menu = panel.menu
    back_to = MENU_PARENT.get(menu, Menu.MAIN).value
    back = Choice(Button.OPEN_GROUP, back_to, by=everyone)
    if menu is Menu.PLAYER:
        mine = _personal(panel, state).get(panel.focus or 0, [])
        holders = frozenset(panel.prompts)
        drop = [Choice(Button.DROP, by=holders)] if holders else []
        return (*mine, *drop, back)
    if menu is Menu.END:
        return (*group_choices(panel, state, menu), Choice(Button.OPEN_GROUP, by=everyone))
    if menu is not Menu.MAIN:
        return (*group_choices(panel, state, menu), back)
    personal = _personal(panel, state)
    shared = _shared(panel, state)
    holders = frozenset(panel.prompts)
    drop = [Choice(Button.DROP, by=holders)] if holders else []
    steps = [c for cs in personal.values() for c in cs] + shared + drop
    if len(steps) > PANEL_BUTTONS - 2:  # room left for the groups
        names = dict(state.sheets)
        steps = [
            Choice(Button.OPEN_GROUP, f"p{p}", by=everyone, who=names[p].name) for p in personal
        ] + shared
    groups = [
        Choice(Button.END if group is Menu.END else Button.OPEN_GROUP, group.value, by=who)
        for group in (Menu.REST, Menu.WORK, Menu.CLOCK, Menu.END)
        if (who := menu_openers(panel, state, group))
    ]
    if len(steps) + len(groups) > PANEL_BUTTONS:
        return tuple(steps)
    return (*steps, *groups)
