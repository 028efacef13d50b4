"""/save and /saved: rolls kept under a name, for /roll NAME (core/campaigns/saved_rolls.py)."""

from __future__ import annotations

import asyncio
import contextlib

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, Forbidden
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.campaigns import saved_rolls
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.saved_rolls import ShownList, Table
from core.rules.dice import DiceExpression
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.saved import key, might_use
from core.words.i18n import N_, Lang, available, lang_for
from tgbot.buttons.saved import SavedRollButton
from tgbot.callback import OUTDATED, decode_as, pattern
from tgbot.context import StonetableContext
from tgbot.edits import edit_text, reply_html
from tgbot.i18n import lang_of
from tgbot.presenter import in_outbox
from tgbot.render import saved as render
from tgbot.render.dice import render_roll
from tgbot.sender import send_pending
from tgbot.updates import CommandSpec, actor, command_args, player_of

NEWER_LIST = N_("A newer list is below.")
LIST_REDRAWN = N_(
    "🔄 These saved rolls changed since this list was drawn: it shows them as they are now. "
    "Tap again to roll."
)

COMMANDS = [
    CommandSpec("save", N_("Save a roll under a name: /save atk 1d20+5")),
    CommandSpec("saved", N_("Your saved rolls, a button to roll each")),
]


def _table(chat: ChatRef) -> Table | None:
    """The table of a group's topic (a private chat has none)."""
    return None if chat.kind == ChatType.PRIVATE else Table(chat.tg_id, chat.topic)


def _is(word: str, which: str, lang: Lang) -> bool:
    """Whether ``word`` is the typed ``which`` word in the reader's language or any other."""
    low = key(word)
    langs = [lang, *(lang_for(code) for code in available())]
    return any(low in {key(w) for w in render.words(each)[which]} for each in langs)


async def _hosted(context: StonetableContext, chat: ChatRef, player: PlayerRef) -> Table | None:
    """This chat topic's table when the player hosts the game there."""
    table = _table(chat)
    if table is None:
        return None
    view = await context.deps.campaigns.current(chat.tg_id, chat.topic)
    return table if view is not None and view.host_id == player.tg_id else None


