"""Every page of the Mini App at 360 px, in English and in Russian (Chromium).

On a phone-sized page each of No Stone Unturned's sections (the sheet, the world at
every worldbuilding step, the map and a card, the player's cards, the log), each page
of the other games, and the pages outside a game's tabs (home, rolls, saved rolls,
odds, preferences, the shared story) is opened in each language: nothing is wider
than the screen, no element cuts its text, no text is squeezed into a column a letter
or two wide, and no two pieces of text run into each other (their drawn boxes never
overlap).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.browser import chromium, screenshot
from tests.support.stack import Stack, running_stack
from tests.webapp.test_nsu_app import ALICE, BO, CHIDI, fits_the_phone, open_app, start_table
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.browser, pytest.mark.db, pytest.mark.e2e]

SECTIONS = {
    "en": ("Sheet", "World", "Map", "My cards", "Log"),
    "ru": ("Лист", "Мир", "Карта", "Мои карточки", "Журнал"),
}

# Text boxes drawn over each other (two captions running into each other), and
# elements whose text is cut by their own box.
CLASHES = """() => {
  const boxes = [];
  const walker = document.createTreeWalker(document.querySelector('main') || document.body,
                                           NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const parent = node.parentElement;
    if (!parent.checkVisibility({checkVisibilityCSS: true, checkOpacity: true})) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      const text = node.textContent.trim().slice(0, 40);
      if (r.width > 1 && r.height > 1) boxes.push({r, text, node});
    }
  }
  const clashes = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.node === b.node) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 2 && h > 3) clashes.push(`${a.text} × ${b.text}`);
    }
  }
  // a field's own text may scroll (a name typed); its hint (placeholder) must fit
  const typed = e => (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA') && e.value;
  const cut = [...document.querySelectorAll('main *')].filter(e =>
    e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'
    && e.clientWidth > 0 && !typed(e) && e.checkVisibility())
    .map(e => `${e.className || e.tagName}: ${e.textContent.trim().slice(0, 40)}`);
  const canvas = document.createElement('canvas').getContext('2d');
  const fields = 'main input[placeholder], main textarea[placeholder]';
  for (const field of document.querySelectorAll(fields)) {
    if (field.value || !field.checkVisibility() || !field.placeholder) continue;
    const style = getComputedStyle(field);
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const lines = field.tagName === 'TEXTAREA' ? Math.max(1, field.rows || 2) : 1;
    if (canvas.measureText(field.placeholder).width > room * lines + 1)
      cut.push(`hint: ${field.placeholder}`);
  }
  // a text of two words or six letters squeezed into a column under two letters wide
  // (one letter per line)
  const squeezed = [];
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    const text = node.textContent.trim();
    const letters = (text.match(/\\p{L}/gu) || []).length;
    if (!(letters >= 6 || (text.split(/\\s+/).length >= 2 && letters >= 2))) continue;
    const parent = node.parentElement;
    if (!parent.checkVisibility({checkVisibilityCSS: true})) continue;
    if (parent.closest('option, script, style, textarea')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    const em = parseFloat(getComputedStyle(parent).fontSize);
    if (box.width > 0 && box.width < 1.3 * em)
      squeezed.push(`${parent.className || parent.tagName}: ${text.slice(0, 40)} (${box.width}px)`);
  }
  return {clashes, cut, squeezed, wide: document.documentElement.scrollWidth};
}"""


async def check_page(page: Any, name: str) -> None:
    await page.wait_for_timeout(400)  # fonts and pictures settle
    found = await page.evaluate(CLASHES)
    await screenshot(page, name)
    assert found["wide"] <= 360, (name, found["wide"])
    assert found["squeezed"] == [], (name, found["squeezed"])
    assert found["clashes"] == [], (name, found["clashes"])
    assert found["cut"] == [], (name, found["cut"])
    await fits_the_phone(page)


@pytest.fixture(params=["en", "ru"])
async def stack(request: pytest.FixtureRequest, db: str) -> Stack:  # type: ignore[misc]
    code = request.param
    cast = [replace(p, language_code=code) if p.id in (ALICE, BO) else p for p in default_cast()]
    async with running_stack(db, players=cast) as running:
        running.language = code  # type: ignore[attr-defined]
        yield running


async def test_every_nsu_page_fits_a_360_px_phone_in_each_language(stack: Stack) -> None:
    code = stack.language  # type: ignore[attr-defined]
    token, _ = await start_table(stack)
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, "light")
        await page.locator("[data-sheet=own] .pc-name", has_text="Ana").wait_for()
        await check_page(page, f"phone-{code}-sheet")
        for section in SECTIONS[code][1:]:
            await page.get_by_role("button", name=section, exact=True).click()
            await page.locator("nav.tabs .tab.on", has_text=section).wait_for()
            await check_page(page, f"phone-{code}-{section}")
        # a card of the map, opened from the map
        await page.get_by_role("button", name=SECTIONS[code][2], exact=True).click()
        await page.locator(".card-tile").first.click()
        await page.locator(".badge.d").first.wait_for()
        await check_page(page, f"phone-{code}-card")


async def other_game(stack: Stack, key: str) -> str:
    """A game of ``key`` hosted by Alice, with Bo's sheet written in full."""
    from core.campaigns.play import PlayerRef
    from tests.support.stack import GROUP, campaigns

    def ref(user: int) -> PlayerRef:
        player = stack.api.players[user]
        return PlayerRef(player.id, player.first_name, player.last_name, player.username)

    async def say(user: int, text: str) -> None:
        await stack.api.send_text(user, GROUP, text)
        await stack.api.wait_for_message(GROUP, timeout=10)

    await say(ALICE, f"/newgame {key}")
    for user in (BO, CHIDI):
        await say(user, "/join")
    use = campaigns(stack)
    token = (await use.require_current(GROUP)).app_token
    edits: dict[str, list[tuple[int, str, dict[str, Any]]]] = {
        "threat": [
            (BO, "approach.set", {"name": "Осторожно и незаметно", "value": 3}),
            (BO, "approach.set", {"name": "Prowess", "value": 2}),
        ],
        "cortex": [
            (BO, "text", {"text": "value Справедливость d8"}),
            (BO, "text", {"text": "relationship Лоис Лейн d6"}),
            (BO, "text", {"text": "asset Старая машина d6 distinction"}),
        ],
        "d20": [
            (BO, "ability.set", {"name": "Сила", "strength": "strong"}),
            (BO, "proficiency.set", {"name": "Атлетика", "bonus": 2}),
            (ALICE, "harm.add", {"player": BO, "strain": 2, "wounds": 6}),
        ],
    }
    for user, action, payload in edits[key]:
        await use.edit(token, ref(user), action, payload)
    return token


