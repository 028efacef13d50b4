"""Campaigns and panels: the use cases every game system shares.

Invariants: at most one live (active or paused) campaign per chat; a panel's
state changes only through its system's rules, one version at a time, inside
one transaction under the campaign's lock, so two presses at once, a
redelivered update or a stale button never apply an action twice.

The use cases live by kind in this package (lifecycle, presses, edits, queries);
:class:`Campaigns` is their one facade, built once in the composition root.
"""

from __future__ import annotations

from core.campaigns.edits import Edits
from core.campaigns.lifecycle import Lifecycle
from core.campaigns.presses import Presses
from core.campaigns.views import (
    JOIN_PREFIX,
    MOVED_ON,
    NO_GAME,
    NOTHING_TO_RESUME,
    RUNNING,
    STALE,
    CampaignView,
    Changed,
    EndedGame,
    JoinResult,
    MemberView,
    PanelView,
    Resumed,
    Retired,
    Retirement,
    SeatRow,
    build_view,
    describe_members,
)


class Campaigns(Lifecycle, Presses, Edits):
    """Every campaign and panel use case, with their dependencies passed in."""


__all__ = [
    "JOIN_PREFIX",
    "MOVED_ON",
    "NOTHING_TO_RESUME",
    "NO_GAME",
    "RUNNING",
    "STALE",
    "CampaignView",
    "Campaigns",
    "Changed",
    "EndedGame",
    "JoinResult",
    "MemberView",
    "PanelView",
    "Resumed",
    "Retired",
    "Retirement",
    "SeatRow",
    "build_view",
    "describe_members",
]
