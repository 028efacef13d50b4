"""The threat dice sheet in the Mini App: edits in Chromium at phone size, and who sees what."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import pytest

from core.store.models import Member
from tests.support.browser import chromium, screenshot
from tests.support.mini_app import init_for, open_app
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.db]

ALICE, BO, CHIDI, ZOE = 1001, 1002, 1003, 1004


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def say(stack: Stack, user: int, text: str) -> dict:
    await stack.api.send_text(user, GROUP, text)
    return await stack.api.wait_for_message(GROUP, timeout=10)


async def start_game(stack: Stack) -> str:
    await say(stack, ALICE, "/newgame threat")
    for user in (BO, CHIDI):
        await say(stack, user, "/join")
    assert stack.runtime.application is not None
    view = await stack.runtime.application.deps.campaigns.require_current(GROUP)
    return view.app_token


async def api(
    stack: Stack, init: str, token: str, edit: dict[str, Any] | None = None
) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"tma {init}"}
    async with aiohttp.ClientSession() as session:
        if edit is None:
            async with session.get(f"{stack.origin}/api/c/{token}", headers=headers) as response:
                return response.status, await response.json()
        async with session.post(
            f"{stack.origin}/api/c/{token}/edit", headers=headers, json=edit
        ) as response:
            return response.status, await response.json()


async def until(typing: Callable[[], Awaitable[None]], shown: Any) -> None:
    """Type and submit until ``shown`` appears.

    The page reloads itself when the game changes (live updates); a reload that
    was already under way when typing began can replace the typed form, as it
    would for a person, who then types again.
    """
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    for _ in range(3):
        await typing()
        try:
            await shown.wait_for(timeout=8_000)
            return
        except PlaywrightTimeout:
            continue
    await shown.wait_for()


async def sheet_of(user: int) -> dict[str, Any]:
    return (await Member.get(player__tg_id=user, active=True)).sheet


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_a_player_adds_an_approach_and_moves_momentum_on_a_phone(
    stack: Stack, theme: str
) -> None:
    token = await start_game(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, BO, token, theme)
        await page.get_by_role("heading", name="Your character").wait_for()
        assert "No approaches yet" in await page.inner_text("[data-sheet='1002']")

        async def add_approach() -> None:
            await page.fill("input[name=name]", "<i>Guile</i>")
            await page.fill("input[name=value]", "3")
            await page.get_by_role("button", name="Add").click()

        async def save_notes() -> None:
            await page.fill("textarea[name=notes]", "Owes Chidi a favour")
            await page.get_by_role("button", name="Save notes").click()

        await until(add_approach, page.get_by_text("<i>Guile</i>", exact=True))
        await page.get_by_role("button", name="+1 Momentum").first.click()
        await page.locator("[data-sheet='1002'] [data-momentum]", has_text="3").wait_for()
        await until(save_notes, page.locator("textarea[name=notes]", has_text="Owes Chidi"))

        sheet = await sheet_of(BO)
        assert sheet["approaches"] == [["<i>Guile</i>", 3]] and sheet["momentum"] == 3
        assert sheet["notes"] == "Owes Chidi a favour"
        # Chidi's sheet is shown read-only: no edit buttons in it.
        assert await page.locator("[data-sheet='1003'] [data-edit]").count() == 0
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
        await screenshot(page, f"miniapp-threat-sheet-{theme}")


@pytest.mark.browser
async def test_the_gm_sets_a_players_momentum_by_tapping_the_track(stack: Stack) -> None:
    token = await start_game(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, "dark")
        await page.get_by_role("heading", name="You run this game").wait_for()
        await (
            page.locator("[data-sheet='1002']")
            .get_by_role("button", name="Set Momentum to 5")
            .click()
        )
        await page.locator("[data-sheet='1002'] [data-momentum]", has_text="5").wait_for()
        await screenshot(page, "miniapp-threat-gm-dark")
    assert (await sheet_of(BO))["momentum"] == 5


async def test_members_see_what_they_may_and_others_are_refused(stack: Stack) -> None:
    token = await start_game(stack)
    await api(
        stack,
        init_for(stack, BO, token),
        token,
        {"action": "notes", "payload": {"notes": "secret plan"}},
    )

    status, body = await api(stack, init_for(stack, CHIDI, token), token)
    assert status == 200 and body["system"] == "threat"
    bo = next(s for s in body["sheet"]["others"] if s["player"] == BO)
    assert bo["notes"] is None and bo["can"] == []  # read-only, notes private
    assert body["sheet"]["me"]["player"] == CHIDI

    status, body = await api(stack, init_for(stack, ALICE, token), token)
    assert body["sheet"]["me"] is None and body["sheet"]["gm"]
    assert "harm.heal" in next(s for s in body["sheet"]["others"] if s["player"] == BO)["can"]

    status, body = await api(stack, init_for(stack, ZOE, token), token)
    assert status == 403 and "not in this game" in body["error"]
    status, _ = await api(stack, init_for(stack, BO, token, bot_token="999:forged"), token)
    assert status == 401

    status, body = await api(
        stack,
        init_for(stack, CHIDI, token),
        token,
        {"action": "notes", "payload": {"player": BO, "notes": "ha"}},
    )
    assert status == 403 and "your own sheet" in body["error"]
    status, _ = await api(
        stack, init_for(stack, ZOE, token), token, {"action": "harm.take", "payload": {}}
    )
    assert status == 403
    status, _ = await api(
        stack,
        init_for(stack, BO, token, bot_token="999:forged"),
        token,
        {"action": "harm.take", "payload": {}},
    )
    assert status == 401
    status, body = await api(
        stack,
        init_for(stack, BO, token),
        token,
        {"action": "approach.set", "payload": {"name": "X", "value": 9}},
    )
    assert status == 400 and "0 to 6" in body["error"]
    assert (await sheet_of(BO))["notes"] == "secret plan" and (await sheet_of(BO))["harm"] == 0
