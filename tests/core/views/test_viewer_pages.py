"""Snapshots for the Mini App: the same campaign as the ORM reads, members only, and a
fingerprint that moves with every change, whoever makes it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.errors import NotAllowedNow
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.loader import Reading
from core.store.models import CampaignStatus, CardPicture, Chat, Member, Player
from core.views.viewer_pages import Snapshot, snapshot_for_viewer
from tests.support.counter_system import counter_registry

GROUP = ChatRef(-100123, "supergroup", "The Table")
HOST = PlayerRef(1, "Hana", "Ito")
BEN = PlayerRef(2, "Ben")
CY = PlayerRef(3, "Cy")


@pytest.fixture
def campaigns() -> Campaigns:
    return Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2))


async def started(campaigns: Campaigns) -> str:
    view = await campaigns.new_game(GROUP, HOST, "counter")
    play = Play(SeededRng(1), campaigns.locks, lambda: 0.0)
    await play.mark_started(BEN)
    await campaigns.join(GROUP, BEN)
    return view.app_token


async def snap(campaigns: Campaigns, token: str, player: PlayerRef = HOST) -> Snapshot:
    return await snapshot_for_viewer(campaigns.registry, token, player.tg_id, pictures=True)


@pytest.mark.db
async def test_a_snapshot_reads_what_the_use_case_reads(db: str, campaigns: Campaigns) -> None:
    token = await started(campaigns)
    await Member.filter(player__tg_id=BEN.tg_id).update(sheet={"notes": "a <b> & ü"})
    view, table = await campaigns.table_for_viewer(token, BEN)
    snapshot = await snap(campaigns, token, BEN)
    assert snapshot.view == view
    assert snapshot.table == table
    assert [m.name for m in snapshot.view.members] == ["Hana Ito", "Ben"]
    assert snapshot.picture_keys == frozenset()


@pytest.mark.db
async def test_only_active_members_get_a_snapshot(db: str, campaigns: Campaigns) -> None:
    token = await started(campaigns)
    with pytest.raises(NotAllowedNow, match="not in this game"):
        await snap(campaigns, token, CY)
    with pytest.raises(NotAllowedNow, match="doesn't exist"):
        await snap(campaigns, "no-such-token", HOST)
    await snap(campaigns, token, BEN)
    await campaigns.leave(GROUP, BEN)
    with pytest.raises(NotAllowedNow, match="not in this game"):
        await snap(campaigns, token, BEN)


@pytest.mark.db
async def test_the_fingerprint_moves_with_every_change_and_only_then(
    db: str, campaigns: Campaigns
) -> None:
    token = await started(campaigns)
    seen = {(await snap(campaigns, token)).fingerprint}
    assert (await snap(campaigns, token)).fingerprint in seen  # nothing changed

    async def changed() -> None:
        fingerprint = (await snap(campaigns, token)).fingerprint
        assert fingerprint not in seen
        seen.add(fingerprint)

    panel = await campaigns.open_panel(GROUP, HOST, "count", "3")
    await campaigns.act(panel.id, panel.version, HOST, "inc", "")
    await changed()  # the campaign's state
    await Member.filter(player__tg_id=BEN.tg_id).update(sheet={"notes": "new"})
    await changed()  # a sheet, written by another worker
    await Player.filter(tg_id=BEN.tg_id).update(first_name="Benji")
    await changed()  # a name
    await Chat.filter(tg_id=GROUP.tg_id).update(title="Renamed")
    await changed()  # the chat's title
    await Member.filter(player__tg_id=BEN.tg_id).update(roles=["player", "gm"])
    await changed()  # roles
    view = await campaigns.current(GROUP.tg_id)
    assert view is not None
    await CardPicture.create(
        campaign_id=view.id, key="k" * 32, author_tg_id=1, media_type="image/png", data=b"x"
    )
    await changed()  # a picture
    await campaigns.set_status(GROUP, HOST, CampaignStatus.PAUSED)
    await changed()  # the status
    await campaigns.leave(GROUP, BEN)
    await changed()  # who plays


def _row(**cells: object) -> dict[str, object]:
    base: dict[str, object] = {"c_id": 1, "c_system": "counter", "c_state": "{}"}
    return {**base, "pl_first": "Ben", "pl_last": "", "m_sheet": "{}", **cells}


def test_different_readings_never_share_a_fingerprint() -> None:
    registry = counter_registry()
    readings = [
        Reading.of([_row()]),
        Reading.of([_row(pl_first="Be", pl_last="n")]),  # same text, cut elsewhere
        Reading.of([_row()], ()),  # pictures read, none there
        Reading.of([_row()], ("k",)),
        Reading.of([_row(pl_first=None, pl_last=None, m_sheet=None)]),  # no member
        Reading.of([_row(c_state='{"a":1}')]),
        Reading.of([_row(), _row()]),  # two members read
        Reading.of([_row(pl_first="")]),  # empty, not absent
        Reading.of([_row(pl_first=None)]),
    ]
    prints = {Snapshot(registry, 1, reading).fingerprint for reading in readings}
    assert len(prints) == len(readings)
    first = Snapshot(registry, 1, readings[0]).fingerprint
    assert Snapshot(registry, 1, Reading.of([_row()])).fingerprint == first


_cells = st.one_of(st.none(), st.integers(-3, 3), st.text("ab{}:-0", max_size=4))
_rows = st.lists(
    st.fixed_dictionaries({"c_id": _cells, "pl_first": _cells, "m_sheet": _cells}), max_size=3
)
_pictures = st.one_of(st.none(), st.lists(st.text("k", max_size=2), max_size=2).map(tuple))


@settings(max_examples=200, deadline=None)
@given(first=st.tuples(_rows, _pictures), second=st.tuples(_rows, _pictures))
def test_a_fingerprint_is_the_same_exactly_when_the_reading_is(
    first: tuple[list[dict[str, object]], tuple[str, ...] | None],
    second: tuple[list[dict[str, object]], tuple[str, ...] | None],
) -> None:
    a, b = Reading.of(*first), Reading.of(*second)
    same = [[str(v) if v is not None else None for v in r.values()] for r in first[0]] == [
        [str(v) if v is not None else None for v in r.values()] for r in second[0]
    ] and first[1] == second[1]
    assert (a.fingerprint == b.fingerprint) == same
