"""Safety tools are anonymous wherever they are called, whatever the bot may do in the group.

Every way to call one (``/xcard``, ``/knock``, ``/lines``; in a group, in a forum topic, in
private; the bot an administrator with the right to delete messages, one without it, or
no administrator) is tried against one table, and what the group sees afterwards is
checked: no message of the bot answers the sender's command or names them, and the
command itself is gone whenever the bot may delete it. When it may not, the sender is
told in private how to stay anonymous.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.support.stack import GROUP, TIMEOUT, Stack, running_stack
from tests.tgbot.test_e2e_topics import open_forum
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.e2e, pytest.mark.db]

FORUM = -100555
ALICE, BO, CHIDI, ZOE = 1001, 1002, 1003, 1004
TOOLS = ("/xcard", "/knock", "/lines")
PLACES = ("group", "topic", "private")
RIGHTS = ("admin", "admin without delete", "member")
NOTICES = {"/xcard": "X-card.", "/knock": "Knock."}
# how each sender could be recognised: their names as Telegram shows them
NAMES = {BO: ("Bo",), ZOE: ("Zoë", "Drake", "zoe_drake")}


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def said(stack: Stack, user: int, chat: int, text: str, thread: int | None = None) -> str:
    mark = stack.api.mark()
    await stack.api.send_text(user, chat, text, thread_id=thread)
    found = await stack.api.wait_for_message(chat, timeout=TIMEOUT, since=mark)
    return str(found.get("text") or "")


async def two_tables(stack: Stack) -> int:
    """An NSU game in the group (Alice hosts, Bo plays) and one in a forum topic (Chidi
    hosts, Zoë plays); returns the topic's thread."""
    topic, _ = await open_forum(stack)
    assert "No Stone Unturned" in await said(stack, ALICE, GROUP, "/newgame nsu")
    assert "joined" in await said(stack, BO, GROUP, "/join")
    assert "No Stone Unturned" in await said(stack, CHIDI, FORUM, "/newgame nsu", topic)
    assert "joined" in await said(stack, ZOE, FORUM, "/join", topic)
    return topic


def pointing_at(
    stack: Stack, sender: int, command: dict[str, Any], chat: int, mark: int
) -> list[str]:
    """What the bot said in ``chat`` since ``mark`` that points at ``sender``."""
    found = []
    for event in stack.api.events_since(mark):
        message = event.get("message") or {}
        if event.get("chat_id") != chat or message.get("from", {}).get("id") != stack.api.bot_id:
            continue
        text = message.get("text") or message.get("caption") or ""
        answered = message.get("reply_to_message") or {}
        if answered.get("from", {}).get("id") == sender or (
            command and answered.get("message_id") == command.get("message_id")
        ):
            found.append(f"a reply to the sender: {text!r}")
        if any(name in text for name in NAMES[sender]):
            found.append(f"the sender's name: {text!r}")
        if "private chat" in text:
            found.append(f"a word about the sender's private chat: {text!r}")
        for entity in message.get("entities") or []:
            if (entity.get("user") or {}).get("id") == sender:
                found.append(f"a mention of the sender: {text!r}")
    return found


async def settled(stack: Stack, tool: str, where: str, sender: int, chat: int, mark: int) -> None:
    """Wait for everything the bot does about one call of ``tool``."""
    if tool in NOTICES:
        notice = NOTICES[tool]
        await stack.api.wait_for_message(
            chat, lambda m: notice in (m.get("text") or ""), timeout=TIMEOUT, since=mark
        )
        if where == "private":
            await stack.api.wait_for_message(
                sender,
                lambda m: "without your name" in (m.get("text") or ""),
                timeout=TIMEOUT,
                since=mark,
            )
    else:
        await stack.api.wait_for_message(
            sender,
            lambda m: "Lines and veils" in (m.get("text") or ""),
            timeout=TIMEOUT,
            since=mark,
        )


async def test_no_safety_tool_points_at_its_sender_in_any_place_with_any_rights(
    stack: Stack,
) -> None:
    topic = await two_tables(stack)
    for tool, where, rights in itertools.product(TOOLS, PLACES, RIGHTS):
        stack.api.bot_is_admin = rights != "member"
        stack.api.bot_deletes_messages = rights == "admin"
        for sender, chat, thread in ((BO, GROUP, None), (ZOE, FORUM, topic)):
            if (where, chat) in (("topic", GROUP), ("group", FORUM)):
                continue
            case = f"{tool} in the {where} ({'' if where == 'private' else rights}) by {sender}"
            mark = stack.api.mark()
            if where == "private":
                command = await stack.api.send_text(sender, sender, tool)
            else:
                command = await stack.api.send_text(sender, chat, tool, thread_id=thread)
            await settled(stack, tool, where, sender, chat, mark)
            if where != "private":
                if rights != "admin":  # the sender hears how to stay anonymous
                    told = await stack.api.wait_for_message(
                        sender,
                        lambda m: "could not remove" in (m.get("text") or ""),
                        timeout=TIMEOUT,
                        since=mark,
                    )
                    assert f"your {tool} from the group" in told["text"], case
                    assert "private chat" in told["text"] and "delete messages" in told["text"]
                visible = {m["message_id"] for m in stack.api.messages(chat)}
                if rights == "admin":
                    for _ in range(50):  # the deletion follows the commit
                        if command["message_id"] not in visible:
                            break
                        await stack.api._wait_change(0.1)
                        visible = {m["message_id"] for m in stack.api.messages(chat)}
                    assert command["message_id"] not in visible, case
                else:
                    assert command["message_id"] in visible, case  # not ours to delete
            await stack.api._wait_change(0.2)  # anything late would still be caught below
            assert pointing_at(stack, sender, command, chat, mark) == [], case


async def test_lines_from_someone_the_bot_cannot_write_to_is_answered_naming_nobody(
    stack: Stack,
) -> None:
    topic = await two_tables(stack)
    await stack.api.users.block_bot(ZOE)  # no private chat to write the line in
    mark = stack.api.mark()
    command = await stack.api.send_text(ZOE, FORUM, "/lines", thread_id=topic)
    told = await stack.api.wait_for_message(
        FORUM, lambda m: "written in private" in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    assert told["message_thread_id"] == topic  # in its topic, answering nobody's message
    assert "send /lines there" in told["text"]
    for _ in range(50):
        if all(m["message_id"] != command["message_id"] for m in stack.api.messages(FORUM)):
            break
        await stack.api._wait_change(0.1)
    assert all(m["message_id"] != command["message_id"] for m in stack.api.messages(FORUM))
    assert pointing_at(stack, ZOE, command, FORUM, mark) == []

    # the bot may not delete, and cannot write to her: the group still hears nothing of her
    stack.api.bot_deletes_messages = False
    mark = stack.api.mark()
    command = await stack.api.send_text(ZOE, FORUM, "/xcard", thread_id=topic)
    await stack.api.wait_for_message(
        FORUM, lambda m: "X-card." in (m.get("text") or ""), timeout=TIMEOUT, since=mark
    )
    await stack.api._wait_change(0.3)
    assert pointing_at(stack, ZOE, command, FORUM, mark) == []
    said = [e["message"]["text"] for e in stack.api.events_since(mark) if e.get("message")]
    assert not any("something private for you" in t for t in said), said
