"""Campaigns in a group: /newgame, /join, /leave, /pause, /resume, /endgame, /status."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import Forbidden
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.campaigns import CampaignView, Changed, EndedGame, JoinResult, Resumed, own_systems
from core.campaigns.languages import (
    change_language,
    chat_language,
    known_languages,
)
from core.campaigns.play import PlayerRef
from core.rules.errors import NotAllowedNow
from core.store.models import CampaignStatus
from core.store.outbox import Effect
from core.words.i18n import N_, Lang, lang_for
from tgbot.buttons.campaign import EndAnswer, EndButton, NewGameButton
from tgbot.callback import decode_as, pattern
from tgbot.context import StonetableContext
from tgbot.i18n import lang_of, personal_lang
from tgbot.menu import publish_menus
from tgbot.outbox import Drawn, Reply, fixed, game_message, menus, reply_with, sent_with
from tgbot.presenter import settle
from tgbot.render.campaign import (
    end_question,
    ended_text,
    joined_text,
    kept_text,
    language_now,
    language_text,
    resumed_text,
    started_text,
    status_text,
    system_choice,
    welcome_text,
)
from tgbot.render.text import esc
from tgbot.updates import CommandSpec, actor, command_args, player_of

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
        own = [s for s in await own_systems.listed(chat.tg_id) if s.own]
        text, markup = system_choice(campaigns.registry, await lang_of(update), last, own)
        await reply(update, text, markup)
        return
    reply_with(context, started(update))
    view = await campaigns.new_game(chat, player, key, unit=context.unit)
    await sent_with(context, view)


async def choose_system(update: Update, context: StonetableContext) -> None:
    query = update.callback_query
    assert query is not None
    pressed = decode_as(query.data, NewGameButton)
    chat, player = actor(update)
    reply_with(context, started(update))  # the question's message says the game started
    view = await context.deps.campaigns.new_game(chat, player, pressed.system, unit=context.unit)
    await query.answer()
    await sent_with(context, view)


def started(update: Update) -> Reply:
    """A new game's reply, in the language it speaks (its host's), and its menus."""

    async def draw(view: object) -> list[Drawn | str | Effect]:
        assert isinstance(view, CampaignView)
        return [started_text(view, lang_for(view.language)), menus_of(view)]

    return draw


async def language(update: Update, context: StonetableContext) -> None:
    """/language en|ru (or a language's name): the host changes the language the group's
    game speaks; with nothing after it, which language that is and how to change it."""
    chat, player = actor(update)
    if not command_args(update).strip():
        game = await chat_language(chat.tg_id, chat.topic)
        await reply(update, language_now(game, await lang_of(update), known_languages()))
        return
    code = await change_language(chat, player, command_args(update))
    await reply(update, language_text(lang_for(code)))
    view = await context.deps.campaigns.current(chat.tg_id, chat.topic)
    if view is not None:
        await publish_menus(
            context.bot,
            context.deps.campaigns,
            context.stonetable.command_specs,
            [view.chat_tg_id, view.topic_id],
            [],
        )


def menus_of(view: CampaignView) -> Effect:
    """The menus of a game's group and of its players, as the outbox row that sets them."""
    return menus([view.chat_tg_id, view.topic_id], [m.player_id for m in view.members])


JOIN_IN_THE_GROUP = N_(
    "Games are joined in their group: send /join in the group where the game is played, "
    "and I'll write to you here once you're in."
)


async def join(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    if chat.kind == ChatType.PRIVATE:  # a game is joined where it is played
        raise NotAllowedNow(JOIN_IN_THE_GROUP)
    campaigns = context.deps.campaigns
    lang = await lang_of(update)
    reply_with(context, joined(player, lang))
    result = await campaigns.join(chat, player, unit=context.unit)
    if result.start_payload and await can_write_privately(
        context, player.tg_id, result, personal_lang(update)
    ):
        await context.deps.play.mark_started(player)
        result = await campaigns.complete_join(result.start_payload, player, unit=context.unit)
    if await sent_with(context, result):
        return
    link = f"https://t.me/{context.bot.username}?start={result.start_payload}"
    button = InlineKeyboardButton("🔓 " + lang.gettext("Open a private chat"), url=link)
    text = lang.gettext(
        "{name}, I'll need to send you secret things in private. "
        "Tap below and press <b>Start</b>; you'll join right away.",
        name=esc(player.display_name),
    )
    await reply(update, text, InlineKeyboardMarkup([[button]]))  # nothing changed yet


def joined(player: PlayerRef, lang: Lang) -> Reply:
    """A join's reply in the group, and the new member's menu."""

    async def draw(result: object) -> list[Drawn | str | Effect]:
        assert isinstance(result, JoinResult)
        name = esc(player.display_name)
        if result.already_member:
            text = lang.gettext(
                "{name}, you're already in this game. /sheet opens your sheet.", name=name
            )
            return [text]
        return [joined_text(player.display_name, lang), menus(None, [player.tg_id])]

    return draw


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
    lang = await lang_of(update)
    text = "👋 " + lang.gettext("{name} left the game.", name=esc(player.display_name))
    reply_with(context, fixed([text, menus(None, [player.tg_id])]))
    left = await context.deps.campaigns.leave(chat, player, unit=context.unit)
    await settle(context, left)  # e.g. a turn moved on: the panel names who is up now


async def status(update: Update, context: StonetableContext) -> None:
    chat, _ = actor(update)
    view, lines = await context.deps.campaigns.at_a_glance(chat.tg_id, chat.topic)
    await reply(update, status_text(view, await lang_of(update), lines))  # a read


async def pause(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    lang = await lang_of(update)
    reply_with(
        context, fixed(["⏸ " + lang.gettext("The game is paused. The host can /resume it.")])
    )
    changed = await context.deps.campaigns.change_status(
        chat, player, CampaignStatus.PAUSED, unit=context.unit
    )
    await settle(context, changed)  # a ↩ Undo offered before the pause goes: the step stands


async def resume(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    lang = await lang_of(update)

    async def draw(result: object) -> list[Drawn | str | Effect]:
        if isinstance(result, Resumed):  # an ended game came back: its menus too
            return [resumed_text(result.campaign, True, lang), menus_of(result.campaign)]
        assert isinstance(result, Changed)
        return [resumed_text(result.campaign, False, lang)]

    reply_with(context, draw)
    try:
        resumed = await context.deps.campaigns.resume(chat, player, unit=context.unit)
    except NotAllowedNow:  # nothing to resume (any more): the menu stops offering it
        if chat.kind != ChatType.PRIVATE:
            await publish_menus(
                context.bot, context.deps.campaigns, context.stonetable.command_specs,
                [chat.tg_id, chat.topic], [],
            )  # fmt: skip
        raise
    await sent_with(context, resumed.changed or resumed)


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

        async def draw(ended: object) -> list[Drawn | str | Effect]:
            assert isinstance(ended, EndedGame)
            return [ended_text(ended, lang), menus_of(ended.campaign)]

        reply_with(context, draw)  # the question's message says it ended; its panels' buttons go
        ended = await campaigns.end(
            chat, player, pressed.campaign_id, pressed.version, unit=context.unit
        )
        await query.answer()
        await settle(context, ended)
    else:  # nothing changes: the question's message says so
        view = await campaigns.keep_playing(chat, player, pressed.campaign_id)
        await query.answer()
        await query.edit_message_text(kept_text(view, lang), parse_mode=ParseMode.HTML)


async def announce_join(update: Update, context: StonetableContext, payload: str) -> None:
    """Finish a join started in a group, after the player pressed Start in private."""
    assert update.effective_user is not None
    player = player_of(update.effective_user)

    async def draw(result: object) -> list[Drawn | str | Effect]:
        assert isinstance(result, JoinResult)
        view = result.campaign
        replies: list[Drawn | str | Effect] = [
            welcome_text(view, personal_lang(update), joining=False)
        ]
        if result.joined:
            group = lang_for(await chat_language(view.chat_tg_id, view.topic_id))
            text = joined_text(player.display_name, group)
            replies += [game_message(view.chat_tg_id, view.topic_id, text)]
            replies += [menus(None, [player.tg_id])]
        return replies

    reply_with(context, draw)
    result = await context.deps.campaigns.complete_join(payload, player, unit=context.unit)
    await sent_with(context, result)


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
