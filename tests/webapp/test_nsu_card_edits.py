"""The Mini App's My cards tab: an author edits their own cards until the map is dealt."""

from __future__ import annotations

import pytest

from core.store.models import Campaign
from tests.support.browser import chromium, screenshot
from tests.support.stack import Stack, running_stack
from tests.webapp.test_nsu_app import ALICE, BO, fits_the_phone, open_app
from tests.webapp.test_nsu_dealing import SECRET, begin, cards_written, edit, stored
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.db, pytest.mark.e2e, pytest.mark.browser]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_an_author_edits_a_saved_card_on_the_my_cards_tab(stack: Stack, theme: str) -> None:
    token, campaign_id, _ = await begin(stack)
    await Campaign.filter(id=campaign_id).update(state=cards_written())
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, theme)
        await page.get_by_role("button", name="My cards").click()
        mine = page.locator("article.my-card", has_text=SECRET)
        await mine.get_by_text("✏️ Edit this card").click()
        form = mine.locator("form")
        assert await form.get_by_label("Title").input_value() == SECRET  # as saved
        await form.get_by_label("Title").fill("Glass Orchard, in bloom")
        await form.get_by_role("button", name="Save the changes").click()
        await page.get_by_role("heading", name="Glass Orchard, in bloom").wait_for()
        await fits_the_phone(page)
        await screenshot(page, f"nsu-card-edited-{theme}")
    state, _ = await stored(campaign_id)
    titles = [c["title"] for c in state["setup"]["world"]["cards"]]
    assert "Glass Orchard, in bloom" in titles and SECRET not in titles

    # Not someone else's card, and not once the map is dealt.
    alices = next(c for c in state["setup"]["world"]["cards"] if c["author_id"] == ALICE)
    fields = {k: "x" for k in ("title", "description", "collateral_target")}
    payload = {"card_id": alices["id"], **fields, "danger_type": "x", "treasure_type": "x"}
    status, body = await edit(stack, BO, token, "setup.revise", payload)
    assert status == 403 and "Only its author" in body["error"]
    assert (await edit(stack, BO, token, "setup.deal", {"columns": 3}))[0] == 200
    status, body = await edit(stack, ALICE, token, "setup.revise", payload)
    assert status == 403 and "map is dealt" in body["error"]
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, theme)
        await page.get_by_role("button", name="My cards").click()
        await page.get_by_role("heading", name="Glass Orchard, in bloom").wait_for()
        assert await page.get_by_text("✏️ Edit this card").count() == 0
