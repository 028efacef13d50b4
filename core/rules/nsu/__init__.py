"""No Stone Unturned: character sheets, details, the Action Roll and its odds.

Pure like the rest of :mod:`core.rules`: no I/O, no clock, no global random.
"""

from __future__ import annotations

from core.rules.nsu.adventure_panel import ADVENTURE_PANEL, AdventurePanel
from core.rules.nsu.campaign import NsuCampaignRules
from core.rules.nsu.cards_panel import CARDS_PANEL, CardsPanel
from core.rules.nsu.character_panel import CHARACTER_PANEL, CharacterPanel
from core.rules.nsu.downtime_panel import DOWNTIME_RULES
from core.rules.nsu.glance import nsu_status_lines
from core.rules.nsu.log import nsu_log_lines
from core.rules.nsu.odds import ODDS_COMMAND
from core.rules.nsu.roll_panel import ROLL_RULES
from core.rules.nsu.safety_panel import SAFETY_PANEL, SafetyPanel
from core.rules.nsu.setup_panel import SETUP_PANEL, SetupPanel
from core.rules.nsu.undo import UNDO, is_safety
from core.rules.registry import Edges, GameSystem
from core.words.i18n import N_

SYSTEM = GameSystem(
    key="nsu",
    name=N_("No Stone Unturned"),
    summary=N_(
        "Explore a world rebuilt after collapse: moods and aspects decide action rolls, "
        "details change the fiction, and collateral clocks count the cost."
    ),
    odds=ODDS_COMMAND,
    first_step=N_("When everyone has joined, the host sends /begin to build the world together."),
    kept_at_end=N_(
        "Nothing is deleted: everyone's sheets, the map and the world so far, and the log are kept."
    ),
    campaign=NsuCampaignRules(),
    log_lines=nsu_log_lines,
    status_lines=nsu_status_lines,
    undo=UNDO,  # undo: what stands, how steps are named
    any_time=is_safety,  # the X-card, a knock, lines and veils: even while paused
    # where it is shown: its bot features (commands, renderers) and its sheet page
    edges=Edges(
        features=("tgbot.features.nsu", "tgbot.features.nsu_play"), sheet="webapp.sheets.nsu"
    ),
    panels={
        # one panel per line: kind -> rules
        SETUP_PANEL: SetupPanel(),
        CARDS_PANEL: CardsPanel(),
        CHARACTER_PANEL: CharacterPanel(),
        ADVENTURE_PANEL: AdventurePanel(),
        SAFETY_PANEL: SafetyPanel(),
        ROLL_RULES.kind: ROLL_RULES,
        DOWNTIME_RULES.kind: DOWNTIME_RULES,
    },
)
