"""A turn order for games played over days: ``/turns`` (the host sets or rolls it, or
taps the players in order) and ``/next`` (the turn passes on)."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.campaigns.turns import TurnsSet
from core.rules.errors import Malformed, NotAllowedNow
from core.words.i18n import N_, Lang
from tgbot.buttons.turns import CLEAR_TAP, ROLL_TAP, TurnsButton
from tgbot.callback import OUTDATED, decode_as, pattern
from tgbot.context import StonetableContext
from tgbot.i18n import lang_of
from tgbot.outbox import Reply, reply_with, sent_with
from tgbot.render.turns import DIGITS, choice_text, next_text, set_text
from tgbot.updates import CommandSpec, actor, command_args

COMMANDS = [
    CommandSpec("turns", N_("Set the turn order: names, roll, or tap (host)"), private=False),
    CommandSpec("next", N_("Pass the turn to the next player"), private=False),
]

IN_PRIVATE = N_("Send this in your game's group.")


def _drawn(lang: Lang, passed: bool = False) -> Reply:
    async def draw(result: object) -> str:
        assert isinstance(result, TurnsSet)
        return next_text(result, lang) if passed else set_text(result, lang)

    return draw


async def turns(update: Update, context: StonetableContext) -> None:
    """``/turns`` alone posts the buttons; ``/turns Ana, Bo, Cy`` or ``/turns roll`` sets it."""
    chat, player = actor(update)
    if chat.kind == ChatType.PRIVATE:
        raise NotAllowedNow(IN_PRIVATE)
    lang = await lang_of(update)
    words = command_args(update).strip()
    use = context.deps.campaigns.turns
    if not words:
        choice = await use.choosing(chat, player)  # a read: the buttons change nothing yet
        text, markup = choice_text(choice, (), lang)
        assert update.effective_message is not None
        await update.effective_message.reply_text(
            text, parse_mode=ParseMode.HTML, reply_markup=markup
        )
        return
    reply_with(context, _drawn(lang))
    result = await use.set_turns(chat, player, words, unit=context.unit)
    await sent_with(context, result)


async def press(update: Update, context: StonetableContext) -> None:
    """A tap on the ``/turns`` buttons: one more player picked (the order is set once all
    are), the order rolled, or the picks cleared."""
    query = update.callback_query
    assert query is not None
    pressed = decode_as(query.data, TurnsButton)
    chat, player = actor(update)
    lang = await lang_of(update)
    use = context.deps.campaigns.turns
    choice = await use.choosing(chat, player)  # the host only, and the game as it is now
    if choice.campaign_id != pressed.campaign_id or len(choice.players) != pressed.count:
        raise Malformed(OUTDATED)
    try:
        picked = [choice.players[DIGITS.index(c)] for c in pressed.picked]
        tap = None if pressed.tap < 0 else choice.players[pressed.tap]
    except (ValueError, IndexError):
        raise Malformed(OUTDATED) from None
    if tap in picked or len(set(picked)) != len(picked):
        raise Malformed(OUTDATED)
    if pressed.tap == ROLL_TAP or (tap is not None and len(picked) + 2 >= len(choice.players)):
        if tap is not None:  # the last one left follows
            picked.append(tap)
            picked += [p for p in choice.players if p not in picked]
        reply_with(context, _drawn(lang))
        words = "roll" if pressed.tap == ROLL_TAP else ""
        result = await use.set_turns(chat, player, words, players=picked or None, unit=context.unit)
        await query.answer()
        await sent_with(context, result)
        return
    if pressed.tap == CLEAR_TAP:
        picked = []
    elif tap is not None:
        picked.append(tap)
    text, markup = choice_text(choice, tuple(picked), lang)
    await query.answer()
    await query.edit_message_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)


async def next_turn(update: Update, context: StonetableContext) -> None:
    """``/next``: the holder or the host passes the turn; the next player is mentioned."""
    chat, player = actor(update)
    if chat.kind == ChatType.PRIVATE:
        raise NotAllowedNow(IN_PRIVATE)
    reply_with(context, _drawn(await lang_of(update), passed=True))
    result = await context.deps.campaigns.turns.next_turn(chat, player, unit=context.unit)
    await sent_with(context, result)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CommandHandler("turns", turns),
        CommandHandler("next", next_turn),
        CallbackQueryHandler(press, pattern=pattern(TurnsButton)),
    ]
