"""While you were away: before any feature takes a player's command or press in a game's
group, a player back after a day or more gets what happened since, in private, in their
language (:mod:`core.views.away`), through the outbox like every other message. A player
the bot may not write to gets nothing."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType

from core.runtime.errors import TryAgain
from core.store.unit import UnitOfWork
from core.views.away import returning
from tgbot.context import StonetableContext
from tgbot.sender import send_pending
from tgbot.updates import topic_of

log = logging.getLogger(__name__)


def acting(update: Update) -> bool:
    """A command or a press in a group: what counts as acting in its game."""
    chat = update.effective_chat
    if chat is None or chat.type == ChatType.PRIVATE or update.effective_user is None:
        return False
    if update.callback_query is not None:
        return True
    message = update.message
    return message is not None and (message.text or "").startswith("/")


async def welcome_back(update: Update, context: StonetableContext) -> None:
    """Keep the player's action; if it is a return, send them the digest in private,
    through the outbox (written with the return, sent after it)."""
    if not acting(update):
        return
    assert update.effective_chat is not None and update.effective_user is not None
    # its own small transaction, before the change: not the change's unit of work, but
    # its update's (a redelivered copy sends what this one left) and its planner
    unit = UnitOfWork(update_id=context.unit.update_id, planner=context.unit.planner)
    try:
        digest = await returning(
            context.deps.campaigns,
            update.effective_chat.id,
            topic_of(update),
            update.effective_user.id,
            unit=unit,
        )
    except TryAgain:
        return  # the action itself will say so
    if digest is None:
        return
    try:
        await send_pending(context.stonetable, unit)
    except Exception as error:  # the row stays: the sweeper sends it
        log.warning("A digest waits for the outbox's sweeper: %s", error)
