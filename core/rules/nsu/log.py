"""What the campaign log keeps of NSU play: rolls, details, clocks and the party's moves.

Only public facts become log lines: every member can read the log, so nothing
from a face-down card's face (its title, its clock) is ever written. A clock
moved or a detail placed on a card that is still face down is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import singledispatchmethod
from typing import Any

from core.rules.catalogue import N_
from core.rules.errors import Malformed
from core.rules.log import LogKind, LogLine, Words, words
from core.rules.nsu.campaign import campaign_of, character_of
from core.rules.nsu.details import Polarity
from core.rules.nsu.roll_state import DetailAdded, RollSettled, RollState, TargetKind
from core.rules.nsu.terms import Winner
from core.rules.nsu.world import (
    CardFlipped,
    ClockMoved,
    PartyRegrouped,
    SceneDetailAdded,
    Travelled,
    World,
)
from core.rules.table import Outcome, Table

SOMEONE = N_("Someone")


def _name(table: Table, player_id: int | None) -> str | Words:
    seat = None if player_id is None else table.seat(player_id)
    if seat is None:
        return words(SOMEONE)
    character = character_of(seat)
    return character.name if character is not None else seat.name


def _roll(outcome: Outcome) -> RollState | None:
    """The roll on the panel the outcome left: as the rules handed it over (an Action
    Roll's), or read from its stored state (a downtime Scout's included)."""
    handed = getattr(outcome.model, "roll", None)
    if isinstance(handed, RollState):
        return handed
    state: Mapping[str, Any] = outcome.state
    roll = state.get("roll") if isinstance(state, Mapping) else None
    scout = state.get("scout") if isinstance(state, Mapping) else None
    if roll is None and isinstance(scout, Mapping):  # a downtime Scout's roll
        roll = scout.get("roll")
    if not isinstance(roll, Mapping):
        return None
    try:
        return RollState.from_dict(roll)
    except (Malformed, KeyError, TypeError, ValueError):
        return None


def _author(table: Table, roll: RollState | None, player_id: int) -> str | Words:
    """Who added a detail, named as the line names anyone: a character in the roll by
    that character, a player arbitrating it by their own name.

    Arbiters have no character in the scene, so the log names the player, never
    their (off-screen) character; the sentence is the same whoever added the detail.
    """
    if roll is None or any(p.player == player_id for p in roll.participants):
        return _name(table, player_id)
    seat = table.seat(player_id)
    return words(SOMEONE) if seat is None else seat.name


def _public_title(world: World | None, card_id: str) -> str | None:
    """The card's title if its face is public (flipped), else None."""
    if world is None:
        return None
    try:
        card = world.card(card_id)
    except Malformed:
        return None
    return card.title if card.revealed else None


def _roll_line(table: Table, roller: int | None, event: RollSettled) -> LogLine:
    o = event.outcome
    who = _name(table, roller)
    winner = {
        Winner.PLAYER: words(N_("{name} wins"), name=who),
        Winner.ARBITERS: words(N_("the Arbiters win")),
        Winner.TIE: words(N_("a tie")),
    }[o.winner]
    helper: str | Words = ""
    if o.helper_used is not None:
        helper = words(N_(", with {name}'s mood die"), name=_name(table, o.helper_used))
    said = words(
        N_(
            "{name} rolled: Aspect {aspect}{shift} = {total} against Mood {mood}{helper}: "
            "{winner} by {difference}."
        ),
        name=who,
        aspect=o.aspect_face,
        shift=f"{o.skill_shift:+d}" if o.skill_shift else "",
        total=o.aspect_total,
        mood=o.mood_face,
        helper=helper,
        winner=winner,
        difference=o.difference,
    )
    players = tuple(p for p in (roller, o.helper_used) if p is not None)
    return LogLine.of(LogKind.ROLL, said, players)


_GAVE = {
    (False, False): N_("{author} gave {target} the detail {sign}{detail}."),
    (True, False): N_("{author} gave {target} the harm {sign}{detail}."),
    (False, True): N_("{author} gave {target} the detail {sign}{detail}. {target} is Overcome."),
    (True, True): N_("{author} gave {target} the harm {sign}{detail}. {target} is Overcome."),
}
_TOOK = {  # a character who gave themselves the detail is named once
    (False, False): N_("{target} took the detail {sign}{detail}."),
    (True, False): N_("{target} took the harm {sign}{detail}."),
    (False, True): N_("{target} took the detail {sign}{detail}. {target} is Overcome."),
    (True, True): N_("{target} took the harm {sign}{detail}. {target} is Overcome."),
}


