"""The group's worldbuilding panel ("nsu.setup"): one message through every step.

Actions (button names; ``text`` is a reply to the panel message):

========== ============================= ==========================================
action     argument                      what it does
========== ============================= ==========================================
text       the reply                     tone notes, a ban, a settlement statement
                                         ("^2 ..." builds on statement 2),
                                         a scope answer, a resource, or the abundance
tool       index in :data:`TOOLS`        include or leave out a safety tool
agree      -                             agree with the tone written down
pass       -                             pass on a ban or a settlement turn
first      index in the turn order       who speaks first about the settlement
full       -                             the settlement card is full
skipq      -                             move to the next scope question
scope      -                             the scope is done
abundance  index of a resource           which resource is in abundance
deal       number of columns             deal the map face down
roll       -                             roll Danger and Reward for every card
========== ============================= ==========================================

Invariants: the panel state is public (it holds no card face); the group sees
the world through :func:`board`, which never reads a card's face. Who may act
is decided by :mod:`core.rules.nsu.setup`; a refused action changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from core.rules.catalogue import N_
from core.rules.choice import Choice
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu import setup as wb
from core.rules.nsu.campaign import (
    SETUP_PANEL_KIND,
    NsuCampaign,
    begin_worldbuilding,
    campaign_of,
)
from core.rules.nsu.setup import (
    LOCATIONS_PER_PLAYER,
    MAX_MAP_COLUMNS,
    ActionKind,
    SetupAction,
    SetupState,
    SetupStep,
)
from core.rules.nsu.world import (
    RESOURCE_COUNT,
    DangerLevel,
    ResourceLevel,
    RewardLevel,
    SafetyTool,
    ScopeQuestion,
    World,
)
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Role, Table, current
from core.rules.waiting import NOBODY, Waiting, waiting

SETUP_PANEL = SETUP_PANEL_KIND
TOOLS: tuple[SafetyTool, ...] = (SafetyTool.X_CARD, SafetyTool.LINES_AND_VEILS, SafetyTool.KNOCKS)
QUESTIONS: tuple[ScopeQuestion, ...] = tuple(ScopeQuestion)
BUILDS_ON = re.compile(r"^\^(\d{1,2})\s+(.+)$", re.DOTALL)  # "^2 the bell is cracked"


@dataclass(frozen=True)
class WorldbuildingBegan:
    players: tuple[int, ...]


# -- what the group sees ---------------------------------------------------------------


@dataclass(frozen=True)
class BoardCard:
    """A card as the group sees it during worldbuilding: its back only."""

    id: str
    danger: DangerLevel | None
    reward: RewardLevel | None


@dataclass(frozen=True)
class Board:
    """Everything public about the worldbuilding, for the group panel."""

    step: SetupStep
    players: tuple[int, ...]
    allowed: dict[int, frozenset[ActionKind]]
    tone: str
    tone_proposed: bool
    tools: tuple[SafetyTool, ...]  # in the proposal (or the toggles before one)
    agreed: frozenset[int]
    done: frozenset[int]
    bans: tuple[tuple[int, str], ...]
    settlement: tuple[tuple[int, str, int | None], ...]  # author, text, builds on
    speaker: int | None
    passes_in_row: int
    question: ScopeQuestion | None
    scope: tuple[tuple[ScopeQuestion | None, str], ...]
    resources: tuple[tuple[str, ResourceLevel], ...]
    written: dict[int, int]  # cards written per player
    map_rows: tuple[tuple[BoardCard | None, ...], ...]
    column_choices: tuple[int, ...]
    everyone_named: bool = False  # the round of one resource each is over

    def waiting_for(self) -> tuple[int, ...]:
        """Players who still have something to do at this step (in seat order)."""
        return tuple(p for p in self.players if p in self.allowed)

    def choices(self) -> tuple[Choice[ActionKind], ...]:
        """The legal choices at this step, one per kind of action, with who may take it."""
        found = [Choice(kind, by=frozenset(self.open_to(kind))) for kind in ActionKind]
        return tuple(c for c in found if c.by)

    def open_to(self, kind: ActionKind) -> tuple[int, ...]:
        """Players who may take ``kind`` now (in seat order)."""
        return tuple(p for p in self.players if kind in self.allowed.get(p, frozenset()))

    def button_choices(self) -> tuple[Choice[BoardVerb], ...]:
        """The choices of this step that the panel offers as buttons, each with who may
        take it (the rest are taken by a reply): the safety tools and agreeing during
        the tone talk, passing, who speaks first, a full card, the scope's questions, a
        resource's abundance, writing the locations, the map's width, the last roll."""
        everyone = frozenset(self.players)

        def by(kind: ActionKind) -> frozenset[int]:
            return frozenset(self.open_to(kind))

        step = self.step
        found: list[Choice[BoardVerb]] = []
        if step is SetupStep.TONE:
            # A written-down tone keeps at least one safety tool: its last can't go.
            last = self.tools if self.tone_proposed and len(self.tools) == 1 else ()
            found += [
                Choice(BoardVerb.TOOL, str(i), by=everyone, name=t.value, selected=t in self.tools)
                for i, t in enumerate(TOOLS)
                if t not in last
            ]
            if self.tone_proposed:
                found.append(Choice(BoardVerb.AGREE, by=by(ActionKind.AGREE_TONE)))
        elif step is SetupStep.BANS:
            found.append(Choice(BoardVerb.PASS, by=by(ActionKind.PASS_BAN)))
        elif step is SetupStep.SETTLEMENT:
            first = by(ActionKind.CHOOSE_FIRST_SPEAKER)
            found += [
                Choice(BoardVerb.FIRST, str(i), by=first, count=p)
                for i, p in enumerate(self.players)
            ]
            found.append(Choice(BoardVerb.PASS, by=by(ActionKind.PASS_STATEMENT)))
            found.append(Choice(BoardVerb.FULL, by=by(ActionKind.DECLARE_CARD_FULL)))
        elif step is SetupStep.SCOPE:
            found.append(Choice(BoardVerb.NEXT_QUESTION, by=everyone))
            found.append(Choice(BoardVerb.SCOPE_DONE, by=by(ActionKind.FINISH_SCOPE)))
        elif step is SetupStep.ABUNDANCE:
            pick = by(ActionKind.CHOOSE_ABUNDANCE)
            found += [
                Choice(BoardVerb.ABUNDANCE, str(i), by=pick, name=name)
                for i, (name, _level) in enumerate(self.resources)
            ]
        elif step is SetupStep.LOCATIONS:
            found.append(Choice(BoardVerb.WRITE_LOCATIONS, by=everyone))
        elif step is SetupStep.MAP:
            deal = by(ActionKind.DEAL_MAP)
            found += [Choice(BoardVerb.DEAL, str(w), by=deal, count=w) for w in self.column_choices]
        elif step is SetupStep.DANGER_AND_REWARD:
            found.append(Choice(BoardVerb.ROLL, by=by(ActionKind.ROLL_DANGER_AND_REWARD)))
        return tuple(c for c in found if c.by)


class BoardVerb(Enum):
    """The worldbuilding panel's buttons (``WRITE_LOCATIONS`` opens one's own cards panel)."""

    TOOL = "tool"
    AGREE = "agree"
    PASS = "pass"
    FIRST = "first"
    FULL = "full"
    NEXT_QUESTION = "skipq"
    SCOPE_DONE = "scope"
    ABUNDANCE = "abundance"
    WRITE_LOCATIONS = "write"
    DEAL = "deal"
    ROLL = "roll"


def _map_rows(world: World) -> tuple[tuple[BoardCard | None, ...], ...]:
    """The map's cards as the board shows them (face down: danger and reward only)."""
    if world.grid is None:
        return ()
    by_id = {c.id: c for c in world.cards}
    return tuple(
        tuple(
            None if cid is None else BoardCard(cid, by_id[cid].danger, by_id[cid].reward)
            for cid in row
        )
        for row in world.grid.rows
    )


