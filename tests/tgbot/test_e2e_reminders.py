"""Reminders sent through the local Bot API server, on a clock the test moves: the
private reminder with its link to the panel, the group line after a second wait,
nothing more after; at once in the group for a player the bot can't write to; none
for a muted player, a paused game, or a wait a press restarted; quiet hours kept."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from datetime import timedelta
from typing import Any

import pytest

from core.campaigns.play import ChatRef, PlayerRef
from core.runtime.pace import InProcessPace, RedisPace
from core.store import outbox, reminders
from core.store.models import Campaign
from tests.support.services import RedisServer
from tests.support.stack import GROUP, OLGA, Stack, campaigns, cast_with_olga, running_stack
from tgbot.reminding import send_due
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, CHIDI = 1001, 1002, 1003  # Alice hosts
HOUR = 3600.0
BO_NAME = "<b>Bo</b> & Co"
# two workers of this process, as PostgreSQL's liveness knows it (the first 8 hex digits
# name a live worker; any other holder would be taken for a dead one and taken over)
WORKER_A, WORKER_B = outbox.WORKER[:8] + "a", outbox.WORKER[:8] + "b"


class Dice:
    def __init__(self) -> None:
        self.faces: deque[int] = deque()

    def randint(self, low: int, high: int) -> int:
        return self.faces.popleft() if self.faces else low


class Clock:
    """The time of day the test starts at (02:00 UTC today), moved on by the test."""

    def __init__(self) -> None:
        self.started = time.time()
        self.base = self.started // 86400 * 86400 + 2 * HOUR
        self.offset = 0.0

    def __call__(self) -> float:
        return self.base + self.offset + (time.time() - self.started)


@pytest.fixture
async def clock() -> Clock:
    return Clock()


async def stack_of(db: str, clock: Clock) -> Any:
    return running_stack(db, rng=Dice(), clock=clock, players=default_cast())


async def say(stack: Stack, user: int, text: str) -> dict[str, Any]:
    mark = stack.api.mark()
    await stack.api.send_text(user, GROUP, text)
    return await stack.api.wait_for_message(GROUP, timeout=10, since=mark)


async def waiting_on_bo(stack: Stack) -> tuple[int, dict[str, Any]]:
    """A d20 game in which Bo's check waits on his roll."""
    assert "started a game" in (await say(stack, ALICE, "/newgame d20"))["text"]
    assert "joined the game" in (await say(stack, BO, "/join"))["text"]
    panel = await say(stack, BO, "/check strong +2 dc12")
    cid = (await Campaign.get(live_chat_id=GROUP)).id
    assert set(await reminders.scheduled(cid)) == {BO}
    return cid, panel


def from_bot(stack: Stack, chat: int) -> list[dict[str, Any]]:
    try:
        found = stack.api.messages(chat)
    except Exception:  # no private chat with the bot at all
        return []
    return [m for m in found if m["from"]["id"] == stack.api.bot_id]


def lines_to_bo(stack: Stack) -> list[dict[str, Any]]:
    return [m for m in from_bot(stack, GROUP) if "waiting on you" in m["text"]]


async def sweep(stack: Stack, clock: Clock, worker: str = WORKER_A) -> int:
    assert stack.runtime.application is not None
    return await send_due(stack.runtime.application, InProcessPace(clock), worker)


async def test_bo_is_reminded_in_private_then_named_in_the_group_once(
    db: str, clock: Clock
) -> None:
    async with await stack_of(db, clock) as stack:
        _, panel = await waiting_on_bo(stack)
        clock.offset += 11 * HOUR
        assert await sweep(stack, clock) == 0  # not yet
        clock.offset += 1 * HOUR + 60
        private_before = len(from_bot(stack, BO))
        assert await sweep(stack, clock) == 1
        reminder = from_bot(stack, BO)[-1]
        assert len(from_bot(stack, BO)) == private_before + 1
        assert reminder["text"].startswith(
            "⏳ d20 checks in The Table is waiting on you: your check."
        )
        assert "/nudge mute" in reminder["text"]
        button = reminder["reply_markup"]["inline_keyboard"][0][0]
        assert button["text"] == "👉 Open the panel"
        assert button["url"] == f"https://t.me/c/123/{panel['message_id']}"
        assert await sweep(stack, clock) == 0 and lines_to_bo(stack) == []
        clock.offset += 12 * HOUR
        assert await sweep(stack, clock) == 1
        (line,) = lines_to_bo(stack)
        assert line["text"] == f"⏳ {BO_NAME}, the table is waiting on you."
        mention = [e for e in line.get("entities", []) if e["type"] == "text_mention"]
        assert mention and mention[0]["user"]["id"] == BO
        for _ in range(3):  # never a stream
            clock.offset += 24 * HOUR
            assert await sweep(stack, clock) == 0
        assert len(lines_to_bo(stack)) == 1 and len(from_bot(stack, BO)) == private_before + 1


