"""The shared story: the host publishes a read-only page behind a secret link (and a
self-contained download), anyone with the link reads what the whole table has seen,
and the link can be withdrawn."""

from __future__ import annotations

import re
from typing import Any

import aiohttp
import pytest

from core.campaigns.pictures import CardPictures, face_key
from core.rules.nsu.campaign import NsuCampaign
from core.store.models import Campaign, LogEntry, StoryLink
from tests.support.browser import chromium, phone_page, screenshot
from tests.support.stack import Stack, running_stack
from tests.webapp.test_nsu_app import headers, start_table
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.db]

ALICE, BO, CHIDI = 1001, 1002, 1003
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def call(
    stack: Stack, who: int, token: str, method: str, body: dict[str, Any] | None = None
) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as http,
        http.request(
            method,
            f"{stack.origin}/api/c/{token}/story",
            headers=headers(stack, who, token),
            json=body,
        ) as response,
    ):
        return response.status, await response.json()


async def get(url: str, **params: str) -> tuple[int, str, Any]:
    async with aiohttp.ClientSession() as http, http.get(url, params=params) as response:
        return response.status, await response.text(), response.headers


async def pictures_for_every_card(campaign_id: int) -> None:
    campaign = await Campaign.get(id=campaign_id)
    world = NsuCampaign.from_dict(campaign.state).current_world()
    assert world is not None
    for n, card in enumerate(world.cards):
        key = face_key(campaign_id, card.author_id, card.title, card.description)
        await CardPictures().save(campaign_id, key, card.author_id, PNG + f"pic{n}".encode())


async def test_the_host_shares_the_story_and_withdraws_it(stack: Stack) -> None:
    token, campaign_id = await start_table(stack)
    await pictures_for_every_card(campaign_id)
    for text in ("First, the mill.", "Then the <river>.", "Last, the bell."):
        await LogEntry.create(campaign_id=campaign_id, kind="detail", text=text, player_ids=[])

    assert await call(stack, BO, token, "POST", {"action": "publish"}) == (
        403,
        {"error": "Only the host can share the campaign's story."},
    )
    status, body = await call(stack, ALICE, token, "GET")
    assert (status, body) == (200, {"url": None})
    status, body = await call(stack, ALICE, token, "POST", {"action": "publish"})
    assert status == 200 and body["url"].startswith(f"{stack.origin}/story/")
    url = body["url"]
    assert (await call(stack, ALICE, token, "POST", {"action": "publish"}))[1]["url"] == url

    status, page, response_headers = await get(url)
    assert status == 200
    assert "script-src" not in response_headers["Content-Security-Policy"]
    assert response_headers["Cache-Control"] == "no-store"
    # The log in reading order, the table, the face-up card with its picture
    order = [
        page.index(t) for t in ("First, the mill.", "Then the &lt;river&gt;.", "Last, the bell.")
    ]
    assert order == sorted(order)
    assert (
        "The &lt;Drowned&gt; Mill" in page and "The secret face of The &lt;Drowned&gt; Mill" in page
    )
    assert "Ana" in page and "Bram" in page  # the characters, by name
    assert page.count("data:image/png;base64,") == 1  # the face-up card's picture only
    # Nothing only some members may see: face-down cards, a rumour only Bram reads
    for secret in ("Glass Orchard", "The Hollow Tower", "Whispers in the orchard"):
        assert secret not in page
    assert page.count("card-tile back") == 2 and page.count("card-tile face") == 1
    assert "<script" not in page and 'src="/' not in page and "<link" not in page

    status, russian, _ = await get(url, lang="ru")
    assert status == 200 and '<html lang="ru">' in russian
    assert "Что было" in russian and "Персонажи" in russian
    # the browser's language when none is asked for
    ask_russian = {"Accept-Language": "ru-RU,ru;q=0.9"}
    async with aiohttp.ClientSession() as http, http.get(url, headers=ask_russian) as response:
        assert "Что было" in await response.text()

    status, saved, saved_headers = await get(url + "/download")
    assert status == 200
    assert saved_headers["Content-Disposition"] == 'attachment; filename="story.html"'
    assert "data:image/png;base64," in saved and "<script" not in saved
    assert 'src="/' not in saved and 'href="/' not in saved  # one file: nothing to fetch

    # Withdrawn: the link answers 410, the download too; an unknown one 404
    assert await call(stack, BO, token, "POST", {"action": "withdraw"}) == (
        403,
        {"error": "Only the host can share the campaign's story."},
    )
    status, body = await call(stack, ALICE, token, "POST", {"action": "withdraw"})
    assert (status, body) == (200, {"url": None})
    assert (await get(url))[0] == 410
    assert (await get(url + "/download"))[0] == 410
    assert (await get(f"{stack.origin}/story/{'x' * 32}"))[0] == 404
    assert (await get(f"{stack.origin}/story/short"))[0] == 404
    # Shared again: a new link; the old one stays gone
    status, body = await call(stack, ALICE, token, "POST", {"action": "publish"})
    assert body["url"] != url and (await get(url))[0] == 410
    assert (await get(body["url"]))[0] == 200
    assert await StoryLink.filter(campaign_id=campaign_id).count() == 2


