"""Telegram's command menu: the common commands everywhere, a game's own where it is played.

Telegram shows the most specific list set for a chat (a chat's own list, else the
list for all groups or all private chats), without merging. So a group where a game
runs gets the common group commands followed by that game's; a player's private chat
gets the common private commands followed by those of the games they play. When the
game ends, the chat's own list is deleted and the common one shows again.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping, Sequence

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
)
from telegram.error import TelegramError

from tgbot.features.common import CommandSpec

log = logging.getLogger(__name__)


def group_menu(specs: Sequence[CommandSpec], game: str | None = None) -> list[BotCommand]:
    """The menu of a group: the common commands, then those of the game running there."""
    common = [s for s in specs if s.group and s.game is None]
    own = [s for s in specs if s.group and game is not None and s.game == game]
    return [BotCommand(s.name, s.description) for s in (*common, *own)]


def private_menu(specs: Sequence[CommandSpec], games: Iterable[str] = ()) -> list[BotCommand]:
    """The menu of a private chat: the common commands, then those of the player's games."""
    playing = set(games)
    common = [s for s in specs if s.private and s.game is None]
    own = [s for s in specs if s.private and s.game is not None and s.game in playing]
    return [BotCommand(s.name, s.description) for s in (*common, *own)]


async def publish_defaults(bot: Bot, specs: Sequence[CommandSpec]) -> None:
    """The menus of every private chat and every group without a chat menu of its own."""
    await bot.set_my_commands(private_menu(specs), scope=BotCommandScopeAllPrivateChats())
    await bot.set_my_commands(group_menu(specs), scope=BotCommandScopeAllGroupChats())


async def show_group_game(
    bot: Bot, specs: Sequence[CommandSpec], chat_id: int, game: str | None
) -> None:
    """Give a group the menu of the game now running there, or (None) the common one back.

    Best effort: a menu that could not be changed is logged, and play goes on.
    """
    scope = BotCommandScopeChat(chat_id)
    try:
        if game is None:
            await bot.delete_my_commands(scope=scope)
        else:
            await bot.set_my_commands(group_menu(specs, game), scope=scope)
    except TelegramError as error:
        log.warning("Could not change the command menu of chat %s: %s", chat_id, error)


async def show_player_games(
    bot: Bot, specs: Sequence[CommandSpec], player_id: int, games: Iterable[str]
) -> None:
    """Give a player's private chat the commands of the games they play (best effort)."""
    playing = sorted(set(games))
    scope = BotCommandScopeChat(player_id)
    try:
        if any(s.private and s.game in playing for s in specs):
            await bot.set_my_commands(private_menu(specs, playing), scope=scope)
        else:
            await bot.delete_my_commands(scope=scope)
    except TelegramError as error:
        log.warning("Could not change the command menu of player %s: %s", player_id, error)


def menu_digest(specs: Sequence[CommandSpec]) -> str:
    """A short fingerprint of every menu, so a changed command set is published once."""
    text = "\n".join(f"{s.name}|{s.description}|{s.private}|{s.group}|{s.game}" for s in specs)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


async def show_every_game(
    bot: Bot,
    specs: Sequence[CommandSpec],
    chats: Iterable[tuple[int, str]],
    players: Mapping[int, Iterable[str]],
) -> None:
    """Give every group with a live game, and every player in one, the menus of their games."""
    for chat_id, game in chats:
        await show_group_game(bot, specs, chat_id, game)
    for player_id, games in players.items():
        await show_player_games(bot, specs, player_id, games)
