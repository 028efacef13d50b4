"""Campaign pages and API: the authorization matrix and edits through the rules."""

from __future__ import annotations

import html
import time
from typing import Any

import aiohttp
import pytest

from core.campaigns.play import ChatRef, PlayerRef
from tests.support.counter_system import counter_registry
from tests.support.stack import GROUP, Stack, running_stack
from webapp.auth import make_init_data

pytestmark = [pytest.mark.db, pytest.mark.e2e]

HOST, FRIEND, STRANGER = 1001, 1002, 1003


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, registry=counter_registry()) as running:
        deps = running.runtime.application.deps  # type: ignore[union-attr]
        chat = ChatRef(GROUP, "supergroup", "The Table")
        players = running.api.players
        await deps.campaigns.new_game(chat, PlayerRef(HOST, players[HOST].first_name), "counter")
        friend = PlayerRef(FRIEND, players[FRIEND].first_name)
        await deps.play.mark_started(friend)
        await deps.campaigns.join(chat, friend)
        yield running


def auth(stack: Stack, who: str) -> dict[str, str]:
    if who == "missing":
        return {}
    if who == "forged":
        user = stack.api.players[HOST].user_dict()
        return {"Authorization": "tma " + make_init_data("1:forged", user, int(time.time()))}
    player = {"host": HOST, "friend": FRIEND, "stranger": STRANGER}[who]
    init = make_init_data(
        stack.api.token, stack.api.players[player].user_dict(), int(time.time()) - 5
    )
    return {"Authorization": f"tma {init}"}


async def token_of(stack: Stack) -> str:
    view = await stack.runtime.application.deps.campaigns.require_current(GROUP)  # type: ignore[union-attr]
    return view.app_token


@pytest.mark.parametrize(
    ("who", "status"),
    [("host", 200), ("friend", 200), ("stranger", 403), ("forged", 401), ("missing", 401)],
)
async def test_every_route_checks_initdata_and_membership(
    stack: Stack, who: str, status: int
) -> None:
    token = await token_of(stack)
    headers = auth(stack, who)
    async with aiohttp.ClientSession() as http:
        for method, path, body in [
            ("GET", f"/app/c/{token}", None),
            ("GET", f"/api/c/{token}", None),
            ("POST", f"/api/c/{token}/edit", {"action": "rename", "payload": {}}),
        ]:
            async with http.request(
                method, stack.origin + path, headers=headers, json=body
            ) as response:
                text = await response.text()
                expected = 403 if status == 200 and method == "POST" else status
                assert response.status == expected, (method, path, text)
                if status != 200:
                    assert "Marsh" not in text and "members" not in text


async def test_members_see_the_players_and_json_has_no_other_campaigns(stack: Stack) -> None:
    token = await token_of(stack)
    async with aiohttp.ClientSession() as http:
        response = await http.get(f"{stack.origin}/api/c/{token}", headers=auth(stack, "friend"))
        data: dict[str, Any] = await response.json()
    assert data["system"] == "counter"
    assert {m["id"] for m in data["members"]} == {HOST, FRIEND}
    assert "app_token" not in str(data)


async def test_a_bad_body_is_refused_clearly(stack: Stack) -> None:
    token = await token_of(stack)
    async with aiohttp.ClientSession() as http:
        for body in (b"not json", b"[]", b'{"action": 5}', b'{"action": "x", "payload": 3}'):
            async with http.post(
                f"{stack.origin}/api/c/{token}/edit", data=body, headers=auth(stack, "host")
            ) as response:
                assert response.status == 400
                assert "error" in await response.json()


async def test_the_home_page_opens_the_campaign_for_members(stack: Stack) -> None:
    token = await token_of(stack)
    async with aiohttp.ClientSession() as http:
        async with http.get(
            f"{stack.origin}/app/home?startapp={token}", headers=auth(stack, "friend")
        ) as member:
            assert "Counter" in await member.text()
        async with http.get(
            f"{stack.origin}/app/home?startapp={token}", headers=auth(stack, "stranger")
        ) as stranger:
            page = await stranger.text()
            assert stranger.status == 200 and "Counter" not in page and "Hello" in page


@pytest.mark.parametrize(("who", "status"), [("friend", 200), ("stranger", 403), ("forged", 401)])
async def test_members_download_the_game_as_json(stack: Stack, who: str, status: int) -> None:
    token = await token_of(stack)
    async with aiohttp.ClientSession() as http:
        response = await http.get(f"{stack.origin}/api/c/{token}/export", headers=auth(stack, who))
        assert response.status == status
        if status == 200:
            assert "attachment" in response.headers["Content-Disposition"]
            data = await response.json()
            assert data["format"] == "stonetable-campaign" and len(data["members"]) == 2


async def test_the_home_page_says_whom_each_game_waits_on(stack: Stack) -> None:
    deps = stack.runtime.application.deps  # type: ignore[union-attr]
    chat = ChatRef(GROUP, "supergroup", "The Table")
    friend = stack.api.players[FRIEND].first_name
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{stack.origin}/app/home", headers=auth(stack, "host")) as page:
            assert "Counter" in (text := await page.text()) and "Waiting on" not in text
        await deps.campaigns.open_panel(chat, PlayerRef(FRIEND, friend), "count")
        async with http.get(f"{stack.origin}/app/home", headers=auth(stack, "host")) as page:
            shown = await page.text()  # the wait started as the panel opened
            assert f"⏳ Waiting on {html.escape(friend, quote=False)} since just now." in shown
