"""Trouble and the scene: activating 1s, cancelling Trouble, ending scenes and episodes.

Invariants: only the Watchtower activates a Lead's 1 (paying that Lead a Plot
Point; the die joins Trouble) or ends a scene; only a player uses a Watchtower
1, for free, on a Trouble die of the same size or smaller.
"""

from __future__ import annotations

from dataclasses import replace

from core.rules.cortex import actions as a
from core.rules.cortex.state import Table
from core.rules.cortex.stress import end_of_episode
from core.rules.cortex.turns import (
    Step,
    pay,
    require_watchtower,
)
from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.rng import Rng


def activate_complication(
    table: Table, user: int, action: a.ActivateComplication, rng: Rng
) -> Step:
    require_watchtower(table, user)
    if not 0 <= action.index < len(table.complications):
        raise NotAllowedNow("There is no such Complication to activate.")
    item = table.complications[action.index]
    rest = table.complications[: action.index] + table.complications[action.index + 1 :]
    table, events = pay(table, a.WATCHTOWER, item.owner, 1, "complication")
    table = replace(table, complications=rest, trouble=(*table.trouble, item.die))
    return Step(table, (*events, a.ComplicationActivated(item.owner, item.die)))


def cancel_trouble(table: Table, user: int, action: a.CancelTrouble, rng: Rng) -> Step:
    player = table.lead_of(user)
    if player is None:
        raise NotYourTurn("Only players can use the Watchtower's 1s.")
    if not 0 <= action.one < len(table.watchtower_ones):
        raise NotAllowedNow("There is no such Watchtower 1 to use.")
    if not 0 <= action.trouble < len(table.trouble):
        raise NotAllowedNow("There is no such die in Trouble.")
    one, die = table.watchtower_ones[action.one], table.trouble[action.trouble]
    if die > one.die:
        raise NotAllowedNow("A {die} can only remove a {die} or smaller.", die=one.die.label)
    ones = table.watchtower_ones[: action.one] + table.watchtower_ones[action.one + 1 :]
    trouble = table.trouble[: action.trouble] + table.trouble[action.trouble + 1 :]
    table = replace(table, watchtower_ones=ones, trouble=trouble)
    return Step(table, (a.TroubleCancelled(player, one.die, die),))


# --- scenes and episodes -------------------------------------------------


def end_scene(table: Table, user: int, action: a.EndScene | a.EndEpisode, rng: Rng) -> Step:
    require_watchtower(table, user)
    episode = isinstance(action, a.EndEpisode)
    sheets = tuple(
        end_of_episode(s) if episode else replace(s, stressed_out=False) for s in table.sheets
    )
    table = replace(
        table, sheets=sheets, details=(), complications=(), watchtower_ones=(), conflict=None
    )
    return Step(table, (a.SceneEnded(episode),))
