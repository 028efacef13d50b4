"""/story: the host shares the campaign's story as a read-only link (webapp/story.py);
``/story off`` withdraws it (when no game runs in the chat, the link of the game that
ended there last)."""

from __future__ import annotations

from datetime import UTC, datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.campaigns.views import NO_GAME
from core.rules.errors import NotAllowedNow
from core.rules.typed import command_word
from core.views import story as stories
from core.words.i18n import N_
from core.words.typed_words import vocabulary
from tgbot.context import StonetableContext
from tgbot.features.sheet import NOT_CONFIGURED
from tgbot.i18n import lang_of
from tgbot.render.text import esc
from tgbot.updates import CommandSpec, actor, command_args

COMMANDS = [
    CommandSpec(
        "story",
        N_("Share the campaign's story as a link; /story off withdraws it (host)"),
        private=False,
    )
]


def story_base(webapp_url: str | None) -> str | None:
    """Where story links live: beside the Mini App (``https://host/app`` -> ``https://host``)."""
    if webapp_url is None:
        return None
    return webapp_url.rstrip("/").removesuffix("/app")


async def story(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    campaigns = context.deps.campaigns
    off = command_word(command_args(update), vocabulary()) == "off"
    view = await campaigns.current(chat.tg_id, chat.topic)
    if view is None and off:  # an ended game's link: its host may still withdraw it
        last = await campaigns.last_ended(chat.tg_id, chat.topic)
        view = None if last is None else last.campaign
    if view is None:
        raise NotAllowedNow(NO_GAME)
    lang = await lang_of(update)
    message = update.effective_message
    assert message is not None
    if off:
        now = datetime.fromtimestamp(campaigns.clock(), UTC)
        await stories.withdraw(campaigns.registry, view.app_token, player.tg_id, now)
        text = lang.gettext("🔒 The story's link is withdrawn: it no longer opens.")
        await message.reply_text(text, parse_mode=ParseMode.HTML)
        return
    base = story_base(context.deps.webapp_url)
    if base is None:
        await message.reply_text(lang.gettext(NOT_CONFIGURED))
        return
    secret = await stories.publish(campaigns.registry, view.app_token, player.tg_id)
    url = f"{base}/story/{secret}"
    text = lang.gettext(
        "📖 The story so far, as the whole table has seen it: {link}\n"
        "Anyone with the link can read it. <code>/story off</code> withdraws it.",
        link=esc(url),
    )
    button = InlineKeyboardButton("📖 " + lang.gettext("Read the story"), url=url)
    await message.reply_text(
        text, parse_mode=ParseMode.HTML, reply_markup=InlineKeyboardMarkup([[button]])
    )


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("story", story)]
