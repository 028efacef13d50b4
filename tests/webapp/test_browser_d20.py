"""The d20 sheet in the Mini App: headless Chromium at 360x740, and who may read or edit it."""

from __future__ import annotations

import re
import time
from typing import Any

import aiohttp
import pytest

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, PlayerRef
from core.store.models import Member
from tests.support.browser import chromium, phone_page, screenshot
from tests.support.stack import GROUP, Stack, running_stack
from webapp.auth import make_init_data

pytestmark = [pytest.mark.browser, pytest.mark.db]

ALICE, BO, CHIDI, ZOE = 1001, 1002, 1003, 1004  # Alice hosts: the Game Master
BO_NAME = "<b>Bo</b> & Co"
TABLE = ChatRef(GROUP, "supergroup", "The Table")


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db) as running:
        yield running


def ref(stack: Stack, user: int) -> PlayerRef:
    p = stack.api.players[user]
    return PlayerRef(p.id, p.first_name, p.last_name, p.username)


def init_data_for(stack: Stack, user: int, *, token: str | None = None, start: str = "") -> str:
    player = stack.api.players[user]
    return make_init_data(
        token or stack.api.token,
        player.user_dict(),
        int(time.time()) - 5,
        start_param=start,
        chat_type="supergroup" if start else "",
    )


async def d20_game(stack: Stack) -> str:
    assert stack.runtime.application is not None
    deps = stack.runtime.application.deps
    use: Campaigns = deps.campaigns
    view = await use.new_game(TABLE, ref(stack, ALICE), "d20")
    for user in (BO, CHIDI):
        await deps.play.mark_started(ref(stack, user))
        await use.join(TABLE, ref(stack, user))
    token = view.app_token
    await use.edit(token, ref(stack, BO), "ability.set", {"name": "Might", "strength": "strong"})
    await use.edit(token, ref(stack, BO), "proficiency.set", {"name": "Athletics", "bonus": 2})
    await use.edit(token, ref(stack, ALICE), "harm.add", {"player": BO, "strain": 2, "wounds": 6})
    return token


async def open_game(
    browser: Any, stack: Stack, user: int, token: str, heading: str, theme: str = "light"
) -> Any:
    """``user`` launches the game's Mini App on a phone; the page, once ``heading`` shows."""
    init_data = init_data_for(stack, user, start=token)
    page = await phone_page(browser, init_data=init_data, start_param=token, theme=theme)
    await page.goto(f"{stack.origin}/app")
    await page.get_by_role("heading", name=heading).wait_for()
    return page


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_a_player_sees_the_sheet_and_adds_a_proficiency(stack: Stack, theme: str) -> None:
    token = await d20_game(stack)
    async with chromium() as browser:
        page = await open_game(browser, stack, BO, token, "Plot points", theme)
        main = " ".join((await page.text_content("main") or "").split())
        assert "★ 3 lucky · ☾ 0 unlucky" in main
        assert f"{BO_NAME} (you)" in main  # the name is text, never markup
        assert "Wounds 6/16 · Injured" in main and "A failed check adds 1 strain." in main
        assert "Strain 2/3" in main and "Might" in main and "+2" in main
        assert "Lock the sheets" not in main and "+1 wound" not in main  # GM controls only
        # no <b> made of the name's markup (the portraits list shows the name, escaped, in bold)
        assert await page.locator("b").filter(has_text=re.compile(r"^Bo$")).count() == 0
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
        await screenshot(page, f"miniapp-d20-{theme}")

        form = page.locator("section", has_text=f"{BO_NAME} (you)").locator(
            "form[data-edit='proficiency.set']"
        )
        await form.get_by_label("New proficiency").fill(f"Lore <i>{theme}</i>")
        await form.get_by_label("Bonus").fill("3")
        await form.get_by_role("button", name="Add").click()
        await page.get_by_text(f"Lore <i>{theme}</i>").wait_for()
        # Chidi's sheet is shown, but without edit controls for Bo.
        chidi = page.locator("section", has_text="Chidi Okafor")
        assert await chidi.locator("form").count() == 0
    member = await Member.get(player__tg_id=BO)
    assert {"name": f"Lore <i>{theme}</i>", "bonus": 3} in member.sheet["proficiencies"]


async def test_the_gm_adds_a_wound_from_the_sheet(stack: Stack) -> None:
    token = await d20_game(stack)
    async with chromium() as browser:
        page = await open_game(browser, stack, ALICE, token, "Game Master", "dark")
        bo = page.locator("section", has_text=BO_NAME)
        await bo.get_by_role("button", name="+1 wound").click()
        await page.get_by_text("Wounds 7/16").wait_for()
        await screenshot(page, "miniapp-d20-gm-dark")
    member = await Member.get(player__tg_id=BO)
    assert member.sheet["wounds"] == 7


async def test_the_api_answers_members_only_and_edits_follow_the_rules(stack: Stack) -> None:
    token = await d20_game(stack)
    url = f"{stack.origin}/api/c/{token}"

    def auth(user: int, bot_token: str | None = None) -> dict[str, str]:
        return {"Authorization": "tma " + init_data_for(stack, user, token=bot_token)}

    async with aiohttp.ClientSession() as http:
        async with http.get(url, headers=auth(BO)) as response:
            assert response.status == 200
            body = await response.json()
        assert body["system"] == "d20"
        assert body["sheet"]["pool"] == {
            "lucky": 3,
            "unlucky": 0,
            "pips": ["lucky"] * 3,
            "ready": True,
        }
        bo = body["sheet"]["characters"][0]
        assert bo["you"] and bo["name"] == BO_NAME and bo["band_label"] == "Injured"

        async with http.get(url, headers=auth(ZOE)) as response:
            assert response.status == 403
            assert BO_NAME not in await response.text()
        async with http.get(url, headers=auth(BO, "999:forged")) as response:
            assert response.status == 401
        async with http.get(url) as response:
            assert response.status == 401

        edit = {"action": "harm.heal", "payload": {"player": BO, "wounds": 6}}
        async with http.post(url + "/edit", json=edit, headers=auth(BO)) as response:
            assert response.status == 403
            assert "Only the Game Master" in (await response.json())["error"]
        steal = {
            "action": "ability.set",
            "payload": {"player": CHIDI, "name": "Might", "strength": "weak"},
        }
        async with http.post(url + "/edit", json=steal, headers=auth(BO)) as response:
            assert response.status == 403
        async with http.post(url + "/edit", json=steal, headers=auth(ZOE)) as response:
            assert response.status == 403
        async with http.post(url + "/edit", json=steal, headers=auth(BO, "999:forged")) as response:
            assert response.status == 401
        bad = {"action": "proficiency.set", "payload": {"name": "Lore", "bonus": 99}}
        async with http.post(url + "/edit", json=bad, headers=auth(BO)) as response:
            assert response.status == 400
        lock = {"action": "sheets.lock", "payload": {"locked": True}}
        async with http.post(url + "/edit", json=lock, headers=auth(ALICE)) as response:
            assert response.status == 200
            assert (await response.json())["sheet"]["locked"] is True
        own = {"action": "proficiency.set", "payload": {"name": "Lore", "bonus": 1}}
        async with http.post(url + "/edit", json=own, headers=auth(BO)) as response:
            assert response.status == 403
            assert "locked" in (await response.json())["error"]
    assert (await Member.get(player__tg_id=BO)).sheet["wounds"] == 6
    assert (await Member.get(player__tg_id=CHIDI)).sheet["abilities"] == []