def board(table: Table, state: SetupPanelState | Json) -> Board | None:
    """The public board, or None once the world is built."""
    panel = state if isinstance(state, SetupPanelState) else SetupPanelState.from_dict(state)
    campaign = campaign_of(table)
    setup = campaign.setup
    if setup is None:
        return None
    world = setup.world
    written = {p: sum(1 for c in world.cards if c.author_id == p) for p in setup.players}
    rows = _map_rows(world)
    tools = (
        tuple(t for t in TOOLS if t in world.safety_tools) if setup.tone_proposed else panel.tools
    )
    return Board(
        step=setup.step,
        players=setup.players,
        allowed=wb.allowed_actions(setup),
        tone=world.tone,
        tone_proposed=setup.tone_proposed,
        tools=tools,
        agreed=setup.agreed,
        done=setup.done,
        bans=tuple((b.author_id, b.text) for b in world.bans),
        settlement=tuple((s.author_id, s.text, s.builds_on) for s in world.settlement),
        speaker=setup.speaker,
        passes_in_row=setup.passes_in_row,
        question=_question_at(panel.question),
        scope=tuple((a.question, a.text) for a in world.scope),
        resources=tuple((r.name, r.level) for r in world.resources),
        written=written,
        map_rows=rows,
        column_choices=column_choices(len(world.cards)),
        everyone_named=wb.everyone_named_a_resource(setup),
    )


