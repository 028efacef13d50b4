"""Campaigns in a group: /newgame, /join, /leave, /pause, /resume, /endgame, /status."""

from __future__ import annotations

import contextlib

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, Forbidden
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.campaigns import CampaignView, JoinResult
from core.i18n import N_, Lang, lang_for
from core.languages import change_language, chat_language, start_speaking
from core.play import PlayerRef
from core.rules.errors import NotAllowedNow
from core.store.models import CampaignStatus
from tgbot.app import command_specs
from tgbot.buttons.campaign import EndAnswer, EndButton, NewGameButton
from tgbot.callback import decode_as, pattern
from tgbot.context import StonetableContext
from tgbot.features.common import CommandSpec, actor, command_args, player_of
from tgbot.i18n import game_lang, lang_of, personal_lang
from tgbot.menu import show_group_game, show_player_games
from tgbot.presenter import settle, show
from tgbot.render.campaign import (
    end_question,
    ended_text,
    joined_text,
    kept_text,
    language_text,
    resumed_text,
    started_text,
    status_text,
    system_choice,
    welcome_text,
)
from tgbot.render.text import esc
from tgbot.topics import send_game

COMMANDS = [
    CommandSpec("newgame", N_("Start a game in this group"), private=False),
    CommandSpec("join", N_("Join this group's game"), private=False),
    CommandSpec("leave", N_("Leave this group's game"), private=False),
    CommandSpec("status", N_("The game at a glance"), private=False),
    CommandSpec("pause", N_("Pause the game (host)"), private=False),
    CommandSpec("resume", N_("Resume a paused or ended game (host)"), private=False),
    CommandSpec("endgame", N_("End the game; /resume brings it back (host)"), private=False),
    CommandSpec("language", N_("The game's language: /language en or ru (host)"), private=False),
]


async def reply(update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)


