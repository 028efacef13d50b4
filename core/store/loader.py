"""The one read of a campaign for its views: one statement family, one way to read its rows.

Every view of a campaign (a press and a redraw of a panel, a command's use case, the
Mini App's pages, its list of open procedures) reads the campaign with its chat, host
and forum topic, and its active members with their players, through one statement
here: :data:`LOAD` (a panel, with its campaign), :data:`BY_ID` (a campaign by id) or
:data:`BY_TOKEN` (the campaign behind a Mini App token). They share their columns and
joins; :func:`read_campaign` turns their rows into a campaign and its members, the one
way. Open panels of a kind are read by :data:`OPEN_PANELS`, the open panels a change
may touch by :data:`OPEN_VIEWS`, into the same
:class:`PanelRow` as a loaded panel; whether a player is a member, alone, by
:func:`membership`. No other module runs these reads
(``tests/core/store/test_loader.py`` keeps it so).

The rows come back as plain values, JSON columns still as the driver gives them, so a
page can fingerprint what it read (:class:`Reading`) and decode only when it renders.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from core.store.models import CampaignStatus
from core.store.repo import guarded
from core.store.sql import Statement, fetch, load_json


@dataclass
class CampaignRow:
    id: int
    system: str
    status: CampaignStatus
    version: int
    state: dict[str, Any]
    app_token: str
    chat_tg_id: int
    chat_title: str  # where the game is played: the group, and its forum topic if any
    host_tg_id: int
    topic_id: int = 0  # the forum topic the game is played in (0: General or a plain group)
    language: str = "en"  # the catalogue the group reads
    turn_order: dict[str, Any] | None = None  # its turn order as kept (None: none)


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
    procedure: str | None = None  # what a newer panel supersedes (None: the kind)


Rows = list[dict[str, Any]]

_PANEL = """p.id AS p_id, p.campaign_id AS p_campaign, p.kind AS p_kind, p.state AS p_state,
       p.version AS p_version, p.closed AS p_closed, p.chat_tg_id AS p_chat,
       p.message_id AS p_message, p.procedure AS p_procedure"""
_CAMPAIGN = """c.id AS c_id, c.system AS c_system, c.status AS c_status, c.version AS c_version,
       c.state AS c_state, c.app_token AS c_token, c.topic_id AS c_topic,
       c.language AS c_language,
       ch.tg_id AS ch_tg_id, ch.title AS ch_title, h.tg_id AS h_tg_id, ft.name AS ft_name,
       gn.turn_order AS gn_order,
       m.id AS m_id, m.roles AS m_roles, m.sheet AS m_sheet,
       pl.tg_id AS pl_tg_id, pl.first_name AS pl_first, pl.last_name AS pl_last,
       pl.language AS pl_language"""
_JOINS = """JOIN chat ch ON ch.id = c.chat_id
JOIN player h ON h.id = c.host_id
LEFT JOIN forum_topic ft ON ft.chat_tg_id = ch.tg_id AND ft.thread_id = c.topic_id
LEFT JOIN game_nudges gn ON gn.campaign_id = c.id
LEFT JOIN member m ON m.campaign_id = c.id AND m.active = ?
LEFT JOIN player pl ON pl.id = m.player_id"""


def _campaign_read(source: str, where: str, *, panel: bool = False) -> str:
    """The campaign read from ``source`` (which names the campaign ``c``), one row per
    active member in joining order (one row with no member when there is none)."""
    columns = f"{_PANEL},\n       {_CAMPAIGN}" if panel else _CAMPAIGN
    return f"SELECT {columns}\nFROM {source}\n{_JOINS}\nWHERE {where}\nORDER BY m.joined_at, m.id\n"


LOAD = _campaign_read("panel p JOIN campaign c ON c.id = p.campaign_id", "p.id = ?", panel=True)
"""A panel, its campaign and the campaign's active members (:func:`load_arguments`)."""
BY_ID = _campaign_read("campaign c", "c.id = ?")
"""A campaign by id and its active members (values: ``(True, campaign_id)``)."""
BY_TOKEN = _campaign_read("campaign c", "c.app_token = ?")
"""The campaign behind a Mini App token and its active members (``(True, token)``)."""
OPEN_PANELS = (
    f"SELECT {_PANEL} FROM panel p WHERE p.campaign_id = ? AND p.kind = ? AND p.closed = ?"
    " ORDER BY p.id"
)
OPEN_VIEWS = (
    f"SELECT {_PANEL} FROM panel p WHERE p.campaign_id = ? AND p.closed = ?"
    " AND p.message_id IS NOT NULL AND p.id <> ? ORDER BY p.id"
)
"""A campaign's open panels with a message, but one (:func:`open_views`)."""
_GAMES_OF = (
    "SELECT COUNT(DISTINCT c.id) AS games FROM campaign c"
    " JOIN member m ON m.campaign_id = c.id AND m.active = ?"
    " JOIN player pl ON pl.id = m.player_id"
    " WHERE pl.tg_id = ? AND c.live_chat_id IS NOT NULL"
)
_PLAYING_HERE = (
    "SELECT c.id AS id FROM campaign c"
    " JOIN member m ON m.campaign_id = c.id AND m.active = ?"
    " JOIN player pl ON pl.id = m.player_id"
    " WHERE c.live_chat_id = ? AND c.topic_id = ? AND c.status = ? AND pl.tg_id = ?"
)
_MEMBERSHIP = (
    "SELECT c.id AS c_id, pl.tg_id AS pl_tg_id FROM campaign c"
    " LEFT JOIN member m ON m.campaign_id = c.id AND m.active = ?"
    " LEFT JOIN player pl ON pl.id = m.player_id AND pl.tg_id = ?"
    " WHERE c.app_token = ?"
)
_PICTURES = 'SELECT k."key" AS k_key FROM card_picture k WHERE k.campaign_id = ? ORDER BY k."key"'
_PORTRAITS = (
    "SELECT p.player_tg_id AS p_player, p.digest AS p_digest FROM portrait p"
    " WHERE p.campaign_id = ? ORDER BY p.player_tg_id"
)


