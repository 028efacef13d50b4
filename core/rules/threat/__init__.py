"""The "threat dice" system: d6 action dice against d8 threat dice that cut.

Modules, each pure (no I/O, no clock, no global random):

- :mod:`.dice` reads faces into the five results and applies cuts.
- :mod:`.roll` builds a pool (approach, bonuses, assist, threat, harm), rolls it
  with an injected RNG and burns Momentum on it.
- :mod:`.momentum` is the 0..6 Momentum track.
- :mod:`.notation` parses ``3d2t``.
- :mod:`.odds` gives exact odds and the ``python -m core odds threat`` command.
- :mod:`.sheet` is the character sheet value.
- :mod:`.panel` is the roll panel state machine the bot drives.
- :mod:`.table` seats members with a sheet, applies Mini App sheet edits and
  runs the ``threat.roll`` panel for the bot.
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.registry import Edges, GameSystem
from core.rules.threat.odds import ODDS_COMMAND
from core.rules.threat.table import ROLL_PANEL, ThreatCampaign, ThreatRollPanel, rolled_by
from core.rules.threat.undo import UNDO

SYSTEM = GameSystem(
    key="threat",
    name=N_("Threat dice"),
    summary=N_(
        "Roll d6s for your approach; the GM's d8 threat dice cut the result. Burn Momentum."
    ),
    odds=ODDS_COMMAND,
    campaign=ThreatCampaign(),
    panels={ROLL_PANEL: ThreatRollPanel()},
    rolled_by={ROLL_PANEL: rolled_by},  # each player's roll is their own
    roll_panel=ROLL_PANEL,
    undo=UNDO,  # undo: what stands, how steps are named
    # where it is shown: its bot features (commands, renderers) and its sheet page
    edges=Edges(features=("tgbot.features.threat",), sheet="webapp.sheets.threat"),
)