@pytest.mark.parametrize("key", ["threat", "cortex", "d20"])
async def test_every_page_of_the_other_games_fits_a_360_px_phone_in_each_language(
    stack: Stack, key: str
) -> None:
    code = stack.language  # type: ignore[attr-defined]
    token = await other_game(stack, key)
    async with chromium() as browser:
        for user, who in ((BO, "player"), (ALICE, "gm")):
            page = await open_app(browser, stack, user, token, "light")
            await page.locator("main[data-status]").wait_for()
            await check_page(page, f"phone-{code}-{key}-{who}")
            tabs = page.locator("nav.tabs .tab")
            for index in range(1, await tabs.count()):
                await tabs.nth(index).click()
                await page.locator("nav.tabs .tab.on").nth(0).wait_for()
                await check_page(page, f"phone-{code}-{key}-{who}-{index}")
            await page.close()


# What the players write while building the world, in the table's language: long
# answers beside long questions, words too long for a narrow column.
WRITTEN = {
    "en": {
        "tone": "Hopeful, strange and slow, with weather that matters",
        "ban": "Spiders and anything with too many legs",
        "statements": ("A bell tower with no bell", "The well sings at night"),
        "scope": {
            "time_between_adventures": "A few weeks",
            "travel_time": "Two or three days on foot, longer in the rain",
            "technology": "Steam",
        },
        "note": "Boats at night, lanterns unlit",
        "resources": ("Clean water", "Seeds", "Rope", "Lamp oil", "Medicine"),
    },
    "ru": {
        "tone": "Надежда, странность и неспешность, погода имеет значение",
        "ban": "Пауки и всё, у чего слишком много ног",
        "statements": ("Колокольня без колокола", "Колодец поёт по ночам"),
        "scope": {
            "time_between_adventures": "Несколько недель",
            "travel_time": "Два-три дня пешком, в дождь дольше",
            "technology": "Паровые машины",
        },
        "note": "Лодки по ночам, фонари не зажигают",
        "resources": ("Чистая вода", "Семена", "Верёвки", "Масло для ламп", "Лекарства"),
    },
}


