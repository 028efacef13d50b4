"""The group's adventure panel ("nsu.adventure"): where to go, who is on screen.

Actions (buttons):

========== ============================== =========================================
action     argument                       what it does
========== ============================== =========================================
travel     - (or ``back``)                show the places within reach (or hide them)
go         index in the reachable cards   head there; a face-down card is flipped
home       -                              go back to the settlement
pick       index in the turn order        put a character in the first group (toggle)
split      -                              split: the picked characters against the rest
cancel     -                              stop picking groups
switch     -                              put the other group on screen
regroup    -                              the characters meet up again
tick       -                              tick the current location's Collateral Clock
untick     -                              take a tick back
========== ============================== =========================================

Events the bot turns into private messages (the rules decide who may see what):
:class:`PaintThePicture` to a flipped card's author, :class:`SceneBriefing` to
the Arbiters of the scene. The panel state and :func:`scene` are public: the
group sees the face of a revealed card and the backs of the rest.

Invariants: only players of the world act; travelling needs every one of them
to have finished a character; the world's own functions keep the map, groups
and clocks consistent.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from core.rules.choice import Choice
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu import world as w
from core.rules.nsu.campaign import Phase, campaign_of, characters
from core.rules.nsu.world import CardFlipped, CardView, FocusSwitched, PartySplit, World
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Table, current
from core.rules.waiting import Waiting, free_play

ADVENTURE_PANEL = "nsu.adventure"


@dataclass(frozen=True)
class PaintThePicture:
    """Ask the author of a flipped card to describe it (privately prompted)."""

    card_id: str
    author_id: int


@dataclass(frozen=True)
class SceneBriefing:
    """The Arbiters of the scene get the whole card in private."""

    card_id: str
    arbiters: frozenset[int]


@dataclass(frozen=True)
class Scene:
    """What everyone may see of the adventure now."""

    players: tuple[int, ...]
    here: CardView | None  # None: at home
    reachable: tuple[CardView, ...]
    groups: tuple[frozenset[int], ...]
    on_screen: frozenset[int]
    arbiters: frozenset[int]
    picking: frozenset[int] | None
    without_character: tuple[int, ...]
    phase: Phase
    travelling: bool = False  # the places within reach are shown, as a step of their own


@dataclass(frozen=True)
class AdventurePanelState:
    """The group's adventure panel: who is being picked for a split, and whether the
    places within reach are shown."""

    picking: frozenset[int] | None = None
    travel: bool = False

    def to_dict(self) -> dict[str, Any]:
        picking = None if self.picking is None else sorted(self.picking)
        return {"v": 1, "picking": picking, "travel": self.travel}

    @classmethod
    def from_dict(cls, state: Json) -> AdventurePanelState:
        """Raises: Malformed: the stored state is damaged."""
        try:
            picking = state.get("picking")
            return cls(
                None if picking is None else frozenset(int(p) for p in picking),
                bool(state.get("travel")),
            )
        except (TypeError, ValueError, AttributeError):
            raise Malformed("That button is out of date. Use the latest message.") from None


def scene(table: Table, state: AdventurePanelState | Json) -> Scene:
    """The public scene (no face of a face-down card, no author of one)."""
    panel = (
        state if isinstance(state, AdventurePanelState) else AdventurePanelState.from_dict(state)
    )
    campaign = campaign_of(table)
    world = campaign.require_world()
    made = characters(table)
    here = None if world.current is None else w.visible_card(world.card(world.current), None)
    return Scene(
        players=world.players,
        here=here,
        reachable=tuple(w.visible_card(world.card(c), None) for c in w.reachable_cards(world)),
        groups=world.groups,
        on_screen=w.on_screen(world),
        arbiters=w.arbiters(world),
        picking=panel.picking,
        without_character=tuple(p for p in world.players if p in table.seats and p not in made),
        phase=campaign.phase,
        travelling=panel.travel,
    )


class AdventureVerb(Enum):
    """The adventure panel's buttons, by the action they send."""

    TRAVEL = "travel"  # show the places within reach; ``back`` hides them
    GO = "go"
    HOME = "home"
    PICK = "pick"  # start splitting up, or toggle one player into the first group
    SPLIT = "split"
    CANCEL = "cancel"
    SWITCH = "switch"
    REGROUP = "regroup"
    TICK = "tick"
    UNTICK = "untick"


def _picking_choices(
    players: tuple[int, ...], picking: frozenset[int]
) -> tuple[Choice[AdventureVerb], ...]:
    """Picking who splits off: each player in or out, Split once both groups have someone."""
    everyone = frozenset(players)
    picks = [
        Choice(AdventureVerb.PICK, str(i), by=everyone, selected=p in picking)
        for i, p in enumerate(players)
    ]
    two_groups = 0 < len(picking & everyone) < len(everyone)  # nobody alone in none
    split = [Choice(AdventureVerb.SPLIT, by=everyone)] if two_groups else []
    return (*picks, *split, Choice(AdventureVerb.CANCEL, by=everyone))


