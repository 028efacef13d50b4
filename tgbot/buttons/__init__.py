"""The bot's general buttons (those outside panels), one module per feature.

Each button is a small frozen dataclass registered by its verb in
:mod:`tgbot.callback`; importing any of these modules imports them all, so every
verb is known before the first press is read.
"""

from tgbot.buttons import campaign, nsu, rolls, saved, undo

__all__ = ["campaign", "nsu", "rolls", "saved", "undo"]
