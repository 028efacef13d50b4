"""What was saved always reaches the players: real workers killed at chosen points.

A worker started with ``STONETABLE_PAUSE_AT=<point>`` stops at that point of an
update's handling (the hooks its unit of work is given: tests/support/pausing_worker.py)
and writes a file; the test then
SIGKILLs it and delivers the update again, as Telegram does when no 200 came. The
points: inside the transaction just before COMMIT, just after COMMIT (the change saved,
nothing sent), just after Telegram took the first message (not yet marked sent), just
after its own write marked it sent, and between a secret roll's private message and the
chat's line. Then: every committed roll, press, lifecycle command, undo and secret roll
is shown (a new message at most twice, only when Telegram took it before the kill and
before its mark), nothing is applied twice. The lifecycle, undo and secret roll run on
the backend under test (``db``: SQLite, then PostgreSQL with Redis), one worker at a
time, restarted after each kill. A proxy in front of PostgreSQL swallows the answer to a
COMMIT: the player still reads the roll, with no dead letter. Kills spread over a
game's start (not at a point) measure how often a new message shows twice; a press left
by a killed worker is taken over at once on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.pg_proxy import CommitSwallower
from tests.support.services import PostgresServer, RedisServer
from tests.support.workers import Cluster, cluster_on, count, fresh_database
from tgbot.sandbox.fake_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.redis]

GROUP = -100123
ALICE, BO, CHIDI = 1001, 1002, 1003


@pytest.fixture
async def pg(
    postgres_server: PostgresServer,
    postgres_template: str,
    redis_server: RedisServer,
    tmp_path: Path,
) -> AsyncIterator[tuple[Cluster, str]]:
    database = await fresh_database(postgres_server, "o", postgres_template)
    async with cluster_on(database, redis_server.url, tmp_path) as cluster:
        yield cluster, database


def rolls_shown(api: FakeBotApi) -> int:
    return sum(1 for m in api.messages(GROUP) if " rolls " in (m.get("text") or ""))


async def wait_for_rolls(api: FakeBotApi, at_least: int, timeout: float = 15) -> int:
    for _ in range(int(timeout / 0.1)):
        if rolls_shown(api) >= at_least:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)  # and nothing more comes
    return rolls_shown(api)


# (point, times the committed roll is stored, most copies of its message)
ROLL_POINTS = [
    ("before_commit", 1, 1),
    ("after_commit", 1, 1),
    ("after_send", 1, 2),  # Telegram took it, not yet marked: the one window
    ("after_mark", 1, 1),  # marked by its own write at once: never again
]


@pytest.mark.parametrize(("point", "stored", "most"), ROLL_POINTS)
async def test_a_roll_killed_at_a_point_is_shown_after_redelivery(
    pg: tuple[Cluster, str], point: str, stored: int, most: int
) -> None:
    cluster, database = pg
    a = await cluster.start("a", pause_at=point, migrate=True)
    b = await cluster.start("b")
    await cluster.api.send_text(ALICE, GROUP, "/roll 1d6")
    (update,) = cluster.balancer.take()
    await cluster.kill_at_pause(a, update)
    assert await cluster.balancer.post(b, update) == 200  # Telegram, again
    assert await cluster.balancer.post(b, update) == 200  # and a late copy
    shown = await wait_for_rolls(cluster.api, 1)
    assert 1 <= shown <= most
    assert await count(database, "SELECT count(*) FROM roll_record") == stored
    assert await count(database, "SELECT count(*) FROM dead_letter") == 0
    assert await count(database, "SELECT count(*) FROM outbox WHERE NOT sent") == 0


async def test_a_roll_left_by_a_killed_worker_is_sent_by_the_sweeper(
    pg: tuple[Cluster, str],
) -> None:
    cluster, database = pg
    a = await cluster.start("a", pause_at="after_commit", migrate=True)
    await cluster.start("b")
    await cluster.api.send_text(ALICE, GROUP, "/roll 2d6")
    (update,) = cluster.balancer.take()
    await cluster.kill_at_pause(a, update)
    # no redelivery at all: the other worker's sweeper sends it once the lease ran out
    assert await wait_for_rolls(cluster.api, 1, timeout=20) == 1  # ~7 s; a busy machine
    assert await count(database, "SELECT count(*) FROM roll_record") == 1


def posts_under_a_portrait(api: FakeBotApi) -> list[dict[str, Any]]:
    return [m for m in api.messages(GROUP) if m.get("caption") == "💬 Alice Marsh: Hi there."]


@pytest.mark.parametrize(
    ("point", "most"), [("after_commit", 1), ("after_send", 2), ("after_mark", 1)]
)
async def test_a_post_under_a_portrait_killed_at_a_point_is_shown_after_redelivery(
    pg: tuple[Cluster, str], point: str, most: int
) -> None:
    """The photo of a post goes through the outbox: marked sent the moment Telegram took it,
    so only a kill between the two shows it twice; its upload's id is kept once."""
    import asyncpg

    from tests.tgbot.test_e2e_portraits import png

    cluster, database = pg
    a = await cluster.start("a", migrate=True)
    assert "d20" in (await cluster.say(a, ALICE, GROUP, "/newgame d20"))["text"]
    conn = await asyncpg.connect(database)
    try:  # the portrait, as the Mini App keeps it
        await conn.execute(
            "INSERT INTO portrait (campaign_id, player_tg_id, media_type, data, digest,"
            " set_by_tg_id, created_at) SELECT id, $1, 'image/png', $2, 'd1', $1, now()"
            " FROM campaign",
            ALICE,
            png(40),
        )
    finally:
        await conn.close()
    cluster.pause_next_at(point)
    await cluster.api.send_text(ALICE, GROUP, "/say Hi there.")
    (update,) = cluster.balancer.take()
    await cluster.kill_at_pause(a, update)
    cluster.pause_next_at("")
    b = await cluster.start("b")
    assert await cluster.balancer.post(b, update) == 200  # Telegram, again
    assert await cluster.balancer.post(b, update) == 200  # and a late copy
    for _ in range(100):
        if posts_under_a_portrait(cluster.api):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)  # and nothing more comes
    shown = posts_under_a_portrait(cluster.api)
    assert 1 <= len(shown) <= most
    assert len({m["photo"][-1]["file_id"] for m in shown}) == 1  # uploaded once
    assert await count(database, "SELECT count(*) FROM portrait WHERE file_id IS NOT NULL") == 1
    assert await count(database, "SELECT count(*) FROM log_entry WHERE kind = 'said'") == 1
    assert await count(database, "SELECT count(*) FROM outbox WHERE NOT sent") == 0


