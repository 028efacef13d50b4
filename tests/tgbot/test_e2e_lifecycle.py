"""Ending and resuming a game, and the chat's command menu, through the local Bot API server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from telegram import BotCommandScopeChat

from core.campaigns.play import ChatRef, PlayerRef
from core.store.models import Campaign, LogEntry, Member
from tests.support import nsu_bot
from tests.support.dice import PushedDice as Dice
from tests.support.stack import GROUP, Stack, campaigns, labels, running_stack
from tgbot.app import refresh_game_menus
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, CHIDI = 1001, 1002, 1003  # Alice hosts
DAY = 86400.0
COMMON_GROUP = [  # no game
    "help", "roll", "rolls", "sroll", "save", "saved", "system", "sheet", "newgame",
]  # fmt: skip
COMMON_PRIVATE = ["start", "help", "roll", "rolls", "save", "saved", "sheet"]
WHILE_PLAYING = [  # a running game's menu, after its own
    "help", "roll", "rolls", "sroll", "say", "npc", "save", "saved", "system", "sheet", "join",
    "leave", "status", "pause", "resume", "endgame", "language", "undo", "turns", "next",
    "story", "nudge",
]  # fmt: skip
AFTER_AN_END = [*COMMON_GROUP, "resume"]  # while the game that ended may be resumed


class Clock:
    """Wall time that the test can move forward."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@pytest.fixture
async def dice() -> Dice:
    return Dice()


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def stack(db: str, dice: Dice, clock: Clock) -> Any:
    async with running_stack(db, rng=dice, clock=clock, players=default_cast()) as running:
        yield running


async def say(stack: Stack, user: int, text: str) -> dict:
    await stack.api.send_text(user, GROUP, text)
    return await stack.api.wait_for_message(GROUP, timeout=10)


def data_of(message: dict, label: str) -> str:
    rows = message["reply_markup"]["inline_keyboard"]
    found = [b["callback_data"] for row in rows for b in row if b["text"].startswith(label)]
    assert len(found) == 1, (label, labels(message))
    return found[0]


async def tap(stack: Stack, user: int, message: dict, label: str) -> tuple[dict, dict]:
    """Press a button; return the bot's answer and the message afterwards."""
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


async def menu(stack: Stack, chat_id: int) -> list[str]:
    """The commands set for exactly this chat, read back with getMyCommands."""
    assert stack.runtime.application is not None
    bot = stack.runtime.application.bot
    return [c.command for c in await bot.get_my_commands(scope=BotCommandScopeChat(chat_id))]


async def eventually(check: Callable[[], Any], timeout: float = 10) -> None:
    """Wait until ``check()`` (sync or async) is true: menus change after the reply."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("it never happened")
        await asyncio.sleep(0.02)


def seen(stack: Stack, user: int, chat: int) -> list[str]:
    """The menu a player sees in a chat, after Telegram's scope order."""
    return [c["command"] for c in stack.api.visible_commands(user, chat)]


async def play_a_little(stack: Stack, dice: Dice) -> None:
    """A d20 game: Bo and Chidi join, Bo fails a check and retries with a lucky point."""
    assert "started a game of d20 checks" in (await say(stack, ALICE, "/newgame d20"))["text"]
    for user in (BO, CHIDI):
        assert "joined the game" in (await say(stack, user, "/join"))["text"]
    view = await campaigns(stack).require_current(GROUP)
    bo = stack.api.players[BO]
    await campaigns(stack).edit(
        view.app_token,
        PlayerRef(bo.id, bo.first_name, bo.last_name, bo.username),
        "ability.set",
        {"name": "Might", "strength": "strong"},
    )
    panel = await say(stack, BO, "/check might dc12")
    dice.push(3, 5)
    _, panel = await tap(stack, BO, panel, "🎲 Roll")
    assert "Failure" in panel["text"]
    dice.push(15, 2)
    _, panel = await tap(stack, BO, panel, "🍀 Lucky retry")
    assert "Success" in panel["text"]


async def saved() -> tuple[dict, dict, int]:
    """The campaign's state, Bo's sheet and how many log lines it has."""
    campaign = await Campaign.get(chat__tg_id=GROUP)
    sheet = (await Member.get(campaign_id=campaign.id, player__tg_id=BO)).sheet
    return campaign.state, sheet, await LogEntry.filter(campaign_id=campaign.id).count()


