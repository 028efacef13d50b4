"""The reminders that fell due, sent: a job every worker runs, as the outbox's sweeper.

Each round claims the due reminders (a lease, one winner per row, a dead worker's taken
over: :func:`core.store.reminders.claim_due`) and sends each: the private message to the
player first (the game, what the table waits on them for, a button to the panel's
message where Telegram has a link to it), then, a second wait later, one line in the
game's chat naming them. A player who can't be written to in private gets the group
line at once. A row is marked sent as soon as Telegram answers; one whose send failed
for a passing reason is given back, due again. Group lines keep to Telegram's pace for a
group (:data:`GROUP_PER_MINUTE`), counted across every worker (:mod:`core.runtime.pace`):
the rest wait, still due, for a later round.

Pause points (the dependencies' hooks, a no-op unless a fault test gives its own):
``reminder_claimed`` (claimed, nothing sent), ``reminder_sent`` (Telegram took the
message, the row not yet marked) and ``reminder_marked``.
"""

from __future__ import annotations

import html
import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import Forbidden

from core.campaigns import Campaigns, Reminder
from core.runtime.pace import PER_MINUTE, GroupPace
from core.store import outbox
from core.words.i18n import N_, lang_for
from tgbot.context import StonetableApplication

log = logging.getLogger(__name__)

REMIND_SECONDS = 60.0  # how often each worker looks for due reminders
GROUP_PER_MINUTE = PER_MINUTE  # Telegram's pace for one group, counted across workers

PRIVATE = N_("⏳ <b>{game}</b> in <b>{chat}</b> is waiting on you: {what}.")
PRIVATE_IN_TOPIC = N_(
    "⏳ <b>{game}</b> in the topic <b>{topic}</b> of <b>{chat}</b> is waiting on you: {what}."
)
YOUR_TURN = N_("it's your turn")
ON_THE_PANEL = N_("your move on the panel there")
AWAITED = {  # what a kind of panel waits on a player for, in a few words
    "nsu.roll": N_("your roll"),
    "threat.roll": N_("your roll"),
    "d20.check": N_("your check"),
    "d20.rest": N_("your choice on the rest"),
    "cortex.conflict": N_("your move in the conflict"),
    "nsu.adventure": N_("your choice in the adventure"),
    "nsu.cards": N_("your choice of cards"),
    "nsu.character": N_("your character"),
    "nsu.downtime": N_("your choice on the downtime"),
    "nsu.setup": N_("your answer in the setup"),
    "nsu.safety": N_("your choice on the safety tools"),
}
PRIVATE_HOW = N_("Mute these reminders with /nudge mute in the game's chat.")
OPEN_PANEL = N_("Open the panel")
OPEN_TOPIC = N_("Open the game's topic")
GROUP_LINE = N_("⏳ {who}, the table is waiting on you.")


def message_link(reminder: Reminder) -> str | None:
    """The t.me link to the message of the panel waiting on the player, in the game's
    supergroup (in its forum topic, when one), or None where Telegram has none (a private
    chat, a basic group, no message yet)."""
    chat, message = str(reminder.panel_chat), reminder.message_id
    if not reminder.supergroup or reminder.panel_chat != reminder.chat_tg_id:
        return None
    if message <= 0 or not chat.startswith("-100"):
        return None
    topic = f"{reminder.topic_id}/" if reminder.topic_id else ""
    return f"https://t.me/c/{chat[4:]}/{topic}{message}"


def topic_link(reminder: Reminder) -> str | None:
    """The t.me link to the game's forum topic (its turn waits there, with no panel's
    message to open), or None outside a topic or a supergroup."""
    chat = str(reminder.chat_tg_id)
    if not reminder.supergroup or not reminder.topic_id or not chat.startswith("-100"):
        return None
    return f"https://t.me/c/{chat[4:]}/{reminder.topic_id}"


def open_button(reminder: Reminder) -> InlineKeyboardMarkup | None:
    """``👉 Open the panel`` (its message), else ``👉 Open the game's topic``, else none."""
    lang = lang_for(reminder.language)
    link, label = message_link(reminder), OPEN_PANEL
    if link is None and not reminder.kind:
        link, label = topic_link(reminder), OPEN_TOPIC
    if link is None:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton("👉 " + lang.gettext(label), url=link)]])


