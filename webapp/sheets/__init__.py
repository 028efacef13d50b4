"""Mini App pages for each game system's sheet.

Each system module exports ``PAGE``: a :class:`SheetPage` whose ``context``
decides, on the server, everything a viewer may see (nothing secret goes to a
client that may not see it), and whose template lives in
``templates/sheets/<key>.html``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from core.campaigns import CampaignView
from core.rules.registry import Registry, default_registry
from core.rules.table import Table


def sheet_modules(registry: Registry | None = None) -> tuple[str, ...]:
    """Each game's sheet page module, as its manifest names it."""
    return tuple(system.sheet_module for system in registry or default_registry())


class SheetPage(Protocol):
    @property
    def key(self) -> str:
        """The game system's key."""
        ...

    @property
    def template(self) -> str:
        """The page's template, under templates/."""
        ...

    def context(self, view: CampaignView, table: Table, viewer_id: int) -> dict[str, Any]:
        """What this viewer may see, as template variables (and JSON)."""
        ...


@dataclass(frozen=True)
class MembersPage:
    """The page for a system without a sheet of its own: who plays."""

    key: str = ""
    template: str = "sheets/members.html"

    def context(self, view: CampaignView, table: Table, viewer_id: int) -> dict[str, Any]:
        return {
            "members": [{"name": m.name, "you": m.player_id == viewer_id} for m in view.members]
        }


def sheet_pages(
    modules: tuple[str, ...] | None = None, registry: Registry | None = None
) -> Mapping[str, SheetPage]:
    """Every system's sheet page, by system key."""
    pages: dict[str, SheetPage] = {}
    for name in sheet_modules(registry) if modules is None else modules:
        page = importlib.import_module(name).PAGE
        pages[page.key] = page
    return pages
