"""/roll: standard dice notation in any chat."""

from __future__ import annotations

import re

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CommandHandler

from core.campaigns.languages import LiveGame, live_game
from core.campaigns.secret_rolls import secret_request
from core.rules import dice
from core.rules.dicesystem import ROLL_PANEL as LIBRARY_ROLL
from core.rules.dicesystem import Mistyped
from core.rules.errors import Malformed
from core.rules.saved import NOT_SAVED
from core.words.i18n import N_, lang_for
from tgbot.context import StonetableContext
from tgbot.edits import reply_html
from tgbot.features.dicesystem import library_odds, names_a_stat, odds_before_roll
from tgbot.features.panels import post_panel
from tgbot.features.rolls import secret_roll
from tgbot.features.saved import roll_saved
from tgbot.i18n import lang_of, personal_lang
from tgbot.outbox import speaking
from tgbot.presenter import in_outbox
from tgbot.render.dice import odds_reply, render_roll
from tgbot.sender import send_pending
from tgbot.updates import CommandSpec, actor, command_args

ACTION_ROLL_WORDS = frozenset(
    [
        "world",
        "character",
        "char",
        "madv",
        "mdis",
        "mood-adv",
        "mood-dis",
        "aspect-adv",
        "aspect-dis",
        "aadv",
        "adis",
    ]
)
COMMANDS = [CommandSpec("roll", N_("Roll dice: /roll 2d6+3, 4d6kh3, d20 adv"))]


async def roll(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    text, secret = secret_request(command_args(update))
    if secret:  # /roll 1d20+5 secret
        await secret_roll(update, context, text)
        return
    try:
        if await roll_saved(update, context, text):  # /roll atk+2: a saved roll
            return
    except Malformed as refused:  # /roll iron +1: no saved roll, but a library game's stat
        if refused.message_id != NOT_SAVED or not await names_a_stat(update, context, text):
            raise
    # one statement tells both whether a game's own roll applies and the group's language
    game = None if chat.kind == ChatType.PRIVATE else await live_game(chat.tg_id, chat.topic)
    own = game is not None and (text or _built_by_taps(context, game))  # a game's own roll
    if own and game is not None and await system_roll(update, context, text, game):
        return
    lang = personal_lang(update) if game is None else lang_for(game.language)
    speaking(context, lang)  # the chat's language, read once: its message is worded in it
    result = await context.deps.play.roll(chat, player, text or "d20", unit=context.unit)
    if in_outbox(context, result):  # its message was written with the roll: send it
        await send_pending(context.stonetable, context.unit)
        return
    assert update.effective_message is not None
    await reply_html(update.effective_message, render_roll(result, player.display_name, lang))


def _built_by_taps(context: StonetableContext, game: LiveGame) -> bool:
    """Whether a bare /roll opens the game's roll, set up with buttons (a library game)."""
    return context.deps.campaigns.registry.find(game.system).roll_panel == LIBRARY_ROLL


async def system_roll(
    update: Update, context: StonetableContext, text: str, game: LiveGame
) -> bool:
    """In a game whose system has its own roll (like 3d2t), open that panel instead."""
    chat, player = actor(update)
    campaigns = context.deps.campaigns
    if campaigns.registry.find(game.system).roll_panel is None:
        return False
    view = await campaigns.current(chat.tg_id, chat.topic)
    if view is None or view.system.roll_panel is None or view.member(player.tg_id) is None:
        return False
    if text:  # a library game's dear odds, worked out first for the roll's chance
        await odds_before_roll(context, view, player, text)
    try:
        panel = await campaigns.open_panel(
            chat, player, view.system.roll_panel, text, unit=context.unit
        )
    except Mistyped:
        raise  # the game's own roll, mistyped: its reason
    except Malformed:
        return False  # not this system's notation: an ordinary roll
    await post_panel(update, context, panel)
    return True


async def dice_odds(
    update: Update, context: StonetableContext, text: str, other: Malformed
) -> None:
    """``/odds EXPR``: the exact odds of any dice expression.

    ``other`` is the refusal of the game's own /odds (an NSU Action Roll): it stands
    when the text is empty or the chat plays No Stone Unturned and the text is no
    dice expression either, so a game's /odds keeps speaking as before.
    """
    if await library_odds(update, context, text):  # /odds +2 at a library game's table
        return
    words = set(text.lower().split())
    if not words or words & ACTION_ROLL_WORDS:
        raise other  # an Action Roll, half written
    bare_dice = all(re.fullmatch(r"[dдк]\d+", word) for word in words)
    if bare_dice and await _own_odds_first(update, context):
        raise other  # "d7" at a No Stone Unturned table: an Action Roll's die
    try:
        expression = dice.parse(text)
    except Malformed:
        if await _own_odds_first(update, context):
            raise other from None
        raise
    assert update.effective_message is not None
    _, player = actor(update)
    language = (await lang_of(update)).code
    reply = await context.deps.heavy.run(player.tg_id, odds_reply, expression, language)
    await reply_html(update.effective_message, reply)


async def _own_odds_first(update: Update, context: StonetableContext) -> bool:
    chat, _ = actor(update)
    if chat.kind == ChatType.PRIVATE:
        return False
    view = await context.deps.campaigns.current(chat.tg_id, chat.topic)
    return view is not None and view.system.campaign.own_odds_first


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler(["roll", "r"], roll)]
