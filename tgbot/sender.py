"""Sending the outbox (core/store/outbox.py): a change's Bot API calls, after its commit.

:func:`send_pending` sends the rows a change's unit of work wrote
(:class:`core.store.unit.UnitOfWork`), right after the commit; :func:`flush_update`
sends what a copy of an update left unsent (a redelivery); :func:`sweep` sends any
row whose worker's lease ran out (a periodic job in every worker). All three send
through :func:`send_rows`, the one sending path. What the rows say is planned in the
change's transaction (:class:`tgbot.outbox.Planner`); a panel's message is drawn here,
as its row is sent (:meth:`tgbot.outbox.Planner.drawn`).

Edits are idempotent ("message is not modified" counts as sent), and an older edit of
a message that a newer row edits again is skipped when it is sent late. A new message
is the one thing that can go out twice: when a worker dies after Telegram took it and
before the row was marked sent (docs/operations.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from telegram import InlineKeyboardMarkup, InputFile, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from core.campaigns.pictures import sniff_image
from core.runtime.errors import TryAgain
from core.store import liveness, outbox
from core.store.outbox import Effect, Row
from core.store.unit import UnitOfWork
from tgbot.context import StonetableApplication, StonetableContext
from tgbot.edits import EDIT_MESSAGE_CAPTION, EDIT_MESSAGE_TEXT
from tgbot.menu import publish_menus
from tgbot.private import send_private
from tgbot.topics import send_game, send_game_id, send_game_photo

log = logging.getLogger(__name__)

SWEEP_SECONDS = 2.0


class Passing(Exception):
    """Telegram or the store is away for a moment: the row is sent again later."""


def _keyboard(markup: dict[str, Any] | None) -> InlineKeyboardMarkup | None:
    return InlineKeyboardMarkup.de_json(markup, None) if markup else None


async def _send(
    application: StonetableApplication, row: Row, unit: UnitOfWork | None
) -> Exception | None:
    """One row's Bot API call; None once Telegram took it, else what kept it from going:
    :class:`Passing` (a fault that passes: the row is sent again later) or a permanent
    refusal (``BadRequest``, ``Forbidden``: retrying cannot help)."""
    try:
        drawn = await application.deps.planner.drawn(row)
        if drawn is None:  # a panel gone since: nothing to show
            return None
        await _call(application, drawn.kind, drawn.payload, unit)
    except TryAgain as error:  # the store, as a panel's message was drawn
        return Passing(str(error))
    except BadRequest as error:
        if "not modified" in error.message.lower():
            return None
        if row.kind == "delete":  # gone already, or not ours to delete: nothing to retry
            log.info("A message to delete stays: %s", error)
            await _refused_deletion(application, row.payload, error)
            return None
        return error
    except Forbidden as error:
        if row.kind == "delete":
            await _refused_deletion(application, row.payload, error)
            return None
        return error
    except TelegramError as error:  # network, timeout, flood control
        return Passing(str(error))
    except (ConnectionError, OSError) as error:
        return Passing(str(error))
    return None


async def _refused_deletion(
    application: StonetableApplication, payload: dict[str, Any], error: TelegramError
) -> None:
    """A deletion Telegram refused: its note to the sender, when it has one (held until
    they press Start when Telegram refuses that too; the group is never asked)."""
    note = payload.get("refused")
    if note is None or "not found" in error.message.lower():  # gone already: deleted
        return
    await send_private(
        StonetableContext(application),
        note["user_id"],
        note["text"],
        _keyboard(note.get("markup")),
    )


async def _call(
    application: StonetableApplication,
    kind: str,
    payload: dict[str, Any],
    unit: UnitOfWork | None,
) -> None:
    """The Bot API call(s) a row of ``kind`` makes."""
    bot = application.bot
    if kind == "edit":
        method = EDIT_MESSAGE_CAPTION if payload.get("caption") else EDIT_MESSAGE_TEXT
        await bot.do_api_request(method, api_kwargs=edit_fields(payload))
    elif kind == "delete":
        await bot.delete_message(payload["chat_id"], payload["message_id"])
    elif kind == "secret":
        await _send_secret(application, payload, unit)
    elif kind == "menu":
        campaigns, specs = application.deps.campaigns, application.command_specs
        await publish_menus(bot, campaigns, specs, payload["group"], payload["players"])
    elif kind == "direct":
        await _send_direct(application, payload)
    elif kind == "private":
        await send_private(
            StonetableContext(application),
            payload["user_id"],
            payload["text"],
            _keyboard(payload.get("markup")),
            group_chat_id=payload["group_chat_id"],
            group_topic=payload["group_topic"],
            name=payload["name"],
        )
    elif kind == "portrait":
        await _send_portrait(application, payload)
    else:
        await _send_message(application, payload)


async def _send_portrait(application: StonetableApplication, payload: dict[str, Any]) -> None:
    """A post in character under its speaker's portrait, the post its caption: the picture
    by Telegram's id of it once Telegram took it (its first answer's id is kept), its
    bytes before. The post goes as text alone when the portrait was removed since, or
    Telegram refuses the picture (a forgotten id is forgotten here, and the bytes sent)."""
    portraits = application.deps.campaigns.portraits
    whose = payload["portrait"]
    found = await portraits.to_send(whose["campaign_id"], whose["player"])
    for _ in range(2):
        if found is None:
            await _send_message(application, payload)
            return
        ref, data = found
        name = "portrait.png" if sniff_image(data) == "image/png" else "portrait.jpg"
        photo: str | InputFile = ref.file_id or InputFile(data, filename=name)
        try:
            message = await send_game_photo(
                application.bot,
                payload["chat_id"],
                payload["topic"],
                photo,
                caption=payload["text"],
                parse_mode=ParseMode.HTML,
            )
        except BadRequest as error:
            log.info("Telegram refused a portrait (%s): %s", ref.file_id or "bytes", error)
            if ref.file_id is None or "caption" in error.message.lower():
                found = None  # the text alone
            else:  # an id Telegram forgot: the bytes once more
                await portraits.took(ref, None)
                found = await portraits.to_send(whose["campaign_id"], whose["player"])
            continue
        if message is not None and ref.file_id is None and message.photo:
            with contextlib.suppress(Exception):  # sent: a lost id only means one more upload
                await portraits.took(ref, message.photo[-1].file_id)
        return
    await _send_message(application, payload)


async def _send_direct(application: StonetableApplication, payload: dict[str, Any]) -> None:
    """A note to a player in private that nobody holds (:func:`tgbot.outbox.direct_note`):
    refused for good, it is dropped; with its button to the game in the Mini App."""
    from tgbot.render.nsu import app_button

    markup = None
    app = payload.get("app")
    if app is not None:
        deps = application.deps
        button = app_button(
            app["label"],
            private=True,
            webapp_url=deps.webapp_url,
            bot=application.bot.username,
            short_name=deps.settings.miniapp_short_name,
            token=app["token"],
        )
        markup = None if button is None else InlineKeyboardMarkup([[button]])
    try:
        await application.bot.send_message(
            payload["user_id"], payload["text"], parse_mode=ParseMode.HTML, reply_markup=markup
        )
    except (BadRequest, Forbidden) as error:  # never opened a private chat, or blocked the bot
        log.info("A private note nobody holds was not sent: %s", error)


async def _send_message(application: StonetableApplication, payload: dict[str, Any]) -> None:
    """A new message in a game's chat (a reply, when it answers one); bound to its panel.
    Only its id is read from Telegram's answer."""
    fields: dict[str, Any] = {}
    if payload.get("markup"):
        fields["reply_markup"] = payload["markup"]
    if payload.get("reply_to") is not None:
        fields["reply_parameters"] = {
            "message_id": payload["reply_to"],
            "allow_sending_without_reply": True,
        }
    message_id = await send_game_id(
        application.bot, payload["chat_id"], payload["topic"], payload["text"], fields
    )
    if message_id is not None and payload.get("bind") is not None:
        await application.deps.campaigns.bind_message(payload["bind"], message_id)


