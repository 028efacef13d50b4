"""The one presenter: how every change reaches the messages on screen.

A press, a reply to a panel, a command and a Mini App edit all end here. The panel
the change came through is drawn (sent as a new message, or its message edited), what
its renderer says the change sends elsewhere goes out, and every other open view the
change touched (the use case names them: :meth:`core.campaigns.base.CampaignsBase._touched`)
is redrawn from the new state, or retired: its buttons go, and one line says where
play went on.

A change whose use case wrote its effects to the outbox in its own transaction
(``UnitOfWork.record``: a press, a reply, an opened panel, a roll, a Mini App edit) is
presented by sending those rows (:func:`tgbot.sender.send_pending`), drawn as here.
"""

from __future__ import annotations

import contextlib

from telegram import InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden

from core.campaigns import (
    Campaigns,
    CampaignView,
    Changed,
    EndedGame,
    PanelView,
    Retired,
    Retirement,
)
from core.rules.errors import NotAllowedNow
from core.rules.said import worded
from core.words.i18n import N_, Lang
from tgbot.context import StonetableContext
from tgbot.edits import edit_text
from tgbot.i18n import lang_at, voice
from tgbot.panels import Note, Refresh, Renderers
from tgbot.private import send_private
from tgbot.render.text import esc
from tgbot.render.undo import with_undo
from tgbot.sender import send_pending
from tgbot.topics import send_game, thread

RETIRED = {
    Retirement.NEWER: ("⏭", N_("Play went on in a newer message.")),
    Retirement.ENDED: ("⏹", N_("The game ended.")),
}


def draw(
    renderers: Renderers, view: PanelView, lang: Lang | None = None
) -> tuple[str, InlineKeyboardMarkup | None]:
    """How a panel's message reads: its renderer's text and buttons, as every path sends
    them (a closed panel keeps no buttons of its own; the one who just acted may see
    ``↩ Undo``). The one place a message is drawn."""
    lang = lang or lang_at(view)
    return dressed(view, *renderers[view.kind].render(view, lang), lang)


def dressed(
    view: PanelView, text: str, markup: InlineKeyboardMarkup | None, lang: Lang
) -> tuple[str, InlineKeyboardMarkup | None]:
    """What :func:`draw` makes of its renderer's text and buttons: an open panel in the
    game's chat ends with whose turn it is, in a game with a turn order."""
    if view.closed:
        markup = _without_panel_buttons(markup)
    elif view.chat_tg_id == view.campaign.chat_tg_id and view.campaign.turn is not None:
        text += "\n\n" + esc(worded(view.campaign.turn, lang.gettext))
    return text, with_undo(view, markup, lang)  # the ↩ Undo for the one who just acted


async def post(
    context: StonetableContext, chat_id: int, view: PanelView, *, reply_to: Message | None = None
) -> Message | None:
    """Send a newly opened panel as a new message in its game's topic, remember it, and
    settle the change. None when the topic refused the post (the group was told), or
    when the outbox sent it."""
    if in_outbox(context, view):
        await _send_pending(context)
        return None
    text, markup = draw(context.deps.renderers, view)
    if chat_id != view.campaign.chat_tg_id:  # in private: which game, when in several
        text = await which_game(context, view.campaign, chat_id, lang_at(view)) + text
    # the game's topic in its group; a private chat has none
    topic = view.campaign.topic_id if chat_id == view.campaign.chat_tg_id else 0
    message: Message | None
    if reply_to is not None and reply_to.chat.id == chat_id:
        message = await reply_to.reply_text(
            text,
            parse_mode=ParseMode.HTML,
            reply_markup=markup,
            do_quote=False,
            message_thread_id=thread(topic),
        )
    else:
        message = await send_game(context.bot, chat_id, topic, text, reply_markup=markup)
    if message is not None:
        await context.deps.campaigns.bind_message(view.id, message.message_id)
    await settle(context, view)
    return message


async def show(context: StonetableContext, view: PanelView) -> None:
    """Edit a panel's message to ``view`` (no change if it shows that already)."""
    if view.message_id is None:
        return
    text, markup = draw(context.deps.renderers, view)
    if view.chat_tg_id != view.campaign.chat_tg_id:  # in private: which game, when in several
        text = await which_game(context, view.campaign, view.chat_tg_id, lang_at(view)) + text
    try:
        await edit_text(context.bot, view.chat_tg_id, view.message_id, text, markup)
    except BadRequest as error:
        if "not modified" not in error.message.lower():
            raise


def _without_panel_buttons(markup: InlineKeyboardMarkup | None) -> InlineKeyboardMarkup | None:
    """A closed panel's buttons would only answer "out of date": keep the others."""
    if markup is None:
        return None
    rows = [
        [b for b in row if not str(b.callback_data or "").startswith("p1:")]
        for row in markup.inline_keyboard
    ]
    rows = [row for row in rows if row]
    return InlineKeyboardMarkup(rows) if rows else None


