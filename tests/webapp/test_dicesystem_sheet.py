"""A library game's sheet in the Mini App: each player's named stats, set by their
owner within range and tapped to roll in the game's chat.

Through the real routes of the web app over the test database: the page lists the
stats in the viewer's language (their own to step and tap, the others' to read), an
edit saves within range and refuses outside it, and a tap opens one roll of the
game with the player's value, its outcome and exact chance (a retry with the same key
rolls no second time).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from core.campaigns.play import ChatRef, PlayerRef
from core.rules.dicesystem import STAT_SET
from core.rules.systems import library_definition, odds
from core.store.models import Member, Panel
from tests.support.mini_app import Web, served_game

pytestmark = [pytest.mark.db]

BOT_TOKEN = "123456:dice-stats"
GROUP = ChatRef(-100778, "supergroup", "The Table")
HOST = PlayerRef(711, "Gwen")
BO = PlayerRef(712, "Bo", language_code="ru")
STRANGER = PlayerRef(713, "Sam")


@pytest.fixture
async def web(db: str) -> AsyncIterator[Web]:
    game = served_game(
        "pbta", bot_token=BOT_TOKEN, group=GROUP, gm=HOST, member=BO, strangers=[STRANGER]
    )
    async with game as served:
        yield served


async def page(web: Web, who: PlayerRef) -> str:
    headers = web.auth(who)
    async with web.http.get(f"{web.origin}/app/c/{web.token}", headers=headers) as response:
        assert response.status == 200
        return await response.text()


async def rolls() -> list[Panel]:
    return await Panel.filter(kind="dice.roll").order_by("id")


async def test_the_sheet_lists_each_players_stats_in_the_viewers_language(web: Web) -> None:
    russian = await page(web, BO)
    assert "Ваши характеристики" in russian and "Хладнокровие" in russian
    assert russian.count('data-roll="stat"') == 5  # Bo's own five, to tap
    assert 'data-edit="stat.set"' in russian
    english = await page(web, HOST)
    assert "Your stats" in english and "Cool" in english and "Хладнокровие" not in english
    assert english.count('data-roll="stat"') == 5  # the host's own only; Bo's are read
    stranger = web.auth(STRANGER)
    async with web.http.get(f"{web.origin}/app/c/{web.token}", headers=stranger) as response:
        assert "Хладнокровие" not in await response.text() and "Cool" not in await response.text()


async def test_a_player_steps_their_own_stat_within_range_once_per_key(web: Web) -> None:
    body = {"action": STAT_SET, "payload": {"stat": "hard", "value": 2}}
    status, answer, _ = await web.post("edit", body, key="stat-hard-0001")
    assert status == 200
    [me] = [p for p in answer["sheet"]["players"] if p["own"]]
    assert {s["key"]: s["value"] for s in me["stats"]}["hard"] == 2
    again = await web.post("edit", body, key="stat-hard-0001")
    assert again[0] == 200 and again[2]["Idempotent-Replayed"] == "true"
    member = await Member.get(player__tg_id=BO.tg_id)
    assert member.sheet["stats"]["hard"] == 2

    status, answer, _ = await web.post(
        "edit", {"action": STAT_SET, "payload": {"stat": "hard", "value": 5}}, key="stat-hard-02"
    )
    assert status == 400 and "от -3 до 4" in answer["error"]  # Bo reads Russian
    status, answer, _ = await web.post(
        "edit", {"action": STAT_SET, "payload": {"stat": "luck", "value": 1}}, key="stat-luck-01"
    )
    assert status == 400 and "luck" in answer["error"]
    assert (await Member.get(player__tg_id=BO.tg_id)).sheet["stats"]["hard"] == 2


async def test_a_tap_on_a_stat_rolls_it_with_the_players_value_and_its_exact_chance(
    web: Web,
) -> None:
    await web.campaigns.edit(web.token, BO, STAT_SET, {"stat": "weird", "value": 3})
    tap = {"what": "stat", "name": "weird"}
    status, answer, _ = await web.post("roll", tap, key="tap-weird-0001")
    assert status == 200 and answer["ok"] is True
    again = await web.post("roll", tap, key="tap-weird-0001")
    assert again[1] == answer and again[2]["Idempotent-Replayed"] == "true"
    [panel] = await rolls()
    assert panel.id == answer["panel"] and panel.chat_tg_id == GROUP.tg_id and panel.closed
    state = panel.state
    assert state["by"] == BO.tg_id and state["inputs"][0][:2] == ["stat", 3]
    chance = odds(library_definition("pbta"), {"stat": 3}).chance(state["outcome"]["key"])
    assert state["chance"] == [chance.numerator, chance.denominator]
    assert state["value"] == sum(faces[0] for faces, _ in state["groups"][0][2]) + 3


async def test_a_tap_on_nothing_rollable_or_by_a_stranger_rolls_nothing(web: Web) -> None:
    status, _, _ = await web.post("roll", {"what": "approach", "name": "cool"}, key="tap-x-0001")
    assert status == 400
    status, answer, _ = await web.post("roll", {"what": "stat", "name": "luck"}, key="tap-x-0002")
    assert status == 400 and "luck" in answer["error"]
    status, _, _ = await web.post(
        "roll", {"what": "stat", "name": "cool"}, who=STRANGER, key="tap-x-0003"
    )
    assert status == 403
    assert await rolls() == []


def test_the_stats_page_words_come_from_the_catalogue_around_the_games_own() -> None:
    from tests.tgbot.test_i18n_pseudo import NAMES, leaks, render, visible
    from webapp.sheets.dicesystem import _stats

    pbta = library_definition("pbta")
    mine = {"player": 1, "name": NAMES[0], "own": True, "stats": _stats(pbta, {})}
    theirs = {"player": 2, "name": NAMES[1], "own": False, "stats": _stats(pbta, {})}
    sheet = {
        "members": [{"name": NAMES[0], "you": True}, {"name": NAMES[1], "you": False}],
        "players": [mine, theirs],
        "about": {"en": pbta.about.en, "ru": pbta.about.ru},
    }
    page = re.sub(
        r"<style>.*?</style>",
        " ",
        visible(render("sheets/dicesystem.html", sheet=sheet)),
        flags=re.S,
    )
    game_words = [s.name.en for s in pbta.stats] + [pbta.about.en]
    assert leaks(page, game_words) == []
    assert page.count('data-roll="stat"') == 5 and "+3" not in page
