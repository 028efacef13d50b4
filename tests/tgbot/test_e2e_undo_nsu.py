"""Undo in No Stone Unturned end to end: roll choices, a harm line, a clock tick, downtime.

The world and characters are put in place through the pure rules (as in the play
tests); every undo must leave the panel reading exactly as before the step.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.store.models import LogEntry
from tests.support.nsu_bot import (
    ALICE,
    BO,
    CHIDI,
    Faces,
    message,
    press,
    press_only,
    private_panel,
    seat_three,
)
from tests.support.nsu_bot import reply as nsu_reply
from tests.support.nsu_bot import say as nsu_say
from tests.support.stack import GROUP, Stack, campaigns, labels, running_stack
from tests.tgbot.test_e2e_nsu_play import (
    default_characters,
    refused,
    reply,
    say,
    sheet_of,
    start_table,
    tap,
    world_now,
)
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture
def faces() -> Faces:
    return Faces([])


@pytest.fixture
async def stack(db: str, faces: Faces) -> Stack:  # type: ignore[misc]
    async with running_stack(db, rng=faces, players=default_cast()) as running:
        yield running


async def undo_button(stack: Stack, user: int, panel: dict[str, Any]) -> dict[str, Any]:
    """Press ``↩ Undo``; return the panel as redrawn."""
    found = [
        b["callback_data"]
        for row in panel["reply_markup"]["inline_keyboard"]
        for b in row
        if b["text"].startswith("↩ Undo")
    ]
    assert len(found) == 1, labels(panel, undo=True)
    press = await stack.api.press_button(user, GROUP, panel["message_id"], found[0])
    answer = await press.answered(10)
    assert "took back" in answer["text"]
    return await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == panel["message_id"], timeout=10
    )


async def slash_undo(stack: Stack, user: int, expect: str) -> dict[str, Any]:
    await stack.api.send_text(user, GROUP, "/undo")
    return await stack.api.wait_for_message(
        GROUP, lambda m: expect in m.get("text", ""), timeout=10
    )


def same(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Two renders of a panel read the same: text and buttons (on different versions)."""
    assert a["text"] == b["text"]
    assert labels(a, undo=True) == labels(b, undo=True)


async def test_roll_choices_before_the_dice_and_a_harm_line_are_taken_back(
    stack: Stack, faces: Faces
) -> None:
    await start_table(stack, default_characters())
    opened = await say(stack, ALICE, "/act I cross the bridge")
    assert not any(label.startswith("↩") for label in labels(opened, undo=True))

    # The arbiter's choice, taken back with the button.
    body = await tap(stack, CHIDI, opened, "⚖️ Body")
    assert "↩ Undo (Chidi Okafor)" in labels(body, undo=True)
    assert "for someone else" in await refused(stack, ALICE, body, "↩ Undo")
    back = await undo_button(stack, CHIDI, body)
    assert back["text"] == opened["text"]
    assert labels(back) == labels(opened)  # the same choices, on a newer version

    # Two steps by two players: the first stands once the second is taken.
    panel = await tap(stack, CHIDI, back, "⚖️ Body")
    panel = await tap(stack, CHIDI, panel, "🌍 World")
    before_mood = panel
    panel = await tap(stack, ALICE, panel, "Ana: Curious d8")
    await slash_undo(stack, CHIDI, "Someone else acted")
    await slash_undo(stack, ALICE, "took back")
    restored = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == opened["message_id"], timeout=10
    )
    same(restored, before_mood)  # Chidi's ↩ Undo is back too, as it was

    # The dice fall: they stand, and so does every choice before them.
    faces.push(2, 3, 7, 2)
    panel = await tap(stack, ALICE, restored, "Ana: Curious d8")
    panel = await tap(stack, ALICE, panel, "No details apply")
    panel = await tap(stack, ALICE, panel, "🎲 Ana: roll")
    assert not any(label.startswith("↩") for label in labels(panel, undo=True))
    await slash_undo(stack, ALICE, "rolled dice stand")
    panel = await tap(stack, ALICE, panel, "Ana: my own mood die")

    # A harm line written after the dice is a step of its own, and may go back.
    before_harm = panel
    harmed = await reply(stack, ALICE, panel, "harm: Twisted <ankle>")
    assert "Twisted" in harmed["text"]
    back = await undo_button(stack, ALICE, harmed)
    same(back, before_harm)
    assert "Twisted" not in str(await world_now(await campaign_id(stack)))
    lines = await LogEntry.filter(kind="undo").values_list("text", flat=True)
    assert lines == [
        "↩ Chidi Okafor took back: a choice before the action roll",
        "↩ Alice Marsh took back: a choice before the action roll",
        "↩ Alice Marsh took back: a choice before the action roll",
    ]


