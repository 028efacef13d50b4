"""Two No Stone Unturned games in one forum group, one per topic, with Bo in both.

What reaches a private chat from either game says which game it comes from, as
every private note does for a player in more than one: the scout's private look
(sent at once, and again when asked) and the answer to ``/knock`` typed in private.
A player in one game only reads no such line.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.store.models import Campaign, Member
from tests.support.nsu_bot import Faces
from tests.support.nsu_table import campaign_state, character, sheet, split, world
from tests.support.stack import Stack, campaigns, running_stack
from tests.tgbot.test_e2e_nsu_play import data_of
from tests.tgbot.test_e2e_topics import FORUM, open_forum
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, CHIDI, ZOE = 1001, 1002, 1003, 1004  # Alice hosts topic A, Chidi topic B
TIMEOUT = 10
HEADER_B = "🎲 No Stone Unturned in Friday Games › Campaign B\n"


@pytest.fixture
def faces() -> Faces:
    return Faces([])


@pytest.fixture
async def stack(db: str, faces: Faces) -> Stack:  # type: ignore[misc]
    async with running_stack(db, rng=faces, players=default_cast()) as running:
        yield running


async def say(stack: Stack, user: int, thread: int, text: str) -> dict[str, Any]:
    mark = stack.api.mark()
    await stack.api.send_text(user, FORUM, text, thread_id=thread)
    return await stack.api.wait_for_message(FORUM, timeout=TIMEOUT, since=mark)


async def tap(stack: Stack, user: int, message: dict[str, Any], label: str) -> dict[str, Any]:
    press = await stack.api.press_button(
        user, FORUM, message["message_id"], data_of(message, label)
    )
    answer = await press.answered(TIMEOUT)
    assert not answer["text"], answer["text"]
    return await stack.api.wait_for_message(
        FORUM, lambda m: m["message_id"] == message["message_id"], timeout=TIMEOUT
    )


async def reply(stack: Stack, user: int, message: dict[str, Any], text: str) -> dict[str, Any]:
    mark = stack.api.mark()
    await stack.api.reply_to(user, FORUM, message["message_id"], text)
    return await stack.api.wait_for_message(
        FORUM, lambda m: m["message_id"] == message["message_id"], timeout=TIMEOUT, since=mark
    )


async def two_games(stack: Stack) -> tuple[int, int]:
    """Topic A: Alice and Bo; topic B: Chidi, Bo and Zoë, with a world and characters."""
    a, b = await open_forum(stack)
    assert "No Stone Unturned" in (await say(stack, ALICE, a, "/newgame nsu"))["text"]
    assert "No Stone Unturned" in (await say(stack, CHIDI, b, "/newgame nsu"))["text"]
    assert "joined" in (await say(stack, BO, a, "/join"))["text"]
    for user in (BO, ZOE):
        assert "joined" in (await say(stack, user, b, "/join"))["text"]
    view = await campaigns(stack).require_current(FORUM, b)
    w = split(world((CHIDI, BO, ZOE)), {CHIDI}, {BO, ZOE})
    await Campaign.filter(id=view.id).update(state=campaign_state(w))
    for player, name in ((CHIDI, "Cy"), (BO, "Bo"), (ZOE, "Zed")):
        member = await Member.get(campaign_id=view.id, player__tg_id=player)
        await Member.filter(id=member.id).update(sheet=sheet(character(name)))
    return a, b


async def test_the_scouts_private_look_names_its_game(stack: Stack, faces: Faces) -> None:
    _, b = await two_games(stack)
    faces.push(4, 1, 6)  # the complication; Bo's scout roll: Body 1 against Curious 6
    panel = await say(stack, CHIDI, b, "/downtime home")
    assert panel["message_thread_id"] == b
    panel = await tap(stack, BO, panel, "🛠 Work & scout")
    panel = await tap(stack, BO, panel, "🔭 Scout a card")
    panel = await tap(stack, BO, panel, "🔭 c D2 R3")
    panel = await reply(stack, BO, panel, "I climb the ridge")
    panel = await tap(stack, ZOE, panel, "⚖️ Body")
    panel = await tap(stack, CHIDI, panel, "🌍 World")
    panel = await tap(stack, BO, panel, "Bo: Curious d8")
    panel = await tap(stack, BO, panel, "No details apply")
    mark = stack.api.mark()
    panel = await tap(stack, BO, panel, "🎲 Bo: roll")
    assert "Bo may look at c (D2 R3) in private" in panel["text"], panel["text"]

    sent = await stack.api.wait_for_message(BO, timeout=TIMEOUT, since=mark)
    assert sent["text"].startswith(HEADER_B + "🔭 What you saw at c: The Hollow Tower"), sent
    mark = stack.api.mark()
    look = await stack.api.press_button(
        BO, FORUM, panel["message_id"], data_of(panel, "🔭 Bo: see it")
    )
    assert (await look.answered(TIMEOUT))["text"] == "Sent to your private chat."
    again = await stack.api.wait_for_message(BO, timeout=TIMEOUT, since=mark)
    assert again["text"] == sent["text"]


async def test_knock_in_private_names_the_game_that_was_told(stack: Stack) -> None:
    a, b = await two_games(stack)
    mark = stack.api.mark()
    await stack.api.send_text(BO, BO, "/knock")
    notice = await stack.api.wait_for_message(
        FORUM, lambda m: "Knock" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    done = await stack.api.wait_for_message(
        BO, lambda m: "Done." in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    topic = "Campaign A" if notice["message_thread_id"] == a else "Campaign B"
    assert done["text"].startswith(f"🎲 No Stone Unturned in Friday Games › {topic}\n"), done
    assert "Bo" not in notice["text"]

    # Zoë plays in one game only: her answer needs no such line, and B's topic is told
    mark = stack.api.mark()
    await stack.api.send_text(ZOE, ZOE, "/knock")
    notice = await stack.api.wait_for_message(
        FORUM, lambda m: "Knock" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert notice["message_thread_id"] == b
    done = await stack.api.wait_for_message(
        ZOE, lambda m: "Done." in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert done["text"].startswith("Done. The group was told"), done
