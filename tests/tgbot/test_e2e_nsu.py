"""No Stone Unturned end to end: worldbuilding, characters, the adventure, safety tools.

Three players through the local Bot API server: Alice (host), "<b>Bo</b> & Co"
(HTML in the name) and Chidi. Every card is written in private, and no group
message or other player's private chat ever shows a face-down card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from core.campaigns import Campaigns
from core.play import PlayerRef
from core.rules.nsu.campaign import campaign_of
from tests.support.stack import GROUP, Stack, running_stack
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO, CHIDI = 1001, 1002, 1003
PLAYERS = (ALICE, BO, CHIDI)
TIMEOUT = 20  # seconds; generous for loaded CI machines
Json = dict[str, Any]


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


def campaigns(stack: Stack) -> Campaigns:
    assert stack.runtime.application is not None
    return stack.runtime.application.deps.campaigns


def card(pid: int, n: int) -> tuple[str, str, str, str, str]:
    return (
        f"Title-{pid}-{n}",
        f"Description-{pid}-{n} <with> & tags",
        f"Harmed-{pid}-{n}",
        f"Danger-{pid}-{n}",
        f"Treasure-{pid}-{n}",
    )


def message(stack: Stack, chat: int, message_id: int) -> Json:
    return next(m for m in stack.api.messages(chat) if m["message_id"] == message_id)


def buttons(msg: Json) -> list[Json]:
    rows = (msg.get("reply_markup") or {}).get("inline_keyboard", [])
    return [b for row in rows for b in row]


def find_button(msg: Json, label: str) -> Json:
    for b in buttons(msg):
        if label in b["text"]:
            return b
    raise AssertionError(f"no button {label!r} in {[b['text'] for b in buttons(msg)]}")


async def say(stack: Stack, user: int, text: str, chat: int = GROUP) -> Json:
    await stack.api.send_text(user, chat, text)
    return await stack.api.wait_for_message(chat, timeout=TIMEOUT)


async def edited(stack: Stack, chat: int, message_id: int, since: int) -> Json:
    def same(m: Json) -> bool:
        return bool(m["message_id"] == message_id)

    return await stack.api.wait_for_message(chat, same, timeout=TIMEOUT, since=since)


async def press(stack: Stack, user: int, chat: int, message_id: int, label: str) -> Json:
    """Press a panel button and wait for the panel to be redrawn."""
    data = find_button(message(stack, chat, message_id), label)["callback_data"]
    mark = stack.api.mark()
    pressed = await stack.api.press_button(user, chat, message_id, data)
    await pressed.answered(TIMEOUT)
    return await edited(stack, chat, message_id, mark)


async def press_only(stack: Stack, user: int, chat: int, message_id: int, label: str) -> Json:
    """Press a button and return the bot's answer (for alerts and buttons outside panels)."""
    data = find_button(message(stack, chat, message_id), label)["callback_data"]
    pressed = await stack.api.press_button(user, chat, message_id, data)
    return await pressed.answered(TIMEOUT)


async def reply(stack: Stack, user: int, chat: int, message_id: int, text: str) -> Json:
    mark = stack.api.mark()
    await stack.api.reply_to(user, chat, message_id, text)
    return await edited(stack, chat, message_id, mark)


async def reply_refused(stack: Stack, user: int, chat: int, message_id: int, text: str) -> Json:
    mark = stack.api.mark()
    sent = await stack.api.reply_to(user, chat, message_id, text)

    def answer(m: Json) -> bool:
        return bool((m.get("reply_to_message") or {}).get("message_id") == sent["message_id"])

    return await stack.api.wait_for_message(chat, answer, timeout=TIMEOUT, since=mark)


async def private_panel(stack: Stack, user: int, since: int) -> Json:
    return await stack.api.wait_for_message(user, timeout=TIMEOUT, since=since)


def texts(stack: Stack, chat: int) -> str:
    return "\n".join((m.get("text") or m.get("caption") or "") for m in stack.api.messages(chat))


async def seat_three(stack: Stack) -> None:
    started = await say(stack, ALICE, "/newgame nsu")
    assert "No Stone Unturned" in started["text"]
    for pid in (BO, CHIDI):
        await stack.api.start_bot(pid)
        await stack.api.wait_for_message(pid, timeout=TIMEOUT)
        assert "joined" in (await say(stack, pid, "/join"))["text"]


