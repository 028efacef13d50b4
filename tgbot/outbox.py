"""The bot's side of the outbox (core/outbox.py): planning a change's messages, sending them.

:class:`Planner` runs inside a use case's transaction: it draws what the change shows
(the presenter's drawing, :func:`tgbot.presenter.draw`) and returns the Bot API calls,
which are written to the outbox with the change. :func:`send_pending` sends the rows
the current update wrote, right after the commit; :func:`flush_update` sends what a
copy of an update left unsent (a redelivery); :func:`sweep` sends any row whose
worker's lease ran out (a periodic job in every worker).

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
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from telegram import InlineKeyboardMarkup, Message, ReplyParameters, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from core import outbox
from core.campaigns import Campaigns, Changed, EndedGame, PanelView, Resumed, Retired
from core.i18n import lang_for
from core.outbox import Effect, Row
from core.play import HeldNotes, TableRoll
from core.rules.dice import RollResult
from core.rules.errors import NotAllowedNow
from core.undo import TookBack
from tgbot.context import StonetableApplication, StonetableContext
from tgbot.edits import EDIT_MESSAGE_TEXT, markup_json
from tgbot.i18n import lang_at, lang_of
from tgbot.menu import publish_menus
from tgbot.panels import Note, Refresh, Renderers
from tgbot.private import send_private
from tgbot.topics import send_game

log = logging.getLogger(__name__)

SWEEP_SECONDS = 2.0
CURRENT_UPDATE: ContextVar[Update | None] = ContextVar("current_update", default=None)

Drawn = tuple[str, InlineKeyboardMarkup | None]
Reply = Callable[[object], Awaitable["Drawn | str | list[Drawn | str | Effect] | None"]]
REPLY: ContextVar[Reply | None] = ContextVar("outbox_reply", default=None)


def reply_with(draw: Reply) -> None:
    """The current handler answers its update with what ``draw`` makes of the result its
    use case records: drawn inside the change's transaction, written to the outbox with
    it (a reply to the update's message), sent after the commit. ``draw`` returns the
    text (and buttons), None for no reply, or a list of replies and other effects."""
    REPLY.set(draw)


def fixed(replies: list[Drawn | str | Effect]) -> Reply:
    """For :func:`reply_with`: replies that do not depend on the change's result."""

    async def draw(_result: object) -> list[Drawn | str | Effect]:
        return replies

    return draw


async def sent_with(application: StonetableApplication, result: object) -> bool:
    """Whether ``result``'s messages were written with it (then they are sent now)."""
    pending = outbox.current()
    if pending is None or not pending.holds(result):
        return False
    await send_pending(application, pending)
    return True


def _markup(markup: InlineKeyboardMarkup | None) -> dict[str, Any] | None:
    return None if markup is None else markup_json(markup)


def game_message(chat_id: int, topic: int, text: str) -> Effect:
    """A new message in a game's chat and topic (for :func:`reply_with`)."""
    return Effect("send", {"chat_id": chat_id, "topic": topic, "text": text, "markup": None})


def deletion(chat_id: int, message_id: int) -> Effect:
    """Deleting a message (a message already gone counts as deleted)."""
    return Effect("delete", {"chat_id": chat_id, "message_id": message_id})


def private_note(
    user_id: int,
    text: str,
    markup: dict[str, Any] | None = None,
    *,
    group: tuple[int, int],
    name: str = "",
) -> Effect:
    """A note to a player in private (held until they press Start when Telegram refuses
    it; the group, ``(chat_id, topic)``, is asked to open the chat)."""
    chat_id, topic = group
    payload: dict[str, Any] = {"user_id": user_id, "text": text, "markup": markup}
    return Effect(
        "private", {**payload, "group_chat_id": chat_id, "group_topic": topic, "name": name}
    )


def menus(group: list[int] | None, players: list[int]) -> Effect:
    """The command menus of a group (``[chat_id, topic]``) and of players' private chats,
    as they stand when the row is sent (drawn then from the games they play: sending it
    again changes nothing)."""
    return Effect("menu", {"group": group, "players": players})


class Planner:
    """Turns a use case's result into the Bot API calls it causes (inside its transaction)."""

    def __init__(self, renderers: Renderers, campaigns: Campaigns) -> None:
        self.renderers = renderers
        self.campaigns = campaigns

    async def __call__(self, result: object, how: str) -> list[Effect]:
        from tgbot.presenter import dressed

        if isinstance(result, RollResult):
            return await self._roll(result)
        if isinstance(result, TableRoll):
            return self._table_roll(result)
        if isinstance(result, HeldNotes):  # taken from the store: sent in the same change
            return [
                Effect("send", {"chat_id": result.tg_id, "topic": 0, "text": t, "markup": m})
                for t, m in result.notes
            ]
        replies = await self._reply(result)
        update = CURRENT_UPDATE.get()
        answering = update is not None and update.callback_query is not None
        effects = [] if answering else replies  # a button's answer edits its message last
        if isinstance(result, PanelView):
            if how == "post":
                effects.append(await self._post(result))
            elif result.message_id is not None:  # the hot path, a press: its edit, inline
                lang = lang_at(result)  # drawn as draw() does, one layer fewer
                drawn = self.renderers[result.kind].render(result, lang)
                text, markup = dressed(result, *drawn, lang)
                text = await self._header(result) + text
                payload = {"chat_id": result.chat_tg_id, "message_id": result.message_id}
                effects.append(Effect("edit", {**payload, "text": text, "markup": _markup(markup)}))
        if isinstance(result, TookBack):
            result = result.changed
        if isinstance(result, PanelView | Changed | EndedGame | Resumed):
            effects += await self._settle(result)
        return effects + replies if answering else effects

    async def _reply(self, result: object) -> list[Effect]:
        """The handler's answer to its update (:func:`reply_with`), as a new message."""
        draw, update = REPLY.get(), CURRENT_UPDATE.get()
        message = update.effective_message if update is not None else None
        if draw is None or message is None:
            return []
        drawn = await draw(result)
        if drawn is None:
            return []
        assert update is not None
        effects: list[Effect] = []
        for item in drawn if isinstance(drawn, list) else [drawn]:
            if isinstance(item, Effect):
                effects.append(item)
                continue
            text, markup = (item, None) if isinstance(item, str) else item
            if update.callback_query is not None:  # a button's answer: its message says it
                where = {"chat_id": message.chat_id, "message_id": message.message_id}
                effects.append(Effect("edit", {**where, "text": text, "markup": _markup(markup)}))
                continue
            payload: dict[str, Any] = {
                "chat_id": message.chat_id,
                "topic": message.message_thread_id if message.is_topic_message else 0,
                "text": text,
                "markup": _markup(markup),
            }
            if message.chat.type != ChatType.PRIVATE:
                payload["reply_to"] = message.message_id
            effects.append(Effect("send", payload))
        return effects

    async def _roll(self, result: RollResult) -> list[Effect]:
        from tgbot.render.dice import render_roll

        update = CURRENT_UPDATE.get()
        message = update.effective_message if update is not None else None
        if update is None or message is None or update.effective_user is None:
            return []
        user = update.effective_user
        who = " ".join(p for p in (user.first_name, user.last_name or "") if p) or "player"
        payload: dict[str, Any] = {
            "chat_id": message.chat_id,
            "topic": message.message_thread_id if message.is_topic_message else 0,
            "text": render_roll(result, who, await lang_of(update)),
        }
        if message.chat.type != ChatType.PRIVATE:
            payload["reply_to"] = message.message_id
        return [Effect("send", payload)]

    def _table_roll(self, roll: TableRoll) -> list[Effect]:
        from tgbot.render.dice import render_roll

        text = render_roll(roll.result, roll.who, lang_for(roll.language))
        return [Effect("send", {"chat_id": roll.chat_tg_id, "topic": roll.topic, "text": text})]

    async def _header(self, view: PanelView) -> str:
        """In a private chat, the line naming the game, for a player in several."""
        from tgbot.presenter import game_header

        if view.chat_tg_id == view.campaign.chat_tg_id:
            return ""
        return await game_header(self.campaigns, view.campaign, view.chat_tg_id, lang_at(view))

    async def _draw(self, view: PanelView) -> tuple[str, dict[str, Any] | None]:
        from tgbot.presenter import draw

        text, markup = draw(self.renderers, view)
        return await self._header(view) + text, _markup(markup)

    async def _post(self, view: PanelView) -> Effect:
        text, markup = await self._draw(view)
        topic = view.campaign.topic_id if view.chat_tg_id == view.campaign.chat_tg_id else 0
        payload = {"chat_id": view.chat_tg_id, "topic": topic, "text": text, "markup": markup}
        return Effect("send", {**payload, "bind": view.id})

    async def _edit(self, view: PanelView) -> Effect:
        text, markup = await self._draw(view)
        assert view.message_id is not None
        payload = {"chat_id": view.chat_tg_id, "message_id": view.message_id, "text": text}
        return Effect("edit", {**payload, "markup": markup, "settle": False})

    def _retire(self, retired: Retired) -> Effect | None:
        from tgbot.presenter import RETIRED, draw

        view = retired.panel
        if view.message_id is None:
            return None
        lang = lang_at(view)
        text, _ = draw(self.renderers, view, lang)
        symbol, why = RETIRED[retired.why]
        text = f"{text}\n\n{symbol} <i>{lang.gettext(why)}</i>"
        payload = {"chat_id": view.chat_tg_id, "message_id": view.message_id, "text": text}
        return Effect("edit", {**payload, "markup": None, "settle": True})

    async def _settle(self, change: PanelView | Changed | EndedGame | Resumed) -> list[Effect]:
        """As :func:`tgbot.presenter.settle`: follow-ups, then redraws, then retirements."""
        effects: list[Effect] = []
        redraw: tuple[PanelView, ...] = getattr(change, "redraw", ())
        if isinstance(change, PanelView):
            effects += await self._follow_up(change, skip={view.id for view in redraw})
        for view in redraw:
            if view.message_id is not None:
                edit = await self._edit(view)
                effects.append(Effect("edit", {**edit.payload, "settle": True}))
        for retired in getattr(change, "retired", ()):
            effect = self._retire(retired)
            if effect is not None:
                effects.append(effect)
        return effects

    async def _follow_up(self, view: PanelView, *, skip: set[int]) -> list[Effect]:
        follow_ups = getattr(self.renderers[view.kind], "follow_ups", None)
        if follow_ups is None:
            return []
        effects: list[Effect] = []
        campaign = view.campaign
        for item in follow_ups(view):
            if isinstance(item, Note) and item.chat_id == campaign.chat_tg_id:
                where = {"chat_id": item.chat_id, "topic": campaign.topic_id}
                effects.append(
                    Effect("send", {**where, "text": item.text, "markup": _markup(item.markup)})
                )
            elif isinstance(item, Note):
                member = campaign.member(item.chat_id)
                effects.append(
                    private_note(
                        item.chat_id,
                        item.text,
                        _markup(item.markup),
                        group=(campaign.chat_tg_id, campaign.topic_id),
                        name=member.name if member is not None else "",
                    )
                )
            elif isinstance(item, Refresh) and item.panel_id not in {view.id, *skip}:
                try:
                    other = await self.campaigns.panel(item.panel_id)
                except NotAllowedNow:
                    continue
                if other.message_id is not None:
                    edit = await self._edit(other)
                    effects.append(Effect("edit", {**edit.payload, "settle": True}))
        return effects


# -- sending -------------------------------------------------------------------------------------


class Passing(Exception):
    """Telegram or the store is away for a moment: the row is sent again later."""


def _keyboard(markup: dict[str, Any] | None) -> InlineKeyboardMarkup | None:
    return InlineKeyboardMarkup.de_json(markup, None) if markup else None


async def _send(application: StonetableApplication, row: Row) -> None:
    """One row's Bot API call. A permanent refusal is logged (retrying cannot help) and,
    for ``raise``, passed on; a passing one raises :class:`Passing`."""
    try:
        await _call(application, row.kind, row.payload)
    except BadRequest as error:
        if "not modified" in error.message.lower():
            return
        if row.kind == "delete":  # gone already, or not ours to delete: nothing to retry
            log.info("A message to delete stays: %s", error)
            return
        raise
    except Forbidden:
        if row.kind == "delete":
            return
        raise
    except TelegramError as error:  # network, timeout, flood control
        raise Passing(str(error)) from error
    except (ConnectionError, OSError) as error:
        raise Passing(str(error)) from error


async def _call(application: StonetableApplication, kind: str, payload: dict[str, Any]) -> None:
    """The Bot API call(s) a row of ``kind`` makes."""
    bot = application.bot
    if kind == "delete":
        await bot.delete_message(payload["chat_id"], payload["message_id"])
    elif kind == "secret":
        await _send_secret(application, payload)
    elif kind == "menu":
        campaigns, specs = application.deps.campaigns, application.command_specs
        await publish_menus(bot, campaigns, specs, payload["group"], payload["players"])
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
    else:
        await _send_message(application, payload)


async def _send_message(application: StonetableApplication, payload: dict[str, Any]) -> None:
    """A new message in a game's chat (a reply, when it answers one); bound to its panel."""
    extra: dict[str, Any] = {"reply_markup": _keyboard(payload.get("markup"))}
    if payload.get("reply_to") is not None:
        extra["reply_parameters"] = ReplyParameters(
            payload["reply_to"], allow_sending_without_reply=True
        )
    message: Message | None = await send_game(
        application.bot, payload["chat_id"], payload["topic"], payload["text"], **extra
    )
    if message is not None and payload.get("bind") is not None:
        await application.deps.campaigns.bind_message(payload["bind"], message.message_id)


async def _send_secret(application: StonetableApplication, payload: dict[str, Any]) -> None:
    """A secret roll: the roller's private message first; only once Telegram took it, the
    chat's line with the 👁 Reveal button. When Telegram refuses the private message, the
    roll is forgotten and the chat is told how to open a private chat instead. Sent again
    (a worker died between the two), the private message may show twice; the chat's
    line never goes out before it."""
    from core.secret_rolls import forget

    try:
        await application.bot.send_message(
            payload["user_id"], payload["private"], parse_mode=ParseMode.HTML
        )
        text, markup = payload["shown"]
    except Forbidden:  # never opened a private chat (or blocked it): roll nothing, say how
        await forget(payload["roll_id"])
        text, markup = payload["refused"]
    await outbox.pause_point("between_secret")
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
    application: StonetableApplication, rows: list[Row], *, sweeping: bool = False
) -> list[int]:
    """Send ``rows`` in order; the ids sent (or given up: a permanent refusal).

    A passing fault gives the rest back to any worker. ``sweeping``: rows sent late,
    where an edit a newer row supersedes is skipped.

    Raises:
        BadRequest, Forbidden: a row of an update in hand was refused for good, as the
            direct call would have raised (after the others were sent).
    """
    handled: list[int] = []
    refused: TelegramError | None = None
    try:
        for index, row in enumerate(rows):
            target = Effect(row.kind, row.payload).target
            if sweeping and await outbox.superseded(row, target):
                handled.append(row.id)
                continue
            try:
                if row.kind == "edit":  # the hot path, a press's edit: the call inline
                    payload = row.payload
                    fields: dict[str, Any] = {
                        "chat_id": payload["chat_id"],
                        "message_id": payload["message_id"],
                        "text": payload["text"],
                        "parse_mode": ParseMode.HTML.value,
                    }
                    if payload.get("markup") is not None:
                        fields["reply_markup"] = payload["markup"]
                    try:
                        await application.bot.do_api_request(EDIT_MESSAGE_TEXT, api_kwargs=fields)
                    except BadRequest as error:
                        if "not modified" not in error.message.lower():
                            raise
                    except Forbidden:
                        raise
                    except TelegramError as error:  # network, timeout, flood control
                        raise Passing(str(error)) from error
                else:
                    await _send(application, row)
            except Passing as error:
                log.warning("An outbox row waits for a passing fault: %s", error)
                await outbox.release([r.id for r in rows[index:]])
                break
            except (BadRequest, Forbidden) as error:
                log.warning("Telegram refused an outbox row (%s): %s", row.kind, error)
                refused = refused or error
            if row.kind == "edit" and not sweeping:
                _edits_sent.append(row.id)  # marked with others', well within its lease
            else:
                handled.append(row.id)
            if index == 0:
                await outbox.pause_point("after_send")
    finally:
        with contextlib.suppress(Exception):
            await outbox.done(handled)
    if refused is not None and not sweeping:
        raise refused
    return handled