def data_for(message: dict[str, Any], action: str) -> str:
    rows = message["reply_markup"]["inline_keyboard"]
    return next(
        b["callback_data"]
        for row in rows
        for b in row
        if b.get("callback_data", "").split(":")[3] == action
    )


@pytest.mark.parametrize("point", ["after_commit", "after_send"])
async def test_a_press_killed_at_a_point_is_applied_once_and_shown(
    pg: tuple[Cluster, str], point: str
) -> None:
    cluster, _ = pg
    a = await cluster.start("a", pause_at=point, migrate=True)
    b = await cluster.start("b")
    assert "started a game" in (await cluster.say(b, ALICE, GROUP, "/newgame threat"))["text"]
    assert "joined" in (await cluster.say(b, BO, GROUP, "/join"))["text"]
    assert "joined" in (await cluster.say(b, CHIDI, GROUP, "/join"))["text"]
    panel = await cluster.say(b, BO, GROUP, "/roll 3d2t")
    api = cluster.api
    await api.press_button(CHIDI, GROUP, panel["message_id"], data_for(panel, "join"))
    (update,) = cluster.balancer.take()
    await cluster.kill_at_pause(a, update)
    assert await cluster.balancer.post(b, update) == 200
    shown = await api.wait_for_message(
        GROUP,
        lambda m: m["message_id"] == panel["message_id"] and "helps" in m["text"],
        timeout=15,
    )
    assert shown["text"].count("helps") == 1  # applied once


@pytest.fixture
async def pg_behind_proxy(
    postgres_server: PostgresServer,
    postgres_template: str,
    redis_server: RedisServer,
    tmp_path: Path,
) -> AsyncIterator[tuple[Cluster, str, CommitSwallower]]:
    database = await fresh_database(postgres_server, "o", postgres_template)
    async with CommitSwallower(postgres_server.port) as proxy:
        proxied = database.replace(f":{postgres_server.port}/", f":{proxy.port}/")
        async with cluster_on(proxied, redis_server.url, tmp_path) as cluster:
            yield cluster, database, proxy


