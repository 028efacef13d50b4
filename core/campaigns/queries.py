"""Reading campaigns: for a chat, a Mini App viewer, /status and the command menus."""

from __future__ import annotations

from core.campaigns.base import CampaignsBase, built
from core.campaigns.play import PlayerRef
from core.campaigns.views import (
    NO_GAME,
    STALE,
    CampaignView,
    EndedGame,
    PanelView,
    load_panel_view,
)
from core.rules.errors import NotAllowedNow
from core.rules.said import Joined, Said
from core.rules.table import Table
from core.rules.turns import turn_line
from core.rules.waiting import waiting_line
from core.store import reminders
from core.store.models import Campaign, CampaignStatus, LogEntry, Member, Panel, StoryLink
from core.store.repo import guarded
from core.store.undo_steps import undo_offer


class Queries(CampaignsBase):
    """Campaign and panel reads (no change, no lock)."""

    async def at_a_glance(
        self, chat_tg_id: int, topic: int = 0
    ) -> tuple[CampaignView, tuple[str, ...]]:
        """The chat's live campaign and what its system says of it for /status.

        Raises:
            NotAllowedNow: no game is running in this chat.
        """
        async with guarded():
            campaign = await self._live(chat_tg_id, topic)
            if campaign is None:
                raise NotAllowedNow(NO_GAME)
            view, table, _ = await built(self.registry, campaign)
            waiting = await self._waiting(view, table)
        lines = view.system.status_lines(table)
        return view, (*lines, *waiting)

    async def waiting_of(self, campaign_id: int) -> Joined | None:
        """Whose turn it is (``🔁 Turn: Bo (then Cy, Ana)``) and whom a game waits on and for
        how long (``⏳ Waiting on Bo for 2 h.``), as /status says it; None when it has no
        turn order and waits on nobody, or is paused or ended."""
        async with guarded():
            campaign = await Campaign.get_or_none(id=campaign_id)
            if campaign is None:
                return None
            view, table, _ = await built(self.registry, campaign)
            lines = await self._waiting(view, table)
        return Joined(" · ", lines) if lines else None

    async def _waiting(self, view: CampaignView, table: Table) -> tuple[Said, ...]:
        """The turn line and the waiting line, those there are."""
        if view.status is not CampaignStatus.ACTIVE:  # paused: nothing happens
            return ()
        awaited, since = await reminders.awaited_at(table, view.system)
        names = {p: seat.name for p, seat in table.seats.items()}
        order = (await reminders.settings_of(table.campaign_id)).order
        lines = (turn_line(order, names), waiting_line(awaited, names, since, self._now()))
        return tuple(line for line in lines if line is not None)

    async def table_for_viewer(
        self, app_token: str, player: PlayerRef
    ) -> tuple[CampaignView, Table]:
        """The campaign and its table, for one of its members only."""
        return await self._for_viewer(app_token, player)

    async def campaigns_of(self, player: PlayerRef) -> tuple[CampaignView, ...]:
        """The live campaigns a player is in, newest first."""
        async with guarded():
            rows = (
                await Campaign.filter(
                    members__player__tg_id=player.tg_id,
                    members__active=True,
                    live_chat_id__isnull=False,
                )
                .order_by("-id")
                .distinct()
            )
            return tuple([await self._view(c) for c in rows])

    async def last_ended_of(self, player: PlayerRef, system_key: str) -> EndedGame | None:
        """The most recently ended campaign of ``system_key`` a player was seated in."""
        async with guarded():
            campaign = (
                await Campaign.filter(
                    members__player__tg_id=player.tg_id,
                    members__active=True,
                    system=system_key,
                    status=CampaignStatus.ARCHIVED,
                )
                .order_by("-id")
                .first()
            )
            if campaign is None:
                return None
            return EndedGame.of(await self._view(campaign), campaign, self._now())

    async def shared_stories_of(self, player: PlayerRef) -> tuple[CampaignView, ...]:
        """The ended games a player hosted whose story link still opens, newest first
        (only their host may withdraw it)."""
        async with guarded():
            ended = await Campaign.filter(
                host__tg_id=player.tg_id, status=CampaignStatus.ARCHIVED
            ).order_by("-id")
            if not ended:
                return ()
            shared = set(
                await StoryLink.filter(
                    campaign_id__in=[c.id for c in ended], withdrawn_at__isnull=True
                ).values_list("campaign_id", flat=True)
            )
            return tuple([await self._view(c) for c in ended if c.id in shared])

    async def has_ended(self, campaign_id: int) -> bool:
        """Whether this campaign was played and has ended (an old button's game)."""
        async with guarded():
            return await Campaign.filter(id=campaign_id, status=CampaignStatus.ARCHIVED).exists()

    async def live_games(self) -> tuple[tuple[int, str], ...]:
        """Every live campaign's chat and game system (for the command menus)."""
        async with guarded():
            rows = await Campaign.filter(live_chat_id__isnull=False).values_list(
                "live_chat_id", "system"
            )
        return tuple((int(chat), str(system)) for chat, system in rows)

    async def games_of_players(self) -> dict[int, frozenset[str]]:
        """The game systems each player plays in live campaigns (for the command menus)."""
        async with guarded():
            rows = await Member.filter(
                active=True, campaign__live_chat_id__isnull=False
            ).values_list("player__tg_id", "campaign__system")
        games: dict[int, set[str]] = {}
        for player, system in rows:
            games.setdefault(int(player), set()).add(str(system))
        return {player: frozenset(keys) for player, keys in games.items()}

    async def panel_at(self, chat_tg_id: int, message_id: int) -> PanelView | None:
        """The open panel shown by a message, if any (for replies to it)."""
        async with guarded():
            panel = await Panel.get_or_none(
                chat_tg_id=chat_tg_id, message_id=message_id, closed=False
            )
        return None if panel is None else await self.panel(panel.id)

    async def panel(self, panel_id: int) -> PanelView:
        """A panel as its message shows it now, with its ``↩ Undo`` if one is due."""
        async with guarded():
            loaded = await load_panel_view(self.registry, panel_id)
            if loaded is None:
                raise NotAllowedNow(STALE)
            row, campaign = loaded.row, loaded.stored
            return loaded.view(await undo_offer(row.id, row.version, campaign.id, campaign.version))

    async def log_for_viewer(
        self, app_token: str, player: PlayerRef, limit: int = 200
    ) -> tuple[CampaignView, tuple[LogEntry, ...]]:
        """The newest ``limit`` log lines of a campaign, oldest first, for members only."""
        view = await self.for_viewer(app_token, player)
        async with guarded():
            rows = await LogEntry.filter(campaign_id=view.id).order_by("-id").limit(limit)
        return view, tuple(reversed(rows))
