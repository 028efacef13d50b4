"""One truth on every screen: three ways a panel used to go stale, played through the bot.

- the last player writes their locations with /locations in private: the group's
  worldbuilding board moves on to dealing the map at once;
- a Collateral Clock ticked in the Mini App shows on the group's adventure panel;
- /downtime ends the adventure: the old adventure panel loses its travel buttons and
  says so, and its old buttons move nobody.

After each step, every message still carrying buttons reads as a fresh render.
"""

from __future__ import annotations

import time
from typing import Any

import aiohttp
import pytest

from core.campaigns.play import PlayerRef
from core.rules.errors import NotAllowedNow
from core.store.models import Campaign
from tests.support.nsu_bot import (
    ALICE,
    BO,
    CHIDI,
    PLAYERS,
    TIMEOUT,
    build_world,
    buttons,
    edited,
    find_button,
    make_character,
    message,
    press,
    say,
    seat_three,
)
from tests.support.one_truth import stale_views
from tests.support.stack import GROUP, Stack, campaigns, running_stack
from tgbot.callback import PanelButton, decode
from tgbot.sandbox.fake_api import default_cast
from webapp.auth import make_init_data

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def mini_app_edit(stack: Stack, user: int, action: str, **payload: Any) -> int:
    token = (await campaigns(stack).require_current(GROUP)).app_token
    init = make_init_data(
        stack.api.token,
        stack.api.players[user].user_dict(),
        int(time.time()) - 5,
        start_param=token,
        chat_type="supergroup",
    )
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{stack.origin}/api/c/{token}/edit",
            headers={"Authorization": "tma " + init},
            json={"action": action, "payload": payload},
        ) as response,
    ):
        return response.status


async def test_three_stale_screens_now_follow_the_game(stack: Stack) -> None:
    await seat_three(stack)
    # 1. Locations written after /locations in private: the board deals the map.
    await build_world(stack, locations_in_private=True)
    assert await stale_views(stack) == []
    for pid in PLAYERS:
        await make_character(stack, pid)
    assert await stale_views(stack) == []

    # At most one live adventure panel in the group: a new one retires the old.
    first = (await say(stack, ALICE, "/adventure"))["message_id"]
    mark = stack.api.mark()
    adventure = (await say(stack, BO, "/adventure"))["message_id"]
    old = await edited(stack, GROUP, first, mark)
    assert buttons(old) == [] and "Play went on in a newer message." in old["text"]
    assert await stale_views(stack) == []

    # 2. A Collateral Clock ticked in the Mini App shows on the group's panel.
    await press(stack, BO, GROUP, adventure, "➡️ Travel")  # the places within reach
    travelled = await press(stack, BO, GROUP, adventure, "➡️")
    assert "0/8" in travelled["text"]
    here = (await Campaign.get(chat__tg_id=GROUP)).state["world"]["current"]
    mark = stack.api.mark()
    assert await mini_app_edit(stack, CHIDI, "clock.tick", card_id=here) == 200
    shown = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == adventure, timeout=TIMEOUT, since=mark
    )
    assert "1/8" in shown["text"]
    assert await stale_views(stack) == []

    # 3. Downtime ends the adventure's travels: the old panel says so, with no buttons.
    home = find_button(message(stack, GROUP, adventure), "Home")["callback_data"]
    mark = stack.api.mark()
    downtime = await say(stack, BO, "/downtime home")
    assert "downtime action" in downtime["text"]
    over = await edited(stack, GROUP, adventure, mark)  # travels are over: no travel buttons
    assert not [b for b in buttons(over) if b["callback_data"].startswith("p1:")]
    assert "🏕 The party went into downtime" in over["text"]  # still true once it ends
    assert "➡️" not in str(over["reply_markup"])
    assert await stale_views(stack) == []
    # The old button's press (say, from a phone that had not seen the edit) moves nobody.
    old_home = decode(home)
    assert isinstance(old_home, PanelButton)
    with pytest.raises(NotAllowedNow, match="out of date"):
        await campaigns(stack).act(
            old_home.panel_id, old_home.version, PlayerRef(CHIDI, "Chidi"), old_home.action
        )
    assert "At home" in (await say(stack, ALICE, "/adventure"))["text"]
    assert await stale_views(stack) == []


RETIRED_LINE = "⏭ Play went on in a newer message."


async def test_a_second_begin_retires_the_first_board_as_it_read(stack: Stack) -> None:
    await seat_three(stack)
    first = await say(stack, ALICE, "/begin")
    board = first["message_id"]
    answered = await press(stack, BO, GROUP, board, "Knocks")  # a step on the first board
    old = [b["callback_data"] for b in buttons(answered) if b["callback_data"].startswith("p1:")]
    assert old
    mark = stack.api.mark()
    newer = await say(stack, ALICE, "/begin")
    assert newer["message_id"] != board
    retired = await edited(stack, GROUP, board, mark)
    # It reads as it did, with one line saying where play went on: no other state.
    assert retired["text"] == f"{answered['text']}\n\n{RETIRED_LINE}"
    assert buttons(retired, undo=True) == []
    assert await stale_views(stack) == []
    # Its old buttons (on a phone that missed the edit) are out of date and leave it be.
    for data in old:
        pressed = await stack.api.press_button(BO, GROUP, board, data, as_seen=answered)
        assert "out of date" in (await pressed.answered(TIMEOUT))["text"]
    assert message(stack, GROUP, board)["text"] == retired["text"]
    assert buttons(message(stack, GROUP, board), undo=True) == []
