"""Buttons of the campaign lifecycle (taken by ``tgbot.features.campaign``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tgbot.callback import GeneralButton


@dataclass(frozen=True)
class NewGameButton(GeneralButton, verb="newgame"):
    """Start a game of this system (the answer to a bare /newgame)."""

    system: str


class EndAnswer(StrEnum):
    """The host's answer to "end the game?"."""

    END = "end"
    KEEP = "keep"


@dataclass(frozen=True)
class EndButton(GeneralButton, verb="endgame"):
    """End or keep the campaign, as it was when the host was asked."""

    answer: EndAnswer
    campaign_id: int
    version: int
