"""Dice whose faces the test says, for the bot's injected RNG in end-to-end tests."""

from collections import deque


class PushedDice:
    """The faces the next rolls show, pushed by the test as it goes; a roll the test did
    not plan for, or a face the die can't show, fails the test."""

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
