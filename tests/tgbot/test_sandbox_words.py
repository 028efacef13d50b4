"""Three players on a phone (360x740) in the sandbox: one name for one thing, light and dark.

The same short campaign as test_sandbox_nsu.py (seeded dice, so the same rolls),
played on a phone-sized page, with the words checked where a new player meets
them: the World tab's agreement line, an author editing a saved card before the
deal, rumours that name their card, characters introduced with their players in
the line that says who acts, an Arbiter's detail credited to the player in the
log, and the map picture's button opening the map. Each of those screens is
kept in both themes under artifacts/screenshots/.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import pytest

from core.rules.rng import SeededRng
from core.runtime.settings import parse_settings
from tests.support.bot_api import free_port
from tests.support.browser import PHONE, chromium, screenshot
from tests.tgbot.test_sandbox_nsu import (
    ALICE,
    BO,
    CHIDI,
    NAMES,
    PLAYERS,
    TIMEOUT,
    Table,
    card,
    make_character,
)
from tgbot.main import SANDBOX_PREFIX, Runtime

if TYPE_CHECKING:
    from playwright.async_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.e2e, pytest.mark.db]

BO_SHOWN = "<b>Bo</b> & Co"  # his Telegram name, shown as written (never as markup)


class Phone(Table):
    """The sandbox on a phone; every kept screen is shot in the light and the dark theme."""

    async def shot(self, name: str) -> None:
        self.shots += 1
        for theme in ("light", "dark"):
            await self.theme(theme)
            await screenshot(self.page, f"sandbox-words-{self.shots:02d}-{name}-{theme}")
        await self.theme("light")

    async def theme(self, theme: str) -> None:
        now = await self.page.evaluate("document.documentElement.dataset.theme")
        if now != theme:
            # The sandbox's own toggle (under the Mini App while it fills the phone).
            await self.page.locator("#theme-toggle").dispatch_event("click")
            await self.expect(self.page.locator("html")).to_have_attribute("data-theme", theme)

    async def open_app(self, button: str | re.Pattern[str], message: Any) -> Any:
        await self.press(message, button, edits=False)
        await self.expect(self.page.locator("#miniapp")).to_be_visible()
        return self.page.frame_locator("#miniapp-frame")

    async def close_app(self) -> None:
        await self.page.get_by_role("button", name="Close Mini App").click()
        await self.expect(self.page.locator("#miniapp")).to_be_hidden()

    async def fits(self) -> None:
        width = await self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width


@asynccontextmanager
async def phone_sandbox(db: str, *, style: str = "") -> AsyncIterator[tuple[Page, int]]:
    """The sandbox (seeded dice) open on a phone-sized page: the page and the group's id."""
    settings = parse_settings({"DATABASE_URL": db, "PORT": str(free_port())})
    runtime = Runtime(settings, rng=SeededRng(7), rate_limit=False)
    await runtime.start()
    try:
        assert runtime.sandbox is not None
        async with chromium() as browser:
            page = await browser.new_page(viewport=PHONE)
            page.set_default_timeout(TIMEOUT)
            await page.goto(f"{runtime.origin}{SANDBOX_PREFIX}")
            await page.evaluate("localStorage.clear()")
            if style:
                await page.add_style_tag(content=style)
            yield page, runtime.sandbox.group_id
    finally:
        await runtime.stop()


async def test_three_players_on_a_phone_meet_one_name_for_one_thing(db: str) -> None:
    async with phone_sandbox(db) as (page, group_id):
        t = Phone(page, group_id)
        await t.play_as(ALICE)
        await t.group_chat()
        await play(t)


async def commands_menu(t: Phone) -> str:
    """Open the composer's "/" button, read the commands it lists, and close it again."""
    listed = t.page.locator("#command-list")
    await t.page.locator("#menu-button").click()
    await t.expect(listed).to_be_visible()
    text = str(await listed.inner_text())
    return text


async def close_menu(t: Phone) -> None:
    await t.page.locator("#menu-button").click()
    await t.expect(t.page.locator("#command-list")).to_be_hidden()


