"""d20 checks in a group: /check opens a check, /rest a long rest (GM), /pool the points.

Buttons go through the shared panel handler in tgbot.features.panels.
"""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.campaigns import CampaignView
from core.campaigns.play import ChatRef, PlayerRef
from core.rules.d20check.table import CHECK_PANEL, REST_PANEL
from core.rules.errors import NotAllowedNow
from core.rules.typed import check_text, command_word
from core.words.i18n import N_
from core.words.typed_words import vocabulary
from tgbot.context import StonetableContext
from tgbot.features.panels import post_panel
from tgbot.i18n import lang_of
from tgbot.render.d20 import RENDERERS as D20_RENDERERS
from tgbot.render.d20 import pool_text
from tgbot.updates import (
    CommandSpec,
    actor,
    command_args,
    no_game_for,
    played_by,
    replied,
)

SYSTEM_KEY = "d20"
COMMANDS = [
    CommandSpec(
        "check", N_("d20 check: /check strong +2 adv dc15"), private=False, game=SYSTEM_KEY
    ),
    CommandSpec("rest", N_("Long rest for every character (GM)"), private=False, game=SYSTEM_KEY),
    CommandSpec(
        "pool", N_("The shared plot points and everyone's wounds"), private=False, game=SYSTEM_KEY
    ),
]
RENDERERS = list(D20_RENDERERS)

HELP = N_(
    "🎲 <b>d20 checks</b>\n"
    "<code>/check</code> opens a check you set up with buttons; or type it: "
    "<code>/check strong +2 adv dc15</code>, <code>/check weak dis2 vs14</code>, or the names "
    "of an ability and a proficiency on your sheet (<code>/check might athletics dc12</code>).\n"
    "Fail, and you may spend a lucky plot point to retry; succeed, and an unlucky one lets "
    "you reroll. If you spend nothing, the GM may spend an unlucky point to make you roll "
    "again. <code>/pool</code> shows the points, <code>/rest</code> (GM) a long rest, "
    "<code>/sheet</code> your character. The GM replies to a player's message with "
    "<code>/check dc15</code> to call for that player's check."
)


D20_ONLY = N_("That command is for d20 games.")


async def check(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    text = command_args(update).strip()
    view = await context.deps.campaigns.current(chat.tg_id, chat.topic)
    asked = command_word(text, vocabulary()) == "help"
    if not asked and view is None and chat.kind == ChatType.PRIVATE:
        await played_by(context.deps.campaigns, player, SYSTEM_KEY)
    if asked or (view is None and chat.kind == ChatType.PRIVATE):
        await _reply(update, (await lang_of(update)).gettext(HELP))
        return
    if view is None or view.system.key != SYSTEM_KEY:  # says why, and what to do instead
        raise no_game_for(None if view is None else D20_ONLY)
    message = update.effective_message
    answered = replied(message)
    target = answered.from_user if answered is not None else None
    text = check_text(text, vocabulary())  # keywords typed in any catalogue's words
    if target is not None and not target.is_bot:
        text = f"for={target.id} {text}"  # the rules decide whether the caller may do this
    panel = await context.deps.campaigns.open_panel(
        chat, player, CHECK_PANEL, text, unit=context.unit
    )
    await post_panel(update, context, panel)


async def rest(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    await _require_d20(context, chat, player)
    panel = await context.deps.campaigns.open_panel(
        chat, player, REST_PANEL, command_args(update), unit=context.unit
    )
    await post_panel(update, context, panel)


async def pool(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    view = await _require_d20(context, chat, player)
    _, table = await context.deps.campaigns.table_for_viewer(view.app_token, player)
    await _reply(update, pool_text(table, await lang_of(update)))


async def _require_d20(
    context: StonetableContext, chat: ChatRef, player: PlayerRef
) -> CampaignView:
    if chat.kind == ChatType.PRIVATE:  # a group's command: say whether there is a game at all
        await played_by(context.deps.campaigns, player, SYSTEM_KEY)
    view = await context.deps.campaigns.require_current(chat.tg_id, chat.topic)
    if view.system.key != SYSTEM_KEY:
        raise NotAllowedNow(D20_ONLY)
    return view


async def _reply(update: Update, text: str) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CommandHandler("check", check),
        CommandHandler("rest", rest),
        CommandHandler("pool", pool),
    ]
