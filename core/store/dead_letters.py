"""Dead letters: updates the bot can never use, kept with the reason for an operator."""

from __future__ import annotations

from core.store.models import DeadLetter
from core.store.sql import now

MAX_BODY_CHARS = 64 * 1024
MAX_REASON_CHARS = 300
BIGINT_MIN, BIGINT_MAX = -(2**63), 2**63 - 1


def fits_bigint(value: object) -> bool:
    """Whether ``value`` is a whole number a 64-bit column holds."""
    return (
        isinstance(value, int) and not isinstance(value, bool) and BIGINT_MIN <= value <= BIGINT_MAX
    )


def readable_body(body: bytes) -> str:
    """The raw body as text a database column takes: bytes that are not UTF-8 escaped."""
    text = body[: MAX_BODY_CHARS * 4].decode("utf-8", "backslashreplace")
    return text.replace("\x00", "\\x00")[:MAX_BODY_CHARS]


async def keep_dead_letter(body: bytes, reason: str, update_id: int | None = None) -> DeadLetter:
    """Store ``body`` (cut to 64 KiB) with why it can never be used."""
    return await DeadLetter.create(
        update_id=update_id if fits_bigint(update_id) else None,
        reason=reason[:MAX_REASON_CHARS],
        body=readable_body(body),
    )


async def latest_dead_letters(limit: int = 20) -> list[DeadLetter]:
    """The most recent dead letters, newest first."""
    return await DeadLetter.all().order_by("-id").limit(limit)


async def dead_letters_to_replay(ids: list[int]) -> list[DeadLetter]:
    """The dead letters ``ids`` (every one not replayed yet when empty), oldest first."""
    if ids:
        return await DeadLetter.filter(id__in=ids).order_by("id")
    return await DeadLetter.filter(replayed_at__isnull=True).order_by("id")


async def mark_replayed(letter: DeadLetter) -> None:
    await DeadLetter.filter(id=letter.id).update(replayed_at=now())
