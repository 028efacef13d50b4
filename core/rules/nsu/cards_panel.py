"""A player's private panel for authoring their two locations ("nsu.cards").

The panel lives in the author's private chat. Each reply fills the next field
of the card (title, description, what could be harmed, danger, treasure); once
all five are written the card goes into the world face down, and the panel
starts on the next one. Until the map is dealt the author may rewrite a saved
card: "edit" walks the five fields again, each filled with what is saved, and a
reply replaces a field or "keep" leaves it as it is. Opening argument: the id of
the group's worldbuilding panel (so the bot can refresh it), or nothing.

Invariants: only the author acts on their panel; the panel state and the
events hold nothing the author may not see, and events never carry a face.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from core.rules.catalogue import N_
from core.rules.choice import Choice
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu import setup as wb
from core.rules.nsu.campaign import campaign_of
from core.rules.nsu.setup import LOCATIONS_PER_PLAYER, SetupStep, may_revise, my_locations
from core.rules.nsu.setup_panel import apply_setup
from core.rules.nsu.world import LocationCard, clean_text
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Table, current
from core.rules.waiting import Waiting, waiting

CARDS_PANEL = "nsu.cards"


@dataclass(frozen=True)
class CardField:
    key: str
    label: str
    prompt: str
    limit: int


FIELDS: tuple[CardField, ...] = (
    CardField("title", N_("Title"), N_("Name the place."), 80),
    CardField(
        "description", N_("Description"), N_("What is here? A few lines to picture it."), 1000
    ),
    CardField(
        "collateral_target",
        N_("What could be harmed"),
        N_("What here could suffer if the explorers meddle? (the Collateral Clock)"),
        200,
    ),
    CardField("danger_type", N_("Danger"), N_("What kind of danger lurks here?"), 200),
    CardField(
        "treasure_type", N_("Treasure"), N_("What treasure or knowledge could be found?"), 200
    ),
)
# Why a player can't write locations yet (or any more): the step the table is at.
_BUSY_WITH = {
    SetupStep.TONE: N_("Locations come later: the table is busy with the tone talk."),
    SetupStep.BANS: N_("Locations come later: the table is busy with banning story elements."),
    SetupStep.SETTLEMENT: N_(
        "Locations come later: the table is busy with drawing the settlement."
    ),
    SetupStep.SCOPE: N_("Locations come later: the table is busy with the scope of adventures."),
    SetupStep.RESOURCES: N_("Locations come later: the table is busy with naming resources."),
    SetupStep.ABUNDANCE: N_("Locations come later: the table is busy with choosing the abundance."),
    SetupStep.LOCATIONS: N_("Locations come later: the table is busy with writing locations."),
    SetupStep.MAP: N_("Locations come later: the table is busy with dealing the map."),
    SetupStep.DANGER_AND_REWARD: N_(
        "Locations come later: the table is busy with rolling Danger and Reward."
    ),
    SetupStep.DONE: N_("Locations come later: the table is busy with nothing: the world is built."),
}


DEALT_STEPS = frozenset({SetupStep.DANGER_AND_REWARD, SetupStep.DONE})
"""The worldbuilding steps at which the map is dealt (after them the world is built)."""


@dataclass(frozen=True)
class CardsView:
    """What the author sees on their panel."""

    owner: int
    written: tuple[LocationCard, ...]  # the author's own cards only
    fields: dict[str, str]
    field: CardField | None  # the one the next reply fills; None when done
    step_open: bool  # the table is at the locations step
    editing: LocationCard | None = None  # the saved card being rewritten
    revisable: tuple[LocationCard, ...] = ()  # saved cards the author may rewrite now
    dealt: bool = False  # the table has dealt the map: the cards lie face down on it
    built: bool = False  # and the world is built (Danger and Reward rolled)


@dataclass(frozen=True)
class CardsPanelState:
    """An author's private card panel: the card being written (or revised) field by field.

    Attributes:
        board: the group message of the worldbuilding this panel came from (0: none).
        editing: the card being revised, if any.
    """

    owner: int
    board: int = 0
    field: int = 0
    fields: Mapping[str, str] = dataclasses.field(default_factory=dict)
    editing: str | None = None

    @classmethod
    def from_dict(cls, state: Json) -> CardsPanelState:
        """Raises: Malformed: the stored state is damaged."""
        try:
            editing = state.get("editing")
            return cls(
                owner=int(state["owner"]),
                board=int(state.get("board", 0)),
                field=int(state.get("field", 0)),
                fields={str(k): str(v) for k, v in dict(state.get("fields", {})).items()},
                editing=None if editing is None else str(editing),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise Malformed("That button is out of date. Use the latest message.") from None

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": 1,
            "owner": self.owner,
            "board": self.board,
            "fields": dict(self.fields),
            "field": self.field,
            "editing": self.editing,
        }


def _kept(panel: CardsPanelState) -> Outcome:
    """A step that changes only the panel: its new state, as stored and as read."""
    return Outcome(state=panel.to_dict(), model=panel)


def cards_view(table: Table, state: CardsPanelState | Json) -> CardsView:
    """The author's own panel (only ever rendered in their private chat)."""
    panel = state if isinstance(state, CardsPanelState) else CardsPanelState.from_dict(state)
    owner = panel.owner
    setup = campaign_of(table).setup
    world = campaign_of(table).current_world()
    written: tuple[LocationCard, ...] = ()
    if setup is not None:
        written = my_locations(setup, owner)
    elif world is not None:
        written = tuple(c for c in world.cards if c.author_id == owner)
    index = panel.field
    revisable = tuple(c for c in written if may_revise(setup, owner, c.id))
    editing = next((c for c in revisable if c.id == panel.editing), None)
    done = len(written) >= LOCATIONS_PER_PLAYER and editing is None
    return CardsView(
        owner=owner,
        written=written,
        fields=dict(panel.fields),
        field=None if done or index >= len(FIELDS) else FIELDS[index],
        step_open=setup is not None and setup.step is SetupStep.LOCATIONS,
        editing=editing,
        revisable=revisable,
        dealt=bool(written) and (setup is None or setup.step in DEALT_STEPS),
        built=bool(written) and (setup is None or setup.step is SetupStep.DONE),
    )