async def campaign_id(stack: Stack) -> int:
    return (await campaigns(stack).require_current(GROUP)).id


async def test_a_clock_tick_in_the_mini_app_and_a_downtime_pick_are_taken_back(
    stack: Stack, faces: Faces
) -> None:
    await start_table(stack, default_characters())
    view = await campaigns(stack).require_current(GROUP)
    before = await world_now(view.id)
    ticks = before.card("a").clock.ticks
    await campaigns(stack).edit(view.app_token, _ref(stack, BO), "clock.tick", {"card_id": "a"})
    assert (await world_now(view.id)).card("a").clock.ticks == ticks + 1
    await slash_undo(stack, BO, "took back: a Collateral Clock tick")
    assert await world_now(view.id) == before

    faces.push(4)  # the downtime's complication
    opened = await say(stack, ALICE, "/downtime home")
    mood_before = (await sheet_of(ALICE)).moods
    rested = await tap(stack, ALICE, opened, "🛌 Rest & heal")
    picked = await tap(stack, ALICE, rested, "🛌 Seek Recovery")
    assert picked["text"] != rested["text"]
    back = await undo_button(stack, ALICE, picked)
    same(back, rested)
    assert (await sheet_of(ALICE)).moods == mood_before


def _ref(stack: Stack, user: int) -> Any:
    from core.campaigns.play import PlayerRef

    p = stack.api.players[user]
    return PlayerRef(p.id, p.first_name, p.last_name, p.username)


def read(msg: dict[str, Any]) -> tuple[str, list[str]]:
    """What a panel shows: its text and its buttons."""
    return msg["text"], labels(msg, undo=True)


async def test_a_worldbuilding_answer_and_a_character_step_are_taken_back(stack: Stack) -> None:
    await seat_three(stack)
    await stack.api.start_bot(ALICE)
    await stack.api.wait_for_message(ALICE, timeout=10)
    opened = await nsu_say(stack, ALICE, "/begin")
    board = opened["message_id"]

    # Bo writes the tone down, then takes it back with the button; Chidi may not.
    toned = await nsu_reply(stack, BO, GROUP, board, "Grim & <grey>")
    assert "Grim & <grey>" in toned["text"]
    answer = await press_only(stack, CHIDI, GROUP, board, "↩ Undo")
    assert answer["show_alert"] and "someone else" in answer["text"]
    back = await press(stack, BO, GROUP, board, "↩ Undo")
    assert read(back) == read(opened)

    # Chidi's toggle, then Bo's answer on top: Chidi's toggle stands, Bo's goes.
    toggled = await press(stack, CHIDI, GROUP, board, "Knocks")
    await nsu_reply(stack, BO, GROUP, board, "Weird & <hopeful>")
    await slash_undo(stack, CHIDI, "Someone else acted")
    await slash_undo(stack, BO, "took back: a worldbuilding step")
    restored = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == board and "Weird" not in m["text"], timeout=10
    )
    assert read(restored) == read(toggled)

    # A character step in private, taken back with the button there.
    mark = stack.api.mark()
    await stack.api.send_text(BO, GROUP, "/character")
    panel = (await private_panel(stack, BO, mark))["message_id"]
    asked = message(stack, BO, panel)
    named = await nsu_reply(stack, BO, BO, panel, "Wren <the> Bold")
    assert "Wren <the> Bold" in named["text"]
    back = await press(stack, BO, BO, panel, "↩ Undo")
    assert read(back) == read(asked)
    assert "Wren" not in str(await sheet_of_member(BO))