def dealing_choices(setup: SetupState) -> tuple[Choice[BoardVerb], ...]:
    """The last worldbuilding steps as the map page offers them: deal the map at a
    width, then roll Danger and Reward, each by whom the rules allow."""
    allowed = wb.allowed_actions(setup)

    def by(kind: ActionKind) -> frozenset[int]:
        return frozenset(p for p, kinds in allowed.items() if kind in kinds)

    if setup.step is SetupStep.MAP and by(ActionKind.DEAL_MAP):
        return tuple(
            Choice(BoardVerb.DEAL, str(w), by=by(ActionKind.DEAL_MAP), count=w)
            for w in column_choices(len(setup.world.cards))
        )
    if setup.step is SetupStep.DANGER_AND_REWARD and by(ActionKind.ROLL_DANGER_AND_REWARD):
        return (Choice(BoardVerb.ROLL, by=by(ActionKind.ROLL_DANGER_AND_REWARD)),)
    return ()


def column_choices(cards: int) -> tuple[int, ...]:
    """Map widths worth offering for ``cards`` cards: from a line to a near square."""
    if cards < 1:
        return ()
    widths = {w for w in range(2, min(cards, MAX_MAP_COLUMNS) + 1) if w * w <= cards * 3}
    return tuple(sorted(widths or {cards}))[:4]


# -- the panel ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SetupPanelState:
    """The worldbuilding panel's own state: the safety tools proposed with the tone,
    and the scope question being answered."""

    tools: tuple[SafetyTool, ...] = TOOLS
    question: int = 0

    @classmethod
    def from_dict(cls, state: Json) -> SetupPanelState:
        """Raises: Malformed: the stored state is damaged."""
        try:
            return cls(_tools(state), int(state.get("q", 0)))
        except (TypeError, ValueError, AttributeError):
            raise Malformed("That button is out of date. Use the latest message.") from None

    def to_dict(self) -> dict[str, Any]:
        return {"v": 1, "tools": [t.value for t in self.tools], "q": self.question}


def _kept(panel: SetupPanelState, **more: Any) -> Outcome:
    """The panel's new state, as stored and as read (``more``: the rest of the outcome)."""
    return Outcome(state=panel.to_dict(), model=panel, **more)


def _tools(state: Json) -> tuple[SafetyTool, ...]:
    names = state.get("tools", [t.value for t in TOOLS])
    return tuple(t for t in TOOLS if t.value in names)


def _question_at(index: int) -> ScopeQuestion | None:
    return QUESTIONS[index] if 0 <= index < len(QUESTIONS) else None


def _index(argument: str, size: int, refusal: str) -> int:
    """The button's index, or ``refusal`` (a message id) when it names none."""
    try:
        index = int(argument)
    except ValueError:
        raise Malformed(refusal) from None
    if not 0 <= index < size:
        raise Malformed(refusal)
    return index


def text_action(setup: SetupState, text: str, panel: SetupPanelState) -> SetupAction:
    """What a reply to the panel means at this step.

    Raises:
        NotAllowedNow: this step takes no text.
    """
    step = setup.step
    if step is SetupStep.TONE:
        return wb.ProposeTone(text, frozenset(panel.tools))
    if step is SetupStep.BANS:
        return wb.BanElement(text)
    if step is SetupStep.SETTLEMENT:
        found = BUILDS_ON.match(text)
        if found is not None:
            return wb.MakeStatement(found.group(2), int(found.group(1)) - 1)
        return wb.MakeStatement(text)
    if step is SetupStep.SCOPE:
        return wb.AnswerScope(_question_at(panel.question), text)
    if step is SetupStep.RESOURCES:
        return wb.NameResource(text)
    if step is SetupStep.ABUNDANCE:
        return wb.ChooseAbundance(text)
    if step is SetupStep.LOCATIONS:
        raise NotAllowedNow("Locations are written in private: press “Write my locations”.")
    raise NotAllowedNow("This step is done with the buttons.")


def button_action(setup: SetupState, action: str, argument: str) -> SetupAction:
    """The worldbuilding action behind a button.

    Raises:
        Malformed: no such button.
    """
    if action == "agree":
        return wb.AgreeTone()
    if action == "pass":
        if setup.step is SetupStep.BANS:
            return wb.PassBan()
        return wb.PassStatement()
    if action == "first":
        return wb.ChooseFirstSpeaker(
            setup.players[
                _index(argument, len(setup.players), N_("Choose a player with the buttons."))
            ]
        )
    if action == "full":
        return wb.DeclareCardFull()
    if action == "scope":
        return wb.FinishScope()
    if action == "abundance":
        resources = setup.world.resources
        return wb.ChooseAbundance(
            resources[
                _index(argument, len(resources), N_("Choose a resource with the buttons."))
            ].name
        )
    if action == "deal":
        return wb.DealMap(
            _index(argument, MAX_MAP_COLUMNS + 1, N_("Choose a map width with the buttons."))
        )
    if action == "roll":
        return wb.RollDangerAndReward()
    raise Malformed("That's not a worldbuilding button.")