@pytest.mark.browser
async def test_the_host_shares_from_the_mini_app_s_log(stack: Stack) -> None:
    token, _ = await start_table(stack)
    from tests.webapp.test_nsu_app import init_for

    async with chromium() as browser:
        page = await phone_page(browser, init_data=init_for(stack, ALICE, token), start_param=token)
        page.set_default_timeout(20_000)
        await page.goto(f"{stack.origin}/app")
        await page.get_by_role("button", name="Log").click()
        await page.get_by_role("button", name="Share the story").click()
        link = page.locator("input[data-story-link]")
        await link.wait_for()
        url = await link.input_value()
        assert re.fullmatch(rf"{re.escape(stack.origin)}/story/[\w-]{{32}}", url)
        reader = await browser.new_page(viewport={"width": 360, "height": 740})
        await reader.goto(url)
        await reader.get_by_role("heading", name="The story so far").wait_for()
        assert await reader.evaluate("document.documentElement.scrollWidth") <= 360
        await screenshot(reader, "story-nsu")
        # Withdrawing asks first (Telegram's confirm), then the link is gone
        await page.get_by_role("button", name="Withdraw the link").click()
        asked = await page.evaluate("TelegramClient.last('web_app_open_popup')")
        assert asked["message"].startswith("Withdraw the link?")
        await page.evaluate("TelegramClient.receive('popup_closed', {button_id: 'ok'})")
        await page.get_by_role("button", name="Share the story").wait_for()
        response = await reader.goto(url)
        assert response.status == 410
        await reader.get_by_role("heading", name="This story is no longer shared").wait_for()

    async with chromium() as browser:  # a member who is not the host sees no sharing
        page = await phone_page(browser, init_data=init_for(stack, BO, token), start_param=token)
        await page.goto(f"{stack.origin}/app")
        await page.get_by_role("button", name="Log").click()
        await page.get_by_role("heading", name="Campaign log").wait_for()
        assert await page.get_by_role("button", name="Share the story").count() == 0


@pytest.mark.e2e
async def test_the_host_shares_the_story_with_a_command_in_the_group(stack: Stack) -> None:
    from tests.support.stack import GROUP

    await start_table(stack)

    async def say(user: int, text: str) -> dict[str, Any]:
        await stack.api.send_text(user, GROUP, text)
        return await stack.api.wait_for_message(GROUP, timeout=10)

    refused = await say(BO, "/story")
    assert "Only the host can share the campaign's story." in refused["text"]
    shared = await say(ALICE, "/story")
    url = re.search(r"http://\S+/story/[\w-]+", shared["text"])
    assert url is not None
    assert shared["reply_markup"]["inline_keyboard"][0][0]["url"] == url.group(0)
    status, page, _ = await get(url.group(0))
    assert status == 200 and "The &lt;Drowned&gt; Mill" in page
    withdrawn = await say(ALICE, "/story off")
    assert "withdrawn" in withdrawn["text"]
    assert (await get(url.group(0)))[0] == 410
    again = await say(ALICE, "/story")  # the Russian word withdraws it too (tables mix)
    second = re.search(r"http://\S+/story/[\w-]+", again["text"])
    assert second is not None and (await get(second.group(0)))[0] == 200
    assert "withdrawn" in (await say(ALICE, "/story закрыть"))["text"]
    assert (await get(second.group(0)))[0] == 410


