"""Telegram's command menu: the common commands everywhere, a game's own where it is played.

Telegram shows the most specific list set for a chat (a chat's own list, else the
list for all groups or all private chats), without merging. A group's menu lists what
can be done there now. Without a game (the list for all groups): the common commands
that need none, and ``/newgame``. Where a game runs (paused or not): that game's
commands first, then the common ones (without ``/newgame``, which only says a game
is running). Where a game ended and may still be
resumed: the list without a game, and ``/resume``; once it may not, the chat's own list
is deleted and the one for all groups shows again. A player's private chat gets the
commands of the games they play first, then the common private ones.

Descriptions are in the reader's language: the default lists carry one variant per
catalogue (Telegram picks by the user's ``language_code``, English otherwise); a
group's own list speaks its game's language; a player's own list has every variant.
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

from core.campaigns import Campaigns
from core.campaigns.play import PlayerRef
from core.words.i18n import DEFAULT, Lang, available, lang_for
from tgbot.i18n import game_lang
from tgbot.updates import CommandSpec

log = logging.getLogger(__name__)

NOT_WHILE_PLAYING = frozenset({"newgame"})  # common commands a running game's menu leaves out
# common group commands that do something only where a game runs (paused or not)
WHILE_PLAYING = frozenset(
    {"join", "leave", "status", "pause", "resume", "endgame", "language", "undo", "story", "nudge"}
) | frozenset({"say", "npc"})  # posts in character
WHILE_PLAYING |= frozenset({"turns", "next"})  # the turn order
AFTER_AN_END = frozenset({"resume"})  # ... or where a game ended and may still be resumed


def commands(specs: Iterable[CommandSpec], lang: Lang) -> list[BotCommand]:
    return [BotCommand(s.name, lang.gettext(s.description)) for s in specs]


def group_menu(
    specs: Sequence[CommandSpec],
    game: str | None = None,
    lang: Lang | None = None,
    *,
    ended: bool = False,
) -> list[BotCommand]:
    """The menu of a group: what can be done there now. With ``game`` running there, its
    commands first, then the common ones (without ``/newgame``); without one, the common
    commands that need no game (and, ``ended``: those for a game that may be resumed)."""
    if game is not None:
        own = [s for s in specs if s.group and s.game == game]
        common = [
            s for s in specs if s.group and s.game is None and s.name not in NOT_WHILE_PLAYING
        ]
        shown = [*own, *common]
    else:
        shown = [
            s
            for s in specs
            if s.group
            and s.game is None
            and (s.name not in WHILE_PLAYING or (ended and s.name in AFTER_AN_END))
        ]
    return commands(shown, lang or lang_for(DEFAULT))


def private_menu(
    specs: Sequence[CommandSpec], games: Iterable[str] = (), lang: Lang | None = None
) -> list[BotCommand]:
    """The menu of a private chat: the commands of the player's games first, then the
    common ones."""
    playing = set(games)
    common = [s for s in specs if s.private and s.game is None]
    own = [s for s in specs if s.private and s.game is not None and s.game in playing]
    return commands((*own, *common), lang or lang_for(DEFAULT))


def variants() -> list[tuple[str | None, Lang]]:
    """Each catalogue with the ``language_code`` its menus are set for (None: everyone else)."""
    return [(None if code == DEFAULT else code, lang_for(code)) for code in available()]


async def publish_defaults(bot: Bot, specs: Sequence[CommandSpec]) -> None:
    """The menus of every private chat and every group without a chat menu of its own."""
    for code, lang in variants():
        await bot.set_my_commands(
            private_menu(specs, lang=lang),
            scope=BotCommandScopeAllPrivateChats(),
            language_code=code,
        )
        await bot.set_my_commands(
            group_menu(specs, lang=lang), scope=BotCommandScopeAllGroupChats(), language_code=code
        )


async def show_group_game(
    bot: Bot,
    specs: Sequence[CommandSpec],
    chat_id: int,
    game: str | None,
    lang: Lang,
    *,
    ended: bool = False,
) -> None:
    """Give a group the menu of the game now running there, or (None) the menu without
    one: its own while a game that ended there may be resumed (``ended``), else the one
    for all groups.

    Best effort: a menu that could not be changed is logged, and play goes on.
    """
    scope = BotCommandScopeChat(chat_id)
    try:
        if game is None and not ended:
            await bot.delete_my_commands(scope=scope)
        else:
            await bot.set_my_commands(group_menu(specs, game, lang, ended=ended), scope=scope)
    except TelegramError as error:
        log.warning("Could not change the command menu of chat %s: %s", chat_id, error)


async def show_player_games(
    bot: Bot, specs: Sequence[CommandSpec], player_id: int, games: Iterable[str]
) -> None:
    """Give a player's private chat the commands of the games they play (best effort)."""
    playing = sorted(set(games))
    scope = BotCommandScopeChat(player_id)
    try:
        own = any(s.private and s.game in playing for s in specs)
        for code, lang in variants():
            if own:
                menu = private_menu(specs, playing, lang)
                await bot.set_my_commands(menu, scope=scope, language_code=code)
            else:
                await bot.delete_my_commands(scope=scope, language_code=code)
    except TelegramError as error:
        log.warning("Could not change the command menu of player %s: %s", player_id, error)


def menu_digest(specs: Sequence[CommandSpec]) -> str:
    """A short fingerprint of every menu, so a changed command set is published once."""
    text = "\n".join(
        f"{s.name}|{lang.gettext(s.description)}|{s.private}|{s.group}|{s.game}"
        for _, lang in variants()
        for s in specs
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


async def show_every_game(
    bot: Bot,
    specs: Sequence[CommandSpec],
    chats: Iterable[tuple[int, str]],
    players: Mapping[int, Iterable[str]],
    languages: Mapping[int, str] | None = None,
) -> None:
    """Give every group with a live game, and every player in one, the menus of their games."""
    spoken = languages or {}
    for chat_id, game in chats:
        await show_group_game(bot, specs, chat_id, game, lang_for(spoken.get(chat_id)))
    for player_id, games in players.items():
        await show_player_games(bot, specs, player_id, games)


async def _may_resume(campaigns: Campaigns, chat_id: int, topic: int) -> bool:
    """Whether a game that ended in a chat's topic may still be resumed there."""
    ended = await campaigns.last_ended(chat_id, topic)
    return ended is not None and ended.resumable


async def publish_menus(
    bot: Bot,
    campaigns: Campaigns,
    specs: Sequence[CommandSpec],
    group: list[int] | None,
    players: list[int],
) -> None:
    """A group's menu shows the commands of the game live there (the common ones when
    none is); a player's private menu, those of the games they play. Drawn from the
    store as it is now, so publishing again changes nothing."""
    if group is not None:
        chat_id, topic = group
        live = await campaigns.live_games()
        game = next((key for chat, key in live if chat == chat_id), None)
        lang = await game_lang(chat_id, topic)
        ended = game is None and await _may_resume(campaigns, chat_id, topic)
        await show_group_game(bot, specs, chat_id, game, lang, ended=ended)
    for player_id in players:
        games = await campaigns.campaigns_of(PlayerRef(player_id, ""))
        await show_player_games(bot, specs, player_id, [g.system.key for g in games])
