"""Mini App edits for worldbuilding, character creation and Collateral Clocks.

Each edit takes the table, the acting player and a JSON payload, and goes
through the same rules as the bot's panels.
"""

from __future__ import annotations

from core.rules.nsu.campaign import EditHandler

EDITS: dict[str, EditHandler] = {}
