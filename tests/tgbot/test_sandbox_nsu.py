"""Three new players play a short No Stone Unturned campaign on the sandbox page.

Everything goes through the page, as a new user would do it: typing in the
composer, pressing buttons by their labels, the Reply action under a message,
the "Playing as" picker, the chat list and the Mini App frame. The dice come
from a seeded RNG, so the run is the same each time.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from core.rules.rng import SeededRng
from core.runtime.settings import parse_settings
from tests.support.bot_api import free_port
from tests.support.browser import chromium, screenshot
from tgbot.main import SANDBOX_PREFIX, Runtime

pytestmark = [pytest.mark.browser, pytest.mark.e2e, pytest.mark.db]

ALICE, BO, CHIDI = 1001, 1002, 1003
PLAYERS = (ALICE, BO, CHIDI)
TIMEOUT = 20_000  # ms; the machine may be loaded
BOT_NAME = "Stonetable"


def card(pid: int, n: int) -> tuple[str, str, str, str, str]:
    """The five answers of a player's n-th location card (title first)."""
    return (
        f"Vault {pid}-{n}",
        f"Quiet halls {pid}-{n}",
        f"Broken bridge {pid}-{n}",
        f"Wolves {pid}-{n}",
        f"Lost gold {pid}-{n}",
    )


class Table:
    """The sandbox page, driven like a person would: look, click, type."""

    def __init__(self, page: Any, group_id: int) -> None:
        from playwright.async_api import expect

        self.page = page
        self.group = group_id
        self.expect = expect
        self.shots = 0

    async def shot(self, name: str) -> None:
        self.shots += 1
        await screenshot(self.page, f"sandbox-nsu-{self.shots:02d}-{name}")

    async def play_as(self, pid: int) -> None:
        await self.page.select_option("#player", str(pid))
        await self.expect(self.page.locator(f'.chat-item[data-chat-id="{pid}"]')).to_be_visible()

    async def open_chat(self, chat_id: int) -> None:
        await self.page.locator(f'.chat-item[data-chat-id="{chat_id}"]').click()
        await self.expect(
            self.page.locator(f'.chat-item[data-chat-id="{chat_id}"]')
        ).to_have_attribute("aria-current", "true")

    async def group_chat(self) -> None:
        await self.open_chat(self.group)

    async def private_chat(self, pid: int) -> None:
        await self.open_chat(pid)

    def bot_message(self, contains: str | re.Pattern[str]) -> Any:
        """The last bot message in the open chat whose text holds ``contains``."""
        return self.page.locator('li[data-from="bot"]').filter(has_text=contains).last

    def message(self, message_id: str) -> Any:
        return self.page.locator(f'li[data-message-id="{message_id}"]')

    async def panel(self, contains: str | re.Pattern[str]) -> Any:
        """The last bot message holding ``contains``, followed by its id through edits."""
        found = self.bot_message(contains)
        await self.expect(found).to_be_visible()
        return self.message(str(await found.get_attribute("data-message-id")))

    async def send(self, text: str) -> None:
        await self.page.fill("#text", text)
        await self.page.press("#text", "Enter")
        await self.expect(self.page.locator("#text")).to_have_value("")

    async def say(self, text: str, expect: str | re.Pattern[str]) -> Any:
        """Send a message and return the bot's answer holding ``expect``."""
        before = await self.page.locator("li.message").count()
        await self.send(text)
        answer = self.page.locator('li[data-from="bot"]').filter(has_text=expect).last
        await self.expect(answer).to_be_visible()
        await self.expect(self.page.locator("li.message")).not_to_have_count(before)
        return answer

    async def press(self, message: Any, label: str | re.Pattern[str], edits: bool = True) -> None:
        """Press a button under ``message``; by default wait until the bot redraws it."""
        button = message.get_by_role("button", name=label)
        await self.expect(button).to_be_enabled()
        await self._until_redrawn(message, button.click(), edits)

    async def reply(self, message: Any, text: str, edits: bool = True) -> None:
        """Reply to ``message``; by default wait until the bot redraws it."""

        async def replying() -> None:
            await message.get_by_role("button", name="Reply").click()
            await self.expect(self.page.locator("#reply-bar")).to_be_visible()
            await self.send(text)
            await self.expect(self.page.locator("#reply-bar")).to_be_hidden()

        await self._until_redrawn(message, replying(), edits)

    async def _until_redrawn(self, message: Any, action: Any, edits: bool) -> None:
        # The page replaces a message's node when the bot edits it: mark the node, act,
        # and wait for a node without the mark (a press on an old keyboard is refused).
        if edits:
            await message.evaluate("node => { node.dataset.seen = '1'; }")
        await action
        if edits:
            await self.expect(message).not_to_have_attribute("data-seen", "1")

    async def sees(self, message: Any, text: str | re.Pattern[str]) -> None:
        await self.expect(message.locator(".text")).to_contain_text(text)

    async def alert(self, contains: str) -> None:
        """An alert the bot showed this player: read it and press OK."""
        dialog = self.page.locator("#alert-dialog")
        await self.expect(dialog).to_be_visible()
        await self.expect(dialog).to_contain_text(contains)
        await dialog.get_by_role("button", name="OK").click()
        await self.expect(dialog).to_be_hidden()

    async def chat_text(self) -> str:
        """Everything the open chat shows now: texts and button labels."""
        return str(await self.page.locator("#messages").inner_text())


