"""The one error hierarchy of the product.

``Malformed`` means the input could never be valid (bad dice notation, an
unknown option). ``NotAllowedNow`` means the input is well formed but the
current state forbids it (out of order, already done); ``NotYourTurn`` narrows
that to "someone else must act". Every error carries a short, friendly
sentence in the product's own words; the edges decide how to show it. The
sentence is a message id of the catalogue (a template with ``{placeholders}``),
filled from ``values``; the edges translate it into the reader's language.
"""

from __future__ import annotations


class StonetableError(Exception):
    """Base of every error a user can cause or meet."""

    def __init__(self, message: str, **values: str | int) -> None:
        self.message_id = message
        self.values = values
        self.message = message.format(**values) if values else message
        super().__init__(self.message)


class Malformed(StonetableError):
    """The input can never be valid as written."""


class NotAllowedNow(StonetableError):
    """The input is well formed, but the current state does not allow it."""


class NotYourTurn(NotAllowedNow):
    """Somebody else has to act at this point."""
