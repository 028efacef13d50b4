"""Buttons of the /start message (taken by ``tgbot.features.start``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tgbot.callback import GeneralButton


class StartChoice(StrEnum):
    """What a /start button does besides opening the Mini App or a group."""

    ROLL = "roll"
    HELP = "help"


@dataclass(frozen=True)
class StartButton(GeneralButton, verb="start"):
    """One of the things the bot can do, tried from its greeting."""

    choice: StartChoice
