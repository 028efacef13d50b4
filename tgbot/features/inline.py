"""Inline rolls: ``@bot 2d6+3`` in any chat, even one without the bot.

The inline query only offers the roll (nothing is rolled while typing); when the
player picks it, Telegram posts the offer's message "via @bot" and reports the
chosen result, and only then are the dice rolled and the message edited to show them
(by its ``inline_message_id``). Needs inline mode and inline feedback in BotFather
(README, "Inline rolls").
"""

from __future__ import annotations

from telegram import InlineQueryResult, Update, User
from telegram.constants import ParseMode
from telegram.ext import BaseHandler, ChosenInlineResultHandler, InlineQueryHandler

from core.campaigns.inline_rolls import MAX_OFFERS, chosen, roll_once, stored_roll
from core.campaigns.posts import chosen_game
from core.campaigns.saved_rolls import offered
from core.rules.dice import RollResult
from core.rules.errors import Malformed, StonetableError
from core.words.i18n import N_, lang_for
from tgbot.context import StonetableContext
from tgbot.outbox import sent_with
from tgbot.render.dice import render_roll
from tgbot.render.errors import user_message
from tgbot.render.in_character import post_articles, say_more
from tgbot.render.inline import again_button, inline_results
from tgbot.updates import CommandSpec, player_of

COMMANDS: list[CommandSpec] = []
CACHE_SECONDS = 1  # results hold no dice, but a player's saved rolls change
NO_LONGER_OFFERED = N_("🤔 That roll is no longer offered. Type it again: @{bot} and the dice.")


async def inline_query(update: Update, context: StonetableContext) -> None:
    """Offer the typed roll (and saved rolls) as results; roll nothing."""
    query = update.inline_query
    assert query is not None
    user = query.from_user
    player = player_of(user)
    lang = lang_for(user.language_code)
    rolls, button = inline_results(
        query.query, await offered(user.id, query.query, MAX_OFFERS), player.display_name, lang
    )
    results: list[InlineQueryResult] = list(rolls)
    if query.query.strip():  # the words posted in character, one result per character
        characters = await context.deps.campaigns.posts.characters_of(player)
        posts = post_articles(query.query, characters, lang)
        if posts:
            results, button = [*results, *posts], None  # words that are no roll post too
    await query.answer(results, cache_time=CACHE_SECONDS, is_personal=True, button=button)


async def chosen_result(update: Update, context: StonetableContext) -> None:
    """Roll the picked offer, once per inline message, and edit the message to show it."""
    picked = update.chosen_inline_result
    assert picked is not None
    message_id = picked.inline_message_id
    if message_id is None:  # every offer has a keyboard: nothing of ours to edit
        return
    user = picked.from_user
    lang = lang_for(user.language_code)
    if picked.result_id.startswith(("s", "p")):  # a post in character ("p": with a portrait)
        await _chosen_post(context, picked.result_id, picked.query, message_id, user)
        return
    offer = chosen(picked.query, await offered(user.id, picked.query, MAX_OFFERS), picked.result_id)
    if offer is None:  # built anew from the query, it offers no such roll: nothing rolls
        shown = await stored_roll(message_id)  # unless it was rolled (a saved roll changed since)
        text = lang.gettext(NO_LONGER_OFFERED, bot=context.bot.username)
        await context.bot.edit_message_text(
            text if shown is None else shown,
            inline_message_id=message_id,
            parse_mode=None if shown is None else ParseMode.HTML,
        )
        return
    player = player_of(user)

    def render(result: RollResult) -> str:
        return render_roll(result, player.display_name, lang)

    text = await roll_once(
        context.deps.play.rng, player, message_id, offer, render, unit=context.unit
    )
    await context.bot.edit_message_text(
        text,
        inline_message_id=message_id,
        parse_mode=ParseMode.HTML,
        reply_markup=again_button(offer, lang),
    )


async def _chosen_post(
    context: StonetableContext, result_id: str, query: str, message_id: str, user: User
) -> None:
    """Post the picked words in character in the game the result names, and edit the
    inline message to show the post with its dice (its caption when it was posted with
    the character's portrait): through the outbox, with the post, so an edit lost on the
    way is sent again. Nothing posted: the message says why."""
    lang = lang_for(user.language_code)
    game = chosen_game(result_id, query)
    pictured = result_id.startswith("p")
    try:
        if game is None:
            raise Malformed(NO_LONGER_OFFERED, bot=context.bot.username)
        posts = context.deps.campaigns.posts
        posted = await posts.say_inline(
            player_of(user), game, query, message_id, unit=context.unit, pictured=pictured
        )
    except StonetableError as error:  # nothing was posted: the message says why
        why = user_message(error, lang)
        if pictured:
            await context.bot.edit_message_caption(
                inline_message_id=message_id,
                caption=why,
                parse_mode=ParseMode.HTML,
                reply_markup=say_more(lang),
            )
        else:
            await context.bot.edit_message_text(
                why,
                inline_message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=say_more(lang),
            )
        return
    await sent_with(context, posted)  # its edit, written with the post (sent again if lost)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [InlineQueryHandler(inline_query), ChosenInlineResultHandler(chosen_result)]
