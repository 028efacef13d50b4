"""Characters' portraits: one small PNG or JPEG per seat in a game, stored in the database
as card pictures are (:mod:`core.campaigns.pictures`: the same size limit, the type
recognised by the first bytes, never by a name or a declared type).

Its player adds, replaces or removes it from the Mini App's sheet (the Game Master too,
in a game whose Game Master changes the players' sheets: :mod:`core.rules.portraits`).
A change to a portrait takes the game's lock and writes in one transaction with the
request's idempotency key, as every Mini App edit does; it is no move in the game, so
the table's wait does not restart with it.

The bot sends a portrait with the character's posts (``/say``, inline). ``digest``
names a portrait's bytes; once Telegram took them, its ``file_id`` is kept and sent
instead of the bytes. A new portrait forgets the old ``file_id``; a ``file_id`` learnt
for bytes since replaced is never kept (:meth:`Portraits.took`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.campaigns.base import CampaignsBase
from core.campaigns.pictures import check_picture
from core.campaigns.play import PlayerRef
from core.campaigns.views import view_of_rows
from core.rules.errors import NotAllowedNow
from core.rules.portraits import check_portrait_change, may_change_portrait
from core.rules.table import Table
from core.store.loader import read_by_token
from core.store.models import CampaignStatus, Portrait
from core.store.repo import guarded
from core.store.unit import UnitOfWork
from core.words.i18n import N_

MAX_CAPTION = 1024  # Telegram's limit of a picture's caption: a longer post goes as text
GONE = N_("That game doesn't exist any more.")
NOT_IN = N_("You're not in this game. Join it with /join in its chat.")
ENDED = N_("This game has ended: its portraits stay as they are.")


@dataclass(frozen=True)
class PortraitRef:
    """A portrait as a post names it: whose, which bytes, and Telegram's id of them
    once known."""

    campaign_id: int
    player_tg_id: int
    digest: str
    file_id: str | None = None


@dataclass(frozen=True)
class PortraitSlot:
    """One seat's portrait on the sheet page, for one viewer: whose character (the name
    their posts go under), the portrait's digest (None: no portrait), and whether the
    viewer may change it."""

    player_tg_id: int
    name: str
    digest: str | None
    changeable: bool
    yours: bool


def digest_of(data: bytes) -> str:
    """The name of a portrait's bytes."""
    return hashlib.sha256(data).hexdigest()[:32]


async def speaker_portrait(campaign_id: int, player: int) -> PortraitRef | None:
    """The portrait a player's posts in a game go with, if there is one."""
    async with guarded():
        found = (
            await Portrait.filter(campaign_id=campaign_id, player_tg_id=player)
            .limit(1)
            .values_list("digest", "file_id")
        )
    if not found:
        return None
    digest, file_id = found[0]
    return PortraitRef(campaign_id, player, str(digest), str(file_id) if file_id else None)


async def portrait_file_ids(player: int, campaign_ids: Iterable[int]) -> dict[int, str]:
    """Telegram's ids of a player's portraits in these games, by game (those it knows)."""
    ids = list(campaign_ids)
    if not ids:
        return {}
    async with guarded():
        found = await Portrait.filter(
            campaign_id__in=ids, player_tg_id=player, file_id__isnull=False
        ).values_list("campaign_id", "file_id")
    return {int(c): str(f) for c, f in found}