def in_outbox(context: StonetableContext, change: object) -> bool:
    """Whether ``change`` wrote its messages to the outbox, on the handler's unit of work
    (presenting it sends those)."""
    return context.unit.holds(change)


async def _send_pending(context: StonetableContext) -> None:
    await send_pending(context.stonetable, context.unit)


async def present(context: StonetableContext, view: PanelView) -> None:
    """Show a panel a change came through, then settle the change."""
    if in_outbox(context, view):
        await _send_pending(context)
        return
    await show(context, view)
    await settle(context, view)


async def settle(context: StonetableContext, change: PanelView | Changed | EndedGame) -> None:
    """Everything a change does besides drawing its own panel.

    Follow-ups of a panel's change go out first; then the other views it touched
    are redrawn or retired (best effort: a message deleted or a chat that blocked
    the bot does not undo the change).
    """
    if in_outbox(context, change):
        await _send_pending(context)
        return
    shown: set[int] = set()
    if isinstance(change, PanelView):
        shown = {view.id for view in getattr(change, "redraw", ())}
        await follow_up(context, change, skip=shown)
    for view in getattr(change, "redraw", ()):
        with contextlib.suppress(BadRequest, Forbidden):
            await show(context, view)
    for retired in change.retired:
        with contextlib.suppress(BadRequest, Forbidden):
            await retire(context, retired)


async def retire(context: StonetableContext, retired: Retired) -> None:
    """Take a panel message's buttons away, keeping what it shows, with one line why."""
    view = retired.panel
    if view.message_id is None:
        return
    lang = lang_at(view)
    text, _ = draw(context.deps.renderers, view, lang)
    symbol, why = RETIRED[retired.why]
    header = await retired_header(context.deps.campaigns, retired, lang)
    text = f"{header}{text}\n\n{symbol} <i>{lang.gettext(why)}</i>"
    try:
        await edit_text(context.bot, view.chat_tg_id, view.message_id, text, None)
    except BadRequest as error:
        if "not modified" not in error.message.lower():
            raise


async def retired_header(campaigns: Campaigns, retired: Retired, lang: Lang) -> str:
    """The line naming a retired private message's game: always once its game ended (the
    message outlives the game, and the player's count of games no longer holds it),
    else as :func:`game_header` says; none in the game's group."""
    view = retired.panel
    if view.chat_tg_id == view.campaign.chat_tg_id:
        return ""
    if retired.why is Retirement.ENDED:
        return games_line(view.campaign, lang)
    return await game_header(campaigns, view.campaign, view.chat_tg_id, lang)


async def which_game(
    context: StonetableContext, campaign: CampaignView, player_id: int, lang: Lang
) -> str:
    """A private message's first line naming its game and group (with the topic), for a
    player in more than one game; nothing for a player in one."""
    return await game_header(context.deps.campaigns, campaign, player_id, lang)


async def game_header(
    campaigns: Campaigns, campaign: CampaignView, player_id: int, lang: Lang
) -> str:
    """:func:`which_game`, from the campaigns use cases (the outbox's planner has no context)."""
    if await campaigns.games_count(player_id) < 2:
        return ""
    return games_line(campaign, lang)


def games_line(campaign: CampaignView, lang: Lang) -> str:
    """The first line naming a private message's game and group, for a player in several."""
    return (
        "🎲 "
        + lang.gettext(
            "<b>{game}</b> in <b>{chat}</b>",
            game=esc(lang.gettext(campaign.system.name)),
            chat=esc(campaign.chat_title),
        )
        + "\n"
    )


async def follow_up(
    context: StonetableContext, view: PanelView, *, skip: set[int] | None = None
) -> None:
    """Send what a panel's change sends elsewhere, if its renderer says so.

    A note the bot cannot deliver now is held until the player presses Start.
    """
    follow_ups = getattr(context.deps.renderers[view.kind], "follow_ups", None)
    if follow_ups is None:
        return
    for item in follow_ups(view):
        if isinstance(item, Note) and item.chat_id == view.campaign.chat_tg_id:
            await send_game(
                context.bot,
                item.chat_id,
                view.campaign.topic_id,
                item.text,
                reply_markup=item.markup,
            )
        elif isinstance(item, Note):
            member = view.campaign.member(item.chat_id)
            header = await which_game(
                context, view.campaign, item.chat_id, voice(view.campaign, item.chat_id)
            )
            await send_private(
                context,
                item.chat_id,
                header + item.text,
                item.markup,
                group_chat_id=view.campaign.chat_tg_id,
                group_topic=view.campaign.topic_id,
                name=member.name if member is not None else "",
            )
        elif isinstance(item, Refresh) and item.panel_id not in {view.id, *(skip or ())}:
            await refresh(context, item.panel_id)


async def refresh(context: StonetableContext, panel_id: int) -> None:
    """Edit a panel's message to what the database holds (no change if it shows that)."""
    try:
        view = await context.deps.campaigns.panel(panel_id)
    except NotAllowedNow:
        return
    await show(context, view)
