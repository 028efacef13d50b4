"""A tap on the Mini App's sheet posts the game's roll panel in its chat, end to end.

The whole application runs against the local Bot API server; the tap is the Mini
App's request (``POST /api/c/<token>/roll`` with signed initData and an
Idempotency-Key), and the panel the chat command would open appears in the game's
group, or in its forum topic, with its buttons, for each of the four games.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import pytest

from core.campaigns.play import PlayerRef
from core.store.models import Campaign, Member, Panel
from tests.support.nsu_table import campaign_state, character, sheet, split, world
from tests.support.stack import GROUP, Stack, panel_row, running_stack
from tgbot.sandbox.fake_api import default_cast
from webapp.auth import make_init_data

pytestmark = [pytest.mark.e2e, pytest.mark.db]

FORUM = -100778
ALICE, BO, CHIDI = 1001, 1002, 1003
TIMEOUT = 10


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def say(stack: Stack, user: int, chat: int, text: str, thread: int | None) -> Any:
    mark = stack.api.mark()
    await stack.api.send_text(user, chat, text, thread_id=thread)
    return await stack.api.wait_for_message(
        chat, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=TIMEOUT, since=mark
    )


def player(stack: Stack, user: int) -> PlayerRef:
    return PlayerRef(user, stack.api.players[user].first_name)


async def tap(stack: Stack, user: int, token: str, what: str, name: str) -> tuple[int, Any]:
    init = make_init_data(
        stack.api.token,
        stack.api.players[user].user_dict(),
        int(time.time()) - 5,
        start_param=token,
        chat_type="supergroup",
    )
    headers = {"Authorization": f"tma {init}", "Idempotency-Key": f"tap-{what}-{user}-0001"}
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{stack.origin}/api/c/{token}/roll",
            headers=headers,
            json={"what": what, "name": name},
        ) as response,
    ):
        return response.status, await response.json()


async def threat_sheet(stack: Stack, token: str, view_id: int) -> tuple[str, str, str]:
    campaigns = stack.runtime.application.deps.campaigns  # type: ignore[union-attr]
    await campaigns.edit(token, player(stack, BO), "approach.set", {"name": "Guile", "value": 2})
    return "approach", "Guile", "Guile"


async def d20_sheet(stack: Stack, token: str, view_id: int) -> tuple[str, str, str]:
    campaigns = stack.runtime.application.deps.campaigns  # type: ignore[union-attr]
    payload = {"player": BO, "name": "Might", "strength": "strong"}
    await campaigns.edit(token, player(stack, BO), "ability.set", payload)
    return "ability", "Might", "Might"


async def cortex_sheet(stack: Stack, token: str, view_id: int) -> tuple[str, str, str]:
    campaigns = stack.runtime.application.deps.campaigns  # type: ignore[union-attr]
    payload = {"box": "value", "name": "Justice", "die": "d8"}
    await campaigns.edit(token, player(stack, BO), "trait.set", payload)
    return "trait", "Justice", "Test"


async def nsu_sheet(stack: Stack, token: str, view_id: int) -> tuple[str, str, str]:
    w = split(world((ALICE, BO, CHIDI)), {ALICE, BO, CHIDI}, set())
    await Campaign.filter(id=view_id).update(state=campaign_state(w))
    for user, name in ((ALICE, "Ana"), (BO, "Bram"), (CHIDI, "Cai")):
        member = await Member.get(campaign_id=view_id, player__tg_id=user)
        await Member.filter(id=member.id).update(sheet=sheet(character(name)))
    return "aspect", "body", "Bram"


SHEETS: dict[str, Callable[[Stack, str, int], Awaitable[tuple[str, str, str]]]] = {
    "threat": threat_sheet,
    "d20": d20_sheet,
    "cortex": cortex_sheet,
    "nsu": nsu_sheet,
}


@pytest.mark.parametrize("where", ["group", "topic"])
@pytest.mark.parametrize("system", sorted(SHEETS))
async def test_a_tap_on_the_sheet_posts_the_games_roll_panel_in_its_chat(
    stack: Stack, system: str, where: str
) -> None:
    chat, thread = GROUP, None
    if where == "topic":
        chat = FORUM
        thread = stack.api.add_forum(FORUM, "Friday Games", ["Campaign A"])["Campaign A"]
    await say(stack, ALICE, chat, f"/newgame {system}", thread)
    for user in (BO, CHIDI):
        await say(stack, user, chat, "/join", thread)
    game = await Campaign.get(live_chat_id=chat, topic_id=thread or 0)
    what, name, shown = await SHEETS[system](stack, game.app_token, game.id)

    mark = stack.api.mark()
    status, body = await tap(stack, BO, game.app_token, what, name)
    assert status == 200 and body["ok"] is True, body
    posted = await stack.api.wait_for_message(
        chat, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=TIMEOUT, since=mark
    )
    assert posted.get("message_thread_id") == thread
    assert shown in posted["text"], posted["text"]
    assert posted["reply_markup"]["inline_keyboard"], "the panel has its buttons"
    assert (await panel_row(posted)).id == body["panel"]  # the posted message is that panel

    # The same tap again (a retry: same key) posts nothing more.
    again = stack.api.mark()
    assert (await tap(stack, BO, game.app_token, what, name))[0] == 200
    assert await Panel.filter(campaign_id=game.id, closed=False).count() == 1
    with pytest.raises(TimeoutError):
        await stack.api.wait_for_message(
            chat, lambda m: m["from"]["id"] == stack.api.bot_id, timeout=1.5, since=again
        )
