"""Threat dice end to end through the local Bot API server: /threat, /roll 3d2t, buttons."""

from __future__ import annotations

from typing import Any

import pytest

from core.campaigns.play import PlayerRef
from core.rules.rng import ScriptedRng
from core.store.models import Member
from core.store.models import Panel as PanelRow
from tests.support.stack import GROUP, Stack, campaigns, labels, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, CHIDI, ZOE = 1001, 1002, 1003, 1004
BO_NAME = "<b>Bo</b> & Co"
# Bo's two Prowess dice, Chidi's help die, then three threat dice (+3t).
FACES = [2, 3, 1, 7, 2, 5]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, rng=ScriptedRng(FACES), players=default_cast()) as running:
        yield running


def ref(stack: Stack, user: int) -> PlayerRef:
    player = stack.api.players[user]
    return PlayerRef(player.id, player.first_name, player.last_name, player.username)


async def say(stack: Stack, user: int, text: str, reply_to: int | None = None) -> dict:
    await stack.api.send_text(user, GROUP, text, reply_to_message_id=reply_to)
    return await stack.api.wait_for_message(GROUP, timeout=10)


def data_of(message: dict, label: str) -> str:
    rows = message["reply_markup"]["inline_keyboard"]
    return next(b["callback_data"] for row in rows for b in row if b["text"] == label)


async def tap(stack: Stack, user: int, message: dict, label: str) -> tuple[dict, dict]:
    """Press a button; return the bot's answer and the panel message afterwards."""
    press = await stack.api.press_button(
        user, GROUP, message["message_id"], data_of(message, label)
    )
    answer = await press.answered(10)
    if answer["text"]:
        return answer, message
    edited = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == message["message_id"], timeout=10
    )
    return answer, edited


async def start_game(stack: Stack) -> str:
    assert "started a game of Threat dice" in (await say(stack, ALICE, "/newgame threat"))["text"]
    for user in (BO, CHIDI):
        assert "joined the game" in (await say(stack, user, "/join"))["text"]
    view = await campaigns(stack).require_current(GROUP)
    return view.app_token


async def sheet_of(user: int) -> dict[str, Any]:
    member = await Member.get(player__tg_id=user, active=True)
    return member.sheet


async def test_the_gm_asks_for_a_roll_a_friend_helps_and_the_roller_burns_momentum(
    stack: Stack,
) -> None:
    token = await start_game(stack)
    use = campaigns(stack)
    await use.edit(token, ref(stack, BO), "approach.set", {"name": "Prowess", "value": 2})
    await use.edit(token, ref(stack, ALICE), "momentum.set", {"player": BO, "value": 6})

    climb = await stack.api.send_text(BO, GROUP, "I climb the tower")
    panel = await say(stack, ALICE, "/threat", reply_to=climb["message_id"])
    assert f"{BO_NAME} acts" in panel["text"]  # the name is shown as text, not markup
    assert "Threat: +0 (normal)" in panel["text"] and "●●●●●● 6/6" in panel["text"]
    assert {"⚠️ Threat +0", "🎯 Approach…", "🤝 Help (+1d)", "✖️ Cancel"} <= set(labels(panel))
    assert len(labels(panel)) <= 8  # a phone shows them all
    assert "↩️ Stop helping" not in labels(panel) and "🎲 Roll" not in labels(panel)

    # A player presses the GM's button: a short alert, nothing changes.
    answer, _ = await tap(stack, CHIDI, panel, "⚠️ Threat +0")
    assert answer["show_alert"] and "Only the GM sets the threat" in answer["text"]
    row = await PanelRow.get(message_id=panel["message_id"])
    assert row.version == 0

    # The GM opens the threat keypad: the levels and Back, nothing else.
    _, panel = await tap(stack, ALICE, panel, "⚠️ Threat +0")
    assert labels(panel) == ["−2", "−1", "✓ +0", "+1", "+2", "+3", "+4", "⬅️ Back"]
    assert "set the threat or go back" in panel["text"]

    # The GM taps +3 twice before the bot answers: exactly one change.
    first = await stack.api.press_button(ALICE, GROUP, panel["message_id"], data_of(panel, "+3"))
    second = await stack.api.press_button(ALICE, GROUP, panel["message_id"], data_of(panel, "+3"))
    answers = [await first.answered(10), await second.answered(10)]
    assert sorted(bool(a["text"]) for a in answers) == [False, True]
    assert any("out of date" in a["text"] for a in answers)
    panel = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == panel["message_id"], timeout=10
    )
    assert "+3 (desperate)" in panel["text"] and "⚠️ Threat +3" in labels(panel)
    assert (await PanelRow.get(id=row.id)).version == 2

    _, panel = await tap(stack, BO, panel, "🎯 Approach…")
    assert labels(panel) == ["Prowess 2", "⬅️ Back"]
    _, panel = await tap(stack, BO, panel, "Prowess 2")
    assert "Approach: Prowess 2" in panel["text"] and "🎲 Roll" in labels(panel)
    assert "🎯 Prowess 2" in labels(panel)
    _, panel = await tap(stack, CHIDI, panel, "🤝 Help (+1d)")
    assert "Chidi Okafor helps" in panel["text"] and "↩️ Stop helping" in labels(panel)
    assert "Pool: 3d against 3t" in panel["text"] and "Chance of Messy or better" in panel["text"]

    _, panel = await tap(stack, BO, panel, "🎲 Roll")
    text = panel["text"]
    assert "Action dice: 2 3  🤝 Chidi Okafor: 1" in text
    assert "Threat dice: 7✂️ 2 5 — 1 cut" in text
    assert "Botched, cut to Dire" in text and "DIRE" in text
    assert labels(panel) == ["🔥 Burn Momentum → Messy", "Keep Dire"]

    answer, _ = await tap(stack, CHIDI, panel, "🔥 Burn Momentum → Messy")
    assert "Only the player who rolled" in answer["text"]
    _, panel = await tap(stack, BO, panel, "🔥 Burn Momentum → Messy")
    assert "MESSY" in panel["text"] and "→🔥6" in panel["text"]
    assert "Chidi Okafor shares the risk" in panel["text"] and "burned 6" in panel["text"]
    assert labels(panel) == []
    assert (await sheet_of(BO))["momentum"] == 2
    assert (await PanelRow.get(id=row.id)).closed


