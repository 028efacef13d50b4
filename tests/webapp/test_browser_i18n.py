"""The Mini App in Russian for a Russian player, in English for an English one (Chromium)."""

from __future__ import annotations

import re
import time

import pytest

from core.campaigns.play import ChatRef, PlayerRef
from tests.support.browser import chromium, phone_page, screenshot
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player
from webapp.auth import make_init_data

pytestmark = [pytest.mark.browser, pytest.mark.db]

OLGA, ALICE = 1001, 1002
TABLE = ChatRef(GROUP, "supergroup", "Стол")


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        Player(OLGA, "Ольга", language_code="ru", started=True),
        Player(ALICE, "Alice", language_code="en", started=True),
    ]
    async with running_stack(db, players=players) as running:
        yield running


def init_data_for(stack: Stack, user_id: int, *, token: str | None = None) -> str:
    user = stack.api.players[user_id].user_dict()
    return make_init_data(token or stack.api.token, user, int(time.time()) - 5)


async def test_the_home_page_speaks_the_viewers_language(stack: Stack) -> None:
    play = stack.runtime.application.deps.play  # type: ignore[union-attr]
    await play.roll(TABLE, PlayerRef(OLGA, "Ольга"), "4d6kh3 на удачу")
    async with chromium() as browser:
        page = await phone_page(browser, init_data=init_data_for(stack, OLGA))
        await page.goto(f"{stack.origin}/app")
        await page.get_by_role("heading", name="Здравствуйте, Ольга!").wait_for()
        assert await page.evaluate("document.documentElement.lang") == "ru"
        main = await page.text_content("main") or ""  # as written, not as CSS cases it
        assert "Ваши последние броски" in main
        assert "на удачу" in main  # the player's note, as written
        assert re.search(r"Стол · \d{1,2} [а-я]+\.? \d{4}", main), main  # a Russian date
        assert not re.search(r"\b(Hello|Your|rolls|No rolls)\b", main)
        await screenshot(page, "miniapp-home-ru")

        english = await phone_page(browser, init_data=init_data_for(stack, ALICE))
        await english.goto(f"{stack.origin}/app")
        await english.get_by_role("heading", name="Hello, Alice!").wait_for()
        assert "No rolls yet." in await english.inner_text("main")
        assert await english.evaluate("document.documentElement.lang") == "en"


async def test_a_refused_launch_is_refused_in_the_viewers_language(stack: Stack) -> None:
    async with chromium() as browser:
        forged = init_data_for(stack, OLGA, token="999:forged-token")
        page = await phone_page(browser, init_data=forged)
        await page.goto(f"{stack.origin}/app")
        await page.get_by_role("heading", name="Откройте это из Telegram").wait_for()
        assert await page.locator("main").get_attribute("data-status") == "401"
        assert "Ольга" not in await page.content()
