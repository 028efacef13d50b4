"""Who may change a character's portrait.

A portrait belongs to a seat: the character a player posts as (``/say``, inline posts).
Its player may add, replace or remove it; so may the Game Master in a game whose Game
Master changes the players' sheets (``GameSystem.gm_edits_sheets``). Nobody else.
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.table import Role, Table

NOT_YOURS = N_("Only the character's player can change their portrait.")
NO_SUCH_SEAT = N_("That player is not in this game.")


def may_change_portrait(table: Table, viewer: int, player: int, gm_edits_sheets: bool) -> bool:
    """Whether ``viewer`` may change the portrait of ``player``'s character."""
    seat, own = table.seat(player), table.seat(viewer)
    if seat is None or own is None:
        return False
    if viewer == player:
        return True
    return gm_edits_sheets and Role.GAME_MASTER in own.roles


def check_portrait_change(table: Table, viewer: int, player: int, gm_edits_sheets: bool) -> None:
    """That ``viewer`` may change ``player``'s portrait.

    Raises:
        NotAllowedNow: ``player`` has no seat at the table.
        NotYourTurn: it is someone else's portrait.
    """
    if table.seat(player) is None:
        raise NotAllowedNow(NO_SUCH_SEAT)
    if not may_change_portrait(table, viewer, player, gm_edits_sheets):
        raise NotYourTurn(NOT_YOURS)
