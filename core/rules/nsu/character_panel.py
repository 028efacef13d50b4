"""A player's private character-creation panel ("nsu.character").

One step at a time, in the rulebook's order: name, pronouns and look, three
moods, the aspects, three sentiments, three skills, and the rumours the
character heard about the two locations the player wrote. A reply answers the
step on screen; steps may be skipped and revisited; Finish turns the draft
into a character once nothing required is missing.

Actions: ``text`` (a reply), ``aspects`` (index into :data:`ASPECT_CHOICES`),
``goto`` (index into :data:`STEPS`), ``skip``, ``finish``. Opening argument:
the id of the group panel to redraw when the character is finished, or nothing.

Invariants: only the owner acts; the draft lives in the owner's sheet
(``{"draft": ...}``) and becomes ``{"character": ...}`` on Finish; the rumours
step shows the owner's own cards only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from itertools import permutations
from typing import Any

from core.rules.choice import Choice
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.nsu.campaign import (
    campaign_of,
    character_of,
    character_sheet,
    draft_of,
    draft_sheet,
    join_world,
)
from core.rules.nsu.details import clean_label
from core.rules.nsu.sheet import (
    Aspect,
    CharacterDraft,
    CreationStep,
    Die,
    assign_aspects,
    choose_name,
    consider_rumours,
    describe,
    finish_creation,
    invent_sentiments,
    missing_steps,
    pick_moods,
    write_skills,
)
from core.rules.nsu.world import LocationCard
from core.rules.rng import Rng
from core.rules.table import Json, Outcome, Table, current
from core.rules.waiting import Waiting, waiting

CHARACTER_PANEL = "nsu.character"
STEPS: tuple[CreationStep, ...] = tuple(CreationStep)
ASPECT_CHOICES: tuple[tuple[Die, Die, Die], ...] = tuple(
    (body, mind, heart) for body, mind, heart in permutations((Die.D8, Die.D6, Die.D4))
)
BLANK = frozenset({"-", "—", "blank", "later", "none"})


@dataclass(frozen=True)
class CharacterFinished:
    player_id: int
    name: str


def split_parts(text: str, count: int) -> tuple[str, ...]:
    """Read ``count`` answers from one reply: one per line, or separated by commas.

    Raises:
        Malformed: not exactly ``count`` answers.
    """
    lines = [p.strip() for p in text.splitlines() if p.strip()]
    parts = lines if len(lines) > 1 else [p.strip() for p in re.split(r"[,;]", text)]
    if len(parts) != count:
        raise Malformed("Send {count} answers, one per line or separated by commas.", count=count)
    return tuple(parts)


def own_cards(table: Table, player_id: int) -> tuple[LocationCard, ...]:
    """The locations this player wrote (theirs to see)."""
    world = campaign_of(table).current_world()
    if world is None:
        return ()
    return tuple(c for c in world.cards if c.author_id == player_id)


def _sentiments(draft: CharacterDraft, lines: list[Any]) -> CharacterDraft:
    """Three sentiments, a line left blank as None."""
    if len(lines) != 3:
        raise Malformed("Write three sentiments (a line may stay blank).")
    first, second, third = (None if s is None else str(s) for s in lines)
    return invent_sentiments(draft, first, second, third)


def apply_step(
    draft: CharacterDraft, step: CreationStep, payload: Json, cards: int = 2
) -> CharacterDraft:
    """One creation step from plain values (the bot's replies and the Mini App's forms).

    Payloads: name {name}; pronouns_and_look {pronouns, look}; moods {d8, d6, d4};
    aspects {body, mind, heart} as "d8"...; sentiments {sentiments: [3 x text or null]};
    skills {skills: [3 x text]}; rumours {rumours: [text per own card]}.

    Raises:
        Malformed: missing or bad values.
    """
    try:
        if step is CreationStep.NAME:
            return choose_name(draft, str(payload["name"]))
        if step is CreationStep.PRONOUNS_AND_LOOK:
            return describe(draft, str(payload["pronouns"]), str(payload["look"]))
        if step is CreationStep.MOODS:
            return pick_moods(draft, str(payload["d8"]), str(payload["d6"]), str(payload["d4"]))
        if step is CreationStep.ASPECTS:
            return assign_aspects(
                draft,
                Die.parse(str(payload["body"])),
                Die.parse(str(payload["mind"])),
                Die.parse(str(payload["heart"])),
            )
        if step is CreationStep.SENTIMENTS:
            return _sentiments(draft, list(payload["sentiments"]))
        if step is CreationStep.SKILLS:
            skills = [str(s) for s in payload["skills"]]
            if len(skills) != 3:
                raise Malformed("Write three skills.")
            return write_skills(draft, skills[0], skills[1], skills[2])
        rumours = [str(r) for r in payload["rumours"]]
        if len(rumours) > cards:
            raise Malformed("One rumour for each location you wrote.")
        return consider_rumours(draft, *rumours)
    except (KeyError, TypeError) as exc:
        raise Malformed("Fill in every field of this step.") from exc


def _text_payload(
    step: CreationStep, text: str, panel: CharacterPanelState
) -> dict[str, Any] | None:
    """A reply as a step payload, or None when the step needs another reply first."""
    if step is CreationStep.NAME:
        return {"name": text}
    if step is CreationStep.PRONOUNS_AND_LOOK:
        if panel.pronouns is None:
            return None
        return {"pronouns": panel.pronouns, "look": text}
    if step is CreationStep.MOODS:
        d8, d6, d4 = split_parts(text, 3)
        return {"d8": d8, "d6": d6, "d4": d4}
    if step is CreationStep.SENTIMENTS:
        parts = split_parts(text, 3)
        return {"sentiments": [None if p.casefold() in BLANK else p for p in parts]}
    if step is CreationStep.SKILLS:
        return {"skills": list(split_parts(text, 3))}
    if step is CreationStep.ASPECTS:
        raise NotAllowedNow("Choose the aspects with the buttons.")
    return {"rumours": [*panel.rumours, text]}


@dataclass(frozen=True)
class CreationView:
    """What the owner sees on their creation panel."""

    owner: int
    step: CreationStep | None  # None: the review
    draft: CharacterDraft
    missing: tuple[CreationStep, ...]
    cards: tuple[LocationCard, ...]  # the owner's own cards, for rumours
    rumour_for: LocationCard | None  # the card the next rumour is about
    waiting_pronouns: bool
    pronouns: str | None = None  # the pronouns given, on the draft or waiting for the look


@dataclass(frozen=True)
class CharacterPanelState:
    """A player's private character-creation panel.

    Attributes:
        board: the group message this panel came from (0: none).
        step: the index of the step being answered in :data:`STEPS`.
        pronouns: the pronouns given, waiting for the look that goes with them.
        rumours: the rumours heard so far, one per own card.
    """

    owner: int
    board: int = 0
    step: int = 0
    pronouns: str | None = None
    rumours: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, state: Json) -> CharacterPanelState:
        """Raises: Malformed: the stored state is damaged."""
        try:
            pronouns = state.get("pronouns")
            return cls(
                owner=int(state["owner"]),
                board=int(state.get("board", 0)),
                step=int(state.get("step", 0)),
                pronouns=None if pronouns is None else str(pronouns),
                rumours=tuple(str(r) for r in state.get("rumours", [])),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise Malformed("That button is out of date. Use the latest message.") from None

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": 1,
            "owner": self.owner,
            "board": self.board,
            "step": self.step,
            "pronouns": self.pronouns,
            "rumours": list(self.rumours),
        }


def _kept(panel: CharacterPanelState, **more: Any) -> Outcome:
    """The panel's new state, as stored and as read (``more``: the rest of the outcome)."""
    return Outcome(state=panel.to_dict(), model=panel, **more)


