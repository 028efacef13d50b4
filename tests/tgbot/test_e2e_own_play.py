"""Playing a group's own game system end to end: /newgame lists and starts it, the game
keeps the version it started with until its host moves it on (/system use), its rolls
are in /rolls with the system's name, version, outcome and chance, /undo says they stand,
and an export carries the system's text into a group that never had it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from core.campaigns.play import ChatRef, PlayerRef
from core.rules.errors import Malformed
from core.store.models import Campaign, RollRecord
from core.views.archive import export_campaign, import_campaign
from tests.support.own_game import OUR_GAME, Dice, start_own_game
from tests.support.stack import (
    GROUP,
    TIMEOUT,
    Stack,
    campaigns,
    from_bot,
    running_stack,
    say,
)
from tgbot.sandbox.fake_api import Player

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, IVAN = 3201, 3202, 3203  # Alice and Bo read English, Ivan Russian
ELSEWHERE = -100888
HARDER = OUR_GAME.replace("min = 8", "min = 9").replace("max = 7", "max = 8")
"""Version 2: Good from 9."""


@pytest.fixture
async def dice() -> Dice:
    return Dice()


@pytest.fixture
async def stack(db: str, dice: Dice) -> AsyncIterator[Stack]:
    players = [
        Player(ALICE, "Alice", "Marsh", "alice", language_code="en", started=True),
        Player(BO, "Bo", language_code="en", started=True),
        Player(IVAN, "Иван", language_code="ru", started=True),
    ]
    async with running_stack(db, rng=dice, players=players) as running:
        yield running


async def text_of(stack: Stack, user: int, text: str, chat: int = GROUP) -> str:
    return str((await say(stack, user, chat, text))["text"])


async def test_a_game_keeps_its_version_until_its_host_moves_it_on(
    stack: Stack, dice: Dice
) -> None:
    await say(stack, ALICE, GROUP, "/system new\n" + OUR_GAME)
    choice = await text_of(stack, ALICE, "/newgame")
    assert (
        "This group's own games, started with /newgame and the key: Our game mine (version 1)."
    ) in choice, choice
    assert "Powered by the Apocalypse pbta" in choice

    bare = await text_of(stack, ALICE, "/newgame own")  # the key all such games share
    assert "Start a game of this group's own system by its key" in bare, bare
    started = await text_of(stack, ALICE, "/newgame mine")
    assert "Alice Marsh started a game of Our game." in started, started
    assert "2d6 plus a modifier." in started
    status = await text_of(stack, ALICE, "/status")
    assert status.startswith("Our game — ▶️ playing"), status
    assert "This group's own game system “mine”, version 1." in status
    assert "joined the game" in await text_of(stack, BO, "/join")
    helped = await text_of(stack, BO, "/help")
    assert "🎲 Our game (playing here)\n2d6 plus a modifier.\nRoll: /roll +1;" in helped, helped
    again = await text_of(stack, ALICE, "/newgame mine")
    assert "A game of Our game is already running here" in again, again

    dice.push(3, 5)
    rolled = await text_of(stack, BO, "/roll +1")
    assert rolled == "🎲 Bo — Our game, modifier +1\n3 + 5 + 1 = 9 → Good (58.3%)"

    edited = await text_of(stack, ALICE, "/system edit\n" + HARDER)
    assert edited == (
        "✅ Kept Our game (mine), version 2.\nℹ️ The game here still plays version 1: its "
        "host moves it to the newest with /system use mine."
    )
    dice.push(3, 5)
    assert await text_of(stack, BO, "/roll +1") == rolled  # still version 1: Good from 8

    refused = await text_of(stack, BO, "/system use mine")
    assert "Only the game's host can move it to another version of its system." in refused
    moved = await text_of(stack, ALICE, "/system use mine")
    assert moved == (
        "🔁 The game now plays Our game (mine), version 2, instead of version 1. "
        "Rolls already made keep the version that rolled them."
    )
    again = await text_of(stack, ALICE, "/system use mine")
    assert "plays the newest version of “mine” already" in again, again
    assert "version 2." in await text_of(stack, ALICE, "/status")
    dice.push(3, 5)
    assert await text_of(stack, BO, "/roll +1") == (
        "🎲 Bo — Our game, modifier +1\n3 + 5 + 1 = 9 → Good (41.7%)"
    )
    dice.push(1, 2)
    assert await text_of(stack, BO, "/roll -2") == (
        "🎲 Bo — Our game, modifier −2\n1 + 2 − 2 = 1 → Bad (91.7%)"
    )

    history = await text_of(stack, ALICE, "/rolls")
    lines = history.splitlines()
    assert lines[0] == "🎲 The last 4 rolls here (times in UTC):"
    assert lines[1].endswith("· Bo: Our game, version 1: modifier +1 → 9 → Good (58.3%)")
    assert lines[2].endswith("· Bo: Our game, version 1: modifier +1 → 9 → Good (58.3%)")
    assert lines[3].endswith("· Bo: Our game, version 2: modifier +1 → 9 → Good (41.7%)")
    assert lines[4].endswith("· Bo: Our game, version 2: modifier −2 → 1 → Bad (91.7%)")
    kept = await RollRecord.all().order_by("id")
    assert [(r.total, r.faces) for r in kept] == [
        (9, [[[3, 1], [5, 1]]]),
        (9, [[[3, 1], [5, 1]]]),
        (9, [[[3, 1], [5, 1]]]),
        (1, [[[1, 1], [2, 1]]]),
    ]

    undone = await text_of(stack, BO, "/undo")
    assert "rolled dice stand" in undone, undone

    russian = await text_of(stack, ALICE, "/language ru")
    assert russian
    history = await text_of(stack, IVAN, "/rolls")
    assert "Bo: Наша игра, версия 2: модификатор −2 → 1 → Плохо (91,7\xa0%)" in history, history
    status = await text_of(stack, IVAN, "/status")
    assert status.startswith("Наша игра — "), status
    refused = await text_of(stack, IVAN, "/system use mine")
    assert "может только организатор игры" in refused, refused


async def test_an_export_carries_its_system_into_a_group_without_it(
    stack: Stack, dice: Dice
) -> None:
    await start_own_game(stack, ALICE, GROUP)
    edited = OUR_GAME.replace('en = "Good"', 'en = "Fine"')
    await say(stack, ALICE, GROUP, "/system edit\n" + edited)  # version 2, not played here
    campaign = await Campaign.get(live_chat_id=GROUP)
    data = await export_campaign(campaign.id, 0.0)
    assert data["system"] == "own"
    assert data["state"]["system"]["key"] == "mine"
    assert data["state"]["system"]["version"] == 1
    assert data["state"]["system"]["text"] == OUR_GAME.strip()

    stack.api.add_forum(ELSEWHERE, "Another table")
    chat = ChatRef(ELSEWHERE, "supergroup", "Another table")
    view = await import_campaign(campaigns(stack), data, chat, PlayerRef(ALICE, "Alice"))
    assert view.system.name == "Our game"
    dice.push(6, 6)
    rolled = await text_of(stack, ALICE, "/roll +1", chat=ELSEWHERE)
    assert rolled == "🎲 Alice Marsh — Our game, modifier +1\n6 + 6 + 1 = 13 → Good (58.3%)"
    refused = await text_of(stack, ALICE, "/system use mine", chat=ELSEWHERE)
    assert "This group has no game system “mine”" in refused

    damaged = {**data, "state": {"v": 1, "system": {"key": "mine", "version": 1, "text": "x"}}}
    other = ChatRef(-100999, "group", "A third table")
    with pytest.raises(Malformed) as error:
        await import_campaign(campaigns(stack), damaged, other, PlayerRef(ALICE, "Alice"))
    assert error.value.message_id == "This game's rules could not be read."


def button(message: dict[str, Any]) -> str:
    return str(message["reply_markup"]["inline_keyboard"][0][0]["callback_data"])


async def privately(stack: Stack, user: int, since: int) -> str:
    """The bot's next private message to ``user`` after the mark ``since``."""
    found = await stack.api.wait_for_message(user, from_bot(stack), timeout=TIMEOUT, since=since)
    return str(found["text"])


