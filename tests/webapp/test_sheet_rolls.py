"""``POST /api/c/<token>/roll``: a tap on the sheet opens the roll the chat command would.

Through the real routes of the web app over the test database (both backends): a
member's tap opens one panel (a retry with the same key opens no second one), and a
stranger, a forged launch, a paused game or a tap on nothing rollable change nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.campaigns.play import ChatRef, PlayerRef
from core.store.models import CampaignStatus, Panel
from tests.support.mini_app import Web, served_game

pytestmark = [pytest.mark.db]

BOT_TOKEN = "123456:sheet-rolls"
GROUP = ChatRef(-100777, "supergroup", "The Table")
GM = PlayerRef(701, "Gwen")
BO = PlayerRef(702, "Bo", language_code="ru")
STRANGER = PlayerRef(703, "Sam")
GUILE = {"what": "approach", "name": "Guile"}


@pytest.fixture
async def web(db: str) -> AsyncIterator[Web]:
    game = served_game(
        "threat", bot_token=BOT_TOKEN, group=GROUP, gm=GM, member=BO, strangers=[STRANGER]
    )
    async with game as served:
        await served.campaigns.edit(served.token, BO, "approach.set", {"name": "Guile", "value": 2})
        yield served


async def panels() -> list[Panel]:
    return await Panel.filter(kind="threat.roll").order_by("id")


async def test_a_members_tap_opens_the_roll_with_that_approach_in_the_games_chat(
    web: Web,
) -> None:
    status, body, _ = await web.post("roll", GUILE, key="tap-guile-0001")
    assert status == 200 and body["ok"] is True
    [panel] = await panels()
    assert panel.id == body["panel"] and panel.chat_tg_id == GROUP.tg_id and not panel.closed
    state = panel.state["panel"]
    assert (state["roller"], state["approach_name"], state["approach"]) == (BO.tg_id, "Guile", 2)


async def test_a_retry_with_the_same_key_opens_no_second_panel(web: Web) -> None:
    first = await web.post("roll", GUILE, key="tap-guile-0002")
    again = await web.post("roll", GUILE, key="tap-guile-0002")
    assert first[0] == again[0] == 200 and again[1] == first[1]
    assert again[2]["Idempotent-Replayed"] == "true"
    assert len(await panels()) == 1
    other = await web.post("roll", GUILE, key="tap-guile-0003")  # a new tap: a new roll
    assert other[0] == 200 and len(await panels()) == 2


async def test_a_stranger_and_a_forged_launch_open_nothing(web: Web) -> None:
    status, body, _ = await web.post("roll", GUILE, who=STRANGER, key="tap-stranger-01")
    assert status == 403 and "not in this game" in body["error"]
    status, body, _ = await web.post("roll", GUILE, bot_token="999:forged", key="tap-forged-01")
    assert status == 401
    assert await panels() == []


async def test_a_paused_game_refuses_the_tap_in_the_players_language(web: Web) -> None:
    await web.campaigns.set_status(GROUP, GM, CampaignStatus.PAUSED)
    status, body, _ = await web.post("roll", GUILE, key="tap-paused-001")
    assert status == 403 and "паузе" in body["error"]  # Bo reads Russian
    assert await panels() == []


async def test_a_strangers_tap_is_refused_before_its_body_is_read(web: Web) -> None:
    status, body, _ = await web.post("roll", None, raw=b"{not json", who=STRANGER)
    assert status == 403 and "not in this game" in body["error"]
    deep = b'{"what": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    status, body, _ = await web.post("roll", None, raw=deep, key="tap-deep-0001")
    assert status == 400 and body["error"]  # a member's unreadable body: not understood
    assert await panels() == []


@pytest.mark.parametrize(
    "body",
    [
        {"what": "approach", "name": "Prowess"},  # not on Bo's sheet
        {"what": "momentum", "name": "3"},  # not a roll
        {"what": "approach"},
        {"what": 7, "name": "Guile"},
        ["approach", "Guile"],
    ],
)
async def test_a_tap_on_nothing_rollable_is_refused_and_changes_nothing(
    web: Web, body: Any
) -> None:
    status, answer, _ = await web.post("roll", body, key="tap-nothing-01")
    assert status == 400 and answer["error"]
    assert await panels() == []


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(what=st.text(max_size=30), name=st.text(max_size=120))
async def test_any_tap_gets_an_answer_not_a_crash(web: Web, what: str, name: str) -> None:
    status, answer, _ = await web.post("roll", {"what": what, "name": name})
    assert status in (200, 400, 403) and ("ok" in answer or answer["error"])
