"""Games over days: a game's reminders (``/nudge``) and its turn order (``/turns``,
``/next``), one use case each, in the shape of every other: load, rules, save.

The words a player typed arrive in the rules' English (the edge reads other languages'
keywords first, :func:`core.rules.typed.nudge_text`); the rules parse and decide
(:mod:`core.rules.reminders`, :mod:`core.rules.turns`); the store keeps the result
(:mod:`core.store.reminders`). The results are data for the edges to word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from core.campaigns.base import CampaignsBase, built, check_playing, touching
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.views import NO_GAME, PanelView
from core.rules.errors import Malformed, NotAllowedNow, NotYourTurn
from core.rules.reminders import NudgeWord, SetWait, parse_nudge
from core.rules.table import Role, Table
from core.rules.turns import (
    TurnOrder,
    TurnStep,
    choosable,
    next_turn,
    roll_order,
    set_order,
)
from core.store import reminders
from core.store.models import Campaign
from core.store.repo import guarded
from core.store.sql import ran
from core.store.undo_steps import record_turn_step
from core.store.unit import UnitOfWork

ONLY_HOST_WAIT = "Only the host sets how long this game waits before a reminder."
NOT_PLAYING = "You're not in this game."
UNKNOWN_PLAYER = "Nobody in this game is called “{name}”."
ROLL_WORDS = frozenset({"roll", "бросок"})  # /turns roll, as typed in English or Russian


@dataclass(frozen=True)
class NudgeSet:
    """What ``/nudge`` changed: the game's wait (None: off), or the player's mute."""

    campaign_id: int
    player: int
    wait: timedelta | None = None
    word: NudgeWord | None = None


@dataclass(frozen=True)
class TurnsChoice:
    """The players the host may put in order by tapping (``/turns`` alone), by name."""

    campaign_id: int
    players: tuple[int, ...]
    names: dict[int, str]
    order: TurnOrder | None


@dataclass(frozen=True)
class TurnsSet:
    """The game's turn order after ``/turns`` or ``/next``, with the step taken (its rolls)."""

    campaign_id: int
    step: TurnStep
    names: dict[int, str]
    redraw: tuple[PanelView, ...] = ()  # the open views, each showing whose turn it is now

    @property
    def order(self) -> TurnOrder | None:
        return self.step.after