class Portraits(CampaignsBase):
    """Characters' portraits: changed from the Mini App, sent with posts."""

    def slots(
        self, table: Table, viewer: int, digests: Mapping[int, str]
    ) -> tuple[PortraitSlot, ...]:
        """Each seat's portrait as ``viewer`` sees it on the sheet (theirs first)."""
        system = self.registry.find(table.system)
        names = system.campaign.character_names(table)
        gm = system.gm_edits_sheets
        seats = sorted(table.seats.items(), key=lambda item: item[0] != viewer)
        return tuple(
            PortraitSlot(
                player,
                names.get(player) or seat.name,
                digests.get(player),
                may_change_portrait(table, viewer, player, gm),
                player == viewer,
            )
            for player, seat in seats
        )

    async def set(
        self,
        app_token: str,
        viewer: PlayerRef,
        player: int,
        data: bytes,
        *,
        unit: UnitOfWork | None = None,
    ) -> str:
        """Add or replace the portrait of ``player``'s character; its digest.

        Raises:
            BadPicture: empty, too large, or neither PNG nor JPEG (nothing read else).
            NotAllowedNow: no such game, the viewer is not in it, it has ended, or
                ``player`` has no seat. NotYourTurn: not the viewer's to change.
        """
        media_type = check_picture(data)
        digest = digest_of(data)
        campaign_id = await self._campaign_of(app_token)
        async with (unit or UnitOfWork()).saving(self.locks, f"campaign:{campaign_id}"):
            await self._check(app_token, campaign_id, viewer, player)
            updated = await Portrait.filter(campaign_id=campaign_id, player_tg_id=player).update(
                media_type=media_type, data=data, digest=digest, file_id=None,
                set_by_tg_id=viewer.tg_id,
            )  # fmt: skip
            if not updated:
                await Portrait.create(
                    campaign_id=campaign_id,
                    player_tg_id=player,
                    media_type=media_type,
                    data=data,
                    digest=digest,
                    set_by_tg_id=viewer.tg_id,
                )
        await self.events.publish(campaign_id)
        return digest

    async def remove(
        self, app_token: str, viewer: PlayerRef, player: int, *, unit: UnitOfWork | None = None
    ) -> bool:
        """Remove the portrait of ``player``'s character; whether there was one.

        Raises:
            As :meth:`set`.
        """
        campaign_id = await self._campaign_of(app_token)
        async with (unit or UnitOfWork()).saving(self.locks, f"campaign:{campaign_id}"):
            await self._check(app_token, campaign_id, viewer, player)
            removed = await Portrait.filter(campaign_id=campaign_id, player_tg_id=player).delete()
        await self.events.publish(campaign_id)
        return bool(removed)

    async def picture(self, app_token: str, viewer: int, player: int) -> tuple[str, bytes] | None:
        """A portrait's media type and bytes, for a member of its game; None: none.

        Raises:
            NotAllowedNow: no such game, or the viewer is not in it.
        """
        reading = await read_by_token(app_token)
        if reading is None:
            raise NotAllowedNow(GONE)
        if viewer not in reading.member_ids():
            raise NotAllowedNow(NOT_IN)
        async with guarded():
            row = await Portrait.get_or_none(campaign_id=reading.campaign_id, player_tg_id=player)
        return None if row is None else (row.media_type, bytes(row.data))

    async def to_send(self, campaign_id: int, player: int) -> tuple[PortraitRef, bytes] | None:
        """A portrait as it is now, to send: its ref and (without a ``file_id``) its bytes."""
        async with guarded():
            row = await Portrait.get_or_none(campaign_id=campaign_id, player_tg_id=player)
        if row is None:
            return None
        ref = PortraitRef(campaign_id, player, row.digest, row.file_id)
        return ref, b"" if row.file_id else bytes(row.data)

    async def took(self, ref: PortraitRef, file_id: str | None) -> None:
        """Keep Telegram's id of a portrait's bytes, unless they were replaced since (None:
        forget it, Telegram no longer knows it)."""
        async with guarded():
            await Portrait.filter(
                campaign_id=ref.campaign_id, player_tg_id=ref.player_tg_id, digest=ref.digest
            ).update(file_id=file_id)

    async def _campaign_of(self, app_token: str) -> int:
        """The game a portrait change is in, read before its lock (read again under it)."""
        reading = await read_by_token(app_token)
        if reading is None:
            raise NotAllowedNow(GONE)
        return reading.campaign_id

    async def _check(
        self, app_token: str, campaign_id: int, viewer: PlayerRef, player: int
    ) -> None:
        """Under the lock: the viewer's game as it is now, and the rules' word on the change."""
        reading = await read_by_token(app_token)  # the one read of the campaign
        if reading is None or reading.campaign_id != campaign_id:
            raise NotAllowedNow(GONE)
        campaign, members = reading.read()
        view, table, _ = view_of_rows(self.registry, campaign, members)
        if view.member(viewer.tg_id) is None:
            raise NotAllowedNow(NOT_IN)
        if campaign.status is CampaignStatus.ARCHIVED:
            raise NotAllowedNow(ENDED)
        check_portrait_change(table, viewer.tg_id, player, view.system.gm_edits_sheets)
