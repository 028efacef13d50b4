"""Taking a step back through the use cases: exact restore, once, only for its author."""

from __future__ import annotations

import random

import pytest

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, Play, PlayerRef
from core.campaigns.undo import Undos
from core.rules.choice import Choice, Common
from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.registry import default_registry
from core.rules.rng import ScriptedRng, SeededRng
from core.runtime.errors import AlreadyHandled
from core.runtime.locks import InProcessKeyedLock
from core.store.models import Campaign, LogEntry, Member, Panel, UndoStep
from core.store.undo_steps import KEPT, PRUNE_EVERY
from core.store.unit import UnitOfWork
from tests.support.counter_system import counter_registry

pytestmark = pytest.mark.db

GROUP = ChatRef(-100123, "supergroup", "The Table")
HOST, BEN, CY = PlayerRef(1, "Hana"), PlayerRef(2, "Ben"), PlayerRef(3, "Cy")
BENS_UNDO = Choice(Common.UNDO, by=frozenset({BEN.tg_id}))  # the rules offer Ben his step


async def seated(campaigns: Campaigns, system: str, *players: PlayerRef) -> None:
    await campaigns.new_game(GROUP, HOST, system)
    play = Play(SeededRng(1), campaigns.locks, lambda: 0.0)
    for player in players:
        await play.mark_started(player)
        await campaigns.join(GROUP, player)


async def snapshot() -> tuple[object, ...]:
    """Everything a step may change: the campaign, the sheets, the panels."""
    campaign = await Campaign.get(chat__tg_id=GROUP.tg_id)
    sheets = await Member.filter(campaign_id=campaign.id).order_by("id").values_list("sheet")
    panels = (
        await Panel.filter(campaign_id=campaign.id).order_by("id").values_list("state", "closed")
    )
    return campaign.state, tuple(map(str, sheets)), tuple(map(str, panels))


@pytest.fixture
def counter() -> tuple[Campaigns, Undos]:
    campaigns = Campaigns(counter_registry(), SeededRng(3), InProcessKeyedLock(5, 2))
    return campaigns, Undos(campaigns)


async def test_a_press_is_taken_back_exactly_and_the_panel_reads_as_before(
    db: str, counter: tuple[Campaigns, Undos]
) -> None:
    campaigns, undos = counter
    await seated(campaigns, "counter", BEN)
    panel = await campaigns.open_panel(GROUP, BEN, "count", "5")
    first = await campaigns.act(panel.id, panel.version, BEN, "inc")
    before = await snapshot()
    second = await campaigns.act(panel.id, first.version, BEN, "inc")
    assert second.undo == BENS_UNDO  # the button is offered to Ben
    assert await snapshot() != before

    back = await undos.undo_panel(panel.id, second.version, BEN, unit=UnitOfWork(501))
    assert await snapshot() == before
    shown = back.redraw[0]
    assert shown.id == panel.id and shown.state == first.state
    assert shown.version == second.version + 1  # older buttons go stale
    assert shown.undo == BENS_UNDO  # and his step before can go next
    assert back.label == "a step on the count panel"
    lines = await LogEntry.filter(kind="undo").values_list("text", flat=True)
    assert lines == ["↩ Ben took back: a step on the count panel"]

    with pytest.raises(AlreadyHandled):  # a redelivered update changes nothing
        await undos.undo_panel(panel.id, second.version, BEN, unit=UnitOfWork(501))
    with pytest.raises(NotAllowedNow):  # the same button pressed again is stale
        await undos.undo_panel(panel.id, second.version, BEN, unit=UnitOfWork(502))
    with pytest.raises(NotAllowedNow):  # a panel button of before the undo is stale
        await campaigns.act(panel.id, second.version, BEN, "inc")

    await undos.undo_in_chat(GROUP.tg_id, BEN)  # /undo: the first press too
    state, _, panels = await snapshot()
    assert state["total"] == 0 and "'value': 0" in panels[0]
    with pytest.raises(NotAllowedNow, match="rolled dice stand"):  # the panel opened with a d6
        await undos.undo_in_chat(GROUP.tg_id, BEN)
    with pytest.raises(NotAllowedNow, match="nothing to take back"):
        await undos.undo_in_chat(GROUP.tg_id, CY)
    assert await LogEntry.filter(kind="undo").count() == 2


async def test_someone_acting_on_top_or_rolled_dice_make_a_step_stand(
    db: str, counter: tuple[Campaigns, Undos]
) -> None:
    campaigns, undos = counter
    await seated(campaigns, "counter", BEN, CY)
    view = await campaigns.require_current(GROUP.tg_id)
    panel = await campaigns.open_panel(GROUP, BEN, "count")
    step = await campaigns.act(panel.id, panel.version, BEN, "inc")
    with pytest.raises(NotYourTurn, match="someone else"):  # Cy presses Ben's button
        await undos.undo_panel(panel.id, step.version, CY)
    assert (await campaigns.panel(panel.id)).undo == BENS_UNDO  # a redraw keeps the button
    await campaigns.edit(view.app_token, CY, "tally", {})  # Cy acts on top
    assert (await campaigns.panel(panel.id)).undo is None  # and loses it now
    after = await snapshot()
    with pytest.raises(NotAllowedNow, match="Someone else acted"):
        await undos.undo_in_chat(GROUP.tg_id, BEN)
    await undos.undo_in_chat(GROUP.tg_id, CY)  # Cy's own edit may go
    assert await snapshot() != after
    await campaigns.edit(view.app_token, BEN, "roll", {})  # dice
    with pytest.raises(NotAllowedNow, match="rolled dice stand"):
        await undos.undo_in_chat(GROUP.tg_id, BEN)
    assert await LogEntry.filter(kind="undo").count() == 1