async def test_three_new_players_play_a_short_campaign_in_the_sandbox(db: str) -> None:
    settings = parse_settings({"DATABASE_URL": db, "PORT": str(free_port())})
    runtime = Runtime(settings, rng=SeededRng(7), rate_limit=False)
    await runtime.start()
    try:
        assert runtime.sandbox is not None
        runtime.sandbox.player(CHIDI).started = False  # Chidi has never opened the bot
        async with chromium() as browser:
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(TIMEOUT)
            await page.goto(f"{runtime.origin}{SANDBOX_PREFIX}")
            t = Table(page, runtime.sandbox.group_id)
            await t.play_as(ALICE)
            await t.expect(page.locator("#chat-title")).to_have_text("The Table")
            await play(t)
    finally:
        await runtime.stop()


async def play(t: Table) -> None:
    # -- seating: Alice starts the game, Bo and Chidi join.
    await t.say("/newgame nsu", "No Stone Unturned")
    await t.shot("newgame")
    await t.play_as(BO)
    await t.group_chat()
    await t.say("/join", "joined")
    # Chidi never opened the bot: the group offers a button to his private chat, whose
    # Start (a deep link) seats him; the page takes him there.
    await t.play_as(CHIDI)
    await t.private_chat(CHIDI)
    await t.expect(t.page.locator("#start-button")).to_be_visible()
    await t.group_chat()
    asked = await t.say("/join", "press Start")
    await t.shot("join-needs-start")
    await t.press(asked, "Open a private chat", edits=False)
    await t.expect(t.page.locator("#chat-title")).to_have_text(BOT_NAME)
    await t.expect(t.page.locator("#composer")).to_be_visible()
    await t.expect(t.bot_message("No Stone Unturned")).to_be_visible()
    await t.shot("joined-in-private")
    await t.group_chat()
    await t.expect(t.bot_message("Chidi Okafor joined")).to_be_visible()
    await t.play_as(ALICE)
    await t.say("/begin", "step 1 of 9")
    board = await t.panel("step 1 of 9")
    await t.shot("begin")

    # -- the tone talk: Chidi leaves out knocks, Bo writes the tone by Reply, the others agree.
    await t.play_as(CHIDI)
    await t.press(board, "Knocks")
    await t.play_as(BO)
    await t.reply(board, "Weird & hopeful")
    await t.sees(board, "Weird & hopeful")
    await t.shot("tone")
    for pid in (ALICE, CHIDI):
        await t.play_as(pid)
        await t.press(board, "Agree")
    await t.sees(board, re.compile("ban", re.I))
    await t.shot("bans")

    # -- bans: one each, or a pass.
    await t.play_as(ALICE)
    await t.reply(board, "No dragons")
    await t.play_as(BO)
    await t.press(board, "Pass")
    await t.play_as(CHIDI)
    await t.reply(board, "No spiders")
    await t.sees(board, "Alice Marsh's turn")
    await t.shot("settlement")

    # -- the settlement, turn by turn, until two passes in a row.
    await t.play_as(ALICE)
    await t.reply(board, "Walls of old buses")
    await t.play_as(BO)
    await t.reply(board, "A bell at noon")
    await t.sees(board, "Chidi Okafor's turn")
    await t.play_as(CHIDI)
    await t.press(board, "Pass")
    await t.play_as(ALICE)
    await t.press(board, "Pass")
    await t.sees(board, re.compile("scope", re.I))
    await t.shot("scope")

    # -- scope, resources and the abundance.
    await t.reply(board, "A week between trips")
    await t.play_as(BO)
    await t.press(board, "Next question")
    await t.press(board, "Scope done")
    await t.shot("resources")
    resources = ("Water", "Salt", "Music", "Light", "Trust")
    for pid, name in zip((ALICE, BO, CHIDI, ALICE, BO), resources, strict=True):
        await t.play_as(pid)
        await t.reply(board, name)
        await t.sees(board, name)
        if name == "Music":  # one each so far; the board says the rest are anyone's
            await t.sees(board, "Everyone has named one")
    await t.play_as(CHIDI)
    await t.press(board, "Music")
    await t.sees(board, "in private")
    await t.shot("locations")

    # -- two locations each, written in private: the group only hears that it happened.
    for pid in PLAYERS:
        await t.play_as(pid)
        await t.group_chat()
        await t.press(board, "Write my locations", edits=False)
        await t.expect(t.page.locator(".toast").last).to_contain_text("private chat")
        if pid == ALICE:
            await t.shot("sent-to-private")
        await t.expect(t.page.locator(f'.chat-item[data-chat-id="{pid}"] .badge')).to_be_visible()
        await t.private_chat(pid)
        cards = await t.panel(re.compile("location", re.I))
        await t.expect(cards.get_by_role("button", name="Reply")).to_be_visible()
        if pid == ALICE:
            await t.shot("cards-panel")
        for n in (1, 2):
            for value in card(pid, n):
                await t.reply(cards, value)
                await t.sees(cards, value)
        await t.sees(cards, "Both written")
        if pid == ALICE:
            await t.shot("cards-written")
    await t.group_chat()
    await t.sees(board, "How many cards wide")
    await t.shot("deal")

    # -- deal the cards face down, then roll Danger and Reward.
    await t.play_as(BO)
    await t.press(board, "3 wide")
    await t.sees(board, "D? R?")
    await t.shot("dealt")
    await t.play_as(ALICE)
    await t.press(board, "Roll Danger")
    await t.sees(board, "The world is built")
    await t.shot("world-built")

    # -- characters, each made in private from the board's button.
    for pid, name in NAMES.items():
        await t.play_as(pid)
        await t.group_chat()
        await make_character(t, board, pid, name)
    await t.shot("characters")

    # -- the adventure: Bo flips a card; its author paints the picture in private.
    await t.play_as(ALICE)
    await t.say("/adventure", "At home, in the settlement")
    adventure = await t.panel("At home, in the settlement")
    await t.shot("adventure")
    await t.play_as(BO)
    await t.press(adventure, "➡️ Travel")
    await t.sees(adventure, "Where next?")
    await t.press(adventure, re.compile("^➡️ L5"))
    await t.sees(adventure, "Vault 1001-2")
    await t.shot("flipped")
    await t.private_chat(BO)
    await t.sees(await t.panel("arbitrate"), "Wolves 1001-2")
    await t.shot("arbiter-briefing")
    await t.play_as(ALICE)
    await t.private_chat(ALICE)
    await t.sees(await t.panel("Paint the picture"), "Lost gold 1001-2")

    # -- Bo acts; Alice and Chidi arbitrate.
    await t.play_as(BO)
    await t.group_chat()
    await t.say("/act I cross the rope bridge", "Arbiters")
    roll = await t.panel("I cross the rope bridge")
    await t.shot("act")
    await t.play_as(CHIDI)
    await t.press(roll, "⚖️ Body")
    await t.press(roll, "🌍 World")
    await t.sees(roll, "Bolt: pick your mood")
    await t.play_as(BO)
    await t.press(roll, "Bolt: Curious d8 (0/9)")
    await t.sees(roll, "Do details help or hinder? Reply")
    await t.press(roll, "No details apply")
    await t.press(roll, "🎲 Bolt: roll")
    await t.sees(roll, "Aspect d8: 7 · Mood d8: 1")
    await t.shot("rolled")
    # Nobody is on screen to help: the roll settles on Bo's own mood die unasked.
    await t.sees(roll, "Aspect 7 vs Mood 1")
    await t.sees(roll, "the Arbiters win")
    await t.sees(roll, "Reply to this message with a detail")
    await t.shot("result")

    # -- the arbiters add the two details by replying to the roll.
    await t.play_as(CHIDI)
    await t.reply(roll, "harm: Rope burns")
    await t.sees(roll, "Collateral Clock at Vault 1001-2: 1/8")
    await t.play_as(ALICE)
    await t.reply(roll, "scene: The bridge sways")
    await t.sees(roll, "Collateral Clock at Vault 1001-2: 2/8")
    await t.expect(roll.get_by_role("button", name=re.compile("Skip detail"))).to_have_count(0)
    await t.shot("details")

    await secrets_kept(t)
    await sheets_match_the_rules(t)


