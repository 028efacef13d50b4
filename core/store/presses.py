"""The button-press path's own statements: what a press checks before it takes the
campaign's lock, and the panel's save with a version check.

A press reads its panel, the campaign and its members through the one loader
(:data:`core.store.loader.LOAD`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.store.sql import Statement, dump_json, fetch


@dataclass(frozen=True)
class PanelHead:
    """What a press checks before taking the campaign's lock."""

    campaign_id: int
    version: int
    closed: bool


_HEAD = "SELECT campaign_id, version, closed FROM panel WHERE id = ?"

_SAVE = (
    "UPDATE panel SET state = ?, version = ?, closed = ?"
    " WHERE id = ? AND version = ? AND closed = ? RETURNING id"
)


async def panel_head(panel_id: int) -> PanelHead | None:
    rows = await fetch(_HEAD, (panel_id,))
    if not rows:
        return None
    row = rows[0]
    return PanelHead(int(row["campaign_id"]), int(row["version"]), bool(row["closed"]))


async def save_panel(panel_id: int, version: int, state: dict[str, Any], closed: bool) -> bool:
    """Store a panel's next version; False when it is no longer at ``version`` or closed."""
    return bool(await fetch(*save_statement(panel_id, version, state, closed)))


def save_statement(panel_id: int, version: int, state: dict[str, Any], closed: bool) -> Statement:
    """The statement of :func:`save_panel`: a row back when the panel was saved."""
    return _SAVE, (dump_json(state), version + 1, closed, panel_id, version, False)
