"""The buttons of ``/turns`` alone: the host taps the players in turn order (taken by
``tgbot.features.turns.press``)."""

from __future__ import annotations

from dataclasses import dataclass

from tgbot.callback import GeneralButton

ROLL_TAP = -1  # "Roll for it"
CLEAR_TAP = -2  # "Clear"


@dataclass(frozen=True)
class TurnsButton(GeneralButton, verb="turns"):
    """One tap: the game, how many players could be put in order when the buttons were
    drawn, the players picked so far (their places in that list, one base-36 digit
    each), and the tap (a place, :data:`ROLL_TAP` or :data:`CLEAR_TAP`)."""

    campaign_id: int
    count: int
    picked: str
    tap: int
