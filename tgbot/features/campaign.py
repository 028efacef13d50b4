"""Campaigns in a group: /newgame, /join, /leave, /pause, /resume, /endgame, /status."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import Forbidden
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.campaigns import CampaignView, JoinResult
from core.play import PlayerRef
from core.rules.errors import Malformed
from core.store.models import CampaignStatus
from tgbot.app import command_specs
from tgbot.callback import GeneralButton, decode
from tgbot.context import StonetableContext
from tgbot.features.common import CommandSpec, actor, command_args, player_of
from tgbot.menu import show_group_game, show_player_games
from tgbot.presenter import settle
from tgbot.render.campaign import (
    END_VERB,
    END_YES,
    EndAnswer,
    end_question,
    ended_text,
    kept_text,
    resumed_text,
    started_text,
    status_text,
    system_choice,
)
from tgbot.render.text import esc

COMMANDS = [
    CommandSpec("newgame", "Start a game in this group", private=False),
    CommandSpec("join", "Join this group's game", private=False),
    CommandSpec("leave", "Leave this group's game", private=False),
    CommandSpec("status", "The game at a glance", private=False),
    CommandSpec("pause", "Pause the game (host)", private=False),
    CommandSpec("resume", "Resume a paused or ended game (host)", private=False),
    CommandSpec("endgame", "End the game; /resume brings it back (host)", private=False),
]


async def reply(update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)


async def new_game(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    key = command_args(update).strip()
    campaigns = context.deps.campaigns
    if not key:
        last = await campaigns.last_ended(chat.tg_id)
        text, markup = system_choice(campaigns.registry, last)
        await reply(update, text, markup)
        return
    view = await campaigns.new_game(chat, player, key, update_id=update.update_id)
    await reply(update, started_text(view))
    await show_menus(context, view, playing=True)


async def choose_system(update: Update, context: StonetableContext) -> None:
    query = update.callback_query
    assert query is not None
    data = decode(query.data)
    if not isinstance(data, GeneralButton) or data.verb != "newgame":
        raise Malformed("That button is out of date.")
    chat, player = actor(update)
    view = await context.deps.campaigns.new_game(
        chat, player, data.argument, update_id=update.update_id
    )
    await query.answer()
    await query.edit_message_text(started_text(view), parse_mode=ParseMode.HTML)
    await show_menus(context, view, playing=True)


async def show_menus(context: StonetableContext, view: CampaignView, *, playing: bool) -> None:
    """The group's menu shows the game's commands while it runs; so do its players' chats."""
    specs = command_specs()
    game = view.system.key if playing else None
    await show_group_game(context.bot, specs, view.chat_tg_id, game)
    for member in view.members:
        await show_private_menu(context, member.player_id)


async def show_private_menu(context: StonetableContext, player_id: int) -> None:
    """A player's private menu: the common commands and those of the games they play."""
    games = await context.deps.campaigns.campaigns_of(PlayerRef(player_id, ""))
    await show_player_games(context.bot, command_specs(), player_id, [g.system.key for g in games])