async def test_a_roll_whose_commit_answer_is_lost_is_shown_without_a_dead_letter(
    pg_behind_proxy: tuple[Cluster, str, CommitSwallower],
) -> None:
    cluster, database, proxy = pg_behind_proxy
    a = await cluster.start("a", migrate=True)
    # past the start's one-off job (the menus, some 5 s after the start), which commits too
    menus = "SELECT count(*) FROM job_run WHERE name LIKE 'menus:%'"
    for _ in range(300):
        if await count(database, menus):
            break
        await asyncio.sleep(0.1)
    assert await count(database, menus) == 1
    await cluster.api.send_text(ALICE, GROUP, "/roll 1d6")
    (update,) = cluster.balancer.take()
    proxy.arm()
    assert await cluster.balancer.post(a, update) == 200
    assert proxy.swallowed.is_set()
    assert await wait_for_rolls(cluster.api, 1) == 1  # the result, not "try again"
    assert await count(database, "SELECT count(*) FROM roll_record") == 1
    assert await count(database, "SELECT count(*) FROM dead_letter") == 0
    assert "Traceback" not in a.log.read_text()
    assert await cluster.balancer.post(a, update) == 200  # a redelivery changes nothing
    assert await wait_for_rolls(cluster.api, 1) == 1
    assert await count(database, "SELECT count(*) FROM roll_record") == 1


def shown(api: FakeBotApi, chat: int, words: str) -> int:
    return sum(1 for m in api.messages(chat) if words in (m.get("text") or ""))


async def settled(api: FakeBotApi, chat: int, words: str, timeout: float = 15) -> int:
    """How many messages of ``chat`` read ``words`` once at least one does (and a moment
    passed, so a copy would have come)."""
    for _ in range(int(timeout / 0.1)):
        if shown(api, chat, words):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)
    return shown(api, chat, words)


@pytest.mark.db
async def test_lifecycle_undo_and_a_secret_roll_killed_at_points_are_shown_once(
    request: pytest.FixtureRequest, database_url: str, tmp_path: Path
) -> None:
    """One worker at a time on the backend under test (SQLite or PostgreSQL + Redis): each
    change below is killed at a different point of its handling, then delivered again to
    a worker started afresh. Every change is applied once and shown (a new message at
    most twice, only when Telegram took it before the kill)."""
    on_postgres = database_url.startswith("postgres")
    redis = request.getfixturevalue("redis_server").url if on_postgres else None
    async with cluster_on(database_url, redis, tmp_path) as cluster:
        api = cluster.api
        worker = await cluster.start("w0", migrate=True)
        assert (
            "started a game" in (await cluster.say(worker, ALICE, GROUP, "/newgame threat"))["text"]
        )
        assert "joined" in (await cluster.say(worker, BO, GROUP, "/join"))["text"]
        assert "joined" in (await cluster.say(worker, CHIDI, GROUP, "/join"))["text"]
        panel = await cluster.say(worker, BO, GROUP, "/roll 3d2t")
        await api.press_button(CHIDI, GROUP, panel["message_id"], data_for(panel, "join"))
        (press,) = cluster.balancer.take()
        assert await cluster.balancer.post(worker, press) == 200

        def panel_text() -> str:
            return next(
                str(m["text"])
                for m in api.messages(GROUP)
                if m["message_id"] == panel["message_id"]
            )

        for _ in range(150):
            if "helps" in panel_text():
                break
            await asyncio.sleep(0.1)
        assert "helps" in panel_text()
        kills = 0

        async def killed_at(point: str, user: int, text: str) -> None:
            nonlocal worker, kills
            cluster.pause_next_at(point)
            await api.send_text(user, GROUP, text)
            (update,) = cluster.balancer.take()
            await cluster.kill_at_pause(worker, update)
            cluster.pause_next_at("")
            kills += 1
            worker = await cluster.start(f"w{kills}")  # the machine, started again
            assert await cluster.balancer.post(worker, update) == 200  # Telegram, again
            assert await cluster.balancer.post(worker, update) == 200  # and a late copy

        # (an undo first: a pause makes every step stand)
        await killed_at("after_send", CHIDI, "/undo")  # its reply taken, not marked sent
        assert 1 <= await settled(api, GROUP, "took back") <= 2
        undone = "SELECT count(*) FROM undo_step WHERE undone"
        assert await count(database_url, undone) == 1
        for _ in range(150):  # the panel is redrawn as before the press
            if "helps" not in panel_text():
                break
            await asyncio.sleep(0.1)
        assert "helps" not in panel_text()
        await killed_at("after_commit", ALICE, "/pause")  # saved, nothing sent
        assert await settled(api, GROUP, "The game is paused") == 1
        paused = "SELECT count(*) FROM campaign WHERE status = 'paused'"
        assert await count(database_url, paused) == 1
        await killed_at("before_commit", ALICE, "/resume")  # rolled back: done by the copy
        assert await settled(api, GROUP, "The game goes on") == 1
        assert await count(database_url, paused) == 0
        rolls = await count(database_url, "SELECT count(*) FROM roll_record")
        await killed_at("between_secret", ALICE, "/sroll 1d6")  # private sent, line not
        assert await settled(api, GROUP, "rolled in secret") == 1
        assert 1 <= shown(api, ALICE, "Secret roll") <= 2
        assert await count(database_url, "SELECT count(*) FROM roll_record") == rolls + 1
        unsent = "SELECT count(*) FROM outbox WHERE NOT sent"
        for _ in range(50):  # the edits are marked sent in batches, every 2 s
            if await count(database_url, unsent) == 0:
                break
            await asyncio.sleep(0.2)
        assert await count(database_url, unsent) == 0
        assert await count(database_url, "SELECT count(*) FROM dead_letter") == 0