def creation_view(table: Table, state: CharacterPanelState | Json) -> CreationView:
    panel = (
        state if isinstance(state, CharacterPanelState) else CharacterPanelState.from_dict(state)
    )
    owner = panel.owner
    draft = draft_of(table.seat(owner)) or CharacterDraft()
    index = panel.step
    step = STEPS[index] if 0 <= index < len(STEPS) else None
    cards = own_cards(table, owner)
    heard = len(panel.rumours)
    return CreationView(
        owner=owner,
        step=step,
        draft=draft,
        missing=missing_steps(draft),
        cards=cards,
        rumour_for=cards[heard] if heard < len(cards) else None,
        waiting_pronouns=panel.pronouns is not None,
        pronouns=panel.pronouns if panel.pronouns is not None else draft.pronouns,
    )


class CharacterPanel:
    """The rules of the private character-creation panel."""

    kind = CHARACTER_PANEL

    def read(self, state: Json) -> CharacterPanelState:
        return CharacterPanelState.from_dict(state)

    def waiting(self, table: Table, state: CharacterPanelState | Json) -> Waiting:
        """Making a character waits on its player."""
        return waiting(creation_choices(creation_view(table, state)))

    def open(self, table: Table, actor: int, argument: str, rng: Rng) -> Outcome:
        """Start (or resume) making a character.

        Raises:
            NotAllowedNow: the character is already finished.
        """
        seat = table.seat(actor)
        if character_of(seat) is not None:
            raise NotAllowedNow("Your character is made. See it with /sheet.")
        draft = draft_of(seat) or CharacterDraft()
        missing = missing_steps(draft)
        step = STEPS.index(missing[0]) if missing else len(STEPS)
        sheets = {} if seat is not None and "draft" in seat.sheet else {actor: draft_sheet(draft)}
        board = int(argument) if argument.isdigit() else 0
        return Outcome(
            state={
                "v": 1,
                "owner": actor,
                "board": board,
                "step": step,
                "pronouns": None,
                "rumours": [],
            },
            sheets=sheets,
        )

    def act(
        self,
        table: Table,
        state: CharacterPanelState | Json,
        actor: int,
        action: str,
        argument: str,
        rng: Rng,
    ) -> Outcome:
        panel = current(self, state)
        owner = panel.owner
        if actor != owner:
            raise NotYourTurn("Only its player fills in this character.")
        seat = table.seat(owner)
        if character_of(seat) is not None:
            raise NotAllowedNow("Your character is already made.")
        draft = draft_of(seat) or CharacterDraft()
        index = panel.step
        step = STEPS[index] if 0 <= index < len(STEPS) else None
        if action == "goto":
            return _kept(replace(panel, step=_choice(argument, len(STEPS) + 1)))
        if action == "skip":
            return _kept(replace(panel, step=min(index + 1, len(STEPS)), pronouns=None))
        if action == "finish":
            return finished(table, owner, draft, panel)
        if step is None:
            raise NotAllowedNow("Everything is filled in: press Finish, or pick a step to redo.")
        cards = own_cards(table, owner)
        if action == "aspects":
            payload: dict[str, Any] | None = _aspects_payload(step, argument)
        elif action == "text":
            _check_rumour_room(step, panel, cards)
            if step is CreationStep.PRONOUNS_AND_LOOK and panel.pronouns is None:
                pronouns = clean_label(argument, "Pronouns")
                return _kept(replace(panel, pronouns=pronouns))
            payload = _text_payload(step, argument, panel)
        else:
            raise Malformed("That's not a character-creation button.")
        assert payload is not None
        return _answered(panel, apply_step(draft, step, payload, len(cards)), payload, cards)


