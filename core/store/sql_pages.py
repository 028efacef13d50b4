"""Hand-written reads for the Mini App's busiest pages, on SQLite and PostgreSQL alike.

A page needs a campaign (with its chat and host) and its active members; the
ORM spends far longer building and decoding those queries than the database
spends answering them. These reads return the raw rows, JSON columns still as
text, so a caller can fingerprint what it read and decode only when needed.
Placeholders are written ``?`` and numbered for PostgreSQL in :func:`_fetch`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tortoise import connections

from core.store.repo import guarded

_PLACEHOLDER = re.compile(r"\?")


@dataclass(frozen=True)
class CampaignRow:
    id: int
    system: str
    status: str
    app_token: str
    state: str  # JSON text
    version: int
    chat_tg_id: int
    chat_title: str
    host_tg_id: int


@dataclass(frozen=True)
class MemberRow:
    tg_id: int
    first_name: str
    last_name: str
    roles: str  # JSON text
    sheet: str  # JSON text


def _numbered(sql: str) -> str:
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


async def _fetch(sql: str, values: list[Any]) -> Sequence[Sequence[Any]]:
    connection = connections.get("default")
    if connection.capabilities.dialect == "postgres":
        sql = _numbered(sql)
    _, rows = await connection.execute_query(sql, values)
    return rows  # type: ignore[return-value]  # sqlite3.Row / asyncpg.Record: by position


def _text(value: Any) -> str:
    """A JSON column as text (a driver may hand back bytes)."""
    return value.decode() if isinstance(value, bytes | bytearray | memoryview) else str(value)


CAMPAIGN_SQL = (
    "SELECT c.id, c.system, c.status, c.app_token, c.state, c.version,"
    " ch.tg_id, ch.title, h.tg_id"
    " FROM campaign c JOIN chat ch ON ch.id = c.chat_id JOIN player h ON h.id = c.host_id"
    " WHERE c.app_token = ?"
)
MEMBERS_SQL = (
    "SELECT p.tg_id, p.first_name, p.last_name, m.roles, m.sheet"
    " FROM member m JOIN player p ON p.id = m.player_id"
    " WHERE m.campaign_id = ? AND m.active = ? ORDER BY m.joined_at, m.id"
)
PICTURES_SQL = 'SELECT "key" FROM card_picture WHERE campaign_id = ? ORDER BY "key"'


async def campaign_rows(app_token: str) -> tuple[CampaignRow, tuple[MemberRow, ...]] | None:
    """The campaign behind a Mini App token and its active members (joining order), or None.

    Raises:
        TryAgain: the database is unreachable.
    """
    async with guarded():
        found = await _fetch(CAMPAIGN_SQL, [app_token])
        if not found:
            return None
        r = found[0]
        campaign = CampaignRow(
            int(r[0]), str(r[1]), str(r[2]), str(r[3]), _text(r[4]), int(r[5]),
            int(r[6]), str(r[7]), int(r[8]),
        )  # fmt: skip
        members = await _fetch(MEMBERS_SQL, [campaign.id, True])
    return campaign, tuple(
        MemberRow(int(m[0]), str(m[1]), str(m[2]), _text(m[3]), _text(m[4])) for m in members
    )


async def picture_keys(campaign_id: int) -> tuple[str, ...]:
    """Face keys with a picture in this campaign, sorted.

    Raises:
        TryAgain: the database is unreachable.
    """
    async with guarded():
        rows = await _fetch(PICTURES_SQL, [campaign_id])
    return tuple(str(r[0]) for r in rows)