def load_arguments(panel_id: int) -> tuple[bool, int]:
    """The arguments of :data:`LOAD` for ``panel_id``."""
    return (True, panel_id)


def read_campaign(rows: Rows) -> tuple[CampaignRow, list[MemberRow]] | None:
    """The rows of any of the campaign reads as the campaign and its active members."""
    if not rows:
        return None
    first = rows[0]
    topic = int(first["c_topic"] or 0)
    campaign = CampaignRow(
        id=int(first["c_id"]),
        system=first["c_system"],
        status=CampaignStatus(first["c_status"]),
        version=int(first["c_version"]),
        state=load_json(first["c_state"]),
        app_token=first["c_token"],
        chat_tg_id=int(first["ch_tg_id"]),
        chat_title=f"{first['ch_title']} › {first['ft_name']}"
        if first["ft_name"] and topic
        else first["ch_title"],
        host_tg_id=int(first["h_tg_id"]),
        topic_id=topic,
        language=first["c_language"],
        turn_order=load_json(first["gn_order"]) if first["gn_order"] is not None else None,
    )
    return campaign, [_member(row) for row in rows if row["m_id"] is not None]


def read_panel(panel_id: int, rows: Rows) -> tuple[PanelRow, CampaignRow, list[MemberRow]] | None:
    """The rows of :data:`LOAD` as a panel, its campaign and its active members."""
    read = read_campaign(rows)
    if read is None:
        return None
    return _panel(rows[0]), *read


async def load_panel(panel_id: int) -> tuple[PanelRow, CampaignRow, list[MemberRow]] | None:
    """A panel with its campaign and the campaign's active members, in joining order."""
    return read_panel(panel_id, await fetch(LOAD, load_arguments(panel_id)))