def _answered(
    panel: CharacterPanelState,
    draft: CharacterDraft,
    payload: dict[str, Any],
    cards: Sequence[object],
) -> Outcome:
    """A step answered: the draft kept on the sheet, the panel on to the next step (a
    rumour waits for one per own card)."""
    now = replace(panel, pronouns=None)
    if STEPS[panel.step] is CreationStep.RUMOURS:
        now = replace(now, rumours=tuple(str(r) for r in payload["rumours"]))
        if len(now.rumours) < len(cards):
            return _kept(now, sheets={panel.owner: draft_sheet(draft)})
    now = replace(now, step=_next_step(draft, panel.step))
    return _kept(now, sheets={panel.owner: draft_sheet(draft)})


def finished(
    table: Table, owner: int, draft: CharacterDraft, panel: CharacterPanelState | None
) -> Outcome:
    """Finish the character; in a built world it joins the party.

    Raises:
        NotAllowedNow: a required step is missing.
    """
    character = finish_creation(draft)
    campaign = campaign_of(table)
    joined = join_world(campaign, owner)
    return Outcome(
        state={} if panel is None else panel.to_dict(),  # none: the Mini App's edit
        model=panel,
        events=(CharacterFinished(owner, character.name),),
        closed=True,
        campaign_state=None if joined == campaign else joined.to_dict(),
        sheets={owner: character_sheet(character)},
    )


