"""A campaign as one member sees it, read fast for the Mini App's pages.

:func:`snapshot_for_viewer` reads the campaign, its chat, host and active
members (and, when asked, its picture keys) in plain SQL and checks
membership on every call. Its ``fingerprint`` changes whenever anything it
read changes, whichever worker or path changed it, so a page rendered from a
snapshot may be kept under (page, viewer, fingerprint) and served again until
the data moves. The JSON columns are decoded only when a page is rendered.

A snapshot hands out only the viewer's projection (:mod:`core.views.projection`): its
``view`` and ``table`` are what the rules let that member see; the rows read
stay private to it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property

from core.campaigns import CampaignView, SeatRow, build_view
from core.rules.errors import NotAllowedNow
from core.rules.registry import Registry
from core.rules.table import Role, Table
from core.store.models import CampaignStatus
from core.store.presses import CampaignRow as StoredCampaign
from core.store.repo import guarded
from core.store.sql import fetch
from core.store.sql_pages import CampaignRow, MemberRow, PageRows, campaign_rows
from core.views.projection import Projection, project

GONE = "That game doesn't exist any more."
NOT_IN = "You're not in this game. Join it with /join in its chat."


def _name(first: str, last: str) -> str:
    return " ".join(p for p in (first, last) if p) or "player"


@dataclass(frozen=True)
class Snapshot:
    """Everything a campaign page may show, as read from the database just now."""

    registry: Registry = field(repr=False, compare=False)
    viewer: int
    _rows: PageRows = field(repr=False)

    @cached_property
    def fingerprint(self) -> str:
        """Changes whenever any value read changes (system, state, members, sheets...)."""
        rows = self._rows
        cells = [*rows.campaign, "members"]
        for member in rows.members:
            cells += member
        if rows.pictures is not None:
            cells += ["pictures", *rows.pictures]
        # Each cell with its length, so no two different readings join into the same text.
        data = "\x00".join("-" if c is None else f"{len(c)}:{c}" for c in cells)
        return hashlib.sha256(data.encode()).hexdigest()

    @cached_property
    def _campaign(self) -> CampaignRow:
        return self._rows.campaign_row()

    @cached_property
    def _members(self) -> tuple[MemberRow, ...]:
        return self._rows.member_rows()

    @property
    def system(self) -> str:
        """The game system's key."""
        return self._campaign.system

    @property
    def campaign_id(self) -> int:
        return self._campaign.id

    @cached_property
    def _seats(self) -> tuple[tuple[int, str, frozenset[Role], str], ...]:
        return tuple(
            (
                m.tg_id,
                _name(m.first_name, m.last_name),
                frozenset(Role(r) for r in json.loads(m.roles)),
                m.sheet,
            )
            for m in self._members
        )

    @cached_property
    def _projection(self) -> Projection:
        c = self._campaign
        row = StoredCampaign(
            id=c.id,
            system=c.system,
            status=CampaignStatus(c.status),
            version=c.version,
            state=json.loads(c.state),
            app_token=c.app_token,
            chat_tg_id=c.chat_tg_id,
            chat_title=c.chat_title,
            host_tg_id=c.host_tg_id,
        )
        seats = tuple(
            SeatRow(0, p, name, roles, json.loads(sheet)) for p, name, roles, sheet in self._seats
        )
        view, table = build_view(self.registry, row, seats)
        return project(view, table, self.viewer)

    @property
    def projection(self) -> Projection:
        """The campaign as this viewer may see it."""
        return self._projection

    @property
    def view(self) -> CampaignView:
        """The campaign, its state projected for this viewer."""
        return self._projection.view

    @property
    def table(self) -> Table:
        """The table (state and sheets) projected for this viewer."""
        return self._projection.table

    @property
    def picture_keys(self) -> frozenset[str]:
        return frozenset(self._rows.pictures or ())


async def snapshot_for_viewer(
    registry: Registry, app_token: str, player_id: int, *, pictures: bool = False
) -> Snapshot:
    """The campaign behind a Mini App token, for one of its active members only.

    Raises:
        NotAllowedNow: no such campaign, or the player is not in it.
        TryAgain: the database is unreachable.
    """
    rows = await campaign_rows(app_token, pictures=pictures)
    if rows is None:
        raise NotAllowedNow(GONE)
    if player_id not in rows.member_ids():
        raise NotAllowedNow(NOT_IN)
    return Snapshot(registry, player_id, rows)


async def check_member(app_token: str, player_id: int) -> None:
    """That the player is an active member of the campaign behind the token (one query).

    The Mini App checks it before it reads a change's body.

    Raises:
        NotAllowedNow: no such campaign, or the player is not in it.
        TryAgain: the database is unreachable.
    """
    async with guarded():
        rows = await fetch(
            "SELECT c.id AS campaign, p.tg_id AS member FROM campaign c"
            " LEFT JOIN member m ON m.campaign_id = c.id AND m.active"
            " LEFT JOIN player p ON p.id = m.player_id AND p.tg_id = ?"
            " WHERE c.app_token = ?",
            (player_id, app_token),
        )
    if not rows:
        raise NotAllowedNow(GONE)
    if not any(r["member"] is not None for r in rows):
        raise NotAllowedNow(NOT_IN)
