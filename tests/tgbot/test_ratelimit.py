"""The bot's pace, on a clock of the test's own: under Telegram's limits nothing waits;
over them, each chat's calls leave at its rate; a 429 is waited out and tried again."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from telegram.error import RetryAfter

from tgbot.ratelimit import GROUP, OVERALL, PRIVATE, ChatLimiter, Pace

ALICE, TABLE = 1001, -100123


class Clock:
    """Time that moves only when a call sleeps; every sleep is noted."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def limiter(clock: Clock, retries: int = 2) -> ChatLimiter:
    return ChatLimiter(retries, clock=clock, sleep=clock.sleep)


async def send(
    limiter: ChatLimiter, clock: Clock, chat_id: Any, sent: list[tuple[Any, float]]
) -> bool:
    async def call() -> bool:
        sent.append((chat_id, clock.now))
        return True

    data = {} if chat_id is None else {"chat_id": chat_id}
    return bool(await limiter.process_request(call, (), {}, "sendMessage", data, None))


async def test_a_group_takes_twenty_messages_at_once_then_one_every_three_seconds() -> None:
    clock, sent = Clock(), []
    bot = limiter(clock)
    for _ in range(22):
        await send(bot, clock, TABLE, sent)
    assert [t for _, t in sent[:20]] == [0.0] * 20
    assert clock.slept == pytest.approx([60 / 20, 60 / 20])
    assert [t for _, t in sent[20:]] == pytest.approx([3.0, 6.0])


async def test_a_private_chat_takes_a_burst_then_one_a_second() -> None:
    clock, sent = Clock(), []
    bot = limiter(clock)
    for _ in range(int(PRIVATE[1]) + 2):
        await send(bot, clock, ALICE, sent)
    assert clock.slept == pytest.approx([1.0, 1.0])


async def test_a_chat_named_as_text_is_paced_as_its_number() -> None:
    clock, sent = Clock(), []
    bot = limiter(clock)
    for _ in range(21):
        await send(bot, clock, str(TABLE), sent)
    assert clock.slept == pytest.approx([3.0])


async def test_thirty_chats_a_second_go_at_once_the_thirty_first_waits() -> None:
    clock, sent = Clock(), []
    bot = limiter(clock)
    for chat in range(int(OVERALL[1]) + 1):
        await send(bot, clock, -1000 - chat, sent)
    assert clock.slept == pytest.approx([1 / OVERALL[0]])


async def test_calls_naming_no_chat_are_never_held() -> None:
    clock, sent = Clock(), []
    bot = limiter(clock)
    for _ in range(100):
        await send(bot, clock, None, sent)
    assert clock.slept == []


async def test_waiting_calls_of_one_chat_leave_in_order_at_its_rate() -> None:
    """Calls that came together each reserve the next token: no two go at once."""
    clock, sent = Clock(), []
    bot = limiter(clock)
    for _ in range(20):
        await send(bot, clock, TABLE, sent)
    sent.clear()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:  # all sleep from the same moment
        waits.append(seconds)

    bot.sleep = sleep
    await asyncio.gather(*(send(bot, clock, TABLE, sent) for _ in range(3)))
    assert waits == pytest.approx([3.0, 6.0, 9.0])


async def test_a_429_is_waited_out_and_the_call_tried_again() -> None:
    clock = Clock()
    bot = limiter(clock)
    tries: list[float] = []

    async def call() -> bool:
        tries.append(clock.now)
        if len(tries) == 1:
            raise RetryAfter(timedelta(seconds=2))
        return True

    data = {"chat_id": TABLE}
    assert await bot.process_request(call, (), {}, "sendMessage", data, None) is True
    assert tries == pytest.approx([0.0, 2.1])
    # meanwhile, and until then, every other call waited too; after, none does
    sent: list[tuple[Any, float]] = []
    await send(bot, clock, ALICE, sent)
    assert sent == [(ALICE, pytest.approx(2.1))]


async def test_a_call_still_refused_after_its_retries_fails() -> None:
    clock = Clock()
    bot = limiter(clock, retries=2)
    tries: list[float] = []

    async def call() -> bool:
        tries.append(clock.now)
        raise RetryAfter(timedelta(seconds=1))

    with pytest.raises(RetryAfter):
        await bot.process_request(call, (), {}, "sendMessage", {"chat_id": ALICE}, None)
    assert len(tries) == 3


@given(
    st.lists(
        st.tuples(st.sampled_from([TABLE, -100200, ALICE, 1002]), st.floats(0, 5)),
        min_size=1,
        max_size=80,
    )
)
def test_no_chat_ever_gets_more_than_its_limit(calls: list[tuple[int, float]]) -> None:
    """Whatever comes when, the moments the calls leave keep every bucket's bound: in
    any window, a chat gets at most its burst plus its rate times the window."""
    pace, now = Pace(), 0.0
    left: dict[int, list[float]] = {}
    for chat, gap in calls:
        now += gap
        left.setdefault(chat, []).append(now + pace.wait(chat, now))
    for chat, moments in left.items():
        rate, size = GROUP if chat < 0 else PRIVATE
        moments.sort()
        for i, start in enumerate(moments):
            for j in range(i, len(moments)):
                assert j - i + 1 <= size + (moments[j] - start) * rate + 1e-6
