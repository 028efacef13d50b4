"""Forum topics end to end: a game in each of two topics of one group, at once.

Everything a game sends stays in its topic (panels, join notices, a safety tool
played from a private chat); closing a topic pauses its game, reopening it says so;
a topic that refuses the bot's posts is named once in General.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.campaigns.play import PlayerRef
from core.store.loader import read_by_token
from core.store.models import Campaign, CampaignStatus, ForumTopic
from core.store.outbox import Row
from tests.support.stack import Stack, campaigns, labels, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

FORUM = -100555
ALICE, BO, CHIDI = 1001, 1002, 1003
TIMEOUT = 10


async def open_forum(stack: Stack) -> tuple[int, int]:
    """A forum group with two campaign topics (the bot learns their names)."""
    threads = stack.api.add_forum(FORUM, "Friday Games", ["Campaign A", "Campaign B"])
    a, b = threads["Campaign A"], threads["Campaign B"]
    for thread in (a, b):
        for _ in range(50):
            if await ForumTopic.exists(chat_tg_id=FORUM, thread_id=thread):
                break
            await stack.api._wait_change(0.1)
    return a, b


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def say(stack: Stack, user: int, thread: int, text: str) -> dict[str, Any]:
    mark = stack.api.mark()
    await stack.api.send_text(user, FORUM, text, thread_id=thread)
    return await stack.api.wait_for_message(FORUM, timeout=TIMEOUT, since=mark)


def ref(stack: Stack, user: int) -> PlayerRef:
    player = stack.api.players[user]
    return PlayerRef(player.id, player.first_name, player.last_name, player.username)


def bot_messages(stack: Stack) -> list[dict[str, Any]]:
    return [m for m in stack.api.messages(FORUM) if m["from"]["id"] == stack.api.bot_id]


async def start_games(stack: Stack) -> tuple[int, int]:
    a, b = await open_forum(stack)
    started = await say(stack, ALICE, a, "/newgame threat")
    assert "started a game of Threat dice" in started["text"]
    assert started["message_thread_id"] == a and started["is_topic_message"]
    started = await say(stack, CHIDI, b, "/newgame nsu")
    assert "No Stone Unturned" in started["text"] and started["message_thread_id"] == b
    await stack.api.start_bot(BO)
    await stack.api.wait_for_message(BO, timeout=TIMEOUT)
    for thread in (a, b):
        joined = await say(stack, BO, thread, "/join")
        assert "joined" in joined["text"] and joined["message_thread_id"] == thread
    return a, b


async def test_two_topics_run_two_games_and_each_message_stays_in_its_topic(
    stack: Stack,
) -> None:
    a, b = await start_games(stack)
    use = campaigns(stack)
    game_a, game_b = await use.require_current(FORUM, a), await use.require_current(FORUM, b)
    assert (game_a.system.key, game_b.system.key) == ("threat", "nsu")
    assert {m.player_id for m in game_a.members} == {ALICE, BO}
    assert {m.player_id for m in game_b.members} == {CHIDI, BO}
    assert await use.current(FORUM) is None  # nothing runs in General
    # the Mini App and deep links tell the two games apart by their topic's name
    assert game_a.chat_title == "Friday Games › Campaign A"
    assert game_b.chat_title == "Friday Games › Campaign B"

    # A panel opened in topic A stays there; pressing it edits it in place.
    panel = await say(stack, ALICE, a, "/threat 3d")
    assert panel["message_thread_id"] == a and labels(panel)
    first = panel["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
    press = await stack.api.press_button(ALICE, FORUM, panel["message_id"], first)
    await press.answered(TIMEOUT)

    # Bo plays the X-card from his private chat: the notice lands in B's topic only.
    mark = stack.api.mark()
    await stack.api.send_text(BO, BO, "/xcard")
    notice = await stack.api.wait_for_message(
        FORUM, lambda m: "X-card" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert notice["message_thread_id"] == b and "Bo" not in notice["text"]
    done = await stack.api.wait_for_message(
        BO, lambda m: "Done." in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert done["text"].startswith("🎲 No Stone Unturned in Friday Games › Campaign B\n")

    # Nothing of either game went to General or to the other topic.
    sent = bot_messages(stack)
    assert sent and all(m.get("message_thread_id") in (a, b) for m in sent)
    in_a = [m["text"] for m in sent if m.get("message_thread_id") == a and "text" in m]
    in_b = [m["text"] for m in sent if m.get("message_thread_id") == b and "text" in m]
    assert not any("X-card" in t or "No Stone Unturned" in t for t in in_a)
    assert not any("Threat" in t for t in in_b)


async def test_a_closed_topic_pauses_its_game_and_reopening_says_so(stack: Stack) -> None:
    a, b = await start_games(stack)
    mark = stack.api.mark()
    await stack.api.player_topic(ALICE, FORUM, "close", b)
    for _ in range(50):
        game = await Campaign.get(live_chat_id=FORUM, topic_id=b)
        if game.status is CampaignStatus.PAUSED:
            break
        await stack.api._wait_change(0.1)
    assert game.status is CampaignStatus.PAUSED
    assert (await Campaign.get(live_chat_id=FORUM, topic_id=a)).status is CampaignStatus.ACTIVE

    await stack.api.player_topic(ALICE, FORUM, "reopen", b)
    back = await stack.api.wait_for_message(
        FORUM, lambda m: "open again" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert back["message_thread_id"] == b
    assert (await Campaign.get(live_chat_id=FORUM, topic_id=b)).status is CampaignStatus.ACTIVE

    # A renamed topic renames the game where players read it.
    await stack.api.player_topic(ALICE, FORUM, "edit", b, name="Campaign B: the moors")
    for _ in range(50):
        view = await campaigns(stack).require_current(FORUM, b)
        if view.chat_title.endswith("the moors"):
            break
        await stack.api._wait_change(0.1)
    assert view.chat_title == "Friday Games › Campaign B: the moors"


async def test_a_closed_topics_panels_say_it_is_closed_not_to_send_resume(stack: Stack) -> None:
    """Nothing can be sent into a closed topic, so its panels don't ask for /resume."""
    a, _ = await start_games(stack)
    panel = await say(stack, ALICE, a, "/threat 3d")
    await stack.api.player_topic(ALICE, FORUM, "close", a)
    for _ in range(50):
        game = await Campaign.get(live_chat_id=FORUM, topic_id=a)
        if game.status is CampaignStatus.PAUSED:
            break
        await stack.api._wait_change(0.1)
    assert game.status is CampaignStatus.PAUSED
    data = panel["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
    press = await stack.api.press_button(BO, FORUM, panel["message_id"], data)
    answer = await press.answered(TIMEOUT)
    assert "This topic is closed" in answer["text"] and "/resume" not in answer["text"]


async def test_a_private_message_names_its_game_for_a_player_in_two(stack: Stack) -> None:
    """Bo plays in both topics: what reaches his private chat says which game it is."""
    _, b = await start_games(stack)
    await say(stack, CHIDI, b, "/begin")
    mark = stack.api.mark()
    await stack.api.send_text(BO, FORUM, "/character", thread_id=b)
    panel = await stack.api.wait_for_message(
        BO, lambda m: "🧍" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert panel["text"].startswith("🎲 No Stone Unturned in Friday Games › Campaign B\n")
    # Chidi plays in one game only: his private messages need no such line
    mark = stack.api.mark()
    await stack.api.send_text(CHIDI, FORUM, "/character", thread_id=b)
    own = await stack.api.wait_for_message(
        CHIDI, lambda m: "🧍" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert not own["text"].startswith("🎲")
    # The map asked for in private names its game too (once a world is dealt)
    from tests.support.nsu_table import campaign_state
    from tests.webapp.test_nsu_app import the_world

    game_b = await campaigns(stack).require_current(FORUM, b)
    await Campaign.filter(id=game_b.id).update(state=campaign_state(the_world()))
    mark = stack.api.mark()
    await stack.api.send_text(BO, BO, "/map")
    picture = await stack.api.wait_for_message(
        BO, lambda m: "photo" in m, timeout=TIMEOUT, since=mark
    )
    assert picture["caption"].startswith("🎲 No Stone Unturned in Friday Games › Campaign B\n")


async def test_a_private_note_names_its_game_as_it_is_sent_to_a_player_in_two(
    stack: Stack,
) -> None:
    """A change's private note (a card's face to its author) and a private panel retired
    carry the line naming their game, drawn with the change; it is put first as they are
    sent, for a player in several games then (Bo), not for one in one (Chidi)."""
    await start_games(stack)
    application = stack.runtime.application
    assert application is not None
    line = "🎲 <b>No Stone Unturned</b> in <b>Friday Games › Campaign B</b>\n"
    for player, named in ((BO, True), (CHIDI, False)):
        note = {"user_id": player, "text": "🖌 Your card", "markup": None, "game": line}
        edit = {"chat_id": player, "message_id": 7, "text": "🧍 Sheet", "game": line}
        for kind, payload in (("private", note), ("edit", edit)):
            sent = await application.deps.planner.drawn(Row(1, kind, payload))
            assert sent is not None and "game" not in sent.payload
            assert sent.payload["text"] == (line if named else "") + payload["text"]


async def test_a_secret_roll_in_a_topic_names_the_topic_to_the_roller_and_the_gm(
    stack: Stack,
) -> None:
    """Bo plays in both topics: his secret roll's private copy says where it was rolled,
    and so does the one the GM of that game (Alice) reads."""
    a, _ = await start_games(stack)
    mark = stack.api.mark()
    shown = await say(stack, BO, a, "/roll 1d6 secret")
    assert "rolled in secret" in shown["text"] and shown["message_thread_id"] == a
    for user in (BO, ALICE):
        mine = await stack.api.wait_for_message(
            user, lambda m: "Secret roll" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
        )
        assert "Secret roll in Friday Games › Campaign A" in mine["text"], mine["text"]


@pytest.fixture
async def plain_admin_stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast(), bot_manages_topics=False) as running:
        yield running


async def test_a_topic_that_refuses_the_bot_is_named_once_in_general(
    plain_admin_stack: Stack,
) -> None:
    stack = plain_admin_stack
    a, b = await start_games(stack)
    # The bot may not post in a closed topic: reopening is said when it is open again.
    await stack.api.player_topic(ALICE, FORUM, "close", b)
    await stack.api.player_topic(ALICE, FORUM, "reopen", b)
    await stack.api.wait_for_message(
        FORUM, lambda m: "open again" in (m.get("text") or ""), timeout=TIMEOUT
    )
    # Topic B is deleted (Telegram tells bots nothing): the next post there fails.
    await stack.api.player_topic(ALICE, FORUM, "delete", b)
    for _ in range(2):  # two X-cards from private chat
        mark = stack.api.mark()
        await stack.api.send_text(BO, BO, "/xcard")
        await stack.api.wait_for_message(BO, timeout=TIMEOUT, since=mark)
    general = [m for m in bot_messages(stack) if "message_thread_id" not in m]
    assert len(general) == 1, general
    assert "Campaign B" in general[0]["text"] and "can't post" in general[0]["text"]
    assert (await Campaign.get(live_chat_id=FORUM, topic_id=b)).status is CampaignStatus.PAUSED
    assert (await Campaign.get(live_chat_id=FORUM, topic_id=a)).status is CampaignStatus.ACTIVE


async def test_the_mini_app_names_each_game_by_its_topic(stack: Stack) -> None:
    a, b = await start_games(stack)
    use = campaigns(stack)
    for thread, name in ((a, "Campaign A"), (b, "Campaign B")):
        game = await use.require_current(FORUM, thread)
        reading = await read_by_token(game.app_token)  # what the Mini App's pages read
        assert reading is not None
        assert reading.read()[0].chat_title == f"Friday Games › {name}"
        # and its home page lists each game by group and topic
        assert [g.chat_title for g in await use.campaigns_of(ref(stack, BO))].count(
            f"Friday Games › {name}"
        ) == 1
