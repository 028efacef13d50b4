"""The press path's hand-written SQL: one read, a versioned save, the update claim."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.errors import NotAllowedNow
from core.rules.rng import SeededRng
from core.runtime.errors import AlreadyHandled
from core.runtime.locks import InProcessKeyedLock, Lease
from core.store.loader import load_panel
from core.store.models import CampaignStatus, Member, Panel, ProcessedUpdate
from core.store.presses import panel_head, save_panel
from core.store.sql import execute, native
from core.store.unit import UnitOfWork
from tests.support.counter_system import counter_registry

GROUP = ChatRef(-100777, "supergroup", "Table <ünïcode> ✓")
HOST = PlayerRef(1, "Hana", "Ö'Brien")
BEN = PlayerRef(2, "Ben")
CY = PlayerRef(3, "Cy")


def test_placeholders_follow_the_database() -> None:
    query = "UPDATE t SET a = ? WHERE id = ? AND v = ?"
    assert native("sqlite", query) == query
    assert native("postgres", query) == "UPDATE t SET a = $1 WHERE id = $2 AND v = $3"
    assert native("postgres", "SELECT 1") == "SELECT 1"


async def game(campaigns: Campaigns) -> int:
    """A counter game with Hana (host), Ben and Cy, where Cy has left; Hana's panel."""
    await campaigns.new_game(GROUP, HOST, "counter")
    play = Play(SeededRng(1), campaigns.locks, lambda: 0.0)
    for player in (BEN, CY):
        await play.mark_started(player)
        await campaigns.join(GROUP, player)
    await campaigns.leave(GROUP, CY)
    panel = await campaigns.open_panel(GROUP, HOST, "count", "5")
    await campaigns.bind_message(panel.id, 42)
    return panel.id


@pytest.mark.db
async def test_one_statement_reads_the_panel_campaign_and_active_members(db: str) -> None:
    campaigns = Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock())
    panel_id = await game(campaigns)
    loaded = await load_panel(panel_id)
    assert loaded is not None
    panel, campaign, members = loaded
    row = await Panel.get(id=panel_id)
    assert (panel.id, panel.campaign_id, panel.kind) == (panel_id, row.campaign_id, "count")
    assert (panel.state, panel.version, panel.closed) == (row.state, row.version, False)
    assert (panel.chat_tg_id, panel.message_id) == (GROUP.tg_id, 42)
    assert campaign.id == row.campaign_id and campaign.system == "counter"
    assert campaign.status is CampaignStatus.ACTIVE
    assert campaign.state == {"total": 0, "seats": 3}
    assert (campaign.chat_tg_id, campaign.chat_title) == (GROUP.tg_id, GROUP.title)
    assert campaign.host_tg_id == HOST.tg_id
    # Cy left: only active members, in the order they joined, with their players
    assert [(m.player_tg_id, m.first_name, m.last_name) for m in members] == [
        (1, "Hana", "Ö'Brien"),
        (2, "Ben", ""),
    ]
    assert members[0].roles == ["host", "player"] and members[1].roles == ["player"]
    assert members[1].sheet == {"presses": 0}
    ben = await Member.get(campaign_id=campaign.id, player__tg_id=2)
    assert members[1].id == ben.id
    assert await load_panel(panel_id + 1000) is None
    head = await panel_head(panel_id)
    assert head is not None and (head.campaign_id, head.version, head.closed) == (
        campaign.id,
        row.version,
        False,
    )
    assert await panel_head(panel_id + 1000) is None


@pytest.mark.db
async def test_a_panel_is_saved_only_at_the_version_it_was_read(db: str) -> None:
    campaigns = Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock())
    panel_id = await game(campaigns)
    version = (await Panel.get(id=panel_id)).version
    state = {"owner": 1, "value": 1, "limit": 5, "note": "ça ✓ <b>"}
    assert await save_panel(panel_id, version, state, closed=False)
    assert not await save_panel(panel_id, version, {"stale": True}, closed=False)
    saved = await Panel.get(id=panel_id)
    assert (saved.state, saved.version, saved.closed) == (state, version + 1, False)
    assert await save_panel(panel_id, version + 1, state, closed=True)
    assert not await save_panel(panel_id, version + 2, state, closed=False)  # closed for good
    assert (await Panel.get(id=panel_id)).closed


