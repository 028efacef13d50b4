"""The game systems page over HTTP: the editor's live check with exact chances (worked
out in a worker process), the checker's words in the viewer's language, saving by the
group's hosts only, and forged initData refused."""

from __future__ import annotations

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
from core.store.models import OwnSystemVersion
from tests.support.bot_api import serve_app
from tests.support.heavy import small_heavy
from tests.support.mini_app import start_game
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

pytestmark = [pytest.mark.db]

BOT_TOKEN = "123456:own-systems"
GROUP = ChatRef(-100321, "supergroup", "The Table")
GM = PlayerRef(501, "Gwen")
BO = PlayerRef(502, "Bo")


@dataclass
class App:
    origin: str
    token: str

    async def call(
        self,
        method: str,
        path: str,
        who: PlayerRef = GM,
        bot_token: str = BOT_TOKEN,
        language: str = "",
        **body: Any,
    ) -> tuple[int, Any]:
        user = {"id": who.tg_id, "first_name": who.first_name}
        init = make_init_data(bot_token, user, int(time.time()) - 5, start_param=self.token)
        headers = {"Authorization": f"tma {init}"}
        if language:
            headers["X-Stonetable-Language"] = language
        async with (
            aiohttp.ClientSession() as http,
            http.request(
                method, f"{self.origin}{path}", headers=headers, json=body or None
            ) as response,
        ):
            is_json = response.content_type == "application/json"
            return response.status, await (response.json() if is_json else response.text())


@pytest.fixture
async def app(db: str) -> AsyncIterator[App]:
    locks = InProcessKeyedLock(5, 2)
    campaigns = Campaigns(default_registry(), SeededRng(1), locks)
    play = Play(SeededRng(1), locks, time.time)
    token = await start_game(campaigns, play, "threat", GROUP, GM, BO)
    heavy = small_heavy()
    web_app = create_app(
        WebDeps(play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=heavy)
    )
    async with serve_app(web_app) as origin:
        yield App(origin, token)
    await heavy.aclose()


async def test_the_editor_checks_as_typed_with_exact_chances(app: App) -> None:
    status, page = await app.call("GET", f"/app/c/{app.token}/systems")
    assert status == 200
    assert "A new game system" in page and "key = &#34;coin&#34;" in page
    check = f"/api/c/{app.token}/systems/check"
    status, body = await app.call("POST", check, text=own_systems.EXAMPLE, inputs="+1")
    assert status == 200, body
    # 2d2 + 1: 3, 4, 5 with 1, 2, 1 ways in 4; a win is 4 or more
    assert [(o["label"], o["chance"], o["shown"]) for o in body["outcomes"]] == [
        ("Win", "3/4", "75.0%"),
        ("Lose", "1/4", "25.0%"),
    ]
    status, body = await app.call(
        "POST", check, language="ru", text=own_systems.EXAMPLE, inputs="2"
    )
    assert [(o["label"], o["shown"]) for o in body["outcomes"]] == [
        ("Победа", "100,0\xa0%"),
        ("Поражение", "0,0\xa0%"),
    ]
    overlapping = own_systems.EXAMPLE.replace("max = 3", "max = 4")
    status, body = await app.call("POST", check, language="ru", text=overlapping, inputs="")
    assert status == 400
    assert body["error"] == "«outcomes»: полосы «win» и «lose» пересекаются.", body
    html = own_systems.EXAMPLE.replace('en = "Win"', 'en = "<i>Win</i>"')
    status, body = await app.call("POST", check, text=html, inputs="")
    assert (status, body["error"]) == (
        400,
        "“outcomes[0].label.en” must be plain text, without HTML.",
    )
    status, body = await app.call("POST", check, text=own_systems.EXAMPLE, inputs="+9")
    assert (status, body["error"]) == (400, "“+9” is out of range here: from 0 to 2.")


async def test_forged_init_data_is_refused(app: App) -> None:
    for method, path in (
        ("POST", f"/api/c/{app.token}/systems/check"),
        ("POST", f"/api/c/{app.token}/systems"),
    ):
        status, _ = await app.call(
            method, path, bot_token="654321:forged", text=own_systems.EXAMPLE, inputs=""
        )
        assert status == 401
    status, _ = await app.call("GET", f"/app/c/{app.token}/systems", bot_token="654321:forged")
    assert status == 401
    assert await OwnSystemVersion.all().count() == 0


async def test_only_the_groups_host_saves_a_new_system_then_its_next_version(app: App) -> None:
    save = f"/api/c/{app.token}/systems"
    status, body = await app.call("POST", save, who=BO, text=own_systems.EXAMPLE)
    assert (status, body["error"]) == (403, own_systems.NOT_HOST)
    status, body = await app.call("POST", save, text=own_systems.EXAMPLE)
    assert (status, body["done"]) == (200, "Saved Coin toss, version 1."), body
    status, body = await app.call(
        "POST", save, text=own_systems.EXAMPLE.replace("max = 2", "max = 3")
    )
    assert (status, body["version"]) == (200, 2)
    assert await own_systems.versions(GROUP.tg_id, "coin") == (1, 2)
    status, page = await app.call("GET", f"/app/c/{app.token}/systems?key=coin")
    assert "Edit coin" in page and "max = 3" in page
    status, page = await app.call("GET", f"/app/c/{app.token}/systems", who=BO)
    assert "Only a host of a game in this group can save" in page
