"""While you were away, end to end: a player back in a game after a day gets what
happened since in private, once, as their own view of the log shows it (never a face
of a location card the table has not seen)."""

from __future__ import annotations

from typing import Any

import pytest

from core.store.models import LogEntry
from tests.support import nsu_bot
from tests.support.flaky import Flaky
from tests.support.stack import GROUP, Stack, from_bot, running_stack
from tests.tgbot.test_e2e_lifecycle import DAY, Clock
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, CHIDI = nsu_bot.PLAYERS


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def stack(db: str, clock: Clock) -> Any:
    async with running_stack(db, clock=clock, players=default_cast()) as running:
        yield running


def digests(stack: Stack, user: int) -> list[str]:
    return [
        m["text"]
        for m in stack.api.messages(user)
        if m["from"]["id"] == stack.api.bot_id and "While you were away" in m["text"]
    ]


async def test_a_player_back_after_a_day_gets_what_happened_once_without_hidden_faces(
    stack: Stack, clock: Clock
) -> None:
    await nsu_bot.seat_three(stack)
    board = await nsu_bot.build_world(stack)
    for pid in nsu_bot.PLAYERS:
        await nsu_bot.make_character(stack, pid, board if pid == CHIDI else None)
    await nsu_bot.say(stack, CHIDI, "/status")
    clock.offset += DAY / 2
    await nsu_bot.say(stack, CHIDI, "/status")  # half a day: no return
    assert digests(stack, CHIDI) == []
    seen = await LogEntry.all().count()

    clock.offset += DAY + 60
    adventure = (await nsu_bot.say(stack, ALICE, "/adventure"))["message_id"]
    await nsu_bot.press(stack, BO, GROUP, adventure, "➡️ Travel")
    await nsu_bot.press(stack, BO, GROUP, adventure, "➡️")  # the party travels; a card flips
    since = [e.text for e in await LogEntry.all().order_by("id")][seen:]
    assert since
    assert digests(stack, CHIDI) == []

    await stack.api.send_text(CHIDI, GROUP, "/status")
    digest = await stack.api.wait_for_message(
        CHIDI, lambda m: from_bot(stack)(m) and "While you were away" in m["text"], timeout=20
    )
    text = digest["text"]
    assert text.startswith("👋 While you were away from No Stone Unturned in The Table:")
    assert text.splitlines()[1:] == [f"• {line}" for line in since[-5:]] + (
        [f"…and {len(since) - 5} more entries in the game's log (Mini App)."]
        if len(since) > 5
        else []
    )
    public = nsu_bot.texts(stack, GROUP)
    for pid in nsu_bot.PLAYERS:
        for n in range(1, 4):
            for field in nsu_bot.card(pid, n):
                assert field in public or field not in text, field  # nothing face down

    await nsu_bot.say(stack, CHIDI, "/status")  # once per return
    await nsu_bot.say(stack, BO, "/status")
    assert len(digests(stack, CHIDI)) == 1


async def test_a_digest_whose_send_is_lost_is_sent_once_by_the_outbox(
    clock: Clock, db: str
) -> None:
    flaky = Flaky()
    async with running_stack(db, clock=clock, players=default_cast(), through=flaky) as stack:
        assert "started a game" in (await nsu_bot.say(stack, ALICE, "/newgame d20"))["text"]
        await nsu_bot.say(stack, CHIDI, "/join")
        await nsu_bot.say(stack, BO, "/join")
        await nsu_bot.say(stack, CHIDI, "/status")
        clock.offset += DAY + 60
        await nsu_bot.say(stack, BO, "/say I open the door.")  # the log moves on meanwhile
        flaky.lose("sendMessage", f'"chat_id": "{CHIDI}"')  # the digest's first try is lost
        await nsu_bot.say(stack, CHIDI, "/status")  # the change itself answers at once
        digest = await stack.api.wait_for_message(
            CHIDI, lambda m: from_bot(stack)(m) and "While you were away" in m["text"], timeout=20
        )
        assert flaky.lost == ["sendmessage"]
        assert digest["text"].startswith("👋 While you were away from d20 checks in The Table:")
        assert "says: I open the door." in digest["text"]
        button = digest["reply_markup"]["inline_keyboard"][0][0]
        assert button["text"] == "📜 Open the game" and "web_app" in button
        await nsu_bot.say(stack, CHIDI, "/status")  # once per return, however it was sent
        assert len(digests(stack, CHIDI)) == 1


async def test_no_digest_for_a_player_who_left_or_a_paused_game(stack: Stack, clock: Clock) -> None:
    assert "started a game" in (await nsu_bot.say(stack, ALICE, "/newgame d20"))["text"]
    await nsu_bot.say(stack, CHIDI, "/join")
    await nsu_bot.say(stack, BO, "/join")
    await nsu_bot.say(stack, CHIDI, "/status")
    await nsu_bot.say(stack, BO, "/status")
    assert "left the game" in (await nsu_bot.say(stack, CHIDI, "/leave"))["text"]
    clock.offset += DAY + 60
    await nsu_bot.say(stack, ALICE, "/say The door creaks.")  # the log moves on meanwhile
    await nsu_bot.say(stack, CHIDI, "/status")  # no longer in the game: no return
    assert "paused" in (await nsu_bot.say(stack, ALICE, "/pause"))["text"]
    clock.offset += DAY + 60
    await nsu_bot.say(stack, BO, "/status")  # a paused game: no return
    assert digests(stack, BO) == []
    assert "goes on" in (await nsu_bot.say(stack, ALICE, "/resume"))["text"]
    await stack.api.send_text(BO, GROUP, "/status")  # back in a running game, away two days
    await stack.api.wait_for_message(
        BO, lambda m: from_bot(stack)(m) and "While you were away" in m["text"], timeout=20
    )
    assert digests(stack, CHIDI) == []
    assert len(digests(stack, BO)) == 1