async def test_roll_notation_opens_the_roll_and_bad_notation_is_answered_clearly(
    stack: Stack,
) -> None:
    await start_game(stack)
    panel = await say(stack, BO, "/roll 2d1t")
    assert "Dice: 2d (set by the roll)" in panel["text"] and "+1 (risky)" in panel["text"]
    assert "Prowess" not in " ".join(labels(panel))
    for text, hint in [
        ("/roll 0d9t", "at least one action die"),
        ("/roll 99d2t", "At most 9"),
        ("/roll 3d7t", "Threat runs from -2t to 4t"),
    ]:
        reply = await say(stack, BO, text)
        assert hint in reply["text"] and len(reply["text"]) < 200
    assert "Total:" in (await say(stack, BO, "/roll 2d6"))["text"]  # ordinary dice still work
    banana = (await say(stack, BO, "/threat banana"))["text"]
    assert "“banana” is neither threat dice nor an approach" in banana and "3d2t" in banana


async def test_only_the_gm_asks_another_player_and_stale_buttons_say_so(stack: Stack) -> None:
    await start_game(stack)
    climb = await stack.api.send_text(BO, GROUP, "I climb")
    refused = await say(stack, CHIDI, "/threat 3d", reply_to=climb["message_id"])
    assert "Only the GM asks another player" in refused["text"]

    panel = await say(stack, CHIDI, "/threat 3d")
    assert "Chidi Okafor acts" in panel["text"]
    _, panel = await tap(stack, ALICE, panel, "✖️ Cancel")
    assert "called off" in panel["text"] and labels(panel) == []

    open_panel = await say(stack, BO, "/roll 3d2t")
    _, ended = await tap(stack, ALICE, await say(stack, ALICE, "/endgame"), "🏁 End the game")
    assert "ended" in ended["text"]
    shown = next(
        m for m in stack.api.messages(GROUP) if m["message_id"] == open_panel["message_id"]
    )
    assert labels(shown) == [] and "The game ended." in shown["text"]  # no dead buttons


async def test_threat_outside_a_threat_game_explains_itself(stack: Stack) -> None:
    reply = await say(stack, ZOE, "/threat")
    assert "No game is running in this chat. Start one with /newgame." in reply["text"]
    reply = await say(stack, ZOE, "/threat help")
    assert "Threat dice" in reply["text"] and "burn" in reply["text"]
    assert "/threat <approach> asks for it with that approach" in reply["text"]
    reply = await say(stack, ZOE, "/help")
    assert "/threat with an approach's name" in reply["text"]
    reply = await say(stack, ZOE, "/threat справка")  # the help word in Russian too
    assert "Threat dice" in reply["text"] and "burn" in reply["text"]


async def test_a_player_with_no_approaches_is_told_what_to_do_and_no_panel_opens(
    stack: Stack,
) -> None:
    await start_game(stack)  # nobody has approaches yet
    before = len(stack.api.messages(GROUP))
    reply = await say(stack, BO, "/threat")
    assert "no approaches yet" in reply["text"] and "/threat 3d2t" in reply["text"]
    assert "/sheet" in reply["text"] and "reply_markup" not in reply
    climb = await stack.api.send_text(BO, GROUP, "I climb")
    asked = await say(stack, ALICE, "/threat", reply_to=climb["message_id"])
    assert "That player's sheet has no approaches yet" in asked["text"]
    assert await PanelRow.filter().count() == 0
    assert len(stack.api.messages(GROUP)) == before + 5  # two commands, two answers, a line
    panel = await say(stack, BO, "/threat 2d1t")  # the way on the refusal names
    assert "🎲 Roll" in labels(panel)