class CardsVerb(Enum):
    """What the author may do on their card panel."""

    WRITE = "text"  # reply with the next field
    KEEP = "keep"  # on a rewrite: leave this field as saved
    BACK = "back"
    RESTART = "restart"
    EDIT = "edit"  # rewrite a saved card (argument: its id)


def cards_choices(view: CardsView) -> tuple[Choice[CardsVerb], ...]:
    """The author's choices now: write the next field (``name``: its label), keep it as
    saved on a rewrite, go back a field or start the card over once something is
    written; and, with nothing under way, rewrite a saved card (``count``: its number,
    ``name``: its title) while the table has not dealt the map."""
    me = frozenset({view.owner})
    found: list[Choice[CardsVerb]] = []
    if view.field is not None:
        found.append(Choice(CardsVerb.WRITE, by=me, name=view.field.label, by_reply=True))
        if view.editing is not None:
            found.append(Choice(CardsVerb.KEEP, by=me))
        if view.fields:
            found += [Choice(CardsVerb.BACK, by=me), Choice(CardsVerb.RESTART, by=me)]
    if view.editing is None and not view.fields:
        found += [
            Choice(
                CardsVerb.EDIT, card.id, by=me, name=card.title, count=view.written.index(card) + 1
            )
            for card in view.revisable
        ]
    return tuple(found)


# a saved card may be rewritten, an answer kept as it is: nobody has to
_OPTIONAL = frozenset({CardsVerb.EDIT, CardsVerb.KEEP})


