"""A game of a group's own system, started through the bot: the definition written with
``/system new``, then ``/newgame KEY``; and dice whose faces a test pushes as it goes."""

from __future__ import annotations

from collections import deque

from tests.support.stack import Stack, say

OUR_GAME = """key = "mine"
version = 1
source = "our own table's roll"
example = "+1"
value = "total(roll) + mod"
name = { en = "Our game", ru = "Наша игра" }
about = { en = "2d6 plus a modifier.", ru = "2к6 плюс модификатор." }

[[inputs]]
key = "mod"
name = { en = "modifier", ru = "модификатор" }
default = 0
min = -2
max = 3

[dice.roll]
count = "2"
die = "d6"

[[outcomes]]
key = "good"
min = 8
label = { en = "Good", ru = "Хорошо" }

[[outcomes]]
key = "bad"
max = 7
label = { en = "Bad", ru = "Плохо" }
"""
"""A group's own system: 2d6 plus a modifier, Good from 8 (its key ``mine``)."""


class Dice:
    """The faces the next rolls show, pushed by the test as it goes."""

    def __init__(self) -> None:
        self.faces: deque[int] = deque()

    def push(self, *faces: int) -> None:
        self.faces.extend(faces)

    def randint(self, low: int, high: int) -> int:
        if not self.faces:
            raise AssertionError("the test did not say which faces come next")
        face = self.faces.popleft()
        assert low <= face <= high, (face, low, high)
        return face


async def start_own_game(
    stack: Stack, host: int, chat: int, text: str = OUR_GAME, key: str = "mine"
) -> str:
    """``host`` writes ``text`` as the group's own system and starts a game of it; the
    bot's answer to ``/newgame``."""
    kept = await say(stack, host, chat, "/system new\n" + text)
    assert "version 1" in kept["text"] or "версия 1" in kept["text"], kept["text"]
    started = await say(stack, host, chat, f"/newgame {key}")
    return str(started["text"])
