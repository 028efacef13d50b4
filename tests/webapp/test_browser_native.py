"""The platform's own controls in the Mini App, against the sandbox's stand-in for
telegram-web-app.js (version-gated as Telegram's is): closing confirmation and kept
drafts, native confirm dialogs, safe-area insets, fullscreen for the map, vertical
swipes while dragging, the settings button and its preferences, header colours; and
an older client, which gets a working page without them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from core.store import reminders
from core.store.models import Member
from tests.support.browser import chromium, phone_page
from tests.support.stack import Stack, running_stack
from tests.webapp.test_nsu_app import start_table
from tests.webapp.test_threat_sheet import api, init_for, start_game
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.browser, pytest.mark.db]

ALICE, BO = 1001, 1002


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def open_app(browser: Any, stack: Stack, user: int, token: str, version: str) -> Any:
    init = init_for(stack, user, token)
    page = await phone_page(browser, init_data=init, start_param=token, version=version)
    page.set_default_timeout(20_000)
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
    await page.goto(f"{stack.origin}/app")
    return page


async def last(page: Any, event: str) -> Any:
    """The last time the app asked Telegram's client for ``event`` (None: never)."""
    return await page.evaluate(f"window.TelegramClient.last({json.dumps(event)})")


async def events(page: Any, event: str) -> list[Any]:
    return list(
        await page.evaluate(
            "(name) => window.TelegramClient.events.filter(e => e.eventType === name)"
            ".map(e => e.eventData)",
            event,
        )
    )


async def cloud(page: Any, user: int) -> dict[str, str]:
    """What the client keeps in CloudStorage for this user."""
    kept = await page.evaluate(f"localStorage.getItem('__telegram__cloud_{user}')")
    return dict(json.loads(kept or "{}"))


async def eventually(check: Any, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.1)):
        if await check():
            return
        await asyncio.sleep(0.1)
    assert await check()


async def test_unsaved_notes_ask_before_closing_are_kept_in_cloud_storage_until_saved(
    stack: Stack,
) -> None:
    token = await start_game(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, BO, token, "8.0")
        await page.get_by_role("heading", name="Your character").wait_for()
        assert await page.evaluate("Telegram.WebApp.isClosingConfirmationEnabled") is False
        assert (await last(page, "web_app_set_header_color"))["color"] == "#ffffff"
        assert (await last(page, "web_app_set_background_color"))["color"] == "#ffffff"

        await page.fill("textarea[name=notes]", "The miller owes us")
        assert (await last(page, "web_app_setup_closing_behavior")) == {"need_confirmation": True}
        assert await page.evaluate("Telegram.WebApp.isClosingConfirmationEnabled") is True

        async def drafted() -> bool:
            kept = await cloud(page, BO)
            return any("The miller owes us" in value for value in kept.values())

        await eventually(drafted)
        keys = [k for k in await cloud(page, BO) if k.startswith("draft_")]
        assert len(keys) == 1

        # The app is closed and opened again: the text comes back, still unsaved.
        await page.reload()
        await page.locator("textarea[name=notes]").wait_for()
        notes = page.locator("textarea[name=notes]")
        await eventually(lambda: _value_is(notes, "The miller owes us"))
        await page.get_by_text("Your unsaved text is back.").wait_for()
        assert await page.evaluate("Telegram.WebApp.isClosingConfirmationEnabled") is True
        assert (await Member.get(player__tg_id=BO, active=True)).sheet["notes"] == ""

        await page.get_by_role("button", name="Save notes").click()

        async def saved() -> bool:
            member = await Member.get(player__tg_id=BO, active=True)
            return bool(member.sheet["notes"] == "The miller owes us")

        await eventually(saved)

        async def forgotten() -> bool:
            return not [k for k in await cloud(page, BO) if k.startswith("draft_")]

        await eventually(forgotten)
        await eventually(lambda: page.evaluate("!Telegram.WebApp.isClosingConfirmationEnabled"))
        assert (await last(page, "web_app_setup_closing_behavior")) == {"need_confirmation": False}
        assert page.errors == []


async def test_a_drafted_form_once_saved_is_not_drawn_back_nor_asks_before_closing(
    stack: Stack,
) -> None:
    """The draft of a form goes before the page is drawn again: a new approach, typed slowly
    enough to be drafted, then added, leaves an empty form and nothing to ask about."""
    token = await start_game(stack)
    for version in ("8.0", "6.2"):  # its draft in CloudStorage, then in the page's storage
        async with chromium() as browser:
            page = await open_app(browser, stack, BO, token, version)
            form = page.locator("form.add")
            name = f"Guile {version}"
            await form.locator('input[name="name"]').fill(name)
            await page.wait_for_timeout(600)  # the draft is kept (after 300 ms of quiet)
            await form.get_by_role("button").click()
            await page.locator(".approaches").get_by_text(name).wait_for()
            await page.wait_for_timeout(600)
            assert await page.locator('form.add input[name="name"]').input_value() == ""
            assert await page.evaluate("Telegram.WebApp.isClosingConfirmationEnabled") is False
            assert not [k for k in await cloud(page, BO) if k.startswith("draft_")]
            assert page.errors == []


