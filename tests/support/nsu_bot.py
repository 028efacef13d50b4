"""Playing No Stone Unturned through the local Bot API server, as players do.

Helpers shared by the NSU end-to-end tests: say a command, press a button,
reply to a panel, wait for the bot; seat three players; build the world
through the group panels; make a character step by step in private. Player
ids follow :func:`tgbot.sandbox.fake_api.default_cast`: Alice (1001, the host),
"<b>Bo</b> & Co" (1002, HTML in the name) and Chidi (1003).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.rules.rng import ScriptedRng
from tests.support.stack import GROUP, Stack

ALICE, BO, CHIDI = 1001, 1002, 1003
PLAYERS = (ALICE, BO, CHIDI)
TIMEOUT = 20  # seconds; generous for loaded CI machines
Json = dict[str, Any]


class Faces(ScriptedRng):
    """Scripted dice the test tops up before each step that rolls."""

    def push(self, *faces: int) -> None:
        self._values.extend(faces)


def card(pid: int, n: int) -> tuple[str, str, str, str, str]:
    """The five fields of a player's n-th location card (title first)."""
    return (
        f"Title-{pid}-{n}",
        f"Description-{pid}-{n} <with> & tags",
        f"Harmed-{pid}-{n}",
        f"Danger-{pid}-{n}",
        f"Treasure-{pid}-{n}",
    )


def message(stack: Stack, chat: int, message_id: int) -> Json:
    return next(m for m in stack.api.messages(chat) if m["message_id"] == message_id)


def buttons(msg: Json, *, undo: bool = False) -> list[Json]:
    """A message's inline buttons (the ``↩ Undo`` under a panel only with ``undo``)."""
    rows = (msg.get("reply_markup") or {}).get("inline_keyboard", [])
    return [b for row in rows for b in row if undo or not b["text"].startswith("↩ Undo")]


def find_button(msg: Json, label: str) -> Json:
    for b in buttons(msg, undo=True):
        if label in b["text"]:
            return b
    raise AssertionError(f"no button {label!r} in {[b['text'] for b in buttons(msg)]}")


async def say(stack: Stack, user: int, text: str, chat: int = GROUP) -> Json:
    """Send a message and return the bot's next message in that chat."""
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
    """Reply to a panel and wait for the panel to be redrawn."""
    mark = stack.api.mark()
    await stack.api.reply_to(user, chat, message_id, text)
    return await edited(stack, chat, message_id, mark)


async def reply_refused(stack: Stack, user: int, chat: int, message_id: int, text: str) -> Json:
    """Reply to a panel and return the bot's answer to that reply."""
    mark = stack.api.mark()
    sent = await stack.api.reply_to(user, chat, message_id, text)

    def answer(m: Json) -> bool:
        return bool((m.get("reply_to_message") or {}).get("message_id") == sent["message_id"])

    return await stack.api.wait_for_message(chat, answer, timeout=TIMEOUT, since=mark)


async def private_panel(stack: Stack, user: int, since: int) -> Json:
    return await stack.api.wait_for_message(user, timeout=TIMEOUT, since=since)


def texts(stack: Stack, chat: int) -> str:
    """Every message in a chat as it stands now, one text."""
    return "\n".join((m.get("text") or m.get("caption") or "") for m in stack.api.messages(chat))


async def seat_three(stack: Stack) -> None:
    """Alice starts a game in the group; Bo and Chidi open the bot and join."""
    started = await say(stack, ALICE, "/newgame nsu")
    assert "No Stone Unturned" in started["text"]
    for pid in (BO, CHIDI):
        await stack.api.start_bot(pid)
        await stack.api.wait_for_message(pid, timeout=TIMEOUT)
        assert "joined" in (await say(stack, pid, "/join"))["text"]


async def build_world(
    stack: Stack,
    faces: Faces | None = None,
    deal: Sequence[int] = (),
    danger_reward: Sequence[int] = (),
    *,
    locations_in_private: bool = False,
) -> int:
    """Worldbuilding from /begin to the rolled map; returns the panel's message id.

    With ``faces``, the shuffle (``deal``) and the Danger and Reward dice
    (``danger_reward``) are scripted, and each step must use exactly those. With
    ``locations_in_private``, players write their locations after /locations in
    their private chat instead of the board's button.
    """
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
    prompts: dict[int, int] = {}
    for pid in PLAYERS:
        mark = stack.api.mark()
        if locations_in_private:
            await stack.api.send_text(pid, pid, "/locations")
        else:
            answer = await press_only(stack, pid, GROUP, board, "Write my locations")
            assert "private" in answer["text"]
        cards = (await private_panel(stack, pid, mark))["message_id"]
        prompts[pid] = cards
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
    if faces is not None:
        faces.push(*deal)
    mapped = await press(stack, BO, GROUP, board, "3 wide")
    assert "D? R?" in mapped["text"]
    if faces is not None:
        assert faces.remaining == 0, "the deal used other dice than scripted"
        faces.push(*danger_reward)
    built = await press(stack, ALICE, GROUP, board, "Roll Danger")
    assert "The world is built" in built["text"]
    # each private locations prompt now tells the truth: the map is dealt, what comes next
    for pid, cards in prompts.items():
        now = await stack.api.wait_for_message(
            pid,
            lambda m, cards=cards: m["message_id"] == cards and "/character" in m["text"],
            timeout=TIMEOUT,
            since=start,
        )
        assert "The map is dealt: your locations lie face down on it" in now["text"], now
        assert "when the table deals the map" not in now["text"], now["text"]
    if faces is not None:
        assert faces.remaining == 0, "Danger and Reward used other dice than scripted"
    return board


async def make_character(
    stack: Stack, pid: int, board: int | None = None, name: str | None = None
) -> None:
    """Make a character in private: Body d8, Mind d6, Heart d4; Curious, Wary, Angry.

    Opened with /character in the group, or with the board's button when given.
    """
    name = name or f"Wren <{pid}>"
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
    await reply(stack, pid, pid, panel, name)
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
    assert f"{name} is ready" in finished["text"]
