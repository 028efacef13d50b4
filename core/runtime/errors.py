"""Errors from the infrastructure, in the same hierarchy as the rules' errors."""

from __future__ import annotations

from core.rules.errors import StonetableError


class TryAgain(StonetableError):
    """A shared resource is busy or away for a moment; nothing was changed."""

    def __init__(
        self, message: str = "The table is busy right now. Try again in a moment."
    ) -> None:
        super().__init__(message)


class LockLost(TryAgain):
    """A lock's lease ran out before its holder finished."""


class CommitUnknown(TryAgain):
    """The connection went while a change was committing and whether it committed could
    not be learnt (no update id to look up, or the store stayed away)."""


class AlreadyHandled(StonetableError):
    """A redelivered Telegram update whose changes were already committed: ignore it."""

    def __init__(self) -> None:
        super().__init__("Already done.")
