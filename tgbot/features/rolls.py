"""/rolls: the last rolls made in this chat (or this forum topic), in one message;
secret rolls (/sroll, or /roll ... secret) and their ``👁 Reveal`` button."""

from __future__ import annotations

import asyncio

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.campaigns.play import SecretRoll
from core.campaigns.saved_rolls import saved_or_text
from core.campaigns.secret_rolls import audience, reveal, secret_request
from core.campaigns.system_rolls import SecretSystemRoll
from core.rules.dicesystem import ROLL_PANEL as LIBRARY_ROLL
from core.rules.dicesystem import Mistyped, RolledPanel
from core.rules.errors import Malformed
from core.store.outbox import Effect
from core.store.roll_history import CHAT_ROLLS, rolls_in
from core.words.i18n import N_, Lang, lang_for
from tgbot.buttons.rolls import RevealButton
from tgbot.callback import decode_as, pattern
from tgbot.context import StonetableContext
from tgbot.edits import markup_json, reply_html
from tgbot.features.dicesystem import odds_before_roll
from tgbot.i18n import lang_of, personal_lang
from tgbot.outbox import Drawn, private_note, reply_with
from tgbot.presenter import in_outbox
from tgbot.private import INBOX
from tgbot.render.dice import render_roll
from tgbot.render.dicesystem import roll_text
from tgbot.render.rolls import (
    open_private_first,
    render_rolls,
    reveal_label,
    revealed,
    secret_in_chat,
    secret_in_private,
)
from tgbot.sender import send_pending
from tgbot.updates import CommandSpec, actor, command_args, player_of

COMMANDS = [
    CommandSpec("rolls", N_("The last ten rolls in this chat")),
    CommandSpec("sroll", N_("Roll in secret: /sroll 1d20+5"), private=False),
]


async def rolls(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    # in a private chat the reader saw their own secret rolls; in a group, only what all saw
    viewer = player.tg_id if chat.kind == ChatType.PRIVATE else None
    found = await rolls_in(chat.tg_id, chat.topic, viewer, limit=CHAT_ROLLS)
    assert update.effective_message is not None
    await reply_html(update.effective_message, render_rolls(found, await lang_of(update)))


async def sroll(update: Update, context: StonetableContext) -> None:
    text, _ = secret_request(command_args(update))
    await secret_roll(update, context, text)


async def secret_roll(update: Update, context: StonetableContext, text: str) -> None:
    """Roll privately: the roller (and the game's GM) get the dice; the chat, a button.

    In a private chat a roll is private already: it is an ordinary roll there.
    """
    chat, player = actor(update)
    message = update.effective_message
    assert message is not None
    what = await saved_or_text(chat, player, text or "d20")  # /sroll atk: a saved roll
    if chat.kind == ChatType.PRIVATE:
        result = await context.deps.play.roll(chat, player, what, unit=context.unit)
        if in_outbox(context, result):  # its message was written with the roll: send it
            await send_pending(context.stonetable, context.unit)
            return
        await reply_html(message, render_roll(result, player.display_name, personal_lang(update)))
        return
    view = await context.deps.campaigns.current(chat.tg_id, chat.topic)
    masters = [m.player_id for m in view.game_masters] if view is not None else []
    seen = audience(player.tg_id, None if view is None else view.system.key, masters)
    group_lang = await lang_of(update)
    where = view.chat_title if view is not None else chat.title or "?"  # with its topic
    own = personal_lang(update)

    def roll_words(kept: object, lang: Lang) -> str:
        """The roll as those who saw it read it: dice, or the game's own roll."""
        if isinstance(kept, SecretSystemRoll):
            assert isinstance(kept.rolled, RolledPanel)
            rolled = kept.rolled
            return roll_text(rolled, player.display_name, lang, value=rolled.shows_value)
        assert isinstance(kept, SecretRoll)
        return render_roll(kept.result, player.display_name, lang)

    async def draw(kept: object) -> list[Drawn | str | Effect]:
        """Written with the roll: the roller's private message, then (a dependent step of
        the same row) the chat's line with its 👁 Reveal button, or how to open a private
        chat when Telegram refused it; then the GM's notes."""
        assert isinstance(kept, SecretRoll | SecretSystemRoll)
        link = f"https://t.me/{context.bot.username}?start={INBOX}"
        button = InlineKeyboardButton(group_lang.gettext("🔓 Open my messages"), url=link)
        reveal_button = InlineKeyboardButton(
            reveal_label(group_lang), callback_data=RevealButton(kept.roll_id).encode()
        )
        refused = InlineKeyboardMarkup([[button]])
        shown = InlineKeyboardMarkup([[reveal_button]])
        secret = {
            "user_id": player.tg_id,
            "roll_id": kept.roll_id,
            "private": secret_in_private(roll_words(kept, own), where, own),
            "chat_id": chat.tg_id,
            "topic": chat.topic,
            "reply_to": message.message_id,
            "shown": [secret_in_chat(player.display_name, group_lang), markup_json(shown)],
            "refused": [open_private_first(player.display_name, group_lang), markup_json(refused)],
        }
        notes = [
            private_note(
                m.player_id,
                secret_in_private(
                    roll_words(kept, lang_for(m.language)), where, lang_for(m.language)
                ),
                group=(chat.tg_id, chat.topic),
                name=m.name,
            )
            for m in (view.game_masters if view is not None else ())
            if m.player_id in seen and m.player_id != player.tg_id
        ]
        return [Effect("secret", secret), *notes]

    reply_with(context, draw)
    own_roll = isinstance(what, str) and text.strip()  # not a saved roll's dice
    if view is not None and view.system.roll_panel == LIBRARY_ROLL and own_roll:
        try:  # the game's own roll (+2), in secret; dice notation rolls dice below
            await odds_before_roll(context, view, player, text)
            await context.deps.campaigns.roll_system_in_secret(
                chat, player, text, seen, unit=context.unit
            )
        except Mistyped:
            raise  # the game's own roll, mistyped: its reason
        except Malformed:
            pass
        else:
            await send_pending(context.stonetable, context.unit)
            return
    await context.deps.play.roll_in_secret(chat, player, what, seen, unit=context.unit)
    await send_pending(context.stonetable, context.unit)


async def press_reveal(update: Update, context: StonetableContext) -> None:
    """The roller or a GM who saw it shows a secret roll to the chat."""
    query = update.callback_query
    assert query is not None and update.effective_user is not None
    pressed = decode_as(query.data, RevealButton)
    by = player_of(update.effective_user)
    kept = await reveal(pressed.roll_id, by.tg_id)
    lang = await lang_of(update)
    await asyncio.gather(
        query.answer(),
        query.edit_message_text(
            revealed(kept.roll, by.display_name, lang, kept.repeats), parse_mode=ParseMode.HTML
        ),
    )


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [
        CommandHandler("rolls", rolls),
        CommandHandler("sroll", sroll),
        CallbackQueryHandler(press_reveal, pattern=pattern(RevealButton)),
    ]