async def new_game(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    key = command_args(update).strip()
    campaigns = context.deps.campaigns
    if not key:
        last = await campaigns.last_ended(chat.tg_id, chat.topic)
        text, markup = system_choice(campaigns.registry, await lang_of(update), last)
        await reply(update, text, markup)
        return
    view = await campaigns.new_game(chat, player, key, update_id=update.update_id)
    lang = await speak_hosts_language(update, view)
    await reply(update, started_text(view, lang))
    await show_menus(context, view, playing=True)


async def choose_system(update: Update, context: StonetableContext) -> None:
    query = update.callback_query
    assert query is not None
    pressed = decode_as(query.data, NewGameButton)
    chat, player = actor(update)
    view = await context.deps.campaigns.new_game(
        chat, player, pressed.system, update_id=update.update_id
    )
    lang = await speak_hosts_language(update, view)
    await query.answer()
    await query.edit_message_text(started_text(view, lang), parse_mode=ParseMode.HTML)
    await show_menus(context, view, playing=True)


async def speak_hosts_language(update: Update, view: CampaignView) -> Lang:
    """A new game speaks the language of the host who started it."""
    assert update.effective_user is not None
    return lang_for(await start_speaking(view.id, update.effective_user.language_code))


async def language(update: Update, context: StonetableContext) -> None:
    """/language en|ru: the host changes the language the group's game speaks."""
    chat, player = actor(update)
    code = await change_language(chat, player, command_args(update))
    await reply(update, language_text(lang_for(code)))
    view = await context.deps.campaigns.current(chat.tg_id, chat.topic)
    if view is not None:
        await show_menus(context, view, playing=True)


async def show_menus(context: StonetableContext, view: CampaignView, *, playing: bool) -> None:
    """The group's menu shows the game's commands while it runs; so do its players' chats."""
    specs = command_specs()
    game = view.system.key if playing else None
    if game is None:  # a forum's other topics may still play: their menu stays
        live = await context.deps.campaigns.live_games()
        game = next((key for chat, key in live if chat == view.chat_tg_id), None)
    lang = await game_lang(view.chat_tg_id, view.topic_id)
    await show_group_game(context.bot, specs, view.chat_tg_id, game, lang)
    for member in view.members:
        await show_private_menu(context, member.player_id)


async def show_private_menu(context: StonetableContext, player_id: int) -> None:
    """A player's private menu: the common commands and those of the games they play."""
    games = await context.deps.campaigns.campaigns_of(PlayerRef(player_id, ""))
    await show_player_games(context.bot, command_specs(), player_id, [g.system.key for g in games])


JOIN_IN_THE_GROUP = N_(
    "Games are joined in their group: send /join in the group where the game is played, "
    "and I'll write to you here once you're in."
)


async def join(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    if chat.kind == ChatType.PRIVATE:  # a game is joined where it is played
        raise NotAllowedNow(JOIN_IN_THE_GROUP)
    campaigns = context.deps.campaigns
    result = await campaigns.join(chat, player, update_id=update.update_id)
    if result.start_payload and await can_write_privately(
        context, player.tg_id, result, personal_lang(update)
    ):
        await context.deps.play.mark_started(player)
        result = await campaigns.complete_join(
            result.start_payload, player, update_id=update.update_id
        )
    name = esc(player.display_name)
    lang = await lang_of(update)
    if result.already_member:
        await reply(
            update,
            lang.gettext(
                "{name}, you're already in this game. /sheet opens your sheet.", name=name
            ),
        )
    elif result.joined:
        await reply(update, joined_text(player.display_name, lang))
        await show_private_menu(context, player.tg_id)
    else:
        link = f"https://t.me/{context.bot.username}?start={result.start_payload}"
        button = InlineKeyboardButton("🔓 " + lang.gettext("Open a private chat"), url=link)
        text = lang.gettext(
            "{name}, I'll need to send you secret things in private. "
            "Tap below and press <b>Start</b>; you'll join right away.",
            name=name,
        )
        await reply(update, text, InlineKeyboardMarkup([[button]]))


async def can_write_privately(
    context: StonetableContext, user_id: int, result: JoinResult, lang: Lang
) -> bool:
    """Whether the bot may message this player in private (it tries, as Telegram allows)."""
    try:
        await context.bot.send_message(
            user_id, welcome_text(result.campaign, lang, joining=True), parse_mode=ParseMode.HTML
        )
    except Forbidden:
        return False
    return True


async def leave(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    left = await context.deps.campaigns.leave(chat, player, update_id=update.update_id)
    lang = await lang_of(update)
    await reply(
        update, "👋 " + lang.gettext("{name} left the game.", name=esc(player.display_name))
    )
    await show_private_menu(context, player.tg_id)
    await settle(context, left)  # e.g. a turn moved on: the panel names who is up now


async def status(update: Update, context: StonetableContext) -> None:
    chat, _ = actor(update)
    view, lines = await context.deps.campaigns.at_a_glance(chat.tg_id, chat.topic)
    await reply(update, status_text(view, await lang_of(update), lines))


async def pause(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    changed = await context.deps.campaigns.change_status(
        chat, player, CampaignStatus.PAUSED, update_id=update.update_id
    )
    lang = await lang_of(update)
    await reply(update, "⏸ " + lang.gettext("The game is paused. The host can /resume it."))
    await settle(context, changed)  # a ↩ Undo offered before the pause goes: the step stands


async def resume(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    resumed = await context.deps.campaigns.resume(chat, player, update_id=update.update_id)
    lang = await lang_of(update)
    await reply(update, resumed_text(resumed.campaign, resumed.came_back, lang))
    for view in resumed.redraw:
        with contextlib.suppress(BadRequest, Forbidden):
            await show(context, view)
    if resumed.came_back:
        await show_menus(context, resumed.campaign, playing=True)


async def end_game(update: Update, context: StonetableContext) -> None:
    """Ask the host to confirm: the game ends only when they press End."""
    chat, player = actor(update)
    view = await context.deps.campaigns.ask_end(chat, player)
    text, markup = end_question(view, await lang_of(update))
    await reply(update, text, markup)


async def answer_end(update: Update, context: StonetableContext) -> None:
    """The host's answer to "end the game?": End, or Cancel."""
    query = update.callback_query
    assert query is not None
    pressed = decode_as(query.data, EndButton)
    chat, player = actor(update)
    campaigns = context.deps.campaigns
    lang = await lang_of(update)
    if pressed.answer is EndAnswer.END:
        ended = await campaigns.end(
            chat, player, pressed.campaign_id, pressed.version, update_id=update.update_id
        )
        await query.answer()
        await settle(context, ended)  # its panels' buttons go first
        await query.edit_message_text(ended_text(ended, lang), parse_mode=ParseMode.HTML)
        await show_menus(context, ended.campaign, playing=False)
    else:
        view = await campaigns.keep_playing(chat, player, pressed.campaign_id)
        await query.answer()
        await query.edit_message_text(kept_text(view, lang), parse_mode=ParseMode.HTML)


async def announce_join(update: Update, context: StonetableContext, payload: str) -> None:
    """Finish a join started in a group, after the player pressed Start in private."""
    assert update.effective_user is not None
    player = player_of(update.effective_user)
    result = await context.deps.campaigns.complete_join(payload, player, update_id=update.update_id)
    view = result.campaign
    await reply(update, welcome_text(view, personal_lang(update), joining=False))
    if result.joined:
        group = lang_for(await chat_language(view.chat_tg_id, view.topic_id))
        await send_game(
            context.bot, view.chat_tg_id, view.topic_id, joined_text(player.display_name, group)
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
        CommandHandler("language", language),
        CallbackQueryHandler(choose_system, pattern=pattern(NewGameButton)),
        CallbackQueryHandler(answer_end, pattern=pattern(EndButton)),
    ]