def adventure_choices(sc: Scene) -> tuple[Choice[AdventureVerb], ...]:
    """The legal choices now; anyone with a character in the world may take each.

    ``GO`` carries the index of a reachable card (``name`` its id); ``PICK`` while
    picking carries a player's index (``who`` unused, ``selected`` if in the group).
    """
    if sc.phase is Phase.DOWNTIME:
        return ()
    everyone = frozenset(sc.players)
    if sc.picking is not None:
        return _picking_choices(sc.players, sc.picking)
    found: list[Choice[AdventureVerb]] = []
    if sc.travelling and not sc.without_character:
        found += [
            Choice(AdventureVerb.GO, str(i), by=everyone, name=c.id)
            for i, c in enumerate(sc.reachable)
        ]
        return (*found, Choice(AdventureVerb.TRAVEL, "back", by=everyone))
    if not sc.without_character and sc.reachable:
        found.append(Choice(AdventureVerb.TRAVEL, by=everyone))
    if sc.here is not None:
        found.append(Choice(AdventureVerb.HOME, by=everyone))
    if sc.groups:
        found += [
            Choice(AdventureVerb.SWITCH, by=everyone),
            Choice(AdventureVerb.REGROUP, by=everyone),
        ]
    else:
        found.append(Choice(AdventureVerb.PICK, by=everyone))
    ticks = None if sc.here is None else sc.here.clock_ticks
    if ticks is not None and ticks < w.CLOCK_SEGMENTS:
        found.append(Choice(AdventureVerb.TICK, by=everyone))
    if ticks is not None and ticks > 0:
        found.append(Choice(AdventureVerb.UNTICK, by=everyone))
    return tuple(found)


def _index(argument: str, size: int) -> int:
    try:
        value = int(argument)
    except ValueError:
        raise Malformed("Use the buttons.") from None
    if not 0 <= value < size:
        raise Malformed("Use the buttons.")
    return value


def briefings(world: World, events: tuple[object, ...]) -> tuple[object, ...]:
    """Private prompts that follow from what happened at a location."""
    out: list[object] = []
    here = world.current
    for event in events:
        if isinstance(event, CardFlipped):
            out.append(PaintThePicture(event.card_id, event.author_id))
            out.append(SceneBriefing(event.card_id, w.arbiters(world)))
        elif isinstance(event, PartySplit | FocusSwitched) and here is not None:
            out.append(SceneBriefing(here, w.arbiters(world)))
    return tuple(out)


def _kept(panel: AdventurePanelState) -> Outcome:
    """A step that changes only the panel: its new state, as stored and as read."""
    return Outcome(state=panel.to_dict(), model=panel)


class AdventurePanel:
    """The rules of the group's adventure panel."""

    kind = ADVENTURE_PANEL

    def read(self, state: Json) -> AdventurePanelState:
        return AdventurePanelState.from_dict(state)

    def waiting(self, table: Table, state: AdventurePanelState | Json) -> Waiting:
        """A scene is free play: anyone may move it on, so it waits on nobody in particular
        (a character still being made is waited on by its own panel)."""
        return free_play(adventure_choices(scene(table, state)))

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        """Show the adventure.

        Raises:
            NotAllowedNow: the world is not built yet.
        """
        campaign_of(table).require_world()
        return Outcome(state=AdventurePanelState().to_dict())

    def act(
        self,
        table: Table,
        state: AdventurePanelState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        panel = current(self, state)
        campaign = campaign_of(table)
        world = campaign.require_world()
        if actor not in world.players:
            raise NotYourTurn("You're not a character in this world.")
        if campaign.phase is Phase.DOWNTIME:
            raise NotAllowedNow("The party is in downtime; finish it first.")
        if action == "pick":
            return _kept(self._pick(world, panel, argument))
        if action == "cancel":
            return _kept(replace(panel, picking=None))
        if action == "travel":
            if argument.strip() == "back":
                return _kept(replace(panel, travel=False))
            self._require_characters(table, world)
            if not w.reachable_cards(world):
                raise NotAllowedNow("No place is within reach from here.")
            return _kept(AdventurePanelState(travel=True))
        if action == "go":
            self._require_characters(table, world)
            if not panel.travel:
                raise NotAllowedNow("Tap ➡️ Travel first to see the places within reach.")
            reachable = w.reachable_cards(world)
            world, events = w.travel_to(world, reachable[_index(argument, len(reachable))])
        elif action == "home":
            world, events = w.return_home(world)
        elif action == "split":
            picked = panel.picking or frozenset()
            world, events = w.split_party(world, picked, frozenset(world.players) - picked)
        elif action == "switch":
            world, events = w.switch_focus(world)
        elif action == "regroup":
            world, events = w.regroup(world)
        elif action in ("tick", "untick"):
            if world.current is None:
                raise NotAllowedNow("The party is at home: there's no clock here.")
            move = w.tick_collateral if action == "tick" else w.untick_collateral
            world, events = move(world, world.current, actor)
        else:
            raise Malformed("That's not an adventure button.")
        campaign = campaign.with_world(world)
        return replace(
            _kept(AdventurePanelState()),
            events=(*events, *briefings(world, events)),
            campaign_state=campaign.to_dict(),
        )

    @staticmethod
    def _pick(world: World, panel: AdventurePanelState, argument: str) -> AdventurePanelState:
        picked = set(panel.picking or ())
        if argument:
            picked ^= {world.players[_index(argument, len(world.players))]}
        return replace(panel, picking=frozenset(picked))

    @staticmethod
    def _require_characters(table: Table, world: World) -> None:
        made = characters(table)
        missing = [table.seats[p].name for p in world.players if p in table.seats and p not in made]
        if missing:
            raise NotAllowedNow(
                "Everyone needs a character before setting out. "
                "Still making one: {names} (/character).",
                names=", ".join(missing),
            )


__all__ = [
    "ADVENTURE_PANEL",
    "AdventurePanel",
    "AdventurePanelState",
    "AdventureVerb",
    "PaintThePicture",
    "Scene",
    "SceneBriefing",
    "adventure_choices",
    "briefings",
    "public_map",
    "scene",
]


def public_map(table: Table) -> w.MapView:
    """The map as the whole group may see it (backs of face-down cards only).

    Raises:
        NotAllowedNow: the map is not dealt yet.
    """
    world = campaign_of(table).current_world()
    if world is None or world.grid is None:
        raise NotAllowedNow("The map hasn't been dealt yet.")
    return w.visible_map(world, None)