async def sheet_of_member(player: int) -> Any:
    from core.store.models import Member

    return (await Member.get(player__tg_id=player, active=True)).sheet


async def test_a_travel_that_flipped_a_card_stands_and_offers_no_undo(stack: Stack) -> None:
    from core.store.models import Campaign
    from tests.support.nsu_table import campaign_state, world

    campaign_id = await start_table(stack, default_characters())
    await Campaign.filter(id=campaign_id).update(state=campaign_state(world((ALICE, BO, CHIDI))))
    assert not (await world_now(campaign_id)).card("b").revealed
    panel = await say(stack, ALICE, "/adventure")
    travelling = await tap(stack, BO, panel, "➡️ Travel")
    undo = [b for b in labels(travelling, undo=True) if b.startswith("↩ Undo")]
    assert undo  # nothing seen yet: it goes back
    flipped = await tap(stack, BO, travelling, "➡️ ")
    assert (await world_now(campaign_id)).card("b").revealed
    assert not [b for b in labels(flipped, undo=True) if b.startswith("↩")]  # it would not work
    refusal = await slash_undo(stack, BO, "what was seen stands")
    assert "travel" in refusal["text"] or "adventure" in refusal["text"]
    assert (await world_now(campaign_id)).card("b").revealed
    assert not await LogEntry.filter(campaign_id=campaign_id, kind="undo").exists()


async def test_a_step_stands_once_someone_else_opens_a_panel_on_top(stack: Stack) -> None:
    await start_table(stack, default_characters())
    panel = await say(stack, ALICE, "/adventure")
    travelling = await tap(stack, BO, panel, "➡️ Travel")  # Bo's step, his to take back
    assert [b for b in labels(travelling, undo=True) if b.startswith("↩ Undo")]
    mark = stack.api.mark()
    await stack.api.send_text(ALICE, GROUP, "/act I climb")  # Alice acts on top
    await stack.api.wait_for_message(
        GROUP, lambda m: "Action Roll" in (m.get("text") or ""), timeout=10, since=mark
    )
    redrawn = await stack.api.wait_for_message(
        GROUP,
        lambda m: m["message_id"] == panel["message_id"] and "↩" not in str(m),
        timeout=10,
        since=mark,
    )
    assert "Where next?" in redrawn["text"]  # as it was, with no ↩ Undo any more
    await slash_undo(stack, BO, "Someone else acted")


async def test_a_pause_takes_the_undo_button_away_for_good(stack: Stack) -> None:
    await start_table(stack, default_characters())
    panel = await say(stack, ALICE, "/adventure")
    travelling = await tap(stack, BO, panel, "➡️ Travel")
    assert [b for b in labels(travelling, undo=True) if b.startswith("↩ Undo")]
    mark = stack.api.mark()
    await stack.api.send_text(ALICE, GROUP, "/pause")
    redrawn = await stack.api.wait_for_message(
        GROUP,
        lambda m: m["message_id"] == panel["message_id"] and "↩" not in str(m),
        timeout=10,
        since=mark,
    )
    assert redrawn["text"] == travelling["text"]  # as it was, without ↩ Undo
    await stack.api.send_text(ALICE, GROUP, "/resume")
    await stack.api.wait_for_message(
        GROUP, lambda m: "The game goes on!" in (m.get("text") or ""), timeout=10, since=mark
    )
    await slash_undo(stack, BO, "moved on")  # the pause made the step stand
