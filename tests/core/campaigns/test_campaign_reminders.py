"""A game's reminders through its lifecycle: a new game reminds after 12 hours; pausing,
ending and leaving drop what was due, and a leaver drops out of the turn order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.reminders import NudgeWord
from core.rules.rng import SeededRng
from core.rules.turns import TurnOrder
from core.runtime.locks import InProcessKeyedLock
from core.store import reminders
from core.store.models import Campaign, CampaignStatus
from core.store.outbox import Effect
from core.store.unit import UnitOfWork
from tests.support.counter_system import counter_registry

pytestmark = pytest.mark.db

GROUP = ChatRef(-100321, "supergroup", "The Table")
HOST, BEN, CY = PlayerRef(1, "Hana"), PlayerRef(2, "Ben"), PlayerRef(3, "Cy")
T0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


@pytest.fixture
def campaigns() -> Campaigns:
    return Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2))


async def test_a_new_game_reminds_after_12_hours_and_stops_when_paused(
    db: str, campaigns: Campaigns
) -> None:
    view = await campaigns.new_game(GROUP, HOST, "counter")
    play = Play(SeededRng(1), campaigns.locks, lambda: 0.0)
    for player in (BEN, CY):
        await play.mark_started(player)
        await campaigns.join(GROUP, player)
    assert (await reminders.settings_of(view.id)).wait == timedelta(hours=12)
    await reminders.set_turn_order(view.id, TurnOrder((HOST.tg_id, BEN.tg_id, CY.tg_id), 2))
    await reminders.schedule(view.id, frozenset({BEN.tg_id, CY.tg_id}), T0)
    await campaigns.leave(GROUP, BEN)
    assert set(await reminders.scheduled(view.id)) == {CY.tg_id}
    assert (await reminders.settings_of(view.id)).order == TurnOrder((1, 3), 3)
    await campaigns.set_status(GROUP, HOST, CampaignStatus.PAUSED)
    assert await reminders.scheduled(view.id) == {}
    assert await Campaign.filter(id=view.id, status=CampaignStatus.PAUSED).exists()


async def test_status_says_whom_the_table_waits_on_and_for_how_long(db: str) -> None:
    clock = [T0.timestamp()]
    campaigns = Campaigns(
        counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2), clock=lambda: clock[0]
    )
    view = await campaigns.new_game(GROUP, HOST, "counter")
    play = Play(SeededRng(1), campaigns.locks, lambda: 0.0)
    await play.mark_started(BEN)
    await campaigns.join(GROUP, BEN)
    _, lines = await campaigns.at_a_glance(GROUP.tg_id, GROUP.topic)
    assert not any("Waiting" in line for line in lines)  # nothing open: nobody
    await campaigns.open_panel(GROUP, BEN, "count")
    _, lines = await campaigns.at_a_glance(GROUP.tg_id, GROUP.topic)
    assert lines[-1] == "⏳ Waiting on Ben since just now."  # the wait started as it opened
    clock[0] = (T0 + timedelta(hours=2, minutes=1)).timestamp()
    _, lines = await campaigns.at_a_glance(GROUP.tg_id, GROUP.topic)
    assert lines[-1] == "⏳ Waiting on Ben for 2 h 1 min."
    await reminders.set_turn_order(view.id, TurnOrder((HOST.tg_id, BEN.tg_id), HOST.tg_id))
    _, lines = await campaigns.at_a_glance(GROUP.tg_id, GROUP.topic)
    assert lines[-1] == "⏳ Waiting on Ben, Hana for 2 h 1 min."  # and the turn's holder
    await campaigns.set_status(GROUP, HOST, CampaignStatus.PAUSED)
    _, lines = await campaigns.at_a_glance(GROUP.tg_id, GROUP.topic)
    assert not any("Waiting" in line for line in lines)  # paused: nothing happens


async def seated(campaigns: Campaigns) -> int:
    view = await campaigns.new_game(GROUP, HOST, "counter")
    play = Play(SeededRng(1), campaigns.locks, lambda: 0.0)
    for player in (BEN, CY):
        await play.mark_started(player)
        await campaigns.join(GROUP, player)
    return view.id


async def test_nudge_sets_the_wait_for_the_host_and_mutes_anyone(
    db: str, campaigns: Campaigns
) -> None:
    cid = await seated(campaigns)
    assert (await campaigns.nudge(GROUP, HOST, "30m")).wait == timedelta(minutes=30)
    assert (await reminders.settings_of(cid)).wait == timedelta(minutes=30)
    with pytest.raises(NotYourTurn):
        await campaigns.nudge(GROUP, BEN, "2d")
    with pytest.raises(Malformed):
        await campaigns.nudge(GROUP, HOST, "10y")  # and nothing changed
    assert (await reminders.settings_of(cid)).wait == timedelta(minutes=30)
    muted = await campaigns.nudge(GROUP, BEN, "mute")
    assert muted.word is NudgeWord.MUTE
    assert (await reminders.settings_of(cid)).muted == {BEN.tg_id}
    await campaigns.nudge(GROUP, BEN, "unmute")
    assert (await reminders.settings_of(cid)).muted == frozenset()
    assert (await campaigns.nudge(GROUP, HOST, "off")).wait is None
    assert (await reminders.settings_of(cid)).wait is None
    with pytest.raises(NotAllowedNow):
        await campaigns.nudge(GROUP, PlayerRef(77, "Stranger"), "mute")


async def test_turns_by_name_or_rolled_and_next_by_the_holder_or_the_host(
    db: str, campaigns: Campaigns
) -> None:
    cid = await seated(campaigns)
    with pytest.raises(NotAllowedNow):
        await campaigns.set_turns(GROUP, HOST, "Ben")  # one player: refused
    with pytest.raises(Malformed):
        await campaigns.set_turns(GROUP, HOST, "Ben Zed")
    with pytest.raises(NotYourTurn):
        await campaigns.set_turns(GROUP, BEN, "Ben Cy")
    set_ = await campaigns.set_turns(GROUP, HOST, "cy, Ben")
    assert set_.order == TurnOrder((CY.tg_id, BEN.tg_id), CY.tg_id)
    with pytest.raises(NotYourTurn):
        await campaigns.next_turn(GROUP, BEN)  # Cy's turn
    passed = await campaigns.next_turn(GROUP, CY)
    assert passed.order == TurnOrder((CY.tg_id, BEN.tg_id), BEN.tg_id)
    assert (await reminders.settings_of(cid)).order == passed.order
    assert set(await reminders.scheduled(cid)) == {BEN.tg_id}  # the wait restarted for Ben
    rolled = await campaigns.set_turns(GROUP, HOST, "roll")
    assert rolled.step.rolled and rolled.order is not None
    assert sorted(rolled.order.players) == [HOST.tg_id, BEN.tg_id, CY.tg_id]


async def test_every_change_restarts_the_wait_in_its_own_transaction(db: str) -> None:
    clock = [T0.timestamp()]
    campaigns = Campaigns(
        counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2), clock=lambda: clock[0]
    )
    cid = await seated(campaigns)
    assert await reminders.scheduled(cid) == {}  # nothing open: nobody awaited
    opened = await campaigns.open_panel(GROUP, BEN, "count")
    due = await reminders.scheduled(cid)
    assert set(due) == {BEN.tg_id} and due[BEN.tg_id].at == T0 + timedelta(hours=12)
    clock[0] = (T0 + timedelta(hours=5)).timestamp()
    pressed = await campaigns.act(opened.id, opened.version, BEN, "inc")
    due = await reminders.scheduled(cid)  # Ben moved the table on: his wait starts again
    assert due[BEN.tg_id].at == T0 + timedelta(hours=17)
    assert (await reminders.settings_of(cid)).since == T0 + timedelta(hours=5)
    with pytest.raises(NotYourTurn):  # a refused press changes nothing, the wait neither
        await campaigns.act(pressed.id, pressed.version, CY, "inc")
    assert (await reminders.scheduled(cid))[BEN.tg_id].at == T0 + timedelta(hours=17)
    await campaigns.act(pressed.id, pressed.version, BEN, "done")
    assert await reminders.scheduled(cid) == {}  # the wait was met: its reminder went
    again = await campaigns.open_panel(GROUP, CY, "count")
    assert set(await reminders.scheduled(cid)) == {CY.tg_id}
    await campaigns.set_status(GROUP, HOST, CampaignStatus.PAUSED)
    assert await reminders.scheduled(cid) == {}  # paused: none, and a change brings none
    await campaigns.nudge(GROUP, HOST, "1h")
    assert await reminders.scheduled(cid) == {}
    assert again.id


async def no_messages(_result: object, _how: str) -> list[Effect]:
    return []


def change() -> UnitOfWork:
    """A change's unit of work whose results are recorded (a planner that sends nothing),
    so the wait's restart reads what they hold."""
    return UnitOfWork(planner=no_messages)


async def test_a_press_restarts_the_wait_for_every_open_panel_the_change_read(
    db: str, campaigns: Campaigns
) -> None:
    """The wait's restart takes the open panels from the press's own read of what it
    touches (none read again): one the press did not touch, with no message yet, is
    still waited on, and the pressed one as the press left it."""
    cid = await seated(campaigns)
    bens = await campaigns.open_panel(GROUP, BEN, "count", unit=change())
    cys = await campaigns.open_panel(GROUP, CY, "count", unit=change())
    assert bens.message_id is None and cys.message_id is None  # nothing sent: no message
    assert set(await reminders.scheduled(cid)) == {BEN.tg_id, CY.tg_id}
    pressed = await campaigns.act(bens.id, bens.version, BEN, "inc", unit=change())
    assert pressed.others is not None  # the press read them: the wait reads no panel
    assert set(await reminders.scheduled(cid)) == {BEN.tg_id, CY.tg_id}
    await campaigns.act(pressed.id, pressed.version, BEN, "done", unit=change())
    assert set(await reminders.scheduled(cid)) == {CY.tg_id}  # Ben's closed, Cy's waits
    await campaigns.act(cys.id, cys.version, CY, "done", unit=change())
    assert await reminders.scheduled(cid) == {}
