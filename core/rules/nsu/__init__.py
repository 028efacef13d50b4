"""No Stone Unturned: character sheets, details, the Action Roll and its odds.

Pure like the rest of :mod:`core.rules`: no I/O, no clock, no global random.
"""

from __future__ import annotations

from core.rules.nsu.campaign import NsuCampaignRules
from core.rules.nsu.odds import ODDS_COMMAND
from core.rules.nsu.roll_panel import ROLL_RULES
from core.rules.registry import GameSystem

SYSTEM = GameSystem(
    key="nsu",
    name="No Stone Unturned",
    summary=(
        "Explore a world rebuilt after collapse: moods and aspects decide action rolls, "
        "details change the fiction, and collateral clocks count the cost."
    ),
    odds=ODDS_COMMAND,
    campaign=NsuCampaignRules(),
    panels={
        # one panel per line: kind -> rules
        ROLL_RULES.kind: ROLL_RULES,
    },
)