async def _send_secret(
    application: StonetableApplication, payload: dict[str, Any], unit: UnitOfWork | None
) -> None:
    """A secret roll: the roller's private message first; only once Telegram took it, the
    chat's line with the 👁 Reveal button. When Telegram refuses the private message, the
    roll is forgotten and the chat is told how to open a private chat instead. Sent again
    (a worker died between the two), the private message may show twice; the chat's
    line never goes out before it."""
    from core.campaigns.secret_rolls import forget

    try:
        await application.bot.send_message(
            payload["user_id"], payload["private"], parse_mode=ParseMode.HTML
        )
        text, markup = payload["shown"]
    except Forbidden:  # never opened a private chat (or blocked it): roll nothing, say how
        await forget(payload["roll_id"])
        text, markup = payload["refused"]
    if unit is not None:
        await unit.pause("between_secret")
    reply = ReplyParameters(payload["reply_to"], allow_sending_without_reply=True)
    await send_game(
        application.bot,
        payload["chat_id"],
        payload["topic"],
        text,
        reply_markup=_keyboard(markup),
        reply_parameters=reply,
    )


async def send_rows(
    application: StonetableApplication,
    rows: list[Row],
    *,
    sweeping: bool = False,
    unit: UnitOfWork | None = None,
) -> list[int]:
    """Send ``rows`` in order; the ids sent (or given up: a permanent refusal).

    ``unit``: the change that wrote them, sending them right after its commit (its
    pause points are reached here); None for rows sent late.

    A new message is marked sent by its own write as soon as Telegram took it: a worker
    killed later does not send it again; only a kill inside that one write can show it
    twice. Edits (sending one again changes nothing) are marked together.

    A run of edits of different messages (a press's own and those its change redraws)
    goes at once, each accounted for in order after. A passing fault gives the rest
    back to any worker. ``sweeping``: rows sent late, one at a time, where an edit a
    newer row supersedes is skipped.

    Raises:
        BadRequest, Forbidden: a row of an update in hand was refused for good, as the
            direct call would have raised (after the others were sent).
    """
    handled: list[int] = []  # handled and not yet marked
    marked: list[int] = []
    refused: Exception | None = None
    index = 0
    try:
        while index < len(rows):
            row = rows[index]
            if sweeping and await outbox.superseded(row, Effect(row.kind, row.payload).target):
                handled.append(row.id)
                index += 1
                continue
            batch = rows[index : index + _at_once(rows, index, sweeping)]
            if len(batch) == 1:
                outcomes = [await _send(application, row, unit)]
            else:  # edits of different messages: no order between them, so all at once
                outcomes = await asyncio.gather(*(_send(application, r, unit) for r in batch))
            passing = False
            for at, (row, error) in enumerate(zip(batch, outcomes, strict=True), start=index):
                if isinstance(error, Passing):
                    log.warning("An outbox row waits for a passing fault: %s", error)
                    await outbox.release([row.id])
                    passing = True
                    continue
                if error is not None:
                    log.warning("Telegram refused an outbox row (%s): %s", row.kind, error)
                    refused = refused or error
                if _edits(row) and not sweeping:
                    _edits_sent.append(row.id)  # marked with others', well within its lease
                else:
                    handled.append(row.id)
                if at == 0 and unit is not None:
                    await unit.pause("after_send")
                if not _edits(row):  # a new message: marked sent the moment Telegram took it
                    with contextlib.suppress(Exception):  # (else with the rest, below)
                        await outbox.done(handled)
                        marked += handled
                        handled.clear()
                    if at == 0 and unit is not None:
                        await unit.pause("after_mark")
            index += len(batch)
            if passing:  # the rest go to any worker
                await outbox.release([r.id for r in rows[index:]])
                break
    finally:
        with contextlib.suppress(Exception):
            await outbox.done(handled)
    if refused is not None and not sweeping:
        raise refused
    return marked + handled


