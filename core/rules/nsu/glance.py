"""An NSU campaign at a glance, for /status: public facts only, as plain text lines.

Nothing here reads a card's face unless the card is face up: where the party
stands is named by its title only once it is flipped. The edges escape the text.
"""

from __future__ import annotations

from core.i18n import N_
from core.rules.nsu.campaign import campaign_of, character_of
from core.rules.nsu.setup import describe_step
from core.rules.nsu.world import LocationCard, ResourceLevel
from core.rules.table import Table

LEVEL_NAMES = {
    ResourceLevel.SCARCITY: N_("scarce"),
    ResourceLevel.NEUTRAL: N_("steady"),
    ResourceLevel.ABUNDANCE: N_("abundant"),
}


def _back(card: LocationCard) -> str:
    return card.back or "D? R?"


def _place(card: LocationCard) -> str:
    if not card.revealed:
        return f"{card.id} (face down, {_back(card)})"
    return f"{card.title} ({_back(card)})"


def nsu_status_lines(table: Table) -> tuple[str, ...]:
    """Where the campaign stands: the step or phase, resources, the map, characters, safety."""
    campaign = campaign_of(table)
    world = campaign.current_world()
    lines: list[str] = []
    if not campaign.began:
        lines.append("🌍 Worldbuilding hasn't begun: once everyone joined, the host taps /begin.")
    elif campaign.setup is not None:
        lines.append(f"🌍 Worldbuilding: {describe_step(campaign.setup.step)}.")
    else:
        lines.append(f"🧭 Phase: {campaign.phase.value}.")
    if world is not None and world.resources:
        lines.append(
            "📦 " + ", ".join(f"{r.name} ({LEVEL_NAMES[r.level]})" for r in world.resources)
        )
    if world is not None and world.grid is not None:
        here = "home" if world.current is None else _place(world.card(world.current))
        flipped = sum(1 for c in world.cards if c.revealed)
        lines.append(f"📍 At {here} · {flipped} of {len(world.cards)} locations flipped.")
    characters = []
    for seat in table.seats.values():
        character = character_of(seat)
        if character is None:
            characters.append(f"{seat.name}: making one")
        elif character.overcome:
            characters.append(f"{character.name} ({seat.name}), Overcome: can't act until healed")
        else:
            characters.append(f"{character.name} ({seat.name})")
    if characters:
        lines.append("🧍 Characters: " + "; ".join(characters))
    safety = campaign.safety
    if safety.lines or safety.veils:
        lines.append(
            "🚧 Lines: "
            + ("; ".join(safety.lines) or "none")
            + " · Veils: "
            + ("; ".join(safety.veils) or "none")
        )
    lines.append("🛑 /xcard, ✊ /knock and 🚧 /lines are always there.")
    return tuple(lines)
