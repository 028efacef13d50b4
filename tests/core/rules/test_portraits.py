"""Who may change a character's portrait: its player; the Game Master only in a game whose
Game Master changes the players' sheets; nobody for a player without a seat."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.portraits import check_portrait_change, may_change_portrait
from core.rules.registry import default_registry
from core.rules.table import Role, Seat, Table

ROLES = st.frozensets(st.sampled_from(list(Role)), max_size=3)


def table(seats: dict[int, frozenset[Role]]) -> Table:
    return Table(1, "d20", {}, {p: Seat(p, f"P{p}", roles) for p, roles in seats.items()})


@given(st.dictionaries(st.integers(1, 6), ROLES, max_size=5), st.integers(1, 7), st.integers(1, 7))
def test_the_player_or_a_game_master_who_edits_sheets(
    seats: dict[int, frozenset[Role]], viewer: int, player: int
) -> None:
    at = table(seats)
    for gm_edits in (False, True):
        expected = (
            player in seats
            and viewer in seats
            and (viewer == player or (gm_edits and Role.GAME_MASTER in seats[viewer]))
        )
        assert may_change_portrait(at, viewer, player, gm_edits) is expected
        if expected:
            check_portrait_change(at, viewer, player, gm_edits)
        else:
            with pytest.raises(NotAllowedNow if player not in seats else NotYourTurn):
                check_portrait_change(at, viewer, player, gm_edits)


def test_only_d20_s_game_master_edits_the_players_sheets() -> None:
    systems = {s.key: s.gm_edits_sheets for s in default_registry()}
    assert systems["d20"] is True
    assert systems["threat"] is systems["cortex"] is systems["nsu"] is False
