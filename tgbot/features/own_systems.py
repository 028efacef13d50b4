"""/system: a group's own game systems, written in one message (core/campaigns/own_systems.py)
or step by step by reply (core/campaigns/system_drafts.py)."""

from __future__ import annotations

from telegram import Message, Update
from telegram.constants import ParseMode
from telegram.ext import BaseHandler, CommandHandler

from core.campaigns import own_systems, system_drafts
from core.campaigns.own_games import playing_older
from core.campaigns.own_systems import SHARE_PREFIX
from core.rules.saved import key as folded
from core.rules.systems.drafting import Step
from core.words.i18n import N_, Lang, available, lang_for
from tgbot.context import StonetableContext
from tgbot.edits import reply_html
from tgbot.i18n import lang_of
from tgbot.render import own_systems as render
from tgbot.updates import CommandSpec, actor, command_args, replied

COMMANDS = [
    CommandSpec(
        "system", N_("This group's own game systems: /system new writes one"), private=False
    ),
]


def _which(word: str, lang: Lang) -> str | None:
    """Which of /system's words ``word`` is, in the reader's language or any other."""
    low = folded(word)
    for each in (lang, *(lang_for(code) for code in available())):
        for which, typed in render.words(each).items():
            if low in {folded(w) for w in typed}:
                return which
    return None


def definition_text(typed: str) -> str:
    """The definition in a message: as typed, without a code block's fences."""
    lines = typed.strip().splitlines()
    if lines and lines[0].startswith("```"):
        lines = lines[1:]
    if lines and lines[-1].strip() == "```":
        lines = lines[:-1]
    return "\n".join(lines).strip()


async def import_by_link(update: Update, context: StonetableContext, token: str) -> None:
    """Copy a shared system into this group (/system import TOKEN, or its link)."""
    chat, player = actor(update)
    lang = await lang_of(update)
    assert update.effective_message is not None
    system = await own_systems.import_shared(
        chat.tg_id,
        player.tg_id,
        token,
        locks=context.deps.campaigns.locks,
        unit=context.unit,
    )
    await reply_html(update.effective_message, render.created(system, lang))


async def ask(
    message: Message, context: StonetableContext, author: int, step: Step, lang: Lang
) -> None:
    """Ask ``step`` of ``author``'s draft in a message they answer by replying (a reply
    to ``message``, theirs: their app opens the reply by itself)."""
    sent = await message.reply_text(
        render.question(step, lang),
        parse_mode=ParseMode.HTML,
        reply_markup=render.answer_field(step, lang),
    )
    await system_drafts.asked(message.chat_id, author, sent.message_id, unit=context.unit)


async def draft_reply(update: Update, context: StonetableContext) -> bool:
    """A host's reply to a question of their draft: its answer, or a cancel. False when
    the message replies to no question of theirs."""
    message = update.effective_message
    answered = replied(message)
    if message is None or answered is None or update.effective_user is None:
        return False
    chat, player = actor(update)
    if not await system_drafts.waits_on(chat.tg_id, player.tg_id, answered.message_id):
        return False
    lang = await lang_of(update)
    text = (message.text or "").strip()
    locks = context.deps.campaigns.locks
    if _which(text, lang) == "cancel":
        dropped = await system_drafts.cancel(
            chat.tg_id, player.tg_id, locks=locks, unit=context.unit
        )
        await reply_html(message, render.cancelled(dropped, lang))
        return True
    done = await system_drafts.reply(
        chat.tg_id, player.tg_id, answered.message_id, text, locks=locks, unit=context.unit
    )
    if done is None:
        return False
    if done.kept is not None:
        await reply_html(message, render.created(done.kept, lang))
    elif done.step is not None:
        await ask(message, context, player.tg_id, done.step, lang)
    return True


async def system(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    lang = await lang_of(update)
    message = update.effective_message
    assert message is not None
    words = command_args(update).split(maxsplit=1)
    which = _which(words[0], lang) if words else None
    rest = words[1] if len(words) > 1 else ""
    locks = context.deps.campaigns.locks
    if not words:
        listed = await own_systems.listed(chat.tg_id)
        await reply_html(message, render.listing(listed, lang))
    elif which == "new" and not rest:
        step = await system_drafts.start(chat.tg_id, player.tg_id, locks=locks, unit=context.unit)
        await ask(message, context, player.tg_id, step, lang)
    elif which == "cancel":
        dropped = await system_drafts.cancel(
            chat.tg_id, player.tg_id, locks=locks, unit=context.unit
        )
        await reply_html(message, render.cancelled(dropped, lang))
    elif which in ("new", "edit") and rest:
        text = definition_text(rest)
        if which == "new":
            made = await own_systems.create(
                chat.tg_id, player.tg_id, text, locks=locks, unit=context.unit
            )
        else:
            key = own_systems.check_text(text).key
            made = await own_systems.edit(
                chat.tg_id, player.tg_id, key, text, locks=locks, unit=context.unit
            )
        kept = render.created(made, lang)
        older = await playing_older(chat, made.key, made.version)
        if older is not None:  # the game here keeps its version until its host moves it on
            kept += "\n" + render.older_in_play(made.key, older, lang)
        await reply_html(message, kept)
    elif which == "use" and rest:
        moved = await context.deps.campaigns.use_newest(
            chat, player, rest.split()[0], unit=context.unit
        )
        await reply_html(message, render.moved(moved, lang))
    elif which == "show" and rest:
        found = await own_systems.own_version(chat.tg_id, rest.split()[0])
        await reply_html(message, render.shown(found, lang))
    elif which == "delete" and rest:
        gone = await own_systems.delete(
            chat.tg_id, player.tg_id, rest.split()[0], locks=locks, unit=context.unit
        )
        await reply_html(message, render.deleted(gone, lang))
    elif which == "share" and rest:
        key = rest.split()[0]
        token = await own_systems.share(
            chat.tg_id, player.tg_id, key, locks=locks, unit=context.unit
        )
        link = f"https://t.me/{context.bot.username}?startgroup={SHARE_PREFIX}{token}"
        await reply_html(message, render.shared_link(key.lower(), link, token, lang))
    elif which == "import" and rest:
        await import_by_link(update, context, rest.split()[0])
    else:
        await reply_html(message, render.usage(lang))


def handlers() -> list[BaseHandler[Update, StonetableContext, None]]:
    return [CommandHandler("system", system)]