async def load_campaign(campaign_id: int) -> tuple[CampaignRow, list[MemberRow]] | None:
    """A campaign with its chat, host and topic, and its active members (joining order)."""
    return read_campaign(await fetch(BY_ID, (True, campaign_id)))


async def open_panel_rows(campaign_id: int, kind: str) -> tuple[PanelRow, ...]:
    """The campaign's open panels of one kind, oldest first (callers check membership)."""
    async with guarded():
        rows = await fetch(OPEN_PANELS, (campaign_id, kind, False))
    return tuple(_panel(row) for row in rows)


def open_views(campaign_id: int, but: int | None = None) -> Statement:
    """The statement of the campaign's open panels that have a message, oldest first,
    all but the panel ``but`` (:func:`read_panels` reads its rows)."""
    return OPEN_VIEWS, (campaign_id, False, 0 if but is None else but)


_STEPS = (
    "SELECT id AS s_id, actor_tg_id, label, rolled, final, revealed, panel_id,"
    " panel_version_after, campaign_version_after FROM undo_step"
    " WHERE campaign_id = ? AND undone = ? ORDER BY id DESC LIMIT 2"
)
TOUCHED = (
    f"WITH s AS ({_STEPS}) SELECT s.*, {_PANEL} FROM (SELECT 1 AS one) o"
    " LEFT JOIN s ON 1 = 1"
    " LEFT JOIN panel p ON p.campaign_id = ? AND p.closed = ? AND p.id <> ?"
    " ORDER BY s.s_id DESC, p.id"
)
"""In one read, a campaign's two newest live undo steps and its open panels but one
(:func:`touched_views`): each step with each panel."""


def touched_views(campaign_id: int, but: int | None = None) -> Statement:
    """The statement of what a change may touch on screen, in one read: the rows of
    :func:`core.store.undo_steps.Offers.newest` and the campaign's open panels but
    ``but``, those with a message (:func:`open_views`) and those without (the wait's
    restart reads them all) together (:func:`read_touched` parts them)."""
    return TOUCHED, (campaign_id, False, campaign_id, False, 0 if but is None else but)


def read_touched(rows: Rows) -> tuple[Rows, list[PanelRow]]:
    """The rows of :func:`touched_views` parted: the undo steps' (newest first, as
    :meth:`core.store.undo_steps.Offers.read` takes them) and the panels."""
    steps: dict[int, dict[str, Any]] = {}
    panels: dict[int, dict[str, Any]] = {}
    for row in rows:
        if row["s_id"] is not None:
            steps.setdefault(int(row["s_id"]), row)
        if row["p_id"] is not None:
            panels.setdefault(int(row["p_id"]), row)
    return list(steps.values()), [_panel(panels[key]) for key in sorted(panels)]


def games_of(player_tg_id: int) -> Statement:
    """The statement of how many live games a player is in (:func:`read_games`)."""
    return _GAMES_OF, (True, player_tg_id)


def read_games(rows: Rows) -> int:
    return int(rows[0]["games"]) if rows else 0


async def games_count(player_tg_id: int) -> int:
    """How many live games a player is in (one count, nothing else read)."""
    async with guarded():
        return read_games(await fetch(*games_of(player_tg_id)))


def read_panels(rows: Rows) -> list[PanelRow]:
    return [_panel(row) for row in rows]


async def membership(app_token: str, player_id: int) -> bool | None:
    """Whether the player is an active member of the campaign behind the token (one
    query, nothing else read); None when there is no such campaign.

    Raises:
        TryAgain: the database is unreachable.
    """
    async with guarded():
        rows = await fetch(_MEMBERSHIP, (True, player_id, app_token))
    if not rows:
        return None
    return any(r["pl_tg_id"] is not None for r in rows)