class CardsPanel:
    """The rules of the private card-writing panel."""

    kind = CARDS_PANEL

    def read(self, state: Json) -> CardsPanelState:
        return CardsPanelState.from_dict(state)

    def waiting(self, table: Table, state: CardsPanelState | Json) -> Waiting:
        """Writing locations waits on the writer; a rewrite or keeping an answer is optional."""
        choices = cards_choices(cards_view(table, state))
        return waiting(c for c in choices if c.verb not in _OPTIONAL)

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        """Start writing locations.

        Raises:
            NotAllowedNow: not the locations step, not in the world, or both cards written.
        """
        setup = campaign_of(table).require_setup()
        if actor not in setup.players:
            raise NotAllowedNow("You're not building this world.")
        if not may_revise(setup, actor):  # with a saved card, it may be rewritten
            if setup.step is not SetupStep.LOCATIONS:
                raise NotAllowedNow(_BUSY_WITH[setup.step])
            if len(my_locations(setup, actor)) >= LOCATIONS_PER_PLAYER:
                raise NotAllowedNow("You've written both of your locations.")
        board = int(argument) if argument.isdigit() else 0
        return Outcome(state={"v": 1, "owner": actor, "board": board, "fields": {}, "field": 0})

    def act(
        self,
        table: Table,
        state: CardsPanelState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        panel = current(self, state)
        if actor != panel.owner:
            raise NotYourTurn("Only the author writes on this card.")
        index = panel.field
        editing = panel.editing
        if action == "back":
            return _kept(replace(panel, field=max(0, index - 1)))
        if action == "restart":  # on a rewrite: leave the saved card as it was
            return _kept(replace(panel, fields={}, field=0, editing=None))
        if action == "edit":
            card = self._revisable(table, actor, argument)
            saved = {f.key: str(getattr(card, f.key)) for f in FIELDS}
            return _kept(replace(panel, fields=saved, field=0, editing=card.id))
        if action not in ("text", "keep"):
            raise Malformed("That's not a card-writing button.")
        if index >= len(FIELDS):
            raise NotAllowedNow("This card is complete.")
        spec = FIELDS[index]
        fields: dict[str, Any] = dict(panel.fields)
        if action == "keep":
            if not editing:
                raise NotAllowedNow("Only a saved card has an answer to keep: reply with yours.")
        else:
            fields[spec.key] = clean_text(argument, spec.prompt, spec.limit)
        if index + 1 < len(FIELDS):
            return _kept(replace(panel, fields=fields, field=index + 1))
        return _written(table, panel, actor, fields, rng)

    @staticmethod
    def _revisable(table: Table, actor: int, card_id: str) -> LocationCard:
        """The author's saved card ``card_id``, if they may still rewrite it.

        Raises:
            NotAllowedNow: the map is dealt, or it is not their card.
        """
        setup = campaign_of(table).setup
        if not may_revise(setup, actor, card_id) or setup is None:
            raise NotAllowedNow("The map is dealt: the location cards can no longer be rewritten.")
        return next(c for c in setup.world.cards if c.id == card_id)


__all__ = [
    "CARDS_PANEL",
    "FIELDS",
    "CardField",
    "CardsPanel",
    "CardsPanelState",
    "CardsVerb",
    "CardsView",
    "cards_choices",
    "cards_view",
]


def _written(
    table: Table, panel: CardsPanelState, actor: int, fields: dict[str, Any], rng: Rng
) -> Outcome:
    """The last answer given: the card is written (or rewritten) on the world."""
    editing = panel.editing
    values = {f.key: str(fields[f.key]) for f in FIELDS}
    move: wb.SetupAction = (
        wb.ReviseLocation(card_id=str(editing), **values)
        if editing
        else wb.AuthorLocation(**values)
    )
    campaign, events = apply_setup(campaign_of(table), actor, move, rng)
    return replace(
        _kept(replace(panel, fields={}, field=0, editing=None)),
        events=events,
        closed=not may_revise(campaign.setup, actor),
        campaign_state=campaign.to_dict(),
    )
