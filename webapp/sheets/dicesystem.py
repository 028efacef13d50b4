"""The pages of the library's games and of a group's own systems' games (see
:mod:`core.rules.dicesystem`): who plays, as for every game without a sheet of its own,
one page per game."""

from __future__ import annotations

from core.rules.dicesystem import OWN
from core.rules.systems import LIBRARY
from webapp.sheets import MembersPage

PAGES = tuple(MembersPage(key) for key in (*LIBRARY, OWN))
