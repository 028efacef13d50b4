"""Secret rolls: ``/roll 1d20+5 secret`` or ``/sroll 1d20+5``.

The dice and total go privately to the roller and, in a game with a game master
(threat dice, Cortex drama's Watchtower, d20 checks), to its GM; No Stone Unturned has
none, so only the roller sees them. The chat is told only that someone rolled in secret,
with a button for those who saw it to reveal it. The stored roll keeps who saw it
(``seen_by``); :mod:`core.store.roll_history` shows it to no one else until it is revealed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from core.rules.errors import NotAllowedNow, NotYourTurn
from core.store.repo import guarded
from core.store.roll_history import KeptRoll, kept_roll
from core.store.sql import execute

SECRET_WORDS = frozenset({"secret", "secretly", "тайно", "секретно"})
NO_GM_SYSTEMS = frozenset({"nsu"})  # games without a game master: only the roller sees
GONE = "That roll is no longer kept."
NOT_YOURS = "Only the roller or the GM who saw this roll can reveal it."


def secret_request(text: str) -> tuple[str, bool]:
    """The roll's text without a "secret" word at its start or end, and whether it had one.

    ``"1d20+5 secret"`` and ``"secret 1d20+5"`` are secret rolls of ``1d20+5``; a note
    keeps its words (``"1d20 secret door"`` is an ordinary roll with a note).
    """
    words = text.split()
    if words and words[-1].lower() in SECRET_WORDS:
        return " ".join(words[:-1]), True
    if words and words[0].lower() in SECRET_WORDS:
        return " ".join(words[1:]), True
    return text, False


def audience(roller: int, system: str | None, game_masters: Iterable[int]) -> tuple[int, ...]:
    """Who sees a secret roll: the roller and, in a game with a GM, its game masters."""
    seen = [roller]
    if system is not None and system not in NO_GM_SYSTEMS:
        seen += [gm for gm in game_masters if gm != roller]
    return tuple(seen)


async def reveal(roll_id: int, by: int) -> KeptRoll:
    """Show a secret roll to everyone; only someone who saw it may.

    Raises:
        NotAllowedNow: no such roll.
        NotYourTurn: ``by`` did not see it.
    """
    found = await kept_roll(roll_id)
    if found is None or found.seen_by is None:
        raise NotAllowedNow(GONE)
    if by not in found.seen_by:
        raise NotYourTurn(NOT_YOURS)
    ids = [r.id for r in found.repeats] or [roll_id]  # a repeated roll: every repeat
    if not found.revealed:
        async with guarded():
            await execute(
                f"UPDATE roll_record SET revealed = ? WHERE id IN ({_marks(ids)})", (True, *ids)
            )
    return replace(found, revealed=True)


async def forget(roll_id: int) -> None:
    """Drop a secret roll nobody could be shown (the roller's private chat refused it),
    every repeat of it."""
    found = await kept_roll(roll_id)
    ids = [r.id for r in found.repeats] if found is not None else [roll_id]
    async with guarded():
        await execute(f"DELETE FROM roll_record WHERE id IN ({_marks(ids)})", tuple(ids))


def _marks(ids: list[int]) -> str:
    return ", ".join("?" for _ in ids)
