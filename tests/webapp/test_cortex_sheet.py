"""The Cortex sheet in the Mini App: who sees what, edits through the rules, phone size."""

from __future__ import annotations

import time
from typing import Any

import aiohttp
import pytest

from core.campaigns.play import ChatRef, PlayerRef
from tests.support.browser import chromium, phone_page, screenshot
from tests.support.stack import GROUP, Stack, running_stack
from webapp.auth import make_init_data

pytestmark = [pytest.mark.db]

HOST, FRIEND, STRANGER = 1001, 1002, 1003  # the host is the Watchtower
CHAT = ChatRef(GROUP, "supergroup", "The Table")


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db) as running:
        deps = running.runtime.application.deps  # type: ignore[union-attr]
        players = running.api.players
        await deps.campaigns.new_game(CHAT, PlayerRef(HOST, players[HOST].first_name), "cortex")
        friend = PlayerRef(FRIEND, players[FRIEND].first_name)
        await deps.play.mark_started(friend)
        await deps.campaigns.join(CHAT, friend)
        yield running


def init_data(stack: Stack, user: int, *, bot_token: str | None = None, start: str = "") -> str:
    return make_init_data(
        bot_token or stack.api.token,
        stack.api.players[user].user_dict(),
        int(time.time()) - 5,
        start_param=start,
        chat_type="supergroup" if start else "",
    )


def auth(stack: Stack, who: str) -> dict[str, str]:
    if who == "missing":
        return {}
    if who == "forged":
        return {"Authorization": "tma " + init_data(stack, HOST, bot_token="1:forged")}
    user = {"watchtower": HOST, "lead": FRIEND, "stranger": STRANGER}[who]
    return {"Authorization": "tma " + init_data(stack, user)}


async def token_of(stack: Stack) -> str:
    deps = stack.runtime.application.deps  # type: ignore[union-attr]
    return (await deps.campaigns.require_current(GROUP)).app_token


async def edit(stack: Stack, who: str, action: str, **payload: Any) -> tuple[int, dict[str, Any]]:
    token = await token_of(stack)
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{stack.origin}/api/c/{token}/edit",
            headers=auth(stack, who),
            json={"action": action, "payload": payload},
        ) as response,
    ):
        return response.status, await response.json()


async def sheet_json(stack: Stack, who: str) -> dict[str, Any]:
    token = await token_of(stack)
    url = f"{stack.origin}/api/c/{token}"
    async with aiohttp.ClientSession() as http, http.get(url, headers=auth(stack, who)) as response:
        assert response.status == 200
        return dict((await response.json())["sheet"])


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("who", "page", "edit_status"),
    [
        ("lead", 200, 200),
        ("watchtower", 200, 403),  # the Watchtower has no Lead to write a Value on
        ("stranger", 403, 403),
        ("forged", 401, 401),
        ("missing", 401, 401),
    ],
)
async def test_the_cortex_page_and_its_edits_check_initdata_and_membership(
    stack: Stack, who: str, page: int, edit_status: int
) -> None:
    token = await token_of(stack)
    async with aiohttp.ClientSession() as http:
        for path in (f"/app/c/{token}", f"/api/c/{token}"):
            async with http.get(stack.origin + path, headers=auth(stack, who)) as response:
                text = await response.text()
                assert response.status == page, (path, text)
                if page != 200:
                    assert "Trouble" not in text and "plot_points" not in text
    status, _ = await edit(stack, who, "trait.set", box="value", name="Justice", die="d8")
    assert status == edit_status