async def test_end_is_confirmed_by_the_host_and_resume_brings_the_game_back_intact(
    stack: Stack, dice: Dice, clock: Clock
) -> None:
    await play_a_little(stack, dice)
    before = await saved()
    assert before[0]["plot_points"] == {"lucky": 2, "unlucky": 1}
    pool_before = (await say(stack, CHIDI, "/pool"))["text"]

    refused = await say(stack, BO, "/endgame")
    assert "Only the host can end the game" in refused["text"]
    earlier = await say(stack, ALICE, "/endgame")  # asked twice: both questions stand for now
    question = await say(stack, ALICE, "/endgame")
    assert "End the d20 checks game?" in question["text"]
    assert "sheets" in question["text"] and "map" not in question["text"]  # d20 has no map
    assert "log" in question["text"] and "/resume" in question["text"]
    assert "30 days" in question["text"]
    assert labels(question) == ["🏁 End the game", "✖️ Cancel"]

    answer, _ = await tap(stack, BO, question, "🏁 End")
    assert answer["show_alert"] and "Only the host can end the game" in answer["text"]
    answer, _ = await tap(stack, CHIDI, question, "✖️ Cancel")
    assert "Only the host" in answer["text"]
    assert (await campaigns(stack).current(GROUP)) is not None  # still running

    ends = [
        await stack.api.press_button(
            ALICE, GROUP, question["message_id"], data_of(question, "🏁 End")
        )
        for _ in range(2)
    ]  # a double tap: the game ends once, the second press is told it is late
    answers = [await press.answered(10) for press in ends]
    assert sorted(bool(a["text"]) for a in answers) == [False, True]
    assert any("out of date" in a["text"] for a in answers)
    ended = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == question["message_id"], timeout=10
    )
    assert "game has ended" in ended["text"] and labels(ended) == []
    assert "/resume" in ended["text"] and "until" in ended["text"]
    assert "No game is running" in (await say(stack, BO, "/status"))["text"]
    assert "out of date" in (await tap(stack, ALICE, earlier, "✖️ Cancel"))[0]["text"]

    clock.offset += 29 * DAY
    assert "Only the host can resume" in (await say(stack, BO, "/resume"))["text"]
    back = await say(stack, ALICE, "/resume")
    assert "is back, just as you left it" in back["text"]
    assert await saved() == before  # state, sheets and log as they were
    assert (await say(stack, CHIDI, "/pool"))["text"] == pool_before
    answer, _ = await tap(stack, ALICE, earlier, "🏁 End")  # the game came back since
    assert "moved on since you asked" in answer["text"]
    assert await campaigns(stack).current(GROUP) is not None
    assert "already running" in (await say(stack, ALICE, "/resume"))["text"]
    panel = await say(stack, BO, "/check might dc5")  # play goes on
    dice.push(18, 4)  # a strong ability rolls two d20
    _, panel = await tap(stack, BO, panel, "🎲 Roll")
    assert "Success" in panel["text"]


async def test_cancel_keeps_the_game_running(stack: Stack, dice: Dice) -> None:
    await play_a_little(stack, dice)
    question = await say(stack, ALICE, "/endgame")
    _, kept = await tap(stack, ALICE, question, "✖️ Cancel")
    assert "goes on" in kept["text"] and labels(kept) == []
    view = await campaigns(stack).require_current(GROUP)
    assert view.status.value == "active" and len(view.members) == 3


async def test_thirty_one_days_later_the_game_is_gone_from_resume(
    stack: Stack, dice: Dice, clock: Clock
) -> None:
    await play_a_little(stack, dice)
    question = await say(stack, ALICE, "/endgame")
    await tap(stack, ALICE, question, "🏁 End")
    await eventually(lambda: seen(stack, BO, GROUP) == AFTER_AN_END)
    clock.offset += 31 * DAY
    gone = await say(stack, ALICE, "/resume")
    assert "more than 30 days ago" in gone["text"] and "/newgame" in gone["text"]
    assert await menu(stack, GROUP) == []  # the menu for all groups again: no /resume
    assert seen(stack, BO, GROUP) == COMMON_GROUP
    assert "No game is running" in (await say(stack, ALICE, "/status"))["text"]
    choice = await say(stack, ALICE, "/newgame")
    assert "Which game" in choice["text"] and "/resume" not in choice["text"]