def apply_setup(
    campaign: NsuCampaign, actor: int, action: SetupAction, rng: Rng | None
) -> tuple[NsuCampaign, tuple[object, ...]]:
    """Apply one worldbuilding action to the campaign (the world is stored once done)."""
    setup, events = wb.apply(campaign.require_setup(), actor, action, rng)
    return campaign.with_setup(setup), tuple(events)


_ANY_TIME = frozenset({ActionKind.DECLARE_CARD_FULL})


class SetupPanel:
    """The rules of the group's worldbuilding panel."""

    kind = SETUP_PANEL

    def read(self, state: Json) -> SetupPanelState:
        return SetupPanelState.from_dict(state)

    def waiting(self, table: Table, state: SetupPanelState | Json) -> Waiting:
        """Worldbuilding waits on whoever the step needs (a turn, an answer, a vote); calling
        the settlement's card full is open to anyone and holds up nobody (ruling 21)."""
        b = board(table, state)
        return NOBODY if b is None else waiting(b.choices(), optional=_ANY_TIME)

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        """Begin worldbuilding (host only) or show the worldbuilding in progress.

        Raises:
            NotYourTurn: someone other than the host tries to begin.
            NotAllowedNow: too few players, or the world is already built.
        """
        campaign = campaign_of(table)
        fresh: dict[str, Any] = {"v": 1, "tools": [t.value for t in TOOLS], "q": 0}
        if campaign.world is not None:
            raise NotAllowedNow("The world is built. Head out with /adventure.")
        if campaign.setup is not None:
            return Outcome(state=fresh)
        if actor not in table.with_role(Role.HOST):
            raise NotYourTurn("The host begins worldbuilding, once everyone has joined.")
        campaign = begin_worldbuilding(campaign, tuple(table.seats))
        events = (WorldbuildingBegan(campaign.require_setup().players),)
        return Outcome(state=fresh, events=events, campaign_state=campaign.to_dict())

    def act(
        self,
        table: Table,
        state: SetupPanelState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        panel = current(self, state)
        campaign = campaign_of(table)
        setup = campaign.require_setup()
        if action == "tool":
            panel = self._toggle(setup, panel, actor, argument)
            if not setup.tone_proposed:
                return _kept(panel)
            # Changing the tools of a written-down tone is a new proposal to agree on.
            move: SetupAction = wb.ProposeTone(setup.world.tone, frozenset(panel.tools))
            campaign, events = apply_setup(campaign, actor, move, rng)
            return _kept(panel, events=events, campaign_state=campaign.to_dict())
        if action == "skipq":
            return _kept(self._next_question(setup, panel, actor))
        if action == "text":
            move = text_action(setup, argument, panel)
        else:
            move = button_action(setup, action, argument)
        campaign, events = apply_setup(campaign, actor, move, rng)
        if isinstance(move, wb.AnswerScope):
            panel = replace(panel, question=min(panel.question + 1, len(QUESTIONS)))
        return _kept(
            panel,
            events=events,
            closed=campaign.world is not None,
            campaign_state=campaign.to_dict(),
        )

    @staticmethod
    def _toggle(
        setup: SetupState, panel: SetupPanelState, actor: int, argument: str
    ) -> SetupPanelState:
        if setup.step is not SetupStep.TONE:
            raise NotAllowedNow("Safety tools are chosen during the tone talk.")
        if actor not in setup.players:
            raise NotYourTurn("You're not building this world.")
        tool = TOOLS[_index(argument, len(TOOLS), N_("Choose a safety tool with the buttons."))]
        chosen = setup.world.safety_tools if setup.tone_proposed else set(panel.tools)
        tools = set(chosen) ^ {tool}
        return replace(panel, tools=tuple(t for t in TOOLS if t in tools))

    @staticmethod
    def _next_question(setup: SetupState, panel: SetupPanelState, actor: int) -> SetupPanelState:
        if setup.step is not SetupStep.SCOPE:
            raise NotAllowedNow("That's for the scope questions.")
        if actor not in setup.players:
            raise NotYourTurn("You're not building this world.")
        return replace(panel, question=min(panel.question + 1, len(QUESTIONS)))


__all__ = [
    "LOCATIONS_PER_PLAYER",
    "QUESTIONS",
    "RESOURCE_COUNT",
    "SETUP_PANEL",
    "TOOLS",
    "Board",
    "BoardCard",
    "BoardVerb",
    "SetupPanel",
    "SetupPanelState",
    "WorldbuildingBegan",
    "apply_setup",
    "board",
    "button_action",
    "column_choices",
    "dealing_choices",
    "text_action",
]
