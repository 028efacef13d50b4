"""Every Mini App page looks right on a phone: golden screenshots at 360 and 412 pixels
wide, light and dark, in English and Russian — four looks that hold every pair of those
(each width in each theme and each language, each theme in each language), since a page
drawn wrong shows in any pair that meets its cause.

Each page is opened in headless Chromium through the real routes (the sandbox's stand-in
for telegram-web-app.js, signed launch data) and compared with its PNG in
``tests/webapp/golden/`` with the /map picture's tolerance for font rasterising
(:func:`tests.tgbot.test_map_picture.differs`). Times and dates are masked. A mismatch
saves the page drawn and a difference image under ``artifacts/golden/``.

To regenerate the golden images after an intended change of a page, look at the new
pages, then run::

    STONETABLE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/webapp/test_golden_pages.py
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from core.campaigns import Campaigns, saved_rolls
from core.campaigns.play import Play
from core.rules.nsu.details import Detail
from core.rules.nsu.sheet import CharacterDraft, choose_name, describe, pick_moods
from core.rules.registry import default_registry
from core.rules.rng import SeededRng
from core.rules.table import Role, Seat, Table
from core.runtime.locks import InProcessKeyedLock
from core.store.models import Campaign, Chat, LogEntry, Player, RollRecord
from core.views import story as stories
from tests.core.rules.cortex.test_campaign_panel import Game
from tests.support.bot_api import serve_app
from tests.support.browser import TELEGRAM_JS, chromium, telegram_stub
from tests.support.heavy import small_heavy
from tests.support.nsu_table import character, split, world
from tests.support.nsu_table import table as nsu_table
from tests.tgbot.test_map_picture import differs
from tests.webapp.test_secrecy import store_table
from webapp.app import create_app
from webapp.auth import make_init_data
from webapp.deps import WebDeps
from webapp.sheets import sheet_pages

pytestmark = [pytest.mark.browser, pytest.mark.db]

BOT_TOKEN = "4242:golden"
GOLDEN = Path(__file__).parent / "golden"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "golden"
ANA, BRAM, CHIDI = 1001, 1002, 1003
GM, ANN = 7001, 7002
MASKED = "time, .rolls .where, .chips.games .hint"
FORGED = 4242  # launch data signed with another bot's token: the 401 page
NAMES = {ANA: "Alice Marsh", BRAM: "Bo", CHIDI: "Chidi Okafor", GM: "Gwen", ANN: "Ann", 1: "Clark"}


@dataclass
class Pages:
    origin: str
    urls: dict[str, tuple[int, str]]  # page name -> (viewer, url)


@pytest.fixture
async def pages(db: str) -> AsyncIterator[Pages]:
    registry = default_registry()
    campaigns = Campaigns(registry, SeededRng(1), InProcessKeyedLock())
    play = Play(SeededRng(1), campaigns.locks, time.time)
    app = create_app(
        WebDeps(play, campaigns, sheet_pages(), BOT_TOKEN, 86400, time.time, heavy=small_heavy())
    )
    w = split(world((ANA, BRAM, CHIDI)), {ANA, BRAM}, {CHIDI})
    ana = character("Ana").add_detail(Detail("Muddy boots"))
    names = {p: NAMES[p] for p in (ANA, BRAM, CHIDI)}
    nsu, campaign = await store_table(
        "nsu", nsu_table(w, {ANA: ana, BRAM: character("Bram"), CHIDI: character("Chi")}, names)
    )
    for text in ("Ana rolls to cross the weir: 5.", "Detail: +Steady footing (Ana)."):
        await LogEntry.create(campaign_id=campaign.id, kind="detail", text=text, player_ids=[ANA])
    secret = await stories.publish(registry, nsu, ANA)
    await _rolls(campaign.id)
    await _saved_rolls(campaign.id)
    # a player halfway through making a character: name, look and moods chosen
    draft = pick_moods(
        describe(choose_name(CharacterDraft(), "Ana"), "she/her", "Muddy boots, a patched coat"),
        "Curious",
        "Wary",
        "Angry",
    )
    making = nsu_table(w, {BRAM: character("Bram"), CHIDI: character("Chi")}, names)
    making_seat = Seat(ANA, names[ANA], frozenset({Role.PLAYER}), {"draft": draft.to_dict()})
    creating, new_campaign = await store_table(
        "nsu", Table(1, "nsu", making.state, {ANA: making_seat, **making.seats})
    )
    second = await Chat.get(campaigns__id=new_campaign.id)
    second.title = "Second Table"
    await second.save()
    threat_sheets = {"approaches": [["Bold", 2], ["Sly", 3]], "momentum": 3, "harm": 1}
    threat, _ = await store_table(
        "threat",
        Table(
            1,
            "threat",
            {"v": 1},
            {
                GM: Seat(GM, "Gwen", frozenset({Role.GAME_MASTER}), {}),
                ANN: Seat(
                    ANN, "Ann", frozenset({Role.PLAYER}), {**threat_sheets, "notes": "A plan"}
                ),
            },
        ),
    )
    d20_rules = registry.find("d20").campaign
    d20_table = Table(
        1,
        "d20",
        d20_rules.new_state(),
        {
            GM: Seat(GM, "Gwen", frozenset({Role.GAME_MASTER}), {}),
            ANN: Seat(ANN, "Ann", frozenset({Role.PLAYER}), {}),
        },
    )
    d20_state, ann_sheet = d20_rules.seated(d20_table, ANN)
    seats = {**d20_table.seats, ANN: Seat(ANN, "Ann", frozenset({Role.PLAYER}), ann_sheet)}
    d20, _ = await store_table("d20", Table(1, "d20", d20_state, seats))
    cortex_game = Game()
    cortex, _ = await store_table("cortex", cortex_game.table)
    clark = next(p for p, s in cortex_game.table.seats.items() if Role.PLAYER in s.roles)
    async with serve_app(app) as origin:
        yield Pages(
            origin,
            {
                "home": (ANA, "/app/home"),
                "prefs": (ANA, "/app/prefs"),
                "nsu-sheet": (ANA, f"/app/c/{nsu}"),
                "nsu-map": (ANA, f"/app/c/{nsu}/map"),
                "nsu-cards": (ANA, f"/app/c/{nsu}/cards"),
                "nsu-world": (ANA, f"/app/c/{nsu}/world"),
                "nsu-log": (BRAM, f"/app/c/{nsu}/log"),
                "nsu-card": (ANA, f"/app/c/{nsu}/map/a"),
                "nsu-rolls": (BRAM, f"/app/c/{nsu}/rolls"),
                "nsu-saved": (ANA, f"/app/c/{nsu}/saved"),
                "nsu-create": (ANA, f"/app/c/{creating}"),
                "odds": (ANA, "/app/odds?expr=1d20%2B5%20adv%20%3E%3D%2015"),
                "threat-sheet": (ANN, f"/app/c/{threat}"),
                "d20-sheet": (ANN, f"/app/c/{d20}"),
                "cortex-sheet": (clark, f"/app/c/{cortex}"),
                "story": (0, f"/story/{secret}"),
                "unauthorized": (FORGED, "/app/home"),
            },
        )


async def _saved_rolls(campaign_id: int) -> None:
    """Ana's saved rolls, and one Bo saved for the table (as its host would)."""
    table = await Chat.get(campaigns__id=campaign_id)
    topic = (await Campaign.get(id=campaign_id)).topic_id
    await saved_rolls.save(ANA, "atk", "1d20+5 adv")
    await saved_rolls.save(ANA, "атака", "2d6+3 рубящий")
    await saved_rolls.save(BRAM, "init", "1d20+2", saved_rolls.Table(table.tg_id, topic))