async def test_the_world_page_fits_at_every_worldbuilding_step_in_each_language(
    stack: Stack,
) -> None:
    from tests.support.stack import GROUP, campaigns
    from tests.webapp.test_nsu_app import say
    from tests.webapp.test_nsu_dealing import edit

    code = stack.language  # type: ignore[attr-defined]
    said = WRITTEN[code]
    await say(stack, ALICE, "/newgame nsu")
    for user in (BO, CHIDI):
        await say(stack, user, "/join")
    await say(stack, ALICE, "/begin")
    token = (await campaigns(stack).require_current(GROUP)).app_token

    async def ok(who: int, action: str, payload: Any) -> None:
        status, body = await edit(stack, who, token, action, payload)
        assert status == 200, (action, body)

    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, "light")
        world = SECTIONS[code][1]

        async def world_page(name: str) -> None:
            await page.evaluate(f"Stonetable.load('/app/c/{token}/world')")
            await page.locator("nav.tabs .tab.on", has_text=world).wait_for()
            await check_page(page, f"phone-{code}-world-{name}")

        await world_page("tone")
        await ok(ALICE, "setup.tone", {"notes": said["tone"], "tools": ["x_card", "knocks"]})
        await world_page("agree")
        for who in (BO, CHIDI):
            await ok(who, "setup.agree", {})
        await world_page("bans")
        await ok(ALICE, "setup.ban", {"text": said["ban"]})
        await ok(BO, "setup.pass_ban", {})
        await ok(CHIDI, "setup.pass_ban", {})
        await world_page("settlement")
        await ok(ALICE, "setup.statement", {"text": said["statements"][0]})
        await ok(BO, "setup.statement", {"text": said["statements"][1], "builds_on": 0})
        await ok(CHIDI, "setup.card_full", {})
        for question, answer in said["scope"].items():
            await ok(ALICE, "setup.scope", {"question": question, "text": answer})
        await ok(BO, "setup.scope", {"question": None, "text": said["note"]})
        await world_page("scope")
        await ok(CHIDI, "setup.finish_scope", {})
        for who, name in zip((ALICE, BO, CHIDI, ALICE, ALICE), said["resources"], strict=True):
            await ok(who, "setup.resource", {"name": name})
        await world_page("abundance")
        await ok(BO, "setup.abundance", {"name": said["resources"][0]})
        await world_page("locations")
        # the form to write a location, on My cards
        await page.evaluate(f"Stonetable.load('/app/c/{token}/cards')")
        await page.locator("nav.tabs .tab.on", has_text=SECTIONS[code][3]).wait_for()
        await check_page(page, f"phone-{code}-cards-author")


async def test_the_pages_outside_a_game_s_tabs_fit_a_360_px_phone_in_each_language(
    stack: Stack,
) -> None:
    from tests.webapp.test_nsu_app import say
    from tests.webapp.test_story import call

    code = stack.language  # type: ignore[attr-defined]
    token, _ = await start_table(stack)
    for text in ("/roll 2d6+3 переправа через запруду", "/roll 1d20+5 adv", "/save атака 2d6+3"):
        await say(stack, ALICE, text)
    status, body = await call(stack, ALICE, token, "POST", {"action": "publish"})
    assert status == 200, body
    async with chromium() as browser:
        page = await open_app(browser, stack, ALICE, token, "light")
        await page.locator("main[data-status]").wait_for()
        for name, url in (
            ("home", "/app/home"),
            ("prefs", "/app/prefs"),
            ("odds", "/app/odds?expr=1d20%2B5%20adv%20%3E%3D%2015"),
            ("rolls", f"/app/c/{token}/rolls"),
            ("saved", f"/app/c/{token}/saved"),
        ):
            await page.evaluate(f"Stonetable.load({url!r})")
            await page.wait_for_function(f"document.getElementById('app').dataset.url === {url!r}")
            await check_page(page, f"phone-{code}-{name}")
        await page.goto(f"{body['url']}?lang={code}")
        await page.locator("#story-map").wait_for()
        await check_page(page, f"phone-{code}-story")
