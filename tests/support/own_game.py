"""A game of a group's own system, started through the bot: the definition written with
``/system new``, then ``/newgame KEY``; and dice whose faces a test pushes as it goes."""

from __future__ import annotations

from tests.support.dice import PushedDice as Dice
from tests.support.own_system import OUR_GAME
from tests.support.stack import Stack, say

__all__ = ["OUR_GAME", "Dice", "start_own_game"]


async def start_own_game(
    stack: Stack, host: int, chat: int, text: str = OUR_GAME, key: str = "mine"
) -> str:
    """``host`` writes ``text`` as the group's own system and starts a game of it; the
    bot's answer to ``/newgame``."""
    kept = await say(stack, host, chat, "/system new\n" + text)
    assert "version 1" in kept["text"] or "версия 1" in kept["text"], kept["text"]
    started = await say(stack, host, chat, f"/newgame {key}")
    return str(started["text"])