async def test_a_player_the_bot_cannot_write_to_is_named_in_the_group_at_once(
    db: str, clock: Clock
) -> None:
    async with await stack_of(db, clock) as stack:
        await waiting_on_bo(stack)
        await stack.api.block_bot(BO)  # Telegram answers 403 to a private message now
        clock.offset += 12 * HOUR + 60
        assert await sweep(stack, clock) == 1
        assert len(lines_to_bo(stack)) == 1
        clock.offset += 48 * HOUR
        assert await sweep(stack, clock) == 0 and len(lines_to_bo(stack)) == 1


async def test_a_press_restarts_the_wait_and_a_pause_or_a_mute_sends_nothing(
    db: str, clock: Clock
) -> None:
    async with await stack_of(db, clock) as stack:
        cid, _ = await waiting_on_bo(stack)
        private_before = len(from_bot(stack, BO))
        clock.offset += 11 * HOUR
        await say(stack, BO, "/check strong dc10")  # the table moved on: Bo's wait restarts
        clock.offset += 2 * HOUR
        assert await sweep(stack, clock) == 0
        mute = await campaigns(stack).nudge(
            ChatRef(GROUP, "supergroup"), PlayerRef(BO, "Bo"), "mute"
        )
        assert mute.campaign_id == cid and await reminders.scheduled(cid) == {}
        clock.offset += 48 * HOUR
        assert await sweep(stack, clock) == 0
        await campaigns(stack).nudge(ChatRef(GROUP, "supergroup"), PlayerRef(BO, "Bo"), "unmute")
        await say(stack, BO, "/check strong dc11")
        mark = stack.api.mark()
        await stack.api.send_text(ALICE, GROUP, "/pause")
        await stack.api.wait_for_message(GROUP, lambda m: "paused" in m["text"], since=mark)
        clock.offset += 48 * HOUR
        assert await sweep(stack, clock) == 0
        assert len(from_bot(stack, BO)) == private_before and lines_to_bo(stack) == []


async def test_quiet_hours_across_midnight_in_another_zone_hold_it_until_they_end(
    db: str, clock: Clock
) -> None:
    async with await stack_of(db, clock) as stack:
        # 02:00 UTC now; 12 h on is 23:00 in Tokyo, inside Bo's 22:00-07:00 there
        await reminders.set_quiet_hours(BO, "22:00-07:00", "Asia/Tokyo")
        await waiting_on_bo(stack)
        private_before = len(from_bot(stack, BO))
        clock.offset += 12 * HOUR + 60
        assert await sweep(stack, clock) == 0
        clock.offset += 7 * HOUR  # 06:01 in Tokyo: still quiet
        assert await sweep(stack, clock) == 0
        clock.offset += 1 * HOUR  # 07:01 in Tokyo
        assert await sweep(stack, clock) == 1
        assert len(from_bot(stack, BO)) == private_before + 1


async def test_two_workers_racing_send_one_reminder(db: str, clock: Clock) -> None:
    async with await stack_of(db, clock) as stack:
        await waiting_on_bo(stack)
        private_before = len(from_bot(stack, BO))
        clock.offset += 12 * HOUR + 60
        sent = await asyncio.gather(sweep(stack, clock, WORKER_A), sweep(stack, clock, WORKER_B))
        assert sorted(sent) == [0, 1]
        assert len(from_bot(stack, BO)) == private_before + 1


async def test_nudge_sets_the_wait_for_the_host_and_refuses_bad_words_changing_nothing(
    db: str, clock: Clock
) -> None:
    async with await stack_of(db, clock) as stack:
        cid, _ = await waiting_on_bo(stack)
        now = await say(stack, BO, "/nudge")
        assert now["text"].startswith("⏳ This game reminds whoever it waits on after 12 h.")
        for bad in ("/nudge 0", "/nudge 10y", "/nudge soon"):
            assert (
                "Say how long to wait before a reminder" in (await say(stack, ALICE, bad))["text"]
            )
        refused = await say(stack, BO, "/nudge 1h")
        assert "Only the host sets how long this game waits" in refused["text"]
        assert (await reminders.settings_of(cid)).wait == timedelta(hours=12)
        done = await say(stack, ALICE, "/nudge 30m")
        assert done["text"] == "⏳ Done: whoever this game waits on is reminded after 30 min."
        assert (await reminders.scheduled(cid))[BO].at.timestamp() == pytest.approx(
            clock() + 30 * 60, abs=5
        )
        muted = await say(stack, BO, "/nudge mute")
        assert muted["text"].startswith("🔇 Done: no more reminders for you")
        assert "You muted your reminders here" in (await say(stack, BO, "/nudge"))["text"]
        clock.offset += 2 * HOUR
        assert await sweep(stack, clock) == 0
        assert (await say(stack, ALICE, "/nudge off"))["text"].startswith("🔕 Done")
        assert (await reminders.settings_of(cid)).wait is None


