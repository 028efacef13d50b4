"""Cortex drama in a group: /test, /contest, /relieve, /trouble, /trait and the Watchtower's
/feature, /endscene and /endepisode.

A Test or Contest is one panel message edited in place; its buttons go through
the shared handler in :mod:`tgbot.features.panels`, and a reply to it is its text
(a Useful Detail or Aid). Sheet edits go through the campaign's rules, like the
Mini App's.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.campaigns import CampaignView, Changed
from core.campaigns.play import ChatRef, PlayerRef
from core.rules.cortex.campaign import TRAIT_HELP, load, trait_edit
from core.rules.cortex.panel import CONFLICT_PANEL
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.typed import contest_text, trait_text
from core.words.cortex_words import stress_typed
from core.words.i18n import N_, Lang
from core.words.typed_words import vocabulary
from tgbot.context import StonetableContext
from tgbot.features.panels import post_panel
from tgbot.i18n import lang_of
from tgbot.outbox import fixed, reply_with
from tgbot.presenter import settle
from tgbot.render.cortex import RENDERERS as CORTEX_RENDERERS
from tgbot.render.cortex import recorded_text, table_text
from tgbot.render.text import esc
from tgbot.updates import CommandSpec, actor, command_args, not_playing

SYSTEM_KEY = "cortex"
COMMANDS = [
    CommandSpec(
        "test",
        N_("Cortex: a Test against the Watchtower (/test or /test Lex)"),
        private=False,
        game=SYSTEM_KEY,
    ),
    CommandSpec(
        "contest",
        N_("Cortex: a Contest (/contest Lex, or /contest Lex vs Clark)"),
        private=False,
        game=SYSTEM_KEY,
    ),
    CommandSpec(
        "relieve",
        N_("Cortex: relieve a friend's Stress (/relieve Lois Afraid)"),
        private=False,
        game=SYSTEM_KEY,
    ),
    CommandSpec(
        "trouble", N_("Cortex: Trouble, Plot Points and Stress"), private=False, game=SYSTEM_KEY
    ),
    CommandSpec("trait", N_("Cortex: write a trait (/trait value Justice d8)"), game=SYSTEM_KEY),
    CommandSpec(
        "feature", N_("Cortex: add a Feature (Watchtower)"), private=False, game=SYSTEM_KEY
    ),
    CommandSpec(
        "endscene", N_("Cortex: end the scene (Watchtower)"), private=False, game=SYSTEM_KEY
    ),
    CommandSpec(
        "endepisode", N_("Cortex: end the episode (Watchtower)"), private=False, game=SYSTEM_KEY
    ),
]
RENDERERS = list(CORTEX_RENDERERS)


async def _cortex_game(
    context: StonetableContext, chat: ChatRef, player: PlayerRef
) -> CampaignView:
    """The Cortex game of this group, or (in private) the player's one Cortex game."""
    campaigns = context.deps.campaigns
    if chat.kind == ChatType.PRIVATE:
        games = [g for g in await campaigns.campaigns_of(player) if g.system.key == SYSTEM_KEY]
        if not games:
            raise await not_playing(campaigns, player, SYSTEM_KEY)
        if len(games) != 1:
            raise NotAllowedNow(N_("Use this in your game's group (or keep to one Cortex game)."))
        return games[0]
    view = await campaigns.require_current(chat.tg_id, chat.topic)
    if view.system.key != SYSTEM_KEY:
        raise NotAllowedNow(N_("That command is for Cortex drama games."))
    return view


async def _stress_meant(
    context: StonetableContext, view: CampaignView, player: PlayerRef, words: str, lang: Lang
) -> str:
    """``friend Type`` with a default Stress type named in ``lang`` read as the stored type."""
    friend, _, typed = words.strip().rpartition(" ")
    if not friend:
        return words
    _, table = await context.deps.campaigns.table_for_viewer(view.app_token, player)
    types = load(table).table.settings.stress_types
    return f"{friend} {stress_typed(typed, types, lang)}"


def _opener(word: str) -> Callable[[Update, StonetableContext], Coroutine[Any, Any, None]]:
    async def handler(update: Update, context: StonetableContext) -> None:
        chat, player = actor(update)
        view = await _cortex_game(context, chat, player)
        words = command_args(update)
        if word == "relief":  # the Stress type may be typed in the reader's language
            words = await _stress_meant(context, view, player, words, await lang_of(update))
        if word == "contest":  # «/contest Лекс против Кларк»
            words = contest_text(words, vocabulary())
        argument = f"{word} {words}".strip()
        panel = await context.deps.campaigns.open_panel(
            chat, player, CONFLICT_PANEL, argument, unit=context.unit
        )
        await post_panel(update, context, panel)

    return handler


async def trouble(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    view = await _cortex_game(context, chat, player)
    _, table = await context.deps.campaigns.table_for_viewer(view.app_token, player)
    await _reply(update, table_text(load(table).table, await lang_of(update)))


async def trait(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    text = command_args(update).strip()
    if not text:
        await _reply(update, esc((await lang_of(update)).gettext(TRAIT_HELP)))
        return
    view = await _cortex_game(context, chat, player)
    who, named, rest = text.partition(":")  # «Лоис: ценность …» edits another's sheet
    words = vocabulary()  # keywords typed in any catalogue's words
    text = f"{who}: {trait_text(rest, words)}" if named else trait_text(text, words)
    lang = await lang_of(update)

    async def noted(edited: object) -> str:
        assert isinstance(edited, Changed)
        table = load(edited.table).table
        try:  # what was written, read as the rules read it
            said = recorded_text(*trait_edit(table, text), lang)
        except Malformed:  # a sheet renamed by this very edit no longer answers to its name
            said = lang.gettext("✅ Noted.")
        return said + "\n" + table_text(table, lang)

    reply_with(context, noted)  # written with the edit, sent after its commit
    edited = await context.deps.campaigns.edit(
        view.app_token, player, "text", {"text": text}, unit=context.unit
    )
    await settle(context, edited)


def _table_edit(
    action: str, done: str
) -> Callable[[Update, StonetableContext], Coroutine[Any, Any, None]]:
    async def handler(update: Update, context: StonetableContext) -> None:
        chat, player = actor(update)
        view = await _cortex_game(context, chat, player)
        payload = {"name": command_args(update).strip()} if action == "feature.add" else {}
        reply_with(context, fixed([(await lang_of(update)).gettext(done)]))  # written with the edit
        edited = await context.deps.campaigns.edit(
            view.app_token, player, action, payload, unit=context.unit
        )
        await settle(context, edited)

    return handler


async def _reply(update: Update, text: str) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CommandHandler("test", _opener("test")),
        CommandHandler("contest", _opener("contest")),
        CommandHandler("relieve", _opener("relief")),
        CommandHandler("trouble", trouble),
        CommandHandler("trait", trait),
        CommandHandler(
            "feature", _table_edit("feature.add", N_("👁 A new Feature joins the story."))
        ),
        CommandHandler("endscene", _table_edit("scene.end", N_("🎬 The scene ends."))),
        CommandHandler(
            "endepisode", _table_edit("episode.end", N_("🎬 The episode ends: Stress steps back."))
        ),
    ]
