"""Threat dice in a group: /threat opens an action roll; its buttons run the roll.

``/roll 3d2t`` also opens the roll (tgbot.features.roll hands threat notation to
the system). Buttons go through the shared panel handler in tgbot.features.panels.
"""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.rules.threat.table import ROLL_PANEL
from core.rules.typed import command_word
from core.words.i18n import N_
from core.words.typed_words import vocabulary
from tgbot.context import StonetableContext
from tgbot.features.panels import post_panel
from tgbot.i18n import lang_of
from tgbot.render.threat import ThreatRollRenderer
from tgbot.updates import (
    CommandSpec,
    actor,
    command_args,
    no_game_for,
    played_by,
    replied,
)

SYSTEM_KEY = "threat"
COMMANDS = [
    CommandSpec(
        "threat",
        N_(
            "Threat dice roll: /threat, /threat with an approach's name, or /threat 3d2t "
            "(GM: reply to a player)"
        ),
        private=False,
        game=SYSTEM_KEY,
    )
]
RENDERERS = [ThreatRollRenderer()]

HELP = N_(
    "🎲 <b>Threat dice</b>\n"
    "<code>/threat</code> asks for an action roll; <code>/threat &lt;approach&gt;</code> "
    "asks for it with that approach from your sheet already picked; "
    "<code>/threat 3d2t</code> or <code>/roll 3d2t</code> sets the dice: 3 action dice "
    "at threat +2. The GM replies to a player's message with <code>/threat</code> to ask "
    "that player to roll.\n"
    "The GM sets the threat (−2 to +4; +4 is impossible). You pick an approach and "
    "bonuses (expertise, an ability; +3 dice at most); one other player may tap "
    "<b>Help</b> to add 1d and share the risk. Then roll: the highest d6 gives Botched "
    "(1-3), Messy (4-5) or Good (6); two 6s are Perfect. Each d8 showing 7 or 8 cuts "
    "the result one step (a cut Botched is Dire; a Perfect can't be cut).\n"
    "With 4 or more Momentum you may burn it after the roll: your highest die becomes "
    "your Momentum, cuts apply again, and the track resets to 2. Your sheet: /sheet."
)


async def threat(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    message = update.effective_message
    assert message is not None
    campaigns = context.deps.campaigns
    view = await campaigns.current(chat.tg_id, chat.topic)
    text = command_args(update).strip()
    asked = command_word(text, vocabulary()) == "help"
    if not asked and view is None and chat.kind == ChatType.PRIVATE:
        await played_by(campaigns, player, SYSTEM_KEY)
    if asked or (view is None and chat.kind == ChatType.PRIVATE):
        lang = await lang_of(update)
        await message.reply_text(lang.gettext(HELP), parse_mode=ParseMode.HTML)
        return
    if view is None or view.system.key != SYSTEM_KEY:  # says why, and what to do instead
        raise no_game_for(None if view is None else N_("That command is for threat dice games."))
    answered = replied(message)
    target = answered.from_user if answered is not None else None
    if target is not None and not target.is_bot and target.id != player.tg_id:
        text = f"for={target.id} {text}"
    panel = await campaigns.open_panel(chat, player, ROLL_PANEL, text, unit=context.unit)
    await post_panel(update, context, panel)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("threat", threat)]
