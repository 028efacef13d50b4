"""An NSU campaign at a glance, for /status: public facts only, as plain text lines.

Nothing here reads a card's face unless the card is face up: where the party
stands is named by its title only once it is flipped. The edges escape the text.
"""

from __future__ import annotations

from core.rules.catalogue import N_
from core.rules.nsu.campaign import Phase, campaign_of, character_of
from core.rules.nsu.setup import describe_step
from core.rules.nsu.world import LocationCard, ResourceLevel
from core.rules.said import Joined, Said
from core.rules.table import Table

LEVEL_NAMES = {
    ResourceLevel.SCARCITY: N_("scarce"),
    ResourceLevel.NEUTRAL: N_("steady"),
    ResourceLevel.ABUNDANCE: N_("abundant"),
}
PHASE_NAMES = {
    Phase.SETUP: N_("setup"),
    Phase.ADVENTURE: N_("adventure"),
    Phase.DOWNTIME: N_("downtime"),
}


def _back(card: LocationCard) -> str:
    return card.back or "D? R?"


def _place(card: LocationCard) -> str:
    if not card.revealed:
        return Said(N_("{id} (face down, {back})"), id=card.id, back=_back(card))
    return f"{card.title} ({_back(card)})"


def nsu_status_lines(table: Table) -> tuple[str, ...]:
    """Where the campaign stands: the step or phase, resources, the map, characters, safety.

    Each line is a :class:`Said` (a message id with values), worded by the edge.
    """
    campaign = campaign_of(table)
    world = campaign.current_world()
    lines: list[str] = []
    if not campaign.began:
        lines.append(
            Said(N_("🌍 Worldbuilding hasn't begun: once everyone joined, the host taps /begin."))
        )
    elif campaign.setup is not None:
        lines.append(
            Said(N_("🌍 Worldbuilding: {step}."), step=Said(describe_step(campaign.setup.step)))
        )
    else:
        lines.append(Said(N_("🧭 Phase: {phase}."), phase=Said(PHASE_NAMES[campaign.phase])))
    if world is not None and world.resources:
        resources = [
            Said("{name} ({level})", name=r.name, level=Said(LEVEL_NAMES[r.level]))
            for r in world.resources
        ]
        lines.append(Said("📦 {resources}", resources=Joined(", ", resources)))
    if world is not None and world.grid is not None:
        flipped = sum(1 for c in world.cards if c.revealed)
        if world.current is None:
            lines.append(
                Said(
                    N_("📍 At home · {flipped} of {total} locations flipped."),
                    flipped=flipped,
                    total=len(world.cards),
                )
            )
        else:
            lines.append(
                Said(
                    N_("📍 At {place} · {flipped} of {total} locations flipped."),
                    place=_place(world.card(world.current)),
                    flipped=flipped,
                    total=len(world.cards),
                )
            )
    characters: list[str] = []
    for seat in table.seats.values():
        character = character_of(seat)
        if character is None:
            characters.append(Said(N_("{player}: making one"), player=seat.name))
        elif character.overcome:
            characters.append(
                Said(
                    N_("{character} ({player}), Overcome: can't act until healed"),
                    character=character.name,
                    player=seat.name,
                )
            )
        else:
            characters.append(f"{character.name} ({seat.name})")
    if characters:
        lines.append(Said(N_("🧍 Characters: {characters}"), characters=Joined("; ", characters)))
    safety = campaign.safety
    if safety.lines or safety.veils:
        lines.append(
            Said(
                N_("🚧 Lines: {lines} · Veils: {veils}"),
                lines=Joined("; ", safety.lines) if safety.lines else Said(N_("none")),
                veils=Joined("; ", safety.veils) if safety.veils else Said(N_("none")),
            )
        )
    lines.append(Said(N_("🛑 /xcard, ✊ /knock and 🚧 /lines are always there.")))
    return tuple(lines)
