"""The Mini App sends one key per action and the same key on every retry (Chromium).

The GM's "+1 wound" button on a d20 sheet, in English and in Russian. The browser's
requests are intercepted: the first try's answer is lost after the server applied it
(the page retries, with the same key, and the wound counts once), or the first try
is answered "try again" (503); the page says so, retries, and then says it is done,
in the viewer's language.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from core.campaigns.play import ChatRef, PlayerRef
from core.store.models import Member
from tests.support.browser import chromium, phone_page
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import Player
from webapp.auth import make_init_data

pytestmark = [pytest.mark.browser, pytest.mark.db]

ALICE, OLGA, BO = 1101, 1102, 1103
TABLES = {
    ALICE: ChatRef(GROUP, "supergroup", "The Table"),
    OLGA: ChatRef(GROUP - 1, "supergroup", "Стол"),
}
WORDS = {
    ALICE: (
        "Not saved yet. Trying again…",
        "Done. Your change was saved.",
        "Your change was not saved. Please try again.",
    ),
    OLGA: (
        "Пока не сохранилось. Пробуем ещё раз…",
        "Готово: изменение сохранено.",
        "Изменение не сохранилось. Попробуйте ещё раз.",
    ),
}


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    players = [
        Player(ALICE, "Alice", language_code="en", started=True),
        Player(OLGA, "Ольга", language_code="ru", started=True),
        Player(BO, "Bo", language_code="en", started=True),
    ]
    async with running_stack(db, players=players) as running:
        yield running


def ref(stack: Stack, user: int) -> PlayerRef:
    p = stack.api.players[user]
    return PlayerRef(p.id, p.first_name, p.last_name, p.username)


async def game(stack: Stack, gm: int) -> str:
    """A d20 game the GM hosts, with Bo in it; its Mini App token."""
    assert stack.runtime.application is not None
    deps = stack.runtime.application.deps
    view = await deps.campaigns.new_game(TABLES[gm], ref(stack, gm), "d20")
    await deps.play.mark_started(ref(stack, BO))
    await deps.campaigns.join(TABLES[gm], ref(stack, BO))
    return view.app_token


async def wounds(token: str) -> int:
    member = await Member.get(player__tg_id=BO, campaign__app_token=token)
    return int(member.sheet.get("wounds", 0))


async def open_sheet(browser: Any, stack: Stack, gm: int, token: str) -> Any:
    user = stack.api.players[gm].user_dict()
    init = make_init_data(stack.api.token, user, int(time.time()) - 5, start_param=token)
    page = await phone_page(browser, init_data=init, start_param=token)
    await page.goto(f"{stack.origin}/app")
    await page.locator("button[data-edit='harm.add'][data-payload*='wounds']").wait_for()
    return page


class Tries:
    """What the page sent to the edit route, and what each try meets first."""

    def __init__(self, plan: list[str]) -> None:
        self.plan = plan  # per try: "lose" the answer, answer "503", or let it "pass"
        self.keys: list[str | None] = []
        self.replayed: list[bool] = []

    async def __call__(self, route: Any) -> None:
        request = route.request
        self.keys.append(await request.header_value("idempotency-key"))
        step = self.plan.pop(0) if self.plan else "pass"
        if step == "503":
            await route.fulfill(
                status=503,
                headers={"Retry-After": "1"},
                content_type="application/json",
                body='{"error": "busy"}',
            )
            return
        response = await route.fetch()
        self.replayed.append(response.headers.get("idempotent-replayed") == "true")
        if step == "lose":  # applied on the server; the page never hears back
            await route.abort("connectionreset")
        else:
            await route.fulfill(response=response)


async def press(page: Any, tries: Tries) -> None:
    await page.route("**/api/c/*/edit", tries)
    await page.locator("button[data-edit='harm.add'][data-payload*='wounds']").click()


@pytest.mark.parametrize("gm", [ALICE, OLGA])
async def test_a_retried_press_sends_the_same_key_and_counts_once(stack: Stack, gm: int) -> None:
    retrying, done, failed = WORDS[gm]
    token = await game(stack, gm)
    before = await wounds(token)
    async with chromium() as browser:
        page = await open_sheet(browser, stack, gm, token)

        lost = Tries(["lose"])
        await press(page, lost)
        await page.get_by_text(retrying).first.wait_for()
        await page.get_by_text(done).first.wait_for()
        assert len(lost.keys) == 2 and lost.keys[0] and lost.keys[0] == lost.keys[1]
        assert lost.replayed == [False, True]  # the retry got the first answer back
        assert await wounds(token) == before + 1  # applied once
        await page.unroute("**/api/c/*/edit")

        busy = Tries(["503"])
        await page.get_by_text(done).first.wait_for(state="detached", timeout=6000)
        await press(page, busy)
        await page.get_by_text(retrying).first.wait_for()
        await page.get_by_text(done).first.wait_for()
        assert len(busy.keys) == 2 and busy.keys[0] == busy.keys[1]
        assert busy.keys[0] != lost.keys[0]  # a new press: a new key
        assert await wounds(token) == before + 2
        await page.unroute("**/api/c/*/edit")

        down = Tries(["lose"] * 10)  # no answer ever comes back: whether it was saved is unknown
        await press(page, down)
        await page.get_by_text(failed).wait_for(timeout=20_000)
        assert len(down.keys) == 4 and len(set(down.keys)) == 1  # gave up, and said so
        assert down.replayed == [False, True, True, True]
        assert await wounds(token) == before + 3  # the first try was saved
        await page.unroute("**/api/c/*/edit")

        offered = Tries([])  # the player presses again: the same action, the same key
        await press(page, offered)
        await page.get_by_text(done).first.wait_for()  # the truth: it was done
        assert offered.keys == [down.keys[0]] and offered.replayed == [True]
        assert await wounds(token) == before + 3  # not applied twice