async def _value_is(locator: Any, value: str) -> bool:
    return bool(await locator.input_value() == value)


async def test_removing_asks_with_telegram_s_confirm_dialog(stack: Stack) -> None:
    token = await start_game(stack)
    init = init_for(stack, BO, token)
    status, _ = await api(
        stack, init, token, {"action": "approach.set", "payload": {"name": "Guile", "value": 2}}
    )
    assert status == 200
    async with chromium() as browser:
        page = await open_app(browser, stack, BO, token, "8.0")
        remove = page.get_by_role("button", name="Remove Guile")
        await remove.click()
        popup = await last(page, "web_app_open_popup")
        assert popup["message"] == "Remove Guile?"
        assert [b["type"] for b in popup["buttons"]] == ["ok", "cancel"]
        await page.evaluate("TelegramClient.receive('popup_closed', {button_id: 'cancel'})")
        await asyncio.sleep(0.5)
        assert (await Member.get(player__tg_id=BO, active=True)).sheet["approaches"] == [
            ["Guile", 2]
        ]

        await remove.click()
        await page.evaluate("TelegramClient.receive('popup_closed', {button_id: 'ok'})")

        async def removed() -> bool:
            member = await Member.get(player__tg_id=BO, active=True)
            return bool(member.sheet["approaches"] == [])

        await eventually(removed)
        assert len(await events(page, "web_app_open_popup")) == 2
        assert page.errors == []


async def test_pages_are_padded_for_the_safe_area_and_the_content_safe_area(
    stack: Stack,
) -> None:
    token = await start_game(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, BO, token, "8.0")
        await page.get_by_role("heading", name="Your character").wait_for()
        assert await last(page, "web_app_request_safe_area") == {}
        assert await last(page, "web_app_request_content_safe_area") == {}
        padding = "getComputedStyle(document.body).padding"
        assert await page.evaluate(padding) == "12px"
        await page.evaluate(
            "TelegramClient.receive('safe_area_changed', {top: 24, bottom: 34, left: 0, right: 0})"
        )
        await page.evaluate(
            "TelegramClient.receive('content_safe_area_changed', "
            "{top: 46, bottom: 0, left: 8, right: 0})"
        )
        assert await page.evaluate(padding) == "82px 12px 46px 20px"
        assert await page.evaluate("Telegram.WebApp.contentSafeAreaInset.top") == 46
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360


async def test_the_map_goes_fullscreen_with_a_way_out_and_holds_swipes_while_dragged(
    stack: Stack,
) -> None:
    token, _ = await start_table(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, "8.0")
        await page.get_by_role("button", name="Map").click()
        await page.get_by_role("heading", name="The map").wait_for()
        full = page.locator("[data-fullscreen]")
        await full.click()
        assert await last(page, "web_app_request_fullscreen") == {}
        await page.locator("html[data-full-screen=on]").wait_for(state="attached")
        assert await full.inner_text() == "✕ Leave full screen"
        assert await page.evaluate("Telegram.WebApp.isFullscreen") is True
        assert (await last(page, "web_app_setup_back_button")) == {"is_visible": True}

        # Telegram's back button leads out of fullscreen first, staying on the map.
        await page.evaluate("TelegramClient.receive('back_button_pressed')")
        await page.locator("html[data-full-screen=off]").wait_for(state="attached")
        assert await full.inner_text() == "Full screen"
        await page.get_by_role("heading", name="The map").wait_for()
        # ... and so does the page's own button.
        await full.click()
        await page.locator("html[data-full-screen=on]").wait_for(state="attached")
        await full.click()
        await page.locator("html[data-full-screen=off]").wait_for(state="attached")
        assert await last(page, "web_app_exit_fullscreen") == {}

        # A finger on the map: vertical swipes no longer close the app, until it lifts.
        box = await page.locator("[data-drag]").bounding_box()
        await page.mouse.move(box["x"] + 20, box["y"] + 20)
        await page.mouse.down()
        assert await last(page, "web_app_setup_swipe_behavior") == {"allow_vertical_swipe": False}
        assert await page.evaluate("Telegram.WebApp.isVerticalSwipesEnabled") is False
        await page.mouse.move(box["x"] + 30, box["y"] + 60)
        await page.mouse.up()
        assert await last(page, "web_app_setup_swipe_behavior") == {"allow_vertical_swipe": True}
        assert page.errors == []


