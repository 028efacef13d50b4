"""Mini App edits: a change to the campaign or a sheet through the system's rules."""

from __future__ import annotations

from core.campaigns.base import CampaignsBase, check_playing, settling, touching
from core.campaigns.play import PlayerRef
from core.campaigns.views import (
    Changed,
)
from core.rules.table import Json
from core.rules.undo import TallyRng
from core.store.models import Campaign
from core.store.sql import ran
from core.store.undo_steps import record_step
from core.store.unit import UnitOfWork


class Edits(CampaignsBase):
    """Mini App edit use cases."""

    async def edit(
        self,
        app_token: str,
        actor: PlayerRef,
        action: str,
        payload: Json,
        *,
        unit: UnitOfWork | None = None,
    ) -> Changed:
        """Apply a Mini App edit through the system's rules, in one transaction.

        The dice are this use case's RNG, as for panels. The result names the open
        panels whose messages show what changed; their redraws are recorded on ``unit``
        (the request's unit of work), sent after the commit.
        """
        unit = unit or UnitOfWork()
        view = await self.for_viewer(app_token, actor)
        async with unit.saving(self.locks, f"campaign:{view.id}"):
            campaign = await Campaign.get(id=view.id)
            check_playing(campaign, any_time=view.system.any_time("", action))
            before, member_ids = await self._table(campaign)
            rng = TallyRng(self.rng)  # undo: a step that drew on chance stands
            outcome = view.system.campaign.edit(before, actor.tg_id, action, payload, rng)
            table = await ran(settling(self.registry, campaign, before, member_ids, outcome))
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
            after = await self._view(campaign)
            touched = touching(self.registry, campaign.system, after, before, table)
            result = Changed(after, table, *await ran(touched))
            await unit.record(result)  # the redrawn panels, sent after the commit
        await self.events.publish(view.id)
        return result