async def test_a_change_outside_the_steps_makes_the_game_move_on(
    db: str, counter: tuple[Campaigns, Undos]
) -> None:
    campaigns, undos = counter
    await seated(campaigns, "counter", BEN)
    panel = await campaigns.open_panel(GROUP, BEN, "count")
    await campaigns.act(panel.id, panel.version, BEN, "inc")
    await seated_late(campaigns, CY)  # a join changes the campaign
    with pytest.raises(NotAllowedNow, match="moved on"):
        await undos.undo_in_chat(GROUP.tg_id, BEN)


async def seated_late(campaigns: Campaigns, player: PlayerRef) -> None:
    await Play(SeededRng(1), campaigns.locks, lambda: 0.0).mark_started(player)
    await campaigns.join(GROUP, player)


async def test_only_the_last_few_steps_are_kept(db: str, counter: tuple[Campaigns, Undos]) -> None:
    campaigns, _ = counter
    await seated(campaigns, "counter", BEN)
    view = await campaigns.require_current(GROUP.tg_id)
    for _ in range(KEPT + 3):
        await campaigns.edit(view.app_token, BEN, "tally", {})
    assert KEPT <= await UndoStep.filter(campaign_id=view.id).count() < KEPT + PRUNE_EVERY


async def test_a_d20_choice_before_the_dice_is_taken_back_but_the_roll_stands(db: str) -> None:
    campaigns = Campaigns(
        default_registry(("core.rules.d20check",)), ScriptedRng([15]), InProcessKeyedLock(5, 2)
    )
    undos = Undos(campaigns)
    await seated(campaigns, "d20", BEN)
    panel = await campaigns.open_panel(GROUP, BEN, "d20.check", "dc10")
    opened = await campaigns.act(panel.id, panel.version, BEN, "open", "mods")
    before = await snapshot()
    chosen = await campaigns.act(panel.id, opened.version, BEN, "adv", "1")
    assert chosen.undo == BENS_UNDO
    back = await undos.undo_panel(panel.id, chosen.version, BEN)
    assert await snapshot() == before and back.redraw[0].state == opened.state
    closed = await campaigns.act(panel.id, back.redraw[0].version, BEN, "back")
    rolled = await campaigns.act(panel.id, closed.version, BEN, "roll")
    assert rolled.undo is None  # no button after dice
    with pytest.raises(NotAllowedNow, match="rolled dice stand"):
        await undos.undo_in_chat(GROUP.tg_id, BEN)


async def test_a_panel_opened_with_dice_makes_the_steps_before_it_stand(
    db: str, counter: tuple[Campaigns, Undos]
) -> None:
    campaigns, undos = counter
    await seated(campaigns, "counter", BEN)
    view = await campaigns.require_current(GROUP.tg_id)
    await campaigns.edit(view.app_token, BEN, "tally", {})
    await campaigns.open_panel(GROUP, BEN, "count")  # the counter rolls a d6 as it opens
    with pytest.raises(NotAllowedNow, match="rolled dice stand"):
        await undos.undo_in_chat(GROUP.tg_id, BEN)


@pytest.mark.parametrize("seed", range(6))
async def test_a_random_walk_of_steps_and_undos_restores_exactly_what_the_rules_allow(
    db: str, counter: tuple[Campaigns, Undos], seed: int
) -> None:
    """Random presses, edits, dice and undos by two players; after each undo the stored
    game equals what it was before the step taken back, and a refusal changes nothing."""
    campaigns, undos = counter
    await seated(campaigns, "counter", BEN, CY)
    view = await campaigns.require_current(GROUP.tg_id)
    rng = random.Random(seed)
    panels = {p: await campaigns.open_panel(GROUP, p, "count", "10") for p in (BEN, CY)}
    steps: list[tuple[int, bool, tuple[object, ...]]] = []  # (actor, rolled, before)
    who = BEN
    for _ in range(60):
        if rng.random() < 0.25:  # mostly the same player, so undos run back through a streak
            who = CY if who is BEN else BEN
        move = rng.choice(("inc", "tally", "roll", "undo", "undo"))
        before = await snapshot()
        if move == "undo":
            if steps and steps[-1][0] == who.tg_id and not steps[-1][1]:
                await undos.undo_in_chat(GROUP.tg_id, who)
                assert await snapshot() == steps.pop()[2]
                panels = {p: await campaigns.panel(panels[p].id) for p in panels}
            else:
                with pytest.raises(NotAllowedNow):
                    await undos.undo_in_chat(GROUP.tg_id, who)
                assert await snapshot() == before
            continue
        if move == "inc":
            panel = panels[who]
            if panel.state["value"] >= panel.state["limit"]:
                continue
            panels[who] = await campaigns.act(panel.id, panel.version, who, "inc")
        else:
            await campaigns.edit(view.app_token, who, move, {})
        steps.append((who.tg_id, move == "roll", before))
        del steps[:-KEPT]