async def test_nudge_in_russian(db: str, clock: Clock) -> None:
    async with running_stack(db, rng=Dice(), clock=clock, players=cast_with_olga()) as stack:
        assert "/join" in (await say(stack, OLGA, "/newgame d20"))["text"]
        await say(stack, BO, "/join")
        cid = (await Campaign.get(live_chat_id=GROUP)).id
        assert (await say(stack, OLGA, "/nudge 12ч"))["text"].startswith("⏳ Готово")
        assert (await reminders.settings_of(cid)).wait == timedelta(hours=12)
        bad = await say(stack, OLGA, "/nudge 10y")
        assert "Укажите, через сколько напоминать" in bad["text"]
        refused = await say(stack, BO, "/nudge 1ч")
        assert "решает только организатор" in refused["text"]
        assert (await say(stack, BO, "/nudge тихо"))["text"].startswith("🔇 Готово")
        assert (await reminders.settings_of(cid)).muted == {BO}
        assert (await say(stack, OLGA, "/nudge выкл"))["text"].startswith("🔕 Готово")
        assert (await reminders.settings_of(cid)).wait is None


FORUM = -100555


async def test_a_game_in_a_forum_topic_is_named_with_its_topic_and_linked_there(
    db: str, clock: Clock
) -> None:
    async with await stack_of(db, clock) as stack:
        thread = stack.api.add_forum(FORUM, "Friday Games", ["Campaign A"])["Campaign A"]

        async def in_topic(user: int, text: str) -> dict[str, Any]:
            mark = stack.api.mark()
            await stack.api.send_text(user, FORUM, text, thread_id=thread)
            return await stack.api.wait_for_message(FORUM, timeout=10, since=mark)

        assert "started a game" in (await in_topic(ALICE, "/newgame d20"))["text"]
        assert "joined the game" in (await in_topic(BO, "/join"))["text"]
        panel = await in_topic(BO, "/check strong +2 dc12")
        assert panel["message_thread_id"] == thread
        clock.offset += 12 * HOUR + 60
        assert await sweep(stack, clock) == 1
        reminder = from_bot(stack, BO)[-1]
        assert reminder["text"].startswith(
            "⏳ d20 checks in the topic Campaign A of Friday Games is waiting on you: your check."
        )
        button = reminder["reply_markup"]["inline_keyboard"][0][0]
        assert button["url"] == f"https://t.me/c/555/{thread}/{panel['message_id']}"
        clock.offset += 12 * HOUR
        assert await sweep(stack, clock) == 1
        (line,) = [m for m in from_bot(stack, FORUM) if "waiting on you" in m["text"]]
        assert line["message_thread_id"] == thread


def close_to(moment: Any, clock: Clock) -> bool:
    return moment is not None and abs(moment.timestamp() - clock()) < 30


async def test_a_new_game_and_one_brought_back_start_their_wait_at_once(
    db: str, clock: Clock
) -> None:
    async with await stack_of(db, clock) as stack:
        assert "started a game" in (await say(stack, ALICE, "/newgame d20"))["text"]
        cid = (await Campaign.get(live_chat_id=GROUP)).id
        settings = await reminders.settings_of(cid)
        assert settings.wait == timedelta(hours=12) and close_to(settings.since, clock)
        question = await say(stack, ALICE, "/endgame")
        (data,) = [
            b["callback_data"]
            for row in question["reply_markup"]["inline_keyboard"]
            for b in row
            if b["text"].startswith("🏁")
        ]
        await stack.api.press_button(ALICE, GROUP, question["message_id"], data)
        await stack.api.wait_for_message(GROUP, lambda m: "has ended" in m["text"], timeout=10)
        clock.offset += 3 * 24 * HOUR
        mark = stack.api.mark()
        await stack.api.send_text(ALICE, GROUP, "/resume")
        await stack.api.wait_for_message(
            GROUP, lambda m: "just as you left it" in m["text"], since=mark, timeout=10
        )
        assert close_to((await reminders.settings_of(cid)).since, clock)  # from now, not then


