"""What one viewer may do with location cards on the Mini App's pages.

The map and the card authoring pages show a form or a button only where the rules
open it; they read :func:`page_choices` and ask nothing else. The same rules check
the change itself when it comes (the setup's actions, the picture's upload).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.rules.nsu.campaign import NsuCampaign
from core.rules.nsu.setup import may_author, may_revise
from core.rules.nsu.world import PlayerId, may_picture


@dataclass(frozen=True)
class CardsPageChoices:
    """What a viewer may do with location cards now.

    Attributes:
        author: they may write a new card (the setup waits on their locations).
        revisable: the ids of their own cards they may still rewrite.
        pictured: the ids of the cards they may give a picture (the ones they wrote).
    """

    author: bool = False
    revisable: frozenset[str] = frozenset()
    pictured: frozenset[str] = frozenset()


def page_choices(campaign: NsuCampaign, viewer: PlayerId) -> CardsPageChoices:
    """What ``viewer`` may do with the campaign's location cards now."""
    world = campaign.current_world()
    cards = () if world is None else world.cards
    setup = campaign.setup
    return CardsPageChoices(
        author=may_author(setup, viewer),
        revisable=frozenset(c.id for c in cards if may_revise(setup, viewer, c.id)),
        pictured=frozenset(c.id for c in cards if may_picture(c, viewer)),
    )
