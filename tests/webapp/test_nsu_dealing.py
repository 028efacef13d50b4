"""Dealing the map and rolling Danger and Reward from the Mini App, as in the group.

Alice, Bo and Chidi build the world (Alice began it with /begin, so the group has
its worldbuilding panel); each has written two locations. Zoë joined after the
worldbuilding began: she is in the game but not building this world.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from core.rules.nsu.campaign import NsuCampaign, Phase
from core.rules.nsu.setup import SetupState, SetupStep
from core.rules.nsu.world import World
from core.store.models import Campaign
from core.store.models import Panel as PanelRow
from tests.support.browser import chromium, screenshot
from tests.support.nsu_table import card
from tests.support.stack import GROUP, Stack, labels, running_stack
from tests.webapp.test_nsu_app import ALICE, BO, CHIDI, ZOE, fetch, fits_the_phone, open_app, say
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.db, pytest.mark.e2e]

BUILDERS = (ALICE, BO, CHIDI)
SECRET = "Glass Orchard"  # the face of Alice's first card


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


def cards_written() -> dict[str, Any]:
    """Worldbuilding with every location written: the map is next."""
    titles = (SECRET, "Salt Caves", "Drowned Mill", "Signal Tower", "Bone Field", "Quiet Pier")
    cards = tuple(
        replace(
            card(f"draft-{i + 1}", BUILDERS[i // 2], title),
            danger=None,
            reward=None,
        )
        for i, title in enumerate(titles)
    )
    setup = SetupState(
        players=BUILDERS,
        step=SetupStep.MAP,
        world=World(BUILDERS, cards=cards),
        drafts_written=len(cards),
    )
    return NsuCampaign(phase=Phase.SETUP, setup=setup).to_dict()


async def begin(stack: Stack) -> tuple[str, int, dict[str, Any]]:
    """The game, its group panel, and the campaign at the worldbuilding's first step."""
    await say(stack, ALICE, "/newgame nsu")
    for user in (BO, CHIDI):
        await say(stack, user, "/join")
    panel = await say(stack, ALICE, "/begin")
    assert "Worldbuilding" in panel["text"]
    await say(stack, ZOE, "/join")
    assert stack.runtime.application is not None
    view = await stack.runtime.application.deps.campaigns.require_current(GROUP)
    return view.app_token, view.id, panel


async def stored(campaign_id: int) -> tuple[dict[str, Any], int]:
    row = await Campaign.get(id=campaign_id)
    return row.state, row.version


async def edit(stack: Stack, who: str | int, token: str, action: str, payload: Any) -> Any:
    body = {"action": action, "payload": payload}
    status, raw = await fetch(stack, "POST", f"/api/c/{token}/edit", who, token, json=body)
    return status, json.loads(raw) if raw.startswith(b"{") else raw


async def panel_shows(stack: Stack, panel: dict[str, Any], text: str) -> dict[str, Any]:
    """The group's worldbuilding panel, once its message was edited to show ``text``."""
    return await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == panel["message_id"] and text in m["text"], timeout=5
    )


