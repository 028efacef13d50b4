"""Every command and button with hostile input: nothing crashes, every answer is friendly."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from tests.support.stack import GROUP, Stack, running_stack
from tgbot.app import features
from tgbot.render.errors import UNEXPECTED
from tgbot.sandbox.fake_api import SandboxError

pytestmark = [pytest.mark.e2e, pytest.mark.db, pytest.mark.slow]

NASTY = [
    "",
    "0",
    "-1",
    "999999999999999999999",
    "1e309",
    "NaN",
    "d0",
    "1001d6",
    "99d2t",
    "0d9t",
    "<b>bold</b>",
    "</i>",
    "&amp;",
    "& <",
    "<script>alert(1)</script>",
    "a" * 300,
    "Ā̴͙̓ž̷",
    "🎲🎲🎲",
    "\u202eevil",
    "@stonetable_bot",
    "/start",
    "3d2t",
    "d20 adv",
    "strong +2 dc15",
    "vs14",
    "d8 d6 d6 d10",
    "nsu",
    "threat",
    "cortex",
    "d20",
    "counter",
    "  ",
    "\t",
    "join_AAAA",
    "--keep 99",
]


async def quiet(stack: Stack) -> None:
    """Wait until the bot has handled every update, answers included.

    The bot polls: it confirms a batch (the update leaves ``pending_updates``) only with
    its next getUpdates, after it handled the whole batch, and what an update causes is
    sent while it is handled; so an empty queue means the answers are in.
    """
    for _ in range(1500):  # 15 s: a busy machine
        if not stack.api.pending_updates():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the bot never took {stack.api.pending_updates()}")


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_random_commands_buttons_and_replies_never_crash(
    db: str, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(seed)
    commands = sorted({spec.name for f in features() for spec in f.COMMANDS})
    caplog.set_level(logging.ERROR, logger="tgbot")
    async with running_stack(db) as stack:
        players = stack.players
        for _ in range(120):
            player = rng.choice(players)
            chat = GROUP if rng.random() < 0.8 else player
            roll = rng.random()
            try:
                if roll < 0.6:
                    words = [rng.choice(NASTY) for _ in range(rng.randint(0, 3))]
                    text = f"/{rng.choice(commands)} {' '.join(words)}".strip()
                    await stack.api.send_text(player, chat, text)
                elif roll < 0.85:
                    messages = [
                        m
                        for m in stack.api.messages(chat)
                        if (m.get("reply_markup") or {}).get("inline_keyboard")
                    ]
                    if messages:
                        message = rng.choice(messages[-5:])
                        buttons = [
                            b
                            for row in message["reply_markup"]["inline_keyboard"]
                            for b in row
                            if "callback_data" in b
                        ]
                        if buttons:
                            await stack.api.press_button(
                                player,
                                chat,
                                message["message_id"],
                                rng.choice(buttons)["callback_data"],
                            )
                else:
                    bot_messages = [
                        m for m in stack.api.messages(chat) if m["from"]["id"] == stack.api.bot_id
                    ]
                    if bot_messages:
                        await stack.api.reply_to(
                            player,
                            chat,
                            rng.choice(bot_messages[-5:])["message_id"],
                            rng.choice(NASTY) or "x",
                        )
            except SandboxError:
                pass  # something no real Telegram client could send
            await quiet(stack)
        texts = [m.get("text", "") for c in (GROUP, *players) for m in stack.api.messages(c)]
        alerts = [a.get("text") or "" for p in players for a in stack.api.alerts_for(p)]
    assert not [t for t in texts + alerts if UNEXPECTED in t]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors][:3]