async def _rolls(campaign_id: int) -> None:
    """Rolls in the NSU game's chat: public ones by Ana and Bram, a secret one of Ana's."""
    campaign_chat = await Chat.get(campaigns__id=campaign_id)
    rolls = [
        (ANA, "2d6+3", "for the weir", 11, [[[5, 1], [3, 1]]], None),
        (BRAM, "1d20+5 adv", "", 19, [[[14, 1], [6, 0]]], None),
        (ANA, "4d6kh3", "strength", 13, [[[6, 1], [4, 1], [3, 1], [1, 0]]], None),
        (ANA, "1d8", "a secret look", 2, [[[2, 1]]], [ANA]),
    ]
    for who, notation, label, total, faces, seen_by in rolls:
        await RollRecord.create(
            chat=campaign_chat,
            player=await Player.get(tg_id=who),
            notation=notation,
            label=label,
            total=total,
            faces=faces,
            campaign_id=campaign_id,
            seen_by=seen_by,
        )


async def _open(browser: Any, pages: Pages, viewer: int, width: int, theme: str, lang: str) -> Any:
    context = await browser.new_context(
        viewport={"width": width, "height": 740}, device_scale_factor=1, color_scheme=theme
    )
    page = await context.new_page()
    page.set_default_timeout(20_000)
    user = {"id": viewer, "first_name": NAMES.get(viewer, "Reader"), "language_code": lang}
    signed_by = "999:forged-token" if viewer == FORGED else BOT_TOKEN
    init = make_init_data(signed_by, user, int(time.time()) - 5)
    stub = telegram_stub(init, theme)

    async def serve(route: Any) -> None:
        await route.fulfill(status=200, content_type="application/javascript", body=stub)

    await page.route(TELEGRAM_JS + "*", serve)
    return page


