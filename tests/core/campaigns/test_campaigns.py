"""Campaigns and panels: membership, host powers, exactly-once button presses."""

from __future__ import annotations

import asyncio

import pytest

from core.campaigns import Campaigns, Retirement
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.lifecycle import Stage
from core.rules.rng import ScriptedRng, SeededRng
from core.rules.table import Role
from core.runtime.locks import InProcessKeyedLock
from core.store.models import CampaignStatus, Member, Panel
from tests.support.counter_system import counter_registry

pytestmark = pytest.mark.db

GROUP = ChatRef(-100123, "supergroup", "The Table")
HOST = PlayerRef(1, "Hana")
BEN = PlayerRef(2, "Ben")
CY = PlayerRef(3, "Cy")


@pytest.fixture
def campaigns() -> Campaigns:
    return Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2))


async def started(campaigns: Campaigns, *players: PlayerRef) -> None:
    await campaigns.new_game(GROUP, HOST, "counter")
    play = Play(SeededRng(1), campaigns.locks, lambda: 0.0)
    for player in players:
        await play.mark_started(player)
        await campaigns.join(GROUP, player)


async def test_new_game_seats_the_host_and_only_one_game_per_chat(
    db: str, campaigns: Campaigns
) -> None:
    view = await campaigns.new_game(GROUP, HOST, "counter")
    assert [m.name for m in view.members] == ["Hana"]
    assert Role.HOST in view.members[0].roles
    assert view.state == {"total": 0, "seats": 1}
    with pytest.raises(NotAllowedNow):
        await campaigns.new_game(GROUP, BEN, "counter")
    with pytest.raises(Malformed):
        await campaigns.new_game(ChatRef(-5, "group"), HOST, "chess")
    with pytest.raises(NotAllowedNow):
        await campaigns.new_game(ChatRef(9, "private"), HOST, "counter")


async def test_joining_needs_a_private_chat_first_then_completes(
    db: str, campaigns: Campaigns
) -> None:
    await campaigns.new_game(GROUP, HOST, "counter")
    pending = await campaigns.join(GROUP, BEN)
    assert not pending.joined and pending.start_payload.startswith("join_")
    done = await campaigns.complete_join(pending.start_payload, BEN)
    assert done.joined and done.campaign.member(BEN.tg_id) is not None
    again = await campaigns.complete_join(pending.start_payload, BEN)
    assert again.already_member
    with pytest.raises(Malformed):
        await campaigns.complete_join("hello", BEN)


async def test_leaving_and_host_powers(db: str, campaigns: Campaigns) -> None:
    await started(campaigns, BEN)
    with pytest.raises(NotYourTurn):
        await campaigns.set_status(GROUP, BEN, CampaignStatus.PAUSED)
    paused = await campaigns.set_status(GROUP, HOST, CampaignStatus.PAUSED)
    assert paused.status is CampaignStatus.PAUSED
    with pytest.raises(NotAllowedNow, match="paused"):
        await campaigns.open_panel(GROUP, BEN, "count")
    await campaigns.set_status(GROUP, HOST, CampaignStatus.ACTIVE)
    with pytest.raises(NotAllowedNow):
        await campaigns.leave(GROUP, HOST)
    left = await campaigns.leave(GROUP, BEN)
    assert left.campaign.member(BEN.tg_id) is None
    await campaigns.set_status(GROUP, HOST, CampaignStatus.ARCHIVED)
    assert await campaigns.current(GROUP.tg_id) is None
    fresh = await campaigns.new_game(GROUP, BEN, "counter")  # the chat is free again
    assert fresh.host_id == BEN.tg_id


async def test_a_panel_saves_its_state_the_campaign_and_the_sheet(
    db: str, campaigns: Campaigns
) -> None:
    await started(campaigns, BEN)
    panel = await campaigns.open_panel(GROUP, BEN, "count", "2")
    step = await campaigns.act(panel.id, panel.version, BEN, "inc")
    assert step.state["value"] == 1 and step.version == panel.version + 1
    assert step.campaign.state["total"] == 1
    assert step.table.seats[BEN.tg_id].sheet == {"presses": 1}
    member = await Member.get(player__tg_id=BEN.tg_id)
    assert member.sheet == {"presses": 1}