async def secrets_kept(t: Table) -> None:
    """No face-down card's face in the group; no one's private chat holds another's card.

    The flipped card (Alice's second) shows its title and description to all; its Danger
    and Treasure stay with its author and the Arbiters of the scene (Bo and Chidi).
    """
    face_down = [card(pid, n) for pid in PLAYERS for n in (1, 2) if (pid, n) != (ALICE, 2)]
    flipped_secrets = card(ALICE, 2)[3:]
    for viewer in PLAYERS:
        await t.play_as(viewer)
        await t.group_chat()
        group = await t.chat_text()
        assert "Vault 1001-2" in group
        for value in (*(v for c in face_down for v in c), *flipped_secrets):
            assert value not in group, (viewer, value)
        await t.private_chat(viewer)
        private = await t.chat_text()
        for pid, n in ((p, n) for p in PLAYERS for n in (1, 2)):
            if pid == viewer or (pid, n) == (ALICE, 2):
                continue
            for value in card(pid, n):
                assert value not in private, (viewer, value)
        assert all(value in private for value in card(viewer, 1))  # their own cards are there
        # What the page was given for this player (not only what it drew) keeps them too.
        state = await t.page.evaluate(
            "async (id) => (await fetch(`${document.body.dataset.prefix}/state?user_id=${id}`))"
            ".text()",
            viewer,
        )
        for pid, n in ((p, n) for p in PLAYERS for n in (1, 2)):
            if pid != viewer and (pid, n) != (ALICE, 2):
                assert card(pid, n)[0] not in state, (viewer, pid, n)


