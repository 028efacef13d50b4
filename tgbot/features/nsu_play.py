"""No Stone Unturned play in a group: /act opens an Action Roll, /odds, /downtime.

Buttons and replies go through the shared panel handlers in tgbot.features.panels;
the Scout's private look is a button that sends the card to the scout's own chat.
"""

from __future__ import annotations

from collections.abc import Callable

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.error import Forbidden
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu.downtime_panel import DOWNTIME_PANEL
from core.rules.nsu.odds import action_roll_odds
from core.rules.nsu.odds_text import read_odds_query
from core.rules.nsu.roll_panel import ROLL_PANEL
from core.rules.typed import command_word, downtime_text, odds_query_text
from core.words.i18n import N_
from core.words.typed_words import vocabulary
from tgbot.buttons.nsu import LookButton
from tgbot.callback import decode_as, pattern
from tgbot.context import StonetableContext
from tgbot.features.panels import post_panel
from tgbot.features.roll import dice_odds
from tgbot.i18n import lang_of, personal_lang, voice
from tgbot.presenter import which_game
from tgbot.render.nsu_downtime import NsuDowntimeRenderer, scout_look_text
from tgbot.render.nsu_play import NsuRollRenderer, odds_text
from tgbot.updates import CommandSpec, actor, command_args, no_game_for, played_by

SYSTEM_KEY = "nsu"
COMMANDS = [
    CommandSpec(
        "act", N_("No Stone Unturned: /act what you want to happen"), private=False, game=SYSTEM_KEY
    ),
    CommandSpec("odds", N_("Odds of an Action Roll: /odds d6 d8 world adv"), game=SYSTEM_KEY),
    CommandSpec(
        "downtime", N_("No Stone Unturned: rest at home or camp"), private=False, game=SYSTEM_KEY
    ),
]
RENDERERS = [NsuRollRenderer(), NsuDowntimeRenderer()]

ACT_HELP = N_(
    "🎲 <b>Action Roll</b>\n"
    "<code>/act I climb the broken tower</code> starts a roll for your character. "
    "The Arbiters pick the aspect and what's at risk, you pick a mood (and maybe a skill "
    "or a sentiment), roll, and allies on screen may help. The panel then says who adds "
    "which details; reply to it to write them down."
)

DOWNTIME_HELP = N_(
    "🌙 <b>Downtime</b>\n"
    "<code>/downtime home</code> (or <code>camp</code>) ends the adventure: complications "
    "are rolled where you were, then each character takes a downtime action and the free "
    "actions (Recover Harm, Upgrade Skills). Tap an action; some ask for a reply."
)


NSU_ONLY = N_("That command is for No Stone Unturned games.")


async def act(update: Update, context: StonetableContext) -> None:
    await _open(update, context, ROLL_PANEL, ACT_HELP, lambda text: text)


async def downtime(update: Update, context: StonetableContext) -> None:
    await _open(update, context, DOWNTIME_PANEL, DOWNTIME_HELP, _downtime_words)


def _downtime_words(text: str) -> str:
    """«/downtime лагерь» reads as camp."""
    return downtime_text(text, vocabulary())


async def _open(
    update: Update,
    context: StonetableContext,
    kind: str,
    help_text: str,
    read: Callable[[str], str],
) -> None:
    """Open a panel of ``kind`` on the command's text (``read`` into the rules' words);
    its help where asked for, or in a private chat without a game."""
    chat, player = actor(update)
    campaigns = context.deps.campaigns
    view = await campaigns.current(chat.tg_id, chat.topic)
    text = command_args(update).strip()
    asked = command_word(text, vocabulary()) == "help"
    if not asked and view is None and chat.kind == ChatType.PRIVATE:
        await played_by(campaigns, player, SYSTEM_KEY)
    if asked or (view is None and chat.kind == ChatType.PRIVATE):
        await _reply(update, (await lang_of(update)).gettext(help_text))
        return
    if view is None or view.system.key != SYSTEM_KEY:  # says why, and what to do instead
        raise no_game_for(None if view is None else NSU_ONLY)
    panel = await campaigns.open_panel(chat, player, kind, read(text), unit=context.unit)
    await post_panel(update, context, panel)


async def look(update: Update, context: StonetableContext) -> None:
    """Send a successful scout the card they saw, in their private chat."""
    query = update.callback_query
    assert query is not None and update.effective_user is not None
    pressed = decode_as(query.data, LookButton)
    view = await context.deps.campaigns.panel(pressed.panel_id)
    viewer = update.effective_user.id
    lang = voice(view.campaign, viewer)
    text = await which_game(context, view.campaign, viewer, lang) + scout_look_text(
        view, viewer, lang
    )
    try:
        await context.bot.send_message(update.effective_user.id, text, parse_mode=ParseMode.HTML)
    except Forbidden:
        raise NotAllowedNow(
            N_("Open a private chat with me first (tap my name, then Start).")
        ) from None
    await query.answer(personal_lang(update).gettext("Sent to your private chat."))


async def odds(update: Update, context: StonetableContext) -> None:
    """An Action Roll's odds (``d6 d8 world``), else any dice expression's."""
    text = command_args(update)
    try:
        query = read_odds_query(odds_query_text(text, vocabulary()))
    except Malformed as not_an_action_roll:
        await dice_odds(update, context, text, not_an_action_roll)
        return
    _, player = actor(update)
    worked_out = await context.deps.heavy.run(player.tg_id, action_roll_odds, query)
    await _reply(update, odds_text(query, worked_out, await lang_of(update)))


async def _reply(update: Update, text: str) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CommandHandler("act", act),
        CommandHandler("odds", odds),
        CommandHandler("downtime", downtime),
        CallbackQueryHandler(look, pattern=pattern(LookButton)),
    ]
