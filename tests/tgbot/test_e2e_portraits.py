"""Posts in character under the character's portrait, through the local Bot API server:
``/say`` sends the portrait with the post as its caption (uploaded once, then sent by
Telegram's id of it), a post longer than a caption goes as text alone and whole, the
photo goes through the outbox, and an inline post "as Mirra" is the portrait too."""

from __future__ import annotations

import asyncio
import struct
import zlib
from typing import Any

import pytest

from core.campaigns.play import PlayerRef
from core.store.models import Campaign, LogEntry, OutboxRow, Portrait
from tests.support.nsu_bot import Faces
from tests.support.stack import GROUP, TIMEOUT, Stack, cast_with_olga, from_bot, running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.db]

ALICE, BO = 1001, 1002


def png(shade: int) -> bytes:
    """A small real PNG, 3x2 grey pixels of ``shade``."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + bytes([shade]) * 3 for _ in range(2))
    header = struct.pack(">IIBBBBB", 3, 2, 8, 0, 0, 0, 0)
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"IDAT", zlib.compress(rows)),
            chunk(b"IEND", b""),
        ]
    )


@pytest.fixture
def faces() -> Faces:
    return Faces([])


@pytest.fixture
async def stack(db: str, faces: Faces) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=cast_with_olga(), rng=faces) as running:
        yield running


async def say(stack: Stack, user: int, text: str) -> dict[str, Any]:
    """``user`` sends ``text`` in the group; the bot's next new message there."""
    mark = stack.api.mark()
    await stack.api.send_text(user, GROUP, text)
    return await stack.api.wait_for_message(
        GROUP, lambda m: from_bot(stack)(m) and "edit_date" not in m, timeout=TIMEOUT, since=mark
    )


async def set_portrait(stack: Stack, user: int, data: bytes) -> None:
    """``user`` gives their character a portrait (the Mini App's use case)."""
    assert stack.runtime.application is not None
    campaigns = stack.runtime.application.deps.campaigns
    game = await Campaign.get()
    p = stack.api.players[user]
    player = PlayerRef(p.id, p.first_name, p.last_name, p.username)
    await campaigns.portraits.set(game.app_token, player, user, data)


def uploads(stack: Stack) -> int:
    """How many files the bot has uploaded to Telegram."""
    return sum(1 for f in stack.api._files.values() if f.data is not None)


async def kept_id(file_id: str) -> bool:
    """Whether the portrait keeps Telegram's ``file_id``: kept once Telegram's answer is
    read, a moment after the message shows in the chat."""
    for _ in range(50):
        if (await Portrait.get()).file_id == file_id:
            return True
        await asyncio.sleep(0.1)
    return False


async def test_say_posts_under_the_portrait_uploaded_once(stack: Stack, faces: Faces) -> None:
    await say(stack, ALICE, "/newgame d20")
    await set_portrait(stack, ALICE, png(10))
    faces.push(12)
    posted = await say(stack, ALICE, "/say I swing [1d20+5]!")
    assert posted["caption"] == "💬 Alice Marsh: I swing [1d20+5 (12) = 17]!"
    assert "text" not in posted
    assert [e["type"] for e in posted["caption_entities"]] == ["bold", "bold", "bold"]
    first = posted["photo"][-1]["file_id"]
    assert stack.api.storage.file_by_id(first) == (png(10), "image/png")
    assert await kept_id(first)  # Telegram's id of it, kept (as Telegram answered)
    assert uploads(stack) == 1
    # the next post sends Telegram's id: nothing is uploaded again
    again = await say(stack, ALICE, "/say And again.")
    assert again["caption"] == "💬 Alice Marsh: And again."
    assert again["photo"][-1]["file_id"] == first and uploads(stack) == 1
    # every row went out, the photos marked sent as their messages were
    rows = await OutboxRow.filter(kind="portrait")
    assert len(rows) == 2 and all(r.sent for r in rows)
    assert await OutboxRow.filter(sent=False).count() == 0
    # a new portrait is uploaded once more, then its own id is reused
    await set_portrait(stack, ALICE, png(200))
    replaced = await say(stack, ALICE, "/say New look.")
    second = replaced["photo"][-1]["file_id"]
    assert second != first and stack.api.storage.file_by_id(second) == (png(200), "image/png")
    assert uploads(stack) == 2 and await kept_id(second)
    # a player without a portrait posts text, as before
    await say(stack, BO, "/join")
    plain = await say(stack, BO, "/say Hi.")
    assert plain["text"] == "💬 <b>Bo</b> & Co: Hi." and "photo" not in plain


