"""One loader for every surface: a press, a command's use case, the Mini App's pages and
its list of open procedures read a campaign the same way, through one statement family,
and read it alike; no second read of a campaign's members, chat, host or topic for its
views comes back (a source guard)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.campaigns import Campaigns
from core.campaigns.base import built
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.loader import (
    load_campaign,
    load_panel,
    membership,
    open_panel_rows,
    playing_here,
    read_by_token,
)
from core.store.models import Campaign, CampaignStatus, ForumTopic, Member
from core.views.viewer_pages import snapshot_for_viewer
from tests.support.counter_system import counter_registry

ROOT = Path(__file__).resolve().parents[3]
LOADER = ROOT / "core" / "store" / "loader.py"
FORUM = ChatRef(-100555, "supergroup", "Friday Games", topic=7)
HOST = PlayerRef(1, "Hana", "Ito")
BEN = PlayerRef(2, "Ben")
CY = PlayerRef(3, "Cy")


@pytest.fixture
def campaigns() -> Campaigns:
    return Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2))


async def game(campaigns: Campaigns) -> tuple[int, str, int]:
    """A counter game in a forum topic: Hana (host) and Ben play, Cy joined and left;
    one of Hana's panels is open. Its id, token and the panel's id."""
    await ForumTopic.create(chat_tg_id=FORUM.tg_id, thread_id=7, name="The Moors")
    view = await campaigns.new_game(FORUM, HOST, "counter")
    play = Play(SeededRng(1), campaigns.locks, lambda: 0.0)
    for player in (BEN, CY):
        await play.mark_started(player)
        await campaigns.join(FORUM, player)
    await campaigns.leave(FORUM, CY)
    panel = await campaigns.open_panel(FORUM, HOST, "count", "3")
    await campaigns.act(panel.id, panel.version, HOST, "inc", "")
    return view.id, view.app_token, panel.id


@pytest.mark.db
async def test_every_statement_of_the_family_reads_the_campaign_alike(
    db: str, campaigns: Campaigns
) -> None:
    campaign_id, token, panel_id = await game(campaigns)
    await Member.filter(player__tg_id=BEN.tg_id).update(sheet={"notes": "a <b> & ü"})
    by_panel = await load_panel(panel_id)
    by_id = await load_campaign(campaign_id)
    reading = await read_by_token(token)
    assert by_panel is not None and by_id is not None and reading is not None
    assert by_panel[1:] == by_id == reading.read()
    stored, members = by_id
    assert stored.chat_title == "Friday Games › The Moors" and stored.topic_id == 7
    assert [m.player_tg_id for m in members] == [HOST.tg_id, BEN.tg_id]  # Cy left
    assert members[1].sheet == {"notes": "a <b> & ü"}
    assert reading.member_ids() == {HOST.tg_id, BEN.tg_id}
    assert await membership(token, BEN.tg_id) is True
    assert await membership(token, CY.tg_id) is False
    assert await membership("no-such-token", BEN.tg_id) is None
    assert await read_by_token("no-such-token") is None
    assert await load_campaign(campaign_id + 1000) is None


@pytest.mark.db
async def test_every_surface_builds_the_same_view(db: str, campaigns: Campaigns) -> None:
    campaign_id, token, panel_id = await game(campaigns)
    pressed = await campaigns.panel(panel_id)  # a redraw: the panel's loader
    held, table, member_ids = await built(campaigns.registry, await Campaign.get(id=campaign_id))
    command = await campaigns.require_current(FORUM.tg_id, 7)  # a command's use case
    viewer, viewer_table = await campaigns.table_for_viewer(token, BEN)
    page = await snapshot_for_viewer(campaigns.registry, token, HOST.tg_id)  # a page
    assert pressed.campaign == held == command == viewer == page.view
    assert pressed.table == table == viewer_table == page.table
    assert page.view.language == held.language and page.view.topic_id == 7
    assert set(member_ids) == {HOST.tg_id, BEN.tg_id}


@pytest.mark.db
async def test_a_use_case_sees_its_campaign_as_it_holds_it(db: str, campaigns: Campaigns) -> None:
    """A command's use case may change its campaign in memory before it builds the view:
    the campaign's own fields come from what it holds, the rest as stored."""
    campaign_id, _, _ = await game(campaigns)
    campaign = await Campaign.get(id=campaign_id)
    campaign.status, campaign.state = CampaignStatus.PAUSED, {"held": True}
    campaign.version += 5
    view, table, _ = await built(campaigns.registry, campaign)
    assert view.status is CampaignStatus.PAUSED and view.version == campaign.version
    assert view.state == {"held": True} == table.state
    assert view.chat_title == "Friday Games › The Moors"  # as stored
    assert [m.name for m in view.members] == ["Hana Ito", "Ben"]