@pytest.mark.db
async def test_two_copies_of_an_update_racing_commit_once(db: str) -> None:
    campaigns = Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock())
    panel_id = await game(campaigns)
    version = (await Panel.get(id=panel_id)).version
    gate = asyncio.Event()

    async def copy(value: int) -> str:
        try:
            async with UnitOfWork(9001).atomic():
                await gate.wait()
                ok = await save_panel(panel_id, version, {"copy": value}, closed=False)
                return "saved" if ok else "stale"
        except AlreadyHandled:
            return "already handled"

    tasks = [asyncio.create_task(copy(n)) for n in (1, 2)]
    await asyncio.sleep(0.05)
    gate.set()
    results = sorted(await asyncio.gather(*tasks))
    assert results == ["already handled", "saved"]
    assert await ProcessedUpdate.filter(update_id=9001).count() == 1
    assert (await Panel.get(id=panel_id)).version == version + 1


@pytest.mark.db
async def test_a_press_that_fails_after_its_claim_leaves_no_claim(db: str) -> None:
    campaigns = Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock())
    panel_id = await game(campaigns)
    version = (await Panel.get(id=panel_id)).version
    with pytest.raises(RuntimeError):
        async with UnitOfWork(9100).atomic():
            await save_panel(panel_id, version, {"half": True}, closed=False)
            raise RuntimeError("crash before commit")
    assert not await ProcessedUpdate.exists(update_id=9100)
    assert (await Panel.get(id=panel_id)).version == version
    # the retry applies it
    view = await campaigns.act(panel_id, version, HOST, "inc", unit=UnitOfWork(9100))
    assert view.state["value"] == 1 and view.version == version + 1
    assert view.campaign.state["total"] == 1
    assert [m.name for m in view.campaign.members] == ["Hana Ö'Brien", "Ben"]
    assert await ProcessedUpdate.exists(update_id=9100)


class RecordingLock(InProcessKeyedLock):
    """In-process locks that remember which keys were taken."""

    def __init__(self) -> None:
        super().__init__()
        self.taken: list[str] = []

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[Lease]:
        self.taken.append(key)
        async with super().hold(key) as lease:
            yield lease


@pytest.mark.db
async def test_a_press_locks_the_campaign_its_panel_belongs_to_even_if_an_id_is_reused(
    db: str,
) -> None:
    locks = RecordingLock()
    campaigns = Campaigns(counter_registry(), SeededRng(3), locks)
    panel_id = await game(campaigns)
    first = await campaigns.act(panel_id, 0, HOST, "inc")  # learns the panel's campaign
    # remembered: no look-up first
    second = await campaigns.act(panel_id, 1, HOST, "inc", unit=UnitOfWork(9200))
    assert second.version == 2 and second.campaign.state["total"] == 2
    with pytest.raises(AlreadyHandled):  # a redelivered copy, remembered panel or not
        await campaigns.act(panel_id, 2, HOST, "inc", unit=UnitOfWork(9200))
    with pytest.raises(NotAllowedNow):  # an old button of a remembered panel
        await campaigns.act(panel_id, 1, HOST, "inc", unit=UnitOfWork(9201))
    assert not await ProcessedUpdate.exists(update_id=9201)  # refused: nothing claimed

    # The panel goes and its id comes back for a panel of another chat's game.
    other_chat = ChatRef(-100888, "supergroup", "Other table")
    await campaigns.new_game(other_chat, BEN, "counter")
    elsewhere = await campaigns.open_panel(other_chat, BEN, "count", "4")
    await Panel.filter(id=panel_id).delete()
    assert await execute("UPDATE panel SET id = ? WHERE id = ?", (panel_id, elsewhere.id)) == 1
    locks.taken.clear()
    moved = await campaigns.act(panel_id, elsewhere.version, BEN, "inc")
    assert moved.campaign.id == elsewhere.campaign.id != first.campaign.id
    assert moved.campaign.chat_tg_id == other_chat.tg_id and moved.state["value"] == 1
    assert locks.taken == [
        f"campaign:{first.campaign.id}",  # the remembered campaign: wrong, nothing changed
        f"campaign:{elsewhere.campaign.id}",  # looked up again, and applied under its lock
    ]
    assert (await Panel.get(id=panel_id)).version == elsewhere.version + 1
