"""The one place that turns errors into what a user reads."""

from __future__ import annotations

from core.errors import TryAgain
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError

UNEXPECTED = "Something went wrong on our side. Nothing was changed; please try again."


def user_message(error: BaseException) -> str:
    """A short, friendly sentence for any error."""
    if isinstance(error, NotYourTurn):
        return f"✋ {error.message}"
    if isinstance(error, NotAllowedNow):
        return f"⏳ {error.message}"
    if isinstance(error, Malformed):
        return f"🤔 {error.message}"
    if isinstance(error, TryAgain):
        return f"🔁 {error.message}"
    if isinstance(error, StonetableError):
        return error.message
    return UNEXPECTED
