"""No Stone Unturned play in a group: /act opens an Action Roll, /odds, /downtime.

Buttons and replies go through the shared panel handlers in tgbot.features.panels;
the Scout's private look is a button that sends the card to the scout's own chat.
"""

from __future__ import annotations

from telegram import Update
from telegram.constants import ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.rules.nsu.odds import action_roll_odds
from core.rules.nsu.odds_text import read_odds_query
from core.rules.nsu.roll_panel import ROLL_PANEL
from tgbot.context import StonetableContext
from tgbot.features.common import CommandSpec, actor, command_args
from tgbot.features.panels import post_panel
from tgbot.render.nsu_play import NsuRollRenderer, odds_text

SYSTEM_KEY = "nsu"
COMMANDS = [
    CommandSpec("act", "No Stone Unturned: /act what you want to happen", private=False),
    CommandSpec("odds", "Odds of an Action Roll: /odds d6 d8 world adv"),
]
RENDERERS = [NsuRollRenderer()]

ACT_HELP = (
    "🎲 <b>Action Roll</b>\n"
    "<code>/act I climb the broken tower</code> starts a roll for your character. "
    "The Arbiters pick the aspect and what's at risk, you pick a mood (and maybe a skill "
    "or a sentiment), roll, and allies on screen may help. The panel then says who adds "
    "which details; reply to it to write them down."
)


async def act(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    campaigns = context.deps.campaigns
    view = await campaigns.current(chat.tg_id)
    text = command_args(update).strip()
    if view is None or view.system.key != SYSTEM_KEY or text.lower() == "help":
        await _reply(update, ACT_HELP)
        return
    panel = await campaigns.open_panel(chat, player, ROLL_PANEL, text)
    await post_panel(update, context, panel)


async def odds(update: Update, context: StonetableContext) -> None:
    query = read_odds_query(command_args(update))
    await _reply(update, odds_text(query, action_roll_odds(query)))


async def _reply(update: Update, text: str) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("act", act), CommandHandler("odds", odds)]
