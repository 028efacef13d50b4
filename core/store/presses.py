"""The button-press path's reads and writes: a few hand-written statements.

A press reads its panel, the campaign (with chat and host) and the active
members (with their players) in one statement, and saves the panel with a
version check in another. The rows come back as plain values, not ORM objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.store.models import CampaignStatus
from core.store.sql import Statement, dump_json, fetch, load_json


@dataclass
class CampaignRow:
    id: int
    system: str
    status: CampaignStatus
    version: int
    state: dict[str, Any]
    app_token: str
    chat_tg_id: int
    chat_title: str
    host_tg_id: int
    topic_id: int = 0  # the forum topic the game is played in (0: General or a plain group)
    language: str = "en"  # the catalogue the group reads


@dataclass(frozen=True)
class MemberRow:
    id: int
    player_tg_id: int
    first_name: str
    last_name: str
    roles: list[str]
    sheet: dict[str, Any]
    language: str = "en"  # the catalogue the player reads in private


@dataclass
class PanelRow:
    id: int
    campaign_id: int
    kind: str
    state: dict[str, Any]
    version: int
    closed: bool
    chat_tg_id: int
    message_id: int | None
    text: str | None = None  # ``state`` as the store's JSON text, when read as text


@dataclass(frozen=True)
class PanelHead:
    """What a press checks before taking the campaign's lock."""

    campaign_id: int
    version: int
    closed: bool


_HEAD = "SELECT campaign_id, version, closed FROM panel WHERE id = ?"

LOAD = """
SELECT p.campaign_id AS p_campaign, p.kind AS p_kind, p.state AS p_state,
       p.version AS p_version, p.closed AS p_closed, p.chat_tg_id AS p_chat,
       p.message_id AS p_message,
       c.system AS c_system, c.status AS c_status, c.version AS c_version,
       c.state AS c_state, c.app_token AS c_token, c.topic_id AS c_topic,
       c.language AS c_language,
       ch.tg_id AS ch_tg_id, ch.title AS ch_title, h.tg_id AS h_tg_id, ft.name AS ft_name,
       m.id AS m_id, m.roles AS m_roles, m.sheet AS m_sheet,
       pl.tg_id AS pl_tg_id, pl.first_name AS pl_first, pl.last_name AS pl_last,
       pl.language AS pl_language
FROM panel p
JOIN campaign c ON c.id = p.campaign_id
JOIN chat ch ON ch.id = c.chat_id
JOIN player h ON h.id = c.host_id
LEFT JOIN forum_topic ft ON ft.chat_tg_id = ch.tg_id AND ft.thread_id = c.topic_id
LEFT JOIN member m ON m.campaign_id = c.id AND m.active = ?
LEFT JOIN player pl ON pl.id = m.player_id
WHERE p.id = ?
ORDER BY m.joined_at, m.id
"""

_SAVE = (
    "UPDATE panel SET state = ?, version = ?, closed = ?"
    " WHERE id = ? AND version = ? AND closed = ? RETURNING id"
)


async def panel_head(panel_id: int) -> PanelHead | None:
    rows = await fetch(_HEAD, (panel_id,))
    if not rows:
        return None
    row = rows[0]
    return PanelHead(int(row["campaign_id"]), int(row["version"]), bool(row["closed"]))


def load_arguments(panel_id: int) -> tuple[bool, int]:
    """The arguments of :data:`LOAD` for ``panel_id``."""
    return (True, panel_id)


async def load_panel(panel_id: int) -> tuple[PanelRow, CampaignRow, list[MemberRow]] | None:
    """A panel with its campaign and the campaign's active members, in joining order."""
    return read_panel(panel_id, await fetch(LOAD, load_arguments(panel_id)))


def read_panel(
    panel_id: int, rows: list[dict[str, Any]]
) -> tuple[PanelRow, CampaignRow, list[MemberRow]] | None:
    """The rows of :data:`LOAD` as a panel, its campaign and its active members."""
    if not rows:
        return None
    first = rows[0]
    campaign_id = int(first["p_campaign"])
    panel = PanelRow(
        id=panel_id,
        campaign_id=campaign_id,
        kind=first["p_kind"],
        state=load_json(first["p_state"]),
        version=int(first["p_version"]),
        closed=bool(first["p_closed"]),
        chat_tg_id=int(first["p_chat"]),
        message_id=None if first["p_message"] is None else int(first["p_message"]),
        text=first["p_state"] if isinstance(first["p_state"], str) else None,
    )
    campaign = CampaignRow(
        id=campaign_id,
        system=first["c_system"],
        status=CampaignStatus(first["c_status"]),
        version=int(first["c_version"]),
        state=load_json(first["c_state"]),
        app_token=first["c_token"],
        chat_tg_id=int(first["ch_tg_id"]),
        chat_title=f"{first['ch_title']} › {first['ft_name']}"
        if first["ft_name"] and first["c_topic"]
        else first["ch_title"],
        host_tg_id=int(first["h_tg_id"]),
        topic_id=int(first["c_topic"] or 0),
        language=first["c_language"],
    )
    return panel, campaign, [_member(row) for row in rows if row["m_id"] is not None]


def _member(row: dict[str, Any]) -> MemberRow:
    return MemberRow(
        id=int(row["m_id"]),
        player_tg_id=int(row["pl_tg_id"]),
        first_name=row["pl_first"],
        last_name=row["pl_last"],
        roles=load_json(row["m_roles"]),
        sheet=load_json(row["m_sheet"]),
        language=row["pl_language"],
    )


async def save_panel(panel_id: int, version: int, state: dict[str, Any], closed: bool) -> bool:
    """Store a panel's next version; False when it is no longer at ``version`` or closed."""
    return bool(await fetch(*save_statement(panel_id, version, state, closed)))


def save_statement(panel_id: int, version: int, state: dict[str, Any], closed: bool) -> Statement:
    """The statement of :func:`save_panel`: a row back when the panel was saved."""
    return _SAVE, (dump_json(state), version + 1, closed, panel_id, version, False)
