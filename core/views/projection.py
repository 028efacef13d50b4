"""One view per viewer: the campaign as one member may see it.

Every Mini App route (pages, JSON answers, the member's export, the map, card
pictures, the log, live notices) reads a campaign through this module or through
:func:`core.views.viewer_pages.snapshot_for_viewer`, and both hand out only a
:class:`Projection`: the campaign state and the members' sheets after the game
system's :meth:`~core.rules.registry.CampaignRules.projected` took out what this
member may not see. The raw state never reaches a view, so a new route cannot
show a secret by forgetting a filter (``tests/webapp/test_secrecy.py`` checks
every route, and that the web side reads campaigns only through here).

What each system keeps from whom is defined once, in its rules (for No Stone
Unturned: :mod:`core.rules.nsu.projection`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from core.campaigns import Campaigns, CampaignView, Changed
from core.campaigns.play import PlayerRef
from core.rules.errors import Malformed
from core.rules.log import LogKind, Words
from core.rules.roll_stats import Luck, expected_means, known_means, luck, remember
from core.rules.said import Joined
from core.rules.table import Json, Table
from core.runtime.errors import OneAtATime, TooHeavy, TryAgain
from core.runtime.heavy import HeavyWork
from core.store.models import LogEntry
from core.store.repo import guarded
from core.store.roll_history import PAGE_ROLLS, GameAt, StoredRoll, games_in, rolls_in
from core.store.unit import UnitOfWork
from core.views.open_panels import OpenPanel
from core.views.open_panels import open_panels as stored_panels
from core.words.i18n import Lang

LOG_LINES = 200


@dataclass(frozen=True)
class Projection:
    """A campaign as ``viewer`` may see it.

    Attributes:
        viewer: the member this is for.
        view: the campaign, its state projected.
        table: the state and the active members' sheets, projected.
    """

    viewer: int
    view: CampaignView
    table: Table


def project(view: CampaignView, table: Table, viewer: int) -> Projection:
    """The projection of a campaign (read whole) for one of its members."""
    seen = view.system.campaign.projected(table, viewer)
    return Projection(viewer, replace(view, state=seen.state), seen)


def listed(view: CampaignView) -> CampaignView:
    """A campaign for a list of games: who, where and what, without any state."""
    empty: Json = {}
    return replace(view, state=empty)


@dataclass(frozen=True)
class LogLineView:
    """One line of the campaign log (written public: see :mod:`core.rules.log`)."""

    kind: LogKind | str  # what the line is about; a tag this version does not know, as stored
    text: str
    players: tuple[int, ...]
    at: datetime
    words: Words | None = None  # the line in any language; None: only its text (older lines)

    def text_in(self, lang: Lang) -> str:
        """The line in ``lang``; a line kept before lines had words, as it was written."""
        return self.text if self.words is None else self.words.said(lang.gettext)


@dataclass(frozen=True)
class Edited:
    """A Mini App edit: the campaign after it, for the editor, and panels to redraw."""

    projection: Projection
    changed: Changed  # the open views it touched: the bot redraws or retires them


async def edit(
    campaigns: Campaigns,
    app_token: str,
    player: PlayerRef,
    action: str,
    payload: Json | Callable[[str], Json],
    *,
    unit: UnitOfWork | None = None,
) -> Edited:
    """Apply one Mini App edit; the editor gets their own projection of the result.

    Raises:
        Malformed, NotAllowedNow, NotYourTurn: the rules refuse it; nothing changes.
    """
    changed = await campaigns.edit(app_token, player, action, payload, unit=unit)
    return Edited(project(changed.campaign, changed.table, player.tg_id), changed)


async def games_of(campaigns: Campaigns, player: PlayerRef) -> tuple[CampaignView, ...]:
    """The live games a player is in, newest first, without their state."""
    return tuple(listed(v) for v in await campaigns.campaigns_of(player))


async def waiting_of(campaigns: Campaigns, games: tuple[CampaignView, ...]) -> dict[int, Joined]:
    """For each of ``games`` with a turn order or that waits on someone, whose turn it is,
    whom it waits on and for how long (public: the panels name them in the group)."""
    found: dict[int, Joined] = {}
    for game in games:
        line = await campaigns.waiting_of(game.id)
        if line is not None:
            found[game.id] = line
    return found


async def shared_stories_of(campaigns: Campaigns, player: PlayerRef) -> tuple[CampaignView, ...]:
    """The ended games a player hosted whose story link still opens, newest first."""
    return tuple(listed(v) for v in await campaigns.shared_stories_of(player))


async def log_of(projection: Projection, limit: int = LOG_LINES) -> tuple[LogLineView, ...]:
    """The newest ``limit`` log lines of the projected campaign, oldest first."""
    async with guarded():
        rows = await LogEntry.filter(campaign_id=projection.view.id).order_by("-id").limit(limit)
    return tuple(line_of(e) for e in reversed(rows))


def line_of(entry: LogEntry) -> LogLineView:
    """A stored log line as the log shows it."""
    return LogLineView(
        LogKind.read(entry.kind) or entry.kind,
        entry.text,
        tuple(entry.player_ids or ()),
        entry.created_at,
        Words.from_json(entry.words),
    )


async def open_panels(projection: Projection, kind: str) -> tuple[OpenPanel, ...]:
    """The campaign's open procedures of one kind, oldest first, as the viewer may see them,
    each read into its typed state (a panel whose state can't be read is left out)."""
    rules = projection.view.system.campaign
    panel = projection.view.system.panel(kind)
    seen: list[OpenPanel] = []
    for p in await stored_panels(projection.view.id, kind):
        state = rules.panel_seen_by(kind, p.state, projection.viewer)
        try:
            seen.append(replace(p, state=state, model=panel.read(state)))
        except Malformed:
            continue
    return tuple(seen)


@dataclass(frozen=True)
class RollHistory:
    """The rolls of a campaign's chat and topic, as the viewer may see them.

    Attributes:
        rolls: newest first, after the filters; a secret roll only if the viewer saw it.
        players: everyone with a roll here the viewer may see, by Telegram id, and name.
        games: the games played in this chat's topic, newest first.
        luck: per player, their visible rolls' average against the expected average.
    """

    rolls: tuple[StoredRoll, ...]
    players: tuple[tuple[int, str], ...]
    games: tuple[GameAt, ...]
    luck: dict[int, Luck]


async def _means(notations: set[str], heavy: HeavyWork, viewer: int) -> dict[str, float | None]:
    """The expected totals of a page's expressions: those this process knows, the others
    worked out in one heavy job as the viewer's, unless their last heavy job is still
    running (or this one runs too long): then the page goes without them."""
    found = known_means(notations)
    missing = tuple(sorted(notations - found.keys()))
    if missing:
        try:
            worked_out = await heavy.run_if_free(viewer, expected_means, missing)
        except (OneAtATime, TooHeavy, TryAgain):
            return found
        remember(worked_out)
        found.update(worked_out)
    return found


async def roll_history(
    projection: Projection,
    heavy: HeavyWork,
    *,
    who: int | None = None,
    game: int | None = None,
) -> RollHistory:
    """The roll history of the projected campaign's chat and topic, for its viewer.

    The expected totals are never worked out here (see :func:`_means`): a player whose
    rolls' expectations are not all known has no average against them on this page."""
    view = projection.view
    seen = await rolls_in(
        view.chat_tg_id, view.topic_id, projection.viewer, limit=PAGE_ROLLS, campaign=game
    )
    players: dict[int, str] = {}
    for r in seen:
        players.setdefault(r.player_tg_id, r.who)
    dice = [r for r in seen if r.system is None]  # a game system's roll has no expected total
    means = await _means({r.notation for r in dice}, heavy, projection.viewer)
    found = {
        p: luck(((r.notation, r.total) for r in dice if r.player_tg_id == p), means)
        for p in players
    }
    return RollHistory(
        rolls=tuple(r for r in seen if who is None or r.player_tg_id == who),
        players=tuple(players.items()),
        games=await games_in(view.chat_tg_id, view.topic_id),
        luck={p: v for p, v in found.items() if v is not None},
    )