async def join(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    campaigns = context.deps.campaigns
    result = await campaigns.join(chat, player, update_id=update.update_id)
    if result.start_payload and await can_write_privately(context, player.tg_id, result):
        await context.deps.play.mark_started(player)
        result = await campaigns.complete_join(
            result.start_payload, player, update_id=update.update_id
        )
    name = esc(player.display_name)
    if result.already_member:
        await reply(update, f"{name}, you're already in this game. /sheet opens your sheet.")
    elif result.joined:
        await reply(update, f"✅ {name} joined the game.")
        await show_private_menu(context, player.tg_id)
    else:
        link = f"https://t.me/{context.bot.username}?start={result.start_payload}"
        markup = InlineKeyboardMarkup([[InlineKeyboardButton("🔓 Open a private chat", url=link)]])
        await reply(
            update,
            f"{name}, I'll need to send you secret things in private. "
            "Tap below and press <b>Start</b>; you'll join right away.",
            markup,
        )


async def can_write_privately(context: StonetableContext, user_id: int, result: JoinResult) -> bool:
    """Whether the bot may message this player in private (it tries, as Telegram allows)."""
    try:
        await context.bot.send_message(
            user_id,
            f"🎲 You're joining the <b>{esc(result.campaign.system.name)}</b> game of "
            f"<b>{esc(result.campaign.chat_title)}</b>. Secret things will arrive here.",
            parse_mode=ParseMode.HTML,
        )
    except Forbidden:
        return False
    return True


async def leave(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    left = await context.deps.campaigns.leave(chat, player, update_id=update.update_id)
    await reply(update, f"👋 {esc(player.display_name)} left the game.")
    await show_private_menu(context, player.tg_id)
    await settle(context, left)  # e.g. a turn moved on: the panel names who is up now


async def status(update: Update, context: StonetableContext) -> None:
    chat, _ = actor(update)
    view, lines = await context.deps.campaigns.at_a_glance(chat.tg_id)
    await reply(update, status_text(view, lines))


async def pause(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    await context.deps.campaigns.set_status(
        chat, player, CampaignStatus.PAUSED, update_id=update.update_id
    )
    await reply(update, "⏸ The game is paused. The host can /resume it.")


async def resume(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    resumed = await context.deps.campaigns.resume(chat, player, update_id=update.update_id)
    await reply(update, resumed_text(resumed.campaign, resumed.came_back))
    if resumed.came_back:
        await show_menus(context, resumed.campaign, playing=True)


async def end_game(update: Update, context: StonetableContext) -> None:
    """Ask the host to confirm: the game ends only when they press End."""
    chat, player = actor(update)
    view = await context.deps.campaigns.ask_end(chat, player)
    text, markup = end_question(view)
    await reply(update, text, markup)


async def answer_end(update: Update, context: StonetableContext) -> None:
    """The host's answer to "end the game?": End, or Cancel."""
    query = update.callback_query
    assert query is not None
    pressed = EndAnswer.decode(query.data)
    chat, player = actor(update)
    campaigns = context.deps.campaigns
    if pressed.answer == END_YES:
        ended = await campaigns.end(
            chat, player, pressed.campaign_id, pressed.version, update_id=update.update_id
        )
        await query.answer()
        await settle(context, ended)  # its panels' buttons go first
        await query.edit_message_text(ended_text(ended), parse_mode=ParseMode.HTML)
        await show_menus(context, ended.campaign, playing=False)
    else:
        view = await campaigns.keep_playing(chat, player, pressed.campaign_id)
        await query.answer()
        await query.edit_message_text(kept_text(view), parse_mode=ParseMode.HTML)


async def announce_join(update: Update, context: StonetableContext, payload: str) -> None:
    """Finish a join started in a group, after the player pressed Start in private."""
    assert update.effective_user is not None
    player = player_of(update.effective_user)
    result = await context.deps.campaigns.complete_join(payload, player, update_id=update.update_id)
    view = result.campaign
    await reply(
        update,
        f"✅ You're in the <b>{esc(view.system.name)}</b> game of "
        f"<b>{esc(view.chat_title)}</b>. Secret things will arrive here.",
    )
    if result.joined:
        await context.bot.send_message(
            view.chat_tg_id,
            f"✅ {esc(player.display_name)} joined the game.",
            parse_mode=ParseMode.HTML,
        )
        await show_private_menu(context, player.tg_id)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CommandHandler("newgame", new_game),
        CommandHandler("join", join),
        CommandHandler("leave", leave),
        CommandHandler("status", status),
        CommandHandler("pause", pause),
        CommandHandler("resume", resume),
        CommandHandler("endgame", end_game),
        CallbackQueryHandler(choose_system, pattern=r"^g1:newgame:"),
        CallbackQueryHandler(answer_end, pattern=rf"^g1:{END_VERB}:"),
    ]