async def test_the_settings_button_opens_preferences_kept_in_cloud_storage(stack: Stack) -> None:
    token = await start_game(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, BO, token, "8.0")
        await page.get_by_role("heading", name="Your character").wait_for()
        assert await last(page, "web_app_setup_settings_button") == {"is_visible": True}
        await page.evaluate("TelegramClient.receive('settings_button_pressed')")
        await page.get_by_role("heading", name="Preferences").wait_for()
        assert await page.get_by_text("Kept in Telegram for your account").is_visible()
        await page.select_option("select[name=language]", "ru")
        await page.uncheck("input[name=haptics]")
        await page.get_by_role("button", name="Save", exact=True).click()
        # Back on the sheet, in Russian
        await page.get_by_role("heading", name="Ваш персонаж").wait_for()
        prefs = json.loads((await cloud(page, BO))["prefs"])
        assert prefs == {"language": "ru", "haptics": False}
        await page.reload()
        await page.get_by_role("heading", name="Ваш персонаж").wait_for()
        assert await page.evaluate("document.documentElement.lang") == "ru"
        # quiet hours are kept on the server, with the device's time zone
        await page.evaluate("TelegramClient.receive('settings_button_pressed')")
        await page.get_by_role("heading", name="Настройки").wait_for()
        await page.fill("input[name=from]", "23:15")
        await page.fill("input[name=to]", "06:45")
        await page.get_by_role("button", name="Сохранить тихие часы").click()
        await page.locator("[data-quiet-now]", has_text="с 23:15 до 06:45").wait_for()
        zone = await page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
        assert await reminders.quiet_hours_as_set(BO) == ("23:15", "06:45", zone)


async def test_an_older_client_gets_working_pages_without_the_newer_controls(
    stack: Stack,
) -> None:
    token = await start_game(stack)
    init = init_for(stack, BO, token)
    await api(
        stack, init, token, {"action": "approach.set", "payload": {"name": "Guile", "value": 2}}
    )
    async with chromium() as browser:
        page = await open_app(browser, stack, BO, token, "6.0")
        await page.get_by_role("heading", name="Your character").wait_for()
        await page.fill("textarea[name=notes]", "Kept on the phone")
        # No closing confirmation, settings button, safe areas or header colour in 6.0
        for event in (
            "web_app_setup_closing_behavior",
            "web_app_setup_settings_button",
            "web_app_request_safe_area",
            "web_app_set_header_color",
            "web_app_invoke_custom_method",
        ):
            assert await last(page, event) is None, event

        async def kept() -> bool:
            found = await page.evaluate(
                "Object.keys(localStorage).filter(k => k.startsWith('stonetable.draft_'))"
                ".map(k => localStorage.getItem(k))"
            )
            return any("Kept on the phone" in value for value in found)

        await eventually(kept)
        # The browser's own confirm stands in for Telegram's popup
        asked: list[str] = []

        async def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            await dialog.accept()

        page.on("dialog", answer)
        await page.get_by_role("button", name="Remove Guile").click()

        async def removed() -> bool:
            member = await Member.get(player__tg_id=BO, active=True)
            return bool(member.sheet["approaches"] == [])

        await eventually(removed)
        assert asked == ["Remove Guile?"]
        # the sheet has drawn itself again after the change before the next page opens
        await page.get_by_role("button", name="Remove Guile").wait_for(state="detached")
        # No settings button: the preferences open from the home page, kept on the device
        await page.evaluate("Stonetable.load('/app/home')")
        await page.get_by_role("button", name="⚙ Preferences").click()
        await page.get_by_role("heading", name="Preferences").wait_for()
        assert await page.get_by_text("Kept on this device").is_visible()
        assert page.errors == []


async def test_an_older_client_s_map_has_no_fullscreen_and_swipes_stay_as_they_are(
    stack: Stack,
) -> None:
    token, _ = await start_table(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, "7.6")
        await page.get_by_role("button", name="Map").click()
        await page.get_by_role("heading", name="The map").wait_for()
        assert await page.locator("[data-fullscreen]").is_hidden()
        box = await page.locator("[data-drag]").bounding_box()
        await page.mouse.move(box["x"] + 20, box["y"] + 20)
        await page.mouse.down()
        await page.mouse.up()
        assert await last(page, "web_app_setup_swipe_behavior") is None
        # 7.6 has the settings button and CloudStorage, not fullscreen or safe areas
        assert await last(page, "web_app_setup_settings_button") == {"is_visible": True}
        assert await last(page, "web_app_request_safe_area") is None
        assert page.errors == []


async def test_the_game_system_editor_comes_with_its_page_and_shows_chances_as_typed(
    stack: Stack,
) -> None:
    from core.campaigns import own_systems

    token = await start_game(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, "8.0")  # the host
        # a locator, not wait_for_function: the page's CSP forbids the eval a string predicate uses
        await page.locator("main h1").first.wait_for()
        await page.wait_for_load_state("load")  # the app's scripts have run
        assert await page.evaluate("!window.Stonetable.editors")  # not on the first load
        await page.evaluate(f"Stonetable.load('/app/c/{token}/systems')")
        await page.locator("form.system-editor").wait_for()
        await page.fill("form.system-editor textarea[name=text]", own_systems.EXAMPLE)
        await page.fill("form.system-editor [name=inputs]", "+1")
        # the check on load and the one after typing never overlap (one heavy request at once)
        await page.locator(".system-odds li").first.wait_for()
        assert await page.locator(".system-odds .problem").count() == 0
        shown = await page.locator(".system-odds li b").all_inner_texts()
        assert shown and all("%" in chance for chance in shown)
