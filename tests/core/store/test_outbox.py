"""The outbox's rows: written with the change or not at all, claimed by one worker at a time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.dice import RollResult
from core.rules.errors import Malformed
from core.rules.rng import SeededRng
from core.runtime.errors import AlreadyHandled
from core.runtime.locks import InProcessKeyedLock
from core.store import outbox
from core.store.models import OutboxRow
from core.store.outbox import Effect
from core.store.sql import execute
from core.store.unit import Hooks, UnitOfWork

pytestmark = [pytest.mark.db]

CHAT = ChatRef(-100777, "supergroup", "The Table")
ANA = PlayerRef(7, "Ana")


async def roll_message(result: object, how: str) -> list[Effect]:
    """A planner as the bot's: one message per roll, and an edit of message 5."""
    if not isinstance(result, RollResult):
        return []
    return [
        Effect("send", {"chat_id": CHAT.tg_id, "text": f"rolled {getattr(result, 'total', 0)}"}),
        Effect("edit", {"chat_id": CHAT.tg_id, "message_id": 5, "text": "x"}),
    ]


def unit(update_id: int) -> UnitOfWork:
    """The unit of work of update ``update_id``, planned by :func:`roll_message`."""
    return UnitOfWork(update_id, planner=roll_message)


@pytest.fixture
async def planned(db: str) -> AsyncIterator[Play]:
    yield Play(SeededRng(3), InProcessKeyedLock(), time.time)


async def test_a_roll_writes_its_messages_with_it_and_a_redelivery_writes_none(
    planned: Play,
) -> None:
    pending = unit(41)
    result = await planned.roll(CHAT, ANA, "2d6", unit=pending)
    assert pending.holds(result)
    rows = await OutboxRow.filter(update_id=41).order_by("id")
    assert [r.kind for r in rows] == ["send", "edit"]
    assert rows[0].payload["text"] == f"rolled {result.total}"
    assert rows[1].target == f"{CHAT.tg_id}:5"
    assert [r.id for r in pending.unsent()] == [r.id for r in rows]
    copy = unit(41)
    with pytest.raises(AlreadyHandled):
        await planned.roll(CHAT, ANA, "2d6", unit=copy)
    assert await OutboxRow.filter(update_id=41).count() == 2
    assert not copy.rows


async def test_rows_of_a_change_that_rolls_back_are_gone_and_forgotten(planned: Play) -> None:
    pending = unit(42)
    with pytest.raises(Malformed):
        async with pending.atomic():
            await pending.record(RollResult.__new__(RollResult))  # planned, written...
            assert len(pending.rows) == 2
            raise Malformed("no")  # ...and rolled back with the change
    assert pending.rows == []
    assert await OutboxRow.all().count() == 0


async def test_two_sweepers_never_claim_the_same_row(planned: Play) -> None:
    for update_id in range(100, 110):
        await planned.roll(CHAT, ANA, "1d6", unit=unit(update_id))
    assert await outbox.claim() == []  # still leased to the worker that wrote them
    await execute("UPDATE outbox SET claimed_until = ?", (0.0,))  # that worker died
    first, second = await asyncio.gather(outbox.claim(limit=15), outbox.claim(limit=15))
    ids = [r.id for r in first] + [r.id for r in second]
    assert len(ids) == len(set(ids)) >= 15  # one winner for each row
    ids += [r.id for r in await outbox.claim()]
    assert sorted(ids) == sorted(r.id for r in await OutboxRow.all())
    await outbox.done(ids[:5])
    assert await outbox.claim() == []  # the rest are leased to the two sweepers
    await outbox.release(ids)
    assert len(await outbox.claim()) == 15  # released; the five sent stay sent


async def test_a_later_edit_of_the_same_message_supersedes_an_earlier_one(planned: Play) -> None:
    for update_id in (200, 201):
        await planned.roll(CHAT, ANA, "1d6", unit=unit(update_id))
    edits = await OutboxRow.filter(kind="edit").order_by("id")
    older, newer = (outbox.Row(r.id, r.kind, r.payload) for r in edits)
    target = f"{CHAT.tg_id}:5"
    assert await outbox.superseded(older, target)
    assert not await outbox.superseded(newer, target)


class Recorded(Hooks):
    """Hooks that remember the points a change reached."""

    def __init__(self) -> None:
        self.points: list[str] = []

    async def pause(self, name: str) -> None:
        self.points.append(name)


async def test_two_changes_in_one_task_keep_their_own_rows(planned: Play) -> None:
    """Nothing about a change lives outside its unit of work: two changes made one after
    the other in the same task each hold only what they wrote."""
    first, second = unit(300), unit(301)
    one = await planned.roll(CHAT, ANA, "1d6", unit=first)
    two = await planned.roll(CHAT, ANA, "1d8", unit=second)
    assert first.holds(one) and not first.holds(two)
    assert second.holds(two) and not second.holds(one)
    assert len(first.rows) == len(second.rows) == 2
    assert not {r.id for r in first.rows} & {r.id for r in second.rows}
    plain = UnitOfWork(302)  # no planner: a use case run outside the bot records nothing
    await planned.roll(CHAT, ANA, "1d4", unit=plain)
    assert plain.rows == [] and await OutboxRow.filter(update_id=302).count() == 0


async def test_the_hooks_given_to_a_unit_are_reached_only_while_an_update_is_handled(
    planned: Play,
) -> None:
    hooks = Recorded()
    await planned.roll(CHAT, ANA, "1d6", unit=UnitOfWork(303, planner=roll_message, hooks=hooks))
    assert hooks.points == ["before_commit", "after_commit"]
    job = Recorded()  # a change no update asked for (a job, a Mini App request)
    await planned.roll(CHAT, ANA, "1d6", unit=UnitOfWork(planner=roll_message, hooks=job))
    assert job.points == []


async def test_a_result_drawn_before_its_transaction_is_written_as_drawn(db: str) -> None:
    drawn = unit(304)
    effects = await drawn.plan(RollResult.__new__(RollResult))
    assert [e.kind for e in effects] == ["send", "edit"]
    async with drawn.atomic():
        await drawn.record("the roll", effects=effects)
    rows = await OutboxRow.filter(update_id=304).order_by("id")
    assert [r.payload for r in rows] == [e.payload for e in effects]
    assert drawn.holds("the roll") and [r.id for r in drawn.unsent()] == [r.id for r in rows]