class Turns(CampaignsBase):
    """A game's reminders and turn order."""

    async def _table_in(self, chat: ChatRef, player: PlayerRef) -> Table:
        campaign = await self._live(chat.tg_id, chat.topic)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        _, table, _ = await built(self.registry, campaign)
        if player.tg_id not in table.seats:
            raise NotAllowedNow(NOT_PLAYING)
        return table

    async def nudge(
        self, chat: ChatRef, player: PlayerRef, words: str, *, unit: UnitOfWork | None = None
    ) -> NudgeSet:
        """``/nudge 12h`` / ``off`` (the host: the game's wait) or ``mute`` / ``unmute``
        (anyone in the game, for themselves).

        Raises:
            Malformed: words that are no wait (nothing changes). NotYourTurn: a wait set by
            someone other than the host. NotAllowedNow: no game here, or not in it.
        """
        said = parse_nudge(words)  # bad input changes nothing, before any lock
        campaign = await self._live(chat.tg_id, chat.topic)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        async with self.saving(unit or UnitOfWork(), campaign.id):
            table = await self._table_in(chat, player)
            if isinstance(said, SetWait) or said is NudgeWord.OFF:
                if player.tg_id not in table.with_role(Role.HOST):
                    raise NotYourTurn(ONLY_HOST_WAIT)
                wait = said.wait if isinstance(said, SetWait) else None
                await reminders.set_wait(table.campaign_id, wait)
                return NudgeSet(table.campaign_id, player.tg_id, wait=wait, word=None)
            await reminders.set_muted(table.campaign_id, player.tg_id, said is NudgeWord.MUTE)
            settings = await reminders.settings_of(table.campaign_id)
            return NudgeSet(table.campaign_id, player.tg_id, wait=settings.wait, word=said)

    async def _playing_in(self, chat: ChatRef, player: PlayerRef) -> tuple[Campaign, Table]:
        """The chat's game, being played, and its table with ``player`` in it."""
        campaign = await self._live(chat.tg_id, chat.topic)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        check_playing(campaign)
        _, table, _ = await built(self.registry, campaign)
        if player.tg_id not in table.seats:
            raise NotAllowedNow(NOT_PLAYING)
        return campaign, table

    async def choosing(self, chat: ChatRef, player: PlayerRef) -> TurnsChoice:
        """``/turns`` alone, and each tap on its buttons before the last: who may be put in
        order, for the host to tap one after another (a read).

        Raises:
            NotYourTurn: not the host. NotAllowedNow: fewer than two players, no game here.
        """
        async with guarded():
            campaign, table = await self._playing_in(chat, player)
            order = (await reminders.settings_of(table.campaign_id)).order
        return TurnsChoice(campaign.id, choosable(table, player.tg_id), _names(table), order)

    async def set_turns(
        self,
        chat: ChatRef,
        player: PlayerRef,
        words: str,
        *,
        players: Sequence[int] | None = None,
        unit: UnitOfWork | None = None,
    ) -> TurnsSet:
        """``/turns Ana Bo Cy`` (that order, by the names in play), ``/turns roll``
        (rolled: each player's d20 and modifier, ties rolled off), or the ``players`` the
        host tapped in order; the host only. A step for ``/undo`` (a rolled one stands).

        Raises:
            Malformed: a name nobody has, or one named twice. NotYourTurn: not the host.
            NotAllowedNow: fewer than two players, no game here.
        """
        campaign = await self._live(chat.tg_id, chat.topic)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        unit = unit or UnitOfWork()
        async with self.saving(unit, campaign.id):
            campaign, table = await self._playing_in(chat, player)
            system = self.registry.find(table.system)
            before = (await reminders.settings_of(table.campaign_id)).order
            if players is not None:
                step = set_order(table, player.tg_id, players, before)
            elif words.strip().lower() in ROLL_WORDS:
                step = roll_order(table, player.tg_id, self.rng, system.turn_modifier, before)
            else:
                step = set_order(table, player.tg_id, _named(table, words), before)
            await self._keep(campaign, step)
            result = TurnsSet(table.campaign_id, step, _names(table), await self._redraw(campaign))
            await unit.record(result)
        return result

    async def next_turn(
        self, chat: ChatRef, player: PlayerRef, *, unit: UnitOfWork | None = None
    ) -> TurnsSet:
        """``/next``: the turn passes on, by its holder or the host. A step for ``/undo``.

        Raises:
            NotYourTurn: someone else's turn. NotAllowedNow: no order, no game here.
        """
        campaign = await self._live(chat.tg_id, chat.topic)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        unit = unit or UnitOfWork()
        async with self.saving(unit, campaign.id):
            campaign, table = await self._playing_in(chat, player)
            order = (await reminders.settings_of(table.campaign_id)).order
            step = next_turn(table, player.tg_id, order)
            await self._keep(campaign, step)
            result = TurnsSet(table.campaign_id, step, _names(table), await self._redraw(campaign))
            await unit.record(result)
        return result

    async def _redraw(self, campaign: Campaign) -> tuple[PanelView, ...]:
        """The game's open views, read after the order was kept: each shows whose turn it is."""
        view, table, _ = await built(self.registry, campaign)
        redraw, _, _ = await ran(
            touching(self.registry, campaign.system, view, table, table, turned=True)
        )
        return redraw

    async def _keep(self, campaign: Campaign, step: TurnStep) -> None:
        """Store the order a step left, keep the step for ``/undo``; the table moved on, so
        the wait starts again for the holder."""
        await reminders.set_turn_order(campaign.id, step.after)
        await record_turn_step(
            campaign.id,
            step.taken(),
            campaign.version,
            None if step.before is None else step.before.to_dict(),
            None if step.after is None else step.after.to_dict(),
        )


def _names(table: Table) -> dict[int, str]:
    return {p: seat.name for p, seat in table.seats.items()}


def _named(table: Table, words: str) -> list[int]:
    """The players ``words`` names, in order: each name as the game shows it (any case),
    separated by commas, or by spaces when every name is one word.

    Raises:
        Malformed: a name nobody in the game has.
    """
    by_name = {seat.name.casefold(): p for p, seat in table.seats.items()}
    if "," in words or words.strip().casefold() in by_name:  # one name alone may hold spaces
        parts = [w.strip() for w in words.split(",")]
    else:
        parts = words.split()
    found: list[int] = []
    for part in (p for p in parts if p):
        player = by_name.get(part.casefold())
        if player is None:
            raise Malformed(UNKNOWN_PLAYER, name=part[:40])
        found.append(player)
    return found
