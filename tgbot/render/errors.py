"""The one place that turns errors into what a user reads, in their language."""

from __future__ import annotations

from telegram.error import BadRequest

from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn, StonetableError
from core.rules.said import worded
from core.runtime.errors import TryAgain
from core.words.i18n import N_, Lang

UNEXPECTED = N_("Something went wrong on our side. Nothing was changed; please try again.")


def user_message(error: BaseException, lang: Lang) -> str:
    """A short, friendly sentence for any error.

    The error's message is a catalogue id: it is translated here and its values
    (names, numbers) filled in as they are, but for the words the rules said as
    message ids (:class:`core.rules.said.Said`), which are translated too.
    """
    if not isinstance(error, StonetableError):
        return lang.gettext(UNEXPECTED)
    values = {k: worded(v, lang.gettext, lang.pgettext) for k, v in error.values.items()}
    text = lang.gettext(error.message_id, **values)
    if isinstance(error, NotYourTurn):
        return f"✋ {text}"
    if isinstance(error, NotAllowedNow):
        return f"⏳ {text}"
    if isinstance(error, Malformed):
        return f"🤔 {text}"
    if isinstance(error, TryAgain):
        return f"🔁 {text}"
    return text


def unexpected(error: Exception) -> bool:
    """Whether a handler's error is a fault, not something the user was simply told."""
    if isinstance(error, BadRequest) and "not modified" in error.message.lower():
        return False
    return not isinstance(error, StonetableError)
