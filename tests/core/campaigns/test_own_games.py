"""Games of a group's own systems in the store: /newgame KEY pins the newest version,
only the game's host moves it on, a roll set up with buttons is kept in the history with
the version that rolled it, and a secret roll of the game is kept for its roller only."""

from __future__ import annotations

import time

import pytest

from core.campaigns import Campaigns
from core.campaigns import own_systems as own
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.dicesystem import OWN, ROLL_PANEL, RollAction, played
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng, SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.models import Campaign, RollRecord
from core.store.roll_history import rolls_in
from core.store.unit import UnitOfWork
from tests.support.mini_app import start_game
from tests.support.own_game import OUR_GAME

pytestmark = pytest.mark.db

GROUP = ChatRef(-100124, "supergroup", "The Table")
HANA, BEN = PlayerRef(11, "Hana"), PlayerRef(12, "Ben")
LOCKS = InProcessKeyedLock(5, 2)
HARDER = OUR_GAME.replace("min = 8", "min = 9").replace("max = 7", "max = 8")


async def started(faces: list[int]) -> Campaigns:
    campaigns = Campaigns(default_registry(), ScriptedRng(faces), LOCKS)
    await own.create(GROUP.tg_id, HANA.tg_id, OUR_GAME, locks=LOCKS, unit=UnitOfWork())
    await start_game(campaigns, Play(SeededRng(1), LOCKS, time.time), "mine", GROUP, HANA, BEN)
    return campaigns


async def test_a_game_keeps_its_version_until_its_host_moves_it_on(db: str) -> None:
    campaigns = await started([])
    await own.edit(GROUP.tg_id, HANA.tg_id, "mine", HARDER, locks=LOCKS, unit=UnitOfWork())
    campaign = await Campaign.get(live_chat_id=GROUP.tg_id)
    assert campaign.system == OWN and played(campaign.state).version == 1
    with pytest.raises(NotAllowedNow) as refused:
        await campaigns.use_newest(GROUP, BEN, "mine", unit=UnitOfWork())
    assert refused.value.message_id.startswith("Only the game's host")
    with pytest.raises(NotAllowedNow):  # no such system in this group
        await campaigns.use_newest(GROUP, HANA, "pbta", unit=UnitOfWork())
    moved = await campaigns.use_newest(GROUP, HANA, "mine", unit=UnitOfWork())
    assert (moved.before, moved.after, moved.view.system.name) == (1, 2, "Our game")
    campaign = await Campaign.get(live_chat_id=GROUP.tg_id)
    assert played(campaign.state).version == 2
    assert campaign.state["system"]["text"] == HARDER  # type: ignore[index]
    with pytest.raises(NotAllowedNow) as refused:
        await campaigns.use_newest(GROUP, HANA, "mine", unit=UnitOfWork())
    assert refused.value.message_id.startswith("The game here plays the newest version")


async def test_a_roll_set_up_with_buttons_is_kept_with_its_version(db: str) -> None:
    campaigns = await started([6, 1])
    opened = await campaigns.open_panel(GROUP, BEN, ROLL_PANEL, "")
    assert await RollRecord.all().count() == 0  # set up, not rolled yet
    step = await campaigns.act(opened.id, opened.version, BEN, RollAction.SET.value, "mod.1")
    await campaigns.act(step.id, step.version, BEN, RollAction.ROLL.value)
    (kept,) = await rolls_in(GROUP.tg_id, 0, None)
    assert kept.total == 8 and kept.system is not None
    assert (kept.system["version"], kept.system["outcome"]["en"]) == (1, "Good")
    assert kept.notation == "modifier +1" and kept.faces == (((6, 1), (1, 1)),)


async def test_a_secret_roll_of_the_game_is_kept_for_those_who_saw_it(db: str) -> None:
    campaigns = await started([2, 2, 1, 1])
    kept = await campaigns.roll_system_in_secret(GROUP, BEN, "+3", (BEN.tg_id,), unit=UnitOfWork())
    assert await rolls_in(GROUP.tg_id, 0, None) == ()
    (seen,) = await rolls_in(GROUP.tg_id, 0, BEN.tg_id)
    assert seen.id == kept.roll_id and seen.secret and seen.total == 7
    with pytest.raises(Malformed):  # dice notation: rolled as dice, not the game's roll
        await campaigns.roll_system_in_secret(GROUP, BEN, "2d6", (BEN.tg_id,), unit=UnitOfWork())
    stranger = PlayerRef(13, "Cy")
    with pytest.raises(NotYourTurn) as refused:
        await campaigns.roll_system_in_secret(GROUP, stranger, "+1", (13,), unit=UnitOfWork())
    assert refused.value.message_id.startswith("Only players in this game")