async def test_a_dead_workers_press_is_taken_over_at_once_on_postgresql(
    pg: tuple[Cluster, str],
) -> None:
    """The press's edit, leased to a worker killed after its commit, is sent by the worker
    the press is delivered to again as soon as it finds the dead worker's lock gone (its
    connection closed with it), not once the 5 s lease ran out."""
    cluster, database = pg
    a = await cluster.start("a", pause_at="after_commit", migrate=True)
    b = await cluster.start("b")
    assert "started a game" in (await cluster.say(b, ALICE, GROUP, "/newgame threat"))["text"]
    assert "joined" in (await cluster.say(b, BO, GROUP, "/join"))["text"]
    assert "joined" in (await cluster.say(b, CHIDI, GROUP, "/join"))["text"]
    panel = await cluster.say(b, BO, GROUP, "/roll 3d2t")
    api = cluster.api
    await api.press_button(CHIDI, GROUP, panel["message_id"], data_for(panel, "join"))
    (update,) = cluster.balancer.take()
    await cluster.kill_at_pause(a, update)
    lease = f"SELECT MAX(claimed_until) FROM outbox WHERE update_id = {update['update_id']}"
    dead_until = await count_float(database, lease)  # the dead worker's lease on the edit
    assert dead_until > time.time()  # still leased to the dead worker
    assert await cluster.balancer.post(b, update) == 200
    await api.wait_for_message(
        GROUP,
        lambda m: m["message_id"] == panel["message_id"] and "helps" in m["text"],
        timeout=15,
    )
    assert time.time() < dead_until  # taken over: no worker may send it before otherwise


async def count_float(database: str, query: str) -> float:
    import asyncpg

    conn = await asyncpg.connect(database)
    try:
        return float(await conn.fetchval(query))
    finally:
        await conn.close()


async def count_rows(database: str, update_id: int) -> str:
    """What an update wrote to the outbox, in order (kinds), for the report."""
    if database.startswith("sqlite://"):
        import sqlite3

        with sqlite3.connect(database.removeprefix("sqlite://")) as conn:
            kinds = [
                k
                for (k,) in conn.execute(
                    f"SELECT kind FROM outbox WHERE update_id = {update_id} ORDER BY id"
                )
            ]
    else:
        import asyncpg

        conn = await asyncpg.connect(database)
        try:
            kinds = [
                r["kind"]
                for r in await conn.fetch(
                    f"SELECT kind FROM outbox WHERE update_id = {update_id} ORDER BY id"
                )
            ]
        finally:
            await conn.close()
    return "rows: " + ", ".join(kinds)


