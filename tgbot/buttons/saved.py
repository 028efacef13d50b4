"""The roll buttons of ``/saved`` (taken by ``tgbot.features.saved.press_saved``)."""

from __future__ import annotations

from dataclasses import dataclass

from tgbot.callback import GeneralButton


@dataclass(frozen=True)
class SavedRollButton(GeneralButton, verb="saved"):
    """Roll saved roll ``saved_id`` for whoever presses (theirs, or the table's here)."""

    saved_id: int
