"""Kept pages: fresh after any change made anywhere, one viewer's page never another's,
initData and membership checked on every request, gzip when the client takes it.

Two workers share the database: the full stack (the bot and its Mini App) and a
second Mini App server with its own page cache, as another process would have.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from core.campaigns import Campaigns
from core.campaigns.play import Play
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.models import Member, Player
from tests.support.bot_api import serve_app
from tests.support.heavy import small_heavy
from tests.support.nsu_table import character, sheet
from tests.support.stack import GROUP, Stack, running_stack
from tests.webapp.test_nsu_app import ALICE, BO, SECRET_B, ZOE, headers, init_for, say, start_table
from tgbot.sandbox.fake_api import default_cast
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.page_cache import PAGES, PageCache, Rendered, accepts_gzip
from webapp.sheets import sheet_pages

RUMOUR = "Whispers in the orchard"  # Bo's own, in his sheet only


class Other:
    """A second worker's Mini App, with its own (cold) page cache."""

    def __init__(self, origin: str, cache: PageCache) -> None:
        self.origin, self.cache = origin, cache


@pytest.fixture
async def stack(db: str) -> AsyncIterator[Stack]:
    async with running_stack(db, players=default_cast()) as running:
        yield running


@pytest.fixture
async def other(stack: Stack) -> AsyncIterator[Other]:
    campaigns = Campaigns(default_registry(), SeededRng(1), InProcessKeyedLock())
    play = Play(SeededRng(1), campaigns.locks, time.time)
    app = create_app(
        WebDeps(
            play, campaigns, sheet_pages(), stack.api.token, 86400, time.time, heavy=small_heavy()
        )
    )
    async with serve_app(app) as origin:
        yield Other(origin, app[PAGES])


async def get(
    origin: str, path: str, auth: dict[str, str], *, encoding: str = "gzip"
) -> tuple[int, str, aiohttp.ClientResponse]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(origin + path, headers={**auth, "Accept-Encoding": encoding}) as response,
    ):
        return response.status, await response.text(), response


def cells(body: str) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for row in json.loads(body)["rows"] for c in row if c}


@pytest.mark.db
@pytest.mark.e2e
async def test_a_change_made_by_another_worker_or_the_bot_shows_at_once(
    stack: Stack, other: Other
) -> None:
    token, _ = await start_table(stack)
    alice, bo = headers(stack, ALICE, token), headers(stack, BO, token)
    for _ in range(2):
        status, body, _ = await get(other.origin, f"/api/c/{token}/map", alice)
        assert status == 200 and cells(body)["a"]["clock_ticks"] == 2
    assert other.cache.hits == 1  # the second read was served from the cache
    # Bo ticks the clock through the first worker's Mini App.
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{stack.origin}/api/c/{token}/edit",
            json={"action": "clock.tick", "payload": {"card_id": "a"}},
            headers=bo,
        ) as response,
    ):
        assert response.status == 200
    status, body, _ = await get(other.origin, f"/api/c/{token}/map", alice)
    assert cells(body)["a"]["clock_ticks"] == 3
    # A sheet and a name written straight to the database (another path entirely).
    status, page, _ = await get(other.origin, f"/app/c/{token}", alice)
    assert "Bram" in page and "Zed" not in page
    member = await Member.get(campaign__app_token=token, player__tg_id=BO)
    await Member.filter(id=member.id).update(sheet=sheet(character("Zed")))
    await Player.filter(tg_id=BO).update(first_name="Bobbie")
    status, page, _ = await get(other.origin, f"/app/c/{token}", alice)
    assert "Zed" in page and "Bram" not in page and "Bobbie" in page
    # A picture added through the first worker.
    status, _, _ = await get(other.origin, f"/api/c/{token}/map", alice)
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{stack.origin}/api/c/{token}/cards/a/picture",
            data=b"\x89PNG\r\n\x1a\n" + b"\x00" * 64,
            headers=alice,
        ) as response,
    ):
        assert response.status == 200
    status, body, _ = await get(other.origin, f"/api/c/{token}/map", alice)
    assert cells(body)["a"]["picture"] is True
    # Bo leaves through the bot: his kept page is refused, Alice's no longer shows him.
    assert (await get(other.origin, f"/app/c/{token}", bo))[0] == 200
    await say(stack, BO, "/leave")
    assert (await get(other.origin, f"/app/c/{token}", bo))[0] == 403
    assert (await get(other.origin, f"/api/c/{token}/map", bo))[0] == 403
    status, page, _ = await get(other.origin, f"/app/c/{token}", alice)
    assert status == 200 and "Zed" not in page and "Bobbie" not in page


@pytest.mark.db
@pytest.mark.e2e
async def test_a_viewer_never_gets_another_viewers_page(stack: Stack, other: Other) -> None:
    token, _ = await start_table(stack)
    alice, bo = headers(stack, ALICE, token), headers(stack, BO, token)
    for _ in range(3):  # interleaved, so every read after the first is a kept page
        for path in (f"/app/c/{token}", f"/api/c/{token}", f"/api/c/{token}/map"):
            _, mine, _ = await get(other.origin, path, bo)
            _, hers, _ = await get(other.origin, path, alice)
            assert SECRET_B in mine if path.endswith("map") else RUMOUR in mine
            assert SECRET_B not in hers and RUMOUR not in hers
    assert other.cache.hits == 12 and len(other.cache) == 6