@pytest.mark.e2e
async def test_each_viewer_sees_what_the_table_should(stack: Stack) -> None:
    assert (await edit(stack, "watchtower", "feature.add", name="Lex"))[0] == 200
    for line in ("Lex: value Power d12", "Lex: limit Paranoid d8"):
        assert (await edit(stack, "watchtower", "text", text=line))[0] == 200
    assert (await edit(stack, "lead", "text", text="value Justice d10"))[0] == 200
    status, body = await edit(stack, "lead", "text", text="Lex: value Hope d6")
    assert status == 403 and "player" in body["error"]

    lead = await sheet_json(stack, "lead")
    mine, lex = lead["sheets"][0], next(s for s in lead["sheets"] if s["name"] == "Lex")
    assert mine["mine"] and mine["growth"] == [] and "trait.set" in mine["can"]
    assert [b["key"] for b in lex["boxes"]] == ["limit"] and lex["can"] == []
    assert not lead["table_can"]

    watchtower = await sheet_json(stack, "watchtower")
    lex = next(s for s in watchtower["sheets"] if s["name"] == "Lex")
    assert lex["boxes"][0]["traits"] == [{"name": "Power", "die": "d12", "note": ""}]
    other = next(s for s in watchtower["sheets"] if s["lead"])
    assert other["growth"] is None and other["can"] == []  # not the Watchtower's to change
    assert "scene.end" in watchtower["table_can"]


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_a_lead_writes_a_trait_on_a_phone(stack: Stack, theme: str) -> None:
    await edit(stack, "watchtower", "feature.add", name="Lex")
    token = await token_of(stack)
    async with chromium() as browser:
        page = await phone_page(
            browser, init_data=init_data(stack, FRIEND, start=token), theme=theme, start_param=token
        )
        await page.goto(f"{stack.origin}/app")
        form = page.locator("form[data-edit='trait.set']").first
        await form.wait_for()
        assert await page.locator("main").get_attribute("data-status") == "200"
        assert "Trouble" in await page.inner_text("main")
        await form.locator("select[name=box]").select_option("asset")
        await form.locator("select[name=die]").select_option("d10")
        await form.locator("input[name=name]").fill("<b>Farm</b> Boy")
        await form.locator("select[name=kind]").select_option("ability")
        await form.locator("button[type=submit]").click()
        item = page.locator(".traits li", has_text="<b>Farm</b> Boy")
        await item.wait_for()
        assert "d10" in await item.inner_text() and "ability" in await item.inner_text()
        assert await page.locator("main b", has_text="Farm").count() == 0  # text, not HTML
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(33, 33, 33)" if theme == "dark" else "rgb(255, 255, 255)")
        await screenshot(page, f"miniapp-cortex-{theme}")


async def page_html(stack: Stack, who: str) -> str:
    token = await token_of(stack)
    url = f"{stack.origin}/app/c/{token}"
    async with aiohttp.ClientSession() as http, http.get(url, headers=auth(stack, who)) as response:
        assert response.status == 200
        return await response.text()


@pytest.mark.e2e
async def test_a_russian_watchtower_reads_and_writes_the_stress_types_in_russian(
    stack: Stack,
) -> None:
    stack.api.players[HOST].language_code = "ru"
    page = await page_html(stack, "watchtower")
    assert "Виды Стресса: Страх, Гнев, Усталость, Травма, Неуверенность" in page
    assert 'value="Страх, Гнев, Усталость, Травма, Неуверенность"' in page  # the form

    # Saved as the form shows them, with one of her own words and one in English
    types = "страх, Гнев, Голод, Injured"
    status, body = await edit(stack, "watchtower", "settings.stress", types=types)
    assert status == 200, body
    assert body["sheet"]["stress_types"] == ["Afraid", "Angry", "Голод", "Injured"]
    page = await page_html(stack, "watchtower")
    assert 'value="Страх, Гнев, Голод, Травма"' in page

    # The English player beside her reads English, her own word as she wrote it
    lead = await page_html(stack, "lead")
    assert "Stress types: Afraid, Angry, Голод, Injured" in lead
    stack.api.players[HOST].language_code = "en"
    status, body = await edit(stack, "watchtower", "settings.stress", types="Afraid, Страх, Hungry")
    assert status == 200, body
    assert body["sheet"]["stress_types"] == ["Afraid", "Страх", "Hungry"]  # English reads English
