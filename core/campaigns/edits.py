"""Mini App edits: a change to the campaign or a sheet through the system's rules.

An edit reads its campaign once, under the campaign's lock and inside the change's
transaction (the campaign, its chat and host, its members and their sheets: the one
loader's read, :func:`core.store.loader.read_by_token`), and builds everything it
returns from that read and what it saved: no second read of the same rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property

from core.campaigns.base import CampaignsBase, check_playing, settling, touching
from core.campaigns.play import PlayerRef
from core.campaigns.views import PANEL_CAMPAIGNS_KEPT, Changed, _OtherCampaign, view_of_rows
from core.rules.errors import NotAllowedNow
from core.rules.table import Json
from core.rules.undo import TallyRng
from core.store.loader import read_by_token
from core.store.sql import ran
from core.store.undo_steps import record_step
from core.store.unit import UnitOfWork


class Edits(CampaignsBase):
    """Mini App edit use cases."""

    @cached_property
    def _token_campaigns(self) -> dict[str, int]:
        """Which campaign a Mini App token opens (it never changes): an edit locks it at
        once and reads the campaign under the lock."""
        return {}

    async def edit(
        self,
        app_token: str,
        actor: PlayerRef,
        action: str,
        payload: Json | Callable[[str], Json],
        *,
        unit: UnitOfWork | None = None,
    ) -> Changed:
        """Apply a Mini App edit through the system's rules, in one transaction.

        The dice are this use case's RNG, as for panels. The result names the open
        panels whose messages show what changed; their redraws are recorded on ``unit``
        (the request's unit of work), sent after the commit.

        Args:
            payload: the edit's arguments, or how to read them given the campaign's
                game system (a page that shows game words in the viewer's language).

        Raises:
            NotAllowedNow: no such campaign, the player is not in it, or the rules
                refuse the edit now; nothing changes.
        """
        # The token's campaign, remembered from an earlier edit, or read first without a
        # lock; the read under the lock checks it (a token that opens another campaign
        # now, or none: read again, once).
        unit = unit or UnitOfWork()
        campaign_id = self._token_campaigns.get(app_token)
        for _ in range(2):
            if campaign_id is None:
                campaign_id = await self._campaign_of(app_token)
            try:
                async with self.saving(unit, campaign_id):
                    result = await self._edit(
                        campaign_id, app_token, actor, action, payload, unit=unit
                    )
            except _OtherCampaign:
                self._token_campaigns.pop(app_token, None)
                campaign_id = None
                continue
            await self.events.publish(campaign_id)
            return result
        raise NotAllowedNow("That game doesn't exist any more.")

    async def _edit(
        self,
        campaign_id: int,
        app_token: str,
        actor: PlayerRef,
        action: str,
        payload: Json | Callable[[str], Json],
        *,
        unit: UnitOfWork,
    ) -> Changed:
        """The edit, under the campaign's lock, in the change's transaction."""
        reading = await read_by_token(app_token)  # the one read of the campaign
        if reading is None or reading.campaign_id != campaign_id:
            raise _OtherCampaign()  # rolls the transaction back
        campaign, members = reading.read()
        view, before, member_ids = view_of_rows(self.registry, campaign, members)
        if view.member(actor.tg_id) is None:
            raise NotAllowedNow("You're not in this game. Join it with /join in its chat.")
        check_playing(campaign, any_time=view.system.any_time("", action))
        arguments = payload(campaign.system) if callable(payload) else payload
        rng = TallyRng(self.rng)  # undo: a step that drew on chance stands
        outcome = view.system.campaign.edit(before, actor.tg_id, action, arguments, rng)
        settle = settling(self.registry, campaign, before, member_ids, outcome)
        table = await ran(settle)
        await record_step(  # undo: keep what this edit replaced
            view.system,
            campaign.id,
            actor.tg_id,
            "",
            action,
            rng.rolled,
            before=before,
            outcome=outcome,
            member_ids=member_ids,
            campaign_version_after=campaign.version,
        )
        after = replace(view, state=campaign.state, version=campaign.version)
        touched = touching(self.registry, campaign.system, after, before, table)
        result = Changed(after, table, *await ran(touched))
        await unit.record(result)  # the redrawn panels, sent after the commit
        return result

    async def _campaign_of(self, app_token: str) -> int:
        """The campaign a token opens, read without a lock (then remembered)."""
        reading = await read_by_token(app_token)
        if reading is None:
            raise NotAllowedNow("That game doesn't exist any more.")
        if len(self._token_campaigns) >= PANEL_CAMPAIGNS_KEPT:
            self._token_campaigns.clear()
        self._token_campaigns[app_token] = reading.campaign_id
        return reading.campaign_id