async def build_world(stack: Stack) -> int:
    """Worldbuilding from /begin to the rolled map; returns the panel's message id."""
    await stack.api.start_bot(ALICE)
    await stack.api.wait_for_message(ALICE, timeout=TIMEOUT)
    refused = await say(stack, BO, "/begin")
    assert "host" in refused["text"]
    panel = await say(stack, ALICE, "/begin")
    board = panel["message_id"]
    assert "step 1 of 9" in panel["text"] and "tone" in panel["text"]

    # The tone talk: Chidi leaves out knocks; Bo writes the tone down; the others agree.
    toggled = await press(stack, CHIDI, GROUP, board, "Knocks")
    assert "▫️ Knocks" in str(toggled["reply_markup"])
    after = await reply(stack, BO, GROUP, board, "Weird & <hopeful>")
    assert "Weird & <hopeful>" in after["text"]
    await press(stack, ALICE, GROUP, board, "Agree")
    bans = await press(stack, CHIDI, GROUP, board, "Agree")
    assert "ban" in bans["text"].lower() and "<b>Bo</b> & Co" in bans["text"]

    # One ban each, or a pass.
    await reply(stack, ALICE, GROUP, board, "No dragons")
    await press(stack, BO, GROUP, board, "Pass")
    again = await press_only(stack, BO, GROUP, board, "Pass")
    assert "done your part" in again["text"]
    settlement = await reply(stack, CHIDI, GROUP, board, "No <script>")
    assert "No <script>" in settlement["text"]
    assert "Alice Marsh's turn" in settlement["text"]

    # The settlement round: turns in order, ending on two passes in a row.
    wrong = await reply_refused(stack, BO, GROUP, board, "Bo jumps in")
    assert "another player's turn" in wrong["text"]
    await reply(stack, ALICE, GROUP, board, "Walls of old buses")
    turn = await reply(stack, BO, GROUP, board, "A bell at noon")
    assert "Chidi Okafor's turn" in turn["text"]
    await press(stack, CHIDI, GROUP, board, "Pass")
    scope = await press(stack, ALICE, GROUP, board, "Pass")
    assert "scope" in scope["text"].lower()

    # Scope, resources, the abundance.
    await reply(stack, ALICE, GROUP, board, "A week between trips")
    await press(stack, BO, GROUP, board, "Next question")
    await press(stack, BO, GROUP, board, "Scope done")
    resources = ("Water", "Salt", "Music", "Light", "Trust")
    for pid, name in zip((ALICE, BO, CHIDI, ALICE, BO), resources, strict=True):
        await reply(stack, pid, GROUP, board, name)
    locations = await press(stack, CHIDI, GROUP, board, "Music")
    assert "in private" in locations["text"]

    # Two locations each, written in private.
    start = stack.api.mark()
    for pid in PLAYERS:
        mark = stack.api.mark()
        answer = await press_only(stack, pid, GROUP, board, "Write my locations")
        assert "private" in answer["text"]
        cards = (await private_panel(stack, pid, mark))["message_id"]
        for n in (1, 2):
            for value in card(pid, n):
                await reply(stack, pid, pid, cards, value)
        done = message(stack, pid, cards)
        assert "Both written" in done["text"] and f"Title-{pid}-2" in done["text"]
    # The group's board was redrawn as cards were written, without showing any.
    await stack.api.wait_for_message(
        GROUP,
        lambda m: "How many cards wide" in (m.get("text") or ""),
        timeout=TIMEOUT,
        since=start,
    )

    # Deal face down, then roll Danger and Reward.
    mapped = await press(stack, BO, GROUP, board, "3 wide")
    assert "D? R?" in mapped["text"]
    built = await press(stack, ALICE, GROUP, board, "Roll Danger")
    assert "The world is built" in built["text"]
    return board


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


async def make_character(stack: Stack, pid: int, board: int | None = None) -> None:
    mark = stack.api.mark()
    if board is None:
        # The group's confirmation comes once the private panel is ready for replies.
        await stack.api.send_text(pid, GROUP, "/character")
        await stack.api.wait_for_message(
            GROUP, lambda m: "📬" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
        )
    else:
        answer = await press_only(stack, pid, GROUP, board, "My character")
        assert "private" in answer["text"]
    panel = (await private_panel(stack, pid, mark))["message_id"]
    await reply(stack, pid, pid, panel, f"Wren <{pid}>")
    await reply(stack, pid, pid, panel, "they/them")
    await reply(stack, pid, pid, panel, "Tall, in a coat of maps")
    await reply(stack, pid, pid, panel, "Curious, Wary, Angry")
    await press(stack, pid, pid, panel, "Body d8 · Mind d6 · Heart d4")
    await reply(stack, pid, pid, panel, "My compass\n-\nThe bell")
    rumours = await reply(stack, pid, pid, panel, "Climbing, Talking, Fixing")
    assert f"Title-{pid}-" in rumours["text"]
    await reply(stack, pid, pid, panel, "Heard of it at the market")
    await reply(stack, pid, pid, panel, "A trader's tale")
    finished = await press(stack, pid, pid, panel, "Finish")
    assert f"Wren <{pid}> is ready" in finished["text"]


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
    await press(stack, ALICE, GROUP, adventure, "Alice")
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
