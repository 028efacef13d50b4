"""Campaigns and panels: the use cases every game system shares.

Invariants: at most one live (active or paused) campaign per chat; a panel's
state changes only through its system's rules, one version at a time, inside
one transaction under the campaign's lock, so two presses at once, a
redelivered update or a stale button never apply an action twice.

The use cases live by kind in this package, each a class of its own on
:class:`~core.campaigns.base.CampaignsBase` (joining and a game's stages in
lifecycle.py, presses, edits, queries); :class:`Campaigns` wires them once, in the
composition root, and hands each use case out as the method of the class that has it.
"""

from __future__ import annotations

from core.campaigns.base import Dependencies
from core.campaigns.edits import Edits
from core.campaigns.lifecycle import Joining, Lifecycle
from core.campaigns.own_games import OwnGames
from core.campaigns.portraits import Portraits
from core.campaigns.posts import Posts
from core.campaigns.presses import Presses
from core.campaigns.queries import Queries
from core.campaigns.reminding import NudgeReading, Reminder, Reminding
from core.campaigns.system_rolls import SystemRolls
from core.campaigns.topics import TopicChanges
from core.campaigns.turns import Turns
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
from core.store.loader import games_count


class Campaigns(Dependencies):
    """Every campaign and panel use case, with their dependencies passed in.

    Each use case is bound here to the method of its own class (``campaigns.act`` is
    ``Presses.act`` of one ``Presses``): no layer of its own on the way.
    """

    def _wire(self) -> None:
        """Each use case built once, on the same dependencies, its methods bound here."""
        shared = (self.registry, self.rng, self.locks, self.events)
        clock = self.clock
        self.joining = joining = Joining(*shared, clock=clock)
        self.lifecycle = lifecycle = Lifecycle(*shared, clock=clock)
        self.presses = presses = Presses(*shared, clock=clock)
        self.edits = Edits(*shared, clock=clock)
        self.queries = Queries(*shared, clock=clock)
        self.turns = turns = Turns(*shared, clock=clock)
        self.reminding = Reminding(*shared, clock=clock)  # the reminders due, for the bot
        nudges = NudgeReading(*shared, clock=clock)
        self.nudge_setting = nudges.nudge_setting
        self.quiet_hours = nudges.quiet_hours  # a player's, kept with their time zone
        self.set_quiet_hours = nudges.set_quiet_hours
        self._bind_changes(joining, lifecycle, presses)
        self.saving = presses.saving  # a change to a campaign, the wait restarting after it
        # games over days: reminders and the turn order
        self.nudge = turns.nudge
        self.set_turns = turns.set_turns
        self.next_turn = turns.next_turn
        # posts in character: /say, /npc, inline
        self.posts = Posts(*shared, clock=clock)
        self.topics = TopicChanges(*shared, clock=clock)  # a topic closed or reopened
        self.portraits = Portraits(*shared, clock=clock)  # characters' portraits
        # a game of a group's own system moved on to its newest version
        self.use_newest = OwnGames(*shared, clock=clock).use_newest
        # a game system's own roll in secret
        self.roll_system_in_secret = SystemRolls(*shared, clock=clock).roll_in_secret
        self._bind_reads(self.queries)

    def _bind_changes(self, joining: Joining, lifecycle: Lifecycle, presses: Presses) -> None:
        # a new game, joining and leaving it
        self.new_game = joining.new_game
        self.join = joining.join
        self.complete_join = joining.complete_join
        self.leave = joining.leave
        # a game's stages
        self.set_status = lifecycle.set_status
        self.change_status = lifecycle.change_status
        self.ask_end = lifecycle.ask_end
        self.end = lifecycle.end
        self.keep_playing = lifecycle.keep_playing
        self.resume = lifecycle.resume
        self.last_ended = lifecycle.last_ended
        # panels
        self.open_panel = presses.open_panel
        self.bind_message = presses.bind_message
        self.act = presses.act
        # Mini App edits
        self.edit = self.edits.edit

    def _bind_reads(self, queries: Queries) -> None:
        self.current = queries.current
        self.last_ended_of = queries.last_ended_of
        self.require_current = queries.require_current
        self.for_viewer = queries.for_viewer
        self.at_a_glance = queries.at_a_glance
        self.waiting_of = queries.waiting_of
        self.table_for_viewer = queries.table_for_viewer
        self.campaigns_of = queries.campaigns_of
        self.games_count = games_count  # one count, for a private message's first line
        self.has_ended = queries.has_ended
        self.shared_stories_of = queries.shared_stories_of
        self.live_games = queries.live_games
        self.games_of_players = queries.games_of_players
        self.panel_at = queries.panel_at
        self.panel = queries.panel
        self.log_for_viewer = queries.log_for_viewer


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
    "Reminder",
    "Resumed",
    "Retired",
    "Retirement",
    "SeatRow",
    "build_view",
    "describe_members",
]