async def test_newgame_while_a_game_runs_names_endgame_and_offers_resume_after(
    stack: Stack,
) -> None:
    assert "No game is running" in (await say(stack, ALICE, "/resume"))["text"]
    await say(stack, ALICE, "/newgame threat")
    refused = await say(stack, BO, "/newgame d20")
    assert "A game of Threat dice is already running" in refused["text"]
    assert "/endgame" in refused["text"]
    question = await say(stack, ALICE, "/endgame")
    await tap(stack, ALICE, question, "🏁 End")
    choice = await say(stack, BO, "/newgame")
    offer = "The Threat dice game that ended here can still come back with /resume until"
    assert offer in choice["text"]


async def test_the_menu_holds_the_games_commands_only_while_it_runs(stack: Stack) -> None:
    assert seen(stack, BO, GROUP) == COMMON_GROUP
    assert seen(stack, BO, BO) == COMMON_PRIVATE
    assert await menu(stack, GROUP) == []

    await say(stack, ALICE, "/newgame nsu")
    await say(stack, BO, "/join")
    # The game's commands first, then the common ones; no /newgame while it runs.
    nsu_group = ["begin", "character", "locations", "adventure", "map", "xcard"]
    nsu_group += ["knock", "lines", "act", "odds", "downtime", *WHILE_PLAYING]
    await eventually(lambda: seen(stack, BO, BO) != COMMON_PRIVATE)
    assert await menu(stack, GROUP) == nsu_group
    assert seen(stack, CHIDI, GROUP) == nsu_group  # everyone in the group, players or not
    nsu_private = ["character", "locations", "map", "xcard", "knock", "lines", "odds"]
    assert await menu(stack, BO) == [*nsu_private, *COMMON_PRIVATE]
    assert seen(stack, CHIDI, CHIDI) == COMMON_PRIVATE  # Chidi doesn't play

    question = await say(stack, ALICE, "/endgame")
    await tap(stack, ALICE, question, "🏁 End")
    await eventually(lambda: seen(stack, BO, BO) == COMMON_PRIVATE)
    assert await menu(stack, GROUP) == AFTER_AN_END  # what can be done now: /resume too
    assert seen(stack, BO, GROUP) == AFTER_AN_END
    assert len(COMMON_GROUP) <= 10 and len(AFTER_AN_END) <= 10

    await say(stack, ALICE, "/resume")
    await eventually(lambda: seen(stack, BO, BO) != COMMON_PRIVATE)
    assert await menu(stack, GROUP) == nsu_group

    await say(stack, BO, "/leave")
    await eventually(lambda: seen(stack, BO, BO) == COMMON_PRIVATE)
    assert await menu(stack, GROUP) == nsu_group  # the game still runs for the others