async def test_wrong_player_stale_button_and_closed_panel_change_nothing(
    db: str, campaigns: Campaigns
) -> None:
    await started(campaigns, BEN, CY)
    panel = await campaigns.open_panel(GROUP, BEN, "count")
    with pytest.raises(NotYourTurn):
        await campaigns.act(panel.id, panel.version, CY, "inc")
    with pytest.raises(NotYourTurn):
        await campaigns.act(panel.id, panel.version, PlayerRef(99, "Stranger"), "inc")
    step = await campaigns.act(panel.id, panel.version, BEN, "inc")
    with pytest.raises(NotAllowedNow, match="out of date"):
        await campaigns.act(panel.id, panel.version, BEN, "inc")  # the same press again
    closed = await campaigns.act(panel.id, step.version, BEN, "done")
    with pytest.raises(NotAllowedNow, match="out of date"):
        await campaigns.act(panel.id, closed.version, BEN, "inc")
    row = await Panel.get(id=panel.id)
    assert row.state["value"] == 1 and row.closed


async def test_simultaneous_presses_give_exactly_one_transition(
    db: str, campaigns: Campaigns
) -> None:
    await started(campaigns, BEN)
    panel = await campaigns.open_panel(GROUP, BEN, "count", "10")
    results = await asyncio.gather(
        *(campaigns.act(panel.id, panel.version, BEN, "inc") for _ in range(6)),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, NotAllowedNow) for r in results if isinstance(r, Exception))
    row = await Panel.get(id=panel.id)
    assert row.state["value"] == 1 and row.version == panel.version + 1
    assert (await campaigns.require_current(GROUP.tg_id)).state["total"] == 1


async def test_membership_guards_the_mini_app_token(db: str, campaigns: Campaigns) -> None:
    await started(campaigns, BEN)
    view = await campaigns.require_current(GROUP.tg_id)
    assert (await campaigns.for_viewer(view.app_token, BEN)).id == view.id
    with pytest.raises(NotAllowedNow):
        await campaigns.for_viewer(view.app_token, CY)
    with pytest.raises(NotAllowedNow):
        await campaigns.for_viewer("guess", BEN)
    assert [c.id for c in await campaigns.campaigns_of(BEN)] == [view.id]


async def test_a_private_panel_belongs_to_its_groups_campaign_and_takes_replies(
    db: str, campaigns: Campaigns
) -> None:
    await started(campaigns, BEN)
    game = await campaigns.require_current(GROUP.tg_id)
    private = ChatRef(BEN.tg_id, "private", "")
    with pytest.raises(NotAllowedNow):
        await campaigns.open_panel(private, BEN, "count")  # no game lives in a private chat
    panel = await campaigns.open_panel(private, BEN, "count", campaign_id=game.id)
    assert panel.chat_tg_id == BEN.tg_id and panel.campaign.id == game.id
    await campaigns.bind_message(panel.id, 77)
    found = await campaigns.panel_at(BEN.tg_id, 77)
    assert found is not None and found.id == panel.id
    step = await campaigns.act(panel.id, panel.version, BEN, "text", "a <b>note</b>")
    assert step.state["note"] == "a <b>note</b>"
    assert await campaigns.panel_at(BEN.tg_id, 78) is None


async def test_a_mini_app_edit_rolls_the_injected_dice(db: str) -> None:
    dice = ScriptedRng([4])
    campaigns = Campaigns(counter_registry(), dice, InProcessKeyedLock(5, 2))
    view = await campaigns.new_game(GROUP, HOST, "counter")
    edited = await campaigns.edit(view.app_token, HOST, "roll", {})
    assert edited.campaign.state["rolled"] == 4 and dice.remaining == 0
    assert edited.redraw == ()  # the counter shows nothing of its campaign on panels
    with pytest.raises(NotAllowedNow):
        await campaigns.edit(view.app_token, HOST, "rename", {})
    assert (await campaigns.require_current(GROUP.tg_id)).state["rolled"] == 4


