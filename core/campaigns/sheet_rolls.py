"""Rolls started from the Mini App's sheet: the panel the game's chat command opens.

A tap on a trait, skill, approach or ability names the panel and the command's words
(each game's sheet page says which); the panel is opened by the same use case as the
command, in the game's own chat and topic, and its message goes out through the
outbox with the change.
"""

from __future__ import annotations

from core.campaigns import Campaigns, PanelView
from core.campaigns.play import ChatRef, PlayerRef
from core.store.unit import UnitOfWork


async def start_roll(
    campaigns: Campaigns,
    app_token: str,
    player: PlayerRef,
    kind: str,
    argument: str,
    *,
    unit: UnitOfWork | None = None,
) -> PanelView:
    """Open panel ``kind`` with ``argument`` for ``player`` in the game's chat, as its
    command would.

    Raises:
        NotAllowedNow, NotYourTurn: not a member, the game paused or over, a roll
            already open, not this player's to start; nothing changes.
        Malformed: the words are not what the panel takes.
    """
    view = await campaigns.for_viewer(app_token, player)
    chat = ChatRef(view.chat_tg_id, "supergroup", view.chat_title, topic=view.topic_id)
    return await campaigns.open_panel(chat, player, kind, argument, campaign_id=view.id, unit=unit)
