"""Reminders kept as rows: scheduled as the table moves on, claimed by one worker, taken
over from a dead one, never claimed in a paused game; the clock is passed in."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

import pytest

from core.rules.errors import Malformed
from core.rules.reminders import Due, Stage
from core.rules.turns import TurnOrder
from core.store import liveness, outbox
from core.store import reminders as store
from core.store.models import Campaign, CampaignStatus, Chat, ChatKind, Player, ReminderRow

pytestmark = [pytest.mark.db]

T0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
ANA, BO, CY = 11, 12, 13
ONE = outbox.WORKER  # this worker (alive: on PostgreSQL it holds its lock)
TWO = "b2b2b2b2" + "00" * 4  # another worker


async def game(status: CampaignStatus = CampaignStatus.ACTIVE) -> int:
    host = await Player.create(tg_id=secrets.randbelow(10**9), first_name="Hal")
    chat = await Chat.create(
        tg_id=-100 - secrets.randbelow(10**6),
        kind=ChatKind.SUPERGROUP,
        app_token=secrets.token_hex(8),
    )
    campaign = await Campaign.create(
        chat=chat,
        live_chat_id=chat.tg_id,
        system="d20",
        host=host,
        app_token=secrets.token_hex(8),
        status=status,
    )
    return int(campaign.id)


async def test_a_game_from_before_reminders_has_them_off_and_a_new_one_at_12h(db: str) -> None:
    old, new = await game(), await game()
    assert (await store.settings_of(old)).wait is None
    assert await store.schedule(old, frozenset({ANA}), T0) == ()
    await store.start_new_game(new)
    assert (await store.settings_of(new)).wait == timedelta(hours=12)
    assert await store.schedule(new, frozenset({ANA}), T0) == (
        Due(ANA, Stage.PRIVATE, T0 + timedelta(hours=12)),
    )


async def test_the_wait_restarts_when_the_table_moves_on_and_a_met_wait_is_dropped(
    db: str,
) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.schedule(cid, frozenset({ANA, BO}), T0)
    later = T0 + timedelta(minutes=40)
    await store.schedule(cid, frozenset({BO, CY}), later)  # Ana acted: her wait was met
    assert await store.scheduled(cid) == {
        BO: Due(BO, Stage.PRIVATE, later + HOUR),
        CY: Due(CY, Stage.PRIVATE, later + HOUR),
    }
    assert await store.drop_met(cid, frozenset({CY})) == 1
    assert set(await store.scheduled(cid)) == {CY}
    assert (await store.settings_of(cid)).since == later


async def test_a_restart_mid_wait_loses_nothing_and_sends_nothing_early(db: str) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.schedule(cid, frozenset({ANA}), T0)
    # the worker restarts (a new process: only the rows remain)
    assert await store.claim_due(T0 + timedelta(minutes=59), worker=ONE) == []
    (claimed,) = await store.claim_due(T0 + HOUR, worker=ONE)
    assert claimed.due == Due(ANA, Stage.PRIVATE, T0 + HOUR)
    # sent: the group line follows a second wait later, then nothing more this wait
    follow = await store.sent(claimed, T0 + HOUR)
    assert follow == Due(ANA, Stage.GROUP, T0 + 2 * HOUR)
    assert await store.claim_due(T0 + HOUR + timedelta(minutes=30), worker=ONE) == []
    (group,) = await store.claim_due(T0 + 2 * HOUR, worker=ONE)
    assert group.due.stage is Stage.GROUP
    assert await store.sent(group, T0 + 2 * HOUR) is None
    assert await store.scheduled(cid) == {}
    assert await store.claim_due(T0 + 10 * HOUR, worker=ONE) == []


async def test_two_workers_racing_for_one_reminder_one_wins(db: str) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.schedule(cid, frozenset({BO}), T0)
    first = await store.claim_due(T0 + HOUR, worker=ONE)
    second = await store.claim_due(T0 + HOUR, worker=TWO)
    assert len(first) == 1 and second == []
    # the lease runs out unsent: the other may take it, and only one claim holds it then
    late = T0 + HOUR + store.LEASE + timedelta(seconds=1)
    (taken,) = await store.claim_due(late, worker=TWO)
    assert await store.sent(first[0], late) is None  # the first lost its claim: nothing
    assert (await ReminderRow.get(id=taken.id)).stage == Stage.PRIVATE.value
    assert await store.sent(taken, late) == Due(BO, Stage.GROUP, late + HOUR)


async def test_a_released_reminder_is_claimed_again_at_once(db: str) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.schedule(cid, frozenset({BO}), T0)
    claimed = await store.claim_due(T0 + HOUR, worker=ONE)
    await store.release(claimed)
    assert [c.due for c in await store.claim_due(T0 + HOUR, worker=TWO)] == [c.due for c in claimed]


async def test_a_dead_workers_reminder_is_taken_over(db: str) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.schedule(cid, frozenset({CY}), T0)
    dead = "deadbeef" + "00" * 4  # a worker that holds no lock: gone
    assert len(await store.claim_due(T0 + HOUR, worker=dead)) == 1
    taken = await store.claim_due(T0 + HOUR, worker=TWO)
    if liveness.watching():  # PostgreSQL: at once, its lock being gone
        assert [c.due.player for c in taken] == [CY]
    else:  # SQLite: once its lease runs out
        assert taken == []
        late = T0 + HOUR + store.LEASE + timedelta(seconds=1)
        assert [c.due.player for c in await store.claim_due(late, worker=TWO)] == [CY]


async def test_a_paused_game_sends_nothing_and_cancelling_drops_its_reminders(db: str) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.schedule(cid, frozenset({ANA, BO}), T0)
    await Campaign.filter(id=cid).update(status=CampaignStatus.PAUSED)
    assert await store.claim_due(T0 + 5 * HOUR, worker=ONE) == []
    assert await store.cancel(cid, BO) == 1  # Bo left
    assert set(await store.scheduled(cid)) == {ANA}
    assert await store.cancel(cid) == 1  # the game ended
    await Campaign.filter(id=cid).update(status=CampaignStatus.ACTIVE)
    assert await store.claim_due(T0 + 5 * HOUR, worker=ONE) == []


async def test_muted_players_and_reminders_off(db: str) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.schedule(cid, frozenset({ANA, BO}), T0)
    await store.set_muted(cid, BO, True)
    assert set(await store.scheduled(cid)) == {ANA}
    await store.schedule(cid, frozenset({ANA, BO}), T0 + HOUR)
    assert set(await store.scheduled(cid)) == {ANA}  # muted: none, private or group
    await store.set_muted(cid, BO, False)
    await store.schedule(cid, frozenset({ANA, BO}), T0 + HOUR)
    assert set(await store.scheduled(cid)) == {ANA, BO}
    await store.set_wait(cid, None)
    assert await store.scheduled(cid) == {}
    assert (await store.settings_of(cid)).since is None  # no longer timed


async def test_quiet_hours_push_a_reminder_to_their_end(db: str) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.set_quiet_hours(BO, "22:00-07:00", "Europe/Moscow")  # 19:00-04:00 UTC
    await store.set_quiet_hours(CY, "22:00-07:00", "+03:00")
    evening = datetime(2026, 11, 28, 18, 30, tzinfo=UTC)
    due = await store.schedule(cid, frozenset({ANA, BO, CY}), evening)
    morning = datetime(2026, 11, 29, 4, 0, tzinfo=UTC)
    assert due == (
        Due(ANA, Stage.PRIVATE, evening + HOUR),
        Due(BO, Stage.PRIVATE, morning),
        Due(CY, Stage.PRIVATE, morning),
    )
    with pytest.raises(Malformed):
        await store.set_quiet_hours(ANA, "22:00-07:00", "Mars/Olympus")
    await store.set_quiet_hours(BO, None)
    assert set(await store.quiet_hours_of([BO, CY])) == {CY}


async def test_the_turn_order_is_kept(db: str) -> None:
    cid = await game()
    order = TurnOrder((ANA, BO), BO)
    await store.set_turn_order(cid, order)
    assert (await store.settings_of(cid)).order == order
    await store.set_turn_order(cid, None)
    assert (await store.settings_of(cid)).order is None


async def test_a_leaver_loses_their_reminder_and_their_turn(db: str) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.set_turn_order(cid, TurnOrder((ANA, BO, CY), BO))
    await store.schedule(cid, frozenset({ANA, BO}), T0)
    await store.left(cid, BO)
    assert set(await store.scheduled(cid)) == {ANA}
    assert (await store.settings_of(cid)).order == TurnOrder((ANA, CY), CY)


async def test_a_paused_game_keeps_its_order_and_an_ended_one_drops_it(db: str) -> None:
    cid = await game()
    await store.set_wait(cid, HOUR)
    await store.set_turn_order(cid, TurnOrder((ANA, BO), ANA))
    await store.schedule(cid, frozenset({ANA}), T0)
    await store.stopped(cid, ended=False)
    assert await store.scheduled(cid) == {}
    assert (await store.settings_of(cid)).order is not None
    await store.stopped(cid, ended=True)
    assert (await store.settings_of(cid)).order is None