class Clock:
    """A clock the test moves by hand (seconds since the epoch)."""

    def __init__(self, now: float = 1_790_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_ending_waits_for_the_hosts_confirmation_and_keeps_everything(
    db: str,
) -> None:
    clock = Clock()
    campaigns = Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2), clock=clock)
    await started(campaigns, BEN)
    panel = await campaigns.open_panel(GROUP, BEN, "count", "5")
    await campaigns.act(panel.id, panel.version, BEN, "inc")
    with pytest.raises(NotYourTurn, match="Only the host can end"):
        await campaigns.ask_end(GROUP, BEN)
    asked = await campaigns.ask_end(GROUP, HOST)
    assert asked.status is CampaignStatus.ACTIVE  # asking changes nothing
    with pytest.raises(NotYourTurn):
        await campaigns.end(GROUP, BEN, asked.id, asked.version)
    kept = await campaigns.keep_playing(GROUP, HOST, asked.id)
    assert kept.status is CampaignStatus.ACTIVE and kept.version == asked.version

    ended = await campaigns.end(GROUP, HOST, asked.id, asked.version)
    assert ended.campaign.status is CampaignStatus.ARCHIVED
    assert ended.resumable_until.timestamp() == clock.now + 30 * 86400
    assert await campaigns.current(GROUP.tg_id) is None
    assert (await Panel.get(id=panel.id)).closed
    with pytest.raises(NotAllowedNow, match=r"This game has ended\. The host can bring it back"):
        await campaigns.act(panel.id, panel.version + 1, BEN, "inc")  # the ended game's button
    assert await campaigns.has_ended(asked.id)
    with pytest.raises(NotAllowedNow, match="out of date"):  # a second press of the same button
        await campaigns.end(GROUP, HOST, asked.id, asked.version)
    with pytest.raises(NotAllowedNow, match="out of date"):
        await campaigns.keep_playing(GROUP, HOST, asked.id)

    last = await campaigns.last_ended(GROUP.tg_id)
    assert last is not None and last.resumable and last.campaign.id == asked.id
    with pytest.raises(NotYourTurn, match="Only the host can resume"):
        await campaigns.resume(GROUP, BEN)
    clock.now += 29 * 86400
    back = await campaigns.resume(GROUP, HOST)
    assert back.came_back and back.campaign.status is CampaignStatus.ACTIVE
    assert back.campaign.state == asked.state  # the total the table counted is intact
    assert [m.player_id for m in back.campaign.members] == [HOST.tg_id, BEN.tg_id]
    assert (await Member.get(player__tg_id=BEN.tg_id)).sheet == {"presses": 1}
    with pytest.raises(NotAllowedNow, match="moved on"):  # the old question is answered
        await campaigns.end(GROUP, HOST, asked.id, asked.version)
    with pytest.raises(NotAllowedNow, match="already running"):
        await campaigns.resume(GROUP, HOST)


async def test_an_ended_game_is_gone_from_resume_after_thirty_days(db: str) -> None:
    clock = Clock()
    campaigns = Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2), clock=clock)
    await started(campaigns)
    asked = await campaigns.ask_end(GROUP, HOST)
    await campaigns.end(GROUP, HOST, asked.id, asked.version)
    clock.now += 30 * 86400 + 1
    last = await campaigns.last_ended(GROUP.tg_id)
    assert last is not None and not last.resumable
    with pytest.raises(NotAllowedNow, match="more than 30 days ago"):
        await campaigns.resume(GROUP, HOST)
    assert await campaigns.current(GROUP.tg_id) is None


