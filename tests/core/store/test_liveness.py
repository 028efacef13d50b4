"""Which workers are alive, on PostgreSQL: a worker's lock lives exactly as long as its
process (a real process, SIGKILLed), and only then are its rows taken over early."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.store import liveness, outbox
from core.store.sql import execute, fetch

pytestmark = [pytest.mark.db, pytest.mark.postgres_only]

ROOT = Path(__file__).resolve().parents[3]
OTHER = "0badc0de" + "77" * 4  # another worker's id


def holding(database_url: str, worker: str) -> subprocess.Popen[bytes]:
    """A process that holds ``worker``'s lock until it is killed (prints "held")."""
    code = (
        "import asyncio, sys\n"
        "from core.store import liveness\n"
        "async def main():\n"
        f"    await liveness.hold({database_url!r}, {worker!r})\n"
        "    print('held', flush=True)\n"
        "    await asyncio.sleep(3600)\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env)
    assert process.stdout is not None and process.stdout.readline().strip() == b"held"
    return process


async def test_a_killed_workers_lock_is_gone_and_its_rows_are_taken_over(db: str) -> None:
    assert liveness.watching()  # this process holds its own (open_database took it)
    other = holding(db, OTHER)
    try:
        assert await liveness.dead({OTHER[:8], outbox.WORKER[:8]}) == set()
        until = time.time() + outbox.LEASE
        await execute(
            "INSERT INTO outbox (update_id, kind, target, payload, claimed_until, claimed_by,"
            " sent, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, now())",
            (77, "send", "", '{"chat_id": 1, "topic": 0, "text": "hi"}', until, OTHER, False),
        )
        assert await outbox.claim(77, take_over=True) == []  # alive: its lease stands
    finally:
        other.send_signal(signal.SIGKILL)
        other.wait(timeout=10)
    for _ in range(50):  # the server ends the session as the socket closes
        if await liveness.dead({OTHER[:8]}):
            break
        await asyncio.sleep(0.02)
    assert await liveness.dead({OTHER[:8]}) == {OTHER[:8]}
    assert await outbox.claim(77) == []  # without taking over, the lease still counts
    (row,) = await outbox.claim(77, take_over=True)  # the dead worker's row, at once
    assert row.payload["text"] == "hi"
    assert await outbox.claim(77, take_over=True) == []  # one winner: it is ours now
    (claimed,) = await fetch("SELECT claimed_by FROM outbox WHERE update_id = ?", (77,))
    assert str(claimed["claimed_by"]).startswith(outbox.WORKER[:8])
