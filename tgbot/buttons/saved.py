"""The roll buttons of ``/saved`` (taken by ``tgbot.features.saved.press_saved``)."""

from __future__ import annotations

from dataclasses import dataclass

from tgbot.callback import GeneralButton


@dataclass(frozen=True)
class SavedRollButton(GeneralButton, verb="saved"):
    """Roll saved roll ``saved_id`` for whoever presses (theirs, or the table's here).

    ``owner`` is whose list the button is on; ``mark`` is the saved roll as the list
    showed it (:func:`core.campaigns.saved_rolls.mark`), so a list drawn before the roll
    was renamed, changed or deleted is redrawn instead of rolling something else.
    """

    saved_id: int
    owner: int
    mark: str
