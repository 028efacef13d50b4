"""Tapping the sheet in Chromium at phone size (360x740): the roll starts in the chat.

The player taps an approach (threat dice), an ability (d20), an aspect (No Stone
Unturned) or a trait (Cortex) on their own sheet:
the panel appears in the group, the app answers with a haptic and a toast in the
player's language; a tap the rules refuse (the game is paused) shows why and posts
nothing. The tappable names fit the phone's width.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from core.campaigns.play import ChatRef, PlayerRef
from core.store.models import Campaign, CampaignStatus, Member, Panel
from tests.support.browser import chromium, phone_page, screenshot
from tests.support.nsu_table import campaign_state, character, sheet, split, world
from tests.support.stack import GROUP, OLGA, Stack, cast_with_olga, from_bot, running_stack, say
from webapp.auth import make_init_data

pytestmark = [pytest.mark.db, pytest.mark.browser]

ALICE, BO = 1001, 1002
PHONE_WIDTH = 360
# Records the notification haptics the app asks Telegram for (the stand-in plays them silently).
HAPTICS = (
    "window.__haptics = [];"
    "var feedback = window.Telegram.WebApp.HapticFeedback;"
    "feedback.notificationOccurred = function (kind) { window.__haptics.push(kind); };"
)


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=cast_with_olga()) as running:
        yield running


async def game(stack: Stack, system: str, roller: int) -> str:
    await say(stack, ALICE, GROUP, f"/newgame {system}")
    await say(stack, roller, GROUP, "/join")
    return (await Campaign.get(live_chat_id=GROUP)).app_token


async def open_sheet(browser: Any, stack: Stack, user: int, token: str, version: str) -> Any:
    init = make_init_data(
        stack.api.token,
        stack.api.players[user].user_dict(),
        int(time.time()) - 5,
        start_param=token,
        chat_type="supergroup",
    )
    page = await phone_page(browser, init_data=init, start_param=token, version=version)
    page.set_default_timeout(30_000)
    await page.goto(f"{stack.origin}/app")
    await page.wait_for_function("window.__tgReady === true")
    await page.evaluate(HAPTICS)
    return page


async def fits(page: Any) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    for box in [await b.bounding_box() for b in await page.locator("button.rollable").all()]:
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_WIDTH
        assert box["height"] >= 32  # a finger's target


async def tap(stack: Stack, page: Any, button: Any, toast: str) -> dict[str, Any]:
    """Tap ``button`` on the sheet: once the app's toast says ``toast``, the message the
    bot posted in the group."""
    mark = stack.api.mark()
    await button.click()
    await page.locator(".toast", has_text=toast).wait_for()
    return await stack.api.wait_for_message(GROUP, from_bot(stack), timeout=10, since=mark)


@pytest.mark.parametrize(
    ("user", "toast", "refused"),
    [
        (BO, "Roll started in the chat", "The game is paused"),
        (OLGA, "Бросок начат в чате", "Игра на паузе"),
    ],
)
async def test_a_tap_on_an_approach_starts_the_roll_in_the_chat_in_the_players_language(
    stack: Stack, user: int, toast: str, refused: str
) -> None:
    token = await game(stack, "threat", user)
    campaigns = stack.runtime.application.deps.campaigns  # type: ignore[union-attr]
    me = PlayerRef(user, stack.api.players[user].first_name)
    await campaigns.edit(token, me, "approach.set", {"name": "Хитрость Guile", "value": 2})
    async with chromium() as browser:
        page = await open_sheet(browser, stack, user, token, "8.0")
        approach = page.locator("button.rollable[data-roll=approach]")
        await approach.wait_for()
        await fits(page)
        posted = await tap(stack, page, approach, toast)
        assert "Хитрость Guile" in posted["text"] and posted["reply_markup"]["inline_keyboard"]
        assert (await page.evaluate("window.__haptics")).count("success") == 1
        await screenshot(page, f"sheet-roll-threat-{'ru' if user == OLGA else 'en'}")

        # Paused: the tap is refused with the reason, and nothing is posted.
        await campaigns.set_status(
            ChatRef(GROUP, "supergroup"), PlayerRef(ALICE, "Alice"), CampaignStatus.PAUSED
        )
        before = await Panel.all().count()
        await approach.click()
        await page.locator(".toast.error", has_text=refused).wait_for()
        assert (await page.evaluate("window.__haptics"))[-2:] == ["success", "error"]
        assert await Panel.all().count() == before


async def test_an_ability_tap_on_an_old_client_rolls_without_haptics(stack: Stack) -> None:
    token = await game(stack, "d20", BO)
    campaigns = stack.runtime.application.deps.campaigns  # type: ignore[union-attr]
    for name in ("Might", "Unbelievably long-winded persuasion"):
        payload = {"player": BO, "name": name, "strength": "strong"}
        await campaigns.edit(token, PlayerRef(BO, "Bo"), "ability.set", payload)
    async with chromium() as browser:
        page = await open_sheet(browser, stack, BO, token, "6.0")  # before HapticFeedback
        ability = page.get_by_role("button", name="Roll Might in the chat")
        await ability.wait_for()
        await fits(page)
        await screenshot(page, "sheet-roll-d20-en")
        posted = await tap(stack, page, ability, "Roll started in the chat")
        assert "check — Might" in posted["text"]
        assert not {"success", "error"} & set(await page.evaluate("window.__haptics"))


async def test_an_aspect_tap_starts_an_action_roll_for_a_russian_player(stack: Stack) -> None:
    token = await game(stack, "nsu", OLGA)
    await say(stack, BO, GROUP, "/join")
    view = await Campaign.get(live_chat_id=GROUP)
    w = split(world((ALICE, BO, OLGA)), {ALICE, BO, OLGA}, set())
    await Campaign.filter(id=view.id).update(state=campaign_state(w))
    for user, name in ((ALICE, "Ana"), (BO, "Bram"), (OLGA, "Вера")):
        member = await Member.get(campaign_id=view.id, player__tg_id=user)
        await Member.filter(id=member.id).update(sheet=sheet(character(name)))
    async with chromium() as browser:
        page = await open_sheet(browser, stack, OLGA, token, "8.0")
        body = page.get_by_role("button", name="Бросок «Тело» в чате")
        await body.wait_for()
        await fits(page)
        await screenshot(page, "sheet-roll-nsu-ru")
        posted = await tap(stack, page, body, "Бросок начат в чате")
        assert "Вера" in posted["text"] and posted["reply_markup"]["inline_keyboard"]


async def test_a_trait_tap_starts_a_test_for_the_lead(stack: Stack) -> None:
    token = await game(stack, "cortex", BO)
    campaigns = stack.runtime.application.deps.campaigns  # type: ignore[union-attr]
    payload = {"box": "value", "name": "Justice", "die": "d8"}
    await campaigns.edit(token, PlayerRef(BO, "Bo"), "trait.set", payload)
    async with chromium() as browser:
        page = await open_sheet(browser, stack, BO, token, "8.0")
        trait = page.get_by_role("button", name="Roll Justice in the chat")
        await trait.wait_for()
        await fits(page)
        posted = await tap(stack, page, trait, "Roll started in the chat")
        assert posted["text"].startswith("🎭 Test:")
        await screenshot(page, "sheet-roll-cortex-en")
