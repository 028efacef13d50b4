"""The bot end to end: real HTTP to the local Bot API server, real database."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from core.store.models import RollRecord
from tests.support.stack import GROUP, Stack, running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db) as running:
        yield running


def by_bot(stack: Stack):
    return lambda message: message["from"]["id"] == stack.api.bot_id


async def say(stack: Stack, user: int, chat: int, text: str) -> dict:
    await stack.api.send_text(user, chat, text)
    return await stack.api.wait_for_message(chat, by_bot(stack), timeout=10)


async def test_roll_in_the_group_shows_each_die_and_the_total(stack: Stack) -> None:
    ana = stack.players[0]
    reply = await say(stack, ana, GROUP, "/roll 4d6kh3")
    seeded = random.Random(2026)
    faces = [seeded.randint(1, 6) for _ in range(4)]
    text = reply["text"]
    assert "4d6kh3" in text
    assert f"Total: {sum(sorted(faces)[1:])}" in text
    assert all(str(face) in text for face in faces)
    struck = [e for e in reply["entities"] if e["type"] == "strikethrough"]
    assert len(struck) == 1  # the dropped lowest die
    assert await RollRecord.all().count() == 1


@pytest.mark.parametrize(
    ("notation", "hint"),
    [
        ("banana", "couldn't read"),
        ("1001d6", "too big"),
        ("d1001", "too big"),
        ("2d6 3", "couldn't read"),
        ("<b>2d6</b>", "couldn't read"),
    ],
)
async def test_bad_rolls_get_a_short_friendly_answer_and_change_nothing(
    stack: Stack, notation: str, hint: str
) -> None:
    reply = await say(stack, stack.players[0], GROUP, f"/roll {notation}")
    assert hint in reply["text"]
    assert len(reply["text"]) < 200
    assert await RollRecord.all().count() == 0


async def test_roll_with_the_bot_username_and_several_terms(stack: Stack) -> None:
    reply = await say(
        stack, stack.players[1], GROUP, f"/roll@{stack.api.username} 2d20kl1 + 1d4 - 2 for the door"
    )
    assert "2d20kl1 + 1d4 - 2" in reply["text"] and "for the door" in reply["text"]


async def test_names_and_labels_with_html_are_shown_as_text(stack: Stack) -> None:
    html_player = next(p for p in stack.api.players.values() if "<" in p.first_name)
    reply = await say(stack, html_player.id, GROUP, "/roll d6 <i>sneaky</i> & bold")
    assert html_player.first_name in reply["text"]
    assert "<i>sneaky</i> & bold" in reply["text"]


async def test_start_in_private_greets_and_offers_the_sheet_as_a_web_app(stack: Stack) -> None:
    ana = stack.players[0]
    reply = await say(stack, ana, ana, "/start")
    assert "Hello" in reply["text"] and "/roll" in reply["text"]
    button = reply["reply_markup"]["inline_keyboard"][0][0]
    assert button["web_app"]["url"].startswith(stack.origin + "/app")


async def test_help_works_in_the_group(stack: Stack) -> None:
    reply = await say(stack, stack.players[0], GROUP, "/help")
    assert "4d6kh3" in reply["text"]
    assert "/story — the host shares the campaign's story" in reply["text"]
    assert "/story off withdraws it" in reply["text"]


async def test_help_lists_every_game_with_the_one_played_here_first(stack: Stack) -> None:
    await say(stack, stack.players[0], GROUP, "/newgame threat")
    text = (await say(stack, stack.players[0], GROUP, "/help"))["text"]
    games = [line for line in text.splitlines() if " — /newgame " in line]
    assert len(games) == 4 and "(playing here)" in games[0] and "threat" in games[0]
    assert "/threat" in text and "/act" in text and "/check" in text


async def test_commands_are_registered_for_private_chats_and_groups(stack: Stack) -> None:
    private = {c["command"] for c in stack.api.commands("all_private_chats")}
    group = {c["command"] for c in stack.api.commands("all_group_chats")}
    assert {"start", "help", "roll", "sheet"} <= private
    assert {"help", "roll", "sheet"} <= group and "start" not in group


async def test_open_sheet_from_the_group_greets_the_player_by_name(stack: Stack) -> None:
    ana = stack.api.players[stack.players[0]]
    await say(stack, ana.id, GROUP, "/roll 2d6")
    reply = await say(stack, ana.id, GROUP, "/sheet")
    button = reply["reply_markup"]["inline_keyboard"][0][0]
    assert button["url"].startswith(f"https://t.me/{stack.api.username}")
    launch = stack.api.open_web_app(ana.id, button["url"], from_chat_id=GROUP)
    assert launch.startswith(stack.origin + "/app")
    init_data = parse_qs(urlsplit(launch).fragment)["tgWebAppData"][0]
    async with aiohttp.ClientSession() as http:
        async with http.get(
            f"{stack.origin}/app/home", headers={"Authorization": f"tma {init_data}"}
        ) as response:
            page = await response.text()
            assert response.status == 200
        async with http.get(
            f"{stack.origin}/app/home", headers={"Authorization": "tma " + init_data[:-3] + "abc"}
        ) as bad:
            assert bad.status == 401
            assert ana.first_name not in await bad.text()
    assert f"Hello, {ana.first_name}" in page
    assert "The Table" in page and "2d6" in page


async def test_updates_in_one_chat_are_answered_in_order(stack: Stack) -> None:
    ana = stack.players[0]
    for sides in (4, 6, 8, 10, 12):
        await stack.api.send_text(ana, GROUP, f"/roll 1d{sides}")
    seen = []
    while len(seen) < 5:
        message = await stack.api.wait_for_message(GROUP, by_bot(stack), timeout=10)
        seen.append(message["text"].split("rolls ", 1)[1].split()[0])
    assert seen == ["1d4", "1d6", "1d8", "1d10", "1d12"]
