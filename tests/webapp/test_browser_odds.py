"""The Mini App's odds calculator: headless Chromium at 360x740 in both languages, and
the JSON route behind it."""

from __future__ import annotations

import time

import aiohttp
import pytest

from tests.support.browser import chromium, phone_page, screenshot
from tests.support.stack import Stack, running_stack
from tgbot.sandbox.fake_api import Player
from webapp.auth import make_init_data

pytestmark = [pytest.mark.browser, pytest.mark.db]

ALICE, OLGA = 3001, 3002


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        Player(ALICE, "Alice", language_code="en", started=True),
        Player(OLGA, "Ольга", language_code="ru", started=True),
    ]
    async with running_stack(db, players=players) as running:
        yield running


def init_data_for(stack: Stack, user: int) -> str:
    player = stack.api.players[user]
    return make_init_data(stack.api.token, player.user_dict(), int(time.time()) - 5)


@pytest.mark.parametrize(
    ("user", "link", "show", "chance", "lowest", "problem"),
    [
        (ALICE, "Odds calculator: any roll, exactly", "Show the odds", "79.8%", "Lowest",
         "“kh” needs a number"),
        (OLGA, "Калькулятор шансов: точно, для любого броска", "Показать шансы", "79,8\u00a0%",
         "Минимум", "«kh»"),
    ],
)  # fmt: skip
async def test_the_odds_calculator_from_the_home_page(
    stack: Stack, user: int, link: str, show: str, chance: str, lowest: str, problem: str
) -> None:
    async with chromium() as browser:
        page = await phone_page(browser, init_data=init_data_for(stack, user), theme="dark")
        await page.goto(f"{stack.origin}/app")
        await page.get_by_role("button", name=link).click()
        field = page.locator("input[name=expr]")
        await field.fill("1d20+5 adv >= 15")
        await page.get_by_role("button", name=show).click()
        await page.locator("[data-figure=target]").wait_for()
        assert (await page.text_content("[data-figure=target]") or "").strip() == chance
        assert (await page.text_content("[data-figure=minimum]") or "").strip() == "6"
        assert (await page.text_content("[data-figure=maximum]") or "").strip() == "25"
        assert lowest in (await page.text_content("main") or "")
        assert await page.locator(".odds-chart .bar").count() == 20
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        await screenshot(page, f"miniapp-odds-{user}")
        await page.locator("input[name=expr]").fill("2d6 kh")
        await page.get_by_role("button", name=show).click()
        await page.get_by_role("alert").wait_for()
        assert problem in (await page.text_content("[role=alert]") or "")
        assert await page.locator(".odds-chart").count() == 0


async def test_the_odds_route_answers_the_distribution_as_json(stack: Stack) -> None:
    headers = {"Authorization": "tma " + init_data_for(stack, ALICE)}
    async with aiohttp.ClientSession() as http:
        url = f"{stack.origin}/api/odds"
        async with http.get(url, params={"expr": "4d6 kh3"}, headers=headers) as response:
            assert response.status == 200
            body = await response.json()
        assert body["notation"] == "4d6kh3" and (body["minimum"], body["maximum"]) == (3, 18)
        assert abs(sum(p for _, p in body["distribution"]) - 1) < 1e-9
        assert abs(body["mean"] - 12.2446) < 1e-3
        async with http.get(url, params={"expr": "1d20+5 adv >= 15"}, headers=headers) as answer:
            assert abs((await answer.json())["target_chance"] - 0.7975) < 1e-9
        async with http.get(url, params={"expr": "6d6 o 3"}, headers=headers) as refused:
            assert refused.status == 400
            assert "“o”" in (await refused.json())["error"]
        async with http.get(url, params={"expr": "2d6"}) as stranger:
            assert stranger.status == 401
