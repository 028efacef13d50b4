"""A campaign as one member sees it, read fast for the Mini App's pages.

:func:`snapshot_for_viewer` reads the campaign, its chat, host and active
members (and, when asked, its picture keys and portraits) through the one loader
(:mod:`core.store.loader`) and checks membership on every call. Its
``fingerprint`` changes whenever anything it read changes, whichever worker or
path changed it, so a page rendered from a snapshot may be kept under (page,
viewer, fingerprint) and served again until the data moves. The JSON columns are
decoded only when a page is rendered.

A snapshot hands out only the viewer's projection (:mod:`core.views.projection`): its
``view`` and ``table`` are what the rules let that member see; the rows read
stay private to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from core.campaigns import CampaignView
from core.campaigns.views import view_of_rows
from core.rules.errors import NotAllowedNow
from core.rules.registry import Registry
from core.rules.table import Table
from core.store.loader import Reading, membership, read_by_token
from core.views.projection import Projection, project

GONE = "That game doesn't exist any more."
NOT_IN = "You're not in this game. Join it with /join in its chat."


@dataclass(frozen=True)
class Snapshot:
    """Everything a campaign page may show, as read from the database just now."""

    registry: Registry = field(repr=False, compare=False)
    viewer: int
    _reading: Reading = field(repr=False)

    @property
    def fingerprint(self) -> str:
        """Changes whenever any value read changes (system, state, members, sheets...)."""
        return self._reading.fingerprint

    @cached_property
    def _projection(self) -> Projection:
        campaign, members = self._reading.read()
        view, table, _ = view_of_rows(self.registry, campaign, members)
        return project(view, table, self.viewer)

    @property
    def system(self) -> str:
        """The game system's key."""
        return self._reading.system

    @property
    def campaign_id(self) -> int:
        return self._reading.campaign_id

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
        return frozenset(self._reading.pictures or ())

    @property
    def portraits(self) -> dict[int, str]:
        """The characters' portraits, each player's digest (when asked for)."""
        return dict(self._reading.portraits or ())


async def snapshot_for_viewer(
    registry: Registry,
    app_token: str,
    player_id: int,
    *,
    pictures: bool = False,
    portraits: bool = False,
) -> Snapshot:
    """The campaign behind a Mini App token, for one of its active members only.

    Raises:
        NotAllowedNow: no such campaign, or the player is not in it.
        TryAgain: the database is unreachable.
    """
    reading = await read_by_token(app_token, pictures=pictures, portraits=portraits)
    if reading is None:
        raise NotAllowedNow(GONE)
    if player_id not in reading.member_ids():
        raise NotAllowedNow(NOT_IN)
    return Snapshot(registry, player_id, reading)


async def check_member(app_token: str, player_id: int) -> None:
    """That the player is an active member of the campaign behind the token (one query).

    The Mini App checks it before it reads a change's body.

    Raises:
        NotAllowedNow: no such campaign, or the player is not in it.
        TryAgain: the database is unreachable.
    """
    found = await membership(app_token, player_id)
    if found is None:
        raise NotAllowedNow(GONE)
    if not found:
        raise NotAllowedNow(NOT_IN)