async def sheets_match_the_rules(t: Table) -> None:
    """Bo opens the Mini App from /sheet: moods and recovery on every sheet are the rules'."""
    await t.play_as(BO)
    await t.group_chat()
    sheet = await t.say("/sheet", "sheet")
    await t.press(sheet, re.compile("Open sheet"), edits=False)
    await t.expect(t.page.locator("#miniapp")).to_be_visible()
    frame = t.page.frame_locator("#miniapp-frame")
    await t.expect(frame.locator("main")).to_contain_text("Bolt")
    await t.shot("miniapp-sheet")
    html = await frame.locator("body").inner_html()
    levels = re.findall(r"Mood level (\d+) of (\d+)", html)
    # Two lines per die (one open); Bo's sheet first: Curious went up one box when he
    # picked it, and nobody else rolled.
    fresh = [("0", "9"), ("0", "9"), ("0", "7"), ("0", "7"), ("0", "5"), ("0", "5")]
    assert levels == [("1", "9"), *fresh[1:], *fresh, *fresh]
    assert len(re.findall('title="Overload threshold"', html)) == 3 * 6
    assert re.findall(r"Recovery points (\d+) of 4", html) == ["0", "0", "0"]
    harms = frame.locator("section").filter(has_text="Harm details").first
    await t.expect(harms).to_contain_text("Rope burns")  # the Arbiters' harm is on his sheet

    # The Map and My cards tabs show Bo his own cards and nobody else's face-down ones.
    others = [card(pid, n)[0] for pid in (ALICE, CHIDI) for n in (1, 2) if (pid, n) != (ALICE, 2)]
    for tab, shows in (("Map", "Vault 1001-2"), ("My cards", "Vault 1002-1")):
        await (
            frame.get_by_role("link", name=tab, exact=True)
            .or_(frame.get_by_role("button", name=tab, exact=True))
            .first.click()
        )
        await t.expect(frame.locator("main")).to_contain_text(shows)
        await t.shot(f"miniapp-{tab.replace(' ', '-').lower()}")
        shown = await frame.locator("body").inner_text()
        assert not [title for title in others if title in shown], tab

    # On a phone-sized window the Mini App fills the screen and closes back to the chat.
    await t.page.set_viewport_size({"width": 390, "height": 844})
    await t.expect(frame.locator("main")).to_contain_text("My location cards")
    await t.shot("phone-miniapp")
    await t.page.get_by_role("button", name="Close Mini App").click()
    await t.expect(t.page.locator("#miniapp")).to_be_hidden()
    await t.expect(t.page.locator("#text")).to_be_visible()
    # Long quoted panels are cut short: nothing makes the page scroll sideways.
    width = await t.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    await t.shot("phone-group")