def _at_once(rows: list[Row], start: int, sweeping: bool) -> int:
    """How many rows from ``start`` go at once: a run of edits right after their change,
    each of another message (a press's own and those its change redraws); else one."""
    if sweeping:
        return 1
    seen: set[str] = set()
    end = start
    while end < len(rows) and _edits(rows[end]):
        target = Effect(rows[end].kind, rows[end].payload).target
        if target in seen:
            break
        seen.add(target)
        end += 1
    return max(1, end - start)


def _edits(row: Row) -> bool:
    """Whether ``row`` edits a message it names (an edit, a panel's redraw): sending it
    again changes nothing."""
    return bool(Effect(row.kind, row.payload).target)


def edit_fields(payload: dict[str, Any]) -> dict[str, Any]:
    """The ``editMessageText`` call of an edit row's payload (raw, as Telegram takes it):
    a message in a chat, or an inline message; ``editMessageCaption``'s for a message
    under a picture."""
    fields: dict[str, Any] = {"text": payload["text"], "parse_mode": ParseMode.HTML.value}
    if "inline_message_id" in payload:
        fields["inline_message_id"] = payload["inline_message_id"]
    else:
        fields["chat_id"], fields["message_id"] = payload["chat_id"], payload["message_id"]
    if payload.get("caption"):  # a message under a picture: its caption is the text
        fields["caption"] = fields.pop("text")
    if payload.get("markup") is not None:
        fields["reply_markup"] = payload["markup"]
    return fields


