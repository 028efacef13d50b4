"""``/nudge``: how long a game waits on a player before reminding them (the host), and a
player's own mute: ``/nudge 12h``, ``/nudge off``, ``/nudge mute``, ``/nudge unmute``, and
``/nudge`` alone for the setting now; Russian words are read too (``12ч``, ``выкл``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.campaigns.turns import NudgeSet
from core.rules.errors import NotAllowedNow
from core.rules.reminders import NudgeWord
from core.rules.said import worded
from core.rules.typed import nudge_text
from core.rules.waiting import waited
from core.words.i18n import N_, Lang
from core.words.typed_words import vocabulary
from tgbot.context import StonetableContext
from tgbot.i18n import lang_of
from tgbot.updates import CommandSpec, actor, command_args

COMMANDS = [CommandSpec("nudge", N_("Reminders: /nudge 12h, off, mute or unmute"), private=False)]

IN_PRIVATE = N_("Send /nudge in your game's group.")
WAIT_NOW = N_("⏳ This game reminds whoever it waits on after {wait}.")
OFF_NOW = N_("🔕 This game sends no reminders. The host can turn them on: /nudge 12h.")
MUTED_NOW = N_("You muted your reminders here: /nudge unmute brings them back.")
HOW = N_("The host sets the wait: /nudge 12h (from 1m to 7d) or /nudge off; anyone: /nudge mute.")
WAIT_SET = N_("⏳ Done: whoever this game waits on is reminded after {wait}.")
OFF_SET = N_("🔕 Done: this game sends no more reminders.")
MUTE_SET = N_("🔇 Done: no more reminders for you in this game, private or in the group.")
UNMUTE_SET = N_("🔔 Done: you'll be reminded again when this game waits on you.")

_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


def _wait(wait: timedelta, lang: Lang) -> str:
    """``12 h``, ``1 d 6 h``, ``30 min`` in the reader's language."""
    return worded(waited(_EPOCH, _EPOCH + wait), lang.gettext)


def _setting(wait: timedelta | None, muted: bool, lang: Lang) -> str:
    first = (
        lang.gettext(OFF_NOW) if wait is None else lang.gettext(WAIT_NOW, wait=_wait(wait, lang))
    )
    lines = [first, *([lang.gettext(MUTED_NOW)] if muted else []), lang.gettext(HOW)]
    return "\n".join(lines)


def _done(result: NudgeSet, lang: Lang) -> str:
    if result.word is NudgeWord.MUTE:
        return lang.gettext(MUTE_SET)
    if result.word is NudgeWord.UNMUTE:
        return lang.gettext(UNMUTE_SET)
    if result.wait is None:
        return lang.gettext(OFF_SET)
    return lang.gettext(WAIT_SET, wait=_wait(result.wait, lang))


async def nudge(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    if chat.kind == ChatType.PRIVATE:
        raise NotAllowedNow(IN_PRIVATE)
    lang = await lang_of(update)
    words = command_args(update).strip()
    campaigns = context.deps.campaigns
    if not words:
        setting = await campaigns.nudge_setting(chat, player)
        text = _setting(setting.wait, setting.muted, lang)
    else:
        typed = nudge_text(words, vocabulary())
        text = _done(await campaigns.nudge(chat, player, typed, unit=context.unit), lang)
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("nudge", nudge)]