async def end_game(cluster: Cluster, worker: Any) -> None:
    """The host ends the game (asked, then the button), so a new one may start."""
    question = await cluster.say(worker, ALICE, GROUP, "/endgame")
    rows = question["reply_markup"]["inline_keyboard"]
    data = next(b["callback_data"] for row in rows for b in row if b["text"].startswith("🏁"))
    await cluster.api.press_button(ALICE, GROUP, question["message_id"], data)
    (press,) = cluster.balancer.take()
    assert await cluster.balancer.post(worker, press) == 200


# Kills spread over an update's handling, after Telegram took its first new message.
SPREAD_KILLS = 6


@pytest.mark.db
async def test_kills_spread_over_the_handling_show_a_new_message_twice_only_before_its_mark(
    request: pytest.FixtureRequest, database_url: str, tmp_path: Path
) -> None:
    """A game's start (its reply, its panel, the group's menus: several Bot API calls) is
    delivered, and the worker SIGKILLed at a moment spread evenly between Telegram taking
    its first new message and the 200 a handling without a kill takes to come; the update
    is then delivered again to a worker started afresh. The first message is never lost and
    goes out twice only when the kill came before its row was marked sent, which happens
    the moment Telegram answered. The figure (how many of the kills showed it twice) is
    printed: docs/operations.md quotes it."""
    on_postgres = database_url.startswith("postgres")
    redis = request.getfixturevalue("redis_server").url if on_postgres else None
    async with cluster_on(database_url, redis, tmp_path) as cluster:
        api = cluster.api
        loop = asyncio.get_running_loop()
        worker = await cluster.start("w0", migrate=True)
        taken: list[float] = []
        kill_after: list[float | None] = [None]

        seen = [api.feed.mark()]

        def watch() -> None:  # the local Bot API server, on each change (in this loop)
            last = api.feed.events[-1] if api.feed.events else None
            if last is None or last["seq"] <= seen[0] or last["kind"] != "message":
                return
            seen[0] = last["seq"]
            message = last.get("message") or {}
            started = "started a game" in (message.get("text") or "")
            if started and (message.get("from") or {}).get("id") == api.bot_id:
                taken.append(time.monotonic())
                delay = kill_after[0]
                if delay is not None:
                    pid = worker.process.pid
                    loop.call_later(delay, lambda: os.kill(pid, signal.SIGKILL))

        api.on_change = watch

        # a handling without a kill: how long from the first message taken to the 200
        began = len(taken)
        await api.send_text(ALICE, GROUP, "/newgame threat")
        (update,) = cluster.balancer.take()
        assert await cluster.balancer.post(worker, update) == 200
        window = time.monotonic() - taken[began]
        await end_game(cluster, worker)

        rows = await count_rows(database_url, update["update_id"])
        twice = after_mark = 0
        trials: list[str] = []
        for kill in range(SPREAD_KILLS):
            kill_after[0] = window * (kill + 0.5) / SPREAD_KILLS
            before = shown(api, GROUP, "started a game")
            await api.send_text(ALICE, GROUP, "/newgame threat")
            (update,) = cluster.balancer.take()
            status = await cluster.balancer.post(worker, update)
            await asyncio.sleep(window)  # a kill due after the 200 comes too
            kill_after[0] = None
            await asyncio.to_thread(worker.process.wait, 10)
            first = (
                "SELECT count(*) FROM outbox WHERE update_id = %d AND sent"
                " AND CAST(payload AS TEXT) LIKE '%%started a game%%'"
            )
            marked = bool(await count(database_url, first % update["update_id"]))
            after_mark += marked
            worker = await cluster.start(f"w{kill + 1}")
            if status != 200:
                assert await cluster.balancer.post(worker, update) == 200  # Telegram, again
            copies = await settled(api, GROUP, "started a game") - before
            assert 1 <= copies <= 2  # never lost
            assert copies == 1 or not marked  # twice only when killed before the mark
            twice += copies == 2
            trials.append(
                f"{window * (kill + 0.5) / SPREAD_KILLS * 1000:.0f} ms:"
                f" {'answered' if status == 200 else 'killed'},"
                f" {'marked' if marked else 'unmarked'}, {copies}"
            )
            await end_game(cluster, worker)
        backend = "PostgreSQL" if on_postgres else "SQLite"
        print(f"{rows}; {'; '.join(trials)}")
        print(
            f"{backend}: {twice} of {SPREAD_KILLS} kills showed it twice;"
            f" {after_mark} came after its mark (handling window {window * 1000:.0f} ms)"
        )