async def test_a_game_with_reminders_off_stays_so_when_it_comes_back(db: str, clock: Clock) -> None:
    async with await stack_of(db, clock) as stack:
        cid, _ = await waiting_on_bo(stack)
        assert (await say(stack, ALICE, "/nudge off"))["text"].startswith("🔕 Done")
        await say(stack, ALICE, "/pause")
        clock.offset += 24 * HOUR
        assert "goes on" in (await say(stack, ALICE, "/resume"))["text"]
        assert await reminders.scheduled(cid) == {}
        assert (await reminders.settings_of(cid)).since is None
        clock.offset += 48 * HOUR
        assert await sweep(stack, clock) == 0


async def test_a_closed_topic_holds_its_reminders_and_reopened_its_wait_starts_anew(
    db: str, clock: Clock
) -> None:
    async with await stack_of(db, clock) as stack:
        thread = stack.api.add_forum(FORUM, "Friday Games", ["Campaign A"])["Campaign A"]

        async def in_topic(user: int, text: str) -> dict[str, Any]:
            mark = stack.api.mark()
            await stack.api.send_text(user, FORUM, text, thread_id=thread)
            return await stack.api.wait_for_message(FORUM, timeout=10, since=mark)

        await in_topic(ALICE, "/newgame d20")
        await in_topic(BO, "/join")
        await in_topic(BO, "/check strong +2 dc12")
        cid = (await Campaign.get(live_chat_id=FORUM)).id
        assert set(await reminders.scheduled(cid)) == {BO}
        await stack.api.player_topic(ALICE, FORUM, "close", thread)
        for _ in range(100):
            if not await reminders.scheduled(cid):
                break
            await stack.api._wait_change(0.1)  # until the service message reached the bot
        assert await reminders.scheduled(cid) == {}
        clock.offset += 3 * 24 * HOUR
        mark = stack.api.mark()
        await stack.api.player_topic(ALICE, FORUM, "reopen", thread)
        await stack.api.wait_for_message(
            FORUM, lambda m: "open again" in m.get("text", ""), since=mark, timeout=10
        )
        (due,) = (await reminders.scheduled(cid)).values()
        assert abs(due.at.timestamp() - (clock() + 12 * HOUR)) < 30  # from the reopening
        assert await sweep(stack, clock) == 0  # nothing at once for the days it was closed
        clock.offset += 12 * HOUR + 60
        assert await sweep(stack, clock) == 1


@pytest.mark.redis
async def test_two_workers_keep_to_one_pace_for_a_group(
    db: str, clock: Clock, redis_server: RedisServer
) -> None:
    from redis.asyncio import Redis

    async with await stack_of(db, clock) as stack:
        await waiting_on_bo(stack)
        assert "joined the game" in (await say(stack, CHIDI, "/join"))["text"]
        await say(stack, ALICE, f"/turns Chidi Okafor, {BO_NAME}, Alice Marsh")
        cid = (await Campaign.get(live_chat_id=GROUP)).id
        assert set(await reminders.scheduled(cid)) == {BO, CHIDI}  # his check, Chidi's turn
        for player in (BO, CHIDI):
            await stack.api.block_bot(player)  # their group lines are due at once
        await Redis.from_url(redis_server.url).flushdb()
        paces = [RedisPace(Redis.from_url(redis_server.url), clock, per_minute=1) for _ in "ab"]
        app = stack.runtime.application
        assert app is not None
        clock.offset += 12 * HOUR + 60
        assert await send_due(app, paces[0], WORKER_A) == 1
        assert await send_due(app, paces[1], WORKER_B) == 0  # the group's minute is spent
        assert len(lines_to_bo(stack)) == 1
        clock.offset += 61
        assert await send_due(app, paces[1], WORKER_B) == 1
        named = {e["user"]["id"] for m in lines_to_bo(stack) for e in m.get("entities", [])}
        assert named == {BO, CHIDI}
        for pace in paces:
            await pace.aclose()


async def test_a_paused_game_resumed_waits_anew_from_then(db: str, clock: Clock) -> None:
    async with await stack_of(db, clock) as stack:
        cid, _ = await waiting_on_bo(stack)
        assert "paused" in (await say(stack, ALICE, "/pause"))["text"]
        assert await reminders.scheduled(cid) == {}
        clock.offset += 3 * 24 * HOUR
        assert "goes on" in (await say(stack, ALICE, "/resume"))["text"]
        due = (await reminders.scheduled(cid))[BO]
        assert abs(due.at.timestamp() - (clock() + 12 * HOUR)) < 30  # from the resume
        assert await sweep(stack, clock) == 0
        clock.offset += 12 * HOUR + 60
        assert await sweep(stack, clock) == 1
