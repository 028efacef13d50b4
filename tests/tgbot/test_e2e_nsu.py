"""No Stone Unturned end to end: worldbuilding, characters, the adventure, safety tools.

Three players through the local Bot API server: Alice (host), "<b>Bo</b> & Co"
(HTML in the name) and Chidi. Every card is written in private, and no group
message or other player's private chat ever shows a face-down card.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.campaigns.play import PlayerRef
from core.rules.nsu.campaign import campaign_of
from tests.support.nsu_bot import (
    ALICE,
    BO,
    CHIDI,
    PLAYERS,
    TIMEOUT,
    build_world,
    buttons,
    card,
    make_character,
    press,
    press_only,
    private_panel,
    say,
    seat_three,
    texts,
)
from tests.support.stack import GROUP, Stack, campaigns, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


def assert_no_faces(stack: Stack, hidden: Callable[[int, int], bool]) -> None:
    """No card face shows anywhere it shouldn't: the group, or another player's chat."""
    group = texts(stack, GROUP)
    for pid in PLAYERS:
        for n in (1, 2):
            if not hidden(pid, n):
                continue
            for value in card(pid, n):
                assert value not in group
                for other in PLAYERS:
                    if other != pid:
                        assert value not in texts(stack, other), (value, other)


async def test_a_table_builds_a_world_makes_characters_and_sets_out(stack: Stack) -> None:
    await seat_three(stack)
    board = await build_world(stack)
    assert_no_faces(stack, lambda pid, n: True)

    for pid in PLAYERS:
        await make_character(stack, pid, board if pid == CHIDI else None)

    # The adventure: head to the first reachable card; it flips.
    panel = await say(stack, ALICE, "/adventure")
    adventure = panel["message_id"]
    assert "At home" in panel["text"]
    mark = stack.api.mark()
    await press(stack, BO, GROUP, adventure, "➡️ Travel")
    flipped = await press(stack, BO, GROUP, adventure, "➡️")
    view = await campaigns(stack).require_current(GROUP)
    _, table = await campaigns(stack).table_for_viewer(view.app_token, PlayerRef(ALICE, "Alice"))
    world = campaign_of(table).require_world()
    here = world.card(world.current or "")
    author, number = (int(x) for x in here.title.split("-")[1:3])
    assert here.title in flipped["text"]
    assert f"Danger-{author}-{number}" not in flipped["text"]
    paint = await stack.api.wait_for_message(
        author, lambda m: "Paint the picture" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert f"Treasure-{author}-{number}" in paint["text"]
    assert_no_faces(stack, lambda pid, n: (pid, n) != (author, number))

    # Split up: Alice alone against the others; then switch focus.
    await press(stack, ALICE, GROUP, adventure, "Split up")
    await press(stack, ALICE, GROUP, adventure, f"▫️ Wren <{ALICE}>")  # her character
    split = await press(stack, CHIDI, GROUP, adventure, "✂️ Split")
    assert "On screen" in split["text"] and "Arbiters" in split["text"]
    on_screen_before = split["text"].split("On screen:")[1].split("\n")[0]
    switched = await press(stack, BO, GROUP, adventure, "Switch focus")
    assert switched["text"].split("On screen:")[1].split("\n")[0] != on_screen_before
    ticked = await press(stack, CHIDI, GROUP, adventure, "+1 tick")
    assert "1/8" in ticked["text"]

    # Someone outside the game cannot press.
    alert = await press_only(stack, 1004, GROUP, adventure, "Regroup")
    assert "/join" in alert["text"]

    # The map as a picture, with a button to open it in the Mini App.
    mark = stack.api.mark()
    await stack.api.send_text(ALICE, GROUP, "/map")
    photo = await stack.api.wait_for_message(
        GROUP, lambda m: "photo" in m, timeout=TIMEOUT, since=mark
    )
    assert "t.me/" in buttons(photo)[0]["url"]
    assert "The party is at L" in photo["caption"] and "outlined in blue." in photo["caption"]

    # The X-card from a panel button: posted to the group, naming nobody.
    mark = stack.api.mark()
    answer = await press_only(stack, CHIDI, GROUP, adventure, "X-card")
    assert "Nobody" in answer["text"]
    notice = await stack.api.wait_for_message(
        GROUP, lambda m: "X-card" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert "Chidi" not in notice["text"]

    # Lines and veils, written in private, posted anonymously.
    mark = stack.api.mark()
    await stack.api.send_text(BO, BO, "/lines")
    lines = (await private_panel(stack, BO, mark))["message_id"]
    await press(stack, BO, BO, lines, "Veil")
    mark = stack.api.mark()
    await stack.api.reply_to(BO, BO, lines, "Spiders & <webs>")
    posted = await stack.api.wait_for_message(
        GROUP, lambda m: "veil" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert "Spiders & <webs>" in posted["text"] and "Bo" not in posted["text"]

    # /status shows the campaign at a glance.
    mark = stack.api.mark()
    await stack.api.send_text(CHIDI, GROUP, "/status")
    glance = await stack.api.wait_for_message(GROUP, timeout=TIMEOUT, since=mark)
    assert "No Stone Unturned" in glance["text"] and "flipped" in glance["text"]
    assert board > 0


async def test_sheet_opens_the_campaign_in_the_mini_app(stack: Stack) -> None:
    before = await say(stack, ALICE, "/sheet")
    chat_link = buttons(before)[0]["url"]
    await say(stack, ALICE, "/newgame nsu")
    token = (await campaigns(stack).require_current(GROUP)).app_token
    in_group = await say(stack, ALICE, "/sheet")
    link = buttons(in_group)[0]["url"]
    assert link.startswith("https://t.me/") and f"startapp={token}" in link and link != chat_link
    in_private = await say(stack, ALICE, "/sheet", chat=ALICE)
    assert buttons(in_private)[0]["web_app"]["url"].endswith(f"?startapp={token}")


@pytest.fixture
async def admin_stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast(), bot_is_admin=True) as running:
        yield running


async def test_xcard_and_knock_commands_name_nobody(admin_stack: Stack) -> None:
    stack = admin_stack
    await say(stack, ALICE, "/newgame nsu")
    await stack.api.start_bot(BO)
    await stack.api.wait_for_message(BO, timeout=TIMEOUT)
    await say(stack, BO, "/join")

    # In the group the command itself would give Bo away: the bot deletes it.
    mark = stack.api.mark()
    sent = await stack.api.send_text(BO, GROUP, "/xcard")
    notice = await stack.api.wait_for_message(
        GROUP, lambda m: "X-card" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert "Bo" not in notice["text"]
    assert all(m["message_id"] != sent["message_id"] for m in stack.api.messages(GROUP))

    # From the private chat: the group hears a knock, Bo gets a quiet confirmation.
    mark = stack.api.mark()
    await stack.api.send_text(BO, BO, "/knock")
    knock = await stack.api.wait_for_message(
        GROUP, lambda m: "Knock" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert "Bo" not in knock["text"]
    confirm = await stack.api.wait_for_message(BO, timeout=TIMEOUT, since=mark)
    assert "without your name" in confirm["text"]

    # Someone outside the game cannot play it for the table.
    refused = await say(stack, CHIDI, "/xcard")
    assert "not in this game" in refused["text"]
