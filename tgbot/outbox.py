"""The bot's side of the outbox (core/store/outbox.py): planning a change's messages, sending them.

:class:`Planner` runs inside a use case's transaction, on the change's unit of work
(:class:`core.store.unit.UnitOfWork`, whose planner it is: one per update, built from
the bot's dependencies): it names the Bot API calls the change causes, which are
written to the outbox with the change; :mod:`tgbot.sender` sends them once the change
committed. A panel's message (a press's own edit, a panel just opened, the panels a
change redraws) is named there undrawn, as a ``panel`` row: :meth:`Planner.drawn`
draws it as it is sent (the presenter's drawing, :func:`tgbot.presenter.draw`), after
the commit and outside the campaign's lock. What only the change knows (its follow-up
notes, a retired panel read over the table before it, a handler's reply) is drawn in
the transaction from what the change holds, with no query: the row must carry it to be
sent after a crash. A private message's first line naming its game, for a player in
several games, is settled as it is sent (a ``game`` line in the row).

Edits are idempotent ("message is not modified" counts as sent), and an older edit of
a message that a newer row edits again is skipped when it is sent late. A new message
is the one thing that can go out twice: when a worker dies after Telegram took it and
before the row was marked sent (docs/operations.md).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from telegram import InlineKeyboardMarkup, Update
from telegram.constants import ChatType

from core.campaigns import Campaigns, Changed, EndedGame, PanelView, Resumed, Retired, Retirement
from core.campaigns.play import HeldNotes, TableRoll
from core.campaigns.posts import Posted
from core.campaigns.turns import TurnsSet
from core.campaigns.undo import TookBack
from core.rules.dice import RollResult
from core.rules.errors import NotAllowedNow
from core.store.outbox import Effect, Row
from core.views.away import Digest
from core.words.i18n import Lang, lang_for
from tgbot.edits import markup_json
from tgbot.i18n import lang_at, lang_of, personal_lang, voice
from tgbot.panels import Note, Refresh, Renderers
from tgbot.sender import send_pending

if TYPE_CHECKING:
    from tgbot.context import StonetableContext

log = logging.getLogger(__name__)

Drawn = tuple[str, InlineKeyboardMarkup | None]
Reply = Callable[[object], Awaitable["Drawn | str | list[Drawn | str | Effect] | None"]]


def planner_of(context: StonetableContext) -> Planner:
    """The planner of the change a handler makes (its unit of work's)."""
    planner = context.unit.planner
    assert isinstance(planner, Planner)
    return planner


def reply_with(context: StonetableContext, draw: Reply) -> None:
    """The handler answers its update with what ``draw`` makes of the result its use case
    records: drawn inside the change's transaction, written to the outbox with it (a
    reply to the update's message), sent after the commit. ``draw`` returns the text
    (and buttons), None for no reply, or a list of replies and other effects."""
    planner_of(context).reply = draw


def speaking(context: StonetableContext, lang: Lang) -> None:
    """The handler knows the language its change's messages are worded in (the chat's,
    read once): the planner uses it instead of asking again."""
    planner_of(context).lang = lang


def fixed(replies: list[Drawn | str | Effect]) -> Reply:
    """For :func:`reply_with`: replies that do not depend on the change's result."""

    async def draw(_result: object) -> list[Drawn | str | Effect]:
        return replies

    return draw


async def sent_with(context: StonetableContext, result: object) -> bool:
    """Whether ``result``'s messages were written with it (then they are sent now)."""
    if not context.unit.holds(result):
        return False
    await send_pending(context.stonetable, context.unit)
    return True


def _markup(markup: InlineKeyboardMarkup | None) -> dict[str, Any] | None:
    return None if markup is None else markup_json(markup)


def game_message(chat_id: int, topic: int, text: str) -> Effect:
    """A new message in a game's chat and topic (for :func:`reply_with`)."""
    return Effect("send", {"chat_id": chat_id, "topic": topic, "text": text, "markup": None})


def deletion(chat_id: int, message_id: int, refused: Effect | None = None) -> Effect:
    """Deleting a message (a message already gone counts as deleted). ``refused``: a
    :func:`private_note` sent instead when Telegram will not let the bot delete it."""
    payload: dict[str, Any] = {"chat_id": chat_id, "message_id": message_id}
    if refused is not None:
        payload["refused"] = refused.payload
    return Effect("delete", payload)


def private_note(
    user_id: int,
    text: str,
    markup: dict[str, Any] | None = None,
    *,
    group: tuple[int, int],
    name: str = "",
    game: str = "",
) -> Effect:
    """A note to a player in private (held until they press Start when Telegram refuses
    it; the group, ``(chat_id, topic)``, is asked to open the chat). ``game``: the line
    naming its game, put first when it is sent if the player is then in several games."""
    chat_id, topic = group
    payload: dict[str, Any] = {"user_id": user_id, "text": text, "markup": markup}
    if game:
        payload["game"] = game
    return Effect(
        "private", {**payload, "group_chat_id": chat_id, "group_topic": topic, "name": name}
    )


def direct_note(user_id: int, text: str, *, app: tuple[str, str] | None = None) -> Effect:
    """A note to a player in private that nobody holds: when Telegram refuses it (they never
    opened a private chat, or blocked the bot) it is dropped, and the group is never
    asked. ``app``: a button (its label, the game's Mini App token) to open the game."""
    payload: dict[str, Any] = {"user_id": user_id, "text": text}
    if app is not None:
        payload["app"] = {"label": app[0], "token": app[1]}
    return Effect("direct", payload)


def menus(group: list[int] | None, players: list[int]) -> Effect:
    """The command menus of a group (``[chat_id, topic]``) and of players' private chats,
    as they stand when the row is sent (drawn then from the games they play: sending it
    again changes nothing)."""
    return Effect("menu", {"group": group, "players": players})


class Planner:
    """Turns a use case's result into the Bot API calls it causes (inside its transaction),
    and draws a panel's message as it is sent (:meth:`drawn`, after the commit).

    One is built with the bot's dependencies (:attr:`tgbot.context.BotDeps.planner`);
    each change gets its own, :meth:`answering` its update: ``reply`` is how its handler
    answers (:func:`reply_with`), ``lang`` the chat's language when the handler read it
    (:func:`speaking`).
    """

    def __init__(
        self, renderers: Renderers, campaigns: Campaigns, update: Update | None = None
    ) -> None:
        self.renderers = renderers
        self.campaigns = campaigns
        self.update = update
        self.reply: Reply | None = None
        self.lang: Lang | None = None

    def answering(self, update: Update | None) -> Planner:
        """A planner for one change, answering ``update`` (None: a change no update asked)."""
        return Planner(self.renderers, self.campaigns, update)

    async def __call__(self, result: object, how: str) -> list[Effect]:
        """The effects of ``result``."""
        if isinstance(result, RollResult):
            return await self._roll(result)
        if isinstance(result, TableRoll):
            return self._table_roll(result)
        if isinstance(result, Posted):
            return self._posted(result)
        if isinstance(result, Digest):  # while the player was away: to them, in private
            from tgbot.render.away import digest_app, digest_text

            lang = personal_lang(self.update) if self.update else lang_for(None)
            text, app = digest_text(result, lang), digest_app(result, lang)
            return [direct_note(result.player, text, app=app)]
        if isinstance(result, HeldNotes):  # taken from the store: sent in the same change
            return [
                Effect("send", {"chat_id": result.tg_id, "topic": 0, "text": t, "markup": m})
                for t, m in result.notes
            ]
        replies = await self._reply(result)
        update = self.update
        answering = update is not None and update.callback_query is not None
        effects = [] if answering else replies  # a button's answer edits its message last
        if isinstance(result, PanelView):
            if how == "post":
                effects.append(self._post(result))
            elif result.message_id is not None:  # a press: its own edit
                effects.append(_panel(result, result.message_id))
        if isinstance(result, TookBack):
            result = result.changed
        if isinstance(result, PanelView | Changed | EndedGame | Resumed | TurnsSet):
            effects += await self._settle(result)  # a turn order: its panels show the turn
        return effects + replies if answering else effects

    async def _reply(self, result: object) -> list[Effect]:
        """The handler's answer to its update (:func:`reply_with`), as a new message."""
        draw, update = self.reply, self.update
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

        update = self.update
        message = update.effective_message if update is not None else None
        if update is None or message is None or update.effective_user is None:
            return []
        user = update.effective_user
        who = " ".join(p for p in (user.first_name, user.last_name or "") if p) or "player"
        payload: dict[str, Any] = {
            "chat_id": message.chat_id,
            "topic": message.message_thread_id if message.is_topic_message else 0,
            "text": render_roll(result, who, self.lang or await lang_of(update)),
        }
        if message.chat.type != ChatType.PRIVATE:
            payload["reply_to"] = message.message_id
        return [Effect("send", payload)]

    def _table_roll(self, roll: TableRoll) -> list[Effect]:
        from tgbot.render.dice import render_roll

        text = render_roll(roll.result, roll.who, lang_for(roll.language))
        return [Effect("send", {"chat_id": roll.chat_tg_id, "topic": roll.topic, "text": text})]

    def _posted(self, posted: Posted) -> list[Effect]:
        """A post in character, in its game's chat: under its speaker's portrait when it
        fits a picture's caption, else as text alone. One picked inline fills in the message
        Telegram posted for it (an edit of that inline message's text, or its caption when
        posted with the portrait, with its "Say more" button in the poster's language), sent
        again after a passing fault as any edit.

        Raises:
            Malformed: the post is longer than a message (or its caption) may be (nothing
                is saved).
        """
        from core.campaigns.portraits import MAX_CAPTION
        from tgbot.render.in_character import fitting, render_post, say_more, with_portrait
        from tgbot.render.text import MAX_MESSAGE

        text = render_post(posted)
        if posted.inline_message_id is not None:
            fitted = fitting(text, MAX_CAPTION if posted.pictured else MAX_MESSAGE)
            lang = personal_lang(self.update) if self.update else lang_for(posted.language)
            payload: dict[str, object] = {"inline_message_id": posted.inline_message_id}
            payload |= {"text": fitted, "caption": posted.pictured}
            return [Effect("edit", {**payload, "markup": _markup(say_more(lang))})]
        where = {"chat_id": posted.chat_tg_id, "topic": posted.topic, "text": fitting(text)}
        portrait = posted.portrait
        if portrait is not None and with_portrait(text):  # else the text alone, never cut
            whose = {"campaign_id": portrait.campaign_id, "player": portrait.player_tg_id}
            return [Effect("portrait", {**where, "portrait": whose})]
        return [Effect("send", where)]

    async def _header(self, view: PanelView) -> str:
        """In a private chat, the line naming the game, for a player in several."""
        from tgbot.presenter import game_header, games_line

        if view.chat_tg_id == view.campaign.chat_tg_id or view.viewer_games == 1:
            return ""
        if view.viewer_games > 1:  # read by its use case: no query here
            return games_line(view.campaign, lang_at(view))
        return await game_header(self.campaigns, view.campaign, view.chat_tg_id, lang_at(view))

    async def _draw(self, view: PanelView) -> tuple[str, dict[str, Any] | None]:
        """``view``'s message as :func:`tgbot.presenter.draw` makes it."""
        from tgbot.presenter import draw

        text, markup = draw(self.renderers, view, lang_at(view))
        return await self._header(view) + text, _markup(markup)

    def _post(self, view: PanelView) -> Effect:
        topic = view.campaign.topic_id if view.chat_tg_id == view.campaign.chat_tg_id else 0
        return Effect("panel", {"panel": view.id, "chat_id": view.chat_tg_id, "topic": topic}, view)

    async def drawn(self, row: Row) -> Row | None:
        """``row`` as it is sent: a ``panel`` row drawn now, its change committed, from the
        view the change holds, or, sent late, from the panel as it stands (an edit of its
        message, or a new message bound to it); None when the panel is gone or has no
        message to edit. Any other row as it was written, a private message's line
        naming its game put first if the player is in several games now.

        Raises:
            TryAgain: the store is away for a moment (the row is sent later).
        """
        if row.kind != "panel":
            return await self._named(row)
        view = row.view
        if not isinstance(view, PanelView):
            try:
                view = await self.campaigns.panel(int(row.payload["panel"]))
            except NotAllowedNow:
                return None
        text, markup = await self._draw(view)
        where = {"chat_id": row.payload.get("chat_id", view.chat_tg_id)}
        drawn = {"text": text, "markup": markup}
        if "topic" in row.payload:  # opened just now: a new message, bound to the panel
            topic = {"topic": row.payload["topic"], "bind": view.id}
            return Row(row.id, "send", {**where, **topic, **drawn})
        message_id = row.payload.get("message_id", view.message_id)
        if message_id is None:
            return None
        return Row(row.id, "edit", {**where, "message_id": message_id, **drawn})

    async def _named(self, row: Row) -> Row:
        """``row`` with its ``game`` line first when its player is in several games as
        they stand now, without it when in one."""
        game = row.payload.get("game")
        if not game:
            return row
        payload = {key: value for key, value in row.payload.items() if key != "game"}
        player = int(payload.get("user_id", payload.get("chat_id", 0)))
        if await self.campaigns.games_count(player) >= 2:
            payload["text"] = game + payload["text"]
        return Row(row.id, row.kind, payload)

    def _retire(self, retired: Retired) -> Effect | None:
        from tgbot.presenter import RETIRED, draw, games_line

        view = retired.panel
        if view.message_id is None:
            return None
        lang = lang_at(view)
        text, _ = draw(self.renderers, view, lang)
        symbol, why = RETIRED[retired.why]
        text = f"{text}\n\n{symbol} <i>{lang.gettext(why)}</i>"
        payload = {"chat_id": view.chat_tg_id, "message_id": view.message_id, "text": text}
        if view.chat_tg_id != view.campaign.chat_tg_id:  # a private message: name its game
            game = games_line(view.campaign, lang)
            if retired.why is Retirement.ENDED:  # always: it outlives the game
                payload["text"] = game + text
            else:  # for a player in several games as they stand when it is sent
                payload["game"] = game
        return Effect("edit", {**payload, "markup": None, "settle": True})

    async def _settle(
        self, change: PanelView | Changed | EndedGame | Resumed | TurnsSet
    ) -> list[Effect]:
        """As :func:`tgbot.presenter.settle`: follow-ups, then redraws, then retirements."""
        effects: list[Effect] = []
        redraw: tuple[PanelView, ...] = getattr(change, "redraw", ())
        if isinstance(change, PanelView):
            effects += await self._follow_up(change, skip={view.id for view in redraw})
        for view in redraw:
            if view.message_id is not None:
                effects.append(_panel(view, view.message_id))
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
                from tgbot.presenter import games_line

                member = campaign.member(item.chat_id)
                lang = voice(campaign, item.chat_id)  # for a player in two games, say which
                effects.append(
                    private_note(
                        item.chat_id,
                        item.text,
                        _markup(item.markup),
                        group=(campaign.chat_tg_id, campaign.topic_id),
                        name=member.name if member is not None else "",
                        game=games_line(campaign, lang),
                    )
                )
            elif isinstance(item, Refresh) and item.panel_id not in {view.id, *skip}:
                effects.append(Effect("panel", {"panel": item.panel_id}))  # drawn as it stands
        return effects


def _panel(view: PanelView, message_id: int) -> Effect:
    """The edit of ``view``'s message, drawn as it is sent (:meth:`Planner.drawn`)."""
    where = {"chat_id": view.chat_tg_id, "message_id": message_id}
    return Effect("panel", {"panel": view.id, **where}, view)