@pytest.mark.db
@pytest.mark.e2e
@pytest.mark.parametrize("path", ["/app/c/{token}", "/api/c/{token}", "/api/c/{token}/map"])
async def test_a_kept_page_still_checks_initdata_and_membership(
    stack: Stack, other: Other, path: str
) -> None:
    token, _ = await start_table(stack)
    path = path.format(token=token)
    alice = headers(stack, ALICE, token)
    assert (await get(other.origin, path, alice))[0] == 200
    assert (await get(other.origin, path, alice))[0] == 200
    assert other.cache.hits == 1
    old = make_init_data(
        stack.api.token,
        stack.api.players[ALICE].user_dict(),
        int(time.time()) - 2 * 86400,
        start_param=token,
    )
    tampered = init_for(stack, ALICE, token).replace("Alice", "Alicf")
    for auth, status in [
        (headers(stack, "forged", token), 401),
        (headers(stack, "missing", token), 401),
        ({"Authorization": f"tma {old}"}, 401),
        ({"Authorization": f"tma {tampered}"}, 401),
        (headers(stack, ZOE, token), 403),
    ]:
        got, body, _ = await get(other.origin, path, auth)
        assert got == status, (auth, body[:200])
        assert "Drowned" not in body and "Ana" not in body
    assert other.cache.hits == 1  # nothing was served from the cache to them


@pytest.mark.db
@pytest.mark.e2e
async def test_pages_are_gzipped_for_clients_that_take_it(stack: Stack, other: Other) -> None:
    token, _ = await start_table(stack)
    alice = headers(stack, ALICE, token)
    for origin in (stack.origin, other.origin):
        async with aiohttp.ClientSession(auto_decompress=False) as http:
            async with http.get(
                f"{origin}/app/c/{token}", headers={**alice, "Accept-Encoding": "gzip, br"}
            ) as response:
                packed = await response.read()
                assert response.headers["Content-Encoding"] == "gzip"
                assert response.headers["Cache-Control"] == "no-store"
                assert "Accept-Encoding" in response.headers["Vary"]
            async with http.get(
                f"{origin}/app/c/{token}", headers={**alice, "Accept-Encoding": "identity"}
            ) as response:
                plain = await response.read()
                assert "Content-Encoding" not in response.headers
        assert gzip.decompress(packed) == plain and b"Ana" in plain
        assert len(packed) < len(plain) / 3


def test_the_cache_keeps_recent_pages_within_its_budget() -> None:
    cache = PageCache(max_bytes=200)
    renders: list[int] = []

    def render(n: int) -> Any:
        def make() -> tuple[str, str]:
            renders.append(n)
            return "x" * 10 + str(n), "text/html"

        return make

    pages = [cache.get_or_render(("p", n, "f"), render(n)) for n in range(5)]
    assert all(isinstance(p, Rendered) for p in pages)
    assert cache.get_or_render(("p", 0, "f"), render(0)) is pages[0]
    assert renders == [0, 1, 2, 3, 4] and cache.hits == 1
    for n in range(5, 20):
        cache.get_or_render(("p", n, "f"), render(n))
    assert cache.size <= 200 and len(cache) < 20
    cache.get_or_render(("p", 1, "f"), render(1))  # long gone: rendered again
    assert renders[-1] == 1
    assert cache.get_or_render(("p", 19, "other"), render(99)) and renders[-1] == 99


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("gzip, deflate, br", True),
        ("br;q=1.0, GZIP;q=0.5", True),
        ("*", True),
        ("gzip;q=0", False),
        ("identity", False),
        ("", False),
    ],
)
def test_gzip_is_sent_only_to_clients_that_take_it(header: str, expected: bool) -> None:
    from aiohttp.test_utils import make_mocked_request

    request = make_mocked_request("GET", "/", headers={"Accept-Encoding": header})
    assert accepts_gzip(request) is expected


@pytest.mark.db
@pytest.mark.e2e
async def test_a_game_without_a_map_answers_not_found_every_time(
    stack: Stack, other: Other
) -> None:
    await say(stack, ALICE, "/newgame threat")
    assert stack.runtime.application is not None
    view = await stack.runtime.application.deps.campaigns.require_current(GROUP)
    alice = headers(stack, ALICE, view.app_token)
    for _ in range(2):
        status, body, _ = await get(other.origin, f"/api/c/{view.app_token}/map", alice)
        assert status == 404 and json.loads(body) == {"error": "This game has no map."}
    status, page, _ = await get(other.origin, f"/app/c/{view.app_token}", alice)
    assert status == 200 and "Alice" in page
    assert len(other.cache) == 1  # only the sheet was kept
