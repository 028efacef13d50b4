"""d20 checks end to end through the local Bot API server: /check, plot points, /rest, /pool."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.campaigns.play import PlayerRef
from core.store.models import Campaign, Member
from core.store.models import Panel as PanelRow
from tests.support.dice import PushedDice as Dice
from tests.support.stack import GROUP, Stack, campaigns, labels, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, CHIDI, ZOE = 1001, 1002, 1003, 1004  # Alice hosts, so she is the Game Master
BO_NAME = "<b>Bo</b> & Co"


@pytest.fixture
async def dice() -> Dice:
    return Dice()


@pytest.fixture
async def stack(db: str, dice: Dice) -> Any:
    async with running_stack(db, rng=dice, players=default_cast()) as running:
        yield running


def ref(stack: Stack, user: int) -> PlayerRef:
    player = stack.api.players[user]
    return PlayerRef(player.id, player.first_name, player.last_name, player.username)


async def say(stack: Stack, user: int, text: str) -> dict:
    await stack.api.send_text(user, GROUP, text)
    return await stack.api.wait_for_message(GROUP, timeout=10)


def data_of(message: dict, label: str) -> str:
    rows = message["reply_markup"]["inline_keyboard"]
    found = [b["callback_data"] for row in rows for b in row if b["text"].startswith(label)]
    assert len(found) == 1, (label, labels(message))
    return found[0]


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
    assert "started a game of d20 checks" in (await say(stack, ALICE, "/newgame d20"))["text"]
    for user in (BO, CHIDI):
        assert "joined the game" in (await say(stack, user, "/join"))["text"]
    view = await campaigns(stack).require_current(GROUP)
    assert view.state["plot_points"] == {"lucky": 3, "unlucky": 0}
    return view.app_token


async def pool() -> dict[str, int]:
    campaign = await Campaign.get(live_chat_id=GROUP)
    return dict(campaign.state["plot_points"])


async def sheet_of(user: int) -> dict[str, Any]:
    member = await Member.get(player__tg_id=user, active=True)
    return member.sheet


async def test_a_failure_retried_with_a_lucky_point_and_a_gm_forced_reroll(
    stack: Stack, dice: Dice
) -> None:
    token = await start_game(stack)
    use = campaigns(stack)
    await use.edit(token, ref(stack, BO), "ability.set", {"name": "Might", "strength": "strong"})
    await use.edit(token, ref(stack, ALICE), "harm.add", {"player": CHIDI, "wounds": 6})

    # Bo opens a check from the sheet's names, then sets it up with buttons.
    panel = await say(stack, BO, "/check might dc12")
    assert f"{BO_NAME}</b> makes a check" not in panel["text"]  # shown as text, not markup
    assert f"{BO_NAME} makes a check — Might" in panel["text"]
    assert "Difficulty 12" in panel["text"] and "Strong ability" in panel["text"]
    assert "Plot points: 🍀🍀🍀 3 lucky · 0 unlucky" in panel["text"]
    assert labels(panel) == [
        "💪 Strong ability",
        "⚖️ Prof 0 · Adv 0 · Dis 0",
        "🎯 DC 12",
        f"🎲 Roll ({BO_NAME})",
    ]
    _, panel = await tap(stack, BO, panel, "⚖️ Prof")  # the bonuses open, with Back
    assert labels(panel) == ["Prof +", "Adv +", "Dis +", "⬅️ Back"]
    _, panel = await tap(stack, BO, panel, "Prof +")
    assert "proficiency +1" in panel["text"] and "Prof −" in labels(panel)
    answer, _ = await tap(stack, CHIDI, panel, "Prof +")
    assert answer["show_alert"] and "someone else's check" in answer["text"]
    _, panel = await tap(stack, BO, panel, "⬅️ Back")
    assert "⚖️ Prof 1 · Adv 0 · Dis 0" in labels(panel)

    # A failure: 3 and 5, keep 5, +1 = 6 against 12.
    dice.push(3, 5)
    _, panel = await tap(stack, BO, panel, "🎲 Roll")
    assert "d20 [<s>3</s>, 5] + 1 = 6" not in panel["text"]
    assert "d20 [3, 5] + 1 = 6" in panel["text"]
    assert "❌ Failure — margin −6" in panel["text"]
    assert set(labels(panel)) == {
        f"🍀 Lucky retry ({BO_NAME})",
        f"✋ Keep it ({BO_NAME})",
    }
    struck = [e for e in panel["entities"] if e["type"] == "strikethrough"]
    assert len(struck) == 1  # the dropped d20

    # Chidi presses Bo's retry: an alert, and nothing changes.
    row = await PanelRow.get(message_id=panel["message_id"])
    answer, _ = await tap(stack, CHIDI, panel, "🍀 Lucky retry")
    assert answer["show_alert"] and "someone else's check" in answer["text"]
    assert (await PanelRow.get(id=row.id)).version == row.version
    assert await pool() == {"lucky": 3, "unlucky": 0}
    assert any("someone else's check" in a["text"] for a in stack.api.alerts_for(CHIDI))

    # Bo retries: 15 and 2, keep 15, +1 = 16: a success. With an unlucky point in
    # the pool, any player may reroll it; Bo keeps it, and it stands.
    dice.push(15, 2)
    _, panel = await tap(stack, BO, panel, "🍀 Lucky retry")
    assert "✅ Success — margin +4" in panel["text"]
    assert f"{BO_NAME} spent a lucky point" in panel["text"]
    assert set(labels(panel)) == {
        "🌀 Unlucky reroll (any player)",
        f"✋ Keep it ({BO_NAME})",
    }
    assert "Any player may spend an unlucky point to reroll this success" in panel["text"]
    _, panel = await tap(stack, BO, panel, "✋ Keep it")
    assert "The result stands" in panel["text"] and labels(panel) == []
    assert await pool() == {"lucky": 2, "unlucky": 1}

    # Chidi (Injured) succeeds and keeps; the GM forces a reroll that fails.
    dice.push(14)
    panel = await say(stack, CHIDI, "/check dc10")
    _, panel = await tap(stack, CHIDI, panel, "🎲 Roll")
    assert "wounds 6/16 — <b>Injured</b>" not in panel["text"]
    assert "wounds 6/16 — Injured" in panel["text"]
    assert set(labels(panel)) == {
        "🌀 Unlucky reroll (any player)",
        "✋ Keep it (Chidi Okafor)",
    }
    _, panel = await tap(stack, CHIDI, panel, "✋ Keep it")
    assert set(labels(panel)) == {
        "🎭 Force a reroll (Alice Marsh)",
        "✅ Let it stand (Alice Marsh)",
    }
    answer, _ = await tap(stack, BO, panel, "🎭 Force")
    assert "someone else's check" in answer["text"]
    answer, _ = await tap(stack, CHIDI, panel, "🎭 Force")
    assert "Only the Game Master" in answer["text"]
    dice.push(4)
    _, panel = await tap(stack, ALICE, panel, "🎭 Force")
    assert "Forced reroll: d20 [4] = 4" in panel["text"]
    assert "❌ Failure — margin −6" in panel["text"]
    assert "🩸 Chidi Okafor: strain 0 → 1." in panel["text"]
    assert labels(panel) == []
    assert await pool() == {"lucky": 3, "unlucky": 0}
    assert (await sheet_of(CHIDI))["strain"] == 1

    # The pool for everyone to see.
    text = (await say(stack, ZOE, "/pool"))["text"]
    assert "not in this game" in text
    text = (await say(stack, BO, "/pool"))["text"]
    assert "3 lucky · 0 unlucky" in text and "Chidi Okafor: strain 1/3 · wounds 6/16" in text


async def test_a_long_rest_heals_wounds_and_only_the_gm_calls_it(stack: Stack, dice: Dice) -> None:
    token = await start_game(stack)
    use = campaigns(stack)
    await use.edit(
        token, ref(stack, ALICE), "harm.add", {"player": CHIDI, "strain": 2, "wounds": 3}
    )
    await use.edit(token, ref(stack, CHIDI), "proficiency.set", {"name": "Fortitude", "bonus": 2})

    assert "Only the Game Master" in (await say(stack, BO, "/rest"))["text"]

    dice.push(12, 1, 7)  # 14 heals, a natural 1 (3) fails, 9 fails
    rest = await say(stack, ALICE, "/rest")
    assert "Long rest" in rest["text"] and "difficulty 10 Fortitude" in rest["text"]
    assert "Chidi Okafor: strain 2 → 0" in rest["text"]
    assert "Recovery checks: 14 ✅, 3 ❌, 9 ❌" in rest["text"]
    assert "Wounds 3 → 2/16 — Exhausted" in rest["text"]
    assert "Natural 1! A lucky point turns unlucky." in rest["text"]
    assert f"{BO_NAME}: rested, nothing to heal." in rest["text"]
    assert rest.get("reply_markup") is None
    chidi = await sheet_of(CHIDI)
    assert (chidi["strain"], chidi["wounds"]) == (0, 2)
    assert await pool() == {"lucky": 2, "unlucky": 1}
    assert await PanelRow.filter(kind="d20.rest", closed=True).count() == 1


async def test_double_presses_and_stale_buttons_make_one_change(stack: Stack, dice: Dice) -> None:
    await start_game(stack)
    panel = await say(stack, BO, "/check")
    message_id = panel["message_id"]

    # Two different buttons of the same version: the second is out of date.
    _, panel = await tap(stack, BO, panel, "💪")
    first = await stack.api.press_button(BO, GROUP, message_id, data_of(panel, "Strong"))
    second = await stack.api.press_button(BO, GROUP, message_id, data_of(panel, "⬅️ Back"))
    answers = [await first.answered(10), await second.answered(10)]
    assert [bool(a["text"]) for a in answers] == [False, True]
    assert "out of date" in answers[1]["text"]
    panel = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == message_id, timeout=10
    )
    assert "Strong ability" in panel["text"] and "proficiency 0" in panel["text"]

    # The roll pressed twice at once: one roll (the dice would run out on a second).
    dice.push(20, 20)
    presses = [
        await stack.api.press_button(BO, GROUP, message_id, data_of(panel, "🎲 Roll"))
        for _ in range(2)
    ]
    answers = list(await asyncio.gather(*(p.answered(10) for p in presses)))
    assert sorted(bool(a["text"]) for a in answers) == [False, True]
    assert not dice.faces
    row = await PanelRow.get(message_id=message_id)
    assert row.version == 3 and row.closed  # a natural 20 success with nothing to flip
    panel = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == message_id, timeout=10
    )
    assert "natural 20, and no point to turn".lower() in panel["text"].lower()


async def test_the_gm_calls_for_a_check_by_replying_to_a_player(stack: Stack, dice: Dice) -> None:
    await start_game(stack)
    climb = await stack.api.send_text(CHIDI, GROUP, "I climb the tower")
    await stack.api.send_text(
        ALICE, GROUP, "/check strong dc14", reply_to_message_id=climb["message_id"]
    )
    panel = await stack.api.wait_for_message(GROUP, timeout=10)
    assert "Chidi Okafor makes a check" in panel["text"] and "Difficulty 14" in panel["text"]
    answer, _ = await tap(stack, ALICE, panel, "🎲 Roll")
    assert "Only the player making the check" in answer["text"]
    dice.push(16, 9)
    _, panel = await tap(stack, CHIDI, panel, "🎲 Roll")
    assert "✅ Success — margin +2" in panel["text"]

    mine = await stack.api.send_text(ALICE, GROUP, "The door creaks")
    await stack.api.send_text(BO, GROUP, "/check", reply_to_message_id=mine["message_id"])
    own = await stack.api.wait_for_message(GROUP, timeout=10)
    assert f"{BO_NAME} makes a check" in own["text"]  # a player's reply is their own check


async def test_leaving_takes_a_point_and_joining_gives_one_back(stack: Stack) -> None:
    await start_game(stack)
    assert "left the game" in (await say(stack, CHIDI, "/leave"))["text"]
    assert await pool() == {"lucky": 2, "unlucky": 0}
    assert "joined the game" in (await say(stack, CHIDI, "/join"))["text"]
    assert await pool() == {"lucky": 3, "unlucky": 0}


async def test_check_outside_a_d20_game_explains_itself(stack: Stack) -> None:
    assert "No game is running in this chat" in (await say(stack, BO, "/check"))["text"]
    await say(stack, ALICE, "/newgame d20")
    assert "at least one player" in (await say(stack, ALICE, "/check"))["text"]
    assert "couldn't read “<b>x</b>”" in (await say(stack, ALICE, "/check dc15 <b>x</b>"))["text"]
