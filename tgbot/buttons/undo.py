"""The ``↩ Undo`` button under a panel (taken by ``tgbot.features.undo.press_undo``)."""

from __future__ import annotations

from dataclasses import dataclass

from tgbot.callback import GeneralButton


@dataclass(frozen=True)
class UndoButton(GeneralButton, verb="undo"):
    """Take back the step just taken on a panel, as it was drawn."""

    panel_id: int
    version: int
