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
from core.rules.errors import Malformed
from core.rules.registry import Registry, default_registry
from core.rules.table import Table
from core.words.i18n import N_


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


# A page may also have ``roll(what, name) -> (panel kind, words)``: the roll a tap on its
# sheet starts, as the game's chat command with those words would (see ``roll_of``).


@dataclass(frozen=True)
class MembersPage:
    """The page for a system without a sheet of its own: who plays."""

    key: str = ""
    template: str = "sheets/members.html"

    def context(self, view: CampaignView, table: Table, viewer_id: int) -> dict[str, Any]:
        return {
            "members": [{"name": m.name, "you": m.player_id == viewer_id} for m in view.members]
        }


NOT_A_ROLL = N_("That can't be rolled from the sheet.")


def roll_of(page: SheetPage, what: str, name: str) -> tuple[str, str]:
    """The panel kind and the command's words a tap on the sheet starts (``what`` the
    kind of thing tapped, ``name`` its name on the sheet), as the page says.

    Raises:
        Malformed: this page has nothing to roll by that tap.
    """
    roll = getattr(page, "roll", None)
    if roll is None:
        raise Malformed(NOT_A_ROLL)
    kind, argument = roll(what, name)
    return str(kind), str(argument)


def sheet_pages(
    modules: tuple[str, ...] | None = None, registry: Registry | None = None
) -> Mapping[str, SheetPage]:
    """Every system's sheet page, by system key (a module exports ``PAGE``, or ``PAGES``
    when it shows several games built from data)."""
    pages: dict[str, SheetPage] = {}
    for name in sheet_modules(registry) if modules is None else modules:
        module = importlib.import_module(name)
        for page in getattr(module, "PAGES", None) or (module.PAGE,):  # or one per game
            pages[page.key] = page
    return pages