async def playing_here(chat_tg_id: int, topic: int, player_tg_id: int) -> int | None:
    """The id of the running game of a chat's topic when the player is in it (one query,
    nothing else read); None when no game runs there or they are not in it.

    Raises:
        TryAgain: the database is unreachable.
    """
    values = (True, chat_tg_id, topic, CampaignStatus.ACTIVE.value, player_tg_id)
    async with guarded():
        rows = await fetch(_PLAYING_HERE, values)
    return int(rows[0]["id"]) if rows else None


def _panel(row: dict[str, Any]) -> PanelRow:
    return PanelRow(
        id=int(row["p_id"]),
        campaign_id=int(row["p_campaign"]),
        kind=row["p_kind"],
        state=load_json(row["p_state"]),
        version=int(row["p_version"]),
        closed=bool(row["p_closed"]),
        chat_tg_id=int(row["p_chat"]),
        message_id=None if row["p_message"] is None else int(row["p_message"]),
        text=row["p_state"] if isinstance(row["p_state"], str) else None,
        procedure=row["p_procedure"],
    )


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


@dataclass(frozen=True)
class Reading:
    """The rows of :data:`BY_TOKEN` as read (and, when asked, the picture keys and the
    characters' portraits, player and digest), before any decoding: a page fingerprints
    them and decodes them only when it renders."""

    rows: tuple[tuple[tuple[str, Any], ...], ...]
    pictures: tuple[str, ...] | None = None
    portraits: tuple[tuple[int, str], ...] | None = None

    @classmethod
    def of(
        cls,
        rows: Rows,
        pictures: tuple[str, ...] | None = None,
        portraits: tuple[tuple[int, str], ...] | None = None,
    ) -> Reading:
        return cls(tuple(tuple(row.items()) for row in rows), pictures, portraits)

    @property
    def campaign_id(self) -> int:
        return int(dict(self.rows[0])["c_id"])

    @property
    def system(self) -> str:
        """The game system's key (nothing decoded)."""
        return str(dict(self.rows[0])["c_system"])

    def member_ids(self) -> frozenset[int]:
        """The active members' Telegram ids (nothing decoded)."""
        cells = (dict(row)["pl_tg_id"] for row in self.rows)
        return frozenset(int(c) for c in cells if c is not None)

    def read(self) -> tuple[CampaignRow, list[MemberRow]]:
        """The campaign and its active members, decoded (:func:`read_campaign`)."""
        read = read_campaign([dict(row) for row in self.rows])
        assert read is not None  # a Reading holds at least the campaign's row
        return read

    @cached_property
    def fingerprint(self) -> str:
        """Changes whenever any value read changes (system, state, members, sheets...)."""
        cells: list[object] = []
        for row in self.rows:
            cells += ["row", *(value for _, value in row)]
        if self.pictures is not None:
            cells += ["pictures", *self.pictures]
        if self.portraits is not None:
            cells += ["portraits", *(f"{p}={d}" for p, d in self.portraits)]
        # Each cell with its length, so no two different readings join into the same text.
        data = "\x00".join("-" if c is None else f"{len(str(c))}:{c}" for c in cells)
        return hashlib.sha256(data.encode()).hexdigest()


async def read_by_token(
    app_token: str, *, pictures: bool = False, portraits: bool = False
) -> Reading | None:
    """The campaign behind a Mini App token and its active members (joining order) and,
    when asked, its picture keys (sorted) and its portraits (by player), as read; None
    when there is no such campaign.

    Raises:
        TryAgain: the database is unreachable.
    """
    async with guarded():
        rows = await fetch(BY_TOKEN, (True, app_token))
        if not rows:
            return None
        keys = None
        if pictures:
            found = await fetch(_PICTURES, (int(rows[0]["c_id"]),))
            keys = tuple(str(k["k_key"]) for k in found)
        shown = None
        if portraits:
            found = await fetch(_PORTRAITS, (int(rows[0]["c_id"]),))
            shown = tuple((int(p["p_player"]), str(p["p_digest"])) for p in found)
    return Reading.of(rows, keys, shown)
