"""What the campaign log keeps of NSU play: rolls, details, clocks and the party's moves.

Only public facts become log lines: every member can read the log, so nothing
from a face-down card's face (its title, its clock) is ever written. A clock
moved or a detail placed on a card that is still face down is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.rules.errors import Malformed
from core.rules.log import LogLine
from core.rules.nsu.campaign import campaign_of, character_of
from core.rules.nsu.details import Polarity
from core.rules.nsu.roll_state import DetailAdded, RollSettled, RollState, TargetKind
from core.rules.nsu.terms import Winner
from core.rules.nsu.world import (
    CardFlipped,
    ClockMoved,
    SceneDetailAdded,
    Travelled,
    World,
)
from core.rules.table import Outcome, Table


def _name(table: Table, player_id: int | None) -> str:
    seat = None if player_id is None else table.seat(player_id)
    if seat is None:
        return "Someone"
    character = character_of(seat)
    return character.name if character is not None else seat.name


def _roll(state: Mapping[str, Any]) -> RollState | None:
    roll = state.get("roll") if isinstance(state, Mapping) else None
    if not isinstance(roll, Mapping):
        return None
    try:
        return RollState.from_dict(roll)
    except (Malformed, KeyError, TypeError, ValueError):
        return None


def _author(table: Table, roll: RollState | None, player_id: int) -> str:
    """Who added a detail: a character in the roll, or a player arbitrating it.

    Arbiters have no character in the scene, so the log names the player, never
    their (off-screen) character.
    """
    if roll is None or any(p.player == player_id for p in roll.participants):
        return _name(table, player_id)
    seat = table.seat(player_id)
    return "Someone" if seat is None else f"{seat.name}, as Arbiter,"


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
    shift = f"{o.skill_shift:+d}" if o.skill_shift else ""
    winner = {
        Winner.PLAYER: f"{who} wins",
        Winner.ARBITERS: "the Arbiters win",
        Winner.TIE: "a tie",
    }[o.winner]
    helper = ""
    if o.helper_used is not None:
        helper = f", with {_name(table, o.helper_used)}'s mood die"
    text = (
        f"{who} rolled: Aspect {o.aspect_face}{shift} = {o.aspect_total} against Mood "
        f"{o.mood_face}{helper}: {winner} by {o.difference}."
    )
    players = tuple(p for p in (roller, o.helper_used) if p is not None)
    return LogLine("roll", text, players)


def _detail_line(table: Table, event: DetailAdded, roll: RollState | None) -> LogLine:
    added = event.added
    sign = "+" if added.detail.polarity is Polarity.POSITIVE else "−"
    target = added.target
    players = [added.by]
    if target.kind is TargetKind.CHARACTER:
        where = _name(table, target.player)
        if target.player is not None:
            players.append(target.player)
    elif target.kind is TargetKind.SCENE:
        where = "the scene"
    else:
        where = target.name or "something"
    what = "harm" if added.harm else "detail"
    text = f"{_author(table, roll, added.by)} gave {where} the {what} {sign}{added.detail.name}."
    if event.overcome:
        text += f" {where} is Overcome."
    return LogLine("detail", text, tuple(dict.fromkeys(players)))


def nsu_log_lines(table: Table, outcome: Outcome) -> tuple[LogLine, ...]:
    """Log lines for one action's events (only what every member may read)."""
    world = campaign_of(table).current_world() if table.state else None
    roll = _roll(outcome.state)
    roller = None if roll is None else roll.roller
    lines: list[LogLine] = []
    for event in outcome.events:
        line: LogLine | None = None
        if isinstance(event, RollSettled):
            line = _roll_line(table, roller, event)
        elif isinstance(event, DetailAdded):
            line = _detail_line(table, event, roll)
        elif isinstance(event, ClockMoved):
            title = _public_title(world, event.card_id)
            if title is not None:
                by = () if event.by is None else (event.by,)
                line = LogLine(
                    "clock", f"{title}: Collateral Clock {event.before} → {event.after}.", by
                )
        elif isinstance(event, SceneDetailAdded):
            title = _public_title(world, event.card_id)
            if title is not None:
                line = LogLine("detail", f"Scene detail at {title}: {event.detail}.")
        elif isinstance(event, CardFlipped):
            title = _public_title(world, event.card_id)
            if title is not None:
                line = LogLine("map", f"{title} was revealed.")
        elif isinstance(event, Travelled):
            if event.card_id is None:
                line = LogLine("map", "The party went home.")
            else:
                title = _public_title(world, event.card_id)
                line = LogLine("map", f"The party went to {title or event.card_id}.")
        if line is not None:
            lines.append(line)
    return tuple(lines)