async def test_a_post_longer_than_a_caption_goes_as_text_alone(stack: Stack) -> None:
    await say(stack, ALICE, "/newgame d20")
    await set_portrait(stack, ALICE, png(10))
    words = "word " * 220  # 1100 characters: a message, not a caption
    posted = await say(stack, ALICE, "/say " + words)
    assert "photo" not in posted
    assert posted["text"] == "💬 Alice Marsh: " + words.strip()
    assert uploads(stack) == 0
    fits = await say(stack, ALICE, "/say " + "w" * (1024 - len("💬 Alice Marsh: ") - 1))
    assert "photo" in fits and len(fits["caption"]) == 1023  # one emoji counts two
    refused = await say(stack, ALICE, "/say " + "a" * 4090)
    assert "longer than Telegram allows (4096" in refused["text"]


async def test_a_removed_portrait_leaves_the_post_as_text(stack: Stack) -> None:
    await say(stack, ALICE, "/newgame d20")
    await set_portrait(stack, ALICE, png(10))
    await say(stack, ALICE, "/say Hello.")
    await Portrait.all().delete()
    posted = await say(stack, ALICE, "/say Still here.")
    assert posted["text"] == "💬 Alice Marsh: Still here." and "photo" not in posted


async def test_an_inline_post_as_mirra_under_her_portrait(stack: Stack, faces: Faces) -> None:
    await say(stack, ALICE, "/newgame d20")
    await set_portrait(stack, ALICE, png(10))
    # before Telegram knows the portrait, the inline post is text
    asked = await stack.api.inline_query(ALICE, "Hello", GROUP)
    answer = await asked.answered(timeout=10)
    [result] = [r for r in answer["results"] if r["title"] == "💬 as Alice Marsh"]
    assert result["type"] == "article"
    first = await say(stack, ALICE, "/say I am here.")  # the portrait's first trip
    known = first["photo"][-1]["file_id"]
    assert await kept_id(known)
    asked = await stack.api.inline_query(ALICE, "I strike [1d20+5]", GROUP)
    answer = await asked.answered(timeout=10)
    [result] = [r for r in answer["results"] if r["title"] == "💬 as Alice Marsh"]
    assert result["type"] == "photo" and result["photo_file_id"] == known
    assert result["message"]["caption"] == "💬 Alice Marsh speaks…"
    faces.push(15)
    posted = await stack.api.choose_inline_result(ALICE, asked.query_id, result["id"], GROUP)
    assert posted["photo"][-1]["file_id"] == known
    edited = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == posted["message_id"] and "edit_date" in m, timeout=10
    )
    assert edited["caption"] == "💬 Alice Marsh: I strike [1d20+5 (15) = 20]"
    assert edited["via_bot"]["id"] == stack.api.bot_id


async def test_an_inline_post_too_long_for_a_caption_is_refused(stack: Stack, faces: Faces) -> None:
    await say(stack, ALICE, "/newgame d20")
    await set_portrait(stack, ALICE, png(10))
    await say(stack, ALICE, "/say I am here.")
    query = "[12d20] " * 20  # each bracket shows its twelve dice: past a caption
    asked = await stack.api.inline_query(ALICE, query, GROUP)
    answer = await asked.answered(timeout=10)
    [result] = [r for r in answer["results"] if r["type"] == "photo"]
    faces.push(*([20] * 240))
    posted = await stack.api.choose_inline_result(ALICE, asked.query_id, result["id"], GROUP)
    edited = await stack.api.wait_for_message(
        GROUP, lambda m: m["message_id"] == posted["message_id"] and "edit_date" in m, timeout=10
    )
    assert edited["caption"] == (
        "🤔 That post would be longer than a picture's caption allows (1024 characters). "
        "Post it with /say, where it goes as text alone, or split it in two."
    )
    assert await LogEntry.filter(kind="said").count() == 1  # only the /say: nothing saved
