"""A d20 campaign through the use cases: the pool follows joins and leaves."""

from __future__ import annotations

import pytest

from core.campaigns import Campaigns, Retirement
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng
from core.rules.table import Role
from core.runtime.locks import InProcessKeyedLock

pytestmark = pytest.mark.db

GROUP = ChatRef(-100123, "supergroup", "The Table")
GIL, ANA, BO = PlayerRef(1, "Gil"), PlayerRef(2, "Ana"), PlayerRef(3, "Bo")


@pytest.fixture
def campaigns() -> Campaigns:
    registry = default_registry(("core.rules.d20check",))
    return Campaigns(registry, ScriptedRng([5, 5]), InProcessKeyedLock(5, 2))


async def joined(campaigns: Campaigns, player: PlayerRef) -> None:
    await Play(ScriptedRng([]), campaigns.locks, lambda: 0.0).mark_started(player)
    await campaigns.join(GROUP, player)


async def test_joins_add_lucky_points_and_a_leaver_takes_an_unlucky_one_first(
    db: str, campaigns: Campaigns
) -> None:
    view = await campaigns.new_game(GROUP, GIL, "d20")
    assert view.member(GIL.tg_id).roles == {Role.HOST, Role.GAME_MASTER}  # type: ignore[union-attr]
    assert view.state["plot_points"] == {"lucky": 1, "unlucky": 0}
    await joined(campaigns, ANA)
    await joined(campaigns, BO)
    view = await campaigns.require_current(GROUP.tg_id)
    assert view.state["plot_points"] == {"lucky": 3, "unlucky": 0}

    panel = await campaigns.open_panel(GROUP, ANA, "d20.check", "dc10")
    panel = await campaigns.act(panel.id, panel.version, ANA, "roll")  # a 5: a failure
    panel = await campaigns.act(panel.id, panel.version, ANA, "retry")  # a 5 again
    assert not panel.closed  # lucky points are left, so she may retry again (ruling 25)
    panel = await campaigns.act(panel.id, panel.version, ANA, "keep")
    assert panel.closed
    assert panel.campaign.state["plot_points"] == {"lucky": 2, "unlucky": 1}

    await campaigns.leave(GROUP, BO)
    view = await campaigns.require_current(GROUP.tg_id)
    assert view.state["plot_points"] == {"lucky": 2, "unlucky": 0}
    _, table = await campaigns.table_for_viewer(view.app_token, GIL)
    assert table.seats[GIL.tg_id].sheet == {}
    assert table.seats[ANA.tg_id].sheet["name"] == "Ana"


async def test_a_players_new_check_retires_only_their_own_older_one(
    db: str, campaigns: Campaigns
) -> None:
    await campaigns.new_game(GROUP, GIL, "d20")
    await joined(campaigns, ANA)
    await joined(campaigns, BO)
    anas = await campaigns.open_panel(GROUP, ANA, "d20.check", "dc10")
    await campaigns.bind_message(anas.id, 10)
    bos = await campaigns.open_panel(GROUP, BO, "d20.check", "dc12")
    await campaigns.bind_message(bos.id, 11)
    assert bos.retired == ()  # Bo's roll leaves Ana's open
    again = await campaigns.open_panel(GROUP, ANA, "d20.check", "dc15")
    assert [(r.panel.id, r.why) for r in again.retired] == [(anas.id, Retirement.NEWER)]
    rolled = await campaigns.act(bos.id, bos.version, BO, "roll")  # Bo's still takes presses
    assert rolled.version == bos.version + 1