async def save(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    lang = await lang_of(update)
    words = command_args(update).split(maxsplit=2)
    for_table = len(words) == 3 and _is(words[0], "table", lang)
    words = words[1:] if for_table else command_args(update).split(maxsplit=1)
    assert update.effective_message is not None
    if len(words) < 2:
        await reply_html(update.effective_message, render.usage_save(lang))
        return
    if for_table:  # the use case says whether this player may: the game's host
        table = _table(chat)
        view = (
            None if table is None else await context.deps.campaigns.current(chat.tg_id, chat.topic)
        )
        host = None if view is None else view.host_id
        roll, replaced = await saved_rolls.save_for_table(
            player.tg_id, words[0], words[1], table, host
        )
    else:
        roll, replaced = await saved_rolls.save(player.tg_id, words[0], words[1])
    await _redraw_lists(context, player.tg_id, _table(chat))  # the lists first, the answer below
    await reply_html(update.effective_message, render.saved(roll, replaced, lang))


async def saved(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    lang = await lang_of(update)
    message = update.effective_message
    assert message is not None
    words = command_args(update).split()
    if words and _is(words[0], "rename", lang) and len(words) == 3:
        found = await _mine_or_table(context, chat, player, words[1])
        hosted = await _hosted(context, chat, player)
        renamed = await saved_rolls.rename(found.id, player.tg_id, words[2], hosted)
        await _redraw_lists(context, player.tg_id, _table(chat))
        await reply_html(message, render.renamed(found.name, renamed, lang))
        return
    if words and _is(words[0], "delete", lang) and len(words) == 2:
        found = await _mine_or_table(context, chat, player, words[1])
        hosted = await _hosted(context, chat, player)
        gone = await saved_rolls.delete(found.id, player.tg_id, hosted)
        await _redraw_lists(context, player.tg_id, _table(chat))
        await reply_html(message, render.deleted(gone, lang))
        return
    table = _table(chat)
    listed = await saved_rolls.list_for(player, table)
    text, markup = render.listing(listed, lang, player.tg_id)
    if rereads := await saved_rolls.reread_once(listed):
        text = render.rereads(rereads, lang) + "\n\n" + text
    for older in await saved_rolls.lists_here(player.tg_id, table or Table(chat.tg_id)):
        await _draw_list(context, older, retired=True)  # superseded by the one below
    sent = await message.reply_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)
    await saved_rolls.list_shown(
        ShownList(chat.tg_id, sent.message_id, player.tg_id, table, lang.code)
    )


async def _draw_list(
    context: StonetableContext, shown: ShownList, *, retired: bool = False
) -> None:
    """Draw a /saved list on screen anew, as its saved rolls are now; ``retired``: without
    its buttons, saying a newer list is below (as a superseded panel says). Best effort:
    a message deleted, or a chat that blocked the bot, changes nothing else."""
    lang = lang_for(shown.language)
    text, markup = render.listing(
        await saved_rolls.listed(shown.owner, shown.table), lang, shown.owner
    )
    if retired:
        text, markup = f"{text}\n\n⏭ <i>{lang.gettext(NEWER_LIST)}</i>", None
    with contextlib.suppress(BadRequest, Forbidden):
        await edit_text(context.bot, shown.chat_tg_id, shown.message_id, text, markup)


async def _redraw_lists(context: StonetableContext, owner: int, table: Table | None) -> None:
    """Redraw every /saved list on screen that shows ``owner``'s saved rolls or ``table``'s,
    after one of them changed."""
    for shown in await saved_rolls.lists_showing(owner, table):
        await _draw_list(context, shown)


async def _mine_or_table(
    context: StonetableContext, chat: ChatRef, player: PlayerRef, name: str
) -> saved_rolls.SavedRoll:
    """The player's own saved roll ``name``, else the table's when they host the game here."""
    try:
        return await saved_rolls.find(player.tg_id, name)
    except NotAllowedNow:
        hosted = await _hosted(context, chat, player)
        if hosted is None:
            raise
        return await saved_rolls.find(player.tg_id, name, hosted)


async def roll_saved(update: Update, context: StonetableContext, text: str) -> bool:
    """``/roll atk+2``: a roll naming the player's saved rolls (or the table's here).

    False when the text names none (an ordinary roll, or a game's own).
    """
    if not might_use(text):
        return False
    chat, player = actor(update)
    resolved = await saved_rolls.resolve(text, player.tg_id, _table(chat))
    if resolved is None:
        return False
    await _roll(update, context, chat, player, resolved.expression)
    await _tell_rereads(update, resolved.used)
    return True


async def _tell_rereads(update: Update, used: tuple[saved_rolls.SavedRoll, ...]) -> None:
    """Once, after a roll: the saved rolls it used that the notation now reads otherwise."""
    if rereads := await saved_rolls.reread_once(used):
        assert update.effective_message is not None
        await reply_html(update.effective_message, render.rereads(rereads, await lang_of(update)))


async def _roll(
    update: Update,
    context: StonetableContext,
    chat: ChatRef,
    player: PlayerRef,
    expression: DiceExpression,
) -> None:
    result = await context.deps.play.roll(chat, player, expression, unit=context.unit)
    if in_outbox(context, result):  # its message was written with the roll: send it
        await send_pending(context.stonetable, context.unit)
        return
    assert update.effective_message is not None
    lang = await lang_of(update)
    await reply_html(update.effective_message, render_roll(result, player.display_name, lang))


async def press_saved(update: Update, context: StonetableContext) -> None:
    """A /saved button: roll that saved roll for whoever pressed (theirs, or the table's);
    a list drawn before its saved rolls changed is drawn anew, and nothing rolls."""
    query = update.callback_query
    assert query is not None and update.effective_user is not None
    pressed = decode_as(query.data, SavedRollButton)
    chat, _ = actor(update)
    player = player_of(update.effective_user)
    table = _table(chat)
    roll = await saved_rolls.pressed(
        pressed.saved_id, pressed.owner, pressed.mark, player.tg_id, table
    )
    if roll is None:
        lang = await lang_of(update)
        listed = await saved_rolls.listed(pressed.owner, table)  # the list's owner's, as now
        text, markup = render.listing(listed, lang, pressed.owner)
        await query.answer(lang.gettext(LIST_REDRAWN), show_alert=True)
        if query.message is not None:
            with contextlib.suppress(BadRequest):
                await edit_text(context.bot, chat.tg_id, query.message.message_id, text, markup)
        return
    resolved = await saved_rolls.resolve(roll.name, player.tg_id, table)
    if resolved is None:
        raise Malformed(OUTDATED)
    await asyncio.gather(query.answer(), _roll(update, context, chat, player, resolved.expression))
    await _tell_rereads(update, resolved.used)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CommandHandler("save", save),
        CommandHandler("saved", saved),
        CallbackQueryHandler(press_saved, pattern=pattern(SavedRollButton)),
    ]
