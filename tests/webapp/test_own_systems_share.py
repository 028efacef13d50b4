"""Sharing a group's own game system from the Mini App's game systems page: its hosts
get the link ``/system share`` gives in the group (made once, then kept; a retry with the
same key is answered as before); a player who isn't a host sees no button and is refused."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from core.campaigns import Campaigns, own_systems
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.models import OwnSystem
from core.store.unit import UnitOfWork
from tests.support.bot_api import serve_app
from tests.support.heavy import small_heavy
from tests.support.mini_app import start_game
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

pytestmark = [pytest.mark.db]

BOT_TOKEN = "123456:share-systems"
GROUP = ChatRef(-100322, "supergroup", "The Table")
GM = PlayerRef(511, "Gwen")
BO = PlayerRef(512, "Bo", language_code="ru")


@dataclass
class App:
    origin: str
    token: str
    http: aiohttp.ClientSession

    def headers(self, who: PlayerRef) -> dict[str, str]:
        user = {"id": who.tg_id, "first_name": who.first_name}
        if who.language_code:
            user["language_code"] = who.language_code
        init = make_init_data(BOT_TOKEN, user, int(time.time()) - 5, start_param=self.token)
        return {"Authorization": f"tma {init}"}

    async def page(self, who: PlayerRef) -> str:
        url = f"{self.origin}/app/c/{self.token}/systems"
        async with self.http.get(url, headers=self.headers(who)) as response:
            assert response.status == 200
            return await response.text()

    async def share(self, who: PlayerRef, key: str, request: str) -> tuple[int, Any, bool]:
        headers = {**self.headers(who), "Idempotency-Key": request}
        url = f"{self.origin}/api/c/{self.token}/systems/share"
        async with self.http.post(url, data=json.dumps({"key": key}), headers=headers) as answer:
            replayed = answer.headers.get("Idempotent-Replayed") == "true"
            return answer.status, json.loads(await answer.text()), replayed


@pytest.fixture
async def app(db: str) -> AsyncIterator[App]:
    locks = InProcessKeyedLock(5, 2)
    campaigns = Campaigns(default_registry(), SeededRng(1), locks)
    play = Play(SeededRng(1), locks, time.time)
    token = await start_game(campaigns, play, "threat", GROUP, GM, BO)
    await own_systems.create(
        GROUP.tg_id, GM.tg_id, own_systems.EXAMPLE, locks=locks, unit=UnitOfWork()
    )
    heavy = small_heavy()
    deps = WebDeps(
        play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=heavy,
        bot_username=lambda: "stonetable_bot",
    )  # fmt: skip
    async with serve_app(create_app(deps)) as origin, aiohttp.ClientSession() as http:
        yield App(origin, token, http)
    await heavy.aclose()


async def test_a_host_shares_a_system_once_and_the_page_keeps_its_link(app: App) -> None:
    before = await app.page(GM)
    assert 'class="share-system"' in before and "startgroup" not in before
    status, body, replayed = await app.share(GM, "coin", "share-coin-0001")
    assert status == 200 and not replayed
    shared = (await OwnSystem.get(chat_tg_id=GROUP.tg_id, key="coin")).share_token
    assert shared and body["token"] == shared
    assert body["link"] == f"https://t.me/stonetable_bot?startgroup=sys_{shared}"
    assert body["done"] == "coin is shared: its link is below."
    again = await app.share(GM, "coin", "share-coin-0001")
    assert again == (200, body, True)  # the same tap, answered as before
    assert (await app.share(GM, "COIN", "share-coin-0002"))[1]["token"] == shared  # kept
    after = await app.page(GM)
    assert f"/system import {shared}" in after and body["link"] in after
    assert 'class="share-system"' not in after


async def test_a_player_who_isnt_a_host_sees_no_share_and_is_refused(app: App) -> None:
    await app.share(GM, "coin", "share-coin-0003")
    page = await app.page(BO)
    assert 'class="share-system"' not in page and "/system import" not in page
    status, body, _ = await app.share(BO, "coin", "share-bo-00001")
    assert status == 403 and "организатор" in body["error"]  # Bo reads Russian
    status, body, _ = await app.share(GM, "nope", "share-nope-0001")
    assert status == 403 and "nope" in body["error"]