async def test_secret_and_saved_rolls_in_a_game_of_an_own_system(stack: Stack, dice: Dice) -> None:
    await start_own_game(stack, ALICE, GROUP)
    await say(stack, BO, GROUP, "/join")

    mark = stack.api.mark()
    dice.push(3, 5)
    shown = await say(stack, BO, GROUP, "/roll +1 secret")
    assert shown["text"] == "🤫 Bo rolled in secret."
    mine = await privately(stack, BO, mark)
    assert mine.endswith("🎲 Bo — Our game, modifier +1\n3 + 5 + 1 = 9 → Good (58.3%)"), mine
    assert "No rolls here yet" in await text_of(stack, ALICE, "/rolls")
    refused = await text_of(stack, BO, "/sroll +9")
    assert "“+9” is out of range here: from -2 to 3." in refused, refused

    press = await stack.api.press_button(BO, GROUP, shown["message_id"], button(shown))
    await press.answered(TIMEOUT)
    edited = await stack.api.wait_for_message(GROUP, timeout=TIMEOUT)
    assert edited["text"] == (
        "🎲 Bo rolled Our game, version 1: modifier +1 in secret\n[3, 5]\n"
        "9 → Good (58.3%)\n👁 Revealed by Bo."
    )
    history = await text_of(stack, ALICE, "/rolls")
    assert history.endswith(
        "· Bo: Our game, version 1: modifier +1 → 9 → Good (58.3%) (rolled in secret, revealed)"
    ), history

    mark = stack.api.mark()
    dice.push(2, 2)
    await say(stack, BO, GROUP, "/sroll 2d6")  # dice notation: dice, in secret
    assert "Total: 4" in await privately(stack, BO, mark)

    saved = await text_of(stack, BO, "/save dmg 1d8+3")
    assert "Saved dmg: 1d8+3" in saved
    dice.push(5)
    rolled = await text_of(stack, BO, "/roll dmg")  # a saved roll: its dice, in any game
    assert "Total: 8" in rolled, rolled
    history = await text_of(stack, ALICE, "/rolls")
    assert history.splitlines()[-1].endswith("· Bo: (1d8 + 3) → 8 — dmg"), history
    mark = stack.api.mark()
    dice.push(1)
    assert "rolled in secret" in await text_of(stack, BO, "/sroll dmg")  # its dice, in secret
    assert "Total: 4" in await privately(stack, BO, mark)