async def play(t: Phone) -> None:
    # -- the group's "/" menu: the common commands until a game runs, then the game's too.
    common = await commands_menu(t)
    assert "/newgame" in common and "/begin" not in common, common
    await close_menu(t)
    started = await t.say("/newgame nsu", "No Stone Unturned")
    await t.sees(started, "the host sends /begin")
    await t.shot("newgame-says-send-begin")
    game = await commands_menu(t)
    # a running game's own commands first, and no /newgame while it runs
    assert "/newgame" not in game and "/begin" in game and "/adventure" in game, game
    assert game.index("/begin") < game.index("/help"), game
    await t.page.locator("#command-list li", has_text="/begin").scroll_into_view_if_needed()
    await t.shot("group-menu-lists-the-game")
    await close_menu(t)
    for pid in (BO, CHIDI):
        await t.play_as(pid)
        await t.group_chat()
        await t.say("/join", "joined")
    await t.play_as(ALICE)
    await t.say("/begin", "step 1 of 9")
    board = await t.panel("step 1 of 9")

    # -- the tone: Alice proposes; the World tab waits only for Bo and Chidi.
    await t.play_as(CHIDI)
    await t.press(board, "Knocks")
    await t.play_as(ALICE)
    await t.reply(board, "Weird & hopeful")
    await t.play_as(BO)
    sheet = await t.say("/sheet", "sheet")
    app = await t.open_app(re.compile("Open sheet"), sheet)
    await app.get_by_role("button", name="World", exact=True).click()
    agreement = app.locator(".agreement")
    await t.expect(agreement).to_have_text(
        f"Agreed: Alice Marsh · waiting for {BO_SHOWN}, Chidi Okafor to agree"
    )
    await t.shot("world-tab-agreement")
    await t.close_app()
    for pid in (BO, CHIDI):
        await t.play_as(pid)
        await t.press(board, "Agree")

    # -- bans, the settlement, scope, resources and the abundance, as in test_sandbox_nsu.
    await t.play_as(ALICE)
    await t.reply(board, "No dragons")
    await t.play_as(BO)
    await t.press(board, "Pass")
    await t.play_as(CHIDI)
    await t.reply(board, "No spiders")
    await t.play_as(ALICE)
    await t.reply(board, "Walls of old buses")
    await t.play_as(BO)
    await t.reply(board, "A bell at noon")
    await t.play_as(CHIDI)
    await t.press(board, "Pass")
    await t.play_as(ALICE)
    await t.press(board, "Pass")
    await t.reply(board, "A week between trips")
    await t.play_as(BO)
    await t.press(board, "Next question")
    await t.press(board, "Scope done")
    resources = ("Water", "Salt", "Music", "Light", "Trust")
    for pid, name in zip((ALICE, BO, CHIDI, ALICE, BO), resources, strict=True):
        await t.play_as(pid)
        await t.reply(board, name)
        await t.sees(board, name)
    await t.play_as(CHIDI)
    await t.press(board, "Music")
    await t.sees(board, "in private")

    # -- two locations each; Alice then edits her first one before the map is dealt.
    for pid in PLAYERS:
        await t.play_as(pid)
        await t.group_chat()
        await t.press(board, "Write my locations", edits=False)
        await t.private_chat(pid)
        cards = await t.panel(re.compile("location", re.I))
        for n in (1, 2):
            for value in card(pid, n):
                await t.reply(cards, value)
                await t.sees(cards, value)
        await t.sees(cards, "Both written")
    await t.play_as(ALICE)
    await t.private_chat(ALICE)
    cards = await t.panel("Both written")
    await t.sees(cards, "until then you can still edit them")
    await t.press(cards, f"✏️ Edit 1. Vault {ALICE}-1")
    await t.sees(cards, f"Rewriting Vault {ALICE}-1")
    await t.shot("edit-a-saved-card")
    await t.reply(cards, "Vault of Bells")
    for _ in range(4):
        await t.press(cards, "✔️ Keep as it is")
    await t.sees(cards, "1. Vault of Bells")
    await t.sees(cards, f"Quiet halls {ALICE}-1")  # the rest kept as it was
    await t.shot("card-edited")

    # Bo brings his back with /locations: every saved card has its Edit button.
    await t.play_as(BO)
    await t.private_chat(BO)
    again = await t.say("/locations", "Both written")
    for n in (1, 2):
        await t.expect(
            again.get_by_role("button", name=f"✏️ Edit {n}. Vault {BO}-{n}")
        ).to_be_visible()
    await t.group_chat()
    await t.press(board, "3 wide")
    await t.play_as(ALICE)
    await t.press(board, "Roll Danger")
    await t.sees(board, "The world is built")
    await t.private_chat(ALICE)
    dealt = await t.panel("1. Vault of Bells")
    # The deal redrew the panel drawn before it, true to now: no Edit button is left to press.
    await t.sees(dealt, "The map is dealt: your locations lie face down on it")
    await t.expect(dealt.get_by_role("button", name=re.compile("✏️ Edit"))).to_have_count(0)

    # -- characters; each rumour names the card it is about.
    for pid, name in NAMES.items():
        await t.play_as(pid)
        await t.group_chat()
        await make_character(t, board, pid, name)
    await t.play_as(ALICE)
    await t.group_chat()
    sheet = await t.say("/sheet", "sheet")
    app = await t.open_app(re.compile("Open sheet"), sheet)
    rumours = app.locator(".rumours")
    await t.expect(rumours).to_contain_text("About Vault of Bells: Heard of it at the market")
    await t.expect(rumours).to_contain_text(f"About Vault {ALICE}-2: A trader's tale")
    await rumours.scroll_into_view_if_needed()
    await t.shot("rumours-name-their-cards")
    await t.close_app()

    # -- the adventure and a roll: each person is named with their player once, first.
    await t.say("/adventure", "👥 Together:")
    adventure = await t.panel("👥 Together:")
    await t.sees(adventure, f"Together: Ana (Alice Marsh), Bolt ({BO_SHOWN}), Cy (Chidi Okafor)")
    await t.sees(adventure, "👉 Ana, Bolt or Cy")
    await t.shot("adventure-who-acts")
    await t.play_as(BO)
    await t.press(adventure, "➡️ Travel")
    await t.sees(adventure, "Where next?")
    await t.press(adventure, re.compile("^➡️ L5"))
    await t.sees(adventure, f"Vault {ALICE}-2")
    await t.say("/act I cross the rope bridge", "Arbiters")
    roll = await t.panel("I cross the rope bridge")
    await t.sees(roll, f"Action Roll: Bolt ({BO_SHOWN})")
    await t.play_as(CHIDI)
    await t.press(roll, "⚖️ Body")
    await t.press(roll, "🌍 World")
    await t.sees(roll, "👉 Bolt: pick a mood")
    await t.shot("roll-who-acts")
    await t.play_as(BO)
    await t.press(roll, "Bolt: Curious d8 (0/9)")
    await t.press(roll, "No details apply")
    await t.press(roll, "🎲 Bolt: roll")  # nobody helped: settled on Bolt's own die unasked
    await t.sees(roll, "the Arbiters win")
    await t.play_as(CHIDI)
    await t.reply(roll, "harm: Rope burns")
    await t.play_as(ALICE)
    await t.reply(roll, "scene: The bridge sways")
    await t.shot("details")
    await t.fits()

    # -- the log credits Chidi, who arbitrated, not his off-screen character Cy.
    await t.play_as(BO)
    sheet = await t.say("/sheet", "sheet")
    app = await t.open_app(re.compile("Open sheet"), sheet)
    await t.expect(app.locator("main")).to_contain_text("Ana (Alice Marsh)")  # others' sheets
    await app.get_by_role("button", name="Log", exact=True).click()
    log = app.locator("main")
    await t.expect(log).to_contain_text("Chidi Okafor gave Bolt the harm −Rope burns.")
    assert "Cy gave" not in await log.inner_text()
    await t.shot("log-credits-the-arbiter")
    await t.close_app()

    # -- the map picture's button opens the Mini App on the map, not the sheet.
    picture = await t.say("/map", "map")
    # The picture itself, with a caption that says what it shows.
    await t.expect(picture.locator("img.photo")).to_be_visible()
    await t.expect(picture.locator("img.photo")).to_have_js_property("complete", True)
    assert await picture.locator("img.photo").evaluate("img => img.naturalWidth") > 0
    await t.sees(picture, "🗺 The map as the whole group sees it.")
    await t.sees(picture, "outlined in blue")
    await picture.scroll_into_view_if_needed()
    await t.shot("map-picture-with-caption")
    await t.fits()
    app = await t.open_app("🗺 Open the map", picture)
    await t.expect(app.get_by_role("heading", name="The map")).to_be_visible()
    await t.expect(app.locator('.tab[aria-current="page"]')).to_have_text("Map")
    await t.shot("map-button-opens-the-map")
    await t.close_app()

    # -- downtime at home: a recovery point each (counted right); a scout picks a card by
    # the label the map gives it.
    await t.say("/downtime home", "Downtime")
    down = await t.panel("pick a downtime action")
    await t.sees(down, "Bolt rests: +1 recovery point (1/4).")
    # Phone-sized: the actions sit in groups, each with Back; ending asks to confirm.
    for group in ("🛌 Rest & heal", "🛠 Work & scout", "🕰 Clock & time", "🏁 End downtime"):
        await t.expect(down.get_by_role("button", name=group)).to_be_visible()
    await t.shot("downtime-groups")
    await t.press(down, "🛌 Rest & heal")
    await t.expect(down.get_by_role("button", name="◀️ Back")).to_be_visible()
    await t.shot("downtime-group-with-back")
    await t.press(down, "◀️ Back")
    await t.expect(down.get_by_role("button", name="🛌 Rest & heal")).to_be_visible()
    await t.press(down, "🏁 End downtime")
    await t.sees(down, "End downtime for everyone?")
    await t.expect(down.get_by_role("button", name="✅ Yes, end downtime")).to_be_visible()
    await t.shot("downtime-end-confirm")
    await t.fits()
    await t.press(down, "◀️ Not yet")
    await t.sees(down, "pick a downtime action")
    await t.press(down, "🛠 Work & scout")
    await t.press(down, "🔭 Scout a card")
    await t.sees(down, "pick a face-down card nearby")
    scout = down.get_by_role("button", name=re.compile(r"^🔭 L\d D\d R\d$"))
    await t.expect(scout.first).to_be_visible()
    assert not re.search(r"card \d", await down.inner_text())
    await t.shot("scout-picks-by-map-label")
    await t.fits()