def private_text(reminder: Reminder, game: str) -> str:
    lang = lang_for(reminder.language)
    what = AWAITED.get(reminder.kind, ON_THE_PANEL) if reminder.kind else YOUR_TURN
    chat = html.escape(reminder.chat_title or "?", quote=False)
    named = html.escape(lang.gettext(game), quote=False)
    if reminder.topic_name:
        topic = html.escape(reminder.topic_name, quote=False)
        said = lang.gettext(
            PRIVATE_IN_TOPIC, game=named, topic=topic, chat=chat, what=lang.gettext(what)
        )
    else:
        said = lang.gettext(PRIVATE, game=named, chat=chat, what=lang.gettext(what))
    return f"{said}\n{lang.gettext(PRIVATE_HOW)}"


def group_text(reminder: Reminder) -> str:
    lang = lang_for(reminder.game_language)
    name = html.escape(reminder.name, quote=False)
    who = f'<a href="tg://user?id={int(reminder.player)}">{name}</a>'
    return lang.gettext(GROUP_LINE, who=who)


async def send_due(
    application: StonetableApplication, pace: GroupPace, worker: str = outbox.WORKER
) -> int:
    """One round: claim the due reminders and send them; returns how many were sent. A
    player found unreachable in private gets the group line in the same round."""
    campaigns: Campaigns = application.deps.campaigns
    done = 0
    for _ in range(2):  # the second pass: group lines due at once in place of a private one
        found = await campaigns.reminding.due(worker=worker)
        if found:
            await application.deps.hooks.pause("reminder_claimed")
        unreachable = False
        for i, reminder in enumerate(found):
            try:
                sent = await _send_one(application, campaigns, reminder, pace)
            except Exception as error:  # a passing fault: this one and the rest are due again
                log.warning("A reminder could not be sent now: %s", error)
                await campaigns.reminding.give_back(found[i:])
                return done
            done += sent
            unreachable |= not sent and not reminder.in_group
        if not unreachable:
            break
    return done


async def _send_one(
    application: StonetableApplication, campaigns: Campaigns, reminder: Reminder, pace: GroupPace
) -> bool:
    bot = application.bot
    reminding = campaigns.reminding
    if not reminder.in_group:
        game = campaigns.registry.find(reminder.system).name
        try:
            await bot.send_message(
                reminder.player,
                private_text(reminder, game),
                parse_mode=ParseMode.HTML,
                reply_markup=open_button(reminder),
            )
        except Forbidden:  # never started the bot, or blocked it: the group line now
            await reminding.unreachable(reminder)
            return False
        await _mark(application, reminder)
        return True
    if not await pace.take(reminder.chat_tg_id):  # the group's minute is full, all workers'
        await reminding.give_back([reminder])  # still due: a later round sends it
        return False
    await bot.send_message(
        reminder.chat_tg_id,
        group_text(reminder),
        parse_mode=ParseMode.HTML,
        message_thread_id=reminder.topic_id or None,
    )
    await _mark(application, reminder)
    return True


async def _mark(application: StonetableApplication, reminder: Reminder) -> None:
    """Telegram took the reminder's message: its row is marked sent now."""
    hooks = application.deps.hooks
    await hooks.pause("reminder_sent")
    await application.deps.campaigns.reminding.reminded(reminder)
    await hooks.pause("reminder_marked")


def schedule_reminders(
    application: StonetableApplication, pace: GroupPace, interval: float
) -> None:
    """Every worker looks for due reminders every ``interval`` seconds; the group lines
    keep to ``pace``, shared by every worker (:mod:`core.runtime.pace`)."""
    assert application.job_queue is not None

    async def job(_context: object) -> None:
        try:
            await send_due(application, pace)
        except Exception as error:  # the store away: next round
            log.warning("Sending the due reminders failed: %s", error)

    application.job_queue.run_repeating(job, interval=interval, first=interval, name="reminders")
