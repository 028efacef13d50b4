"""The one error hierarchy of the product.

``Malformed`` means the input could never be valid (bad dice notation, an
unknown option). ``NotAllowedNow`` means the input is well formed but the
current state forbids it (out of order, already done); ``NotYourTurn`` narrows
that to "someone else must act". Every error carries a short, friendly
sentence in the product's own words; the edges decide how to show it.
"""

from __future__ import annotations


class StonetableError(Exception):
    """Base of every error a user can cause or meet."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Malformed(StonetableError):
    """The input can never be valid as written."""


class NotAllowedNow(StonetableError):
    """The input is well formed, but the current state does not allow it."""


class NotYourTurn(NotAllowedNow):
    """Somebody else has to act at this point."""
