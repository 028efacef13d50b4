"""A library game's stats in Chromium at phone size (360x740): a tap on a stat rolls it
in the group, through the local Bot API server, with the player's value, its outcome and
exact chance; a step on the sheet saves the new value first. A host shares the group's
own game system from the Game systems page."""

from __future__ import annotations

import pytest

from core.campaigns import own_systems
from core.campaigns.play import PlayerRef
from core.rules.dicesystem import STAT_SET
from core.store.models import Campaign, OwnSystem
from core.store.unit import UnitOfWork
from tests.support.browser import chromium, screenshot
from tests.support.stack import GROUP, OLGA, Stack, cast_with_olga, running_stack, say
from tests.webapp.test_browser_sheet_rolls import ALICE, BO, fits, open_sheet, tap

pytestmark = [pytest.mark.db, pytest.mark.browser]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=cast_with_olga()) as running:
        yield running


@pytest.mark.parametrize(
    ("user", "stat", "toast"),
    [
        (BO, "Roll Hard in the chat", "Roll started in the chat"),
        (OLGA, "Бросок «Жёсткость» в чате", "Бросок начат в чате"),
    ],
)
async def test_a_tap_on_a_stat_rolls_it_in_the_chat_with_its_outcome_and_chance(
    stack: Stack, user: int, stat: str, toast: str
) -> None:
    await say(stack, ALICE, GROUP, "/newgame pbta")
    await say(stack, user, GROUP, "/join")
    token = (await Campaign.get(live_chat_id=GROUP)).app_token
    campaigns = stack.runtime.application.deps.campaigns  # type: ignore[union-attr]
    me = PlayerRef(user, stack.api.players[user].first_name)
    await campaigns.edit(token, me, STAT_SET, {"stat": "hard", "value": 2})
    async with chromium() as browser:
        page = await open_sheet(browser, stack, user, token, "8.0")
        button = page.get_by_role("button", name=stat)
        await button.wait_for()
        await fits(page)
        # a step saves first: Hard goes from +2 to +3, and the sheet shows it
        await page.locator('[data-stat="hard"] + button[data-edit="stat.set"]').click()
        await page.locator('[data-stat="hard"]', has_text="+3").wait_for()
        await screenshot(page, f"sheet-stats-pbta-{'ru' if user == OLGA else 'en'}")
        posted = await tap(stack, page, page.get_by_role("button", name=stat), toast)
    text = posted["text"]  # in the group's language (its host's: English)
    assert "Hard +3" in text and "%" in text  # the player's Hard, and the exact chance
    assert any(outcome in text for outcome in ("Strong hit", "Weak hit", "Miss"))


async def test_a_host_shares_the_groups_own_system_from_the_game_systems_page(
    stack: Stack,
) -> None:
    await say(stack, ALICE, GROUP, "/newgame pbta")
    token = (await Campaign.get(live_chat_id=GROUP)).app_token
    locks = stack.runtime.locks
    await own_systems.create(GROUP, ALICE, own_systems.EXAMPLE, locks=locks, unit=UnitOfWork())
    async with chromium() as browser:
        page = await open_sheet(browser, stack, ALICE, token, "8.0")
        await page.get_by_role("button", name="Game systems").click()
        share = page.get_by_role("button", name="Share Coin toss with another group")
        await share.wait_for()
        await share.click()
        await page.locator(".toast", has_text="coin is shared: its link is below.").wait_for()
        shared = page.locator('[data-shared="coin"]')
        await shared.wait_for()
        row = await OwnSystem.get(chat_tg_id=GROUP, key="coin")
        assert f"/system import {row.share_token}" in await shared.inner_text()
        link = await shared.locator("a").get_attribute("href")
        assert link is not None and link.endswith(f"?startgroup=sys_{row.share_token}")
        assert link.startswith("https://t.me/") and "t.me/?" not in link  # the bot's name
        await screenshot(page, "systems-shared-en")
