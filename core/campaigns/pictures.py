"""Pictures on location cards: a small PNG or JPEG per card face, stored in the database.

A picture is found by a *face key*: a hash of the card's campaign, author and
written face, so it follows the card when dealing renumbers the map and never
names the card's id. The key is derived from secret text: it is used on the
server only and never sent to a page. Who may see or add a picture is decided
by the callers (the card's face rules); this module only stores bytes safely:
a size limit, and PNG or JPEG recognised by their first bytes, never by a name
or a declared type.
"""

from __future__ import annotations

import hashlib

from core.rules.errors import Malformed
from core.store.models import CardPicture
from core.store.repo import guarded
from core.store.unit import UnitOfWork
from core.words.i18n import N_

MAX_PICTURE_BYTES = 512 * 1024
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
JPEG_MAGIC = b"\xff\xd8\xff"


def sniff_image(data: bytes) -> str | None:
    """``image/png`` or ``image/jpeg`` by the file's first bytes, else None."""
    if data.startswith(PNG_MAGIC):
        return "image/png"
    if data.startswith(JPEG_MAGIC):
        return "image/jpeg"
    return None


def face_key(campaign_id: int, author_id: int, title: str, description: str) -> str:
    """The server-side key of a card face's picture."""
    text = f"{campaign_id}\n{author_id}\n{title}\n{description}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class BadPicture(Malformed):
    """An upload that is empty, too large, or neither PNG nor JPEG."""


def check_picture(data: bytes) -> str:
    """The media type of an acceptable picture.

    Raises:
        BadPicture: empty, too large, or neither PNG nor JPEG.
    """
    if not data:
        raise BadPicture(N_("That picture is empty."))
    if len(data) > MAX_PICTURE_BYTES:
        raise BadPicture(N_("Pictures can be at most {kb} KB."), kb=MAX_PICTURE_BYTES // 1024)
    media_type = sniff_image(data)
    if media_type is None:
        raise BadPicture(N_("Pictures must be PNG or JPEG."))
    return media_type


class CardPictures:
    """Store and fetch card pictures (callers check who may)."""

    async def save(
        self,
        campaign_id: int,
        key: str,
        author_id: int,
        data: bytes,
        *,
        unit: UnitOfWork | None = None,
    ) -> None:
        """Store or replace the picture of one card face (``unit``: the request's, with its
        idempotency key).

        Raises:
            BadPicture: see :func:`check_picture`.
        """
        media_type = check_picture(data)
        async with guarded(), (unit or UnitOfWork()).committing():  # with the request's key
            updated = await CardPicture.filter(campaign_id=campaign_id, key=key).update(
                media_type=media_type, data=data, author_tg_id=author_id
            )
            if not updated:
                await CardPicture.create(
                    campaign_id=campaign_id,
                    key=key,
                    author_tg_id=author_id,
                    media_type=media_type,
                    data=data,
                )

    async def get(self, campaign_id: int, key: str) -> tuple[str, bytes] | None:
        """The media type and bytes of a picture, if there is one."""
        async with guarded():
            row = await CardPicture.get_or_none(campaign_id=campaign_id, key=key)
        return None if row is None else (row.media_type, bytes(row.data))

    async def keys(self, campaign_id: int) -> frozenset[str]:
        """Face keys that have a picture in this campaign."""
        async with guarded():
            keys = await CardPicture.filter(campaign_id=campaign_id).values_list("key", flat=True)
        return frozenset(str(k) for k in keys)