async def test_resume_offers_the_game_that_ended_last_and_newgame_names_endgame(
    db: str,
) -> None:
    campaigns = Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2))
    with pytest.raises(NotAllowedNow, match="none ended here"):
        await campaigns.resume(GROUP, HOST)
    first = await campaigns.new_game(GROUP, HOST, "counter")
    with pytest.raises(NotAllowedNow, match="/endgame"):
        await campaigns.new_game(GROUP, HOST, "counter")
    await campaigns.set_status(GROUP, HOST, CampaignStatus.ARCHIVED)
    second = await campaigns.new_game(GROUP, BEN, "counter")
    assert await campaigns.last_ended(GROUP.tg_id) is None  # a game runs: nothing to offer
    with pytest.raises(NotAllowedNow, match="already running"):
        await campaigns.resume(GROUP, BEN)
    await campaigns.set_status(GROUP, BEN, CampaignStatus.ARCHIVED)
    last = await campaigns.last_ended(GROUP.tg_id)
    assert last is not None and last.campaign.id == second.id != first.id
    with pytest.raises(NotYourTurn):
        await campaigns.resume(GROUP, HOST)  # the host of the last game brings it back
    assert (await campaigns.resume(GROUP, BEN)).campaign.id == second.id


async def test_two_hosts_presses_at_once_end_the_game_once(db: str, campaigns: Campaigns) -> None:
    await started(campaigns)
    asked = await campaigns.ask_end(GROUP, HOST)
    results = await asyncio.gather(
        *(campaigns.end(GROUP, HOST, asked.id, asked.version) for _ in range(4)),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, NotAllowedNow) for r in results if isinstance(r, Exception))


async def test_a_game_that_moved_on_since_the_question_is_not_ended_by_it(
    db: str, campaigns: Campaigns
) -> None:
    await started(campaigns, BEN)
    asked = await campaigns.ask_end(GROUP, HOST)
    panel = await campaigns.open_panel(GROUP, BEN, "count")
    await campaigns.act(panel.id, panel.version, BEN, "inc")  # the table's total changes
    with pytest.raises(NotAllowedNow, match="moved on since you asked"):
        await campaigns.end(GROUP, HOST, asked.id, asked.version)
    assert (await campaigns.require_current(GROUP.tg_id)).status is CampaignStatus.ACTIVE
    kept = await campaigns.keep_playing(GROUP, HOST, asked.id)  # Cancel still works
    assert kept.state["total"] == 1
    again = await campaigns.ask_end(GROUP, HOST)
    assert (await campaigns.end(GROUP, HOST, again.id, again.version)).campaign.id == asked.id


def test_the_store_keeps_the_lifecycle_stages_by_their_own_words() -> None:
    assert {s.value for s in Stage} == {c.value for c in CampaignStatus}


async def test_every_change_names_the_open_views_it_touched(db: str, campaigns: Campaigns) -> None:
    await started(campaigns, BEN)
    private = ChatRef(BEN.tg_id, "private")
    first = await campaigns.open_panel(GROUP, HOST, "count")
    await campaigns.bind_message(first.id, 10)
    mine = await campaigns.open_panel(private, BEN, "count", campaign_id=first.campaign.id)
    await campaigns.bind_message(mine.id, 20)
    assert mine.retired == () and mine.redraw == ()  # another chat: both stay live

    # A newer panel of the same procedure in the same chat retires the older one.
    second = await campaigns.open_panel(GROUP, HOST, "count")
    assert [(r.panel.id, r.why) for r in second.retired] == [(first.id, Retirement.NEWER)]
    assert (await campaigns.panel(first.id)).closed
    await campaigns.bind_message(second.id, 11)

    # A press that changes the table redraws every other open view from it...
    pressed = await campaigns.act(second.id, second.version, HOST, "inc")
    assert [v.id for v in pressed.redraw] == [mine.id] and pressed.retired == ()
    assert pressed.redraw[0].table.state["total"] == 1
    # ...one that changes only its own panel touches nothing else.
    noted = await campaigns.act(second.id, pressed.version, HOST, "text", "hi")
    assert noted.redraw == () and noted.retired == ()

    # Ending the game retires every open view.
    question = await campaigns.ask_end(GROUP, HOST)
    ended = await campaigns.end(GROUP, HOST, question.id, question.version)
    assert {(r.panel.id, r.why) for r in ended.retired} == {
        (second.id, Retirement.ENDED),
        (mine.id, Retirement.ENDED),
    }