async def test_a_threat_dice_story_shows_the_sheets_but_no_one_s_notes(stack: Stack) -> None:
    from tests.webapp.test_threat_sheet import api, init_for, start_game

    token = await start_game(stack)  # Alice hosts (the GM); Bo and Chidi play
    bo = init_for(stack, BO, token)
    guile = {"action": "approach.set", "payload": {"name": "Guile", "value": 3}}
    assert (await api(stack, bo, token, guile))[0] == 200
    notes = {"action": "notes", "payload": {"notes": "Bo's private plan"}}
    assert (await api(stack, bo, token, notes))[0] == 200
    status, body = await call(stack, ALICE, token, "POST", {"action": "publish"})
    assert status == 200
    status, page, _ = await get(body["url"])
    assert status == 200
    assert "Guile" in page and "Bo" in page
    assert "private plan" not in page


@pytest.mark.e2e
async def test_the_host_withdraws_an_ended_games_story_from_the_chat_or_the_mini_app(
    stack: Stack,
) -> None:
    from tests.support.stack import GROUP, mini_app_get

    token, _ = await start_table(stack)

    async def say(user: int, text: str) -> dict[str, Any]:
        mark = stack.api.mark()
        await stack.api.send_text(user, GROUP, text)
        return await stack.api.wait_for_message(GROUP, timeout=10, since=mark)

    async def end_the_game() -> str:
        question = await say(ALICE, "/endgame")
        data = question["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        mark = stack.api.mark()
        await (await stack.api.press_button(ALICE, GROUP, question["message_id"], data)).answered()
        ended = await stack.api.wait_for_message(
            GROUP, lambda m: "has ended" in (m.get("text") or ""), timeout=10, since=mark
        )
        return str(ended["text"])

    # Ended with its story shared: the host is told the link stays up, and how to withdraw it
    first = re.search(r"http://\S+/story/[\w-]+", (await say(ALICE, "/story"))["text"])
    assert first is not None
    ended = await end_the_game()
    assert "📖 The story's link stays up: anyone who has it can still read it." in ended
    assert "/story off" in ended and "Mini App" in ended
    assert (await get(first.group(0)))[0] == 200
    assert "Only the host" in (await say(BO, "/story off"))["text"]
    assert (await get(first.group(0)))[0] == 200
    assert "withdrawn" in (await say(ALICE, "/story закрыть"))["text"]
    assert (await get(first.group(0)))[0] == 410

    # The Mini App's home lists an ended game whose story is shared, for its host only;
    # its log page withdraws the link
    await say(ALICE, "/resume")
    second = re.search(r"http://\S+/story/[\w-]+", (await say(ALICE, "/story"))["text"])
    assert second is not None
    assert "stays up" in await end_the_game()
    status, home = await mini_app_get(stack, ALICE, "/app/home")
    assert status == 200 and "Ended games whose story you share" in home
    assert f'data-nav="/app/c/{token}/log"' in home
    assert (
        "Ended games whose story you share" not in (await mini_app_get(stack, BO, "/app/home"))[1]
    )
    status, log = await mini_app_get(stack, ALICE, f"/app/c/{token}/log")
    assert status == 200 and "Withdraw the link" in log
    status, answer = await call(stack, ALICE, token, "POST", {"action": "withdraw"})
    assert status == 200 and answer == {"url": None}
    assert (await get(second.group(0)))[0] == 410
    assert (
        "Ended games whose story you share"
        not in (await mini_app_get(stack, ALICE, "/app/home"))[1]
    )

    # Ended without a shared story: nothing said of one
    await say(ALICE, "/resume")
    assert "story" not in await end_the_game()