async def send_pending(
    application: StonetableApplication, pending: outbox.Pending | None = None
) -> None:
    """Send what the current update (or request) wrote to the outbox and has not sent."""
    rows = await unsent(pending)
    if rows:
        await send_rows(application, rows)


async def unsent(pending: outbox.Pending | None = None) -> list[Row]:
    """What the current update (or request) wrote to the outbox and has not sent, taken
    to be sent now (by :func:`send_rows`; a press calls it itself, one layer fewer)."""
    pending = pending or outbox.current()
    if pending is None:
        return []
    rows = pending.unsent()
    if not rows:
        return []
    if time.time() > pending.until - 1.0:  # slow: make sure no sweeper took them meanwhile
        held = set(await outbox.renew([row.id for row in rows]))
        pending.sent.update(row.id for row in rows if row.id not in held)
        rows = [row for row in rows if row.id in held]
    pending.sent.update(row.id for row in rows)  # tried now; whatever failed is the sweeper's
    return rows


async def flush_update(application: StonetableApplication, update_id: int) -> int:
    """Send what an earlier copy of update ``update_id`` left unsent; how many rows.

    Rows still leased by another worker (perhaps a dead one) are waited for, at most
    one lease.
    """
    count = 0
    deadline = time.monotonic() + outbox.LEASE + 1.0
    while time.monotonic() < deadline:
        rows = await outbox.claim(update_id)
        if rows:
            sent = await send_rows(application, rows, sweeping=True)
            count += len(sent)
            if len(sent) < len(rows):  # a passing fault: the sweeper goes on later
                return count
            continue
        wait = await outbox.held_by_others(update_id)
        if wait <= 0:
            return count
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
    await mark_edits_sent()
    count = 0
    for _ in range(10):  # at most 500 rows a round
        rows = await outbox.claim()
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
