"""Text no store can keep (a NUL, half a character) is bad input in the Mini App and on the
story page: a 400 that says so, on SQLite and PostgreSQL alike, never "unreachable". A
name Telegram tells with such a character is kept cleaned, and the player goes on."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest

from core.campaigns import Campaigns
from core.campaigns.play import Play
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.rules.table import Role, Seat, Table
from core.rules.text import UNSTORABLE
from core.runtime.locks import InProcessKeyedLock
from core.store.models import Campaign, Player
from tests.support.bot_api import serve_app
from tests.support.heavy import small_heavy
from tests.webapp.test_secrecy import store_table
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

pytestmark = pytest.mark.db

BOT_TOKEN = "123456:unstorable"
ADA = 5001


@pytest.fixture
async def origin(db: str) -> AsyncIterator[str]:
    locks = InProcessKeyedLock()
    campaigns = Campaigns(default_registry(), SeededRng(1), locks)
    play = Play(SeededRng(1), locks, time.time)
    app = create_app(
        WebDeps(play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=small_heavy())
    )
    async with serve_app(app) as served:
        yield served


def launch(first_name: str = "Ada") -> dict[str, str]:
    user = {"id": ADA, "first_name": first_name, "language_code": "en"}
    init = make_init_data(BOT_TOKEN, user, int(time.time()) - 5)
    return {"Authorization": f"tma {init}"}


async def call(
    origin: str, method: str, path: str, body: str | None = None, first_name: str = "Ada"
) -> tuple[int, str]:
    headers = {**launch(first_name), "Content-Type": "application/json"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, f"{origin}{path}", data=body, headers=headers) as response,
    ):
        return response.status, await response.text()


@pytest.mark.parametrize(
    "bad", ["%00", "a%00b"]
)  # (broken UTF-8 in a URL is never decoded to half a character)
async def test_a_path_the_store_cannot_keep_is_a_400(origin: str, bad: str) -> None:
    for path in (f"/story/{bad}", f"/story/{bad}/download", f"/api/c/{bad}", f"/app/c/{bad}"):
        status, text = await call(origin, "GET", path)
        assert status == 400, (path, status, text)
        assert "unreachable" not in text
    status, text = await call(origin, "GET", f"/api/c/{bad}")
    assert json.loads(text) == {"error": UNSTORABLE}


async def test_it_is_logged_as_bad_input_not_as_an_outage(
    origin: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    status, text = await call(origin, "GET", "/story/a%00b")
    assert status == 400
    assert "be kept" in text  # the sentence, on the page
    assert "Refused bad input (not an outage)" in caplog.text
    assert "unreachable" not in caplog.text


async def test_a_start_parameter_with_a_nul_still_opens_the_home_page(origin: str) -> None:
    status, _ = await call(origin, "GET", "/app/home?startapp=a%00b")  # never stored
    assert status == 200


@pytest.mark.parametrize("bad", ["\\u0000", "\\ud800", "ok\\udfffok"])
async def test_a_body_the_store_cannot_keep_is_a_400_and_changes_nothing(
    origin: str, bad: str
) -> None:
    sheet = {"approaches": [["Bold", 2]], "momentum": 3, "harm": 0, "notes": "A plan"}
    seats = {ADA: Seat(ADA, "Ada", frozenset({Role.PLAYER}), sheet)}
    token, campaign = await store_table("threat", Table(1, "threat", {"v": 1}, seats))
    posts = [
        ("edit", '{"action": "notes", "payload": {"text": "a' + bad + '"}}'),
        ("saved", '{"name": "fire' + bad + '", "text": "2d6"}'),
        ("saved", '{"name": "fire", "text": "2d6 ' + bad + '"}'),
        ("story", '{"on": true, "x' + bad + '": 1}'),
    ]
    for route, body in posts:
        status, text = await call(origin, "POST", f"/api/c/{token}/{route}", body)
        assert (status, json.loads(text)) == (400, {"error": UNSTORABLE}), route
    stored = await Campaign.get(id=campaign.id)
    assert stored.version == campaign.version and stored.state == campaign.state


async def test_a_name_telegram_tells_with_a_nul_is_kept_cleaned(origin: str) -> None:
    status, text = await call(origin, "GET", "/api/me", first_name="A\x00da")
    assert status == 200, text
    assert json.loads(text)["player"] == {"id": ADA, "name": "Ada"}
    assert (await Player.get(tg_id=ADA)).first_name == "Ada"
