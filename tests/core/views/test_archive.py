"""Campaign export and import: a round trip keeps everything; bad files change nothing."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.log import words
from core.rules.rng import SeededRng
from core.runtime.locks import InProcessKeyedLock
from core.store.models import Campaign, CampaignStatus, LogEntry, Member
from core.views.archive import export_campaign, import_campaign
from tests.support.counter_system import counter_registry

pytestmark = pytest.mark.db

GROUP = ChatRef(-100123, "supergroup", "The Table")
NEW_GROUP = ChatRef(-100999, "supergroup", "New Home")
HOST, BEN = PlayerRef(1, "Hana"), PlayerRef(2, "Ben <b>")


@pytest.fixture
def campaigns() -> Campaigns:
    return Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2))


async def played(campaigns: Campaigns) -> int:
    await campaigns.new_game(GROUP, HOST, "counter")
    await Play(SeededRng(1), campaigns.locks, time.time).mark_started(BEN)
    await campaigns.join(GROUP, BEN)
    panel = await campaigns.open_panel(GROUP, BEN, "count", "5")
    for version in range(panel.version, panel.version + 2):
        await campaigns.act(panel.id, version, BEN, "inc")
    view = await campaigns.require_current(GROUP.tg_id)
    await LogEntry.create(campaign_id=view.id, kind="roll", text="Ben counted", player_ids=[2])
    return view.id


async def test_a_round_trip_keeps_state_sheets_members_and_log(
    db: str, campaigns: Campaigns
) -> None:
    data = await export_campaign(await played(campaigns), time.time())
    json.dumps(data)  # plain JSON
    await campaigns.set_status(GROUP, HOST, CampaignStatus.ARCHIVED)
    view = await import_campaign(campaigns, data, NEW_GROUP, BEN)
    assert view.state["total"] == 2
    assert view.host_id == BEN.tg_id
    assert {m.player_id for m in view.members} == {HOST.tg_id, BEN.tg_id}
    ben = await Member.get(campaign_id=view.id, player__tg_id=BEN.tg_id)
    assert ben.sheet == {"presses": 2}
    assert [e.text for e in await LogEntry.filter(campaign_id=view.id)] == ["Ben counted"]
    assert view.app_token != data.get("app_token")


@pytest.mark.parametrize(
    "damage",
    ["format", "version", "system", "state", "members", "duplicate", "roles", "sheet", "log"],
)
async def test_a_damaged_file_is_refused_and_nothing_is_written(
    db: str, campaigns: Campaigns, damage: str
) -> None:
    data = copy.deepcopy(await export_campaign(await played(campaigns), time.time()))
    if damage == "format":
        data["format"] = "chess"
    elif damage == "version":
        data["version"] = 99
    elif damage == "system":
        data["system"] = "chess"
    elif damage == "state":
        data["state"] = []
    elif damage == "members":
        data["members"] = []
    elif damage == "duplicate":
        data["members"].append(data["members"][0])
    elif damage == "roles":
        data["members"][0]["roles"] = ["king"]
    elif damage == "sheet":
        data["members"][0]["sheet"] = "x"
    else:
        data["log"] = [{"kind": "x"}]
    before = await Campaign.all().count()
    with pytest.raises(Malformed):
        await import_campaign(campaigns, data, NEW_GROUP, BEN)
    assert await Campaign.all().count() == before


async def test_importing_over_a_running_game_is_refused(db: str, campaigns: Campaigns) -> None:
    data = await export_campaign(await played(campaigns), time.time())
    with pytest.raises(NotAllowedNow):
        await import_campaign(campaigns, data, GROUP, HOST)


async def test_the_command_line_exports_and_imports(db: str, tmp_path: Path) -> None:
    from core.rules.registry import default_registry

    real = Campaigns(default_registry(), SeededRng(1), InProcessKeyedLock())
    await real.new_game(GROUP, HOST, "d20")
    env = {**os.environ, "DATABASE_URL": db, "BOT_TOKEN": ""}
    archive = tmp_path / "game.json"
    run = [sys.executable, "-m", "tgbot"]
    done = subprocess.run(
        [*run, "export", str(archive), "--chat", str(GROUP.tg_id)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(archive.read_text())["system"] == "d20"
    done = subprocess.run(
        [
            *run,
            "import",
            str(archive),
            "--chat",
            str(NEW_GROUP.tg_id),
            "--host",
            "2",
            "--host-name",
            "Ben",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Imported" in done.stdout
    assert await Campaign.filter(live_chat_id=NEW_GROUP.tg_id).exists()
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "nope"}')
    done = subprocess.run(
        [*run, "import", str(broken), "--chat", "-5", "--host", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "isn't a Stonetable campaign export" in done.stderr


async def test_a_log_line_keeps_its_words_through_a_round_trip(
    db: str, campaigns: Campaigns
) -> None:
    campaign_id = await played(campaigns)
    said = words("{place} was revealed.", place="The Mill")
    await LogEntry.create(
        campaign_id=campaign_id, kind="map", text=said.said(), words=said.to_json()
    )
    data = await export_campaign(campaign_id, time.time())
    assert "words" not in data["log"][0] and data["log"][1]["words"] == said.to_json()
    await campaigns.set_status(GROUP, HOST, CampaignStatus.ARCHIVED)
    view = await import_campaign(campaigns, data, NEW_GROUP, BEN)
    rows = await LogEntry.filter(campaign_id=view.id).order_by("id")
    assert [r.words for r in rows] == [None, said.to_json()]


async def test_a_round_trip_keeps_the_turn_order_wait_and_mutes(
    db: str, campaigns: Campaigns
) -> None:
    from datetime import timedelta

    from core.store import reminders

    campaign_id = await played(campaigns)
    await campaigns.turns.set_turns(GROUP, HOST, "", players=[BEN.tg_id, HOST.tg_id])
    await campaigns.turns.next_turn(GROUP, BEN)
    await reminders.set_wait(campaign_id, timedelta(hours=6))
    await reminders.set_muted(campaign_id, BEN.tg_id, True)
    data = await export_campaign(campaign_id, time.time())
    assert data["nudges"] == {
        "wait_minutes": 360,
        "muted": [BEN.tg_id],
        "order": {"v": 1, "players": [BEN.tg_id, HOST.tg_id], "holder": HOST.tg_id},
    }
    await campaigns.set_status(GROUP, HOST, CampaignStatus.ARCHIVED)
    view = await import_campaign(campaigns, json.loads(json.dumps(data)), NEW_GROUP, BEN)
    settings = await reminders.settings_of(view.id)
    assert settings.wait == timedelta(hours=6)
    assert settings.muted == {BEN.tg_id}
    assert settings.order is not None
    assert (settings.order.players, settings.order.holder) == ((BEN.tg_id, HOST.tg_id), HOST.tg_id)


async def test_an_export_from_before_turn_orders_imports_as_before(
    db: str, campaigns: Campaigns
) -> None:
    from core.store import reminders
    from core.store.models import GameNudges

    data = await export_campaign(await played(campaigns), time.time())
    del data["nudges"]
    await campaigns.set_status(GROUP, HOST, CampaignStatus.ARCHIVED)
    view = await import_campaign(campaigns, data, NEW_GROUP, BEN)
    assert await GameNudges.filter(campaign_id=view.id).count() == 0
    assert await reminders.settings_of(view.id) == reminders.GameSettings()


@pytest.mark.parametrize(
    "nudges",
    [
        "soon",
        {"wait_minutes": "6h"},
        {"wait_minutes": 0},
        {"muted": [999]},
        {"order": {"players": [1, 999], "holder": 1}},
        {"order": {"players": [1], "holder": 1}},
        {"order": {"players": [1, 2], "holder": 3}},
        {"order": [1, 2]},
    ],
)
async def test_a_damaged_turn_order_or_wait_imports_nothing(
    db: str, campaigns: Campaigns, nudges: object
) -> None:
    data = await export_campaign(await played(campaigns), time.time())
    data["nudges"] = nudges
    await campaigns.set_status(GROUP, HOST, CampaignStatus.ARCHIVED)
    before = await Campaign.all().count()
    with pytest.raises(Malformed):
        await import_campaign(campaigns, data, NEW_GROUP, BEN)
    assert await Campaign.all().count() == before