NAMES = {ALICE: "Ana", BO: "Bolt", CHIDI: "Cy"}


async def make_character(t: Table, board: Any, pid: int, name: str) -> None:
    await t.press(board, "My character", edits=False)
    await t.expect(t.page.locator(".toast").last).to_contain_text("private chat")
    await t.private_chat(pid)
    panel = await t.panel(re.compile("character", re.I))
    if pid == ALICE:
        await t.shot("character-panel")
    await t.reply(panel, name)
    await t.sees(panel, name)
    for answer in ("they/them", "Tall, in a coat of maps", "Curious, Wary, Angry"):
        await t.reply(panel, answer)
    await t.sees(panel, "Curious")
    if pid == ALICE:
        await t.shot("character-aspects")
    await t.press(panel, "Body d8 · Mind d6 · Heart d4")
    await t.sees(panel, re.compile("sentiment", re.I))
    await t.reply(panel, "My compass\n-\nThe bell")
    await t.reply(panel, "Climbing, Talking, Fixing")
    await t.sees(panel, re.compile("rumour", re.I))
    if pid == ALICE:
        await t.shot("character-rumours")
    await t.reply(panel, "Heard of it at the market")
    await t.reply(panel, "A trader's tale")
    await t.press(panel, "Finish")
    await t.sees(panel, f"{name} is ready")
    if pid == ALICE:
        await t.shot("character-ready")
    await t.group_chat()
