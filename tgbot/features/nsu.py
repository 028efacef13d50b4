"""No Stone Unturned in the bot: worldbuilding, characters, the adventure and safety tools.

Group panels (worldbuilding, adventure) and private ones (locations,
character, lines and veils) go through the shared panel handler; this module
opens them, sends private panels to the right chat, and handles the buttons
that live outside panels (X-card, knock, "write my locations", the map).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import Forbidden
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler

from core.campaigns import CampaignView, PanelView
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.views import GAME_ENDED
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.nsu.adventure_panel import ADVENTURE_PANEL, public_map
from core.rules.nsu.cards_panel import CARDS_PANEL
from core.rules.nsu.character_panel import CHARACTER_PANEL
from core.rules.nsu.safety_panel import SAFETY_PANEL
from core.rules.nsu.setup_panel import SETUP_PANEL
from core.store.outbox import Effect
from core.words.i18n import N_, lang_for
from tgbot.buttons.nsu import (
    NSU_BUTTONS,
    AdventureButton,
    CardsButton,
    CharacterButton,
    KnockButton,
    MapButton,
    XCardButton,
)
from tgbot.callback import OUTDATED, decode, pattern
from tgbot.context import StonetableContext
from tgbot.features.panels import post_panel
from tgbot.i18n import lang_of, voice
from tgbot.outbox import Drawn, deletion, fixed, game_message, private_note, reply_with
from tgbot.presenter import post, settle, which_game
from tgbot.render.nsu import KNOCK_TEXT, X_CARD_TEXT, app_button
from tgbot.render.nsu import RENDERERS as NSU_RENDERERS
from tgbot.render.nsu_map import map_caption, map_picture
from tgbot.topics import send_game, send_game_photo
from tgbot.updates import CommandSpec, actor, not_playing, player_of

SYSTEM_KEY = "nsu"
COMMANDS = [
    CommandSpec("begin", N_("NSU: begin (or show) worldbuilding"), private=False, game=SYSTEM_KEY),
    CommandSpec("character", N_("NSU: make your character, in private"), game=SYSTEM_KEY),
    CommandSpec(
        "locations", N_("NSU: write your two secret locations, in private"), game=SYSTEM_KEY
    ),
    CommandSpec(
        "adventure", N_("NSU: where to go, who is on screen"), private=False, game=SYSTEM_KEY
    ),
    CommandSpec("map", N_("NSU: a picture of the map"), game=SYSTEM_KEY),
    CommandSpec("xcard", N_("Play the X-card, anonymously"), game=SYSTEM_KEY),
    CommandSpec("knock", N_("Knock, anonymously"), game=SYSTEM_KEY),
    CommandSpec("lines", N_("Add lines and veils, anonymously"), game=SYSTEM_KEY),
]
RENDERERS = list(NSU_RENDERERS)
PRIVATE_FIRST = N_(
    "I can't write to you in private yet: open a chat with me, tap Start, then try again."
)
SENT_PRIVATELY = N_("📬 Sent to your private chat with me.")
KEPT_VISIBLE = N_(
    "⚠️ I could not remove your {command} from the group: I am not allowed to delete "
    "messages there, so the others can see that you sent it. To stay anonymous, send "
    "{command} to me here, in our private chat, or ask the host to make me an admin with "
    "the right to delete messages."
)
LINES_IN_PRIVATE = N_(
    "🔒 Lines and veils are written in private, so that nobody knows who wrote them: open "
    "a chat with me, tap <b>Start</b> and send /lines there."
)


# -- finding the campaign -------------------------------------------------------------------


async def campaign_here(update: Update, context: StonetableContext) -> CampaignView:
    """The NSU campaign of this group, or the player's latest one in a private chat."""
    chat, player = actor(update)
    campaigns = context.deps.campaigns
    if chat.kind == ChatType.PRIVATE:
        mine = [c for c in await campaigns.campaigns_of(player) if c.system.key == SYSTEM_KEY]
        if not mine:
            raise await not_playing(campaigns, player, SYSTEM_KEY)
        return mine[0]
    view = await campaigns.require_current(chat.tg_id, chat.topic)
    if view.system.key != SYSTEM_KEY:
        raise NotAllowedNow(N_("That command is for No Stone Unturned games."))
    return view


async def campaign_by_id(
    context: StonetableContext, player: PlayerRef, campaign_id: int
) -> CampaignView:
    for view in await context.deps.campaigns.campaigns_of(player):
        if view.id == campaign_id:
            return view
    if await context.deps.campaigns.has_ended(campaign_id):  # an ended game's old button
        raise NotAllowedNow(GAME_ENDED)
    raise NotAllowedNow(N_("You're not in this game. Join it with /join in its group."))