async def test_the_map_is_dealt_and_rolled_through_the_api_by_those_building_the_world(
    stack: Stack,
) -> None:
    token, campaign_id, panel = await begin(stack)

    # Too early: the table is still talking about the tone. Nothing changes.
    before = await stored(campaign_id)
    for action, payload in (("setup.deal", {"columns": 3}), ("setup.roll", {})):
        status, body = await edit(stack, BO, token, action, payload)
        assert status == 403 and "busy with the tone talk" in body["error"]
    assert await stored(campaign_id) == before

    await Campaign.filter(id=campaign_id).update(state=cards_written())
    before = await stored(campaign_id)
    refused: list[tuple[str | int, Any, int]] = [
        ("forged", {"columns": 3}, 401),
        ("missing", {"columns": 3}, 401),
        (ZOE, {"columns": 3}, 403),  # in the game, not building this world
        (BO, {"columns": 0}, 400),
        (BO, {"columns": "wide"}, 400),
        (BO, [3], 400),
    ]
    for who, payload, code in refused:
        status, body = await edit(stack, who, token, "setup.deal", payload)
        assert status == code, (who, payload, body)
    status, body = await edit(stack, ZOE, token, "setup.deal", {"columns": 3})
    assert "not building this world" in body["error"]
    status, body = await edit(stack, BO, token, "setup.roll", {})
    assert status == 403 and "dealing the map" in body["error"]
    assert await stored(campaign_id) == before

    status, _ = await edit(stack, BO, token, "setup.deal", {"columns": 3})
    assert status == 200
    dealt = await panel_shows(stack, panel, "rolling Danger and Reward")
    assert "L1 D? R?" in dealt["text"] and SECRET not in dealt["text"]
    status, body = await edit(stack, CHIDI, token, "setup.deal", {"columns": 2})
    assert status == 403  # dealt once, not twice

    status, raw = await fetch(stack, "GET", f"/api/c/{token}/map", ALICE, token)
    seen = json.loads(raw)
    cells = [c for row in seen["rows"] for c in row if c is not None]
    assert len(cells) == 6 and seen["dealing"]["step"] == "danger_and_reward"
    assert sorted(c.get("title", "") for c in cells if c["face_visible"]) == [
        SECRET,
        "Salt Caves",
    ]  # her own two; the other four show only their backs
    assert all("title" not in c for c in cells if not c["face_visible"])
    assert all(c["danger"] is None and c["reward"] is None for c in cells)

    status, _ = await edit(stack, ZOE, token, "setup.roll", {})
    assert status == 403
    status, _ = await edit(stack, CHIDI, token, "setup.roll", {})
    assert status == 200
    built = await panel_shows(stack, panel, "The world is built")
    assert SECRET not in built["text"] and "D?" not in built["text"]
    # Worldbuilding is over, as after the group's last press: the panel offers what comes next.
    assert labels(built) == ["🧍 My character", "🧭 Set out", "🛑 X-card", "✊ Knock"]
    row = await PanelRow.get(campaign_id=campaign_id, message_id=panel["message_id"])
    assert row.closed
    state, _ = await stored(campaign_id)
    assert state["phase"] == "adventure" and state["setup"] is None
    status, raw = await fetch(stack, "GET", f"/api/c/{token}/map", BO, token)
    cells = [c for row in json.loads(raw)["rows"] for c in row if c is not None]
    assert all(c["danger"] and c["reward"] for c in cells)
    assert SECRET.encode() not in raw  # Alice's card: Bo sees its back only
    status, _ = await edit(stack, CHIDI, token, "setup.roll", {})
    assert status == 403  # the world is built


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_a_player_deals_and_rolls_on_the_map_page(stack: Stack, theme: str) -> None:
    token, campaign_id, panel = await begin(stack)
    await Campaign.filter(id=campaign_id).update(state=cards_written())
    async with chromium() as browser:
        page = await open_app(browser, stack, BO, token, theme)
        await page.get_by_role("button", name="Map").click()
        await page.get_by_role("heading", name="Deal the map").wait_for()
        await fits_the_phone(page)
        await screenshot(page, f"nsu-deal-{theme}")
        await page.get_by_role("button", name="3 wide").click()
        await page.get_by_role("heading", name="Danger and Reward").wait_for()
        assert await page.locator(".grid .card-tile").count() == 6
        assert await page.locator(".card-tile.face").count() == 2  # Bo's own two
        assert SECRET not in await page.content()
        await panel_shows(stack, panel, "rolling Danger and Reward")

        await page.get_by_role("button", name="Roll Danger and Reward").click()
        await page.get_by_role("heading", name="Danger and Reward").wait_for(state="detached")
        await page.get_by_text("The party is at home").wait_for()
        dangers = await page.locator(".card-tile .d").all_inner_texts()
        assert len(dangers) == 6 and all(d.startswith("D") and d != "?" for d in dangers)
        assert SECRET not in await page.content()
        await fits_the_phone(page)
        await screenshot(page, f"nsu-rolled-{theme}")
    await panel_shows(stack, panel, "The world is built")
