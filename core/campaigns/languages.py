"""Which language a group's game speaks: set from its host's at /newgame, changed by /language."""

from __future__ import annotations

from dataclasses import dataclass

from core.campaigns.play import ChatRef, PlayerRef
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.store.models import Campaign
from core.store.repo import guarded
from core.store.sql import fetch
from core.words.i18n import N_, available, language_name, language_named, pick

NO_GAME = N_("No game is running in this chat. Start one with /newgame.")
HOST_ONLY = N_("Only the host can change the game's language.")
UNKNOWN = N_("I don't speak “{code}”. Choose one of: {known}.")


@dataclass(frozen=True)
class LiveGame:
    """What a command reads of the live game in a chat's topic before anything else."""

    system: str  # the game system's key
    language: str  # the catalogue the group reads


_LIVE = "SELECT system, language FROM campaign WHERE live_chat_id = ? AND topic_id = ?"


async def live_game(chat_tg_id: int, topic: int = 0) -> LiveGame | None:
    """The system and language of the live game in a chat's topic (one statement), or
    None when no game runs there."""
    async with guarded():
        rows = await fetch(_LIVE, (chat_tg_id, topic))
    return LiveGame(str(rows[0]["system"]), pick(str(rows[0]["language"]))) if rows else None


async def chat_language(chat_tg_id: int, topic: int = 0) -> str | None:
    """The language of the live game in a chat's topic, or None when no game runs there."""
    game = await live_game(chat_tg_id, topic)
    return None if game is None else game.language


async def change_language(chat: ChatRef, player: PlayerRef, wanted: str) -> str:
    """The host sets the language of the chat's live game; returns the catalogue chosen.

    Raises:
        Malformed: no catalogue for ``wanted``.
        NotAllowedNow: no game runs in this chat.
        NotYourTurn: the player is not the host.
    """
    code = language_named(wanted)
    if code is None:
        raise Malformed(UNKNOWN, code=wanted.strip()[:16], known=known_languages())
    async with guarded():
        campaign = await Campaign.get_or_none(
            live_chat_id=chat.tg_id, topic_id=chat.topic
        ).select_related("host")
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        if campaign.host.tg_id != player.tg_id:
            raise NotYourTurn(HOST_ONLY)
        await Campaign.filter(id=campaign.id).update(language=code)
    return code


def known_languages() -> str:
    """Every catalogue as /language takes it: its code and its own name, ``ru (русский)``."""
    return ", ".join(f"{code} ({language_name(code, code)})" for code in available())


async def live_languages() -> dict[int, str]:
    """The language of every chat with a live game (for the command menus)."""
    async with guarded():
        rows = await Campaign.filter(live_chat_id__isnull=False).values_list(
            "live_chat_id", "language"
        )
    return {int(chat): pick(str(code)) for chat, code in rows}
