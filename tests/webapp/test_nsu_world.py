"""Worldbuilding from the Mini App's World page, step by step, as in the group.

Alice, Bo and Chidi build the world (Alice began it with /begin, so the group has
its worldbuilding panel); Zoë joined afterwards and is not building this world.
Every step from the tone to the abundance goes through the rules' ``setup.*``
edits; the group's panel follows along.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.browser import chromium, screenshot
from tests.support.stack import Stack, running_stack
from tests.webapp.test_nsu_app import (
    ALICE,
    BO,
    CHIDI,
    ZOE,
    fetch,
    fits_the_phone,
    open_app,
    start_table,
)
from tests.webapp.test_nsu_dealing import begin, edit, panel_shows, stored
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.db, pytest.mark.e2e]

SCRIPT = "<script>alert(1)</script>"


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def ok(stack: Stack, who: int, token: str, action: str, payload: Any) -> None:
    status, body = await edit(stack, who, token, action, payload)
    assert status == 200, (who, action, payload, body)


async def refused(
    stack: Stack, campaign_id: int, who: int | str, token: str, action: str, payload: Any
) -> tuple[int, str]:
    """A refused edit: a friendly error, and nothing stored changes."""
    before = await stored(campaign_id)
    status, body = await edit(stack, who, token, action, payload)
    assert status in (400, 401, 403), (who, action, body)
    assert await stored(campaign_id) == before
    return status, body["error"]


async def page(stack: Stack, who: int, token: str) -> str:
    status, raw = await fetch(stack, "GET", f"/app/c/{token}/world", who, token)
    assert status == 200, raw
    return raw.decode()


async def agree_on_a_tone(stack: Stack, token: str) -> None:
    tone = {"notes": "Hopeful and strange", "tools": ["x_card", "knocks"]}
    await ok(stack, ALICE, token, "setup.tone", tone)
    for who in (BO, CHIDI):
        await ok(stack, who, token, "setup.agree", {})


async def test_the_whole_worldbuilding_up_to_the_locations_through_the_world_page_edits(
    stack: Stack,
) -> None:
    token, cid, panel = await begin(stack)
    html = await page(stack, BO, token)
    assert "Step 1 of 9" in html and "Write the tone down" in html and "Agree" not in html

    # The tone: wrong step, no tools, an outsider, agreeing twice.
    status, error = await refused(stack, cid, BO, token, "setup.ban", {"text": "spiders"})
    assert status == 403 and "busy with the tone talk" in error
    _, error = await refused(stack, cid, ALICE, token, "setup.tone", {"notes": "x", "tools": []})
    assert "safety tool" in error
    await refused(stack, cid, ALICE, token, "setup.tone", {"notes": "x", "tools": ["sword"]})
    _, error = await refused(stack, cid, ZOE, token, "setup.tone", {"notes": "x", "tools": []})
    await ok(stack, ALICE, token, "setup.tone", {"notes": "Hopeful " + SCRIPT, "tools": ["knocks"]})
    await panel_shows(stack, panel, "Proposed")
    _, error = await refused(stack, cid, ALICE, token, "setup.agree", {})
    assert "done your part" in error
    await refused(stack, cid, ZOE, token, "setup.agree", {})
    html = await page(stack, BO, token)
    assert "👍 Agree" in html and SCRIPT not in html and "&lt;script&gt;" in html
    # The proposer has agreed; only the others are waited for (never Zoë, who isn't building).
    agreement = html.split('<p class="hint agreement">', 1)[1].split("</p>", 1)[0]
    assert (
        agreement
        == "Agreed: Alice Marsh · waiting for &lt;b&gt;Bo&lt;/b&gt; &amp; Co, Chidi Okafor to agree"
    )
    assert "👍 Agree" not in await page(stack, ALICE, token)
    for who in (BO, CHIDI):
        await ok(stack, who, token, "setup.agree", {})
    await panel_shows(stack, panel, "banning story elements")

    # Bans: one each or a pass, never twice.
    await ok(stack, ALICE, token, "setup.ban", {"text": SCRIPT})
    _, error = await refused(stack, cid, ALICE, token, "setup.pass_ban", {})
    assert "waiting for the others" in error
    await refused(stack, cid, BO, token, "setup.ban", {"text": "   "})
    html = await page(stack, ALICE, token)
    assert "Ban it" not in html and "waiting for the others" in html
    assert SCRIPT not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    await ok(stack, BO, token, "setup.pass_ban", {})
    await ok(stack, CHIDI, token, "setup.ban", {"text": "Ghosts"})
    await panel_shows(stack, panel, "drawing the settlement")

    # The settlement: Alice speaks first unless someone picks another; turns go round.
    html = await page(stack, CHIDI, token)
    assert "&lt;b&gt;Bo&lt;/b&gt; &amp; Co first</button>" in html  # his name, escaped
    _, error = await refused(stack, cid, BO, token, "setup.statement", {"text": "A well"})
    assert "another player's turn" in error
    await refused(stack, cid, CHIDI, token, "setup.first_speaker", {"player_id": ZOE})
    await ok(stack, CHIDI, token, "setup.first_speaker", {"player_id": BO})
    assert "Your</b> turn" in await page(stack, BO, token)
    await ok(stack, BO, token, "setup.statement", {"text": "A bell tower with no bell"})
    await refused(stack, cid, CHIDI, token, "setup.first_speaker", {"player_id": ALICE})
    await ok(stack, CHIDI, token, "setup.statement", {"text": "The well sings", "builds_on": 0})
    await ok(stack, ALICE, token, "setup.pass_statement", {})
    html = await page(stack, BO, token)
    assert "The round ends when two players in a row pass" in html
    assert "the last player passed: one more pass ends the round" in html
    await refused(stack, cid, ALICE, token, "setup.pass_statement", {})
    await ok(stack, BO, token, "setup.card_full", {})
    await panel_shows(stack, panel, "the scope of adventures")

    # Scope: answers to the questions and free notes, by anyone, until someone finishes.
    await refused(stack, cid, ALICE, token, "setup.scope", {"question": "weather", "text": "x"})
    await ok(stack, ALICE, token, "setup.scope", {"question": "technology", "text": "Steam"})
    await ok(stack, BO, token, "setup.scope", {"question": None, "text": "Boats at night"})
    html = await page(stack, CHIDI, token)
    assert "What technology does the settlement have?</dt><dd>Steam" in html
    assert '<option value="technology">' not in html and '<option value="travel_time">' in html
    await refused(stack, cid, ZOE, token, "setup.finish_scope", {})
    await ok(stack, CHIDI, token, "setup.finish_scope", {})
    await panel_shows(stack, panel, "naming resources")

    # Resources: one each first, then anyone, up to five.
    await ok(stack, ALICE, token, "setup.resource", {"name": "Water"})
    _, error = await refused(stack, cid, ALICE, token, "setup.resource", {"name": "Salt"})
    assert "waiting for the others" in error
    _, error = await refused(stack, cid, BO, token, "setup.resource", {"name": "water"})
    assert "already on the list" in error
    for who, name in ((BO, "Salt"), (CHIDI, "Rope"), (ALICE, "Light"), (ALICE, "Seeds")):
        await ok(stack, who, token, "setup.resource", {"name": name})
    await panel_shows(stack, panel, "choosing the abundance")

    # The abundance: one of the five.
    await refused(stack, cid, BO, token, "setup.abundance", {"name": "Gold"})
    await refused(stack, cid, ZOE, token, "setup.abundance", {"name": "Water"})
    await ok(stack, BO, token, "setup.abundance", {"name": "Water"})
    await panel_shows(stack, panel, "writing locations")

    html = await page(stack, CHIDI, token)
    assert "Step 7 of 9" in html and "Write my locations" in html
    for text in ("Hopeful", "Ghosts", "A bell tower with no bell", "↳1", "Boats at night"):
        assert text in html
    assert 'Water <span class="badge">abundant</span>' in html
    assert 'Salt <span class="hint">scarce</span>' in html
    state, _ = await stored(cid)
    assert state["setup"]["step"] == "locations"


async def test_an_outsider_follows_along_without_controls(stack: Stack) -> None:
    token, _, _ = await begin(stack)
    await agree_on_a_tone(stack, token)
    status, raw = await fetch(stack, "GET", f"/app/c/{token}/world", ZOE, token)
    html = raw.decode()
    assert status == 200  # Zoë is in the game, not building this world
    assert "not building this world" in html and "Step 2 of 9" in html
    assert "<form" not in html and "data-edit" not in html
    for who in ("forged", "missing"):
        status, _ = await fetch(stack, "GET", f"/app/c/{token}/world", who, token)
        assert status == 401


async def test_once_the_world_is_built_the_page_shows_it_read_only(stack: Stack) -> None:
    token, _ = await start_table(stack)
    html = await page(stack, BO, token)
    assert "The world is built" in html and "<h2>The world</h2>" in html
    assert "<h3>Resources</h3>" in html
    assert "<form" not in html and "data-edit" not in html and "Step " not in html
    assert "Drowned" not in html and "Glass Orchard" not in html  # no card face, ever


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_a_player_bans_something_on_the_world_page(stack: Stack, theme: str) -> None:
    token, cid, panel = await begin(stack)
    await agree_on_a_tone(stack, token)
    await ok(stack, ALICE, token, "setup.ban", {"text": SCRIPT})
    async with chromium() as browser:
        tab = await open_app(browser, stack, BO, token, theme)
        await tab.get_by_role("button", name="World").click()
        await tab.get_by_role("heading", name="Step 2 of 9: banning story elements").wait_for()
        await fits_the_phone(tab)
        await tab.get_by_label("Ban").fill("<i>Wasps</i>")
        await tab.get_by_role("button", name="Ban it").click()
        await tab.get_by_text("You've had your say").wait_for()
        bans = await tab.locator(".bans li").all_inner_texts()
        assert [b.split(" — ")[0] for b in bans] == [SCRIPT, "<i>Wasps</i>"]
        assert await tab.locator(".bans i, .bans script").count() == 0
        await fits_the_phone(tab)
        await screenshot(tab, f"nsu-world-bans-{theme}")
        await panel_shows(stack, panel, "Wasps")

        # Chidi passes in the group's stead: the open page follows (live update).
        await ok(stack, CHIDI, token, "setup.pass_ban", {})
        await tab.get_by_role("heading", name="Step 3 of 9: drawing the settlement").wait_for()
        await tab.get_by_role("button", name="Chidi").wait_for()  # who speaks first
        await fits_the_phone(tab)
    state, _ = await stored(cid)
    assert state["setup"]["step"] == "settlement"
    assert [b["text"] for b in state["setup"]["world"]["bans"]] == [SCRIPT, "<i>Wasps</i>"]


@pytest.mark.browser
async def test_a_player_writes_the_tone_with_the_safety_tool_toggles(stack: Stack) -> None:
    token, cid, panel = await begin(stack)
    async with chromium() as browser:
        tab = await open_app(browser, stack, CHIDI, token, "light")
        await tab.get_by_role("button", name="World").click()
        await tab.get_by_role("heading", name="Step 1 of 9: the tone talk").wait_for()
        await tab.get_by_label("The tone").fill("Cosy <u>dread</u>")
        await tab.get_by_label("X-card").uncheck()
        await tab.get_by_role("button", name="Write the tone down").click()
        await tab.locator(".proposed-tone").wait_for()
        assert await tab.locator(".proposed-tone").inner_text() == "Cosy <u>dread</u>"
        assert await tab.get_by_text("Safety tools: Lines & veils, Knocks").count() == 1
        assert await tab.get_by_role("button", name="Agree").count() == 0  # he proposed it
        await fits_the_phone(tab)
        await panel_shows(stack, panel, "Proposed")
        state, version = await stored(cid)
        world = state["setup"]["world"]
        assert world["tone"] == "Cosy <u>dread</u>"
        assert sorted(world["safety_tools"]) == ["knocks", "lines_and_veils"]

        # Nothing ticked: the rules refuse, the page says why, nothing changes.
        await tab.get_by_label("Or write a different tone").fill("Grim")
        for tool in ("Lines & veils", "Knocks"):
            await tab.get_by_label(tool).uncheck()
        await tab.get_by_role("button", name="Write the tone down").click()
        await tab.locator(".toast.error").get_by_text("safety tool").wait_for()
        assert await stored(cid) == (state, version)


@pytest.mark.browser
async def test_a_statement_on_the_world_page_can_build_on_an_earlier_one(stack: Stack) -> None:
    token, cid, panel = await begin(stack)
    await agree_on_a_tone(stack, token)
    for who in (ALICE, BO, CHIDI):
        await ok(stack, who, token, "setup.pass_ban", {})
    await ok(stack, CHIDI, token, "setup.first_speaker", {"player_id": BO})
    await ok(stack, BO, token, "setup.statement", {"text": "A bell tower with no bell"})
    async with chromium() as browser:
        tab = await open_app(browser, stack, CHIDI, token, "light")
        await tab.get_by_role("button", name="World").click()
        await tab.get_by_role("heading", name="Step 3 of 9: drawing the settlement").wait_for()
        await tab.get_by_label("One thing about the settlement").fill("The bell is <b>buried</b>")
        await tab.get_by_label("Builds on").select_option(label="1. A bell tower with no bell")
        await tab.get_by_role("button", name="Say it").click()
        await tab.locator(".settlement li").nth(1).wait_for()
        second = await tab.locator(".settlement li").nth(1).inner_text()
        assert second.startswith("↳1 The bell is <b>buried</b>")
        await fits_the_phone(tab)

        # Alice's statement builds on nothing: the choice is left out, not sent empty.
        alice = await open_app(browser, stack, ALICE, token, "light")
        await alice.get_by_role("button", name="World").click()
        await alice.get_by_label("One thing about the settlement").fill("Fog every morning")
        await alice.get_by_role("button", name="Say it").click()
        await alice.locator(".settlement li").nth(2).wait_for()
    state, _ = await stored(cid)
    facts = state["setup"]["world"]["settlement"]
    assert [(f["text"], f["builds_on"]) for f in facts] == [
        ("A bell tower with no bell", None),
        ("The bell is <b>buried</b>", 0),
        ("Fog every morning", None),
    ]
    await panel_shows(stack, panel, "Fog every morning")