def _detail_line(table: Table, event: DetailAdded, roll: RollState | None) -> LogLine:
    added = event.added
    sign = "+" if added.detail.polarity is Polarity.POSITIVE else "−"
    target = added.target
    players = [added.by]
    where: str | Words
    if target.kind is TargetKind.CHARACTER:
        where = _name(table, target.player)
        if target.player is not None:
            players.append(target.player)
    elif target.kind is TargetKind.SCENE:
        where = words(N_("the scene"))
    else:
        where = target.name or words(N_("something"))
    author = _author(table, roll, added.by)
    if target.kind is TargetKind.CHARACTER and target.player == added.by and author == where:
        said = words(
            _TOOK[added.harm, event.overcome], target=where, sign=sign, detail=added.detail.name
        )
    else:
        said = words(
            _GAVE[added.harm, event.overcome],
            author=author,
            target=where,
            sign=sign,
            detail=added.detail.name,
        )
    return LogLine.of(LogKind.DETAIL, said, tuple(dict.fromkeys(players)))


class _Lines:
    """One action's events as log lines: one method per kind of event the log keeps.

    Any other kind (a step of a roll, a card dealt face down, a sheet's change) has
    no line: the log keeps only what every member may read.
    """

    def __init__(
        self, table: Table, world: World | None, roll: RollState | None, roller: int | None
    ) -> None:
        self.table, self.world, self.roll, self.roller = table, world, roll, roller

    @singledispatchmethod
    def line(self, event: object) -> LogLine | None:
        """The event's line, where it has one every member may read."""
        return None

    @line.register
    def _roll_settled(self, event: RollSettled) -> LogLine | None:
        return _roll_line(self.table, self.roller if event.roller is None else event.roller, event)

    @line.register
    def _detail_added(self, event: DetailAdded) -> LogLine | None:
        return _detail_line(self.table, event, self.roll)

    @line.register
    def _clock_moved(self, event: ClockMoved) -> LogLine | None:
        title = _public_title(self.world, event.card_id)
        if title is None:
            return None
        said = words(
            N_("{place}: Collateral Clock {before} → {after}."),
            place=title,
            before=event.before,
            after=event.after,
        )
        return LogLine.of(LogKind.CLOCK, said, () if event.by is None else (event.by,))

    @line.register
    def _scene_detail_added(self, event: SceneDetailAdded) -> LogLine | None:
        title = _public_title(self.world, event.card_id)
        if title is None:
            return None
        said = words(N_("Scene detail at {place}: {detail}."), place=title, detail=event.detail)
        return LogLine.of(LogKind.DETAIL, said)

    @line.register
    def _card_flipped(self, event: CardFlipped) -> LogLine | None:
        title = _public_title(self.world, event.card_id)
        if title is None:
            return None
        return LogLine.of(LogKind.MAP, words(N_("{place} was revealed."), place=title))

    @line.register
    def _party_regrouped(self, event: PartyRegrouped) -> LogLine | None:
        return LogLine.of(LogKind.MAP, words(N_("The party met up: everyone is together again.")))

    @line.register
    def _travelled(self, event: Travelled) -> LogLine | None:
        if event.card_id is None:
            return LogLine.of(LogKind.MAP, words(N_("The party went home.")))
        title = _public_title(self.world, event.card_id)
        said = words(N_("The party went to {place}."), place=title or event.card_id)
        return LogLine.of(LogKind.MAP, said)


def nsu_log_lines(table: Table, outcome: Outcome) -> tuple[LogLine, ...]:
    """Log lines for one action's events (only what every member may read)."""
    world = campaign_of(table).current_world() if table.state else None
    roll = _roll(outcome)
    roller = None if roll is None else roll.roller
    said = _Lines(table, world, roll, roller).line
    return tuple(line for line in map(said, outcome.events) if line is not None)
