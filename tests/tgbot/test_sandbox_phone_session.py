"""Three players on a phone (360x740) in the sandbox: one roll each of threat, d20 and Cortex.

The same group plays three short games one after the other (/endgame and its
confirm between them). Each roll opens the group of buttons a phone needs most:
the threat keypad behind "⚠️ Threat", the d20 ability group and Cortex's "Add to
the pool…" list. Each is kept in both themes under artifacts/screenshots/, and no
button's label is cut at phone width.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser import screenshot
from tests.tgbot.test_sandbox_nsu import ALICE, BO, CHIDI
from tests.tgbot.test_sandbox_words import Phone, phone_sandbox

pytestmark = [pytest.mark.browser, pytest.mark.e2e, pytest.mark.db]

ONE_LINE = ".keyboard button { white-space: nowrap; }"  # Telegram draws a label on one line
MEASURE = """node => [...node.querySelectorAll('.keyboard button')]
    .map(b => [b.textContent, b.scrollWidth, b.clientWidth])"""


class Games(Phone):
    async def shot(self, name: str) -> None:
        self.shots += 1
        for theme in ("light", "dark"):
            await self.theme(theme)
            await screenshot(self.page, f"sandbox-games-{self.shots:02d}-{name}-{theme}")
        await self.theme("light")

    async def uncut(self, message: Any, at_most: int = 8) -> list[str]:
        """The labels under ``message``: at most ``at_most``, none cut at phone width."""
        await message.scroll_into_view_if_needed()
        measured = await message.evaluate(MEASURE)
        cut = [(text, scroll, client) for text, scroll, client in measured if scroll > client]
        assert cut == [], cut
        # The table's Undo row follows every panel; the group itself is what must fit.
        labels = [text for text, _, _ in measured if not text.startswith("↩ Undo")]
        assert 0 < len(labels) <= at_most, str(labels)
        await self.fits()
        return labels

    async def new_game(self, system: str, started: str) -> None:
        await self.play_as(ALICE)
        await self.say(f"/newgame {system}", started)
        for pid in (BO, CHIDI):
            await self.play_as(pid)
            await self.group_chat()
            await self.say("/join", "joined")

    async def end_game(self) -> None:
        await self.play_as(ALICE)
        question = await self.say("/endgame", re.compile("End the .* game\\?"))
        await self.press(question, "🏁 End the game", edits=False)
        await self.expect(self.bot_message(re.compile("ended"))).to_be_visible()


async def test_a_roll_each_of_threat_d20_and_cortex_on_a_phone(db: str) -> None:
    async with phone_sandbox(db, style=ONE_LINE) as (page, group_id):
        t = Games(page, group_id)
        await t.play_as(ALICE)
        await t.group_chat()
        await play(t)


async def play(t: Games) -> None:
    # -- threat: the GM opens the keypad behind "⚠️ Threat" and sets +2.
    await t.new_game("threat", "Threat dice")
    await t.play_as(BO)
    await t.send("I climb the tower")  # the GM asks for the roll in reply to it
    climb = t.page.locator("li.message").filter(has_text="I climb the tower").last
    await t.play_as(ALICE)
    await t.reply(climb, "/threat 3d", edits=False)  # Bo has no approaches: the GM gives the dice
    panel = await t.panel("acts")
    assert "⚠️ Threat +0" in await t.uncut(panel)
    await t.press(panel, "⚠️ Threat +0")
    await t.sees(panel, "set the threat or go back")
    assert await t.uncut(panel) == ["−2", "−1", "✓ +0", "+1", "+2", "+3", "+4", "⬅️ Back"]
    await t.shot("threat-keypad")
    await t.press(panel, "+2")
    await t.expect(panel.get_by_role("button", name="⚠️ Threat +2")).to_be_visible()
    await t.end_game()

    # -- d20: Bo asks for a check and opens the ability group.
    await t.new_game("d20", "d20 checks")
    await t.play_as(BO)
    await t.say("/check dc12", "DC 12")
    check = await t.panel("DC 12")
    await t.uncut(check)
    await t.press(check, "💪")
    labels = await t.uncut(check)
    assert "⬅️ Back" in labels, labels
    await t.shot("d20-ability-group")
    await t.press(check, "⬅️ Back")
    await t.end_game()

    # -- Cortex: Alice, the Watchtower, opposes; Bo opens "Add to the pool…".
    await t.new_game("cortex", "Cortex")
    await t.play_as(BO)
    for line in ("value Justice d10", "asset Strong d8", "relationship Chidi d6"):
        await t.say(f"/trait {line}", "recorded")
    await t.say("/test", "Test:")
    test = await t.panel("Test:")
    await t.play_as(ALICE)
    await t.press(test, "👁 +d8")
    await t.press(test, "👁 Roll 1")
    await t.sees(test, "To beat:")
    await t.play_as(BO)
    await t.press(test, "➕ Add to the pool…")
    labels = await t.uncut(test)
    assert "➕ Strong d8" in labels and "⬅️ Back" in labels, labels
    await t.shot("cortex-add-to-the-pool")
