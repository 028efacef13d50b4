"""/start and /help, in private chats and groups."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.campaigns import JOIN_PREFIX
from core.campaigns.own_systems import SHARE_PREFIX
from core.campaigns.views import played_definition
from core.words.i18n import N_, Lang
from tgbot.buttons.start import StartButton, StartChoice
from tgbot.callback import decode_as, pattern
from tgbot.context import StonetableContext
from tgbot.features import campaign, own_systems, sheet
from tgbot.i18n import lang_of
from tgbot.intro import give_menu_button
from tgbot.presenter import in_outbox
from tgbot.render.dice import render_roll
from tgbot.render.help import dice_help, general, help_text
from tgbot.render.inline import DICE_HELP
from tgbot.render.text import esc
from tgbot.sender import deliver_held, send_pending
from tgbot.topics import send_game
from tgbot.updates import CommandSpec, actor, command_args

COMMANDS = [
    CommandSpec("start", N_("Say hello and open your sheet"), group=False),
    CommandSpec("help", N_("What I can do")),
]


async def start(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    assert update.effective_message is not None
    if chat.kind == ChatType.PRIVATE:
        await context.deps.play.mark_started(player)
        payload = command_args(update).strip()
        joining = payload.startswith(JOIN_PREFIX)  # then the join claims the update
        delivered = await deliver_held(context, player.tg_id, claim=not joining)
        if joining:
            await campaign.announce_join(update, context, payload)
            return
        if payload == DICE_HELP:  # the button above inline results that are no roll
            lang = await lang_of(update)
            await update.effective_message.reply_text(
                dice_help(lang, context.bot.username), parse_mode=ParseMode.HTML
            )
            await give_menu_button(context.bot, chat.tg_id, context.deps.webapp_url, lang)
            return
        if delivered:
            return  # they came for their messages
    elif (payload := command_args(update).strip()).startswith(SHARE_PREFIX):
        await own_systems.import_by_link(update, context, payload)  # a shared system's link
        return
    lang = await lang_of(update)
    hello = lang.gettext("Hello, <b>{name}</b>!", name=esc(player.display_name))
    greeting = f"👋 {hello}\n\n{general(lang)}"
    markup = greeting_markup(await sheet.markup_for(update, context), context.bot.username, lang)
    await update.effective_message.reply_text(
        greeting, parse_mode=ParseMode.HTML, reply_markup=markup
    )
    if chat.kind == ChatType.PRIVATE:
        await give_menu_button(context.bot, chat.tg_id, context.deps.webapp_url, lang)


def greeting_markup(
    sheet_markup: InlineKeyboardMarkup | None, bot_username: str, lang: Lang
) -> InlineKeyboardMarkup:
    """A button for each thing the greeting names: the sheet, a roll, a game in a
    group, every command."""
    rows = [list(row) for row in sheet_markup.inline_keyboard] if sheet_markup else []
    rows.append(
        [
            InlineKeyboardButton(
                "🎲 " + lang.gettext("Roll a d20"),
                callback_data=StartButton(StartChoice.ROLL).encode(),
            ),
            InlineKeyboardButton(
                "❓ " + lang.gettext("All commands"),
                callback_data=StartButton(StartChoice.HELP).encode(),
            ),
        ]
    )
    rows.append(
        [
            InlineKeyboardButton(
                "➕ " + lang.gettext("Play in a group"),
                url=f"https://t.me/{bot_username}?startgroup=play",
            )
        ]
    )
    return InlineKeyboardMarkup(rows)


async def press_start(update: Update, context: StonetableContext) -> None:
    """A greeting's button: roll a d20 for the presser, or send every command."""
    query = update.callback_query
    assert query is not None and query.message is not None
    button = decode_as(query.data, StartButton)
    chat, player = actor(update)
    lang = await lang_of(update)
    await query.answer()
    if button.choice is StartChoice.ROLL:
        result = await context.deps.play.roll(chat, player, "d20", unit=context.unit)
        if in_outbox(context, result):  # its message was written with the roll: send it
            await send_pending(context.stonetable, context.unit)
            return
        text = render_roll(result, player.display_name, lang)
    else:
        campaigns = context.deps.campaigns
        view = (
            await campaigns.current(chat.tg_id, chat.topic)
            if chat.kind != ChatType.PRIVATE
            else None
        )
        text = help_text(
            campaigns.registry,
            context.stonetable.command_specs,
            view.system.key if view else None,
            lang,
            played_definition(view) if view else None,
        )
    await send_game(context.bot, chat.tg_id, chat.topic, text)


async def help_command(update: Update, context: StonetableContext) -> None:
    chat, _ = actor(update)
    campaigns = context.deps.campaigns
    in_group = chat.kind != ChatType.PRIVATE
    view = await campaigns.current(chat.tg_id, chat.topic) if in_group else None
    lang = await lang_of(update)
    current = view.system.key if view else None
    played = played_definition(view) if view else None
    text = help_text(campaigns.registry, context.stonetable.command_specs, current, lang, played)
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CommandHandler("start", start),
        CommandHandler("help", help_command),
        CallbackQueryHandler(press_start, pattern=pattern(StartButton)),
    ]
