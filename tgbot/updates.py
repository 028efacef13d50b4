"""What every feature reads from an update (who, where, the command's words), the
commands' menu entries, and the refusals features share."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Chat, Message, Update, User

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.views import NO_GAME
from core.rules.errors import NotAllowedNow
from core.rules.registry import Registry
from core.rules.said import Said
from core.words.i18n import N_, lang_for

ENDED_GAME = N_(
    "Your {game} game in {group} has ended. Its host can bring it back with /resume in "
    "that group until {day}, or anyone can start a new one there with /newgame."
)
ENDED_FOR_GOOD = N_(
    "Your {game} game in {group} has ended, too long ago to come back. Anyone can start "
    "a new one there with /newgame."
)


@dataclass(frozen=True)
class CommandSpec:
    """A command shown in Telegram's menu, in private chats, groups or both.

    ``game`` names the game system the command belongs to: its commands are in a
    group's menu only while that game runs there, and in a player's private menu
    while they play it. Commands without one are always shown.
    """

    name: str
    description: str
    private: bool = True
    group: bool = True
    game: str | None = None


def player_of(user: User) -> PlayerRef:
    return PlayerRef(
        tg_id=user.id,
        first_name=user.first_name or "",
        last_name=user.last_name or "",
        username=user.username or "",
        language_code=user.language_code,
    )


def chat_of(chat: Chat, topic: int = 0) -> ChatRef:
    return ChatRef(
        tg_id=chat.id, kind=chat.type, title=chat.title or chat.full_name or "", topic=topic
    )


def topic_of(update: Update) -> int:
    """The forum topic an update happened in: its message's thread, 0 for General.

    A callback query's message carries the thread of the panel it was pressed on.
    """
    message = update.effective_message
    if message is None or not isinstance(message, Message):
        return 0
    if message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


def replied(message: Message | None) -> Message | None:
    """The message a message really replies to: in a forum topic every message seems to
    reply to the topic's opening (its ``forum_topic_created``), which is no reply."""
    if message is None or message.reply_to_message is None:
        return None
    target = message.reply_to_message
    return None if target.forum_topic_created is not None else target


def actor(update: Update) -> tuple[ChatRef, PlayerRef]:
    """The chat and player of an update that has both."""
    assert update.effective_chat is not None and update.effective_user is not None
    return chat_of(update.effective_chat, topic_of(update)), player_of(update.effective_user)


def command_args(update: Update) -> str:
    """Everything after the command word, as typed."""
    message = update.effective_message
    text = (message.text or "") if message is not None else ""
    return text.split(maxsplit=1)[1] if len(text.split(maxsplit=1)) > 1 else ""


async def not_playing(campaigns: Campaigns, player: PlayerRef, system_key: str) -> NotAllowedNow:
    """Why a player's private command finds no live game of ``system_key``: the one they
    played ended (and what its host can do), else they are in none yet
    (:func:`no_game_yet`). The day is written in the player's own language."""
    ended = await campaigns.last_ended_of(player, system_key)
    if ended is None:
        return no_game_yet(campaigns.registry, system_key)
    game, group = Said(ended.campaign.system.name), ended.campaign.chat_title
    if not ended.resumable:
        return NotAllowedNow(ENDED_FOR_GOOD, game=game, group=group)
    day = lang_for(player.language_code).day(ended.resumable_until)
    return NotAllowedNow(ENDED_GAME, game=game, group=group, day=day)


def no_game_for(game: str | None) -> NotAllowedNow:
    """Why a game's command can't run in this group, and what to do instead: no game
    runs here (start one), or the game here is another (``game`` names the one it is for)."""
    return NotAllowedNow(NO_GAME if game is None else game)


NO_GAME_YET = N_(
    "You aren't in a {game} game yet. To start one, add me to a group and send "
    "/newgame there; to join one, send /join in its group."
)


def no_game_yet(registry: Registry, key: str) -> NotAllowedNow:
    """Why a game's command sent in private finds nothing: the player is in no game of that
    system (``key``) yet; how to start one or join one."""
    return NotAllowedNow(NO_GAME_YET, game=Said(registry.find(key).name))


async def played_by(campaigns: Campaigns, player: PlayerRef, key: str) -> None:
    """Nothing when ``player`` is in a game of system ``key``; else why a command of that
    game, sent in private, finds none (:func:`not_playing`)."""
    if not any(c.system.key == key for c in await campaigns.campaigns_of(player)):
        raise await not_playing(campaigns, player, key)
