"""The Mini App's saved rolls page in headless Chromium at 360x740, in English and Russian:
a tap rolls a saved roll (posted in the game's chat as the player's roll, kept in the
history), with a haptic and a toast; renaming and deleting work there too."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from core.campaigns import saved_rolls
from core.campaigns.saved_rolls import Table
from core.store.models import RollRecord, SavedRoll
from tests.support.browser import chromium, phone_page, screenshot
from tests.support.stack import GROUP, Stack, running_stack
from tests.webapp.test_browser_d20 import ALICE, BO, CHIDI, TABLE, init_data_for, ref
from tgbot.sandbox.fake_api import Player, default_cast

pytestmark = [pytest.mark.browser, pytest.mark.db]

OLGA = 1005
HAPTICS = (
    "window.__haptics = []; var h = Telegram.WebApp.HapticFeedback;"
    " h.impactOccurred = function (k) { window.__haptics.push(k); return h; };"
)


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    cast = [*default_cast(), Player(OLGA, "Ольга", language_code="ru", started=True)]
    async with running_stack(db, players=cast) as running:
        yield running


async def game(stack: Stack) -> str:
    """A d20 game hosted by Alice, with Bo and Olga at the table and some saved rolls."""
    assert stack.runtime.application is not None
    deps = stack.runtime.application.deps
    view = await deps.campaigns.new_game(TABLE, ref(stack, ALICE), "d20")
    for user in (BO, OLGA):
        await deps.play.mark_started(ref(stack, user))
        await deps.campaigns.join(TABLE, ref(stack, user))
    await saved_rolls.save(BO, "atk", "1d20+5")
    await saved_rolls.save(BO, "dmg", "1d8+3")
    await saved_rolls.save(OLGA, "атака", "1d20+4 adv")
    await saved_rolls.save(ALICE, "init", "1d20+2", Table(GROUP, 0))
    return view.app_token


async def open_saved(browser: Any, stack: Stack, user: int, token: str, rolls: str) -> Any:
    page = await phone_page(browser, init_data=init_data_for(stack, user, start=token))
    await page.goto(f"{stack.origin}/app")
    await page.locator("main[data-status]").wait_for(state="attached")
    await page.get_by_role("button", name=rolls, exact=True).click()  # the sheet's tab
    await page.locator("nav.tabs button[data-nav$='/saved']").click()
    await page.locator("ul.saved-rolls").first.wait_for()
    await page.evaluate(HAPTICS)
    return page


def bot_texts(stack: Stack) -> list[str]:
    return [m["text"] for m in stack.api.messages(GROUP) if m["from"]["id"] == stack.api.bot_id]


async def test_a_tap_rolls_in_the_chat_and_renaming_and_deleting_work(stack: Stack) -> None:
    token = await game(stack)
    async with chromium() as browser:
        page = await open_saved(browser, stack, BO, token, "Rolls")
        names = await page.locator("ul.saved-rolls.own .name").all_text_contents()
        assert names == ["atk", "dmg"]
        assert await page.locator("ul.saved-rolls.shared .name").all_text_contents() == ["init"]
        assert await page.locator("ul.saved-rolls.shared details").count() == 0  # not the host
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        await screenshot(page, "miniapp-saved-rolls")
        before = len(bot_texts(stack))
        await page.get_by_role("button", name="Roll atk").click()
        toast = page.locator(".toast")
        await toast.wait_for()
        assert "atk:" in (await toast.text_content() or "")
        await page.wait_for_function("window.__haptics.indexOf('heavy') >= 0")
        posted = await stack.api.wait_for_message(
            GROUP, lambda m: "— atk" in m.get("text", ""), timeout=10
        )
        assert "Bo" in posted["text"] and "(1d20 + 5)" in posted["text"]
        assert len(bot_texts(stack)) == before + 1
        kept = await RollRecord.get(label="atk")
        assert kept.notation == "(1d20 + 5)" and kept.campaign_id is not None
        # the table's roll, too
        await page.get_by_role("button", name="Roll init").click()
        await stack.api.wait_for_message(GROUP, lambda m: "— init" in m.get("text", ""), timeout=10)

        row = page.locator("li.saved-roll", has_text="dmg")
        await row.locator("summary").click()
        await row.locator("input[name=name]").fill("damage")
        await row.get_by_role("button", name="Rename").click()
        await page.locator("ul.saved-rolls.own .name", has_text="damage").wait_for()
        row = page.locator("li.saved-roll", has_text="damage")
        await row.locator("summary").click()
        await row.get_by_role("button", name="Delete").click()
        asked = await page.evaluate("TelegramClient.last('web_app_open_popup')")
        assert "damage" in asked["message"]
        await page.evaluate("TelegramClient.receive('popup_closed', {button_id: 'ok'})")
        await page.locator("li.saved-roll", has_text="damage").wait_for(state="detached")
    assert [s.name for s in await SavedRoll.filter(owner_tg_id=BO)] == ["atk"]


async def test_in_russian_and_bad_or_forged_requests_change_nothing(stack: Stack) -> None:
    token = await game(stack)
    async with chromium() as browser:
        page = await open_saved(browser, stack, OLGA, token, "Броски")
        assert await page.get_by_role("heading", name="Сохранённые броски", exact=True).count() == 1
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        await screenshot(page, "miniapp-saved-rolls-ru")
        await page.get_by_role("button", name="Бросить «атака»").click()
        toast = page.locator(".toast")
        await toast.wait_for()
        assert "Результат отправлен в чат игры" in (await toast.text_content() or "")
        posted = await stack.api.wait_for_message(
            GROUP, lambda m: "— атака" in m.get("text", ""), timeout=10
        )
        assert "(2d20kh1 + 4)" in posted["text"]
        row = page.locator("li.saved-roll", has_text="атака")
        await row.locator("summary").click()
        await row.locator("input[name=name]").fill("d20")
        await row.get_by_role("button", name="Переименовать").click()
        error = page.locator(".toast.error")
        await error.wait_for()
        assert "запись кубиков" in (await error.text_content() or "")
    bo = await SavedRoll.get(owner_tg_id=BO, name="atk")
    headers = {"Authorization": "tma " + init_data_for(stack, OLGA), "Idempotency-Key": "k" * 16}
    async with aiohttp.ClientSession() as session:
        for path, body in [
            (f"/api/c/{token}/saved/{bo.id}/roll", {}),  # Bo's, not hers
            (f"/api/c/{token}/saved/{bo.id}/delete", {}),
            (f"/api/c/{token}/saved/{bo.id}/rename", {"name": "mine"}),
            (f"/api/c/{token}/saved/abc/roll", {}),
            (f"/api/c/{token}/saved/99999/roll", {}),
        ]:
            headers["Idempotency-Key"] = "key-" + str(abs(hash(path)))[:12]
            async with session.post(stack.origin + path, json=body, headers=headers) as answer:
                assert answer.status >= 400, path
    assert (await SavedRoll.get(id=bo.id)).name == "atk"
    assert [s.name for s in await SavedRoll.filter(owner_tg_id=OLGA)] == ["атака"]


async def test_a_new_saved_roll_from_the_page_is_checked_like_save(stack: Stack) -> None:
    token = await game(stack)
    async with chromium() as browser:
        page = await open_saved(browser, stack, BO, token, "Rolls")
        form = page.locator("form.save-roll")
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        box = await form.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360
        for name, text, words in [
            ("d20", "1d6", "reads as dice notation"),
            ("two words", "1d6", "one word of letters"),
            ("crit", "1d6 +* 2", "couldn't read"),
            ("crit", "crit+1", "loop"),
        ]:
            await form.locator("input[name=name]").fill(name)
            await form.locator("input[name=text]").fill(text)
            await form.get_by_role("button", name="Save").click()
            error = page.locator(".toast.error")
            await error.wait_for()
            assert words in (await error.text_content() or ""), (name, text)
            await page.evaluate("document.querySelectorAll('.toast').forEach(t => t.remove())")
        assert [s.name for s in await SavedRoll.filter(owner_tg_id=BO)] == ["atk", "dmg"]

        await form.locator("input[name=name]").fill("crit")
        await form.locator("input[name=text]").fill("dmg*2")
        await form.get_by_role("button", name="Save").click()
        toast = page.locator(".toast", has_text="Saved crit: dmg*2.")
        await toast.wait_for()
        await page.locator("ul.saved-rolls.own .name", has_text="crit").wait_for()
        await screenshot(page, "miniapp-saved-rolls-new")
        assert await page.locator("form.save-roll input[name=name]").input_value() == ""
        await page.get_by_role("button", name="Roll crit").click()
        posted = await stack.api.wait_for_message(
            GROUP, lambda m: "— crit" in m.get("text", ""), timeout=10
        )
        assert "((1d8 + 3) * 2)" in posted["text"]

        # renaming the roll crit uses says so, and crit still rolls
        row = page.locator("li.saved-roll", has_text="dmg").filter(has_not_text="crit")
        await row.locator("summary").click()
        await row.locator("input[name=name]").fill("damage")
        await row.get_by_role("button", name="Rename").click()
        said = page.locator(".toast", has_text="Also updated: crit.")
        await said.wait_for()
        await page.locator("code.notation", has_text="damage*2").wait_for()
    assert (await SavedRoll.get(owner_tg_id=BO, name="crit")).text == "damage*2"


async def test_a_new_saved_roll_sent_twice_with_one_key_is_saved_once(stack: Stack) -> None:
    token = await game(stack)
    headers = {"Authorization": "tma " + init_data_for(stack, OLGA), "Idempotency-Key": "new-0001"}
    url = f"{stack.origin}/api/c/{token}/saved"
    async with aiohttp.ClientSession() as session:
        answers = []
        for _ in range(2):
            body = {"name": "урон", "text": "2к6+1"}
            async with session.post(url, json=body, headers=headers) as answer:
                answers.append((answer.status, await answer.json(), answer.headers))
        (first, said, _), (again, resaid, replay) = answers
        assert (first, again) == (200, 200) and said == resaid
        assert said["done"] == "Бросок «урон» сохранён: 2к6+1."
        assert replay.get("Idempotent-Replayed") == "true"
        # the same key with other words is refused; a forged body is not understood
        body = {"name": "урон", "text": "3к6"}
        async with session.post(url, json=body, headers=headers) as answer:
            assert answer.status == 422
        headers["Idempotency-Key"] = "new-0002"
        async with session.post(url, json={"name": 5}, headers=headers) as answer:
            assert answer.status == 400
        # a player who is not at the table saves nothing there
        headers = {
            "Authorization": "tma " + init_data_for(stack, CHIDI),
            "Idempotency-Key": "x" * 8,
        }
        async with session.post(url, json={"name": "a", "text": "1d4"}, headers=headers) as answer:
            assert answer.status == 403
    assert [(s.name, s.text) for s in await SavedRoll.filter(owner_tg_id=OLGA).order_by("id")] == [
        ("атака", "1d20+4 adv"),
        ("урон", "2к6+1"),
    ]
    assert await SavedRoll.filter(owner_tg_id=CHIDI).count() == 0


async def test_the_host_saves_a_roll_for_the_whole_table(stack: Stack) -> None:
    token = await game(stack)
    async with chromium() as browser:
        page = await open_saved(browser, stack, BO, token, "Rolls")  # not the host
        assert await page.locator("form.save-roll input[name=table]").count() == 0
        assert await page.get_by_text("For the whole table").count() == 0
        await page.close()

        page = await open_saved(browser, stack, ALICE, token, "Rolls")
        form = page.locator("form.save-roll")
        box = await form.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360
        await form.locator("input[name=name]").fill("perception")
        await form.locator("input[name=text]").fill("init+1")  # the table's init
        await form.get_by_label("For the whole table").check()
        await form.get_by_role("button", name="Save").click()
        await page.locator(".toast", has_text="Saved perception: init+1.").wait_for()
        await page.locator("ul.saved-rolls.shared .name", has_text="perception").wait_for()
        assert await page.locator("ul.saved-rolls.own .name").count() == 0
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        await screenshot(page, "miniapp-saved-rolls-table")
        # unticked, the same form saves her own
        await form.locator("input[name=name]").fill("mine")
        await form.locator("input[name=text]").fill("1d4")
        assert not await form.get_by_label("For the whole table").is_checked()
        await form.get_by_role("button", name="Save").click()
        await page.locator("ul.saved-rolls.own .name", has_text="mine").wait_for()
    shared = SavedRoll.filter(table_chat_tg_id=GROUP, topic_id=0).order_by("name_key")
    assert [(s.name, s.text, s.owner_tg_id) for s in await shared] == [
        ("init", "1d20+2", None),
        ("perception", "init+1", None),
    ]
    assert [s.name for s in await SavedRoll.filter(owner_tg_id=ALICE)] == ["mine"]


async def test_a_table_roll_from_anyone_but_the_host_is_refused(stack: Stack) -> None:
    token = await game(stack)
    url = f"{stack.origin}/api/c/{token}/saved"
    before = [(s.id, s.name, s.text) for s in await SavedRoll.all().order_by("id")]
    async with aiohttp.ClientSession() as session:
        for user, flag in [(OLGA, "yes"), (BO, True), (BO, "on")]:
            headers = {
                "Authorization": "tma " + init_data_for(stack, user),
                "Idempotency-Key": f"table-{user}-{flag}",
            }
            body = {"name": "init", "text": "1d20+20", "table": flag}
            for _ in range(2):  # a retry with the same key is refused the same
                async with session.post(url, json=body, headers=headers) as answer:
                    said = await answer.json()
                    assert answer.status == 403, said
            if user == OLGA:
                assert "может только организатор" in str(said)
            else:
                assert "Only the host of the game here" in str(said)
        headers = {"Authorization": "tma " + init_data_for(stack, BO), "Idempotency-Key": "t" * 9}
        async with session.post(
            url, json={"name": "x", "text": "1d4", "table": 7}, headers=headers
        ) as answer:
            assert answer.status == 400
        assert [(s.id, s.name, s.text) for s in await SavedRoll.all().order_by("id")] == before
        # the host's, sent twice with one key, is saved once and answered the same
        headers = {
            "Authorization": "tma " + init_data_for(stack, ALICE),
            "Idempotency-Key": "host-0001",
        }
        body = {"name": "stealth", "text": "1d20+3", "table": "yes"}
        answers = []
        for _ in range(2):
            async with session.post(url, json=body, headers=headers) as answer:
                answers.append((answer.status, await answer.json(), answer.headers))
        (first, said, _), (again, resaid, replay) = answers
        assert (first, again) == (200, 200) and said == resaid
        assert replay.get("Idempotent-Replayed") == "true"
        # the same key with the flag dropped is another request: refused, nothing saved
        body = {"name": "stealth", "text": "1d20+3"}
        async with session.post(url, json=body, headers=headers) as answer:
            assert answer.status == 422
    assert await SavedRoll.filter(name="stealth").count() == 1
    stealth = await SavedRoll.get(name="stealth")
    assert (stealth.table_chat_tg_id, stealth.owner_tg_id) == (GROUP, None)
    assert await SavedRoll.filter(owner_tg_id=ALICE).count() == 0
