"""The Mini App's odds go one at a time per user, as in the chat: a second request while
the first is worked out is answered "one at a time" (429), in the viewer's language;
other users are served meanwhile."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from core.campaigns import Campaigns
from core.campaigns.play import Play
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.runtime.heavy import HeavyWork, InProcessTurns, ProcessPool
from core.runtime.locks import InProcessKeyedLock
from tests.support.bot_api import serve_app
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

BOT_TOKEN = "123456:heavy-odds"
ANNA, BORIS = 7001, 7002


@dataclass
class Served:
    origin: str
    heavy: HeavyWork
    http: aiohttp.ClientSession

    async def odds(
        self, user: int, expr: str, *, language: str = "en", page: bool = False
    ) -> tuple[int, Any, dict[str, str]]:
        """GET the odds route (``page``: the calculator page) as ``user``."""
        person = {"id": user, "first_name": f"P{user}", "language_code": language}
        init = make_init_data(BOT_TOKEN, person, int(time.time()) - 5)
        path = "/app/odds" if page else "/api/odds"
        async with self.http.get(
            f"{self.origin}{path}", params={"expr": expr}, headers={"Authorization": "tma " + init}
        ) as response:
            text = await response.text()
            return response.status, text if page else json.loads(text), dict(response.headers)


@pytest.fixture
async def served() -> AsyncIterator[Served]:
    locks = InProcessKeyedLock()
    campaigns = Campaigns(default_registry(), SeededRng(1), locks)
    heavy = HeavyWork(ProcessPool(1), InProcessTurns(wait_seconds=0.1))
    play = Play(SeededRng(1), locks, time.time, heavy=heavy)
    app = create_app(
        WebDeps(play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=heavy)
    )
    async with serve_app(app) as origin, aiohttp.ClientSession() as http:
        yield Served(origin, heavy, http)
    await heavy.aclose()


async def test_a_second_odds_request_of_the_same_user_waits_its_turn(served: Served) -> None:
    async with served.heavy.turns.hold(ANNA):  # Anna's last request is being worked out
        status, body, headers = await served.odds(ANNA, "4d6kh3")
        assert status == 429 and "Retry-After" in headers
        assert body["error"].startswith("One at a time, please")
        status, body, _ = await served.odds(ANNA, "4d6kh3", language="ru")
        assert status == 429 and body["error"].startswith("По одному, пожалуйста")
        page_status, page, _ = await served.odds(ANNA, "4d6kh3", page=True)
        assert page_status == 200 and "One at a time, please" in page
        status, body, _ = await served.odds(BORIS, "4d6kh3")  # someone else: served
        assert status == 200 and body["notation"] == "4d6kh3"
    status, body, _ = await served.odds(ANNA, "4d6kh3")  # her turn again
    assert status == 200 and (body["minimum"], body["maximum"]) == (3, 18)


async def test_the_odds_are_worked_out_in_a_worker_process(served: Served) -> None:
    assert served.heavy.pool.processes == 0
    status, _, _ = await served.odds(BORIS, "1d20+5 adv >= 15")
    assert status == 200 and served.heavy.pool.processes == 1


async def test_the_odds_page_chart_is_drawn_in_a_worker_process(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    import re

    from core.rules import dice
    from core.rules.dice_odds import odds
    from webapp import odds_json

    def not_here(result: object) -> list[odds_json.Bar]:
        raise AssertionError("the chart was drawn on the event loop")

    wanted = odds_json.chart_bars(odds(dice.parse("2d6")))
    monkeypatch.setattr(odds_json, "chart_bars", not_here)  # this process cannot draw it
    status, page, _ = await served.odds(BORIS, "2d6", page=True)
    assert status == 200, page
    heights = [
        float(h) for h in re.findall(r'class="bar"[^>]*><span style="height: ([\d.]+)%', page)
    ]
    assert heights == [round(h, 1) for _, _, h in wanted]
    assert heights[5] == 100.0 and heights[0] == pytest.approx(100 / 6, abs=0.05)  # 7 vs 2
