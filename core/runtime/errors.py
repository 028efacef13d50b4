"""Errors from the infrastructure, in the same hierarchy as the rules' errors."""

from __future__ import annotations

from core.rules.errors import Malformed, NotAllowedNow, StonetableError


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


class OneAtATime(NotAllowedNow):
    """A user's last heavy request (exact odds, a large roll, a picture) is still being
    worked out; each user has one at a time, so no one holds the table for the others."""

    def __init__(
        self,
        message: str = (
            "One at a time, please: I'm still working out your last request. "
            "Send this one again once that one is answered."
        ),
    ) -> None:
        super().__init__(message)


class TooHeavy(Malformed):
    """A heavy request ran over its time limit and was stopped."""

    def __init__(
        self,
        message: str = (
            "That was too heavy to work out: I stopped after {seconds} seconds. "
            "Try fewer dice or fewer sides."
        ),
        seconds: int = 10,
    ) -> None:
        super().__init__(message, seconds=seconds)
