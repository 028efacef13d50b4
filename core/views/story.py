"""A campaign's story, shared: a read-only page behind a secret link.

The host publishes it (and may withdraw it); anyone holding the link reads the
campaign as the whole table has seen it. It is built from the projection for
:data:`ANYONE`, a viewer who is no member: the rules keep from them everything any
one member alone may see (drafts, face-down card faces, a scout's look, private
notes), so the story holds nothing a member could not see
(``tests/webapp/test_secrecy.py`` checks the page and the download).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from core.rules.errors import NotAllowedNow
from core.rules.registry import Registry
from core.store.loader import read_by_token
from core.store.models import Campaign, StoryLink
from core.store.repo import guarded
from core.views.viewer_pages import Snapshot, snapshot_for_viewer
from core.words.i18n import N_

ANYONE = -1
"""The story's viewer: no member. Telegram's user ids are positive, and 0 already
stands for the author kept from everyone of a dealt card (``HIDDEN_AUTHOR``)."""

HOST_ONLY = N_("Only the host can share the campaign's story.")


class NoStory(NotAllowedNow):
    """No story behind this link (never published)."""


class StoryWithdrawn(NotAllowedNow):
    """The host withdrew this link."""


NO_STORY = N_("There is no story behind this link.")
WITHDRAWN = N_("The host no longer shares this story.")


async def _hosted(registry: Registry, app_token: str, player_id: int) -> Snapshot:
    snapshot = await snapshot_for_viewer(registry, app_token, player_id)
    if snapshot.view.host_id != player_id:
        raise NotAllowedNow(HOST_ONLY)
    return snapshot


async def shared_link(registry: Registry, app_token: str, player_id: int) -> str | None:
    """The story's live secret, for the host (None: not shared now)."""
    snapshot = await _hosted(registry, app_token, player_id)
    async with guarded():
        link = await StoryLink.filter(
            campaign_id=snapshot.campaign_id, withdrawn_at__isnull=True
        ).first()
    return None if link is None else link.secret


async def publish(registry: Registry, app_token: str, player_id: int) -> str:
    """Share the story (the host only); returns its secret, the same while it is shared."""
    snapshot = await _hosted(registry, app_token, player_id)
    async with guarded():
        link = await StoryLink.filter(
            campaign_id=snapshot.campaign_id, withdrawn_at__isnull=True
        ).first()
        if link is None:
            link = await StoryLink.create(
                campaign_id=snapshot.campaign_id, secret=secrets.token_urlsafe(24)
            )
    return link.secret


async def withdraw(registry: Registry, app_token: str, player_id: int, now: datetime) -> int:
    """Stop sharing (the host only): every link given out answers "gone" from now on."""
    snapshot = await _hosted(registry, app_token, player_id)
    async with guarded():
        return await StoryLink.filter(
            campaign_id=snapshot.campaign_id, withdrawn_at__isnull=True
        ).update(withdrawn_at=now)


async def story(registry: Registry, secret: str) -> Snapshot:
    """The campaign behind a story link, as anyone may see it (with its pictures' keys).

    Raises:
        NoStory: no such link. StoryWithdrawn: the host withdrew it.
    """
    if not 16 <= len(secret) <= 64:
        raise NoStory(NO_STORY)
    async with guarded():
        link = await StoryLink.filter(secret=secret).first()
        campaign = None if link is None else await Campaign.filter(id=link.campaign_id).first()
    if link is None or campaign is None:
        raise NoStory(NO_STORY)
    if link.withdrawn_at is not None:
        raise StoryWithdrawn(WITHDRAWN)
    reading = await read_by_token(campaign.app_token, pictures=True)
    if reading is None:
        raise NoStory(NO_STORY)
    return Snapshot(registry, ANYONE, reading)


def shown_cards(snapshot: Snapshot) -> list[Any]:
    """The NSU cards of the current world whose face anyone reading the story may see
    (face up on the map); none for the other games."""
    if snapshot.system != "nsu":
        return []
    from core.rules.nsu.campaign import campaign_of
    from core.rules.nsu.world import can_see_face

    world = campaign_of(snapshot.table).current_world()
    return [] if world is None else [c for c in world.cards if can_see_face(c, ANYONE)]
