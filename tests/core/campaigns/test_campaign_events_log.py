"""Campaigns publish a change notice after each committed change and keep the system's log."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, PlayerRef
from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.log import LogKind, LogLine
from core.rules.registry import Registry
from core.rules.rng import SeededRng
from core.rules.table import Outcome, Table
from core.runtime.events import InProcessEvents
from core.runtime.locks import InProcessKeyedLock
from core.store.models import LogEntry
from tests.support.counter_system import COUNTER

pytestmark = pytest.mark.db

GROUP = ChatRef(-100777, "supergroup", "The Table")
HOST = PlayerRef(1, "Hana")


def _log(table: Table, outcome: Outcome) -> tuple[LogLine, ...]:
    return tuple(LogLine(LogKind.ROLL, f"pressed {e}", (1,)) for e in outcome.events)


@pytest.fixture
def campaigns() -> Campaigns:
    registry = Registry({"counter": replace(COUNTER, log_lines=_log)})
    return Campaigns(registry, SeededRng(3), InProcessKeyedLock(5, 2), InProcessEvents())


async def test_open_act_and_edit_publish_after_commit_and_log_in_order(
    db: str, campaigns: Campaigns
) -> None:
    view = await campaigns.new_game(GROUP, HOST, "counter")
    async with campaigns.events.subscribe(view.id) as notices:
        panel = await campaigns.open_panel(GROUP, HOST, "count", "5")
        assert await notices.wait(0.5)
        await campaigns.act(panel.id, panel.version, HOST, "inc")
        assert await notices.wait(0.5)
        assert await LogEntry.filter(campaign_id=view.id).count() == 1  # committed before
        panel = await campaigns.panel(panel.id)
        with pytest.raises(NotYourTurn):
            await campaigns.act(panel.id, panel.version, PlayerRef(2, "Ben"), "inc")
        with pytest.raises(NotAllowedNow):
            await campaigns.edit(view.app_token, HOST, "rename", {})
        assert not await notices.wait(0.05)  # refused: nothing changed, no notice
        await campaigns.act(panel.id, panel.version, HOST, "done")
        assert await notices.wait(0.5)
    _, entries = await campaigns.log_for_viewer(view.app_token, HOST)
    assert [(e.kind, e.text, e.player_ids) for e in entries] == [
        ("roll", "pressed inc", [1]),
        ("roll", "pressed done", [1]),
    ]