async def send_pending(application: StonetableApplication, unit: UnitOfWork) -> None:
    """Send what ``unit`` (a change that committed) wrote to the outbox and has not sent."""
    rows = await unit.to_send()
    if rows:
        await send_rows(application, rows, unit=unit)


async def flush_update(application: StonetableApplication, update_id: int) -> int:
    """Send what an earlier copy of update ``update_id`` left unsent; how many rows.

    Rows still leased by another worker are waited for, at most one lease; on
    PostgreSQL those of a dead worker are taken over at once (:mod:`core.store.liveness`).
    """
    count = 0
    deadline = time.monotonic() + outbox.LEASE + 1.0
    take_over = False
    while time.monotonic() < deadline:
        rows = await outbox.claim(update_id, take_over=take_over)
        if rows:
            sent = await send_rows(application, rows, sweeping=True)
            count += len(sent)
            if len(sent) < len(rows):  # a passing fault: the sweeper goes on later
                return count
            continue
        wait = await outbox.held_by_others(update_id)
        if wait <= 0:
            return count
        if not take_over:  # leased by another worker: alive, or dead (then taken now)
            take_over = True
            continue
        await asyncio.sleep(min(wait, 0.5) + 0.05)
    return count


# Edits sent right after their commit, not yet marked sent. An edit sent again changes
# nothing ("not modified"), so they are marked together, every SWEEP_SECONDS (well
# within the lease): a press costs one statement fewer. New messages are marked at once.
_edits_sent: list[int] = []


async def mark_edits_sent() -> None:
    """Mark the edits sent since last time, in one statement per 500."""
    while _edits_sent:
        batch = _edits_sent[:500]
        await outbox.done(batch)
        del _edits_sent[: len(batch)]


async def sweep(application: StonetableApplication) -> int:
    """Send the unsent rows whose lease ran out (a killed worker's); how many."""
    await liveness.keep()
    await mark_edits_sent()
    count = 0
    for _ in range(10):  # at most 500 rows a round
        rows = await outbox.claim(take_over=True)
        if not rows:
            break
        sent = await send_rows(application, rows, sweeping=True)
        count += len(sent)
        if len(sent) < len(rows):  # a passing fault: next round
            break
    if count:
        log.warning("The outbox sweeper sent %d rows a worker had left", count)
    return count


def schedule_sweeper(application: StonetableApplication) -> None:
    """Every worker sweeps the outbox every :data:`SWEEP_SECONDS`."""
    assert application.job_queue is not None

    async def job(_context: object) -> None:
        try:
            await sweep(application)
        except Exception as error:  # the store away: next round
            log.warning("The outbox sweep failed: %s", error)

    application.job_queue.run_repeating(job, interval=SWEEP_SECONDS, first=1.0, name="outbox")


async def deliver_held(context: StonetableContext, user_id: int, *, claim: bool = True) -> int:
    """Send a player everything held for them; returns how many.

    Args:
        claim: take the notes in the handler's own change, claiming its update (False
            when another step of the same update claims it: a change of their own).
    """
    unit = context.unit if claim else context.deps.unit()
    written = len(unit.rows)
    notes = await context.deps.play.take_notes(user_id, unit=unit)
    if notes and len(unit.rows) > written:  # written to the outbox with their taking
        await send_pending(context.stonetable, unit)
        return len(notes)
    for text, markup in notes:
        keyboard = InlineKeyboardMarkup.de_json(markup, context.bot) if markup else None
        await context.bot.send_message(
            user_id, text, parse_mode=ParseMode.HTML, reply_markup=keyboard
        )
    return len(notes)
