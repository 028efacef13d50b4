"""Hand-written reads for the Mini App's busiest pages, on SQLite and PostgreSQL alike.

A page needs a campaign (with its chat and host) and its active members; the
ORM spends far longer building and decoding those queries than the database
spends answering them. One query returns the raw rows, JSON columns still as
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
    result: Sequence[Sequence[Any]] = rows  # sqlite3.Row / asyncpg.Record: read by position
    return result


def _cell(value: Any) -> str | None:
    """A cell as text (every column is cast to text; a driver may still hand back bytes)."""
    if value is None or isinstance(value, str):
        return value
    return (
        bytes(value).decode() if isinstance(value, bytes | bytearray | memoryview) else str(value)
    )


# One round trip: the campaign row (kind 0), its active members in joining order
# (kind 1) and, when asked, its picture keys (kind 2). Every column is text so the
# branches line up on both databases.
_CAMPAIGN = (
    "SELECT 0 AS kind, CAST(c.id AS TEXT), c.system, c.status, c.app_token,"
    " CAST(c.state AS TEXT), CAST(c.version AS TEXT), CAST(ch.tg_id AS TEXT),"
    # where the game is played: the group, and its forum topic's name if it has one
    " CASE WHEN ft.name IS NULL OR ft.name = '' THEN ch.title"
    " ELSE ch.title || ' › ' || ft.name END,"
    " CAST(h.tg_id AS TEXT), NULL AS joined, 0 AS n"
    " FROM campaign c JOIN chat ch ON ch.id = c.chat_id JOIN player h ON h.id = c.host_id"
    " LEFT JOIN forum_topic ft"
    " ON ft.chat_tg_id = ch.tg_id AND ft.thread_id = c.topic_id AND c.topic_id <> 0"
    " WHERE c.app_token = ?"
)
_MEMBERS = (
    "SELECT 1, CAST(p.tg_id AS TEXT), p.first_name, p.last_name, CAST(m.roles AS TEXT),"
    " CAST(m.sheet AS TEXT), NULL, NULL, NULL, NULL, m.joined_at, m.id"
    " FROM member m JOIN campaign c ON c.id = m.campaign_id JOIN player p ON p.id = m.player_id"
    " WHERE c.app_token = ? AND m.active = ?"
)
_PICTURES = (
    'SELECT 2, k."key", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, k.id'
    " FROM card_picture k JOIN campaign c ON c.id = k.campaign_id WHERE c.app_token = ?"
)
_ORDER = " ORDER BY kind, joined, n"


Cells = tuple[str | None, ...]


@dataclass(frozen=True)
class PageRows:
    """The rows as read, every cell text (or NULL), before any decoding."""

    campaign: Cells
    members: tuple[Cells, ...]
    pictures: tuple[str, ...] | None

    def member_ids(self) -> tuple[int, ...]:
        return tuple(int(str(m[0])) for m in self.members)

    def campaign_row(self) -> CampaignRow:
        c = [str(v) for v in self.campaign]
        return CampaignRow(int(c[0]), c[1], c[2], c[3], c[4], int(c[5]), int(c[6]), c[7], int(c[8]))

    def member_rows(self) -> tuple[MemberRow, ...]:
        return tuple(
            MemberRow(int(str(m[0])), str(m[1]), str(m[2]), str(m[3]), str(m[4]))
            for m in self.members
        )


async def campaign_rows(app_token: str, *, pictures: bool = False) -> PageRows | None:
    """The campaign behind a Mini App token, its active members (joining order) and,
    when asked, its picture keys (sorted); None when there is no such campaign.

    Raises:
        TryAgain: the database is unreachable.
    """
    sql = f"{_CAMPAIGN} UNION ALL {_MEMBERS}"
    values: list[Any] = [app_token, app_token, True]
    if pictures:
        sql += f" UNION ALL {_PICTURES}"
        values.append(app_token)
    async with guarded():
        rows = await _fetch(sql + _ORDER, values)
    if not rows or int(rows[0][0]) != 0:
        return None
    members, keys = [], []
    for row in rows[1:]:
        if int(row[0]) == 1:
            members.append(tuple(_cell(v) for v in row[1:6]))
        else:
            keys.append(str(row[1]))
    return PageRows(
        tuple(_cell(v) for v in rows[0][1:10]),
        tuple(members),
        tuple(sorted(keys)) if pictures else None,
    )
