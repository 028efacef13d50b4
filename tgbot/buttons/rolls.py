"""The ``👁 Reveal`` button under a secret roll (taken by ``tgbot.features.rolls.press_reveal``)."""

from __future__ import annotations

from dataclasses import dataclass

from tgbot.callback import GeneralButton


@dataclass(frozen=True)
class RevealButton(GeneralButton, verb="reveal"):
    """Show the secret roll ``roll_id`` to the chat (its roller or GM only)."""

    roll_id: int
