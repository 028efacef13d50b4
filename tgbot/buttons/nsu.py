"""No Stone Unturned buttons outside panels (taken by ``tgbot.features.nsu.press`` and,
for the scout's look, ``tgbot.features.nsu_play.look``)."""

from __future__ import annotations

from dataclasses import dataclass

from tgbot.callback import GeneralButton


@dataclass(frozen=True)
class XCardButton(GeneralButton, verb="nsu_x"):
    """Play the X-card in a campaign, anonymously."""

    campaign_id: int


@dataclass(frozen=True)
class KnockButton(GeneralButton, verb="nsu_knock"):
    """Knock in a campaign, anonymously."""

    campaign_id: int


@dataclass(frozen=True)
class CardsButton(GeneralButton, verb="nsu_cards"):
    """Open the player's locations panel in private (from the panel ``panel_id``)."""

    campaign_id: int
    panel_id: int


@dataclass(frozen=True)
class CharacterButton(GeneralButton, verb="nsu_char"):
    """Open the player's character panel in private (from the panel ``panel_id``)."""

    campaign_id: int
    panel_id: int


@dataclass(frozen=True)
class AdventureButton(GeneralButton, verb="nsu_adv"):
    """Open the adventure panel in the campaign's group."""

    campaign_id: int


@dataclass(frozen=True)
class MapButton(GeneralButton, verb="nsu_map"):
    """Send a picture of the campaign's map."""

    campaign_id: int


@dataclass(frozen=True)
class LookButton(GeneralButton, verb="scout_look"):
    """A successful scout sees the card from the downtime panel ``panel_id``, in private."""

    panel_id: int


NSU_BUTTONS = (XCardButton, KnockButton, CardsButton, CharacterButton, AdventureButton, MapButton)
