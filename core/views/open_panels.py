"""Open procedures of a campaign, read for the Mini App (e.g. rolls waiting for details)."""

from __future__ import annotations

from dataclasses import dataclass

from core.rules.table import Json
from core.store.loader import open_panel_rows


@dataclass(frozen=True)
class OpenPanel:
    """One open panel; ``model`` is its state as its rules read it (set by
    :func:`core.views.projection.open_panels`, once the state is projected)."""

    id: int
    version: int
    state: Json
    model: object = None


async def open_panels(campaign_id: int, kind: str) -> tuple[OpenPanel, ...]:
    """The campaign's open panels of one kind, oldest first (callers check membership)."""
    rows = await open_panel_rows(campaign_id, kind)  # the one loader's read of open panels
    return tuple(OpenPanel(row.id, row.version, row.state) for row in rows)
