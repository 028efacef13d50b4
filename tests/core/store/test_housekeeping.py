"""Housekeeping runs once per interval across workers, and forgets only old things."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from core.runtime.locks import InProcessKeyedLock
from core.store.housekeeping import run_once, tidy
from core.store.models import JobRun, OutboxRow, PendingNote, ProcessedUpdate

pytestmark = pytest.mark.db

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


async def test_the_job_runs_once_per_interval_even_when_several_workers_ask(db: str) -> None:
    locks = InProcessKeyedLock(lease_seconds=5, wait_seconds=0.05)
    runs: list[datetime] = []

    async def work(now: datetime) -> None:
        await asyncio.sleep(0.1)
        runs.append(now)

    clock = NOW.timestamp
    results = await asyncio.gather(
        *(run_once("tidy", timedelta(hours=6), locks, clock, work) for _ in range(4))
    )
    assert results.count(True) == 1 and len(runs) == 1
    assert not await run_once("tidy", timedelta(hours=6), locks, clock, work)
    later = (NOW + timedelta(hours=7)).timestamp
    assert await run_once("tidy", timedelta(hours=6), locks, later, work)
    assert len(runs) == 2 and await JobRun.all().count() == 1


async def test_tidy_forgets_old_claims_and_notes_only(db: str) -> None:
    old, new = await ProcessedUpdate.create(update_id=1), await ProcessedUpdate.create(update_id=2)
    await ProcessedUpdate.filter(id=old.id).update(created_at=NOW - timedelta(days=4))
    await ProcessedUpdate.filter(id=new.id).update(created_at=NOW - timedelta(hours=1))
    note = await PendingNote.create(player_tg_id=7, text="old")
    await PendingNote.filter(id=note.id).update(created_at=NOW - timedelta(days=31))
    await PendingNote.create(player_tg_id=7, text="fresh")
    sent = await OutboxRow.create(update_id=1, kind="send", payload={}, sent=True)
    await OutboxRow.filter(id=sent.id).update(created_at=NOW - timedelta(days=4))
    await OutboxRow.create(update_id=2, kind="send", payload={})
    await tidy(NOW)
    assert [u.update_id for u in await ProcessedUpdate.all()] == [2]
    assert [n.text for n in await PendingNote.all()] == ["fresh"]
    assert [r.update_id for r in await OutboxRow.all()] == [2]
