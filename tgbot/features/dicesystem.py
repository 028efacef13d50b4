"""Library games in a group (see :mod:`core.rules.dicesystem`): ``/roll +2`` rolls the
game's own roll (:func:`tgbot.features.roll.system_roll` opens its panel), ``/odds +2``
lists every outcome with its exact chance. No commands of their own."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler

from core.campaigns import CampaignView
from core.campaigns.play import PlayerRef
from core.rules.dicesystem import (
    ROLL_PANEL,
    Mistyped,
    definition_of,
    needs_odds,
    read_roll,
    remember_odds,
    system_odds,
)
from core.rules.errors import Malformed
from core.rules.systems import stat_of
from core.runtime.errors import OneAtATime, TooHeavy
from tgbot.context import StonetableContext
from tgbot.edits import reply_html
from tgbot.i18n import lang_of
from tgbot.render.dicesystem import RENDERERS as DICE_RENDERERS
from tgbot.render.dicesystem import odds_text
from tgbot.updates import CommandSpec, actor

COMMANDS: list[CommandSpec] = []
RENDERERS = list(DICE_RENDERERS)


async def library_odds(update: Update, context: StonetableContext, text: str) -> bool:
    """``/odds +2`` at a library game's table: every outcome of its roll, best first.

    False when the chat plays no library game, or ``text`` is no short form of it and
    reads as dice notation (``/odds 2d6`` still gives the dice's own odds).

    Raises:
        Mistyped: the text is neither this game's short form nor dice notation (the
            game's reason).
    """
    chat, player = actor(update)
    if chat.kind == ChatType.PRIVATE or not text.strip():
        return False
    game = await context.deps.campaigns.current(chat.tg_id, chat.topic)
    if game is None or game.system.roll_panel != ROLL_PANEL:
        return False
    definition = definition_of(game.state)
    try:
        inputs = read_roll(definition, text)
    except Mistyped:
        raise  # the game's own roll, mistyped: its reason
    except Malformed:
        return False  # dice notation: the dice's own odds
    result = await context.deps.heavy.run(player.tg_id, system_odds, definition, inputs)
    assert update.effective_message is not None
    await reply_html(update.effective_message, odds_text(definition, result, await lang_of(update)))
    return True


async def odds_before_roll(
    context: StonetableContext, game: CampaignView, player: PlayerRef, text: str
) -> None:
    """Work out a dear roll's odds in the heavy pool before it is rolled, so the roll
    names its outcome's chance (cheap odds are worked out with the roll itself).

    Nothing happens for text that is not the game's short form: the roll says why.
    """
    if game.system.roll_panel != ROLL_PANEL:
        return
    definition = definition_of(game.state)
    try:
        inputs = read_roll(definition, text) if text.strip() else definition.defaults()
    except Malformed:
        return
    if not needs_odds(definition, inputs):
        return
    try:
        result = await context.deps.heavy.run(player.tg_id, system_odds, definition, inputs)
    except (OneAtATime, TooHeavy):
        return  # the roll goes on without its chance rather than wait or fail
    remember_odds(definition, result)


async def names_a_stat(update: Update, context: StonetableContext, text: str) -> bool:
    """Whether ``text`` starts with a stat of the library game played here (``iron +1``:
    the player's Iron and a bonus, which reads like a saved roll's arithmetic)."""
    chat, _ = actor(update)
    if chat.kind == ChatType.PRIVATE:
        return False
    game = await context.deps.campaigns.current(chat.tg_id, chat.topic)
    if game is None or game.system.roll_panel != ROLL_PANEL:
        return False
    return stat_of(definition_of(game.state), text) is not None


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return []