def _choice(argument: str, size: int) -> int:
    try:
        value = int(argument)
    except ValueError:
        raise Malformed("Use the buttons.") from None
    if not 0 <= value < size:
        raise Malformed("Use the buttons.")
    return value


def _next_step(draft: CharacterDraft, index: int) -> int:
    """The next step still missing after ``index``, else the review."""
    missing = missing_steps(draft)
    later = [STEPS.index(s) for s in missing if STEPS.index(s) > index]
    if later:
        return later[0]
    if missing:
        return STEPS.index(missing[0])
    if index < STEPS.index(CreationStep.RUMOURS) and not draft.rumours:
        return STEPS.index(CreationStep.RUMOURS)
    return len(STEPS)


ASPECT_ORDER: tuple[Aspect, ...] = (Aspect.BODY, Aspect.MIND, Aspect.HEART)


class CreationVerb(Enum):
    """What the owner may do on their character-creation panel."""

    ANSWER = "text"  # reply to the step
    ASPECTS = "aspects"  # pick how Body, Mind and Heart share the dice
    BACK = "goto"
    SKIP = "skip"
    FINISH = "finish"


def creation_choices(view: CreationView) -> tuple[Choice[CreationVerb], ...]:
    """The owner's choices now, in the panel's order (``name``: the step answered)."""
    me = frozenset({view.owner})
    step = view.step
    index = STEPS.index(step) if step is not None else len(STEPS)
    found: list[Choice[CreationVerb]] = []
    if step is CreationStep.ASPECTS:
        found += [
            Choice(CreationVerb.ASPECTS, str(i), by=me, name=step.value)
            for i in range(len(ASPECT_CHOICES))
        ]
    elif step is not None and (step is not CreationStep.RUMOURS or view.rumour_for is not None):
        found.append(Choice(CreationVerb.ANSWER, by=me, name=step.value, by_reply=True))
    if index > 0:
        found.append(Choice(CreationVerb.BACK, str(index - 1), by=me))
    if step is None:  # every step seen, some skipped: straight to each one still missing
        found += [
            Choice(CreationVerb.BACK, str(STEPS.index(m)), by=me, name=m.value)
            for m in view.missing
        ]
    if step is not None:
        found.append(Choice(CreationVerb.SKIP, by=me))
    if not view.missing:
        found.append(Choice(CreationVerb.FINISH, by=me))
    return tuple(found)


__all__ = [
    "ASPECT_CHOICES",
    "ASPECT_ORDER",
    "CHARACTER_PANEL",
    "STEPS",
    "CharacterFinished",
    "CharacterPanel",
    "CharacterPanelState",
    "CreationVerb",
    "CreationView",
    "apply_step",
    "creation_choices",
    "creation_view",
    "finished",
    "own_cards",
    "split_parts",
]


def _aspects_payload(step: CreationStep, argument: str) -> dict[str, Any]:
    """One of the aspect spreads offered, as the aspects step's payload."""
    if step is not CreationStep.ASPECTS:
        raise NotAllowedNow("That's for the aspects step.")
    body, mind, heart = ASPECT_CHOICES[_choice(argument, len(ASPECT_CHOICES))]
    return {"body": body.label, "mind": mind.label, "heart": heart.label}


def _check_rumour_room(
    step: CreationStep, panel: CharacterPanelState, cards: Sequence[object]
) -> None:
    """A rumour needs a location of one's own without one yet."""
    if step is CreationStep.RUMOURS and not cards:
        raise NotAllowedNow("Rumours are about the locations you write; skip for now.")
    if step is CreationStep.RUMOURS and len(panel.rumours) >= len(cards):
        raise NotAllowedNow("You have a rumour for each of your locations.")