# -- sending panels ---------------------------------------------------------------------------


async def send_panel(context: StonetableContext, chat_id: int, view: PanelView) -> Message | None:
    """Send a panel to a chat (not as a reply) and remember its message."""
    return await post(context, chat_id, view)


async def open_private(
    context: StonetableContext,
    player: PlayerRef,
    campaign: CampaignView,
    kind: str,
    argument: str = "",
) -> None:
    """Open one of the player's private panels in their chat with the bot (the change
    of the handler's unit of work)."""
    chat = ChatRef(player.tg_id, ChatType.PRIVATE)
    view = await context.deps.campaigns.open_panel(
        chat, player, kind, argument, campaign_id=campaign.id, unit=context.unit
    )
    try:
        await send_panel(context, player.tg_id, view)
    except Forbidden:
        raise NotAllowedNow(PRIVATE_FIRST) from None


async def _reply(update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
    """Answer the sender with ``text``, already worded in the chat's language."""
    assert update.effective_message is not None
    await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)


# -- commands -----------------------------------------------------------------------------------


async def begin(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    await campaign_here(update, context)
    view = await context.deps.campaigns.open_panel(chat, player, SETUP_PANEL, unit=context.unit)
    await post_panel(update, context, view)


async def adventure(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    await campaign_here(update, context)
    view = await context.deps.campaigns.open_panel(chat, player, ADVENTURE_PANEL, unit=context.unit)
    await post_panel(update, context, view)


Handler = Callable[[Update, StonetableContext], Coroutine[Any, Any, None]]


async def hidden(
    context: StonetableContext, message: Message, player: PlayerRef, campaign: CampaignView
) -> Effect:
    """Deleting a safety command sent in the group, since it shows who sent it; when the
    bot may not delete it, the sender is told in private how to stay anonymous."""
    command = (message.text or "").split(maxsplit=1)[0].split("@")[0] or "/xcard"
    lang = voice(campaign, player.tg_id)
    header = await which_game(context, campaign, player.tg_id, lang)
    note = private_note(
        player.tg_id,
        header + lang.gettext(KEPT_VISIBLE, command=html.escape(command)),
        group=(campaign.chat_tg_id, campaign.topic_id),
    )
    return deletion(message.chat_id, message.message_id, refused=note)


async def lines(update: Update, context: StonetableContext) -> None:
    """Open the private lines-and-veils panel; in the group the command goes, and nothing
    the bot says there answers it."""
    chat, player = actor(update)
    campaign = await campaign_here(update, context)
    message = update.effective_message
    assert message is not None
    if chat.kind != ChatType.PRIVATE:
        reply_with(context, fixed([await hidden(context, message, player, campaign)]))
    view = await context.deps.campaigns.open_panel(
        ChatRef(player.tg_id, ChatType.PRIVATE),
        player,
        SAFETY_PANEL,
        "line",
        campaign_id=campaign.id,
        unit=context.unit,
    )
    try:
        await send_panel(context, player.tg_id, view)
    except Forbidden:
        if chat.kind == ChatType.PRIVATE:
            raise NotAllowedNow(PRIVATE_FIRST) from None
        # no private chat yet: the group hears how, as a message of its own, naming nobody
        text = lang_for(campaign.language).gettext(LINES_IN_PRIVATE)
        await send_game(context.bot, campaign.chat_tg_id, campaign.topic_id, text)


def _private_command(kind: str, argument: str = "") -> Handler:
    async def handler(update: Update, context: StonetableContext) -> None:
        chat, player = actor(update)
        campaign = await campaign_here(update, context)
        await open_private(context, player, campaign, kind, argument)
        if chat.kind != ChatType.PRIVATE:
            await _reply(update, (await lang_of(update)).gettext(SENT_PRIVATELY))

    return handler


async def show_map(update: Update, context: StonetableContext) -> None:
    chat, player = actor(update)
    campaign = await campaign_here(update, context)
    await send_map(context, chat.tg_id, chat.kind == ChatType.PRIVATE, player, campaign)


async def send_map(
    context: StonetableContext,
    chat_id: int,
    private: bool,
    player: PlayerRef,
    campaign: CampaignView,
) -> None:
    _, table = await context.deps.campaigns.table_for_viewer(campaign.app_token, player)
    view = public_map(table)
    in_group = chat_id == campaign.chat_tg_id
    lang = lang_for(campaign.language) if in_group else voice(campaign, player.tg_id)
    title = lang.gettext("No Stone Unturned: the map")
    picture = await context.deps.heavy.run(player.tg_id, map_picture, view, title, lang.code)
    deps = context.deps
    opener = app_button(
        "🗺 " + lang.gettext("Open the map"),
        private=private,
        webapp_url=deps.webapp_url,
        bot=context.bot.username,
        short_name=deps.settings.miniapp_short_name,
        token=campaign.app_token,
        page="map",
    )
    topic = campaign.topic_id if chat_id == campaign.chat_tg_id else 0
    header = "" if in_group else await which_game(context, campaign, player.tg_id, lang)
    header = html.unescape(re.sub(r"<[^>]+>", "", header))  # the caption is plain text
    await send_game_photo(
        context.bot,
        chat_id,
        topic,
        picture,
        caption=header + map_caption(view, lang),
        reply_markup=None if opener is None else InlineKeyboardMarkup([[opener]]),
    )


async def safety_signal(
    context: StonetableContext,
    player: PlayerRef,
    campaign: CampaignView,
    action: str,
) -> None:
    """Record an X-card or a knock (no name kept) and tell the group, naming nobody."""
    reply_with(context, fixed([announce(campaign, action)]))  # written with the signal
    edited = await context.deps.campaigns.edit(
        campaign.app_token, player, action, {}, unit=context.unit
    )
    await settle(context, edited)


def announce(campaign: CampaignView, action: str) -> Effect:
    """Telling the group, in its game's language, naming nobody."""
    text = X_CARD_TEXT if action == "safety.x_card" else KNOCK_TEXT
    lang = lang_for(campaign.language)
    return game_message(campaign.chat_tg_id, campaign.topic_id, lang.gettext(text))


def _signal_command(action: str) -> Handler:
    async def handler(update: Update, context: StonetableContext) -> None:
        chat, player = actor(update)
        campaign = await campaign_here(update, context)
        message = update.effective_message
        assert message is not None
        # written with the signal: the command goes (it shows who sent it), the group is told
        said: list[Drawn | str | Effect] = [announce(campaign, action)]
        if chat.kind != ChatType.PRIVATE:
            said.insert(0, await hidden(context, message, player, campaign))
        else:
            lang = await lang_of(update)  # for a player in two games, say which was told
            header = await which_game(context, campaign, player.tg_id, lang)
            said.append(header + lang.gettext("Done. The group was told, without your name."))
        reply_with(context, fixed(said))
        edited = await context.deps.campaigns.edit(
            campaign.app_token, player, action, {}, unit=context.unit
        )
        await settle(context, edited)

    return handler


# -- buttons outside panels -------------------------------------------------------------------


async def press(update: Update, context: StonetableContext) -> None:
    query = update.callback_query
    assert query is not None and update.effective_user is not None
    data = decode(query.data)
    if not isinstance(data, NSU_BUTTONS):
        raise Malformed(OUTDATED)
    player = player_of(update.effective_user)
    campaign = await campaign_by_id(context, player, data.campaign_id)
    message = query.message
    in_private = message is not None and message.chat.type == ChatType.PRIVATE
    answer = ""
    match data:
        case XCardButton() | KnockButton():
            action = "safety.x_card" if isinstance(data, XCardButton) else "safety.knock"
            await safety_signal(context, player, campaign, action)
            answer = N_("Done. Nobody is told it was you.")
        case CardsButton(panel_id=panel_id) | CharacterButton(panel_id=panel_id):
            kind = CARDS_PANEL if isinstance(data, CardsButton) else CHARACTER_PANEL
            await open_private(context, player, campaign, kind, str(panel_id))
            answer = "" if in_private else SENT_PRIVATELY
        case AdventureButton():
            group = ChatRef(campaign.chat_tg_id, ChatType.SUPERGROUP, topic=campaign.topic_id)
            view = await context.deps.campaigns.open_panel(
                group, player, ADVENTURE_PANEL, unit=context.unit
            )
            await send_panel(context, campaign.chat_tg_id, view)
        case MapButton():
            chat_id = campaign.chat_tg_id if message is None else message.chat.id
            await send_map(context, chat_id, in_private, player, campaign)
    await query.answer((await lang_of(update)).gettext(answer) if answer else None)


def handlers() -> dict[int, list[BaseHandler[Update, StonetableContext, None]]]:
    return {
        0: [
            CommandHandler(["begin", "worldbuild"], begin),
            CommandHandler(["adventure", "travel"], adventure),
            CommandHandler("character", _private_command(CHARACTER_PANEL)),
            CommandHandler(["locations", "cards"], _private_command(CARDS_PANEL)),
            CommandHandler("lines", lines),
            CommandHandler("map", show_map),
            CommandHandler("xcard", _signal_command("safety.x_card")),
            CommandHandler("knock", _signal_command("safety.knock")),
            CallbackQueryHandler(press, pattern=pattern(*NSU_BUTTONS)),
        ],
    }
