"""What every feature shares: command specs and translating Telegram objects."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Chat, Message, Update, User

from core.campaigns import Campaigns
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.views import NO_GAME
from core.rules.errors import NotAllowedNow
from core.rules.said import Said
from core.words.i18n import N_, Lang

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


async def not_playing(
    campaigns: Campaigns, player: PlayerRef, system_key: str, lang: Lang, otherwise: str
) -> NotAllowedNow:
    """Why a player's private command finds no live game of ``system_key``: the one they
    played ended (and what its host can do), else ``otherwise``. ``lang``: the reader's,
    for the day."""
    ended = await campaigns.last_ended_of(player, system_key)
    if ended is None:
        return NotAllowedNow(otherwise)
    game, group = Said(ended.campaign.system.name), ended.campaign.chat_title
    if not ended.resumable:
        return NotAllowedNow(ENDED_FOR_GOOD, game=game, group=group)
    day = lang.day(ended.resumable_until)
    return NotAllowedNow(ENDED_GAME, game=game, group=group, day=day)


def no_game_for(game: str | None) -> NotAllowedNow:
    """Why a game's command can't run in this group, and what to do instead: no game
    runs here (start one), or the game here is another (``game`` names the one it is for)."""
    return NotAllowedNow(NO_GAME if game is None else game)