async def _shot(page: Any, pages: Pages, url: str) -> Image.Image:
    if url.startswith("/story/"):
        await page.goto(pages.origin + url)
    else:
        await page.goto(pages.origin + "/app")
        await page.locator("main[data-status]").wait_for(state="attached")
        await page.evaluate(f"Stonetable.load({url!r})")
        await page.wait_for_function(f"document.getElementById('app').dataset.url === {url!r}")
    await page.evaluate("document.fonts.ready")
    await page.wait_for_timeout(300)
    mask = [page.locator(MASKED)]
    png = await page.screenshot(
        full_page=True, mask=mask, mask_color="#888888", animations="disabled"
    )
    return Image.open(io.BytesIO(png)).convert("RGB")


LOOKS = [(360, "light", "en"), (360, "dark", "ru"), (412, "dark", "en"), (412, "light", "ru")]


@pytest.mark.parametrize(("width", "theme", "lang"), LOOKS, ids=lambda x: str(x))
async def test_every_page_matches_its_golden_screenshot(
    pages: Pages, width: int, theme: str, lang: str
) -> None:
    problems = []
    async with chromium() as browser:
        for name, (viewer, url) in pages.urls.items():
            page = await _open(browser, pages, viewer, width, theme, lang)
            if url.startswith("/story/"):
                url += f"?lang={lang}"
                await page.emulate_media(color_scheme=theme)
            drawn = await _shot(page, pages, url)
            await page.context.close()
            assert drawn.width == width, (name, drawn.width)  # nothing overflows the phone
            path = GOLDEN / f"{name}-{width}-{theme}-{lang}.png"
            if os.environ.get("STONETABLE_UPDATE_GOLDEN") == "1" or not path.exists():
                if os.environ.get("CI") == "true" and not path.exists():
                    problems.append(f"{path.name}: no golden image")
                    continue
                path.parent.mkdir(exist_ok=True)
                drawn.save(path, optimize=True)
                continue
            golden = Image.open(path).convert("RGB")
            problem = differs(drawn, golden)
            if problem is not None:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                drawn.save(ARTIFACTS / path.name)
                if drawn.size == golden.size:
                    ImageChops.difference(drawn, golden).save(ARTIFACTS / f"diff-{path.name}")
                problems.append(f"{path.name}: {problem}")
    assert problems == [], f"{problems}; see {ARTIFACTS}"
