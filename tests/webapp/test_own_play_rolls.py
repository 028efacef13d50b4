"""The Mini App's roll history of a game of a group's own system: each roll of the game
named with the system, the version that rolled, its outcome and chance; dice rolls beside
them keep their average against the expected one, and the system's rolls stay out of it."""

from __future__ import annotations

import time

import aiohttp
import pytest

from core.campaigns import Campaigns, own_systems
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.dicesystem import ROLL_PANEL
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng, SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.unit import UnitOfWork
from tests.support.bot_api import serve_app
from tests.support.heavy import small_heavy
from tests.support.mini_app import Web, start_game
from tests.support.own_game import OUR_GAME
from webapp.app import create_app
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

pytestmark = [pytest.mark.db]

BOT_TOKEN = "123456:own-play"
GROUP = ChatRef(-100322, "supergroup", "The Table")
GM = PlayerRef(511, "Gwen")
BO = PlayerRef(512, "Bo", language_code="ru")


async def test_the_rolls_tab_names_the_system_version_outcome_and_chance(db: str) -> None:
    locks = InProcessKeyedLock(5, 2)
    campaigns = Campaigns(default_registry(), ScriptedRng([3, 5]), locks)
    play = Play(SeededRng(1), locks, time.time)
    await own_systems.create(GROUP.tg_id, GM.tg_id, OUR_GAME, locks=locks, unit=UnitOfWork())
    token = await start_game(campaigns, play, "mine", GROUP, GM, BO)
    await campaigns.open_panel(GROUP, BO, ROLL_PANEL, "+1")  # 3 + 5 + 1: Good
    await play.roll(GROUP, BO, "3")  # no dice: its total is what is expected
    heavy = small_heavy()
    app = create_app(
        WebDeps(play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=heavy)
    )
    async with serve_app(app) as origin, aiohttp.ClientSession() as http:
        web = Web(origin, token, http, campaigns, BOT_TOKEN, BO)
        async with http.get(f"{origin}/api/c/{token}/rolls", headers=web.auth()) as answer:
            assert answer.status == 200
            body = await answer.json()
        async with http.get(f"{origin}/app/c/{token}/rolls", headers=web.auth()) as answer:
            page = await answer.text()
    await heavy.aclose()
    dice, ours = body["rolls"]
    assert (ours["notation"], ours["outcome"], ours["total"]) == (
        "Наша игра, версия 1: модификатор +1",
        "9 → Хорошо (58,3\xa0%)",
        9,
    )
    assert (dice["notation"], dice["outcome"], dice["total"]) == ("3", None, 3)
    assert '<b class="outcome">9 → Хорошо (58,3\xa0%)</b>' in page
    assert [g["name"] for g in body["games"]] == ["Наша игра"]
    (bo,) = body["players"]
    assert bo["rolls"] == 1  # the dice roll alone counts toward the average