@pytest.mark.db
async def test_open_panels_are_read_as_a_loaded_panel_is(db: str, campaigns: Campaigns) -> None:
    campaign_id, _, panel_id = await game(campaigns)
    second = await campaigns.open_panel(FORUM, BEN, "count", "5")
    rows = await open_panel_rows(campaign_id, "count")
    loaded = await load_panel(panel_id)
    assert loaded is not None
    assert [r.id for r in rows] == [panel_id, second.id]  # oldest first
    assert rows[0] == loaded[0]
    assert await open_panel_rows(campaign_id, "no-such-kind") == ()


@pytest.mark.db
async def test_the_game_a_player_is_in_here_is_read_in_one_statement(
    db: str, campaigns: Campaigns
) -> None:
    campaign_id, _, _ = await game(campaigns)
    assert await playing_here(FORUM.tg_id, FORUM.topic, BEN.tg_id) == campaign_id
    assert await playing_here(FORUM.tg_id, FORUM.topic, CY.tg_id) is None  # left it
    assert await playing_here(FORUM.tg_id, 0, BEN.tg_id) is None  # the forum's General
    assert await playing_here(FORUM.tg_id, FORUM.topic, 99) is None  # never joined
    await campaigns.set_status(FORUM, HOST, CampaignStatus.PAUSED)
    assert await playing_here(FORUM.tg_id, FORUM.topic, BEN.tg_id) is None  # not running


# --- the source guard: no second loader -------------------------------------------------

# hand-written SQL that reads a campaign's members, its forum topic, or its chat or host
SQL_READS = re.compile(
    r"\b(FROM|JOIN)\s+(member|forum_topic)\b|\bc\.(chat_id|host_id)\b", re.IGNORECASE
)
# the ORM reading members with their players, or a campaign with its chat
ORM_READS = re.compile(r"(select|fetch|prefetch)_related\([^)]*\"(player|chat|members)")
# rows made into a view anywhere but the one function (core.campaigns.views.view_of_rows)
BUILDS = re.compile(r"\b(build_view|SeatRow)\(")
ALLOWED = {
    # the whole campaign exported as a file (left members too): a backup, not a view
    ("core/views/archive.py", ORM_READS.pattern),
    # each roll record's own chat (where a roll was made), not a campaign's
    ("core/campaigns/play.py", ORM_READS.pattern),
    # build_view and SeatRow live there; view_of_rows, the one caller, too
    ("core/campaigns/views.py", BUILDS.pattern),
}


def modules() -> list[Path]:
    return sorted(
        p
        for top in ("core", "tgbot", "webapp")
        for p in (ROOT / top).rglob("*.py")
        if "sandbox" not in p.parts and p != LOADER
    )


def offences(path: Path, text: str) -> list[str]:
    where = str(path.relative_to(ROOT))
    return [
        f"{where}:{n}: {line.strip()}"
        for pattern in (SQL_READS, ORM_READS, BUILDS)
        if (where, pattern.pattern) not in ALLOWED
        for n, line in enumerate(text.splitlines(), 1)
        if pattern.search(line) and not line.lstrip().startswith("#")
    ]


def test_only_the_loader_reads_a_campaign_for_its_views() -> None:
    found = [line for path in modules() for line in offences(path, path.read_text())]
    assert not found, "\n".join(found)


def test_the_guard_sees_what_it_guards_against() -> None:
    sql_pages = ROOT / "core" / "store" / "sql_pages.py"
    assert offences(sql_pages, '" FROM member m JOIN campaign c ON c.id = m.campaign_id"')
    assert offences(sql_pages, '" LEFT JOIN forum_topic ft ON ft.thread_id = c.topic_id"')
    assert offences(sql_pages, '" FROM campaign c JOIN chat ch ON ch.id = c.chat_id"')
    base = ROOT / "core" / "campaigns" / "base.py"
    assert offences(base, 'await Member.filter(active=True).select_related("player")')
    assert offences(base, 'await campaign.fetch_related("chat", "host")')
    assert offences(base, "view, table = build_view(registry, row, seats)")
    assert offences(base, "SeatRow(0, p, name, roles, sheet)")
    assert not offences(base, 'await Campaign.get(id=campaign_id).select_related("host")')
    assert not offences(ROOT / "core" / "campaigns" / "views.py", "build_view(registry, c, s)")
    assert LOADER.exists() and SQL_READS.search(LOADER.read_text())