async def test_a_built_no_stone_unturned_world_comes_back_with_its_map_and_log(
    db: str, clock: Clock
) -> None:
    async with running_stack(db, clock=clock, players=default_cast()) as stack:
        await nsu_bot.seat_three(stack)
        board = await nsu_bot.build_world(stack)
        for pid in nsu_bot.PLAYERS:
            await nsu_bot.make_character(stack, pid, board if pid == CHIDI else None)
        adventure = (await say(stack, ALICE, "/adventure"))["message_id"]
        await nsu_bot.press(stack, BO, GROUP, adventure, "➡️ Travel")
        await nsu_bot.press(stack, BO, GROUP, adventure, "➡️")  # the party travels; a card flips
        ticked = await nsu_bot.press(stack, CHIDI, GROUP, adventure, "+1 tick")
        assert "1/8" in ticked["text"]
        campaign = await Campaign.get(chat__tg_id=GROUP)
        log = [e.text for e in await LogEntry.filter(campaign_id=campaign.id).order_by("id")]
        sheets = {m.id: m.sheet for m in await Member.filter(campaign_id=campaign.id)}
        assert log and campaign.state["world"]["cards"]  # a log and a dealt map to keep

        question = await say(stack, ALICE, "/endgame")
        assert "End the No Stone Unturned game?" in question["text"]
        ended = await nsu_bot.press(stack, ALICE, GROUP, question["message_id"], "End the game")
        assert "has ended" in ended["text"]
        assert "No game is running" in (await say(stack, BO, "/begin"))["text"]
        # the private messages it retired still name their game, and say it ended
        retired_privately = [
            m
            for pid in nsu_bot.PLAYERS
            for m in stack.api.messages(pid)
            if "The game ended." in (m.get("text") or "")
        ]
        assert retired_privately
        for m in retired_privately:
            assert m["text"].startswith("🎲 No Stone Unturned in The Table\n"), m["text"]

        clock.offset += 12 * DAY
        assert "is back" in (await say(stack, ALICE, "/resume"))["text"]
        back = await Campaign.get(id=campaign.id)
        assert back.state == campaign.state
        assert [e.text for e in await LogEntry.filter(campaign_id=campaign.id).order_by("id")] == (
            log
        )
        assert {m.id: m.sheet for m in await Member.filter(campaign_id=campaign.id)} == sheets
        retired = nsu_bot.message(stack, GROUP, adventure)  # the ending retired open panels
        assert nsu_bot.buttons(retired) == [] and "The game ended." in retired["text"]
        again = await say(stack, ALICE, "/adventure")
        assert "1/8" in again["text"] and "At home" not in again["text"]
        mark = stack.api.mark()
        await stack.api.send_text(BO, GROUP, "/map")
        await stack.api.wait_for_message(
            GROUP, lambda m: "photo" in m, timeout=nsu_bot.TIMEOUT, since=mark
        )


async def test_games_running_before_a_new_command_set_get_their_menus_once(
    stack: Stack,
) -> None:
    use = campaigns(stack)
    host = stack.api.players[ALICE]
    await use.new_game(  # started without the bot: its chat has no menu of its own yet
        ChatRef(GROUP, "supergroup", "The Table"), PlayerRef(host.id, host.first_name), "d20"
    )
    assert await menu(stack, GROUP) == []
    application = stack.runtime.application
    assert application is not None
    await refresh_game_menus(application)  # (or the start-up job did, on a slow machine)
    assert await menu(stack, GROUP) == ["check", "rest", "pool", *WHILE_PLAYING]
    assert seen(stack, ALICE, ALICE) == COMMON_PRIVATE  # d20 has no private commands
    assert not await refresh_game_menus(application)  # once per command set, by one worker


async def test_a_private_command_of_an_ended_game_says_it_ended_and_what_the_host_can_do(
    stack: Stack, clock: Clock
) -> None:
    async def in_private(user: int, text: str) -> str:
        mark = stack.api.mark()
        await stack.api.send_text(user, user, text)
        found = await stack.api.wait_for_message(user, timeout=10, since=mark)
        return str(found["text"])

    assert "No Stone Unturned" in (await say(stack, ALICE, "/newgame nsu"))["text"]
    assert "joined" in (await say(stack, BO, "/join"))["text"]
    await tap(stack, ALICE, await say(stack, ALICE, "/endgame"), "🏁 End")
    for command in ("/xcard", "/knock", "/lines", "/map", "/character", "/locations"):
        said = await in_private(BO, command)
        assert said.startswith(
            "⏳ Your No Stone Unturned game in The Table has ended. Its host can bring it back "
            "with /resume in that group until "
        ), (command, said)
        assert "/newgame" in said and "Join one" not in said, (command, said)
    stack.api.users.set_language(BO, "ru")
    said = await in_private(BO, "/xcard")
    ended = "⏳ Ваша игра «No Stone Unturned» в группе «The Table» закончилась."
    assert said.startswith(ended), said
    assert "/resume" in said and "Присоединяйтесь" not in said, said
    stack.api.users.set_language(BO, "en")
    never_played = await in_private(CHIDI, "/xcard")
    assert "aren't in a No Stone Unturned game yet" in never_played
    clock.offset += 31 * DAY
    said = await in_private(BO, "/map")
    assert "has ended, too long ago to come back" in said and "/resume" not in said, said
