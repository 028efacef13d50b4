"""A due reminder always reaches its player: real workers killed at chosen points.

Reminders are rows with a due time, claimed with a lease (a dead worker's claim taken
over) and marked sent as soon as Telegram answers (tgbot/reminding.py). Workers started
as in tests/tgbot/test_outbox_faults.py share one clock the test moves on (a wait of
``/nudge 1m`` passes in an instant) and look for due reminders every few tenths of a
second. A worker stops at a point of its round (the reminders' sender's pause points),
the test SIGKILLs it, and the local Bot API server counts Bo's private reminders and the
group's lines naming him:

- killed after claiming, before sending: another worker sends it, once;
- killed after Telegram took the message, before the row was marked: shown twice, the
  one window where that may happen;
- killed after marking: never again;
- every worker restarted during the wait: it still comes, once, when due.

Each point is killed at both of a wait's reminders (the private one and the group line).
On PostgreSQL two workers run with Redis, and the survivor takes a dead worker's claim
over at once; on SQLite one worker runs at a time, started again after each kill, and a
dead worker's claim is taken over once its lease (a minute) ran out.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from core.store.reminders import LEASE
from tests.support.workers import Cluster, Worker, cluster_on, count
from tgbot.sandbox.fake_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.redis, pytest.mark.db]

GROUP = -100123
ALICE, BO = 1001, 1002
WAIT = 60.0  # /nudge 1m
PRIVATE = "is waiting on you:"  # ⏳ d20 checks in The Table is waiting on you: your check.
LINE = "the table is waiting on you"  # ⏳ <b>Bo</b> & Co, the table is waiting on you.

# (point, how many copies of the reminder a kill there shows)
POINTS = [
    ("reminder_claimed", 1),  # nothing sent: the next worker sends it
    ("reminder_sent", 2),  # Telegram took it, not yet marked: the one window
    ("reminder_marked", 1),  # marked: never again
]


def shown(api: FakeBotApi, chat: int, words: str) -> int:
    try:
        found = api.messages(chat)
    except Exception:  # no private chat with the bot yet
        return 0
    return sum(1 for m in found if words in (m.get("text") or ""))


def reminders_shown(api: FakeBotApi) -> tuple[int, int]:
    """Bo's private reminders and the group's lines naming him, so far."""
    return shown(api, BO, PRIVATE), shown(api, GROUP, LINE)


async def settled(
    api: FakeBotApi, at_least: tuple[int, int], timeout: float = 15
) -> tuple[int, int]:
    """The reminders shown once at least ``at_least`` are (and a few rounds passed, so a
    copy would have come)."""
    for _ in range(int(timeout / 0.1)):
        now = reminders_shown(api)
        if now[0] >= at_least[0] and now[1] >= at_least[1]:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.8)
    return reminders_shown(api)


class Workers:
    """The workers of one backend: two on PostgreSQL, one at a time on SQLite."""

    def __init__(self, cluster: Cluster, on_postgres: bool) -> None:
        self.cluster = cluster
        self.on_postgres = on_postgres
        self.started = 0

    @property
    def live(self) -> list[Worker]:
        return [w for w in self.cluster.workers if w.process.poll() is None]

    async def start(self, *, migrate: bool = False) -> Worker:
        for _ in range(3):
            self.started += 1
            try:
                return await self.cluster.start(f"w{self.started}", migrate=migrate)
            except RuntimeError as error:  # its free port taken meanwhile by another process
                if "address already in use" not in str(error):
                    raise
        raise AssertionError("no free port for a worker")

    async def fill(self) -> None:
        """As many live workers as the backend runs."""
        want = 2 if self.on_postgres else 1
        await asyncio.gather(*(self.start() for _ in range(want - len(self.live))))

    async def say(self, user: int, text: str) -> dict[str, Any]:
        return await self.cluster.say(self.live[0], user, GROUP, text)

    async def kill_at(self, point: str, *, due_in: float) -> Worker:
        """The next reminder's round stops at ``point`` (the clock moved on ``due_in``
        seconds first, to make it due): the worker that stopped there is killed."""
        cluster = self.cluster
        cluster.pause_next_at(point)
        cluster.move_clock(due_in)
        for _ in range(300):
            paused = [w for w in self.live if cluster.paused(w.name).exists()]
            if paused:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"no worker reached {point}")
        (worker,) = paused
        cluster.pause_next_at("")  # the others go on as usual
        await asyncio.to_thread(worker.kill)
        return worker


async def test_a_reminder_killed_at_each_point_is_shown_once_or_twice_only_in_its_window(
    request: pytest.FixtureRequest, database_url: str, tmp_path: Path
) -> None:
    on_postgres = database_url.startswith("postgres")
    redis = request.getfixturevalue("redis_server").url if on_postgres else None
    async with cluster_on(database_url, redis, tmp_path) as cluster:
        cluster.env["STONETABLE_REMIND_EVERY"] = "0.3"
        api = cluster.api
        workers = Workers(cluster, on_postgres)
        await workers.start(migrate=True)
        await workers.fill()
        assert "started a game" in (await workers.say(ALICE, "/newgame d20"))["text"]
        assert "joined the game" in (await workers.say(BO, "/join"))["text"]
        assert (await workers.say(ALICE, "/nudge 1m"))["text"].startswith("⏳ Done")
        figures: list[str] = []
        doubles = kills = 0

        async def killed(point: str, due_in: float, before: tuple[int, int], stage: int) -> int:
            """Kill at ``point`` the round sending the reminder of ``stage`` (0: the private
            one, 1: the group line); how many copies of it were shown, once settled."""
            nonlocal kills
            await workers.kill_at(point, due_in=due_in)
            kills += 1
            held = point != "reminder_marked"  # the row still claimed by the dead worker
            if not on_postgres and held:
                workers.cluster.move_clock(LEASE.total_seconds() + 1)  # its lease runs out
            # the machine, started again (meanwhile, on PostgreSQL, the other worker sends)
            starting = asyncio.create_task(workers.fill())
            if not on_postgres:
                await starting
            one_more = (before[0] + (stage == 0), before[1] + (stage == 1))
            after = await settled(api, one_more)
            await starting
            other = 1 - stage
            assert after[other] == before[other]  # the other reminder not brought forward
            return after[stage] - before[stage]

        before = reminders_shown(api)
        for point, most in POINTS:
            await workers.say(BO, "/check strong +2 dc12")  # the table waits on Bo's roll anew
            private = await killed(point, WAIT + 1, before, 0)
            line = await killed(point, WAIT + 1, (before[0] + private, before[1]), 1)
            for stage, copies in (("private", private), ("group line", line)):
                assert 1 <= copies <= most, (point, stage)
                assert copies == most  # a pause there makes the window certain
                doubles += copies == 2
                figures.append(f"{point} ({stage}): {copies}")
            before = (before[0] + private, before[1] + line)
            cluster.move_clock(5 * WAIT)  # and nothing after the group line, ever
            assert await settled(api, (0, 0)) == before

        # every worker restarted during the wait: the reminder still comes, once, when due
        await workers.say(BO, "/check strong +2 dc12")
        assert reminders_shown(api) == before
        cluster.move_clock(WAIT / 2)
        for worker in workers.live:
            await asyncio.to_thread(worker.kill)
        await workers.fill()
        assert await settled(api, (0, 0)) == before  # not due yet
        cluster.move_clock(WAIT / 2 + 1)
        assert await settled(api, (before[0] + 1, 0)) == (before[0] + 1, before[1])
        cluster.move_clock(WAIT + 1)
        assert await settled(api, (0, before[1] + 1)) == (before[0] + 1, before[1] + 1)
        cluster.move_clock(5 * WAIT)
        assert await settled(api, (0, 0)) == (before[0] + 1, before[1] + 1)
        assert await count(database_url, "SELECT count(*) FROM reminder") == 0
        backend = "PostgreSQL, two workers" if on_postgres else "SQLite, one worker"
        print(f"{backend}: {'; '.join(figures)}")
        print(
            f"{backend}: {kills} kills at {len(POINTS)} points (each at both reminders),"
            f" {doubles} showed a reminder twice, all after Telegram took it and before"
            f" its mark; a restart of every worker mid-wait: sent once, when due"
        )
