"""``POST /api/c/<token>/roll``: a tap on the sheet opens the roll the chat command would.

Through the real routes of the web app over the test database (both backends): a
member's tap opens one panel (a retry with the same key opens no second one), and a
stranger, a forged launch, a paused game or a tap on nothing rollable change nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.campaigns import Campaigns
from core.locks import InProcessKeyedLock
from core.play import ChatRef, Play, PlayerRef
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.store.models import CampaignStatus, Panel
from tests.support.bot_api import serve_app
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

pytestmark = [pytest.mark.db]

BOT_TOKEN = "123456:sheet-rolls"
GROUP = ChatRef(-100777, "supergroup", "The Table")
GM = PlayerRef(701, "Gwen")
BO = PlayerRef(702, "Bo", language_code="ru")
STRANGER = PlayerRef(703, "Sam")
GUILE = {"what": "approach", "name": "Guile"}


@dataclass
class Web:
    origin: str
    token: str
    http: aiohttp.ClientSession
    campaigns: Campaigns

    def auth(self, who: PlayerRef, bot_token: str = BOT_TOKEN) -> dict[str, str]:
        user = {"id": who.tg_id, "first_name": who.first_name}
        if who.language_code:
            user["language_code"] = who.language_code
        init = make_init_data(bot_token, user, int(time.time()) - 5, start_param=self.token)
        return {"Authorization": f"tma {init}"}

    async def post(
        self,
        route: str,
        body: Any,
        *,
        key: str | None = None,
        who: PlayerRef = BO,
        bot_token: str = BOT_TOKEN,
        raw: bytes | None = None,
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        headers = {**self.auth(who, bot_token), "Content-Type": "application/json"}
        if key is not None:
            headers["Idempotency-Key"] = key
        data = raw if raw is not None else json.dumps(body).encode()
        async with self.http.post(
            f"{self.origin}/api/c/{self.token}/{route}", data=data, headers=headers
        ) as response:
            return response.status, json.loads(await response.text()), dict(response.headers)


@pytest.fixture
async def web(db: str) -> AsyncIterator[Web]:
    locks = InProcessKeyedLock()
    campaigns = Campaigns(default_registry(), SeededRng(1), locks)
    play = Play(SeededRng(1), locks, time.time)
    await campaigns.new_game(GROUP, GM, "threat")
    await play.mark_started(BO)
    await campaigns.join(GROUP, BO)
    await play.mark_started(STRANGER)
    token = (await campaigns.require_current(GROUP.tg_id)).app_token
    await campaigns.edit(token, BO, "approach.set", {"name": "Guile", "value": 2})
    app = create_app(WebDeps(play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time))
    async with serve_app(app) as origin, aiohttp.ClientSession() as http:
        yield Web(origin, token, http, campaigns)


async def panels() -> list[Panel]:
    return await Panel.filter(kind="threat.roll").order_by("id")


async def test_a_members_tap_opens_the_roll_with_that_approach_in_the_games_chat(
    web: Web,
) -> None:
    status, body, _ = await web.post("roll", GUILE, key="tap-guile-0001")
    assert status == 200 and body["ok"] is True
    [panel] = await panels()
    assert panel.id == body["panel"] and panel.chat_tg_id == GROUP.tg_id and not panel.closed
    state = panel.state["panel"]
    assert (state["roller"], state["approach_name"], state["approach"]) == (BO.tg_id, "Guile", 2)


async def test_a_retry_with_the_same_key_opens_no_second_panel(web: Web) -> None:
    first = await web.post("roll", GUILE, key="tap-guile-0002")
    again = await web.post("roll", GUILE, key="tap-guile-0002")
    assert first[0] == again[0] == 200 and again[1] == first[1]
    assert again[2]["Idempotent-Replayed"] == "true"
    assert len(await panels()) == 1
    other = await web.post("roll", GUILE, key="tap-guile-0003")  # a new tap: a new roll
    assert other[0] == 200 and len(await panels()) == 2


async def test_a_stranger_and_a_forged_launch_open_nothing(web: Web) -> None:
    status, body, _ = await web.post("roll", GUILE, who=STRANGER, key="tap-stranger-01")
    assert status == 403 and "not in this game" in body["error"]
    status, body, _ = await web.post("roll", GUILE, bot_token="999:forged", key="tap-forged-01")
    assert status == 401
    assert await panels() == []


async def test_a_paused_game_refuses_the_tap_in_the_players_language(web: Web) -> None:
    await web.campaigns.set_status(GROUP, GM, CampaignStatus.PAUSED)
    status, body, _ = await web.post("roll", GUILE, key="tap-paused-001")
    assert status == 403 and "паузе" in body["error"]  # Bo reads Russian
    assert await panels() == []


async def test_a_strangers_tap_is_refused_before_its_body_is_read(web: Web) -> None:
    status, body, _ = await web.post("roll", None, raw=b"{not json", who=STRANGER)
    assert status == 403 and "not in this game" in body["error"]
    deep = b'{"what": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    status, body, _ = await web.post("roll", None, raw=deep, key="tap-deep-0001")
    assert status == 400 and body["error"]  # a member's unreadable body: not understood
    assert await panels() == []


@pytest.mark.parametrize(
    "body",
    [
        {"what": "approach", "name": "Prowess"},  # not on Bo's sheet
        {"what": "momentum", "name": "3"},  # not a roll
        {"what": "approach"},
        {"what": 7, "name": "Guile"},
        ["approach", "Guile"],
    ],
)
async def test_a_tap_on_nothing_rollable_is_refused_and_changes_nothing(
    web: Web, body: Any
) -> None:
    status, answer, _ = await web.post("roll", body, key="tap-nothing-01")
    assert status == 400 and answer["error"]
    assert await panels() == []


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(what=st.text(max_size=30), name=st.text(max_size=120))
async def test_any_tap_gets_an_answer_not_a_crash(web: Web, what: str, name: str) -> None:
    status, answer, _ = await web.post("roll", {"what": what, "name": name})
    assert status in (200, 400, 403) and ("ok" in answer or answer["error"])
